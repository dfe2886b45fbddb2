//! The checked spec model. Codegen and every front end read only this.

use crate::diag::Loc;
use crate::range::ReleaseRange;

/// Text in both languages of the docs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

/// Where a fact came from: a seed file name or an upstream path or page.
pub type Sources = Vec<String>;

#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub products: Vec<Product>,
    pub releases: Vec<Release>,
    pub configs: Vec<ConfigClass>,
    pub options: Vec<OptionSpec>,
    pub files: Vec<FileFormat>,
    pub rules: Vec<Rule>,
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
#[derive(Debug, Clone, PartialEq)]
pub struct Support {
    pub product: String,
    pub releases: ReleaseRange,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl std::fmt::Display for Literal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Str(s) => write!(f, "{s:?}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionType {
    Bool,
    Int,
    /// Enumerated integer codes.
    IntEnum,
    /// Enumerated strings.
    StrEnum,
    Str,
    /// A file system path; `chars` lists what may appear in it.
    Path {
        chars: Vec<CharClass>,
    },
    /// `"cube|vector"` core counts.
    CorePair,
    /// A nested configuration class, by name.
    Config(String),
    /// A Python object of the named class (`tf.ConfigProto`), which only a script can pass;
    /// a config file cannot hold it.
    Object(String),
}

impl OptionType {
    /// The type as users read it: its name, and the class of a Python object
    /// (`python-object (tf.ConfigProto)`).
    pub fn describe(&self) -> String {
        match self {
            OptionType::Object(class) => format!("{} ({class})", self.name()),
            _ => self.name().to_string(),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            OptionType::Bool => "bool",
            OptionType::Int => "int",
            OptionType::IntEnum => "int-enum",
            OptionType::StrEnum => "string-enum",
            OptionType::Str => "string",
            OptionType::Path { .. } => "path",
            OptionType::CorePair => "core-pair",
            OptionType::Config(_) => "config",
            OptionType::Object(_) => "python-object",
        }
    }
}

/// A class of characters allowed in a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CharClass {
    AsciiAlphanumeric,
    /// CJK Unified Ideographs (the "Chinese characters" of the docs).
    Cjk,
    Literal(char),
}

impl CharClass {
    pub fn matches(self, c: char) -> bool {
        match self {
            CharClass::AsciiAlphanumeric => c.is_ascii_alphanumeric(),
            CharClass::Cjk => crate::chars::is_cjk(c),
            CharClass::Literal(l) => c == l,
        }
    }

    /// The class in words, for messages: "letters and digits", "`-`".
    pub fn describe(self, lang: cann_i18n::Lang) -> String {
        use cann_i18n::catalog::config as msg;
        match self {
            CharClass::AsciiAlphanumeric => msg::chars_alphanumeric(lang),
            CharClass::Cjk => msg::chars_cjk(lang),
            CharClass::Literal(c) => format!("`{c}`"),
        }
    }
}

/// A Python type a surface expects a value in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Int,
    Str,
    Bool,
}

/// How a value travels on the TF1 session surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accessor {
    I,
    S,
    B,
}

impl Accessor {
    /// The field of `parameter_map[...]` that holds the value: `i`, `s` or `b`.
    pub fn as_str(self) -> &'static str {
        match self {
            Accessor::I => "i",
            Accessor::S => "s",
            Accessor::B => "b",
        }
    }
}

