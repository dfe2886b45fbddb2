//! Arguments several commands share: the output format, the language and the target.

use std::io::IsTerminal;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

/// How a command writes its result. Every command takes `human` and `json`; only `lint`
/// also takes `sarif`, `github` and `gitlab` (the others accept what [`human_or_json`]
/// admits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum OutputFormat {
    // Text for people: findings with file:line:col, the source line and a caret.
    #[default]
    Human,
    // One JSON document.
    Json,
    // SARIF 2.1.0, for code-scanning systems.
    Sarif,
    // GitHub Actions workflow commands (`::error file=...`), shown as annotations.
    Github,
    // A GitLab Code Quality report (JSON), with a fingerprint per finding.
    Gitlab,
}

/// The `--format` parser of commands that write text or JSON only.
pub fn human_or_json() -> impl TypedValueParser<Value = OutputFormat> {
    PossibleValuesParser::new(["human", "json"])
        .try_map(|s| <OutputFormat as ValueEnum>::from_str(&s, false))
}

/// Why a whole-number flag refused its value; [`crate::usage`] words it in the user's
/// language (clap's own ranged parsers say it in English only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberError {
    NotANumber(std::num::ParseIntError),
    OutOfRange { min: i128, max: i128 },
}

impl std::fmt::Display for NumberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NumberError::NotANumber(e) => std::fmt::Display::fmt(e, f),
            NumberError::OutOfRange { min, max } => f.write_str(
                &cann_i18n::catalog::help::usage_out_of_range(cann_i18n::Lang::En, *min, *max),
            ),
        }
    }
}

impl std::error::Error for NumberError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NumberError::NotANumber(e) => Some(e),
            NumberError::OutOfRange { .. } => None,
        }
    }
}

/// The parser of a `u16` flag that takes `min..=max`: a value outside (`300`, `70000`,
/// `-1`) is out of range rather than "too large" for the type.
pub fn u16_in(
    min: u16,
    max: u16,
) -> impl Fn(&str) -> Result<u16, NumberError> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let n: i128 = text.trim().parse().map_err(NumberError::NotANumber)?;
        u16::try_from(n)
            .ok()
            .filter(|v| (min..=max).contains(v))
            .ok_or(NumberError::OutOfRange {
                min: min.into(),
                max: max.into(),
            })
    }
}

/// The language of messages. Without `--lang`, the locale's: the first set of `LC_ALL`,
/// `LC_MESSAGES` and `LANG` (POSIX order), Chinese when it names `zh`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    En,
    Zh,
}

impl Default for LangArg {
    fn default() -> Self {
        let var = |k| std::env::var(k).ok().filter(|v| !v.is_empty());
        let locale = var("LC_ALL")
            .or_else(|| var("LC_MESSAGES"))
            .or_else(|| var("LANG"));
        Self::from_locale(locale.as_deref().unwrap_or(""))
    }
}

impl LangArg {
    /// `zh_CN.UTF-8`, `zh_TW`, `zh` speak Chinese; anything else (`C`, `en_US`) English.
    pub fn from_locale(locale: &str) -> Self {
        let lang = locale.split(['_', '.', '@', '-']).next().unwrap_or("");
        if lang.eq_ignore_ascii_case("zh") {
            LangArg::Zh
        } else {
            LangArg::En
        }
    }
}

impl From<cann_config::meta::Lang> for LangArg {
    fn from(l: cann_config::meta::Lang) -> Self {
        match l {
            cann_config::meta::Lang::En => LangArg::En,
            cann_config::meta::Lang::Zh => LangArg::Zh,
        }
    }
}

/// Why a flag refused its value, other than a number ([`NumberError`]). Value parsers run
/// inside clap and cannot be told the language: they return this, and [`crate::usage`]
/// words it in the language the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagValueError {
    /// Not one of these names.
    OneOf(Vec<&'static str>),
    /// Not a number of seconds above 0 and at most `max`.
    Seconds { text: String, max: u64 },
}

impl FlagValueError {
    /// The reason in `lang`.
    pub fn message(&self, lang: cann_i18n::Lang) -> String {
        match self {
            FlagValueError::OneOf(names) => {
                cann_i18n::catalog::help::usage_one_of(lang, &lang.join(names.iter()))
            }
            FlagValueError::Seconds { text, max } => {
                cann_i18n::catalog::mem::time_limit_invalid(lang, text, *max)
            }
        }
    }
}

impl std::fmt::Display for FlagValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(cann_i18n::Lang::En))
    }
}

impl std::error::Error for FlagValueError {}

/// When output is colored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ColorArg {
    // A terminal, unless NO_COLOR is set; always when CLICOLOR_FORCE is set (not to 0).
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorArg {
    /// Whether a stream that `is_terminal` (or not) is colored, by this choice and the
    /// `NO_COLOR` / `CLICOLOR_FORCE` conventions (no-color.org, bixense.com/clicolors).
    pub fn colors(self, is_terminal: bool) -> bool {
        let set = |k| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        match self {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto if set("NO_COLOR") => false,
            ColorArg::Auto
                if set("CLICOLOR_FORCE")
                    && std::env::var_os("CLICOLOR_FORCE").as_deref() != Some("0".as_ref()) =>
            {
                true
            }
            ColorArg::Auto => is_terminal,
        }
    }

    /// The same choice for clap's own help and errors.
    pub fn clap(self) -> clap::ColorChoice {
        match self {
            ColorArg::Auto if self.colors(std::io::stderr().is_terminal()) => {
                clap::ColorChoice::Always
            }
            ColorArg::Auto | ColorArg::Never => clap::ColorChoice::Never,
            ColorArg::Always => clap::ColorChoice::Always,
        }
    }
}

impl From<LangArg> for cann_config::meta::Lang {
    fn from(l: LangArg) -> Self {
        match l {
            LangArg::En => cann_config::meta::Lang::En,
            LangArg::Zh => cann_config::meta::Lang::Zh,
        }
    }
}

/// The product and release a config file is checked against.
#[derive(Debug, Args)]
pub struct TargetArgs {
    #[arg(long)]
    pub product: Option<String>,
    #[arg(long)]
    pub release: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::LangArg;

    #[test]
    fn chinese_locales_speak_chinese() {
        for l in ["zh_CN.UTF-8", "zh_TW", "zh", "zh-Hans", "ZH_cn"] {
            assert_eq!(LangArg::from_locale(l), LangArg::Zh, "{l}");
        }
        for l in [
            "",
            "C",
            "C.UTF-8",
            "POSIX",
            "en_US.UTF-8",
            "zu_ZA",
            "de_DE@euro",
        ] {
            assert_eq!(LangArg::from_locale(l), LangArg::En, "{l}");
        }
    }
}
