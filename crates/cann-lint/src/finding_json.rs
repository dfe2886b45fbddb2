//! A finding as JSON (`cannctl lint --format json`, the Python package): its fields and
//! its diagnostic's, with `rule` naming the rule that made it for every kind of finding, the
//! id SARIF gives as `ruleId` (a spec rule, an option path, or one of lint's own rules).

use cann_config::Diagnostic;
use serde::{Serialize, Serializer};

use crate::{Finding, FindingKind, Fix, Surface};

#[derive(Serialize)]
struct Out<'a> {
    surface: Surface,
    kind: FindingKind,
    rule: &'a str,
    #[serde(flatten)]
    diagnostic: Diagnostic,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<&'a Fix>,
}

impl Serialize for Finding {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The diagnostic's own `rule` is the spec rule alone; the id above says it too.
        let diagnostic = Diagnostic {
            rule: None,
            ..self.diagnostic.clone()
        };
        Out {
            surface: self.surface,
            kind: self.kind,
            rule: self.rule_id(),
            diagnostic,
            fix: self.fix.as_ref(),
        }
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use crate::{lint_source, LintOptions};

    /// Every finding names its rule, as SARIF's `ruleId` does: lint's own rules too, not
    /// only the spec's.
    #[test]
    fn every_finding_names_its_rule_once() {
        let text = "custom_op.parameter_map[\"precison_mode\"].s = tf.compat.as_bytes(\"x\")\n\
                    custom_op.parameter_map[\"op_compiler_cache_mode\"].i = 1\n\
                    custom_op.parameter_map[\"static_memory_policy\"].i = 2\n";
        let r = lint_source(text, &LintOptions::default()).unwrap();
        assert!(r.findings.len() >= 3, "{:?}", r.findings);
        let json = serde_json::to_value(&r.findings).unwrap();
        let ids: Vec<&str> = json
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap_or_default())
            .collect();
        let want: Vec<&str> = r.findings.iter().map(|f| f.rule_id()).collect();
        assert_eq!(ids, want);
        for id in [
            "unknown-option",
            "session-accessor",
            "static-memory-policy-not-concurrent",
        ] {
            assert!(ids.contains(&id), "{id} in {ids:?}");
        }
        // One `rule` key per finding, though the diagnostic has its own.
        let text = serde_json::to_string(&r.findings).unwrap();
        assert_eq!(text.matches("\"rule\":").count(), r.findings.len());
    }
}
