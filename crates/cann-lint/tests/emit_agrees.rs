//! `emit` and `lint` agree: every script `cannctl emit` writes for a valid config lints
//! without errors or warnings of its own making, on every Python surface. The configs are
//! the ones cann-config's own emit tests draw from the spec tables (shared generator).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../cann-config/tests/common/gen.rs"]
#[allow(dead_code)]
mod gen;

use cann_config::emit::{emit_for, Format};
use cann_config::meta::{Lang, Severity};
use cann_lint::{lint_source, FindingKind, LintOptions};

#[test]
fn every_emitted_script_of_a_valid_config_lints_clean() {
    let mut failures = Vec::new();
    let mut linted = 0;
    for (i, (d, f)) in gen::valid_configs(200, 24).into_iter().enumerate() {
        let opts = LintOptions {
            product: Some(d.target.product),
            release: d.target.release,
            lang: Lang::En,
        };
        for format in [Format::Estimator, Format::Session, Format::Tf2] {
            // A config a surface cannot carry is emit's to refuse, not lint's to judge.
            let Ok(code) = emit_for(&f.config, format, d.target.release) else {
                continue;
            };
            linted += 1;
            let report = lint_source(&code, &opts).unwrap();
            // Warnings the spec states about a valid value (deprecations, legacy
            // spellings) are the config's, and `check` says them too; lint's own kinds
            // (unknown names, types, accessors, surfaces) must never fire.
            let bad: Vec<String> = report
                .findings
                .iter()
                .filter(|x| x.severity() == Severity::Error || x.kind != FindingKind::Spec)
                .map(|x| format!("{}:{} {}", x.line(), x.column(), x.diagnostic.message))
                .collect();
            if !bad.is_empty() {
                failures.push(format!(
                    "generated #{i} as {format:?} for {:?}:\n{}\nconfig: {}\nemitted:\n{code}",
                    d.target,
                    bad.join("\n"),
                    d.text
                ));
            }
        }
    }
    assert!(linted > 300, "only {linted} scripts were emitted");
    assert!(
        failures.is_empty(),
        "{} of {linted} emitted scripts do not lint clean:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
