#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn site(marked: &str) -> Option<Site> {
    let at = marked.find('|').unwrap();
    let text = marked.replacen('|', "", 1);
    site_at(&text, at)
}

fn labels(s: &Site, f: &Filter) -> Vec<String> {
    candidates(s, f).into_iter().map(|c| c.label).collect()
}

const ALL: Filter = Filter {
    product: None,
    release: Release::LATEST,
};

#[test]
fn session_keys_after_the_open_quote() {
    let s = site("custom_op.parameter_map[\"prec|").unwrap();
    assert_eq!(s, Site::SessionKey { start: 25 });
    let l = labels(&s, &ALL);
    assert!(l.contains(&"precision_mode".to_string()), "{l:?}");
    assert!(l.contains(&"static_memory_policy".to_string()));
    // Keys only: no TF2 paths or keywords.
    assert!(!l.iter().any(|k| k.contains('.')), "{l:?}");
}

#[test]
fn keywords_of_the_open_class_across_lines() {
    let s = site("config = NPURunConfig(\n    enable_dump=True,\n    prec|").unwrap();
    match &s {
        Site::Keyword { class, .. } => assert_eq!(*class, "NPURunConfig"),
        other => panic!("{other:?}"),
    }
    assert!(labels(&s, &ALL).contains(&"precision_mode".to_string()));
    let s = site("m = MemoryConfig(|").unwrap();
    let l = labels(&s, &ALL);
    assert!(l.contains(&"static_memory_policy".to_string()), "{l:?}");
    assert!(!l.contains(&"precision_mode".to_string()));
    // Not a spec class.
    assert!(site("foo(|").is_none());
}

#[test]
fn tf2_attributes_by_segment() {
    let s = site("npu.global_options().|").unwrap();
    let l = labels(&s, &ALL);
    assert!(l.contains(&"memory_config".to_string()), "{l:?}");
    assert!(l.contains(&"precision_mode".to_string()));
    let s = site("npu.global_options().memory_config.st|").unwrap();
    assert_eq!(
        s,
        Site::Tf2 {
            prefix: "memory_config".into(),
            start: 35
        }
    );
    let c = candidates(&s, &ALL);
    assert!(c
        .iter()
        .any(|c| c.label == "static_memory_policy" && c.option.is_some()));
}

#[test]
fn values_where_a_value_is_typed() {
    let cases = [
        "custom_op.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"|",
        "c = NPURunConfig(precision_mode=\"|",
        "npu.global_options().precision_mode = \"|",
    ];
    for c in cases {
        match site(c) {
            Some(Site::Value { option, quoted, .. }) => {
                assert_eq!(option.path, "npu_run_config.precision_mode", "{c}");
                assert!(quoted, "{c}");
            }
            other => panic!("{c}: {other:?}"),
        }
    }
    assert!(matches!(
        site("os.environ[\"GE_USE_STATIC_MEMORY\"] = |"),
        Some(Site::Value { quoted: false, .. })
    ));
}

#[test]
fn env_names_and_filters() {
    let s = site("os.environ[\"GE_|").unwrap();
    assert!(labels(&s, &ALL).contains(&"GE_USE_STATIC_MEMORY".to_string()));
    // Every offered key is read in the release; none is retired there.
    let s = site("p.parameter_map['|").unwrap();
    for c in candidates(&s, &ALL) {
        let o = c.option.unwrap();
        assert!(o.removed_in(Release::LATEST).is_none(), "{}", o.path);
    }
}

#[test]
fn session_tail_uses_the_accessor() {
    let o = crate::names::session("precision_mode").unwrap();
    assert!(session_tail(o)
        .unwrap()
        .starts_with(".s = tf.compat.as_bytes(\""));
    let o = crate::names::session("static_memory_policy").unwrap();
    assert!(session_tail(o).unwrap().starts_with(".i = "));
}

#[test]
fn the_accessor_after_a_key_and_its_dot() {
    for (marked, key, acc) in [
        (
            "custom_op.parameter_map[\"precision_mode\"].|",
            "precision_mode",
            "s",
        ),
        (
            "custom_op.parameter_map['static_memory_policy'] . |",
            "static_memory_policy",
            "i",
        ),
        ("x.parameter_map[\"enable_dump\"].b|", "enable_dump", "b"),
    ] {
        let s = site(marked).unwrap_or_else(|| panic!("{marked}"));
        let at = marked.find('|').unwrap();
        let typed = marked[..at].len() - marked[..at].trim_end_matches(char::is_alphanumeric).len();
        match &s {
            Site::Accessor { option, start } => {
                assert_eq!(option.session.map(|(k, _)| k), Some(key), "{marked}");
                assert_eq!(*start, at - typed, "{marked}");
            }
            other => panic!("{marked}: {other:?}"),
        }
        let c = candidates(&s, &ALL);
        assert_eq!(c.len(), 1, "{marked}");
        assert_eq!(c[0].label, acc, "{marked}");
    }
    // A key the spec does not know has no accessor to offer.
    assert!(site("custom_op.parameter_map[\"no_such_key\"].|").is_none());
}

#[test]
fn no_panic_on_odd_offsets() {
    let t = "中文 parameter_map[\"";
    for i in 0..=t.len() + 2 {
        let _ = site_at(t, i);
    }
}
