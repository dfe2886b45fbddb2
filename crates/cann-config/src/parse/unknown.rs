//! Findings about keys the spec does not know, and the names offered instead.
//!
//! Offering a name means scoring the key against every name its parent accepts
//! (about 150 under `npu_run_config`), a third of a millisecond a key: a file of
//! 100,000 unknown keys spent half a minute on hints nobody reads, since `check`
//! shows 100 findings by default. So only the first [`ReadLimits::suggested_keys`]
//! unknown keys of a file are scored; findings come in the file's order, so those
//! are the ones shown first, and one note counts the keys left without a hint.

use cann_i18n::catalog::config as msg;
use cann_spec::yaml::Node;

use super::{at, ParseCx};
use crate::meta::{ConfigKind, Lang, Severity};
use crate::{Diagnostic, Release};

/// How much work reading one file may spend on findings beyond what is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Unknown keys of a file that get a did-you-mean hint and the nearest
    /// names; the rest are reported without, and counted in one note.
    pub suggested_keys: usize,
}

impl Default for ReadLimits {
    /// Ten times what `check` shows by default, so every unknown key it shows
    /// has its hint.
    fn default() -> Self {
        Self {
            suggested_keys: 1_000,
        }
    }
}

/// How many names an "expected" list shows before it only counts the rest.
const NEAREST: usize = 5;

/// "one of a, b, c": every name when there are few, else the ones nearest to `got`.
pub(crate) fn expected_names(got: &str, known: &[&str], lang: Lang) -> String {
    let quoted = |names: &[&str]| lang.join(names.iter().map(|n| format!("`{n}`")));
    if known.len() <= NEAREST + 1 {
        return msg::one_of(lang, &quoted(known));
    }
    // Each name scored once (a sort's comparator would score each one log n times).
    let mut ranked: Vec<(f64, usize, &str)> = known
        .iter()
        .enumerate()
        .map(|(i, n)| (strsim::normalized_damerau_levenshtein(got, n), i, *n))
        .collect();
    // Stable: equally near names keep the spec's order.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let near: Vec<&str> = ranked.iter().take(NEAREST).map(|r| r.2).collect();
    msg::nearest_of(lang, &quoted(&near), known.len() - near.len())
}

/// Whether `parent.name` is an option the latest release no longer reads.
fn retired(parent: &str, name: &str) -> bool {
    crate::OPTIONS.iter().any(|o| {
        o.name == name
            && o.path.strip_suffix(name).and_then(|p| p.strip_suffix('.')) == Some(parent)
            && o.removed_in(Release::LATEST).is_some()
    })
}

