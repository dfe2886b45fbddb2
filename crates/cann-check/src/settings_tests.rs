#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

const GOOD: &str = r#"
[project]
name = "train"

[tool.cannctl]
product = "atlas-a2-training"
release = "8.0.RC3"
lang = "zh"
exclude = ["build/**", "*_gen.py"]
docs-url = "https://example.org/cannctl/"
"#;

#[test]
fn nearest_pyproject_with_the_table_wins() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "pyproject.toml", GOOD);
    // A nearer pyproject.toml without [tool.cannctl] is passed over, as ruff does.
    write(
        d.path(),
        "pkg/pyproject.toml",
        "[project]\nname = \"inner\"\n",
    );
    let script = write(d.path(), "pkg/sub/train.py", "");
    let s = resolve(&script, Lang::En).unwrap();
    assert_eq!(s.product.map(|p| p.id()), Some("atlas-a2-training"));
    assert_eq!(s.release.map(|r| r.id()), Some("8.0.RC3"));
    assert_eq!(s.lang, Some(Lang::Zh));
    assert_eq!(s.docs_url.as_deref(), Some("https://example.org/cannctl/"));
    assert_eq!(
        s.file.as_deref(),
        Some(d.path().join("pyproject.toml").as_path())
    );
    assert!(s.exclude.excludes(&d.path().join("build/x/y.py")));
    assert!(s.exclude.excludes(&d.path().join("build")));
    assert!(s.exclude.excludes(&d.path().join("pkg/sub/model_gen.py")));
    assert!(!s.exclude.excludes(&script));
    // Outside the pyproject's directory nothing is excluded.
    assert!(!s.exclude.excludes(Path::new("/elsewhere/build/x.py")));
}

#[test]
fn no_pyproject_gives_defaults() {
    let d = tempfile::tempdir().unwrap();
    let s = resolve(&d.path().join("a.py"), Lang::En).unwrap();
    // A pyproject.toml may sit above the temporary directory on this machine; none there
    // names a product for these tests.
    assert!(s.file.is_none() || s.product.is_none());
}

fn error_of(text: &str, lang: Lang) -> SettingsError {
    from_text(Path::new("/p/pyproject.toml"), text, lang).unwrap_err()
}

#[test]
fn an_unknown_key_is_placed_and_the_keys_listed() {
    let e = error_of(
        "[tool.cannctl]\nproduct = \"atlas-a2-training\"\nprodcut = 1\n",
        Lang::En,
    );
    assert_eq!(e.place, Some((3, 1)));
    assert_eq!(e.message, "unknown key `prodcut` in [tool.cannctl]");
    assert!(e.hint.as_deref().unwrap().contains("`docs-url`"));
    assert_eq!(e.place(), "/p/pyproject.toml:3:1");
}

#[test]
fn an_unknown_product_says_what_is_valid_in_chinese() {
    let e = error_of("[tool.cannctl]\nproduct = \"atlas-9\"\n", Lang::Zh);
    assert_eq!(e.place, Some((2, 11)));
    assert!(e.message.contains("atlas-9"), "{}", e.message);
    assert!(e.hint.unwrap().contains("atlas-a2-training"));
}

#[test]
fn wrong_types_bad_globs_and_bad_toml() {
    let e = error_of("[tool.cannctl]\nrelease = 8\n", Lang::En);
    assert_eq!(
        (e.place, e.message.as_str()),
        (Some((2, 11)), "`release` must be a string")
    );
    let e = error_of("[tool.cannctl]\nexclude = [\"ok/**\", \"a[\"]\n", Lang::En);
    assert_eq!(e.place, Some((2, 21)));
    assert!(
        e.message.starts_with("`a[` is not a valid glob"),
        "{}",
        e.message
    );
    let e = error_of("[tool.cannctl]\nlang = \"fr\"\n", Lang::Zh);
    assert_eq!(e.message, "未知语言 `fr`");
    let e = error_of("[tool.cannctl\nproduct = 1\n", Lang::En);
    assert_eq!(e.place.map(|p| p.0), Some(1));
    assert!(e.message.starts_with("not valid TOML"), "{}", e.message);
    let e = error_of("tool = 3\n", Lang::En);
    assert_eq!(e.message, "`tool` must be a table");
    let e = error_of("[tool.cannctl]\ndocs-url = \"file:///etc\"\n", Lang::En);
    assert!(e.message.contains("not an http(s) URL"));
}

#[test]
fn a_bad_pyproject_on_the_way_up_is_an_error_with_its_place() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "pyproject.toml",
        "[tool.cannctl]\nrelease = \"7.0\"\n",
    );
    let e = resolve(&d.path().join("x.py"), Lang::En).unwrap_err();
    assert_eq!(e.file, d.path().join("pyproject.toml"));
    assert_eq!(e.place, Some((2, 11)));
}

#[test]
fn columns_count_characters_after_cjk() {
    let e = error_of("# 设置\n[tool.cannctl]\nlang = \"中文\"\n", Lang::En);
    assert_eq!(e.place, Some((3, 8)));
}
