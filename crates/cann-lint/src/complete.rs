//! What may be typed at a place of a script, for an editor's completion: read from the text
//! before the cursor, since code being typed (`parameter_map["`) does not parse yet; the
//! names offered are the linter's own tables, filtered to a product and release.

use std::sync::LazyLock;

use cann_config::meta::{supports, Accessor, OptionMeta};
use cann_config::{Product, Release, OPTIONS};
use regex::Regex;

use crate::names;

/// A place where a name or a value is being typed; `start` is the byte where the partial
/// word begins (what a completion replaces, up to the cursor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// `parameter_map["...`: a session key.
    SessionKey { start: usize },
    /// `parameter_map["key"].`: the accessor `option` is read with, and its value.
    Accessor {
        option: &'static OptionMeta,
        start: usize,
    },
    /// A keyword argument of a spec class: `NPURunConfig(..., ...`.
    Keyword { class: &'static str, start: usize },
    /// `global_options().a.b....`: an attribute below `prefix` (`a.b`, empty at the top).
    Tf2 { prefix: String, start: usize },
    /// `os.environ["...`: an environment variable.
    Env { start: usize },
    /// A value of `option`; `quoted` when the cursor is inside a string.
    Value {
        option: &'static OptionMeta,
        start: usize,
        quoted: bool,
    },
}

/// A script's context is read at most this far back from the cursor.
const LOOKBACK: usize = 8 * 1024;

#[allow(clippy::unwrap_used)] // constant patterns, checked by the tests
fn re(p: &str) -> Regex {
    Regex::new(p).unwrap()
}

