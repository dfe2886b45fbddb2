//! Shapes of the spec metadata that codegen emits as `static` tables.
//!
//! These are plain data: the CLI's `explain`/`options`, the validators and the emitters
//! read them, so the spec is consulted at compile time only.

use cann_i18n::catalog::config as msg;

use crate::{Product, Release};

pub use cann_i18n::{Lang, Text};
/// The spec's own kinds, used as they are: one definition each.
pub use cann_spec::{Accessor, CharClass, ConfigKind, Encoding, Float, Severity};

/// A literal value as the spec writes it: the spec model's own type over static strings.
pub type Lit = cann_spec::Literal<&'static str>;

/// An option's type: the spec model's own type over static data.
pub type TypeMeta = cann_spec::OptionType<&'static str, &'static [CharClass]>;

/// The default of a Python constructor parameter: the spec model's own type.
pub type PyDefault = cann_spec::PyDefault<Lit>;

/// An integer range: the spec model's own type.
pub type RangeMeta = cann_spec::IntRange;
pub use cann_spec::unit_text;

/// When the adapter stopped reading something: the spec model's own type, over releases.
pub type Gone = cann_spec::Gone<Release>;

/// The store of the tables codegen emits: `&'static` data, releases and products by the
/// generated enums, no positions. Every record of `meta` is the model's record over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tables;

impl cann_spec::Store for Tables {
    type Str = &'static str;
    type List<T: cann_spec::Data> = &'static [T];
    type Release = Release;
    type Product = Product;
    type Pos<T: cann_spec::Data> = ();
}

/// The generated `Release` is ordered oldest first, so the model's records over the tables
/// compare releases directly.
impl cann_spec::Ordered for Release {
    const ALL: &'static [Release] = Release::ALL;
    fn id(self) -> &'static str {
        Release::id(self)
    }
}

/// Releases `from` through `last`, both included; `None` is an open end.
pub type Span = cann_spec::ReleaseRange<Tables>;
pub use cann_spec::range::describe_range;

/// A product and the releases it is supported in.
pub type SupportMeta = cann_spec::Support<Tables>;

/// Product support as the spec states it: every product is named, none is implied.
pub type Products = &'static [SupportMeta];

/// Whether `product` may use something with `products` support in `release`: the release
/// knows the product and one of its spans covers the release.
pub fn supports(products: Products, product: Product, release: Release) -> bool {
    release.meta().products.contains(&product)
        && products
            .iter()
            .any(|s| s.product == product && s.releases.contains(release))
}

/// How a deprecated option's value reads on the replacement, and when it was deprecated.
pub type DeprecationMeta = cann_spec::Deprecation<Tables>;
/// A value of a retired or deprecated option and the replacement's value that does the same.
pub type ValueMapMeta = cann_spec::ValueMapping<Tables>;
/// An option whose first release is not known.
pub type IntroducedMeta = cann_spec::Introduced<Tables>;
/// On `products`, the set facts replace the option's own.
pub type ProductFactsMeta = cann_spec::ProductFacts<Tables>;
/// From `release` on, the set facts replace the option's earlier ones.
pub type ChangeMeta = cann_spec::Change<Tables>;

/// A value of an enumerated option.
pub type ValueMeta = cann_spec::ValueSpec<Tables>;

/// The names an option, or a retired spelling of it, goes by on each API surface.
pub type SurfacesMeta = cann_spec::Surfaces<Tables>;

