//! Reading and checking `session.yaml` into [`SessionSetup`].

use std::borrow::Cow;
use std::path::Path;

use super::{list, MapReader};
use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::session::{FieldType, FieldTypes, List, OffValues, Rewrite, SessionSetup, Str, Want};
use crate::yaml::{Kind, Node};

/// Reads `session.yaml`, reporting every problem at its place.
pub(crate) fn read_session(file: &Path, doc: &Node, d: &mut Diagnostics) -> Option<SessionSetup> {
    let top = MapReader::new(file, doc, "the file", &[k::SESSION], d)?;
    let node = top.required(k::SESSION, "the file", d)?;
    const KEYS: &[&str] = &[k::OPTIMIZER, k::FIELD_TYPES, k::REWRITES];
    let r = MapReader::new(file, node, "`session`", KEYS, d)?;
    let optimizer = r
        .required(k::OPTIMIZER, "`session`", d)
        .and_then(|n| MapReader::new(file, n, "`optimizer`", &[k::NAME, k::SOURCE], d))
        .and_then(|o| {
            let name = o.string(k::NAME, "`optimizer`", d)?;
            if !is_identifier(&name) {
                d.error(o.loc(), format!("optimizer name `{name}` is not a name"))
                    .expected("letters, digits and `_`, as TensorFlow registers optimizers");
                return None;
            }
            Some((name, o.sources(d)))
        });
    let field_types = r
        .required(k::FIELD_TYPES, "`session`", d)
        .and_then(|n| read_field_types(file, n, d));
    let rewrites = read_rewrites(file, &r, d);
    let (optimizer, optimizer_source) = optimizer?;
    Some(SessionSetup {
        optimizer: optimizer.into(),
        optimizer_source: owned_list(optimizer_source),
        field_types: field_types?,
        rewrites: rewrites.into(),
    })
}

fn read_field_types(file: &Path, node: &Node, d: &mut Diagnostics) -> Option<FieldTypes> {
    let r = MapReader::new(file, node, "`field_types`", k::REWRITE_FIELD_TYPES, d)?;
    let mut one = |name: &str| {
        let what = format!("field type `{name}`");
        let n = r.required(name, "`field_types`", d)?;
        let t = MapReader::new(file, n, &what, &[k::OFF, k::SOURCE], d)?;
        let off = read_ints(file, t.required(k::OFF, &what, d)?, &what, d)?;
        Some(OffValues {
            off: off.into(),
            source: owned_list(t.sources(d)),
        })
    };
    let (toggle, mem_opt, bool) = (one("toggle"), one("mem-opt"), one("bool"));
    Some(FieldTypes {
        toggle: toggle?,
        mem_opt: mem_opt?,
        bool: bool?,
    })
}

/// A non-empty list of distinct integers.
fn read_ints(file: &Path, node: &Node, what: &str, d: &mut Diagnostics) -> Option<Vec<i64>> {
    let Kind::Seq(items) = &node.kind else {
        d.error(
            Loc::new(file, node.pos),
            format!(
                "`off` of {what} must be a list of integers, found {}",
                node.kind.describe()
            ),
        );
        return None;
    };
    let mut out = Vec::new();
    for n in items {
        match n.kind {
            Kind::Int(i) if out.contains(&i) => {
                d.error(Loc::new(file, n.pos), format!("{i} is listed twice"));
            }
            Kind::Int(i) => out.push(i),
            ref other => {
                d.error(
                    Loc::new(file, n.pos),
                    format!("`off` of {what} lists integers, found {}", other.describe()),
                );
            }
        }
    }
    if items.is_empty() {
        d.error(
            Loc::new(file, node.pos),
            format!("`off` of {what} is empty"),
        )
        .hint("list the values TensorFlow treats as off, e.g. [2] for RewriterConfig.OFF");
    }
    (!out.is_empty()).then_some(out)
}

