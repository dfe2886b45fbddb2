//! `cannctl lint` scored on real training scripts: the hand-labelled option-setting sites of
//! the public Ascend/ModelZoo-TensorFlow repository in `corpus/modelzoo.csv` (see its header).
//!
//! The scripts are not part of this repository, so the scoring test is `#[ignore]`d: point
//! `CANNCTL_MODELZOO` at a checkout of the commit the labels name (`git archive <commit> --
//! '*.py' | tar -x -C DIR` is enough) and run it with `--ignored` (README, "Tests on real
//! data"). It prints error precision, error recall, warning precision and warning recall with
//! every disagreement, and fails below the targets, or when the checkout is not given.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cann_config::meta::Severity;
use cann_config::OPTIONS;
use cann_lint::{lint_source, Finding, LintOptions};

const LABELS: &str = include_str!("../corpus/modelzoo.csv");

/// The share a score must reach.
const TARGET: f64 = 0.95;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    None,
    Warning,
    Error,
}

impl Verdict {
    fn parse(s: &str) -> Verdict {
        match s {
            "error" => Verdict::Error,
            "warning" => Verdict::Warning,
            "none" => Verdict::None,
            other => panic!("expected error, warning or none, found {other:?}"),
        }
    }

    fn of(s: Severity) -> Verdict {
        match s {
            Severity::Error => Verdict::Error,
            Severity::Warning => Verdict::Warning,
            // A note says nothing is wrong; it may accompany a clean site.
            Severity::Note => Verdict::None,
        }
    }
}

#[derive(Debug)]
struct Label {
    path: String,
    line: u32,
    surface: String,
    key: String,
    expected: Verdict,
    reason: String,
}

fn labels() -> Vec<Label> {
    let mut r = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(LABELS.as_bytes());
    let heads: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(
        heads,
        ["repo", "commit", "path", "line", "surface", "key", "expected", "reason"]
    );
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            Label {
                path: rec[2].to_string(),
                line: rec[3].parse().unwrap(),
                surface: rec[4].to_string(),
                key: rec[5].to_string(),
                expected: Verdict::parse(&rec[6]),
                reason: rec[7].to_string(),
            }
        })
        .collect()
}

/// The spec option a label's key names on its surface, if any.
fn option_path(l: &Label) -> Option<&'static str> {
    let last = l.key.rsplit('.').next().unwrap_or(&l.key);
    OPTIONS
        .iter()
        .find(|o| match l.surface.as_str() {
            "session" => o.session.is_some_and(|(k, _)| k == l.key),
            "tf2" => o.tf2 == Some(l.key.as_str()),
            "env" => o.env == Some(l.key.as_str()),
            _ => o.estimator == Some(l.key.as_str()) || (o.estimator.is_none() && o.name == last),
        })
        .map(|o| o.path)
}

/// Whether finding `f` is about the label's site (both are on the same line).
fn about(l: &Label, f: &Finding) -> bool {
    let opt = f.diagnostic.option.as_str();
    if option_path(l) == Some(opt) {
        return true;
    }
    let last = |s: &str| s.rsplit('.').next().unwrap_or(s).to_string();
    last(opt) == last(&l.key) || opt.ends_with(&format!(".{}", l.key)) || opt == l.key
}

#[derive(Default)]
struct Score {
    tp_err: usize,
    pred_err: usize,
    exp_err: usize,
    exp_warn: usize,
    found_warn: usize,
    /// Labelled sites whose strongest finding is a warning, whatever was expected.
    pred_warn: usize,
    /// Warnings on no labelled site: not scored (the site was not labelled), but shown.
    unlabelled_warn: usize,
    misses: Vec<String>,
}

fn corpus() -> Option<PathBuf> {
    std::env::var_os("CANNCTL_MODELZOO").map(PathBuf::from)
}

#[test]
fn labels_are_well_formed() {
    let ls = labels();
    let files: std::collections::BTreeSet<&str> = ls.iter().map(|l| l.path.as_str()).collect();
    assert!(ls.len() >= 200, "{} sites", ls.len());
    assert!(files.len() >= 50, "{} files", files.len());
    for l in &ls {
        assert!(
            ["session", "estimator", "tf2", "env"].contains(&l.surface.as_str()),
            "{l:?}"
        );
        assert!(!l.reason.is_empty(), "{l:?}");
    }
}