static SESSION_KEY: LazyLock<Regex> = LazyLock::new(|| re(r#"parameter_map\[\s*["']([\w.\-]*)$"#));
static SESSION_ACCESSOR: LazyLock<Regex> =
    LazyLock::new(|| re(r#"parameter_map\[\s*["']([\w.\-]+)["']\s*\]\s*\.\s*(\w*)$"#));
static ENV_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:environ\[\s*|environ\.(?:setdefault|get|pop)\(\s*|(?:putenv|getenv)\(\s*)["']([\w]*)$"#,
    )
});
static TF2: LazyLock<Regex> = LazyLock::new(|| re(r"global_options\(\s*\)((?:\.\w+)*)\.(\w*)$"));
static SESSION_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"parameter_map\[\s*["']([\w.\-]+)["']\s*\]\s*\.\s*[sib]\s*=\s*(?:(?:tf\.compat\.)?as_bytes\(\s*|str\(\s*)?(["']?)([\w.\-:|]*)$"#,
    )
});
static TF2_VALUE: LazyLock<Regex> =
    LazyLock::new(|| re(r#"global_options\(\s*\)((?:\.\w+)+)\s*=\s*(["']?)([\w.\-:|]*)$"#));
static ENV_VALUE: LazyLock<Regex> =
    LazyLock::new(|| re(r#"environ\[\s*["'](\w+)["']\s*\]\s*=\s*(["']?)([\w.\-:|]*)$"#));
static KW_VALUE: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(?:^|[(,\s])(\w+)\s*=\s*(["']?)([\w.\-:|]*)$"#));
static KW_NAME: LazyLock<Regex> = LazyLock::new(|| re(r"(?:^|[(,])\s*(\w*)$"));

/// What is being typed at byte `offset` of `text`.
pub fn site_at(text: &str, offset: usize) -> Option<Site> {
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let mut from = offset.saturating_sub(LOOKBACK);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = &text[from..offset];
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let start = |m: regex::Match<'_>| offset - (line.len() - m.start());
    if let Some(c) = SESSION_VALUE.captures(line) {
        let option = names::session(&c[1])?;
        let m = c.get(3)?;
        return Some(Site::Value {
            option,
            start: start(m),
            quoted: !c[2].is_empty(),
        });
    }
    if let Some(c) = SESSION_ACCESSOR.captures(line) {
        return Some(Site::Accessor {
            option: names::session(&c[1])?,
            start: start(c.get(2)?),
        });
    }
    if let Some(c) = SESSION_KEY.captures(line) {
        return Some(Site::SessionKey {
            start: start(c.get(1)?),
        });
    }
    if let Some(c) = ENV_VALUE.captures(line) {
        let option = names::env(&c[1])?;
        let m = c.get(3)?;
        return Some(Site::Value {
            option,
            start: start(m),
            quoted: !c[2].is_empty(),
        });
    }
    if let Some(c) = ENV_KEY.captures(line) {
        return Some(Site::Env {
            start: start(c.get(1)?),
        });
    }
    if let Some(c) = TF2_VALUE.captures(line) {
        let option = names::tf2(c[1].trim_start_matches('.'))?;
        let m = c.get(3)?;
        return Some(Site::Value {
            option,
            start: start(m),
            quoted: !c[2].is_empty(),
        });
    }
    if let Some(c) = TF2.captures(line) {
        return Some(Site::Tf2 {
            prefix: c[1].trim_start_matches('.').to_string(),
            start: start(c.get(2)?),
        });
    }
    let class = open_class(before)?;
    if let Some(c) = KW_VALUE.captures(line) {
        let option = names::estimator(class, &c[1])?;
        let m = c.get(3)?;
        return Some(Site::Value {
            option,
            start: start(m),
            quoted: !c[2].is_empty(),
        });
    }
    // A keyword starts after `(` or `,`, on the call's line or a line of its own.
    let c = KW_NAME.captures(line)?;
    Some(Site::Keyword {
        class,
        start: start(c.get(1)?),
    })
}

/// The spec class whose call is still open at the end of `before`: the name before the
/// innermost `(` not yet closed.
pub(crate) fn open_class(before: &str) -> Option<&'static str> {
    let bytes = before.as_bytes();
    let mut depth = 0i32;
    let mut i = bytes.len();
    while i > 0 {
        i -= 1;
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'[' | b'{' if depth == 0 => return None,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'(' => {
                let head = before[..i].trim_end();
                let name_start = head
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map_or(0, |j| j + 1);
                return names::python_class(&head[name_start..]).map(|c| c.name);
            }
            _ => {}
        }
    }
    None
}

/// Where the options offered are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filter {
    pub product: Option<Product>,
    pub release: Release,
}

impl Filter {
    /// Whether `o` is offered: read in the release and not retired there, and supported on
    /// the product when one is chosen.
    pub fn offers(&self, o: &OptionMeta) -> bool {
        o.removed_in(self.release).is_none()
            && o.available.contains(self.release)
            && self
                .product
                .is_none_or(|p| supports(o.products, p, self.release))
    }

    /// Whether `o` is deprecated in the release (still offered, marked).
    pub fn deprecated(&self, o: &OptionMeta) -> bool {
        o.deprecated.is_some_and(|d| d.since <= self.release)
    }
}

/// One name that may be typed at a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The name as written there (a key, a keyword, an attribute segment, a variable).
    pub label: String,
    /// The option it sets; `None` for a section of TF2's options (`aoe_config`).
    pub option: Option<&'static OptionMeta>,
}

/// The names that may be typed at `site` (empty for a value site).
pub fn candidates(site: &Site, filter: &Filter) -> Vec<Candidate> {
    let of = |label: &str, o: &'static OptionMeta| Candidate {
        label: label.to_string(),
        option: Some(o),
    };
    let offered = OPTIONS.iter().filter(|o| filter.offers(o));
    match site {
        Site::SessionKey { .. } => offered
            .filter_map(|o| o.session.map(|(k, _)| of(k, o)))
            .collect(),
        Site::Env { .. } => offered.filter_map(|o| o.env.map(|k| of(k, o))).collect(),
        Site::Keyword { class, .. } => offered
            .filter(|o| o.config == *class)
            .filter_map(|o| o.estimator.map(|k| of(k, o)))
            .collect(),
        Site::Tf2 { prefix, .. } => {
            let mut out: Vec<Candidate> = Vec::new();
            let head = if prefix.is_empty() {
                String::new()
            } else {
                format!("{prefix}.")
            };
            for o in offered {
                let Some(rest) = o.tf2.and_then(|p| p.strip_prefix(head.as_str())) else {
                    continue;
                };
                let (seg, leaf) = match rest.split_once('.') {
                    Some((s, _)) => (s, false),
                    None => (rest, true),
                };
                if out.iter().any(|c| c.label == seg) {
                    continue;
                }
                out.push(Candidate {
                    label: seg.to_string(),
                    option: leaf.then_some(o),
                });
            }
            out
        }
        Site::Accessor { option, .. } => vec![Candidate {
            label: option
                .session
                .map(|(_, a)| a.as_str().to_string())
                .unwrap_or_default(),
            option: Some(option),
        }],
        Site::Value { .. } => Vec::new(),
    }
}

/// What follows a session key as it is completed: the accessor the option is read with
/// and an example value (`.s = tf.compat.as_bytes("...")`), from the spec's default. After
/// the `.` (a [`Site::Accessor`]), the same without it.
pub fn session_tail(o: &OptionMeta) -> Option<String> {
    let (_, acc) = o.session?;
    let default = o.default.map(|d| match d {
        cann_config::meta::Lit::Str(s) => s.to_string(),
        cann_config::meta::Lit::Int(i) => i.to_string(),
        cann_config::meta::Lit::Float(x) => x.to_string(),
        cann_config::meta::Lit::Bool(b) => if b { "True" } else { "False" }.to_string(),
    });
    let value = match acc {
        Accessor::S => format!("tf.compat.as_bytes(\"{}\")", default.unwrap_or_default()),
        Accessor::I => default.unwrap_or_else(|| "0".into()),
        Accessor::B => match o.default {
            Some(cann_config::meta::Lit::Bool(false)) => "False".into(),
            _ => "True".into(),
        },
    };
    Some(format!(".{} = {value}", acc.as_str()))
}

#[cfg(test)]
#[path = "complete_tests.rs"]
mod tests;
