//! Diagnostics equal what `cannctl lint` / `cannctl check` find in the same text, in
//! English and Chinese.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use cann_config::meta::{Lang, Severity};
use lsp_types::{DiagnosticSeverity, NumberOrString};
use serde_json::json;
use support::{uri, Client, SCRIPT};

fn lsp_severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::INFORMATION,
    }
}

/// (line, rule id, severity, message) of every finding `cannctl lint` makes in `text`:
/// the command lints standard input with `cann_lint::lint_script`, as here.
fn lint_says(text: &str, lang: Lang) -> Vec<(u32, String, DiagnosticSeverity, String)> {
    let opts = cann_lint::LintOptions {
        lang,
        ..Default::default()
    };
    let o = cann_lint::lint_script(
        std::path::Path::new("x.py"),
        text.as_bytes().to_vec(),
        &opts,
    )
    .unwrap();
    o.findings()
        .map(|(_, f)| {
            (
                f.line() - 1,
                f.rule_id().to_string(),
                lsp_severity(f.severity()),
                f.diagnostic.message.clone(),
            )
        })
        .collect()
}

fn server_says(
    lang: Option<&str>,
    locale: Option<&str>,
) -> Vec<(u32, String, DiagnosticSeverity, String)> {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "train.py");
    let mut c = Client::start(json!({ "lang": lang }), locale);
    c.open(&u, "python", SCRIPT);
    let ds = c.diagnostics(&u, 1);
    c.shutdown();
    ds.into_iter()
        .map(|d| {
            let code = match d.code {
                Some(NumberOrString::String(s)) => s,
                other => panic!("{other:?}"),
            };
            (d.range.start.line, code, d.severity.unwrap(), d.message)
        })
        .collect()
}

#[test]
fn python_diagnostics_are_lints_findings_in_english() {
    let want = lint_says(SCRIPT, Lang::En);
    assert!(want.len() >= 5, "{want:#?}");
    assert_eq!(server_says(None, None), want);
}

#[test]
fn a_chinese_locale_gets_chinese_findings() {
    let want = lint_says(SCRIPT, Lang::Zh);
    assert_eq!(server_says(None, Some("zh-cn")), want);
    // The `lang` setting beats the locale.
    assert_eq!(server_says(Some("zh"), Some("en")), want);
    assert_ne!(want, lint_says(SCRIPT, Lang::En));
}

const CONFIG: &str = "product: atlas-a2-training\nnpu_run_config:\n  op_compiler_cache_mod: enable\n  precision_mode: force_fp33\n";

#[test]
fn config_diagnostics_are_checks_findings() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "job.yaml");
    let mut c = Client::start(json!({ "docsUrl": "https://example.org/cannctl/" }), None);
    c.open(&u, "yaml", CONFIG);
    let ds = c.diagnostics(&u, 1);
    let loaded = cann_check::load_text("job.yaml", CONFIG.into(), false, Lang::En).unwrap();
    let target = cann_check::target(None, None, &loaded.file, Lang::En).unwrap();
    let want = cann_check::diagnose(&loaded, target, None, Lang::En);
    assert_eq!(ds.len(), want.len(), "{ds:#?}");
    for (d, w) in ds.iter().zip(&want) {
        assert_eq!(d.message, w.message);
        assert_eq!(d.range.start.line + 1, w.line.unwrap());
        assert_eq!(d.severity, Some(lsp_severity(w.severity)));
    }
    // The option's docs page, from the configured docs URL.
    let href = ds
        .iter()
        .find_map(|d| d.code_description.as_ref())
        .expect("a docs page");
    assert!(
        href.href
            .as_str()
            .starts_with("https://example.org/cannctl/options/npu_run_config."),
        "{}",
        href.href
    );
    // Other YAML (a CI workflow) is not a config: no findings.
    let other = uri(dir.path(), "ci.yaml");
    c.open(
        &other,
        "yaml",
        "on: push\njobs:\n  x:\n    runs-on: ubuntu\n",
    );
    assert!(c.diagnostics(&other, 1).is_empty());
    c.shutdown();
}

#[test]
fn a_config_that_does_not_parse_gets_one_placed_error() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "bad.yaml");
    let mut c = Client::start(json!({}), Some("zh"));
    c.open(
        &u,
        "yaml",
        "product: atlas-a2-training\nnpu_run_config: [\n",
    );
    let ds = c.diagnostics(&u, 1);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(ds[0].severity, Some(DiagnosticSeverity::ERROR));
    c.shutdown();
}
