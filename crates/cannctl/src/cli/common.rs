//! Arguments several commands share: the output format, the language and the target.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

/// How a command writes its result. Every command takes `human` and `json`; only `lint`
/// also takes `sarif`, `github` and `gitlab` (the others accept what [`human_or_json`]
/// admits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum OutputFormat {
    /// Text for people: findings with file:line:col, the source line and a caret.
    #[default]
    Human,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning systems.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...`), shown as annotations.
    Github,
    /// A GitLab Code Quality report (JSON), with a fingerprint per finding.
    Gitlab,
}

/// The `--format` parser of commands that write text or JSON only.
pub fn human_or_json() -> impl TypedValueParser<Value = OutputFormat> {
    PossibleValuesParser::new(["human", "json"])
        .try_map(|s| <OutputFormat as ValueEnum>::from_str(&s, false))
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
    /// Product id, e.g. atlas-a2-training (overrides `product:` in the file).
    #[arg(long)]
    pub product: Option<String>,
    /// CANN release, e.g. 9.0.0 (overrides `release:`; default: the newest release).
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
