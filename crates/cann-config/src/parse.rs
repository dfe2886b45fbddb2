//! Reading user config files (YAML, or JSON which is YAML) into the generated types.
//!
//! A document that cannot be read as a config at all is a [`ParseError`]. Everything else,
//! such as an unknown key or a value of the wrong type, becomes a diagnostic and parsing
//! goes on, so a user sees every problem at once.

use std::collections::BTreeMap;

use cann_spec::yaml::{self, Kind, Node, Pos};

use cann_i18n::catalog::config as msg;

use crate::meta::{ConfigKind, Lang, Lit, OptionMeta, Severity};
use crate::{Config, CoreCounts, Diagnostic, Product, Release, SpecEnum};

mod syntax;
mod unknown;
use syntax::{json_error, syntax_error};
pub use unknown::ReadLimits;

/// A config file as written: the target it names, the options, and what was wrong.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigFile {
    pub product: Option<Product>,
    pub release: Option<Release>,
    pub config: Config,
    /// Findings made while reading: unknown keys, wrong types, legacy spellings.
    pub diagnostics: Vec<Diagnostic>,
    /// Where each option path was written, for placing later findings.
    pub locations: BTreeMap<String, Pos>,
}

impl ConfigFile {
    /// Puts a line and column on a finding about `d.option`, when the file set it.
    pub fn locate(&self, d: &mut Diagnostic) {
        if d.line.is_some() {
            return;
        }
        let mut path = d.option.as_str();
        loop {
            if let Some(p) = self.locations.get(path) {
                d.line = Some(p.line);
                d.column = Some(p.col);
                return;
            }
            match path.rsplit_once('.') {
                Some((parent, _)) => path = parent,
                None => return,
            }
        }
    }
}

/// The document cannot be read as a config file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub pos: Option<Pos>,
    pub message: String,
    pub hint: Option<String>,
}

/// Implemented by every generated config class.
pub trait FromMap: Sized + Default {
    fn from_map(node: &Node, path: &str, cx: &mut ParseCx) -> Self;
}

/// State of one parse: collected findings and positions.
#[derive(Debug, Default)]
pub struct ParseCx {
    diagnostics: Vec<Diagnostic>,
    locations: BTreeMap<String, Pos>,
    lang: Lang,
    /// Per parent: the names offered for a misspelt key there (retired ones left out) and
    /// whether it is the environment. Worked out once per parent, not once per unknown key,
    /// so a file of 100,000 unknown keys costs no more than their suggestions.
    offered: BTreeMap<String, (Vec<&'static str>, bool)>,
    limits: ReadLimits,
    /// Unknown keys given suggestions so far, and those left without.
    suggested: usize,
    unsuggested: usize,
}

/// What a user would call a kind of YAML value.
pub(crate) fn kind_name(k: &Kind, lang: Lang) -> String {
    match k {
        Kind::Null => msg::kind_null(lang),
        Kind::Bool(_) => msg::kind_bool(lang),
        Kind::Int(_) => msg::kind_int(lang),
        Kind::Float(_) => msg::kind_float(lang),
        Kind::Str(_) => msg::kind_str(lang),
        Kind::Seq(_) => msg::kind_seq(lang),
        Kind::Map(_) => msg::kind_map(lang),
    }
}

/// The type a value should have had.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Bool,
    Int,
    Number,
    Str,
}

impl Want {
    fn name(self, lang: Lang) -> String {
        match self {
            Want::Bool => msg::kind_bool(lang),
            Want::Int => msg::kind_int(lang),
            Want::Number => msg::want_number(lang),
            Want::Str => msg::kind_str(lang),
        }
    }
}

/// Whether `m` is an environment variable (its config is of the environment kind).
fn is_environment(m: &OptionMeta) -> bool {
    crate::CONFIGS
        .iter()
        .any(|c| c.kind == ConfigKind::Environment && c.name == m.config)
}

fn at(mut d: Diagnostic, pos: Pos) -> Diagnostic {
    d.line = Some(pos.line);
    d.column = Some(pos.col);
    d
}

impl ParseCx {
    fn error(&mut self, pos: Pos, option: &str, message: String) -> &mut Diagnostic {
        self.diagnostics
            .push(at(Diagnostic::new(Severity::Error, option, message), pos));
        let last = self.diagnostics.len() - 1;
        &mut self.diagnostics[last]
    }

    pub fn record(&mut self, path: &'static str, v: &Node) {
        self.locations.insert(path.to_string(), v.pos);
    }