/// The adapter stopped reading an option, a value, or some spellings of an option.
///
/// With no surface set it retires the whole option (whose `available` already ends after
/// `last`). With surfaces set, only those spellings are gone, e.g. the `NPURunConfig`
/// keyword of an option whose `parameter_map` key is still read; they are not among the
/// option's own (live) surfaces.
pub type RemovalMeta = cann_spec::Removal<Tables>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionMeta {
    pub name: &'static str,
    /// Dotted path from the top of a user config file.
    pub path: &'static str,
    /// Owning class, e.g. `MemoryConfig`.
    pub config: &'static str,
    pub ty: TypeMeta,
    pub default: Option<Lit>,
    pub values: &'static [ValueMeta],
    pub range: Option<RangeMeta>,
    /// Integers outside `range` that are valid with a meaning of their own.
    pub special: &'static [(i64, Text)],
    pub unit: Option<&'static str>,
    pub ge_key: Option<&'static str>,
    pub estimator: Option<&'static str>,
    /// The keyword's default in its class's constructor.
    pub estimator_default: PyDefault,
    pub session: Option<(&'static str, Accessor)>,
    pub tf2: Option<&'static str>,
    /// How TF2 wants the value, when it differs from the option's type.
    pub tf2_as: Option<Encoding>,
    /// The default of TF2's `OptionValue`; `None` for Python `None`.
    pub tf2_default: Option<Lit>,
    /// What TF2's `OptionValue` accepts (`None` items: Python `None`); `None`: anything.
    pub tf2_values: Option<&'static [Option<Lit>]>,
    pub env: Option<&'static str>,
    /// The option whose values (and enum) this one takes.
    pub values_of: Option<&'static str>,
    pub available: Span,
    /// The first release with the option is not known; `available` is the outer bound.
    pub introduced: Option<IntroducedMeta>,
    /// Effective support: the option's own list, else its class's.
    pub products: Products,
    pub deprecated: Option<DeprecationMeta>,
    /// Retirements, oldest first: spellings that went, then at most one of the whole option.
    pub removed: &'static [RemovalMeta],
    /// Facts that changed in later releases, oldest first.
    pub changes: &'static [ChangeMeta],
    /// Facts that differ on some products, in every release.
    pub by_product: &'static [ProductFactsMeta],
    pub doc: Text,
    pub source: &'static [&'static str],
}

impl OptionMeta {
    pub fn value(&self, lit: Lit) -> Option<&'static ValueMeta> {
        self.values.iter().find(|v| v.value == lit)
    }

    /// The removal of the whole option, if it was retired.
    pub fn removal(&self) -> Option<&'static RemovalMeta> {
        self.removed.iter().find(|r| r.is_whole())
    }

    /// The removal of the whole option, if `release` no longer reads it.
    pub fn removed_in(&self, release: Release) -> Option<&'static RemovalMeta> {
        self.removal().filter(|r| r.gone_in(release))
    }

    /// What is known of its first release, when `release` may predate it.
    pub fn uncertain_in(&self, release: Release) -> Option<&IntroducedMeta> {
        self.introduced.as_ref().filter(|i| i.uncertain_in(release))
    }

    /// Retired spellings (surfaces) of an option that lives on under others.
    pub fn retired_surfaces(&self) -> impl Iterator<Item = &'static RemovalMeta> {
        self.removed.iter().filter(|r| !r.is_whole())
    }

    /// The latest change in effect at `release` that sets a fact.
    fn as_of<T>(&self, release: Release, base: T, pick: impl Fn(&ChangeMeta) -> Option<T>) -> T {
        cann_spec::in_effect(self.changes, |c| c.release <= release, pick, base)
    }

    /// The default in effect at `release`.
    pub fn default_in(&self, release: Release) -> Option<Lit> {
        self.as_of(release, self.default, |c| c.default.map(Some))
    }

    /// The graph-engine key in effect at `release`.
    pub fn ge_key_in(&self, release: Release) -> Option<&'static str> {
        self.as_of(release, self.ge_key, |c| c.ge_key.map(Some))
    }

    /// The range in effect at `release`.
    pub fn range_in(&self, release: Release) -> Option<RangeMeta> {
        self.as_of(release, self.range, |c| c.range.map(Some))
    }

    fn on(&self, product: Product) -> impl Iterator<Item = &'static ProductFactsMeta> + '_ {
        self.by_product
            .iter()
            .filter(move |f| f.products.contains(&product))
    }

    /// The range on `product` at `release`: the product's own, else the release's.
    pub fn range_on(&self, product: Product, release: Release) -> Option<RangeMeta> {
        self.on(product)
            .find_map(|f| f.range)
            .or_else(|| self.range_in(release))
    }

    /// The default on `product` at `release`: the product's own, else the release's.
    pub fn default_on(&self, product: Product, release: Release) -> Option<Lit> {
        self.on(product)
            .find_map(|f| f.default)
            .or_else(|| self.default_in(release))
    }

    /// True when `v` is valid at `release`: inside the range, or one of the special values.
    pub fn accepts_int_in(&self, release: Release, v: i64) -> bool {
        self.range_in(release).is_none_or(|r| r.contains(v)) || is_special(self.special, v)
    }

    /// True when `v` is valid under the newest facts (the range after every change).
    pub fn accepts_int(&self, v: i64) -> bool {
        let range = cann_spec::in_effect(self.changes, |_| true, |c| c.range.map(Some), self.range);
        range.is_none_or(|r| r.contains(v)) || is_special(self.special, v)
    }
}