impl ParseCx {
    pub fn unknown_key(&mut self, k: &Node, key: &str, parent: &str, known: &[&'static str]) {
        let lang = self.lang;
        let (path, m) = if parent.is_empty() {
            (key.to_string(), msg::unknown_top_key(lang, key))
        } else {
            (
                format!("{parent}.{key}"),
                msg::unknown_option(lang, key, parent),
            )
        };
        let (known, environment) = self.offered.entry(parent.to_string()).or_insert_with(|| {
            // Options the latest release no longer reads are still parsed (so `check`
            // can name their replacement) but are not offered for a misspelt key.
            let current: Vec<&'static str> = known
                .iter()
                .copied()
                .filter(|n| !retired(parent, n))
                .collect();
            // The environment holds many variables the spec has no reason to know
            // (HCCL's, the driver's, the user's own): one it does not know is
            // reported, not refused.
            let environment = crate::CONFIGS
                .iter()
                .any(|c| c.kind == ConfigKind::Environment && c.root_key == Some(parent));
            (current, environment)
        });
        let environment = *environment;
        let suggest = self.suggested < self.limits.suggested_keys;
        if suggest {
            self.suggested += 1;
        } else {
            self.unsuggested += 1;
        }
        let suggestion = if suggest {
            cann_spec::did_you_mean(key, known.iter().copied())
        } else {
            None
        };
        if environment {
            let m = msg::unknown_env_var(lang, key);
            let mut d = at(Diagnostic::new(Severity::Warning, &path, m), k.pos);
            d.hint = suggestion.map(|s| msg::did_you_mean(lang, s));
            self.diagnostics.push(d);
            return;
        }
        let expected = suggest.then(|| expected_names(key, known, lang));
        let d = self.error(k.pos, &path, m);
        d.expected = expected;
        d.hint = suggestion.map(|s| msg::did_you_mean(lang, s));
    }

    /// One note for the unknown keys left without suggestions, if any.
    pub(super) fn count_unsuggested(&mut self) {
        if self.unsuggested > 0 {
            let m = msg::suggestions_left_out(self.lang, self.unsuggested, self.suggested);
            self.diagnostics
                .push(Diagnostic::new(Severity::Note, "", m));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// A misspelt key first, `n` unknown keys, then the same misspelling again.
    fn flood(n: usize) -> String {
        let mut keys = vec!["\"op_compiler_cache_mod\": \"enable\"".to_string()];
        keys.extend((0..n).map(|i| format!("\"bogus_{i:05}\": 1")));
        keys.push("\"op_compiler_cache_mdoe\": \"enable\"".into());
        format!("{{\"npu_run_config\": {{{}}}}}", keys.join(", "))
    }

    fn read(text: &str, limits: ReadLimits, lang: Lang) -> crate::ConfigFile {
        let doc = cann_spec::yaml::parse(text).unwrap();
        crate::parse::read_document_with(&doc, lang, limits).unwrap()
    }

    #[test]
    fn the_first_unknown_keys_get_their_hint_and_the_rest_are_counted() {
        let file = read(&flood(1_500), ReadLimits::default(), Lang::En);
        let ds = &file.diagnostics;
        assert_eq!(ds.len(), 1_503);
        assert_eq!(ds[0].option, "npu_run_config.op_compiler_cache_mod");
        assert_eq!(
            ds[0].hint.as_deref(),
            Some("did you mean `op_compiler_cache_mode`?")
        );
        assert!(ds[0].expected.is_some());
        assert!(ds[999].expected.is_some());
        // Past the first 1,000: reported, without the hint or the nearest names.
        let late = &ds[1_501];
        assert_eq!(late.option, "npu_run_config.op_compiler_cache_mdoe");
        assert_eq!((late.hint.as_ref(), late.expected.as_ref()), (None, None));
        assert!(ds[1_000].expected.is_none());
        let note = &ds[1_502];
        assert_eq!(note.severity, Severity::Note);
        assert_eq!(
            note.message,
            "502 more unknown keys have no did-you-mean hint: only the first 1000 of a file are compared with the known names"
        );
    }

    #[test]
    fn under_the_limit_every_key_has_its_hint_and_no_note() {
        let limits = ReadLimits { suggested_keys: 2 };
        let file = read(&flood(0), limits, Lang::Zh);
        let ds = &file.diagnostics;
        assert_eq!(ds.len(), 2);
        assert!(ds.iter().all(|d| d.hint.is_some() && d.expected.is_some()));
        let file = read(&flood(1), limits, Lang::Zh);
        let ds = &file.diagnostics;
        assert_eq!(ds.len(), 4);
        assert_eq!(ds[2].hint, None);
        assert!(
            ds[3].message.contains("另有 1 个未知键"),
            "{}",
            ds[3].message
        );
    }

    #[test]
    fn environment_keys_count_toward_the_limit() {
        let text = "{\"env\": {\"ASCEND_DEVICE_IDD\": \"1\", \"ASCEND_DEVICE_DI\": \"1\"}}";
        let file = read(text, ReadLimits { suggested_keys: 1 }, Lang::En);
        let ds = &file.diagnostics;
        assert_eq!(ds.len(), 3, "{ds:#?}");
        assert_eq!(ds[0].severity, Severity::Warning);
        assert_eq!(
            ds[0].hint.as_deref(),
            Some("did you mean `ASCEND_DEVICE_ID`?")
        );
        assert_eq!(ds[1].hint, None);
        assert_eq!(ds[2].severity, Severity::Note);
    }
}
