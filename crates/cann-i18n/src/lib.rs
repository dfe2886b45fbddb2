//! Every text a user reads, in English and Chinese, declared once.
//!
//! A message is a function in an area's catalog file (`src/catalog/<area>.rs`), written with
//! [`messages!`]. Each entry names its typed arguments and gives an `en` and a `zh` text;
//! leaving out a language, naming an argument a text does not declare, or declaring one that
//! neither text uses does not compile.
//!
//! ```
//! use cann_i18n::{catalog, Lang, Text};
//!
//! // A message is a function: the language first, then its arguments.
//! let msg = catalog::config::unknown_option(Lang::Zh, "static_memory", "npu_run_config");
//! assert_eq!(msg, "`npu_run_config` 中没有选项 `static_memory`");
//!
//! // Spec texts (product names, descriptions) are `Text`; passed as an argument, they
//! // are shown in the message's language.
//! let a2 = Text { en: "Atlas A2 training series", zh: "Atlas A2 训练系列产品" };
//! let msg = catalog::config::option_unsupported(Lang::Zh, "aicore_num", a2, "9.0.0");
//! assert!(msg.contains("Atlas A2 训练系列产品"));
//! ```
//!
//! Adding a message to your area's file:
//!
//! ```
//! cann_i18n::messages! {
//!     /// A cache entry that has no manifest line.
//!     orphan_entry(path: &str, bytes: u64) {
//!         en: "`{path}` ({bytes} bytes) is not in the manifest",
//!         zh: "`{path}`（{bytes} 字节）不在清单中",
//!     }
//! }
//! # fn main() {
//! assert_eq!(orphan_entry(cann_i18n::Lang::En, "a.o", 3), "`a.o` (3 bytes) is not in the manifest");
//! # }
//! ```
//!
//! Rules for texts: placeholders are `{name}` with the argument's `Display` (write quotes and
//! backticks in the text itself); `{{` and `}}` are literal braces; identifiers, option
//! names, keys and code stay as they are in both languages, everything else is translated.

use std::fmt;

pub mod bytes;
pub mod catalog;

/// Language of messages and docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// Every language, in the order docs list them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The language tag, as in `--lang zh` and `?lang=zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// Joins items as a list in this language: `a, b, c` or `a、b、c`.
    pub fn join<T: fmt::Display>(self, items: impl IntoIterator<Item = T>) -> String {
        let sep = match self {
            Lang::En => ", ",
            Lang::Zh => "、",
        };
        let mut out = String::new();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(&item.to_string());
        }
        out
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language tag that is neither `en` nor `zh`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown language `{}`; expected en or zh", self.0)
    }
}

impl std::error::Error for UnknownLang {}

impl std::str::FromStr for Lang {
    type Err = UnknownLang;

    /// Accepts `en`/`zh` and region tags such as `zh-CN` or `zh_CN.UTF-8`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let base = s.split(['-', '_', '.']).next().unwrap_or("");
        match base.to_ascii_lowercase().as_str() {
            "en" => Ok(Lang::En),
            "zh" => Ok(Lang::Zh),
            _ => Err(UnknownLang(s.to_string())),
        }
    }
}

/// A text written in the spec in both languages (a description, a product name).
///
/// One type for the spec loader, which owns its strings (`Text<String>`, the spec model's
/// `cann_spec::Text`), and for the tables codegen emits as `static` data (`Text`, over
/// `&'static str`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Text<S = &'static str> {
    pub en: S,
    pub zh: S,
}

impl Text {
    pub fn get(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }
}