/// The default of a Python constructor parameter, as upstream declares it.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum PyDefault {
    /// `name=None`.
    #[default]
    None,
    /// `name=<literal>`.
    Lit(Literal),
    /// No default: the call must pass it.
    Required,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Surfaces {
    /// Keyword argument of the owning Python class.
    pub estimator: Option<String>,
    /// The keyword's default in the class's constructor.
    pub estimator_default: PyDefault,
    /// `custom_op.parameter_map[NAME]` and its accessor.
    pub session: Option<(String, Accessor)>,
    /// Attribute path below `npu.global_options()`.
    pub tf2: Option<String>,
    /// How TF2 wants the value when it differs from the option's type (e.g. the string
    /// "0" where TF1 takes the integer 0): the Python type of `tf2_values` and
    /// `tf2_default`, derived by the loader.
    pub tf2_as: Option<Encoding>,
    /// The default of TF2's `OptionValue` (`None` for Python `None`).
    pub tf2_default: Option<Literal>,
    /// The values TF2's `OptionValue` accepts (`None` items are Python `None`); `None`: any.
    pub tf2_values: Option<Vec<Option<Literal>>>,
    /// Environment variable name.
    pub env: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IntRange {
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The bounds are this project's advice: no upstream code or page states them, so a
    /// value outside them is a warning, not an error.
    pub advice: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ValueSpec {
    pub value: Literal,
    /// Meaning-based name; the enum variant is derived from it.
    pub name: String,
    /// Legacy spellings accepted with a warning.
    pub aliases: Vec<Literal>,
    pub available: ReleaseRange,
    /// When present, replaces the option's product support for this value.
    pub products: Option<Vec<Support>>,
    /// Set when upstream documents the value but says it does not work yet: `check`
    /// warns with this text.
    pub warning: Option<Text>,
    /// What the runtime does with the value, when its option names a behaviour family.
    pub behaviour: Option<crate::behaviour::Behaviour>,
    /// The value stopped being accepted after a release.
    pub removed: Option<Removal>,
    pub doc: Text,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Deprecation {
    pub since: String,
    pub replacement: Option<String>,
    /// How a value of the deprecated option reads on the replacement, where it differs.
    pub values: Vec<ValueMapping>,
    pub note: Text,
    pub source: Sources,
}

/// A value of a retired or deprecated option and the replacement's value that does the same.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueMapping {
    pub from: Literal,
    pub to: Literal,
    pub loc: Loc,
}

/// When the adapter stopped reading something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gone {
    /// `last: X`: X is the last release that supports it.
    After(String),
    /// `before: X`: neither X nor any later release supports it; exactly when it went is
    /// not known (some release before X, possibly older than the spec models).
    Before(String),
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

/// An option whose first release is not known: `after` is the newest release known to lack
/// it (possibly older than the spec models), `first_recorded` the first modelled release
/// known to have it. Some release after `after`, up to `first_recorded`, brought it; the
/// sources (tags, pages) say which builds were looked at.
#[derive(Debug, Clone, PartialEq)]
pub struct Introduced {
    pub after: String,
    pub first_recorded: String,
    pub source: Sources,
    pub loc: Loc,
}

/// The adapter stopped reading an option, a value, or some of an option's surfaces.
///
/// A removal that names no surface retires the whole option (or value): the checks end its
/// `available` range where it went. One that names surfaces retires only those spellings
/// (e.g. the `NPURunConfig` keyword of an option whose `parameter_map` key is still read);
/// the option keeps its live surfaces at the top level.
#[derive(Debug, Clone, PartialEq)]
pub struct Removal {
    pub gone: Gone,
    /// The retired spellings, when only some surfaces were removed.
    pub surfaces: Surfaces,
    /// Option path that does the job now. For a value: `None` (see `values`).
    pub replacement: Option<String>,
    /// Old value to the replacement's value. For a removed value: the one entry
    /// `value -> the value to use instead`.
    pub values: Vec<ValueMapping>,
    /// Where upstream shows that an empty value is still accepted and does nothing (the
    /// graph engine refuses only a non-empty one): the sources saying so. `None`: an empty
    /// value is refused like any other.
    pub empty_ignored: Option<Sources>,
    pub note: Text,
    pub source: Sources,
    pub loc: Loc,
}

impl Removal {
    /// Whether this retires the whole option rather than some of its spellings.
    pub fn is_whole(&self) -> bool {
        self.surfaces == Surfaces::default()
    }
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
#[derive(Debug, Clone, PartialEq)]
pub struct ProductFacts {
    pub products: Vec<String>,
    pub range: Option<IntRange>,
    pub default: Option<Literal>,
    pub loc: Loc,
}

/// From `release` on, these facts of an option replace the earlier ones.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub release: String,
    pub default: Option<Literal>,
    pub ge_key: Option<String>,
    pub range: Option<IntRange>,
    pub loc: Loc,
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
        self.changes
            .iter()
            .rev()
            .filter(|c| spec.release_index(&c.release).is_some_and(|i| i <= release))
            .find_map(|c| c.default.as_ref())
            .or(self.default.as_ref())
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

/// An on-disk file format that options rely on (e.g. `op_cache.ini`).
#[derive(Debug, Clone, PartialEq)]
pub struct FileFormat {
    pub name: String,
    pub location: Text,
    pub sections: Vec<FileSection>,
    /// What happens when the file or its values are invalid.
    pub invalid: Text,
    pub doc: Text,
    pub source: Sources,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileSection {
    pub name: String,
    pub keys: Vec<FileKey>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileKey {
    pub name: String,
    pub range: Option<IntRange>,
    pub unit: Option<String>,
    pub default: Option<i64>,
    /// Environment variable consulted when the file does not take effect.
    pub env: Option<String>,
    /// Values with a special meaning, e.g. `-1` turns aging off.
    pub special: Vec<(i64, Text)>,
    pub doc: Text,
    pub loc: Loc,
}

/// Serialized as `as_str` writes it: `note`, `warning`, `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// The option is set and equals the value.
    Equals(Literal),
    /// The option is set and differs from the value.
    Not(Literal),
    /// The option is set to one of the values.
    In(Vec<Literal>),
    Set,
    Unset,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// Dotted option path.
    pub option: String,
    pub test: Test,
    pub loc: Loc,
}

/// The condition as users read it in `explain`, `diff` and the docs:
/// `npu_run_config.op_debug_level != 0`. The one rendering; codegen stores it in `RULES`.
impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.option;
        match &self.test {
            Test::Equals(l) => write!(f, "{o} == {l}"),
            Test::Not(l) => write!(f, "{o} != {l}"),
            Test::In(ls) => {
                let list: Vec<String> = ls.iter().map(|l| l.to_string()).collect();
                write!(f, "{o} in [{}]", list.join(", "))
            }
            Test::Set => write!(f, "{o} is set"),
            Test::Unset => write!(f, "{o} is unset"),
        }
    }
}

/// A cross-option rule: when every condition holds, report the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub id: String,
    pub severity: Severity,
    pub when: Vec<Condition>,
    /// Releases whose documentation states the rule.
    pub available: ReleaseRange,
    pub message: Text,
    pub hint: Option<Text>,
    pub source: Sources,
    /// Config fragments the rule must fire on and close neighbours it must not: the rule
    /// tests run every one, and the docs show them.
    pub examples: RuleExamples,
    pub loc: Loc,
}

/// A rule's examples, as written under `examples: { fires: [...], quiet: [...] }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RuleExamples {
    pub fires: Vec<Example>,
    pub quiet: Vec<Example>,
}

/// One user config file (YAML or JSON, as `cannctl check` reads it) and where the spec
/// writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub config: String,
    pub loc: Loc,
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
