//! Every recognized spec key, spelled once.

pub const PRODUCTS: &str = "products";
pub const RELEASES: &str = "releases";
pub const CONFIG: &str = "config";
pub const OPTIONS: &str = "options";
pub const RULES: &str = "rules";
pub const FILES: &str = "files";

pub const ID: &str = "id";
pub const NAME: &str = "name";
pub const NOTE: &str = "note";
pub const UNRELEASED: &str = "unreleased";
pub const REFS: &str = "refs";
pub const ADVICE: &str = "advice";
pub const CORES: &str = "cores";
pub const CUBE: &str = "cube";
pub const VECTOR: &str = "vector";
pub const SOURCE: &str = "source";
pub const EN: &str = "en";
pub const ZH: &str = "zh";
pub const DOC: &str = "doc";

pub const ROOT_KEY: &str = "root_key";
pub const KIND: &str = "kind";
pub const PYTHON_IMPORT: &str = "python_import";
pub const AVAILABLE: &str = "available";

pub const TYPE: &str = "type";
pub const CLASS: &str = "class";
pub const DEFAULT: &str = "default";
pub const VALUES: &str = "values";
pub const VALUE: &str = "value";
pub const ALIASES: &str = "aliases";
pub const RANGE: &str = "range";
pub const MIN: &str = "min";
pub const MAX: &str = "max";
/// A float option's exclusive lower bound: `range: { above: 0 }`.
pub const ABOVE: &str = "above";
pub const UNIT: &str = "unit";
pub const CHARS: &str = "chars";
pub const GE_KEY: &str = "ge_key";
pub const ESTIMATOR: &str = "estimator";
pub const SESSION: &str = "session";
pub const ACCESSOR: &str = "accessor";
pub const TF2: &str = "tf2";
pub const PATH: &str = "path";
pub const REQUIRED: &str = "required";
pub const ENV: &str = "env";
pub const DEPRECATED: &str = "deprecated";
pub const SINCE: &str = "since";
pub const REPLACEMENT: &str = "replacement";
pub const CHANGES: &str = "changes";
pub const BY_PRODUCT: &str = "by_product";
pub const FOR: &str = "for";
pub const WARNING: &str = "warning";
pub const BEHAVIOURS: &str = "behaviours";
pub const BEHAVIOUR: &str = "behaviour";
pub const VALUES_OF: &str = "values_of";
pub const REMOVED: &str = "removed";
pub const LAST: &str = "last";
pub const BEFORE: &str = "before";
pub const NEVER_READ: &str = "never_read";
pub const EMPTY_IGNORED: &str = "empty_ignored";
pub const INTRODUCED: &str = "introduced";
pub const AFTER: &str = "after";
pub const FIRST_RECORDED: &str = "first_recorded";
pub const FROM: &str = "from";
pub const TO: &str = "to";
pub const RELEASE: &str = "release";
pub const ADD: &str = "add";
pub const REMOVE: &str = "remove";

pub const SEVERITY: &str = "severity";
pub const WHEN: &str = "when";
pub const OPTION: &str = "option";
pub const EQUALS: &str = "equals";
pub const NOT: &str = "not";
pub const IN: &str = "in";
pub const SET: &str = "set";
pub const UNSET: &str = "unset";
pub const MESSAGE: &str = "message";
pub const HINT: &str = "hint";
pub const EXAMPLES: &str = "examples";
pub const FIRES: &str = "fires";
pub const QUIET: &str = "quiet";

pub const LOCATION: &str = "location";
pub const INVALID: &str = "invalid";
pub const SECTIONS: &str = "sections";
pub const KEYS: &str = "keys";
pub const SPECIAL: &str = "special";

pub const OPTIMIZER: &str = "optimizer";
pub const FIELD_TYPES: &str = "field_types";
pub const REWRITES: &str = "rewrites";
pub const FIELD: &str = "field";
pub const WANT: &str = "want";
pub const OFF: &str = "off";

/// Values of `type:`.
pub const TYPES: &[&str] = &[
    "bool",
    "int",
    "float",
    "int-enum",
    "string-enum",
    "string",
    "path",
    "core-pair",
    "config",
    "python-object",
];
/// Values of `chars:` that name a class rather than a literal character.
pub const CHAR_CLASSES: &[&str] = &["ascii-alphanumeric", "cjk"];
pub const SEVERITIES: &[&str] = &["error", "warning", "note"];
pub const ACCESSORS: &[&str] = &["i", "s", "b"];
pub const CONFIG_KINDS: &[&str] = &["python", "environment"];
/// Kinds of a `RewriterConfig` field (`field_types:` of session.yaml).
pub const REWRITE_FIELD_TYPES: &[&str] = &["toggle", "mem-opt", "bool"];
/// Values of a rewrite's `want:`.
pub const WANTS: &[&str] = &["off", "on"];
