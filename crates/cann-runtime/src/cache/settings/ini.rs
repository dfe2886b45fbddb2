//! `op_cache.ini`: a lossless reader/editor. Updating the version stamps rewrites only the
//! two stamp lines; every other byte (comments, unknown keys, other sections, line endings)
//! is kept, and the file is replaced atomically so a crash leaves the old file.

use crate::cache::settings::facts;

/// The section the compiler reads.
pub const SECTION: &str = facts::INI_SECTION;
/// Cache limit in MB.
pub const KEY_MAX_SIZE: &str = facts::INI_MAX_SIZE.name;
/// Share kept after aging, in percent.
pub const KEY_REMAIN_RATIO: &str = facts::INI_REMAIN_RATIO.name;
/// Toolkit (ADK) version stamp.
pub const KEY_ADK_VERSION: &str = facts::INI_ADK_VERSION.name;
/// Operator package version stamp.
pub const KEY_OPS_VERSION: &str = facts::INI_OPS_VERSION.name;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Section(String),
    Pair { key: String, value: String },
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    /// The line as read, including its terminator (`\n`, `\r\n` or none at end of file).
    raw: String,
    kind: Kind,
}

/// A parsed ini file that can be written back byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IniDoc {
    lines: Vec<Line>,
}

impl IniDoc {
    /// Parses like the upstream reader: `#`/`;` comments, `[section]`, `key = value` with both
    /// sides trimmed; a pair with an empty value is ignored, as upstream ignores it.
    pub fn parse(text: &str) -> Self {
        let lines = text
            .split_inclusive('\n')
            .map(|raw| {
                let body = raw.trim_end_matches(['\n', '\r']).trim();
                let kind = if body.starts_with('#') || body.starts_with(';') {
                    Kind::Other
                } else if let Some(rest) = body.strip_prefix('[') {
                    match rest.rfind(']') {
                        Some(end) => Kind::Section(rest[..end].trim().to_owned()),
                        None => Kind::Other,
                    }
                } else if let Some((k, v)) = body.split_once('=') {
                    let (k, v) = (k.trim(), v.trim());
                    if k.is_empty() || v.is_empty() {
                        Kind::Other
                    } else {
                        Kind::Pair {
                            key: k.to_owned(),
                            value: v.to_owned(),
                        }
                    }
                } else {
                    Kind::Other
                };
                Line {
                    raw: raw.to_owned(),
                    kind,
                }
            })
            .collect();
        IniDoc { lines }
    }

    /// The text, unchanged except for edits made through [`IniDoc::set`].
    pub fn render(&self) -> String {
        self.lines.iter().map(|l| l.raw.as_str()).collect()
    }

    /// True when `[section]` appears.
    pub fn has_section(&self, section: &str) -> bool {
        self.lines
            .iter()
            .any(|l| matches!(&l.kind, Kind::Section(s) if s == section))
    }

    /// The value of `key` in `section`; the last assignment wins, as upstream.
    pub fn get(&self, section: &str, key: &str) -> Option<&str> {
        let mut cur: Option<&str> = None;
        let mut found = None;
        for l in &self.lines {
            match &l.kind {
                Kind::Section(s) => cur = Some(s),
                Kind::Pair { key: k, value } if cur == Some(section) && k == key => {
                    found = Some(value.as_str())
                }
                _ => {}
            }
        }
        found
    }

