//! The one place that knows which YAML library we use.
//!
//! Spec files and user config files are both read into a [`Node`] tree in which every
//! value keeps its line and column, so every later finding can point at its source.
//! `serde-saphyr` is used instead of the deprecated `serde_yaml` because it is maintained,
//! panic-free, reports a location for each value (`Spanned<T>`), and bounds alias
//! expansion, which keeps a "billion laughs" document from exhausting memory.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Budget, Spanned};

/// A 1-based position in a source file. `line == 0` means "unknown".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A YAML value with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub pos: Pos,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Entries in document order; keys keep their own positions.
    Map(Vec<(Node, Node)>),
}

impl Kind {
    /// What a user would call this kind of value in an error message.
    pub fn describe(&self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Int(_) => "an integer",
            Kind::Float(_) => "a floating-point number",
            Kind::Str(_) => "a string",
            Kind::Seq(_) => "a list",
            Kind::Map(_) => "a mapping",
        }
    }
}

impl Node {
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.kind {
            Kind::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// A short rendering of the value for messages (`"two"`, `3`, `true`).
    pub fn display(&self) -> String {
        match &self.kind {
            Kind::Null => "null".into(),
            Kind::Bool(b) => b.to_string(),
            Kind::Int(i) => i.to_string(),
            Kind::Float(x) => x.to_string(),
            Kind::Str(s) => format!("{s:?}"),
            Kind::Seq(_) => "[...]".into(),
            Kind::Map(_) => "{...}".into(),
        }
    }
}

/// A document that could not be parsed as YAML at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub pos: Option<Pos>,
    /// The parser's own words, in English.
    pub message: String,
    /// What is wrong, for front ends that say it in the user's words.
    pub problem: Problem,
}

/// What made a document unreadable, in terms a user fixes: the kinds of mistake people
/// make by hand. Anything rarer is [`Problem::Other`], with the parser's words in
/// [`ParseError::message`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A `[` or `{` that is never closed.
    Unclosed {
        open: char,
    },
    /// `[` closed by `}`, or `{` by `]`.
    Mismatched {
        open: char,
        close: char,
    },
    /// A `]` or `}` with nothing open.
    StrayClose,
    /// A list or mapping written inline lacks a `,` before the next item.
    MissingComma {
        close: char,
    },
    /// A quoted string that is never closed.
    UnclosedQuote,
    /// A key or value at an indentation that fits no mapping, or a `:` where none may be.
    Indentation,
    /// A tab where YAML wants spaces.
    Tab,
    /// The same key twice in one mapping.
    DuplicateKey {
        key: Option<String>,
    },
    /// More than one document (`---`) in one file.
    MultipleDocuments,
    /// Aliases or nesting past the limits that keep hostile input cheap.
    TooComplex,
    /// More values (or more text) than the limit a config file is read under; `limit` is
    /// that budget, `what` says which one.
    TooLarge {
        what: Budgeted,
        limit: usize,
    },
    Other,
}

/// Which budget of a large but plain document was exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budgeted {
    /// Parser events (every key, value, start and end of a list or mapping).
    Events,
    /// Values: scalars, lists and mappings.
    Nodes,
    /// Bytes of scalar text.
    ScalarBytes,
}

/// Limits that keep hostile input cheap: alias bombs and deep nesting are refused early.
fn budget() -> Budget {
    let mut budget = Budget::default();
    budget.max_aliases = 1_000;
    budget.max_depth = 256;
    budget
}

fn options() -> serde_saphyr::Options {
    let budget = budget();
    let mut alias_limits = serde_saphyr::options::AliasLimits::default();
    alias_limits.max_total_replayed_events = 20_000;
    alias_limits.max_alias_expansions_per_anchor = 1_000;
    serde_saphyr::options! {
        budget: Some(budget),
        alias_limits: alias_limits,
        with_snippet: false,
        duplicate_keys: serde_saphyr::options::DuplicateKeyPolicy::Error,
        // YAML 1.2 core booleans only: `mode: off` stays the string "off".
        strict_booleans: true,
    }
}