impl Text<String> {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// A value a message can show: anything `Display`, and [`Text`] in the message's language.
pub trait Arg {
    fn fmt_in(&self, lang: Lang, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: fmt::Display + ?Sized> Arg for T {
    fn fmt_in(&self, _lang: Lang, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Arg for Text {
    fn fmt_in(&self, lang: Lang, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get(lang))
    }
}

/// An argument bound to the language of the message it is shown in.
#[doc(hidden)]
pub struct In<'a, T: ?Sized>(pub &'a T, pub Lang);

impl<T: Arg + ?Sized> fmt::Display for In<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt_in(self.1, f)
    }
}

/// Marks where an argument starts and ends in a zh text, for [`spaced`]. A private-use
/// character, which no message or real argument holds.
const EDGE: char = '\u{e000}';

/// An argument of a zh message, with its edges marked for [`spaced`].
#[doc(hidden)]
pub struct Marked<T>(pub T);

impl<T: fmt::Display> fmt::Display for Marked<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(EDGE)?;
        fmt::Display::fmt(&self.0, f)?;
        f.write_char(EDGE)
    }
}

/// A zh message with a space wherever an argument's Latin letters, digits or code (`` ` ``)
/// meet the text's Chinese characters, or the reverse, as the catalog's own texts are
/// written: `未知的{what}` with `parameter_map 键` reads `未知的 parameter_map 键`, with
/// `环境变量` stays `未知的环境变量`. Only the edges of arguments are touched, never the
/// inside of a value (a path such as `模型v2/a.yaml` is shown as it is).
#[doc(hidden)]
pub fn spaced(text: String) -> String {
    fn cjk(c: char) -> bool {
        matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}')
    }
    fn latin(c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '`'
    }
    if !text.contains(EDGE) {
        return text;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    // Edges come in pairs: an argument opens, then closes. Only the text's Chinese meeting
    // the argument's Latin is spaced; the text's own code quotes (`` `{name}` ``) meeting a
    // Chinese argument are left as written.
    let mut opening = true;
    for (i, &c) in chars.iter().enumerate() {
        if c != EDGE {
            out.push(c);
            continue;
        }
        let before = out.chars().next_back();
        let after = chars[i + 1..].iter().copied().find(|&c| c != EDGE);
        if let (Some(a), Some(b)) = (before, after) {
            let (text, arg) = if opening { (a, b) } else { (b, a) };
            if cjk(text) && latin(arg) {
                out.push(' ');
            }
        }
        opening = !opening;
    }
    out
}

/// One catalog entry as declared, for the completeness tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub id: &'static str,
    pub args: &'static [&'static str],
    pub en: &'static str,
    pub zh: &'static str,
}

impl Entry {
    pub fn text(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }

    /// The text of a message without arguments, as its function returns it (`{{` read as
    /// `{`): for texts looked up by id, such as help texts. `None` when it takes arguments.
    pub fn plain(&self, lang: Lang) -> Option<String> {
        self.args
            .is_empty()
            .then(|| self.text(lang).replace("{{", "{").replace("}}", "}"))
    }
}

/// Declares messages: for each entry a `pub fn name(lang: Lang, args...) -> String`, and for
/// the whole block `pub const ENTRIES: &[Entry]`. See the crate docs for an example.
/// Use it once per catalog file (it defines `ENTRIES`); `lang` is reserved as an argument name.
#[macro_export]
macro_rules! messages {
    ($(
        $(#[$attr:meta])*
        $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) {
            en: $en:literal,
            zh: $zh:literal $(,)?
        }
    )*) => {
        $(
            $(#[$attr])*
            #[must_use]
            #[allow(clippy::too_many_arguments)]
            pub fn $name(lang: $crate::Lang, $($arg: $ty),*) -> ::std::string::String {
                $( let $arg = $crate::In(&$arg, lang); )*
                match lang {
                    $crate::Lang::En => ::std::format!($en),
                    $crate::Lang::Zh => {
                        $( let $arg = $crate::Marked($arg); )*
                        $crate::spaced(::std::format!($zh))
                    }
                }
            }
        )*

        /// Every message of this file, as declared.
        pub const ENTRIES: &[$crate::Entry] = &[$(
            $crate::Entry {
                id: ::std::stringify!($name),
                args: &[$(::std::stringify!($arg)),*],
                en: $en,
                zh: $zh,
            },
        )*];
    };
}
