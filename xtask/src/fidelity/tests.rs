use super::*;

/// The command on the mirrors (`CANN_MIRRORS=/work/.mirror cargo test -p xtask --
/// --ignored fidelity`): the committed facts are what the mirrors give, and every
/// disagreement is a cited exception.
#[test]
#[ignore = "needs the upstream mirrors: CANN_MIRRORS=DIR"]
fn the_spec_agrees_with_the_mirrors() {
    let r = run(&["--check".to_string()]);
    assert!(
        r.is_ok(),
        "{}",
        r.err().map(|e| e.to_string()).unwrap_or_default()
    );
}

#[test]
fn without_mirrors_the_command_says_so() {
    let r = run(&[
        "--mirrors".to_string(),
        "/nonexistent/mirrors".to_string(),
        "--check".to_string(),
    ]);
    let e = r.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        e.starts_with("no upstream mirrors: nothing was compared"),
        "{e}"
    );
    assert!(e.contains("hicann+tensorflow"), "{e}");
}

#[test]
fn a_release_is_read_at_its_tag_else_its_pinned_commit() {
    let Some(dir) = std::env::var_os("CANN_MIRRORS").map(PathBuf::from) else {
        return;
    };
    let Ok(path) = mirror(&dir, ADAPTER) else {
        return;
    };
    let g = Git { dir: &path };
    let refs = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let nine = pick(
        &g,
        ADAPTER,
        &refs(&[
            "hicann/tensorflow@21f10b6",
            "hicann/tensorflow@tfa_v0.0.48_9.0.0",
        ]),
    );
    assert_eq!(nine.ok().flatten().as_deref(), Some("tfa_v0.0.48_9.0.0"));
    let next = pick(
        &g,
        ADAPTER,
        &refs(&[
            "hicann/tensorflow@master",
            "hicann/tensorflow@82957b9",
            "hicann/ge@x",
        ]),
    );
    assert_eq!(next.ok().flatten().as_deref(), Some("82957b9"));
}
