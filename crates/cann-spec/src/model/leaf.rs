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
    Float(Float),
    Str(S),
}

impl<S: AsRef<str>> std::fmt::Display for Literal<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Float(x) => write!(f, "{x}"),
            Literal::Str(s) => write!(f, "{:?}", s.as_ref()),
        }
    }
}

/// A floating-point number of the spec or of a user's config (`keep_checkpoint_every_n_hours:
/// 0.5`). Readers admit finite numbers only, so equality by bit pattern is equality by value
/// (`-0.0` is stored as `0.0`), and literals, typed values and tables can stay `Eq`.
#[derive(Debug, Clone, Copy)]
pub struct Float(pub f64);

impl Float {
    /// `v` when it is finite (with `-0.0` as `0.0`); `None` for NaN and the infinities.
    pub fn finite(v: f64) -> Option<Float> {
        v.is_finite()
            .then_some(Float(if v == 0.0 { 0.0 } else { v }))
    }

    pub fn get(self) -> f64 {
        self.0
    }
}

impl PartialEq for Float {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Float {}

impl std::hash::Hash for Float {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.to_bits().hash(h);
    }
}

/// As Python's `repr` writes a float, which YAML and JSON read back as the same number:
/// the shortest digits that round-trip, always with a `.` or an exponent (`10000.0`, `0.5`,
/// `1e+16`), so the text is never read as an integer.
impl std::fmt::Display for Float {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        if !v.is_finite() {
            // Not produced by any reader; written as Python spells it all the same.
            return f.write_str(if v.is_nan() {
                "nan"
            } else if v > 0.0 {
                "inf"
            } else {
                "-inf"
            });
        }
        let a = v.abs();
        if a != 0.0 && !(1e-4..1e16).contains(&a) {
            // Python switches to exponent form outside [1e-4, 1e16).
            let e = format!("{v:e}");
            let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            return write!(f, "{mantissa}e{sign}{digits:0>2}");
        }
        if v.fract() == 0.0 {
            write!(f, "{v:.1}")
        } else {
            write!(f, "{v}")
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
    /// A floating-point number (fractional hours).
    Float,
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
            OptionType::Float => "float",
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
