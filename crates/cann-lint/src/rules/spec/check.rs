//! One config object through `cann_config`'s reader and validator: every rule about a value
//! lives there, none here.
//!
//! Each setting is read and validated on its own, so that an option set twice is reported
//! twice, at each place. Cross-option rules are then applied once per branch path the
//! object's settings sit on, to the settings that run on that path: an option set on
//! another path counts as perhaps set, and one set to a value not known here counts as set.

use std::collections::HashSet;

use cann_config::history;
use cann_config::meta::{OptionMeta, Severity};
use cann_config::yaml::{Kind, Node as Value, Pos};
use cann_config::{
    config_from_node_in, validate_partial, Config, ConfigFile, Diagnostic, Report, Target, Unread,
    RULES,
};

use crate::branch::{Path, Relation};
use crate::messages;
use crate::object::{ConfigObject, Setting, Val};
use crate::{Finding, FindingKind, LintOptions};

/// A config-file tree of the given settings, with the classes they sit in.
struct Doc {
    entries: Vec<(Value, Value)>,
}

fn key(pos: Pos, name: &str) -> Value {
    Value {
        pos,
        kind: Kind::Str(name.to_string()),
    }
}

fn map_at<'a>(
    entries: &'a mut Vec<(Value, Value)>,
    segs: &[&str],
    pos: Pos,
) -> Option<&'a mut Vec<(Value, Value)>> {
    let Some((first, rest)) = segs.split_first() else {
        return Some(entries);
    };
    let idx = match entries.iter().position(|(k, _)| k.as_str() == Some(first)) {
        Some(i) => i,
        None => {
            entries.push((
                key(pos, first),
                Value {
                    pos,
                    kind: Kind::Map(Vec::new()),
                },
            ));
            entries.len() - 1
        }
    };
    let (_, v) = entries.get_mut(idx)?;
    if !matches!(v.kind, Kind::Map(_)) {
        *v = Value {
            pos,
            kind: Kind::Map(Vec::new()),
        };
    }
    match &mut v.kind {
        Kind::Map(m) => map_at(m, rest, pos),
        _ => None,
    }
}

impl Doc {
    fn new() -> Self {
        Doc {
            entries: Vec::new(),
        }
    }

    fn class(&mut self, path: &str, pos: Pos) {
        let segs: Vec<&str> = path.split('.').collect();
        let _ = map_at(&mut self.entries, &segs, pos);
    }

    /// Sets `path`; a later setting of the same option replaces the earlier one, as in Python.
    fn insert(&mut self, path: &str, at: Pos, value: Value) {
        let segs: Vec<&str> = path.split('.').collect();
        let Some((last, parents)) = segs.split_last() else {
            return;
        };
        let Some(map) = map_at(&mut self.entries, parents, at) else {
            return;
        };
        match map.iter_mut().find(|(k, _)| k.as_str() == Some(last)) {
            Some(slot) => *slot = (key(at, last), value),
            None => map.push((key(at, last), value)),
        }
    }

    fn remove(&mut self, path: &str) {
        let segs: Vec<&str> = path.split('.').collect();
        let Some((last, parents)) = segs.split_last() else {
            return;
        };
        let mut map = &mut self.entries;
        for seg in parents {
            let Some(Kind::Map(m)) = map
                .iter_mut()
                .find(|(k, _)| k.as_str() == Some(seg))
                .map(|(_, v)| &mut v.kind)
            else {
                return;
            };
            map = m;
        }
        map.retain(|(k, _)| k.as_str() != Some(last));
    }

    fn node(self, pos: Pos) -> Value {
        Value {
            pos,
            kind: Kind::Map(self.entries),
        }
    }
}

/// The classes of `obj` that enclose `path` (all of them for `None`).
fn classes_of<'o>(
    obj: &'o ConfigObject,
    path: Option<&'o str>,
) -> impl Iterator<Item = &'o (&'static str, Pos)> {
    obj.classes.iter().filter(move |(c, _)| {
        path.is_none_or(|p| p.strip_prefix(c).is_some_and(|rest| rest.starts_with('.')))
    })
}

