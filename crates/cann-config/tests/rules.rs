//! Every rule in `spec/rules.yaml` carries examples: config files it must fire on (`fires`)
//! and close neighbours it must stay quiet on (`quiet`). This runs each of them through the
//! reader and the validator users get, so a rule and its examples cannot drift apart, and a
//! rule written without examples fails here.

use std::path::Path;

use cann_config::meta::{RuleMeta, Severity};
use cann_config::{parse_config, validate, Product, Target, RULES};
use cann_spec::{Example, Rule};

/// The bundled spec, as cann-spec reads it (the examples are not compiled into the tables).
fn spec() -> cann_spec::Spec {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    cann_spec::load_dir(&dir).unwrap_or_else(|e| panic!("the bundled spec does not load: {e}"))
}

/// The newest release the rule applies to: its examples run there, on an Atlas A2
/// training server (a product that supports every option the rules read).
fn target(meta: &RuleMeta) -> Option<Target> {
    let release = meta.available.releases().last()?;
    Some(Target {
        product: Product::AtlasA2Training,
        release,
    })
}

/// Whether `rule` fires for the example, or why the example cannot be judged.
fn fires(ex: &Example, rule: &str, target: Target) -> Result<bool, String> {
    let file = parse_config(&ex.config).map_err(|e| format!("does not parse: {e:?}"))?;
    let reading: Vec<_> = file
        .diagnostics
        .iter()
        .filter(|d| d.rule.is_none() && matches!(d.severity, Severity::Error))
        .collect();
    if !reading.is_empty() {
        return Err(format!("has reading errors: {reading:?}"));
    }
    let report = validate(&file.config, target);
    Ok(report.diagnostics.iter().any(|d| d.rule == Some(rule)))
}

/// Every problem with one rule's examples, each naming the spec line to fix.
fn check_rule(rule: &Rule) -> Vec<String> {
    let id = rule.id.as_str();
    let mut problems = Vec::new();
    if rule.examples.fires.is_empty() || rule.examples.quiet.is_empty() {
        problems.push(format!(
            "{}: rule `{id}` needs at least one `fires` and one `quiet` example under `examples`",
            rule.loc
        ));
    }
    let Some(meta) = RULES.iter().find(|m| m.id == id) else {
        problems.push(format!("{}: rule `{id}` is not in RULES", rule.loc));
        return problems;
    };
    let Some(target) = target(meta) else {
        problems.push(format!("{}: rule `{id}` applies to no release", rule.loc));
        return problems;
    };
    let cases = (rule.examples.fires.iter().map(|e| (e, true)))
        .chain(rule.examples.quiet.iter().map(|e| (e, false)));
    for (ex, want) in cases {
        let verdict = match fires(ex, id, target) {
            Ok(got) if got == want => continue,
            Ok(true) => "fires, but the example is under `quiet`".to_string(),
            Ok(false) => "stays quiet, but the example is under `fires`".to_string(),
            Err(e) => e,
        };
        problems.push(format!(
            "{}: example of `{id}` at {} {}: {verdict}\n{}",
            ex.loc,
            target.release.id(),
            target.product.id(),
            ex.config
        ));
    }
    problems
}

#[test]
fn every_rule_fires_on_its_examples_and_stays_quiet_on_the_rest() {
    let spec = spec();
    assert_eq!(spec.rules.len(), RULES.len(), "spec and RULES disagree");
    let problems: Vec<String> = spec.rules.iter().flat_map(check_rule).collect();
    assert!(problems.is_empty(), "\n{}", problems.join("\n\n"));
}

/// The harness itself: an example that contradicts its rule is reported with its line, so
/// the test above cannot pass by judging nothing.
#[test]
fn a_contradicting_example_is_reported() {
    let spec = spec();
    let Some(rule) = spec
        .rules
        .iter()
        .find(|r| r.id == "op-debug-level-disables-cache")
    else {
        panic!("the bundled spec lost op-debug-level-disables-cache");
    };
    let mut swapped = rule.clone();
    std::mem::swap(&mut swapped.examples.fires, &mut swapped.examples.quiet);
    let problems = check_rule(&swapped);
    let judged = rule.examples.fires.len() + rule.examples.quiet.len();
    assert_eq!(problems.len(), judged, "{problems:?}");
    assert!(problems[0].contains("rules.yaml:"), "{}", problems[0]);

    let mut bare = rule.clone();
    bare.examples = cann_spec::RuleExamples::default();
    let problems = check_rule(&bare);
    assert!(problems[0].contains("needs at least one"), "{problems:?}");
}
