//! Graph text evaluated: a tiny PBR bake and small scatters (`tuft_tests::fuzz::tiny_eval`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tuft_tests::fuzz::tiny_eval(data));
