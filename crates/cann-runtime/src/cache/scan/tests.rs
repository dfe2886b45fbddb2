//! Torn-entry reasons as values (kept apart so scan.rs stays small).
#![allow(clippy::unwrap_used)]

use super::*;

/// Why an entry is torn is a value: the OS error number (cannctl words it), the
/// parser's own text with nothing of ours around it, the name that would leave the
/// directory.
#[test]
fn torn_reasons_are_values_front_ends_word() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join("soc")).unwrap();
    let kc = std::fs::File::open(t.path()).unwrap();
    let why = |rel: &str| reinspect(kc.as_fd(), rel).unwrap_err().why;

    let TornWhy::DirUnreadable { errno, detail } = why("gone/te_a.json") else {
        panic!("{:?}", why("gone/te_a.json"));
    };
    assert_eq!(errno, Some(rustix::io::Errno::NOENT.raw_os_error()));
    assert!(!detail.is_empty());

    std::fs::write(t.path().join("soc/te_b.json"), "not json").unwrap();
    let TornWhy::ManifestInvalid { detail } = why("soc/te_b.json") else {
        panic!("{:?}", why("soc/te_b.json"));
    };
    assert!(detail.starts_with("expected"), "{detail}");

    std::fs::write(
        t.path().join("soc/te_c.json"),
        r#"{"binFileName":"../te_c","binFileSuffix":".o"}"#,
    )
    .unwrap();
    assert_eq!(
        why("soc/te_c.json"),
        TornWhy::ManifestBadName {
            name: "../te_c.o".into()
        }
    );
}
