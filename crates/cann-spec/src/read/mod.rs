//! Reading spec files: YAML nodes into model items, reporting every unknown key,
//! missing key and wrong type with its file, line and column.

mod history;
mod items;
mod options;
mod session;
mod support;
mod surfaces;
mod value;

pub(crate) use items::{
    read_files_doc, read_int_range, read_products, read_releases, read_rules, read_special,
};
pub(crate) use options::read_options_file;
pub(crate) use session::read_session;

use std::path::Path;

use crate::diag::{Diagnostics, Loc};
use crate::model::{Literal, Text};
use crate::range::ReleaseRange;
use crate::yaml::{Kind, Node};

/// A mapping being read: hands out values by key and reports keys nobody asked for.
pub(crate) struct MapReader<'a> {
    file: &'a Path,
    node: &'a Node,
    entries: &'a [(Node, Node)],
    allowed: &'static [&'static str],
}

impl<'a> MapReader<'a> {
    /// Reads `node` as a mapping whose keys must come from `allowed`.
    pub fn new(
        file: &'a Path,
        node: &'a Node,
        what: &str,
        allowed: &'static [&'static str],
        d: &mut Diagnostics,
    ) -> Option<Self> {
        let Kind::Map(entries) = &node.kind else {
            d.error(
                Loc::new(file, node.pos),
                format!("{what} must be a mapping, found {}", node.kind.describe()),
            );
            return None;
        };
        let reader = MapReader {
            file,
            node,
            entries,
            allowed,
        };
        reader.check_keys(what, d);
        Some(reader)
    }

    fn check_keys(&self, what: &str, d: &mut Diagnostics) {
        for (k, _) in self.entries {
            let name = match &k.kind {
                Kind::Str(s) => s.as_str(),
                other => {
                    d.error(
                        Loc::new(self.file, k.pos),
                        format!("keys of {what} must be strings, found {}", other.describe()),
                    );
                    continue;
                }
            };
            if !self.allowed.contains(&name) {
                let diag = d.error(
                    Loc::new(self.file, k.pos),
                    format!("unknown key `{name}` in {what}"),
                );
                diag.expected(format!("one of {}", list(self.allowed)));
                if let Some(s) = did_you_mean(name, self.allowed.iter().copied()) {
                    diag.hint(format!("did you mean `{s}`?"));
                }
            }
        }
    }

    pub fn loc(&self) -> Loc {
        Loc::new(self.file, self.node.pos)
    }

    pub fn file(&self) -> &'a Path {
        self.file
    }

    /// Where each key's value was written, so a later check can point at that line.
    pub fn key_locs(&self) -> crate::model::KeyLocs {
        crate::model::KeyLocs(
            self.entries
                .iter()
                .filter_map(|(k, v)| Some((k.as_str()?.to_string(), Loc::new(self.file, v.pos))))
                .collect(),
        )
    }

    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.entries
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    pub fn required(&self, key: &str, what: &str, d: &mut Diagnostics) -> Option<&'a Node> {
        let v = self.get(key);
        if v.is_none() {
            d.error(
                self.loc(),
                format!("{what} is missing the required key `{key}`"),
            );
        }
        v
    }

    pub fn string(&self, key: &str, what: &str, d: &mut Diagnostics) -> Option<String> {
        let node = self.required(key, what, d)?;
        self.as_string(node, key, d)
    }

    pub fn opt_string(&self, key: &str, d: &mut Diagnostics) -> Option<String> {
        let node = self.get(key)?;
        self.as_string(node, key, d)
    }

    fn as_string(&self, node: &Node, key: &str, d: &mut Diagnostics) -> Option<String> {
        match &node.kind {
            Kind::Str(s) => Some(s.clone()),
            other => {
                d.error(
                    Loc::new(self.file, node.pos),
                    format!("`{key}` must be a string, found {}", other.describe()),
                )
                .hint("quote values such as release ids: \"9.0.0\"");
                None
            }
        }
    }

    pub fn text(&self, key: &str, what: &str, d: &mut Diagnostics) -> Option<Text> {
        let node = self.required(key, what, d)?;
        read_text(self.file, node, &format!("`{key}` of {what}"), d)
    }

    pub fn opt_text(&self, key: &str, what: &str, d: &mut Diagnostics) -> Option<Text> {
        let node = self.get(key)?;
        read_text(self.file, node, &format!("`{key}` of {what}"), d)
    }

    pub fn sources(&self, d: &mut Diagnostics) -> Vec<String> {
        let Some(node) = self.get(crate::keys::SOURCE) else {
            return Vec::new();
        };
        match &node.kind {
            Kind::Str(s) => vec![s.clone()],
            Kind::Seq(items) => items
                .iter()
                .filter_map(|n| self.as_string(n, crate::keys::SOURCE, d))
                .collect(),
            other => {
                d.error(
                    Loc::new(self.file, node.pos),
                    format!(
                        "`source` must be a string or a list of strings, found {}",
                        other.describe()
                    ),
                );
                Vec::new()
            }
        }
    }

    /// The release range under `key`; every release when the key is absent.
    pub fn range(&self, key: &str, d: &mut Diagnostics) -> ReleaseRange {
        let Some(node) = self.get(key) else {
            return ReleaseRange::all(self.loc());
        };
        let loc = Loc::new(self.file, node.pos);
        let Some(text) = self.as_string(node, key, d) else {
            return ReleaseRange::all(loc);
        };
        read_range(&text, loc, d)
    }

    pub fn int(&self, key: &str, d: &mut Diagnostics) -> Option<i64> {
        let node = self.get(key)?;
        match node.kind {
            Kind::Int(i) => Some(i),
            ref other => {
                d.error(
                    Loc::new(self.file, node.pos),
                    format!("`{key}` must be an integer, found {}", other.describe()),
                );
                None
            }
        }
    }

    /// `key: true` or `key: false`; `false` when absent.
    pub fn flag(&self, key: &str, d: &mut Diagnostics) -> bool {
        let Some(node) = self.get(key) else {
            return false;
        };
        match node.kind {
            Kind::Bool(b) => b,
            ref other => {
                d.error(
                    Loc::new(self.file, node.pos),
                    format!("`{key}` must be true or false, found {}", other.describe()),
                );
                false
            }
        }
    }

    pub fn seq(&self, key: &str, what: &str, d: &mut Diagnostics) -> &'a [Node] {
        let Some(node) = self.get(key) else {
            return &[];
        };
        match &node.kind {
            Kind::Seq(items) => items,
            other => {
                d.error(
                    Loc::new(self.file, node.pos),
                    format!(
                        "`{key}` of {what} must be a list, found {}",
                        other.describe()
                    ),
                );
                &[]
            }
        }
    }
}

