#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cannctl_fuzz::lsp_document(data));
