//! Graph text through the RON loader and validation (`tuft_tests::fuzz::graph_text`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tuft_tests::fuzz::graph_text(data));
