//! One script linted again and again as it is edited (the language server's documents):
//! the pipeline of [`crate::lint_source`], step for step, keeping two things of the run
//! before, so an edit costs about what it touches and not the whole file:
//!
//! - **the syntax tree**, edited to the new text (one edit: the bytes between the common
//!   prefix and the common suffix of the two texts) and parsed again incrementally, which
//!   reuses every subtree the edit did not touch. A tree with a syntax error is parsed
//!   afresh instead: tree-sitter's error recovery may differ between an incremental and a
//!   fresh parse, and the findings must be those of `cannctl lint` on the same text;
//! - **the verdicts on each config object**: the spec's check of an object (reading and
//!   validating each setting, then the cross-option rules on each branch path) is most of a
//!   lint's cost, and it is a function of the object and the options alone; an object
//!   extracted again equal to one of the run before (same settings, values, places, and
//!   branch paths up to the numbering of their nodes) gets that run's findings. Extraction itself runs on the whole tree
//!   every time, so what an object is never comes from a stale picture.
//!
//! The findings are those [`crate::lint_source`] gives for the same text (the tests below
//! hold every step of random edits against it).

use std::collections::HashMap;
use std::ops::Range;

use cann_config::yaml::Pos;
use tree_sitter::{InputEdit, Tree};

use crate::branch::Path;
use crate::object::{ConfigObject, Setting};
use crate::{Finding, LintError, LintOptions, SourceReport};

/// What one document keeps between lints. Start with [`Incremental::default`] and lint
/// each new text of the document with [`Incremental::lint`] (or
/// [`crate::lint_script_incremental`]).
#[derive(Default)]
pub struct Incremental {
    /// The options the kept verdicts were made under: others mean starting over.
    opts: Option<LintOptions>,
    parsed: Option<Parsed>,
    /// Objects of the last run with their findings, by anchor.
    checked: HashMap<Pos, Vec<Checked>>,
    /// What this run checks, which becomes [`Self::checked`] at its end.
    fresh: HashMap<Pos, Vec<Checked>>,
    stats: Stats,
}

/// How much of the last lint was reused: for tests and the benchmark's curiosity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// The tree was parsed incrementally from the last one.
    pub incremental_parse: bool,
    /// Objects whose findings were taken from the last run, and objects checked anew.
    pub reused: usize,
    pub checked: usize,
}

struct Parsed {
    text: String,
    tree: Tree,
}

struct Checked {
    object: ConfigObject,
    findings: Vec<Finding>,
}

