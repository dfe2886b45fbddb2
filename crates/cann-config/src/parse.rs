//! Reading user config files (YAML, or JSON which is YAML) into the generated types.
//!
//! A document that cannot be read as a config at all is a [`ParseError`]. Everything else,
//! such as an unknown key or a value of the wrong type, becomes a diagnostic and parsing
//! goes on, so a user sees every problem at once.

use std::collections::BTreeMap;

use cann_spec::yaml::{self, Kind, Node, Pos};

use crate::meta::{ConfigKindMeta, Lang, Lit, OptionMeta, Severity};
use crate::{Config, CoreCounts, Diagnostic, Product, Release, SpecEnum};

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
}

/// What a user would call a kind of YAML value, in Chinese.
fn describe_zh(k: &Kind) -> &'static str {
    match k {
        Kind::Null => "空值",
        Kind::Bool(_) => "布尔值",
        Kind::Int(_) => "整数",
        Kind::Float(_) => "浮点数",
        Kind::Str(_) => "字符串",
        Kind::Seq(_) => "列表",
        Kind::Map(_) => "映射",
    }
}

fn at(mut d: Diagnostic, pos: Pos) -> Diagnostic {
    d.line = Some(pos.line);
    d.column = Some(pos.col);
    d
}

impl ParseCx {
    fn t(&self, en: String, zh: String) -> String {
        match self.lang {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

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
                self.error(
                    node.pos,
                    path,
                    format!(
                        "`{path}` must be a mapping of options, found {}",
                        other.describe()
                    ),
                );
                None
            }
        }
    }

    pub fn key<'n>(&mut self, k: &'n Node) -> Option<&'n str> {
        match &k.kind {
            Kind::Str(s) => Some(s),
            other => {
                self.error(
                    k.pos,
                    "",
                    format!("option names must be strings, found {}", other.describe()),
                );
                None
            }
        }
    }

    pub fn unknown_key(&mut self, k: &Node, key: &str, parent: &str, known: &[&str]) {
        let path = if parent.is_empty() {
            key.to_string()
        } else {
            format!("{parent}.{key}")
        };
        let suggestion = cann_spec::did_you_mean(key, known.iter().copied());
        // The environment holds many variables the spec has no reason to know (HCCL's,
        // the driver's, the user's own): one it does not know is reported, not refused.
        let environment = crate::CONFIGS
            .iter()
            .any(|c| c.kind == ConfigKindMeta::Environment && c.root_key == Some(parent));
        if environment {
            let msg = self.t(
                format!("`{key}` is not an environment variable the spec knows; it is not checked"),
                format!("规格中没有环境变量 `{key}`，不对其做检查"),
            );
            self.diagnostics
                .push(at(Diagnostic::new(Severity::Warning, &path, msg), k.pos));
            if let (Some(s), Some(d)) = (suggestion, self.diagnostics.last_mut()) {
                d.hint = Some(format!("did you mean `{s}`?"));
            }
            return;
        }
        let msg = self.t(
            format!(
                "unknown option `{key}` in `{}`",
                if parent.is_empty() {
                    "the file"
                } else {
                    parent
                }
            ),
            format!(
                "{}中没有选项 `{key}`",
                if parent.is_empty() {
                    "配置文件".to_string()
                } else {
                    format!("`{parent}` ")
                }
            ),
        );
        let d = self.error(k.pos, &path, msg);
        d.expected = Some(format!("one of {}", known.join(", ")));
        if let Some(s) = suggestion {
            d.hint = Some(format!("did you mean `{s}`?"));
        }
    }

    fn wrong_type(&mut self, v: &Node, m: &OptionMeta, want: &str) {
        let hint = match (&v.kind, want) {
            (Kind::Str(s), "an integer") if s.trim().parse::<i64>().is_ok() => {
                Some(format!("write {s} without quotes"))
            }
            (Kind::Str(s), "a boolean")
                if matches!(s.as_str(), "true" | "false" | "True" | "False") =>
            {
                Some(format!("write {} without quotes", s.to_lowercase()))
            }
            (Kind::Int(i), "a string") => Some(format!("quote the value: \"{i}\"")),
            _ => None,
        };
        let allowed = allowed(m);
        let want_zh = match want {
            "a boolean" => "布尔值",
            "an integer" => "整数",
            _ => "字符串",
        };
        let msg = self.t(
            format!(
                "`{}` must be {want}, found {} {}",
                m.name,
                v.kind.describe(),
                v.display()
            ),
            format!(
                "`{}` 应为{want_zh}，实际为{} {}",
                m.name,
                describe_zh(&v.kind),
                v.display()
            ),
        );
        let d = self.error(v.pos, m.path, msg);
        d.value = Some(v.display());
        d.expected = allowed;
        d.hint = hint;
    }

    pub fn bool(&mut self, v: &Node, m: &'static OptionMeta) -> Option<bool> {
        match v.kind {
            Kind::Bool(b) => Some(b),
            _ => {
                self.wrong_type(v, m, "a boolean");
                None
            }
        }
    }

    pub fn int(&mut self, v: &Node, m: &'static OptionMeta) -> Option<i64> {
        match v.kind {
            Kind::Int(i) => Some(i),
            _ => {
                self.wrong_type(v, m, "an integer");
                None
            }
        }
    }

    pub fn string(&mut self, v: &Node, m: &'static OptionMeta) -> Option<String> {
        match &v.kind {
            Kind::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(v, m, "a string");
                None
            }
        }
    }

    pub fn cores(&mut self, v: &Node, m: &'static OptionMeta) -> Option<CoreCounts> {
        let s = self.string(v, m)?;
        match s.parse::<CoreCounts>() {
            Ok(c) => Some(c),
            Err(e) => {
                let d = self.error(v.pos, m.path, e.to_string());
                d.value = Some(v.display());
                d.expected = Some("\"cube|vector\", two integers above 0, e.g. \"24|48\"".into());
                None
            }
        }
    }

    pub fn enumerated<E: SpecEnum>(&mut self, v: &Node, m: &'static OptionMeta) -> Option<E> {
        let found = match (&v.kind, m.ty) {
            (Kind::Int(i), crate::meta::TypeMeta::IntEnum) => E::from_int(*i),
            (Kind::Str(s), crate::meta::TypeMeta::StrEnum) => E::from_str_code(s),
            (_, crate::meta::TypeMeta::IntEnum) => {
                self.wrong_type(v, m, "an integer");
                return None;
            }
            _ => {
                self.wrong_type(v, m, "a string");
                return None;
            }
        };
        match found {
            Some((e, false)) => Some(e),
            Some((e, true)) => {
                let canonical = e.value_ref();
                let meaning = m
                    .values
                    .iter()
                    .find(|x| lit_matches(x.lit, canonical))
                    .map(|x| x.name)
                    .unwrap_or("");
                let msg = self.t(
                    format!(
                        "{} is a legacy spelling of `{}` {canonical} ({meaning})",
                        v.display(),
                        m.name
                    ),
                    format!(
                        "{} 是 `{}` 取值 {canonical}（{meaning}）的旧写法",
                        v.display(),
                        m.name
                    ),
                );
                let hint = self.t(format!("write {canonical}"), format!("请写作 {canonical}"));
                let d = at(Diagnostic::new(Severity::Warning, m.path, msg), v.pos)
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
                    .filter_map(|x| match x.lit {
                        Lit::Str(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                let suggestion = cann_spec::did_you_mean(&text, names.iter().copied());
                let msg = self.t(
                    format!("{} is not a value of `{}`", v.display(), m.name),
                    format!("{} 不是 `{}` 的有效取值", v.display(), m.name),
                );
                let d = self.error(v.pos, m.path, msg);
                d.value = Some(v.display());
                d.expected = allowed(m);
                d.hint = suggestion.map(|s| format!("did you mean \"{s}\"?"));
                None
            }
        }
    }
}

fn lit_matches(l: Lit, v: crate::ValueRef<'_>) -> bool {
    match (l, v) {
        (Lit::Int(a), crate::ValueRef::Int(b)) => a == b,
        (Lit::Str(a), crate::ValueRef::Str(b)) => a == b,
        (Lit::Bool(a), crate::ValueRef::Bool(b)) => a == b,
        _ => false,
    }
}

/// "one of 0 (dynamic), 2 (static-shape-expand), ..." for enumerated options.
pub(crate) fn allowed(m: &OptionMeta) -> Option<String> {
    if m.values.is_empty() {
        return m.range.map(|r| format!("an integer {r}"));
    }
    let vs: Vec<String> = m
        .values
        .iter()
        .map(|v| format!("{} ({})", v.lit, v.name))
        .collect();
    Some(format!("one of {}", vs.join(", ")))
}

const PRODUCT: &str = "product";
const RELEASE: &str = "release";

/// Reads a config file's text. Positions in findings are 1-based lines and columns.
pub fn parse_config(text: &str) -> Result<ConfigFile, ParseError> {
    parse_config_in(text, Lang::En)
}

/// As [`parse_config`], with findings in `lang`.
pub fn parse_config_in(text: &str, lang: Lang) -> Result<ConfigFile, ParseError> {
    let doc = yaml::parse(text).map_err(|e| ParseError {
        pos: e.pos,
        message: format!("not valid YAML or JSON: {}", e.message),
        hint: None,
    })?;
    read_document(&doc, lang)
}

/// Reads a document already parsed into a [`Node`] tree, keeping its positions: the text
/// parser and front ends that build trees themselves (the linter) share this one loop.
pub fn read_document(doc: &Node, lang: Lang) -> Result<ConfigFile, ParseError> {
    let entries = match &doc.kind {
        Kind::Map(m) => m,
        Kind::Null => {
            return Err(ParseError {
                pos: Some(doc.pos),
                message: "the file is empty".into(),
                hint: Some("a config file is a mapping, e.g. `npu_run_config: { op_compiler_cache_mode: enable }`".into()),
            })
        }
        other => {
            return Err(ParseError {
                pos: Some(doc.pos),
                message: format!("a config file must be a mapping, found {}", other.describe()),
                hint: Some("start the file with keys such as `product:` and `npu_run_config:`".into()),
            })
        }
    };
    let mut out = ConfigFile::default();
    let mut cx = ParseCx {
        lang,
        ..ParseCx::default()
    };
    for (k, v) in entries {
        let Some(key) = cx.key(k) else { continue };
        match key {
            PRODUCT => out.product = Some(target_id(v, PRODUCT)?),
            RELEASE => out.release = Some(target_id(v, RELEASE)?),
            _ => {
                if !out.config.read_root_entry(key, v, &mut cx) {
                    let mut known = vec![PRODUCT, RELEASE];
                    known.extend_from_slice(Config::ROOT_KEYS);
                    cx.unknown_key(k, key, "", &known);
                }
            }
        }
    }
    out.diagnostics = cx.diagnostics;
    out.locations = cx.locations;
    Ok(out)
}

fn target_id<T: std::str::FromStr<Err = crate::UnknownId>>(
    v: &Node,
    what: &str,
) -> Result<T, ParseError> {
    let text = match &v.kind {
        Kind::Str(s) => s.clone(),
        // `release: 9.0` would be a float; show what was written.
        Kind::Float(_) | Kind::Int(_) => v.display(),
        other => {
            return Err(ParseError {
                pos: Some(v.pos),
                message: format!("`{what}` must be a string, found {}", other.describe()),
                hint: None,
            })
        }
    };
    text.parse::<T>().map_err(|e| ParseError {
        pos: Some(v.pos),
        message: e.to_string(),
        hint: matches!(v.kind, Kind::Float(_) | Kind::Int(_))
            .then(|| format!("quote the {what}: \"{text}\"")),
    })
}
