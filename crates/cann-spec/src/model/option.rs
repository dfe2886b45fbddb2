//! An option of a configuration class: its facts, values, surfaces and changes.

use super::{
    Accessor, Deprecation, Encoding, IntRange, Introduced, Literal, OptionType, Owned, PyDefault,
    Removal, Sources, Spec, Store, Support, Text,
};
use crate::diag::Loc;
use crate::range::ReleaseRange;

/// The names an option (or a retired spelling of it) goes by on each API surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Surfaces<S: Store = Owned> {
    /// Keyword argument of the owning Python class.
    pub estimator: Option<S::Str>,
    /// The keyword's default in the class's constructor.
    pub estimator_default: PyDefault<Literal<S::Str>>,
    /// `custom_op.parameter_map[NAME]` and its accessor.
    pub session: Option<(S::Str, Accessor)>,
    /// Attribute path below `npu.global_options()`.
    pub tf2: Option<S::Str>,
    /// How TF2 wants the value when it differs from the option's type (e.g. the string
    /// "0" where TF1 takes the integer 0): the Python type of `tf2_values` and
    /// `tf2_default`, derived by the loader.
    pub tf2_as: Option<Encoding>,
    /// The default of TF2's `OptionValue` (`None` for Python `None`).
    pub tf2_default: Option<Literal<S::Str>>,
    /// The values TF2's `OptionValue` accepts (`None` items are Python `None`); `None`: any.
    pub tf2_values: Option<S::List<Option<Literal<S::Str>>>>,
    /// Environment variable name.
    pub env: Option<S::Str>,
}

impl<S: Store> Surfaces<S> {
    /// Whether no spelling is named: a removal with these surfaces retires the whole option.
    pub fn spells_nothing(&self) -> bool {
        self.estimator.is_none()
            && self.session.is_none()
            && self.tf2.is_none()
            && self.env.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueSpec<S: Store = Owned> {
    pub value: Literal<S::Str>,
    /// Meaning-based name; the enum variant is derived from it.
    pub name: S::Str,
    /// Legacy spellings accepted with a warning.
    pub aliases: S::List<Literal<S::Str>>,
    pub available: ReleaseRange<S>,
    /// When present, replaces the option's product support for this value.
    pub products: Option<S::List<Support<S>>>,
    /// Set when upstream documents the value but says it does not work yet: `check`
    /// warns with this text.
    pub warning: Option<cann_i18n::Text<S::Str>>,
    /// What the runtime does with the value, when its option names a behaviour family.
    pub behaviour: Option<crate::behaviour::Behaviour>,
    /// The value stopped being accepted after a release; its `available` already ends there.
    pub removed: Option<Removal<S>>,
    pub doc: cann_i18n::Text<S::Str>,
    pub loc: S::Pos<Loc>,
}

/// The tables' records are `Copy` (derive cannot see that the nested records are).
impl<S: Store> Copy for ValueSpec<S>
where
    S::Str: Copy,
    S::List<Literal<S::Str>>: Copy,
    ReleaseRange<S>: Copy,
    S::List<Support<S>>: Copy,
    Removal<S>: Copy,
    S::Pos<Loc>: Copy,
{
}

/// Where each key of a spec mapping was written: checks that run after reading point at the
/// offending key's line, not at the start of the item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeyLocs(pub Vec<(String, Loc)>);

impl KeyLocs {
    pub fn get(&self, key: &str) -> Option<&Loc> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, l)| l)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct OptionSpec {
    pub name: String,
    /// Owning class name.
    pub config: String,
    /// Dotted path from the top of a user config file, e.g.
    /// `npu_run_config.memory_config.static_memory_policy`. Filled in by the checks.
    pub path: String,
    pub ty: OptionType,
    pub default: Option<Literal>,
    pub values: Vec<ValueSpec>,
    /// The behaviour family the runtime implements for this option's values; each value
    /// then names its behaviour.
    pub behaviours: Option<crate::behaviour::Family>,
    /// The option whose values this one takes (an environment variable that means what an
    /// option means, value for value): the checks copy them here, and codegen gives both the
    /// one enum of that option.
    pub values_of: Option<String>,
    pub range: Option<IntRange>,
    /// Integers outside `range` with a meaning of their own (`-1`: aging off).
    pub special: Vec<(i64, Text)>,
    pub unit: Option<String>,
    pub ge_key: Option<String>,
    pub surfaces: Surfaces,
    pub available: ReleaseRange,
    /// When the first release with the option is not known: the spec's `available` is then
    /// the outer bound, and only `first_recorded` on is certain.
    pub introduced: Option<Introduced>,
    /// When empty, the owning class's product support applies.
    pub products: Vec<Support>,
    pub deprecated: Option<Deprecation>,
    /// Retirements, oldest first: at most one of the whole option, after any of its
    /// surfaces.
    pub removed: Vec<Removal>,
    /// Facts that changed in a later release, oldest first.
    pub changes: Vec<Change>,
    /// Facts that differ on some products (a narrower range, another default).
    pub by_product: Vec<ProductFacts>,
    pub doc: Text,
    pub source: Sources,
    pub loc: Loc,
    /// Where each of its keys was written.
    pub keys: KeyLocs,
}

/// On `products`, these facts of an option replace its own, in every release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProductFacts<S: Store = Owned> {
    pub products: S::List<S::Product>,
    pub range: Option<IntRange>,
    pub default: Option<Literal<S::Str>>,
    pub loc: S::Pos<Loc>,
}