impl std::fmt::Debug for Incremental {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Incremental")
            .field(
                "objects",
                &self.checked.values().map(Vec::len).sum::<usize>(),
            )
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Incremental {
    /// Lints `text`, the document's whole new text, as [`crate::lint_source`] does.
    pub fn lint(&mut self, text: &str, opts: &LintOptions) -> Result<SourceReport, LintError> {
        let text = crate::normalize_newlines(text);
        crate::lint_prepared(&text, opts, true, false, Some(self))
    }

    /// What the last lint reused.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// A run starts: verdicts made under other options are dropped.
    pub(crate) fn begin(&mut self, opts: &LintOptions) {
        if self.opts.as_ref() != Some(opts) {
            self.checked.clear();
            self.opts = Some(*opts);
        }
        self.fresh.clear();
        self.stats = Stats::default();
    }

    /// The run is over: what it checked is what the next one may reuse.
    pub(crate) fn end(&mut self) {
        self.checked = std::mem::take(&mut self.fresh);
    }

    /// The parse of `text` (or of its `ranges`): incremental from the last tree when that
    /// gives a tree without syntax errors, else afresh.
    pub(crate) fn parse(
        &mut self,
        text: &str,
        ranges: Option<&[Range<usize>]>,
    ) -> Result<Option<Tree>, LintError> {
        let mut tree = None;
        if let Some(last) = &self.parsed {
            let mut old = last.tree.clone();
            old.edit(&edit_between(&last.text, text));
            tree = crate::parse_again(text, ranges, &old)?.filter(|t| !t.root_node().has_error());
            self.stats.incremental_parse = tree.is_some();
        }
        let tree = match tree {
            Some(t) => Some(t),
            None => crate::parse(text, ranges)?,
        };
        self.parsed = tree.as_ref().map(|t| Parsed {
            text: text.to_string(),
            tree: t.clone(),
        });
        Ok(tree)
    }

    /// The spec's findings on `obj`: the last run's, when it checked an equal object.
    pub(crate) fn check(&mut self, obj: ConfigObject, opts: &LintOptions) -> Vec<Finding> {
        let known = self
            .checked
            .get(&obj.anchor)
            .and_then(|list| list.iter().find(|c| same_object(&c.object, &obj)))
            .map(|c| c.findings.clone());
        let findings = match known {
            Some(f) => {
                self.stats.reused += 1;
                f
            }
            None => {
                self.stats.checked += 1;
                crate::rules::spec::check(copy_object(&obj), opts)
            }
        };
        self.fresh.entry(obj.anchor).or_default().push(Checked {
            object: obj,
            findings: findings.clone(),
        });
        findings
    }
}

/// The one edit that turns `old` into `new`: what lies between their common prefix and
/// their common suffix.
fn edit_between(old: &str, new: &str) -> InputEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - start;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let (old_end, new_end) = (a.len() - suffix, b.len() - suffix);
    let old_pts = crate::points(old, &[start, old_end]);
    let new_end_position = crate::points(new, &[new_end])
        .first()
        .copied()
        .unwrap_or_default();
    InputEdit {
        start_byte: start,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: old_pts.first().copied().unwrap_or_default(),
        old_end_position: old_pts.get(1).copied().unwrap_or_default(),
        new_end_position,
    }
}

/// Node ids as two parses number them: the ids of branch paths are tree-sitter node ids,
/// which differ between trees, and the check compares them only with each other. Two
/// objects are alike when one renaming of ids, the same in both directions, maps the one's
/// paths onto the other's.
#[derive(Default)]
struct Renaming {
    there: HashMap<usize, usize>,
    back: HashMap<usize, usize>,
}

impl Renaming {
    fn maps(&mut self, a: usize, b: usize) -> bool {
        match (self.there.get(&a), self.back.get(&b)) {
            (None, None) => {
                self.there.insert(a, b);
                self.back.insert(b, a);
                true
            }
            (Some(x), Some(y)) => *x == b && *y == a,
            _ => false,
        }
    }

    fn path(&mut self, a: &Path, b: &Path) -> bool {
        a.0.len() == b.0.len()
            && a.0
                .iter()
                .zip(&b.0)
                .all(|(x, y)| self.maps(x.0, y.0) && self.maps(x.1, y.1))
    }
}

fn same_setting(a: &Setting, b: &Setting, ids: &mut Renaming) -> bool {
    std::ptr::eq(a.option, b.option)
        && a.at == b.at
        && a.val == b.val
        && a.borrowed == b.borrowed
        && ids.path(&a.path, &b.path)
}

/// Objects the spec's check cannot tell apart.
fn same_object(a: &ConfigObject, b: &ConfigObject) -> bool {
    let mut ids = Renaming::default();
    a.surface == b.surface
        && a.anchor == b.anchor
        && a.classes == b.classes
        && a.findings == b.findings
        && a.settings.len() == b.settings.len()
        && a.settings
            .iter()
            .zip(&b.settings)
            .all(|(x, y)| same_setting(x, y, &mut ids))
}

fn copy_object(o: &ConfigObject) -> ConfigObject {
    ConfigObject {
        surface: o.surface,
        anchor: o.anchor,
        classes: o.classes.clone(),
        settings: o.settings.clone(),
        findings: o.findings.clone(),
    }
}

#[cfg(test)]
#[path = "incremental_tests.rs"]
mod tests;