    /// The entries of a class's mapping; `null` (an empty section) counts as empty.
    pub fn map<'n>(&mut self, node: &'n Node, path: &str) -> Option<&'n [(Node, Node)]> {
        match &node.kind {
            Kind::Map(m) => Some(m),
            Kind::Null => None,
            other => {
                let m = msg::not_a_mapping(self.lang, path, &kind_name(other, self.lang));
                self.error(node.pos, path, m);
                None
            }
        }
    }

    pub fn key<'n>(&mut self, k: &'n Node) -> Option<&'n str> {
        match &k.kind {
            Kind::Str(s) => Some(s),
            other => {
                let m = msg::key_not_string(self.lang, &kind_name(other, self.lang));
                self.error(k.pos, "", m);
                None
            }
        }
    }

    fn wrong_type(&mut self, v: &Node, m: &OptionMeta, want: Want) {
        let lang = self.lang;
        let hint = match (&v.kind, want) {
            (Kind::Str(s), Want::Int) if s.trim().parse::<i64>().is_ok() => {
                Some(msg::unquote(lang, s.trim()))
            }
            (Kind::Str(s), Want::Number) if number(s).is_some() => {
                Some(msg::unquote(lang, s.trim()))
            }
            (Kind::Str(s), Want::Bool)
                if matches!(s.as_str(), "true" | "false" | "True" | "False") =>
            {
                Some(msg::unquote(lang, &s.to_lowercase()))
            }
            (Kind::Int(i), Want::Str) => Some(msg::quote_value(lang, &i.to_string())),
            _ => None,
        };
        let text = msg::wrong_type(
            lang,
            m.name,
            &want.name(lang),
            &kind_name(&v.kind, lang),
            &v.display(),
        );
        let expected = allowed(m, lang);
        let d = self.error(v.pos, m.path, text);
        d.value = Some(v.display());
        d.expected = expected;
        d.hint = hint;
    }

    pub fn bool(&mut self, v: &Node, m: &'static OptionMeta) -> Option<bool> {
        match v.kind {
            Kind::Bool(b) => Some(b),
            _ => {
                self.wrong_type(v, m, Want::Bool);
                None
            }
        }
    }

    pub fn int(&mut self, v: &Node, m: &'static OptionMeta) -> Option<i64> {
        match v.kind {
            Kind::Int(i) => Some(i),
            _ => {
                self.wrong_type(v, m, Want::Int);
                None
            }
        }
    }

    /// A float option's value: a finite number, an integer being one too (`2` hours).
    pub fn float(&mut self, v: &Node, m: &'static OptionMeta) -> Option<f64> {
        // Integers as large as i64 lose digits as f64; a config's hours never come near.
        #[allow(clippy::cast_precision_loss)]
        let x = match v.kind {
            Kind::Float(x) => crate::meta::Float::finite(x),
            Kind::Int(i) => crate::meta::Float::finite(i as f64),
            _ => None,
        };
        if x.is_none() {
            self.wrong_type(v, m, Want::Number);
        }
        x.map(crate::meta::Float::get)
    }

    pub fn string(&mut self, v: &Node, m: &'static OptionMeta) -> Option<String> {
        match &v.kind {
            Kind::Str(s) => Some(s.clone()),
            // An environment variable's value is text whatever it looks like: `JOB_ID: 10087`
            // is how people write it, and the shell sees the same characters.
            Kind::Int(_) | Kind::Float(_) | Kind::Bool(_) if is_environment(m) => Some(v.display()),
            _ => {
                self.wrong_type(v, m, Want::Str);
                None
            }
        }
    }

    pub fn cores(&mut self, v: &Node, m: &'static OptionMeta) -> Option<CoreCounts> {
        let s = self.string(v, m)?;
        match s.parse::<CoreCounts>() {
            Ok(c) => Some(c),
            Err(e) => {
                let lang = self.lang;
                let d = self.error(v.pos, m.path, e.message(lang));
                d.value = Some(v.display());
                d.expected = Some(msg::core_pair_expected(lang));
                None
            }
        }
    }

    pub fn enumerated<E: SpecEnum>(&mut self, v: &Node, m: &'static OptionMeta) -> Option<E> {
        let found = match (&v.kind, m.ty) {
            (Kind::Int(i), crate::meta::TypeMeta::IntEnum) => E::from_int(*i),
            (Kind::Str(s), crate::meta::TypeMeta::StrEnum) => E::from_str_code(s),
            (_, crate::meta::TypeMeta::IntEnum) => {
                self.wrong_type(v, m, Want::Int);
                return None;
            }
            _ => {
                self.wrong_type(v, m, Want::Str);
                return None;
            }
        };
        match found {
            Some((e, false)) => Some(e),
            Some((e, true)) => {
                let row = e.meta();
                let (canonical, meaning) = (row.value, row.name);
                let lang = self.lang;
                let text =
                    msg::legacy_value(lang, &v.display(), m.name, &canonical.to_string(), meaning);
                let hint = msg::write_as(lang, &canonical.to_string());
                let d = at(Diagnostic::new(Severity::Warning, m.path, text), v.pos)
                    .with_value(v.display())
                    .with_hint(hint);
                self.diagnostics.push(d);
                Some(e)
            }
            None => {
                let text = match &v.kind {
                    Kind::Str(s) => s.clone(),
                    _ => v.display(),
                };
                let names: Vec<&str> = m
                    .values
                    .iter()
                    .filter_map(|x| match x.value {
                        Lit::Str(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                let suggestion = cann_spec::did_you_mean(&text, names.iter().copied());
                let lang = self.lang;
                let text = msg::not_a_value(lang, &v.display(), m.name);
                let expected = allowed(m, lang);
                let d = self.error(v.pos, m.path, text);
                d.value = Some(v.display());
                d.expected = expected;
                d.hint = suggestion.map(|s| msg::did_you_mean_value(lang, s));
                None
            }
        }
    }
}

/// Text a user quoted that reads as a finite number (`"0.5"`), for the "write it without
/// quotes" hint.
fn number(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// "one of 0 (dynamic), 2 (static-shape-expand), ..." for enumerated options, the range
/// for integers.
pub(crate) fn allowed(m: &OptionMeta, lang: Lang) -> Option<String> {
    if m.values.is_empty() {
        return m
            .range
            .map(|r| crate::meta::describe_int_values_in(Some(r), m.special, m.unit, lang));
    }
    // A name that only repeats the value ("enable" (enable)) says nothing: leave it out.
    let vs = m.values.iter().map(|v| match v.value {
        Lit::Str(s) if s == v.name => v.value.to_string(),
        _ => format!("{} ({})", v.value, v.name),
    });
    Some(msg::one_of(lang, &lang.join(vs)))
}

const PRODUCT: &str = "product";
const RELEASE: &str = "release";

/// Reads a config file's text. Positions in findings are 1-based lines and columns.
pub fn parse_config(text: &str) -> Result<ConfigFile, ParseError> {
    parse_config_in(text, Lang::En)
}

/// As [`parse_config`], with findings in `lang`.
pub fn parse_config_in(text: &str, lang: Lang) -> Result<ConfigFile, ParseError> {
    let doc = yaml::parse(text).map_err(|e| syntax_error(e, lang))?;
    read_document(&doc, lang)
}

/// As [`parse_config_in`] for a `.json` file: the text must be JSON, not merely YAML (a
/// trailing comma is an error), and findings keep their positions.
pub fn parse_json_config_in(text: &str, lang: Lang) -> Result<ConfigFile, ParseError> {
    if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
        return Err(json_error(&e, text, lang));
    }
    parse_config_in(text, lang)
}

/// Reads a document already parsed into a [`Node`] tree, keeping its positions: the text
/// parser and front ends that build trees themselves (the linter) share this one loop.
pub fn read_document(doc: &Node, lang: Lang) -> Result<ConfigFile, ParseError> {
    read_document_with(doc, lang, ReadLimits::default())
}

/// As [`read_document`], within `limits`.
pub fn read_document_with(
    doc: &Node,
    lang: Lang,
    limits: ReadLimits,
) -> Result<ConfigFile, ParseError> {
    let entries = match &doc.kind {
        Kind::Map(m) => m,
        Kind::Null => {
            return Err(ParseError {
                pos: Some(doc.pos),
                message: msg::empty_file(lang),
                hint: Some(msg::empty_file_hint(lang)),
            })
        }
        other => {
            return Err(ParseError {
                pos: Some(doc.pos),
                message: msg::root_not_mapping(lang, &kind_name(other, lang)),
                hint: Some(msg::root_not_mapping_hint(lang)),
            })
        }
    };
    let mut out = ConfigFile::default();
    let mut cx = ParseCx {
        lang,
        limits,
        ..ParseCx::default()
    };
    for (k, v) in entries {
        let Some(key) = cx.key(k) else { continue };
        match key {
            PRODUCT => out.product = Some(target_id(v, PRODUCT, lang)?),
            RELEASE => out.release = Some(target_id(v, RELEASE, lang)?),
            _ => {
                if !out.config.read_root_entry(key, v, &mut cx) {
                    let mut known = vec![PRODUCT, RELEASE];
                    known.extend_from_slice(Config::ROOT_KEYS);
                    cx.unknown_key(k, key, "", &known);
                }
            }
        }
    }
    cx.count_unsuggested();
    out.diagnostics = cx.diagnostics;
    out.locations = cx.locations;
    Ok(out)
}

fn target_id<T: std::str::FromStr<Err = crate::UnknownId>>(
    v: &Node,
    what: &str,
    lang: Lang,
) -> Result<T, ParseError> {
    let text = match &v.kind {
        Kind::Str(s) => s.clone(),
        // `release: 9.0` would be a float; show what was written.
        Kind::Float(_) | Kind::Int(_) => v.display(),
        other => {
            return Err(ParseError {
                pos: Some(v.pos),
                message: msg::target_not_string(lang, what, &kind_name(other, lang)),
                hint: None,
            })
        }
    };
    text.parse::<T>().map_err(|e| ParseError {
        pos: Some(v.pos),
        message: e.message(lang),
        hint: Some(if matches!(v.kind, Kind::Float(_) | Kind::Int(_)) {
            msg::quote_target(lang, &text)
        } else {
            e.expected(lang)
        }),
    })
}