/// From `release` on, these facts of an option replace the earlier ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change<S: Store = Owned> {
    pub release: S::Release,
    pub default: Option<Literal<S::Str>>,
    pub ge_key: Option<S::Str>,
    pub range: Option<IntRange>,
    pub loc: S::Pos<Loc>,
}

impl OptionSpec {
    /// Where `key` of the option was written; the option's first line when it is absent.
    pub fn at(&self, key: &str) -> Loc {
        self.keys
            .get(key)
            .cloned()
            .unwrap_or_else(|| self.loc.clone())
    }

    /// The default in effect at the release with index `release` in `spec.releases`: the
    /// newest change at or before it that sets one, else the option's own.
    pub fn default_at<'a>(&'a self, spec: &Spec, release: usize) -> Option<&'a Literal> {
        in_effect(
            &self.changes,
            |c| spec.release_index(&c.release).is_some_and(|i| i <= release),
            |c| c.default.as_ref().map(Some),
            self.default.as_ref(),
        )
    }

    /// The removal that retires the whole option, if any.
    pub fn removal(&self) -> Option<&Removal> {
        self.removed.iter().find(|r| r.is_whole())
    }

    /// Product support that applies to this option: its own, else its class's.
    pub fn effective_products<'a>(&'a self, spec: &'a Spec) -> &'a [Support] {
        if !self.products.is_empty() {
            return &self.products;
        }
        // A nested class option is supported where its class is.
        let class = match &self.ty {
            OptionType::Config(c) => c.as_str(),
            _ => self.config.as_str(),
        };
        spec.configs
            .iter()
            .find(|c| c.name == class)
            .map(|c| c.products.as_slice())
            .unwrap_or(&[])
    }
}

/// A fact in effect at a release: the newest of `changes` (oldest first) that `applies` (is
/// at or before the release) and sets the fact (`pick` gives `Some`), else `base`, the
/// option's own. The one rule, over the loader's changes and over the tables' alike.
pub fn in_effect<'a, C, T>(
    changes: &'a [C],
    applies: impl Fn(&C) -> bool,
    pick: impl Fn(&'a C) -> Option<T>,
    base: T,
) -> T {
    changes
        .iter()
        .rev()
        .filter(|c| applies(c))
        .find_map(pick)
        .unwrap_or(base)
}