/// Parses one YAML (or JSON, which is YAML) document.
///
/// An empty document yields a `Null` node at 1:1 so that callers can report
/// "expected a mapping" with a position.
pub fn parse(text: &str) -> Result<Node, ParseError> {
    if text.trim().is_empty() {
        return Ok(Node {
            pos: Pos { line: 1, col: 1 },
            kind: Kind::Null,
        });
    }
    let parsed: Result<Option<Node>, _> = serde_saphyr::from_str_with_options(text, options());
    match parsed {
        Ok(Some(node)) => Ok(node),
        Ok(None) => Ok(Node {
            pos: Pos { line: 1, col: 1 },
            kind: Kind::Null,
        }),
        Err(err) => {
            let inner = err.without_snippet();
            let pos = inner.location().and_then(|l| to_pos(&l));
            Err(ParseError {
                pos,
                message: first_line(&inner.to_string()),
                problem: problem(inner),
            })
        }
    }
}

fn problem(e: &serde_saphyr::Error) -> Problem {
    use serde_saphyr::granit_parser::ErrorKind as K;
    use serde_saphyr::Error as E;
    use serde_saphyr::ExternalMessageSource as S;
    match e {
        E::DuplicateMappingKey { key, .. } => Problem::DuplicateKey { key: key.clone() },
        E::MultipleDocuments { .. } => Problem::MultipleDocuments,
        E::Budget { breach, .. } if too_large(breach).is_some() => {
            let (what, limit) = too_large(breach).unwrap_or((Budgeted::Events, 0));
            Problem::TooLarge { what, limit }
        }
        E::Budget { .. }
        | E::AliasReplayCounterOverflow { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => Problem::TooComplex,
        E::ExternalMessage { source, .. } => match &**source {
            S::Parser(scan) => match scan.kind() {
                K::UnclosedFlowCollection { open } => Problem::Unclosed { open: *open },
                K::UnexpectedEofFlowSequence => Problem::Unclosed { open: '[' },
                K::UnexpectedEofFlowMapping | K::UnexpectedEofImplicitFlowMapping => {
                    Problem::Unclosed { open: '{' }
                }
                K::MismatchedFlowCollectionEnd { open, close } => Problem::Mismatched {
                    open: *open,
                    close: *close,
                },
                K::MisplacedFlowCollectionEnd => Problem::StrayClose,
                K::ExpectedFlowMappingSeparator => Problem::MissingComma { close: '}' },
                K::ExpectedFlowSequenceSeparator => Problem::MissingComma { close: ']' },
                K::UnclosedQuotedScalar => Problem::UnclosedQuote,
                K::InvalidIndentation
                | K::InvalidFlowScalarIndent
                | K::InvalidBlockScalarIndent
                | K::ExpectedBlockMappingKey
                | K::MappingValueNotAllowed
                | K::InvalidColonPlacement => Problem::Indentation,
                K::TabNotAllowed
                | K::TabInBlockIndentation
                | K::TabInIndentation
                | K::TabInPlainScalar
                | K::TabAtBlockScalarStart => Problem::Tab,
                K::RecursionLimitExceeded => Problem::TooComplex,
                _ => Problem::Other,
            },
            _ => Problem::Other,
        },
        _ => Problem::Other,
    }
}

/// A budget a large, plain document exceeds (as opposed to aliases and depth, which only
/// a hostile one does), with its limit as [`options`] sets it.
fn too_large(breach: &serde_saphyr::budget::BudgetBreach) -> Option<(Budgeted, usize)> {
    use serde_saphyr::budget::BudgetBreach as B;
    let b = budget();
    match breach {
        B::Events { .. } => Some((Budgeted::Events, b.max_events)),
        B::Nodes { .. } => Some((Budgeted::Nodes, b.max_nodes)),
        B::ScalarBytes { .. } => Some((Budgeted::ScalarBytes, b.max_total_scalar_bytes)),
        _ => None,
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or(s).trim();
    // The library prefixes some messages with its own position; we print ours.
    line.trim_start_matches("error: ").to_string()
}

fn to_pos(l: &serde_saphyr::Location) -> Option<Pos> {
    let line = u32::try_from(l.line()).ok()?;
    let col = u32::try_from(l.column()).ok()?;
    (line > 0).then_some(Pos { line, col })
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let spanned = Spanned::<Kind>::deserialize(d)?;
        Ok(Node {
            pos: to_pos(&spanned.referenced).unwrap_or_default(),
            kind: spanned.value,
        })
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(KindVisitor)
    }
}

struct KindVisitor;

impl<'de> Visitor<'de> for KindVisitor {
    type Value = Kind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_unit<E>(self) -> Result<Kind, E> {
        Ok(Kind::Null)
    }
    fn visit_none<E>(self) -> Result<Kind, E> {
        Ok(Kind::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Kind, D::Error> {
        Kind::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Kind, E> {
        Ok(Kind::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Kind, E> {
        Ok(Kind::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Kind, E> {
        i64::try_from(v)
            .map(Kind::Int)
            .map_err(|_| E::custom(format!("integer {v} is too large")))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Kind, E> {
        i64::try_from(v)
            .map(Kind::Int)
            .map_err(|_| E::custom(format!("integer {v} is out of range")))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Kind, E> {
        i64::try_from(v)
            .map(Kind::Int)
            .map_err(|_| E::custom(format!("integer {v} is too large")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Kind, E> {
        Ok(Kind::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Kind, E> {
        Ok(Kind::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Kind, E> {
        Ok(Kind::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Kind, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = a.next_element::<Node>()? {
            items.push(item);
        }
        Ok(Kind::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Kind, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = a.next_key::<Node>()? {
            let value = a.next_value::<Node>()?;
            entries.push((key, value));
        }
        Ok(Kind::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn values_keep_their_positions() {
        let n = parse("a: 1\nb:\n  c: \"x\"\n").unwrap();
        let m = n.as_map().unwrap();
        assert_eq!(m[0].0.pos, Pos { line: 1, col: 1 });
        assert_eq!(m[0].1.kind, Kind::Int(1));
        assert_eq!(m[0].1.pos, Pos { line: 1, col: 4 });
        let inner = m[1].1.as_map().unwrap();
        assert_eq!(inner[0].1.pos, Pos { line: 3, col: 6 });
        assert_eq!(inner[0].1.as_str(), Some("x"));
    }

    #[test]
    fn syntax_error_has_a_position() {
        let err = parse("a: [1, 2\nb: 3\n").unwrap_err();
        assert!(err.pos.is_some(), "{err:?}");
    }

    #[test]
    fn empty_and_comment_only_documents_are_null() {
        assert_eq!(parse("").unwrap().kind, Kind::Null);
        assert_eq!(parse("# nothing\n").unwrap().kind, Kind::Null);
    }

    #[test]
    fn only_core_booleans_are_booleans() {
        let n = parse("a: off\nb: yes\nc: true\n").unwrap();
        let m = n.as_map().unwrap();
        assert_eq!(m[0].1.as_str(), Some("off"));
        assert_eq!(m[1].1.as_str(), Some("yes"));
        assert_eq!(m[2].1.kind, Kind::Bool(true));
    }

    #[test]
    fn duplicate_keys_are_refused() {
        let e = parse("a: 1\na: 2\n").unwrap_err();
        assert_eq!(
            e.problem,
            Problem::DuplicateKey {
                key: Some("a".into())
            }
        );
        assert_eq!(e.pos, Some(Pos { line: 2, col: 1 }));
    }

    #[test]
    fn mistakes_made_by_hand_are_named() {
        let cases = [
            ("a: [1, 2\n", Problem::Unclosed { open: '[' }),
            ("a: {b: 1\n", Problem::Unclosed { open: '{' }),
            (
                "a: [1, 2}\n",
                Problem::Mismatched {
                    open: '[',
                    close: '}',
                },
            ),
            ("a: \"x\n", Problem::UnclosedQuote),
            ("a:\n  b: 1\n c: 2\n", Problem::Indentation),
            ("a:\n\tb: 1\n", Problem::Tab),
            ("a: 1\n---\nb: 2\n", Problem::MultipleDocuments),
        ];
        for (text, want) in cases {
            let got = parse(text).map(|_| ()).map_err(|e| e.problem);
            assert_eq!(got, Err(want), "{text:?}");
        }
    }

    #[test]
    fn alias_bomb_is_refused_quickly() {
        let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            doc.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let start = std::time::Instant::now();
        assert!(parse(&doc).is_err());
        // Not a benchmark: a bound that only a runaway expansion could exceed.
        assert!(start.elapsed().as_secs() < 5);
    }
}