pub(crate) fn read_text(file: &Path, node: &Node, what: &str, d: &mut Diagnostics) -> Option<Text> {
    const KEYS: &[&str] = &[crate::keys::EN, crate::keys::ZH];
    let r = MapReader::new(file, node, what, KEYS, d)?;
    let en = r.string(crate::keys::EN, what, d);
    let zh = r.string(crate::keys::ZH, what, d);
    let loc = r.loc();
    for (lang, s) in [("en", &en), ("zh", &zh)] {
        if matches!(s, Some(s) if s.trim().is_empty()) {
            d.error(loc.clone(), format!("{what}: the `{lang}` text is empty"));
        }
    }
    Some(Text { en: en?, zh: zh? })
}

/// Parses a release range written at `loc`, reporting a bad one there with what to write.
pub(crate) fn read_range(text: &str, loc: Loc, d: &mut Diagnostics) -> ReleaseRange {
    match ReleaseRange::parse(text, loc.clone()) {
        Ok(r) => r,
        Err(e) => {
            d.error(loc.clone(), e.message).hint(e.hint);
            ReleaseRange::all(loc)
        }
    }
}

pub(crate) fn read_literal(file: &Path, node: &Node, d: &mut Diagnostics) -> Option<Literal> {
    match &node.kind {
        Kind::Bool(b) => Some(Literal::Bool(*b)),
        Kind::Int(i) => Some(Literal::Int(*i)),
        Kind::Float(x) => match crate::model::Float::finite(*x) {
            Some(f) => Some(Literal::Float(f)),
            None => {
                d.error(
                    Loc::new(file, node.pos),
                    format!("expected a finite number, found {x}"),
                );
                None
            }
        },
        Kind::Str(s) => Some(Literal::Str(s.clone())),
        other => {
            d.error(
                Loc::new(file, node.pos),
                format!(
                    "expected a boolean, number or string, found {}",
                    other.describe()
                ),
            );
            None
        }
    }
}

pub(crate) fn list<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|k| format!("`{}`", k.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How similar (Jaro-Winkler) a name must be to a candidate to be offered as "did you mean":
/// the CLI, the validators and the docs site's search share it.
pub const DID_YOU_MEAN_SIMILARITY: f64 = 0.8;

/// The closest candidate by Jaro-Winkler similarity, if it is close enough to be a typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(name, c), c))
        .filter(|(score, _)| *score > DID_YOU_MEAN_SIMILARITY)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}
