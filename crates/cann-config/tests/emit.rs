//! Emitters refuse what their targets cannot carry, and fill what upstream requires.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::emit::{emit, EmitErrorKind, Format};

#[test]
fn a_nul_character_is_refused_by_every_format_and_by_check() {
    // YAML's "\0" escape is how a NUL reaches a config.
    let f = common::parse(
        "npu_run_config:\n  op_debug_config: \"a\\0b\"\nenv:\n  ASCEND_CACHE_PATH: \"/x\\0y\"\n",
    );
    for (name, format) in Format::ALL {
        let errors = emit(&f.config, *format).expect_err(name);
        let mut paths: Vec<&str> = errors.iter().map(|e| e.option).collect();
        paths.sort_unstable();
        assert_eq!(
            paths,
            ["env.ASCEND_CACHE_PATH", "npu_run_config.op_debug_config"],
            "{name}"
        );
        assert!(errors.iter().all(|e| e.kind == EmitErrorKind::Nul));
    }
    let ds = common::check(
        "npu_run_config:\n  op_debug_config: \"a\\0b\"\n",
        "atlas-a2-training",
        "9.0.0",
    );
    let errors = common::errors(&ds);
    assert_eq!(errors.len(), 1, "{ds:#?}");
    assert!(errors[0].message.contains("NUL"), "{}", errors[0].message);
}

#[test]
fn other_control_characters_travel_escaped() {
    let f = common::parse("npu_run_config:\n  op_debug_config: \"a\\tb\\u0001'\\\"\"\n");
    let env = emit(&f.config, Format::Session).unwrap();
    assert!(
        env.contains(r#"tf.compat.as_bytes("a\tb\x01'\"")"#),
        "{env}"
    );
}
