//! Deprecated and retired options, values and spellings, and options whose first release
//! is not known.

use cann_i18n::catalog::config as msg;
use cann_i18n::Lang;

use std::cmp::Ordering;

use super::{At, Literal, Owned, Store, Surfaces};
use crate::diag::Loc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deprecation<S: Store = Owned> {
    pub since: S::Release,
    pub replacement: Option<S::Str>,
    /// How a value of the deprecated option reads on the replacement, where it differs.
    pub values: S::List<ValueMapping<S>>,
    pub note: cann_i18n::Text<S::Str>,
    pub source: S::List<S::Str>,
}

impl<S: Store> Deprecation<S> {
    /// The one sentence saying that option `name` is deprecated, and what to use instead:
    /// "`x` is deprecated since 9.0.0; use `y` instead". rustdoc, the schema and the Markdown
    /// reference write it from here; the validator words the same catalog entry.
    pub fn sentence(&self, name: &str, lang: Lang) -> String {
        let sentence = msg::deprecated(lang, name, &self.since.to_string());
        match &self.replacement {
            Some(r) => msg::use_after(lang, &sentence, r.as_ref()),
            None => sentence,
        }
    }
}

/// A value of a retired or deprecated option and the replacement's value that does the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueMapping<S: Store = Owned> {
    pub from: Literal<S::Str>,
    pub to: Literal<S::Str>,
    pub loc: S::Pos<Loc>,
}

/// When the adapter stopped reading something. One type for the loader (releases by id)
/// and the emitted tables (`Gone<Release>`, over the generated enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone<R = String> {
    /// `last: X`: X is the last release that supports it.
    After(R),
    /// `before: X`: neither X nor any later release supports it; exactly when it went is
    /// not known (some release before X, possibly older than the spec models).
    Before(R),
    /// `never_read: true`: no release ever read it.
    Never,
}

impl Gone {
    /// The release id the removal names, if any.
    pub fn release(&self) -> Option<&str> {
        match self {
            Gone::After(r) | Gone::Before(r) => Some(r),
            Gone::Never => None,
        }
    }
}

impl<R: std::fmt::Display> Gone<R> {
    /// When the item went, as the spec states it: the clause the catalog words once.
    pub fn clause(&self, lang: Lang) -> String {
        match self {
            Gone::After(last) => msg::when_after(lang, &last.to_string()),
            Gone::Before(b) => msg::when_before(lang, &b.to_string()),
            Gone::Never => msg::when_never(lang),
        }
    }

    /// The one sentence saying that `what` was retired, and when: "`x` was removed: 7.0.0
    /// is the last release that supports it", or "`x` has no effect: no release of the
    /// adapter reads it". The validator, `explain`, rustdoc, the docs site, the schema and
    /// the Markdown reference all write it from here.
    pub fn sentence(&self, what: &str, lang: Lang) -> String {
        match self {
            Gone::Never => msg::no_effect(lang, what, &self.clause(lang)),
            _ => msg::removed(lang, what, &self.clause(lang)),
        }
    }

    /// [`Gone::sentence`] and, when something replaces the retired item, what to use instead.
    pub fn retirement(&self, what: &str, replacement: Option<&str>, lang: Lang) -> String {
        let sentence = self.sentence(what, lang);
        match replacement {
            Some(r) => msg::use_after(lang, &sentence, r),
            None => sentence,
        }
    }
}

/// An option whose first release is not known: `after` is the newest release known to lack
/// it (possibly older than the spec models), `first_recorded` the first modelled release
/// known to have it. Some release after `after`, up to `first_recorded`, brought it; the
/// sources (tags, pages) say which builds were looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Introduced<S: Store = Owned> {
    /// A string, not a release: it may be one the spec does not model.
    pub after: S::Str,
    pub first_recorded: S::Release,
    pub source: S::List<S::Str>,
    pub loc: S::Pos<Loc>,
}

impl<S: Store> Introduced<S> {
    /// Whether the option may be missing from `release`: one before its first record.
    pub fn uncertain_in(&self, release: impl At<S::Release>) -> bool {
        !release.reached(&self.first_recorded)
    }
}

/// The adapter stopped reading an option, a value, or some of an option's surfaces.
///
/// A removal that names no surface retires the whole option (or value): the checks end its
/// `available` range where it went. One that names surfaces retires only those spellings
/// (e.g. the `NPURunConfig` keyword of an option whose `parameter_map` key is still read);
/// the option keeps its live surfaces at the top level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal<S: Store = Owned> {
    pub gone: Gone<S::Release>,
    /// The retired spellings, when only some surfaces were removed.
    pub surfaces: Surfaces<S>,
    /// Option path that does the job now. For a value: `None` (see `values`).
    pub replacement: Option<S::Str>,
    /// Old value to the replacement's value. For a removed value: the one entry
    /// `value -> the value to use instead`.
    pub values: S::List<ValueMapping<S>>,
    /// Where upstream shows that an empty value is still accepted and does nothing (the
    /// graph engine refuses only a non-empty one): the sources saying so. `None`: an empty
    /// value is refused like any other.
    pub empty_ignored: Option<S::List<S::Str>>,
    pub note: cann_i18n::Text<S::Str>,
    pub source: S::List<S::Str>,
    pub loc: S::Pos<Loc>,
}

/// The tables' records are `Copy` (derive cannot see that the nested records are).
impl<S: Store> Copy for Removal<S>
where
    S::Release: Copy,
    Surfaces<S>: Copy,
    S::Str: Copy,
    S::List<ValueMapping<S>>: Copy,
    S::List<S::Str>: Copy,
    S::Pos<Loc>: Copy,
{
}

impl<S: Store> Removal<S> {
    /// Whether this retires the whole option rather than some of its spellings.
    pub fn is_whole(&self) -> bool {
        self.surfaces.spells_nothing()
    }

    /// Whether an empty string is still accepted, with no effect, where this applies.
    pub fn ignores_empty(&self) -> bool {
        self.empty_ignored.is_some()
    }

    /// Whether `release` no longer reads it.
    pub fn gone_in(&self, release: impl At<S::Release>) -> bool {
        match &self.gone {
            Gone::After(last) => matches!(release.cmp_to(last), Some(Ordering::Greater)),
            Gone::Before(first_without) => release.reached(first_without),
            Gone::Never => true,
        }
    }

    /// The replacement's value for an old `value`, where the spec maps it.
    pub fn map(&self, value: &Literal<S::Str>) -> Option<Literal<S::Str>> {
        self.values
            .iter()
            .find(|m| m.from == *value)
            .map(|m| m.to.clone())
    }

    /// What it retires, as messages name it: the option (`` `name` ``) for a whole removal,
    /// else the retired spellings as a user wrote them (`` `x=, parameter_map["x"]` ``).
    pub fn what(&self, option: &str) -> String {
        if self.is_whole() {
            return format!("`{option}`");
        }
        let s = &self.surfaces;
        let spelled = [
            s.estimator.as_ref().map(|e| format!("{}=", e.as_ref())),
            s.session
                .as_ref()
                .map(|(n, _)| format!("parameter_map[\"{}\"]", n.as_ref())),
            s.tf2
                .as_ref()
                .map(|t| format!("npu.global_options().{}", t.as_ref())),
            s.env.as_ref().map(|e| e.as_ref().to_owned()),
        ];
        let spelled: Vec<String> = spelled.into_iter().flatten().collect();
        format!("`{}`", spelled.join(", "))
    }
}
