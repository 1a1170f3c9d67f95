//! The graph engine's promises seen through its public API, one test binary (each binary
//! links the whole engine): period inference against the numbers, and the scatter.

mod periods;
mod scatter;
