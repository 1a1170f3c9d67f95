//! A strand file's bytes through the decoder (`tuft_tests::fuzz::strand_file`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tuft_tests::fuzz::strand_file(data));
