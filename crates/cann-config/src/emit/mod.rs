//! Turning a config into what each consumer reads: the graph engine's option map,
//! Python for each TF Adapter surface, shell exports and JSON.
//!
//! Only options that are set are written, as the adapter itself does.

mod error;
mod ge;
mod python;

use std::fmt::Write as _;

pub use error::{EmitError, EmitErrorKind};
pub use ge::{ge_options, ge_options_for};

use crate::{Config, ValueRef, Visit, Visitor};

/// An output format of `cannctl emit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `ge.*` option map as JSON.
    Ge,
    /// `NPURunConfig(...)` for a TF1 Estimator.
    Estimator,
    /// `custom_op.parameter_map[...]` lines for a TF1 session.
    Session,
    /// `npu.global_options()` lines for TF2.
    Tf2,
    /// `export NAME=value` lines.
    Env,
    /// The config itself as JSON.
    Json,
}

impl Format {
    pub const ALL: &'static [(&'static str, Format)] = &[
        ("ge", Format::Ge),
        ("estimator", Format::Estimator),
        ("session", Format::Session),
        ("tf2", Format::Tf2),
        ("env", Format::Env),
        ("json", Format::Json),
    ];

    /// The format a user names (`emit --to`, the Python API's `to=`).
    pub fn from_name(name: &str) -> Option<Format> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    /// Every name `from_name` takes, in `ALL`'s order.
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|(n, _)| *n).collect()
    }
}

/// Renders `cfg` in `format`, as the newest release expects it.
pub fn emit(cfg: &Config, format: Format) -> Result<String, Vec<EmitError>> {
    emit_for(cfg, format, crate::Release::LATEST)
}

/// Renders `cfg` in `format`, as `release` expects it, or says every reason it cannot;
/// comments in English.
pub fn emit_for(
    cfg: &Config,
    format: Format,
    release: crate::Release,
) -> Result<String, Vec<EmitError>> {
    emit_in(cfg, format, release, crate::meta::Lang::En)
}

/// [`emit_for`] with the comments of emitted code (what a surface leaves out) in `lang`.
pub fn emit_in(
    cfg: &Config,
    format: Format,
    release: crate::Release,
    lang: crate::meta::Lang,
) -> Result<String, Vec<EmitError>> {
    let mut errors = uncarriable(cfg);
    let text = match format {
        Format::Ge => {
            let map = ge_options_for(cfg, release);
            serde_json::to_string_pretty(&map).unwrap_or_default() + "\n"
        }
        Format::Estimator => python::estimator(cfg, release, &mut errors, lang),
        Format::Session => python::session(cfg, lang),
        Format::Tf2 => python::tf2(cfg, lang),
        Format::Env => env(cfg),
        Format::Json => yaml_safe(serde_json::to_string_pretty(cfg).unwrap_or_default()) + "\n",
    };
    if errors.is_empty() {
        Ok(text)
    } else {
        Err(errors)
    }
}

/// Values no format can carry. Only U+0000 is such a character: the shell's single quotes
/// take every other one, Python string literals escape the rest (see `py_str`), and JSON
/// escapes control characters.
fn uncarriable(cfg: &Config) -> Vec<EmitError> {
    struct Scan(Vec<EmitError>);
    impl Visitor for Scan {
        fn value(&mut self, o: &'static crate::meta::OptionMeta, v: ValueRef<'_>) {
            if let ValueRef::Str(s) = v {
                if s.contains('\0') {
                    self.0.push(EmitError {
                        option: o.path,
                        kind: EmitErrorKind::Nul,
                    });
                }
            }
        }
    }
    let mut scan = Scan(Vec::new());
    cfg.visit(&mut scan);
    scan.0
}

/// `export NAME=value` for every environment variable the config sets.
fn env(cfg: &Config) -> String {
    struct Env(String);
    impl Visitor for Env {
        fn value(&mut self, o: &'static crate::meta::OptionMeta, v: ValueRef<'_>) {
            if let Some(name) = o.env {
                let _ = writeln!(self.0, "export {name}={}", shell_word(&plain(v)));
            }
        }
    }
    let mut e = Env(String::new());
    cfg.visit(&mut e);
    e.0
}

/// The value as the graph engine and the shell receive it.
pub fn plain(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Bool(b) => b.to_string(),
        ValueRef::Int(i) => i.to_string(),
        // As Python's `str()` writes a float, which is what the adapter would pass on.
        ValueRef::Float(x) => x.to_string(),
        ValueRef::Str(s) => s.to_string(),
        ValueRef::Cores(c) => c.to_string(),
    }
}

/// Escapes the characters JSON allows raw but YAML does not (DEL, C1 controls,
/// U+FFFE/U+FFFF), so emitted JSON reads back through the same YAML parser. Outside
/// strings JSON is plain ASCII, so every such character is inside a string.
fn yaml_safe(json: String) -> String {
    let bad =
        |c: char| matches!(c, '\u{7f}'..='\u{84}' | '\u{86}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}');
    if !json.chars().any(bad) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if bad(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Quotes a word for POSIX shells when it holds anything beyond safe characters.
fn shell_word(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_word("/home/a_b"), "/home/a_b");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
