//! The fixture scripts' findings, pinned. Update with `cargo insta review` and read the diff.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::Path;

use cann_config::meta::Lang;
use cann_config::{Product, Release};
use cann_lint::{lint_source, LintOptions};

fn render(name: &str, opts: &LintOptions) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let r = lint_source(&text, opts).unwrap();
    let mut out = String::new();
    writeln!(out, "syntax errors: {}", r.syntax_errors).unwrap();
    for f in &r.findings {
        let d = &f.diagnostic;
        let line = text.lines().nth(f.line() as usize - 1).unwrap_or("").trim();
        writeln!(
            out,
            "{}:{} {} [{}] {} ({:?}/{:?})\n    | {line}\n    = {}",
            f.line(),
            f.column(),
            d.severity.as_str(),
            f.rule_id(),
            d.option,
            f.surface,
            f.kind,
            d.message
        )
        .unwrap();
        if let Some(e) = &d.expected {
            writeln!(out, "    = expected: {e}").unwrap();
        }
        if let Some(h) = &d.hint {
            writeln!(out, "    = hint: {h}").unwrap();
        }
    }
    out
}

fn any_product() -> LintOptions {
    LintOptions::default()
}

fn on(product: &str, release: &str) -> LintOptions {
    LintOptions {
        product: Some(product.parse::<Product>().unwrap()),
        release: release.parse::<Release>().unwrap(),
        lang: Lang::En,
    }
}

#[test]
fn estimator() {
    insta::assert_snapshot!(render("estimator_resnet50.py", &any_product()));
}

#[test]
fn estimator_on_an_older_release_and_product() {
    insta::assert_snapshot!(render(
        "estimator_resnet50.py",
        &on("atlas-a2-inference", "8.3.RC1")
    ));
}

#[test]
fn session() {
    insta::assert_snapshot!(render("session_bert.py", &any_product()));
}

#[test]
fn session_in_chinese() {
    let opts = LintOptions {
        lang: Lang::Zh,
        ..on("atlas-a2-training", "9.0.0")
    };
    insta::assert_snapshot!(render("session_bert.py", &opts));
}

#[test]
fn tf2() {
    insta::assert_snapshot!(render(
        "tf2_keras_gpt.py",
        &on("atlas-a3-training", "9.0.0")
    ));
}

#[test]
fn python2_script_with_syntax_errors_still_yields_findings() {
    insta::assert_snapshot!(render("py2_legacy_broken.py", &any_product()));
}

#[test]
fn a_script_without_npu_options_is_not_even_parsed() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/no_npu_options.py"),
    )
    .unwrap();
    let r = lint_source(&text, &any_product()).unwrap();
    assert!(r.findings.is_empty());
    assert!(!r.parsed);
}

/// One small script per pattern of real scripts (see each file's first comment).
mod patterns {
    use super::*;

    fn pattern(name: &str) -> String {
        render(&format!("patterns/{name}.py"), &any_product())
    }

    #[test]
    fn values_not_literals() {
        insta::assert_snapshot!(pattern("values_not_literals"));
    }

    #[test]
    fn branches() {
        insta::assert_snapshot!(pattern("branches"));
    }

    #[test]
    fn types() {
        insta::assert_snapshot!(pattern("types"));
    }

    #[test]
    fn unknown_names() {
        insta::assert_snapshot!(pattern("unknown_names"));
    }

    #[test]
    fn retired() {
        insta::assert_snapshot!(pattern("retired"));
    }

    #[test]
    fn retired_in_chinese() {
        let opts = LintOptions {
            lang: Lang::Zh,
            ..any_product()
        };
        insta::assert_snapshot!(render("patterns/retired.py", &opts));
    }

    #[test]
    fn twice() {
        insta::assert_snapshot!(pattern("twice"));
    }

    #[test]
    fn receivers() {
        let out = pattern("receivers");
        assert_eq!(out, "syntax errors: false\n", "{out}");
    }

    /// Old Mac line endings: a lone CR ends a line, for Python and for the positions.
    #[test]
    fn cr_only_line_endings_keep_positions() {
        let text = "import tensorflow as tf\rconfig = tf.ConfigProto()\rop = config.graph_options.rewrite_options.custom_optimizers.add()\r  \rop.parameter_map[\"op_debug_levl\"].i = 1\r";
        let r = lint_source(text, &any_product()).unwrap();
        let at: Vec<(u32, u32)> = r.findings.iter().map(|f| (f.line(), f.column())).collect();
        assert_eq!(at, vec![(5, 18)], "{:#?}", r.findings);
    }
}