    /// Sets `key` in `section`: the last existing assignment is rewritten in place (keeping
    /// its line ending); otherwise the pair is added at the end of the section, and a missing
    /// section is appended. Nothing else changes.
    pub fn set(&mut self, section: &str, key: &str, value: &str) {
        let eol = self.dominant_eol();
        let mut cur: Option<String> = None;
        let mut last_pair = None;
        let mut section_end = None;
        for (i, l) in self.lines.iter().enumerate() {
            match &l.kind {
                Kind::Section(s) => cur = Some(s.clone()),
                Kind::Pair { key: k, .. } if cur.as_deref() == Some(section) && k == key => {
                    last_pair = Some(i)
                }
                _ => {}
            }
            if cur.as_deref() == Some(section) {
                section_end = Some(i);
            }
        }
        if let Some(i) = last_pair {
            let line = &mut self.lines[i];
            let ending = if line.raw.ends_with("\r\n") {
                "\r\n"
            } else if line.raw.ends_with('\n') {
                "\n"
            } else {
                ""
            };
            line.raw = format!("{key}={value}{ending}");
            line.kind = Kind::Pair {
                key: key.to_owned(),
                value: value.to_owned(),
            };
            return;
        }
        let new = Line {
            raw: format!("{key}={value}{eol}"),
            kind: Kind::Pair {
                key: key.to_owned(),
                value: value.to_owned(),
            },
        };
        match section_end {
            Some(mut i) => {
                // Insert after the section's last non-blank line, so a blank separator stays
                // between sections.
                while i > 0
                    && self.lines[i].raw.trim().is_empty()
                    && !matches!(self.lines[i].kind, Kind::Section(_))
                {
                    i -= 1;
                }
                self.ensure_terminated(i, eol);
                self.lines.insert(i + 1, new);
            }
            None => {
                if let Some(last) = self.lines.len().checked_sub(1) {
                    self.ensure_terminated(last, eol);
                }
                self.lines.push(Line {
                    raw: format!("[{section}]{eol}"),
                    kind: Kind::Section(section.to_owned()),
                });
                self.lines.push(new);
            }
        }
    }

    fn ensure_terminated(&mut self, i: usize, eol: &str) {
        if !self.lines[i].raw.ends_with('\n') {
            self.lines[i].raw.push_str(eol);
        }
    }

    fn dominant_eol(&self) -> &'static str {
        let crlf = self
            .lines
            .iter()
            .filter(|l| l.raw.ends_with("\r\n"))
            .count();
        if crlf * 2 > self.lines.len() {
            "\r\n"
        } else {
            "\n"
        }
    }
}

/// The text of a new `op_cache.ini`: the section, the stamps, and the limit keys as comments
/// (their description, valid values and default, from the spec) so a user sees what can be
/// set.
pub fn new_ini_text(adk: &str, ops: &str) -> String {
    let mut text = format!("[{SECTION}]\n{KEY_ADK_VERSION}={adk}\n{KEY_OPS_VERSION}={ops}\n");
    for k in [facts::INI_MAX_SIZE, facts::INI_REMAIN_RATIO] {
        let unit = k.unit.map(|u| format!(" {u}")).unwrap_or_default();
        text.push_str(&format!(
            "# {} Valid: {}{unit}.\n#{}={}\n",
            k.doc.en,
            k.describe_values(),
            k.name,
            k.default.map(|d| d.to_string()).unwrap_or_default()
        ));
    }
    text
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_byte_exact() {
        let text = "# mine\r\n[op_compiler_cache]\r\nmax_op_cache_size = 800\r\nweird line\r\n[other]\nk=v";
        assert_eq!(IniDoc::parse(text).render(), text);
    }

    #[test]
    fn get_last_wins_and_sections_scope() {
        let d = IniDoc::parse("[a]\nmax_op_cache_size=1\n[op_compiler_cache]\nmax_op_cache_size=2\nmax_op_cache_size=3\nx=\n");
        assert_eq!(d.get(SECTION, KEY_MAX_SIZE), Some("3"));
        assert_eq!(d.get("a", KEY_MAX_SIZE), Some("1"));
        assert_eq!(d.get(SECTION, "x"), None);
    }

    #[test]
    fn set_keeps_everything_else() {
        let text = "# keep me\n[op_compiler_cache]\nadk_version=1\nmax_op_cache_size=800 \nuser_key=7\n\n[mine]\nz=1\n";
        let mut d = IniDoc::parse(text);
        d.set(SECTION, KEY_ADK_VERSION, "2");
        d.set(SECTION, KEY_OPS_VERSION, "9");
        let out = d.render();
        assert_eq!(
            out,
            "# keep me\n[op_compiler_cache]\nadk_version=2\nmax_op_cache_size=800 \nuser_key=7\nops_version=9\n\n[mine]\nz=1\n"
        );
    }

    #[test]
    fn set_appends_missing_section() {
        let mut d = IniDoc::parse("# only a comment");
        d.set(SECTION, KEY_ADK_VERSION, "1");
        assert_eq!(
            d.render(),
            "# only a comment\n[op_compiler_cache]\nadk_version=1\n"
        );
    }
}
