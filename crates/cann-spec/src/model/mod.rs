//! The checked spec model. Codegen and every front end read only this.

use crate::diag::Loc;
use crate::range::ReleaseRange;

mod file;
mod int_range;
mod leaf;
mod option;
mod retired;
mod rule;
mod store;

pub use file::{FileFormat, FileKey, FileSection};
pub use int_range::{unit_text, IntRange};
pub use leaf::{Accessor, CharClass, Encoding, Float, Literal, OptionType, PyDefault};
pub use option::{in_effect, Change, KeyLocs, OptionSpec, ProductFacts, Surfaces, ValueSpec};
pub use retired::{Deprecation, Gone, Introduced, Removal, ValueMapping};
pub use rule::{Condition, Example, Rule, RuleExamples, Severity, Test};
pub use store::{At, Data, Ordered, Owned, Position, SpecAt, Store};

/// Text in both languages of the docs: the catalog's own type, owning its strings (a
/// record over any store holds `cann_i18n::Text<S::Str>`).
pub type Text = cann_i18n::Text<String>;

/// Where a fact came from: a seed file name or an upstream path or page (a record over
/// any store holds `S::List<S::Str>`).
pub type Sources = Vec<String>;

#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub products: Vec<Product>,
    pub releases: Vec<Release>,
    pub configs: Vec<ConfigClass>,
    pub options: Vec<OptionSpec>,
    pub files: Vec<FileFormat>,
    pub rules: Vec<Rule>,
    /// How a TF1 session is set up around `parameter_map` (`session.yaml`), when given.
    pub session: Option<crate::session::SessionSetup>,
    /// Every file read, in the order read; the macro uses it to make cargo watch them.
    pub inputs: Vec<std::path::PathBuf>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub id: String,
    pub name: Text,
    /// Model and chip names users know the product line by (`Atlas 800T A2`), each cited.
    /// One name may belong to several lines (a chip used by two); naming it then asks the
    /// user to choose.
    pub aliases: Vec<Alias>,
    pub note: Option<Text>,
    /// Largest Cube and Vector core counts across the product's processors, where known.
    pub cores: Option<Cores>,
    pub source: Sources,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    pub name: String,
    pub source: Sources,
    pub loc: Loc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cores {
    pub cube: u32,
    pub vector: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Release {
    pub id: String,
    /// Products this release's documentation knows, in `products.yaml` order (written as a
    /// list, or as the previous release's with `add` and `remove`).
    pub products: Vec<String>,
    /// Where `products:` is written.
    pub products_loc: Loc,
    /// Not released yet: what the adapter's development branch has beyond the newest
    /// release. Never the default release; only the newest releases may be unreleased.
    pub unreleased: bool,
    /// The upstream git refs whose code is this release (`hicann/tensorflow@tfa_v0.0.48_9.0.0`):
    /// a source read at one of them is evidence of this release.
    pub refs: Vec<String>,
    pub note: Option<Text>,
    pub source: Sources,
    pub loc: Loc,
}

/// A configuration class (`NPURunConfig`, `MemoryConfig`) or the environment.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigClass {
    /// The name users see, e.g. `MemoryConfig`.
    pub name: String,
    /// Key of this class at the top level of a user config file, for root classes.
    pub root_key: Option<String>,
    /// How this class is reached: `Python` classes, or environment variables.
    pub kind: ConfigKind,
    /// Python import line that makes the class name usable.
    pub python_import: Option<String>,
    pub products: Vec<Support>,
    pub available: ReleaseRange,
    pub doc: Text,
    pub source: Sources,
    pub loc: Loc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigKind {
    Python,
    Environment,
}

/// `product` is supported over `releases`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Support<S: Store = Owned> {
    pub product: S::Product,
    pub releases: ReleaseRange<S>,
    pub loc: S::Pos<Loc>,
}

impl<S: Store> Copy for Support<S>
where
    S::Product: Copy,
    ReleaseRange<S>: Copy,
    S::Pos<Loc>: Copy,
{
}

impl Spec {
    pub fn option_by_path(&self, path: &str) -> Option<&OptionSpec> {
        self.options.iter().find(|o| o.path == path)
    }

    pub fn config(&self, name: &str) -> Option<&ConfigClass> {
        self.configs.iter().find(|c| c.name == name)
    }

    pub fn options_of<'a>(&'a self, config: &'a str) -> impl Iterator<Item = &'a OptionSpec> {
        self.options.iter().filter(move |o| o.config == config)
    }

    /// The release with index `index` in `releases`, to read facts at.
    pub fn at(&self, index: usize) -> SpecAt<'_> {
        SpecAt { spec: self, index }
    }

    pub fn release_index(&self, id: &str) -> Option<usize> {
        self.releases.iter().position(|r| r.id == id)
    }

    /// The newest released release: the default target. `None` only for a spec without
    /// releases, which the checks refuse.
    pub fn newest_released(&self) -> Option<&Release> {
        self.releases.iter().rev().find(|r| !r.unreleased)
    }

    /// The release whose code a source was read at: the release listing its ref in
    /// `refs:`; `None` for a source not read at a ref, or at one no release lists.
    pub fn release_of(&self, source: &str) -> Option<&Release> {
        let at = crate::source::Cited::parse(source)?.at();
        self.releases.iter().find(|r| r.refs.contains(&at))
    }

    /// The release after `id`, if `id` is known and not the newest.
    pub fn release_after(&self, id: &str) -> Option<&str> {
        let i = self.release_index(id)?;
        self.releases.get(i + 1).map(|r| r.id.as_str())
    }
}