fn read_rewrites(file: &Path, r: &MapReader<'_>, d: &mut Diagnostics) -> Vec<Rewrite> {
    const KEYS: &[&str] = &[k::FIELD, k::TYPE, k::WANT, k::SOURCE];
    let mut out: Vec<Rewrite> = Vec::new();
    for n in r.seq(k::REWRITES, "`session`", d) {
        let Some(w) = MapReader::new(file, n, "a rewrite", KEYS, d) else {
            continue;
        };
        let field = w.string(k::FIELD, "a rewrite", d);
        let ty = w
            .string(k::TYPE, "a rewrite", d)
            .and_then(|t| one_of(&w, k::TYPE, &t, k::REWRITE_FIELD_TYPES, d));
        let want = w
            .string(k::WANT, "a rewrite", d)
            .and_then(|t| one_of(&w, k::WANT, &t, k::WANTS, d));
        let source = w.sources(d);
        let (Some(field), Some(ty), Some(want)) = (field, ty, want) else {
            continue;
        };
        if !is_identifier(&field) {
            d.error(
                w.loc(),
                format!("`{field}` is not a RewriterConfig field name"),
            );
            continue;
        }
        if out.iter().any(|o| o.field == field) {
            d.error(w.loc(), format!("the rewrite `{field}` is listed twice"));
            continue;
        }
        out.push(Rewrite {
            field: field.into(),
            ty: match ty {
                "toggle" => FieldType::Toggle,
                "mem-opt" => FieldType::MemOpt,
                _ => FieldType::Bool,
            },
            want: if want == "on" { Want::On } else { Want::Off },
            source: owned_list(source),
        });
    }
    if r.get(k::REWRITES).is_none() {
        d.error(r.loc(), "`session` is missing the required key `rewrites`");
    }
    out
}

/// `value` if it is one of `allowed`, else an error at `key`'s value naming them.
fn one_of(
    r: &MapReader<'_>,
    key: &str,
    value: &str,
    allowed: &'static [&'static str],
    d: &mut Diagnostics,
) -> Option<&'static str> {
    if let Some(a) = allowed.iter().find(|a| **a == value) {
        return Some(a);
    }
    let at = r.key_locs().0.into_iter().find(|(k, _)| k == key);
    let loc = at.map_or_else(|| r.loc(), |(_, l)| l);
    d.error(loc, format!("unknown `{key}` `{value}`"))
        .expected(format!("one of {}", list(allowed)));
    None
}

fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn owned_list(v: Vec<String>) -> List<Str> {
    v.into_iter().map(Cow::Owned).collect::<Vec<_>>().into()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn load(text: &str) -> Result<Option<SessionSetup>, String> {
        let doc = crate::yaml::parse(text).map_err(|e| e.message)?;
        let mut d = Diagnostics::new();
        let s = read_session(Path::new("session.yaml"), &doc, &mut d);
        d.finish(s).map_err(|e| e.to_string())
    }

    const GOOD: &str = "session:\n  optimizer:\n    name: NpuOptimizer\n  field_types:\n    toggle: { off: [2] }\n    mem-opt: { off: [1, 2] }\n    bool: { off: [0] }\n  rewrites:\n    - { field: remapping, type: toggle, want: off }\n    - { field: constant_folding, type: toggle, want: on }\n    - { field: memory_optimization, type: mem-opt, want: off }\n";

    #[test]
    fn reads_and_judges() {
        let s = load(GOOD).unwrap().unwrap();
        assert_eq!(s.optimizer, "NpuOptimizer");
        let [remap, folding, mem] = &s.rewrites[..] else {
            panic!("three rewrites")
        };
        assert!(s.as_wanted(remap, 2) && !s.as_wanted(remap, 1));
        assert!(s.as_wanted(folding, 0) && !s.as_wanted(folding, 2));
        assert!(s.as_wanted(mem, 1) && s.as_wanted(mem, 2) && !s.as_wanted(mem, 0));
        assert_eq!(
            s.fields().collect::<Vec<_>>(),
            ["remapping", "constant_folding", "memory_optimization"]
        );
    }

    #[test]
    fn mistakes_are_placed_and_all_reported() {
        let bad = GOOD
            .replace("want: on", "want: maybe")
            .replace("mem-opt: { off: [1, 2] }", "mem-opt: { off: [] }")
            .replace("field: memory_optimization", "field: remapping");
        let e = load(&bad).unwrap_err();
        assert!(
            e.contains("session.yaml:6:21: `off` of field type `mem-opt` is empty"),
            "{e}"
        );
        assert!(
            e.contains("session.yaml:10:54: unknown `want` `maybe`; expected one of `off`, `on`"),
            "{e}"
        );
        assert!(e.contains("the rewrite `remapping` is listed twice"), "{e}");
    }

    #[test]
    fn an_unknown_key_names_the_known_ones() {
        let e = load(&GOOD.replace("  rewrites:", "  rewrite:")).unwrap_err();
        assert!(e.contains("unknown key `rewrite` in `session`"), "{e}");
        assert!(e.contains("did you mean `rewrites`?"), "{e}");
    }
}
