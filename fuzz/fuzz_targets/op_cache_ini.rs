#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cannctl_fuzz::op_cache_ini(data));