fn is_special(special: &[(i64, Text)], v: i64) -> bool {
    special.iter().any(|(s, _)| *s == v)
}

/// An integer range with its special values, as users read it: `-1 or 1..=2147483647`.
pub fn describe_int_values(range: Option<RangeMeta>, special: &[(i64, Text)]) -> String {
    let mut parts: Vec<String> = special.iter().map(|(v, _)| v.to_string()).collect();
    if let Some(r) = range {
        parts.push(r.to_string());
    }
    if parts.is_empty() {
        "any integer".to_owned()
    } else {
        parts.join(" or ")
    }
}

/// The same in words for diagnostics: "-1, or an integer from 1 to 2147483647 MB".
pub fn describe_int_values_in(
    range: Option<RangeMeta>,
    special: &[(i64, Text)],
    unit: Option<&str>,
    lang: Lang,
) -> String {
    let words = range.map_or_else(|| msg::any_integer(lang), |r| r.describe(unit, lang));
    if special.is_empty() {
        return words;
    }
    let values: Vec<String> = special.iter().map(|(v, _)| v.to_string()).collect();
    msg::special_or(lang, &lang.join(values), &words)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConfigMeta {
    pub name: &'static str,
    pub root_key: Option<&'static str>,
    pub kind: ConfigKind,
    pub python_import: Option<&'static str>,
    pub doc: Text,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProductMeta {
    pub product: Product,
    pub id: &'static str,
    pub name: Text,
    /// Model and chip names of the line (`Atlas 800T A2`); a name may be on several lines.
    pub aliases: &'static [&'static str],
    pub note: Option<Text>,
    pub cores: Option<(u32, u32)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReleaseMeta {
    pub release: Release,
    pub id: &'static str,
    pub products: &'static [Product],
    /// Not released yet: the adapter's development branch beyond the newest release.
    pub unreleased: bool,
    pub note: Option<Text>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMeta {
    pub id: &'static str,
    pub severity: Severity,
    /// Human rendering of each condition, e.g. `npu_run_config.op_debug_level != 0`.
    pub conditions: &'static [&'static str],
    /// Option paths the rule reads.
    pub options: &'static [&'static str],
    /// Releases whose documentation states the rule.
    pub available: Span,
    pub message: Text,
    pub hint: Option<Text>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileKeyMeta {
    pub section: &'static str,
    pub name: &'static str,
    pub range: Option<RangeMeta>,
    pub unit: Option<&'static str>,
    pub default: Option<i64>,
    pub env: Option<&'static str>,
    pub special: &'static [(i64, Text)],
    pub doc: Text,
}

impl FileKeyMeta {
    /// True when `v` is a valid value of this key.
    pub fn accepts(&self, v: i64) -> bool {
        self.range.is_none_or(|r| r.contains(v)) || is_special(self.special, v)
    }

    /// The valid values, e.g. `-1 or 1..=2147483647`.
    pub fn describe_values(&self) -> String {
        describe_int_values(self.range, self.special)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileMeta {
    pub name: &'static str,
    pub location: Text,
    pub invalid: Text,
    pub doc: Text,
    pub keys: &'static [FileKeyMeta],
}