#[test]
#[ignore = "needs CANNCTL_MODELZOO, a checkout of Ascend/ModelZoo-TensorFlow (README: Tests on real data)"]
fn lint_on_labelled_modelzoo_sites() {
    let root = corpus().unwrap_or_else(|| {
        panic!(
            "set CANNCTL_MODELZOO to a checkout of Ascend/ModelZoo-TensorFlow to score lint on {} labelled sites",
            labels().len()
        )
    });
    let ls = labels();
    let mut by_file: BTreeMap<&str, Vec<&Label>> = BTreeMap::new();
    for l in &ls {
        by_file.entry(l.path.as_str()).or_default().push(l);
    }
    let opts = LintOptions::default();
    let mut s = Score::default();
    for (path, labels) in by_file {
        let bytes = std::fs::read(Path::new(&root).join(path))
            .unwrap_or_else(|e| panic!("{path}: {e} (is CANNCTL_MODELZOO the right checkout?)"));
        let text = String::from_utf8_lossy(&bytes);
        let report = lint_source(&text, &opts).unwrap();
        let mut claimed = vec![false; report.findings.len()];
        for l in &labels {
            let mut got = Verdict::None;
            let on_line: Vec<usize> = (0..report.findings.len())
                .filter(|i| report.findings[*i].line() == l.line)
                .collect();
            let alone = labels.iter().filter(|o| o.line == l.line).count() == 1;
            for i in on_line {
                let f = &report.findings[i];
                if alone || about(l, f) {
                    claimed[i] = true;
                    got = got.max(Verdict::of(f.severity()));
                }
            }
            if got == Verdict::Error {
                s.pred_err += 1;
            }
            if got == Verdict::Warning {
                s.pred_warn += 1;
            }
            match (&l.expected, &got) {
                (Verdict::Error, Verdict::Error) => s.tp_err += 1,
                (Verdict::Warning, Verdict::Warning) => s.found_warn += 1,
                _ => {}
            }
            s.exp_err += usize::from(l.expected == Verdict::Error);
            s.exp_warn += usize::from(l.expected == Verdict::Warning);
            if got != l.expected {
                s.misses.push(format!(
                    "{path}:{} {} `{}`: expected {:?}, lint {:?} ({})",
                    l.line, l.surface, l.key, l.expected, got, l.reason
                ));
            }
        }
        // An error nowhere near a labelled site counts against precision.
        for (f, _) in report.findings.iter().zip(&claimed).filter(|(_, c)| !**c) {
            if f.severity() == Severity::Error {
                s.pred_err += 1;
                s.misses.push(format!(
                    "{path}:{} unlabelled error: {}",
                    f.line(),
                    f.diagnostic.message
                ));
            }
            if f.severity() == Severity::Warning {
                s.unlabelled_warn += 1;
            }
        }
    }
    let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
    let precision = ratio(s.tp_err, s.pred_err);
    let recall = ratio(s.tp_err, s.exp_err);
    let warn_recall = ratio(s.found_warn, s.exp_warn);
    // A warning where the label expects nothing (or an error) is a false one.
    let warn_precision = ratio(s.found_warn, s.pred_warn);
    for m in &s.misses {
        println!("{m}");
    }
    println!(
        "{} sites: error precision {precision:.3} ({}/{}), error recall {recall:.3} ({}/{}), warning precision {warn_precision:.3} ({}/{}), warning recall {warn_recall:.3} ({}/{}); {} warnings on unlabelled lines",
        ls.len(),
        s.tp_err,
        s.pred_err,
        s.tp_err,
        s.exp_err,
        s.found_warn,
        s.pred_warn,
        s.found_warn,
        s.exp_warn,
        s.unlabelled_warn
    );
    assert!(precision >= TARGET, "error precision {precision:.3}");
    assert!(recall >= TARGET, "error recall {recall:.3}");
    assert!(warn_recall >= TARGET, "warning recall {warn_recall:.3}");
    assert!(
        warn_precision >= TARGET,
        "warning precision {warn_precision:.3}"
    );
}
