//! The spec's leaf values: literals, types and the small kinds options are built from.
//!
//! Each is one definition for both stores of the model: owned data from the loader, and
//! `&'static` data in the tables codegen emits.

/// A literal value as the spec writes it. One type for the loader (`Literal`, owning its
/// string) and for the tables codegen emits as `static` data (`Literal<&'static str>`,
/// which `cann_config::meta` calls `Lit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Literal<S = String> {
    Bool(bool),
    Int(i64),
    Str(S),
}

impl<S: AsRef<str>> std::fmt::Display for Literal<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Str(s) => write!(f, "{:?}", s.as_ref()),
        }
    }
}

/// An option's type. One type for the loader (`OptionType`, owning its names) and for the
/// emitted tables (`OptionType<&'static str, &'static [CharClass]>`, `cann_config::meta`'s
/// `TypeMeta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionType<S = String, C = Vec<CharClass>> {
    Bool,
    Int,
    /// Enumerated integer codes.
    IntEnum,
    /// Enumerated strings.
    StrEnum,
    Str,
    /// A file system path; `chars` lists what may appear in it.
    Path {
        chars: C,
    },
    /// `"cube|vector"` core counts.
    CorePair,
    /// A nested configuration class, by name.
    Config(S),
    /// A Python object of the named class (`tf.ConfigProto`), which only a script can pass;
    /// a config file cannot hold it.
    Object(S),
}

impl<S: AsRef<str>, C> OptionType<S, C> {
    /// The type as users read it: its name, and the class of a Python object
    /// (`python-object (tf.ConfigProto)`).
    pub fn describe(&self) -> String {
        match self {
            OptionType::Object(class) => format!("{} ({})", self.name(), class.as_ref()),
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

/// The default of a Python constructor parameter, as upstream declares it. One type for
/// the loader and, over `Literal<&'static str>`, for the emitted tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PyDefault<L = Literal> {
    /// `name=None`.
    #[default]
    None,
    /// `name=<literal>`.
    Lit(L),
    /// No default: the call must pass it.
    Required,
}
