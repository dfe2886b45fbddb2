#![allow(clippy::unwrap_used)]
use std::path::Path;

#[test]
fn bundled_spec_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    match cann_spec::load_dir(&dir) {
        Ok(spec) => {
            assert!(spec
                .option_by_path("npu_run_config.memory_config.static_memory_policy")
                .is_some());
        }
        Err(e) => panic!("{e}"),
    }
}