/// Validates `config` on the target; without a product, on every product of the release,
/// keeping only what holds on all of them (a script may run on any).
fn validate(
    config: &Config,
    unread: &[(&'static OptionMeta, Unread)],
    opts: &LintOptions,
) -> Vec<Diagnostic> {
    let run = |product| {
        let mut r = Report::new(opts.lang);
        let target = Target {
            product,
            release: opts.release,
        };
        validate_partial(config, unread, target, &mut r);
        r.diagnostics
    };
    if let Some(p) = opts.product {
        return run(p);
    }
    // What holds on every product holds on the first: the others only narrow it down, and
    // most settings have nothing to say on the first, so the others are not asked.
    let mut products = opts.release.meta().products.iter();
    let Some(first) = products.next() else {
        return Vec::new();
    };
    let mut common = run(*first);
    for p in products {
        if common.is_empty() {
            break;
        }
        let other = run(*p);
        common.retain(|d| other.contains(d));
    }
    common
}

struct Checker<'o> {
    obj: &'o ConfigObject,
    opts: &'o LintOptions,
    out: Vec<Finding>,
    /// Settings (by index) whose literal the reader refused: for rules, set to a value
    /// not known, since the script fails on them first.
    refused: HashSet<usize>,
}

impl<'o> Checker<'o> {
    fn push(&mut self, mut d: Diagnostic, at: Pos) {
        if d.line.is_none() {
            d.line = Some(at.line);
            d.column = Some(at.col);
        }
        self.out.push(Finding {
            surface: self.obj.surface,
            kind: FindingKind::Spec,
            diagnostic: d,
            fix: None,
        });
    }

    /// A finding about a class the setting sits in, which [`Self::classes`] reports.
    fn is_class_finding(&self, d: &Diagnostic) -> bool {
        self.obj.classes.iter().any(|(c, _)| *c == d.option)
    }

    fn read(&self, doc: Doc) -> Option<ConfigFile> {
        config_from_node_in(&doc.node(self.obj.anchor), self.opts.lang).ok()
    }

    /// The classes alone: whether each may be used at all.
    fn classes(&mut self) {
        let mut doc = Doc::new();
        for (c, at) in classes_of(self.obj, None) {
            doc.class(c, *at);
        }
        let Some(file) = self.read(doc) else { return };
        for mut d in validate(&file.config, &[], self.opts) {
            file.locate(&mut d);
            self.push(d, self.obj.anchor);
        }
    }

    /// One setting on its own: its name, its value, its product and release.
    fn setting(&mut self, i: usize, s: &Setting) {
        let mut doc = Doc::new();
        for (c, at) in classes_of(self.obj, Some(s.option.path)) {
            doc.class(c, *at);
        }
        if self.empty_ignored(s) {
            return;
        }
        let unread = match &s.val {
            Val::Lit(v) => {
                doc.insert(s.option.path, s.at, v.clone());
                Vec::new()
            }
            Val::Unknown => vec![(s.option, Unread::Set)],
            Val::Unset => return,
        };
        let Some(file) = self.read(doc) else { return };
        if file
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            self.refused.insert(i);
        }
        if s.borrowed {
            return;
        }
        // The reader's findings point at what they are about (often the value); the
        // validator's are about the setting, and point at its name.
        for mut d in file.diagnostics.clone() {
            file.locate(&mut d);
            self.push(d, s.at);
        }
        for d in validate(&file.config, &unread, self.opts) {
            if d.rule.is_none() && !self.is_class_finding(&d) {
                self.push(d, s.at);
            }
        }
    }

    /// A retired option set to `""` where the spec says upstream accepts an empty value and
    /// does nothing with it: a warning that the line has no effect, instead of the removal's
    /// error. Returns whether it was that case.
    fn empty_ignored(&mut self, s: &Setting) -> bool {
        let Val::Lit(Value {
            kind: Kind::Str(v), ..
        }) = &s.val
        else {
            return false;
        };
        let Some(r) = history::empty_ignored_in(s.option, self.opts.release, v) else {
            return false;
        };
        if !s.borrowed {
            let lang = self.opts.lang;
            let o = s.option;
            let mut d = Diagnostic::new(
                Severity::Warning,
                o.path,
                messages::empty_ignored(lang, o.name, r),
            );
            d.hint = Some(messages::retired_hint(lang, r, None));
            self.push(d, s.at);
        }
        true
    }

    /// The rules, for the settings that run on `path` (every setting for `None`). Returns
    /// the rules that fired, with the settings of theirs that were set.
    fn rules_on(&mut self, path: Option<&Path>) -> Vec<(Diagnostic, Vec<&'o Setting>)> {
        let mut doc = Doc::new();
        for (c, at) in classes_of(self.obj, None) {
            doc.class(c, *at);
        }
        let mut unread: Vec<(&'static OptionMeta, Unread)> = Vec::new();
        let mut sure: Vec<&'o Setting> = Vec::new();
        let obj = self.obj;
        for (i, s) in obj.settings.iter().enumerate() {
            let on_path = path.is_none_or(|p| s.path.is_prefix_of(p));
            if !on_path {
                continue;
            }
            unread.retain(|(o, _)| o.path != s.option.path);
            sure.retain(|x| x.option.path != s.option.path);
            doc.remove(s.option.path);
            match &s.val {
                Val::Lit(_) | Val::Unknown if self.refused.contains(&i) => {
                    unread.push((s.option, Unread::Set));
                }
                Val::Lit(v) => doc.insert(s.option.path, s.at, v.clone()),
                Val::Unknown => unread.push((s.option, Unread::Set)),
                Val::Unset => continue,
            }
            sure.push(s);
        }
        for s in &obj.settings {
            let known = sure.iter().any(|x| x.option.path == s.option.path)
                || unread.iter().any(|(o, _)| o.path == s.option.path);
            if !known && !matches!(s.val, Val::Unset) {
                unread.push((s.option, Unread::Maybe));
            }
        }
        let Some(file) = self.read(doc) else {
            return Vec::new();
        };
        let mut fired = Vec::new();
        for mut d in validate(&file.config, &unread, self.opts) {
            let Some(rule) = d.rule.and_then(|id| RULES.iter().find(|r| r.id == id)) else {
                continue;
            };
            let set: Vec<&'o Setting> = rule
                .options
                .iter()
                .filter_map(|p| sure.iter().find(|s| s.option.path == *p).copied())
                .collect();
            // At the first option of the rule that is set on this path.
            let at = set.first().map_or(obj.anchor, |s| s.at);
            if d.line.is_none() {
                d.line = Some(at.line);
                d.column = Some(at.col);
            }
            fired.push((d, set));
        }
        fired
    }

    /// Rules that hold only when settings of different `if` statements all run: a note,
    /// since whether they run together depends on the script's flags. Arms of one
    /// statement never run together, so nothing is said about them.
    fn across_branches(&mut self, seen: &HashSet<(Option<u32>, Option<u32>, &'static str)>) {
        for (mut d, set) in self.rules_on(None) {
            let Some(rule) = d.rule else { continue };
            if seen.contains(&(d.line, d.column, rule)) {
                continue;
            }
            let exclusive = set.iter().enumerate().any(|(i, a)| {
                set[i + 1..]
                    .iter()
                    .any(|b| a.path.relation(&b.path) == Relation::Exclusive)
            });
            if exclusive || d.severity == Severity::Note {
                continue;
            }
            d.severity = Severity::Note;
            d.hint = Some(messages::only_if_together(self.opts.lang));
            let at = self.obj.anchor;
            self.push(d, at);
        }
    }
}

pub(crate) fn check(obj: ConfigObject, opts: &LintOptions) -> Vec<Finding> {
    let mut c = Checker {
        obj: &obj,
        opts,
        out: Vec::new(),
        refused: HashSet::new(),
    };
    if !obj.classes.is_empty() {
        c.classes();
    }
    for (i, s) in obj.settings.iter().enumerate() {
        c.setting(i, s);
    }
    let root = Path::default();
    let mut paths: Vec<&Path> = Vec::new();
    for s in &obj.settings {
        if !paths.contains(&&s.path) {
            paths.push(&s.path);
        }
    }
    if paths.is_empty() && !obj.classes.is_empty() {
        paths.push(&root);
    }
    let mut seen = HashSet::new();
    for p in &paths {
        for (d, _) in c.rules_on(Some(p)) {
            if let Some(r) = d.rule {
                seen.insert((d.line, d.column, r));
            }
            let at = obj.anchor;
            c.push(d, at);
        }
    }
    if paths.len() > 1 {
        c.across_branches(&seen);
    }
    let mut out = c.out;
    out.splice(0..0, obj.findings.iter().cloned());
    // One finding per problem and place.
    let mut seen = HashSet::new();
    out.retain(|f| {
        let d = &f.diagnostic;
        seen.insert((
            d.line,
            d.column,
            d.rule,
            d.option.clone(),
            d.message.clone(),
        ))
    });
    out
}
