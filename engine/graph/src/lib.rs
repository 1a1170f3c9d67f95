//! # tuft-graph — the material graph engine
//!
//! A [`MaterialGraph`] wires procedural fields (noise, Voronoi, waves, math) into two
//! kinds of output: a PBR surface ([`PbrOutput`]) and named strand layers
//! ([`StrandLayer`]). This crate holds the model, the node vocabulary, RON files,
//! validation, CPU evaluation (parallel with rayon) and the scatter; `tuft-bake` writes
//! what it evaluates out as files.
//!
//! Conventions: fields are functions over one repeat of the material, with UV in
//! `[0, 1)`; lengths are in metres; angles are in turns; displacements are in UV units.
//! Grids are row-major with `v` growing down the rows, texel `(x, y)` at
//! `((x + ½)/w, (y + ½)/h)`.
//!
//! ```
//! use tuft_graph::{Domain, Evaluator, InRef, MaterialGraph, OutRef, Sink, validate};
//!
//! let mut graph = MaterialGraph::new("demo");
//! let noise = graph.add_node("Noise").unwrap();
//! let ramp = graph.add_node("ColorRamp").unwrap();
//! graph.connect(OutRef::new(noise, "out"), &InRef::Node { node: ramp, port: "t".into() }).unwrap();
//! graph.connect(OutRef::new(ramp, "out"), &InRef::Sink(Sink::Pbr("base_color".into()))).unwrap();
//!
//! // Every default generator tiles: no findings.
//! assert!(!validate(&graph).has_errors());
//!
//! // Evaluate the base colour on an 8×8 grid.
//! let colour = Evaluator::new(&graph)
//!     .eval_output(&OutRef::new(ramp, "out"), &Domain::grid(8, 8))
//!     .unwrap();
//! assert_eq!(colour.len(), 64);
//! ```

pub mod arrange;
pub mod cache;
pub mod clip;
pub mod connect;
pub mod diag;
pub mod document;
pub mod eval;
pub mod field;
pub mod graph;
pub mod groups;
pub mod images;
pub mod io;
pub mod layer;
pub mod layer_edit;
pub mod library;
pub mod limits;
pub mod link;
pub mod naming;
pub mod node;
pub mod nodes;
pub mod period;
pub mod picture;
pub mod scatter;
pub mod validate;
pub mod value;

pub use connect::ConnectError;
pub use diag::{Code, Diagnostic, Severity};
pub use document::Document;
pub use eval::Evaluator;
pub use field::{Domain, FIELD_RESOLUTION, Field};
pub use graph::{FORMAT_VERSION, MaterialGraph, Node, PbrOutput};
pub use io::LoadError;
pub use layer::{Profile, StrandLayer};
pub use link::{InRef, Input, NodeId, OutRef, Sink};
pub use node::{Category, NodeKind, ParamValue};
pub use period::Period;
pub use scatter::{ScatterError, scatter_layer};
pub use validate::{Report, validate, validate_without_waiting};
pub use value::{PortType, Value};
