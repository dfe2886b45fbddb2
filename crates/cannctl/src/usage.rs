//! Usage errors (an unknown flag, a bad value, a missing argument) in the user's language:
//! clap finds them and names the parts (its error context); the words are the catalog's.

use clap::error::{ContextKind, ContextValue, ErrorKind};

use cann_config::meta::Lang;
use cann_i18n::catalog::help as msg;

/// A usage error as shown: what is wrong, a hint, and the command's usage line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    pub message: String,
    pub hint: Option<String>,
    /// `cannctl check [OPTIONS] <FILES>...`, when clap gave one.
    pub usage: Option<String>,
}

fn string(e: &clap::Error, k: ContextKind) -> Option<String> {
    match e.get(k)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        ContextValue::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn strings(e: &clap::Error, k: ContextKind) -> Vec<String> {
    match e.get(k) {
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

fn number(e: &clap::Error, k: ContextKind) -> usize {
    match e.get(k) {
        Some(ContextValue::Number(n)) => usize::try_from(*n).unwrap_or(0),
        _ => 0,
    }
}

/// Quoted names joined as a list: `` `--a`、`--b` ``.
fn quoted(lang: Lang, names: &[String]) -> String {
    lang.join(names.iter().map(|n| format!("`{n}`")))
}

/// The command a usage line is for: its words before the first flag or placeholder.
fn command_of(usage: &str) -> String {
    usage
        .split_whitespace()
        .take_while(|w| !w.starts_with(['[', '<', '-']))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a value parser refused a value, in `lang`: ours word it so; the standard library's
/// number parsers are said in the catalog's words; another parser's English is left out of
/// a Chinese message.
fn reason(e: &clap::Error, lang: Lang) -> Option<String> {
    let source = std::error::Error::source(e)?;
    if let Some(n) = source.downcast_ref::<crate::cli::NumberError>() {
        return Some(match n {
            crate::cli::NumberError::OutOfRange { min, max } => {
                msg::usage_out_of_range(lang, *min, *max)
            }
            crate::cli::NumberError::NotANumber(_) => msg::usage_not_a_whole_number(lang),
        });
    }
    if let Some(f) = source.downcast_ref::<crate::cli::FlagValueError>() {
        return Some(f.message(lang));
    }
    if let Some(p) = source.downcast_ref::<std::num::ParseIntError>() {
        use std::num::IntErrorKind;
        return Some(match p.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                msg::usage_number_too_large(lang)
            }
            _ => msg::usage_not_a_whole_number(lang),
        });
    }
    if source.downcast_ref::<std::num::ParseFloatError>().is_some() {
        return Some(msg::usage_not_a_number(lang));
    }
    let text = source.to_string();
    let chinese = text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    (lang == Lang::En || chinese).then_some(text)
}

/// What clap found, in `lang`.
pub fn usage_error(e: &clap::Error, lang: Lang) -> UsageError {
    let arg = string(e, ContextKind::InvalidArg).unwrap_or_default();
    let value = string(e, ContextKind::InvalidValue).unwrap_or_default();
    let message = match e.kind() {
        ErrorKind::UnknownArgument => msg::usage_unknown_argument(lang, &arg),
        ErrorKind::InvalidSubcommand => msg::usage_unknown_command(
            lang,
            &string(e, ContextKind::InvalidSubcommand).unwrap_or_default(),
        ),
        ErrorKind::InvalidValue if value.is_empty() => msg::usage_value_missing(lang, &arg),
        ErrorKind::InvalidValue => msg::usage_invalid_value(lang, &value, &arg),
        ErrorKind::ValueValidation => match reason(e, lang) {
            Some(r) => msg::usage_invalid_value_because(lang, &value, &arg, &r),
            None => msg::usage_invalid_value(lang, &value, &arg),
        },
        ErrorKind::TooManyValues => msg::usage_extra_value(lang, &value, &arg),
        ErrorKind::TooFewValues => msg::usage_value_count(
            lang,
            &arg,
            number(e, ContextKind::MinValues),
            number(e, ContextKind::ActualNumValues),
        ),
        ErrorKind::WrongNumberOfValues => msg::usage_value_count(
            lang,
            &arg,
            number(e, ContextKind::ExpectedNumValues),
            number(e, ContextKind::ActualNumValues),
        ),
        ErrorKind::MissingRequiredArgument => {
            msg::usage_missing_arguments(lang, &quoted(lang, &strings(e, ContextKind::InvalidArg)))
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            msg::usage_missing_command(
                lang,
                &string(e, ContextKind::InvalidSubcommand).unwrap_or_else(|| "cannctl".into()),
            )
        }
        ErrorKind::ArgumentConflict => {
            let prior = strings(e, ContextKind::PriorArg);
            if prior.is_empty() || prior == [arg.clone()] {
                msg::usage_repeated(lang, &arg)
            } else {
                msg::usage_conflict(lang, &arg, &quoted(lang, &prior))
            }
        }
        ErrorKind::NoEquals => msg::usage_needs_equals(lang, &arg),
        ErrorKind::InvalidUtf8 => msg::usage_not_utf8(lang),
        _ => msg::usage_other(lang),
    };
    let usage = string(e, ContextKind::Usage).map(|u| {
        // clap's usage starts with its own English heading.
        let u = u.trim();
        u.strip_prefix("Usage:").unwrap_or(u).trim().to_string()
    });
    let suggested = [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ]
    .into_iter()
    // clap lists suggestions from the least to the most likely.
    .find_map(|k| strings(e, k).pop());
    let valid: Vec<String> = [ContextKind::ValidValue, ContextKind::ValidSubcommand]
        .into_iter()
        .flat_map(|k| strings(e, k))
        .collect();
    let hint = if let Some(name) = suggested {
        Some(msg::usage_did_you_mean(lang, &name))
    } else if !valid.is_empty() {
        Some(msg::usage_one_of(lang, &quoted(lang, &valid)))
    } else if e.kind() == ErrorKind::UnknownArgument && e.get(ContextKind::Suggested).is_some() {
        // clap saw that the flag could be meant as a value of a positional argument.
        Some(msg::usage_dash_dash(lang, &arg))
    } else {
        usage
            .as_deref()
            .map(|u| msg::usage_see_help(lang, &format!("{} --help", command_of(u))))
    };
    UsageError {
        message,
        hint,
        usage,
    }
}

impl UsageError {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "error": {
                "kind": "usage",
                "message": self.message,
                "hint": self.hint,
                "usage": self.usage,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::localize::command;

    fn error(lang: Lang, argv: &[&str]) -> UsageError {
        match command(lang).try_get_matches_from(argv) {
            Ok(_) => UsageError {
                message: "parsed".into(),
                hint: None,
                usage: None,
            },
            Err(e) => usage_error(&e, lang),
        }
    }

    #[test]
    fn usage_errors_read_in_chinese() {
        let e = error(Lang::Zh, &["cannctl", "check", "a.yaml", "--formt", "json"]);
        assert_eq!(e.message, "无法识别的参数 `--formt`");
        assert_eq!(e.hint.as_deref(), Some("是否想写 `--format`？"));
        assert!(
            e.usage
                .as_deref()
                .is_some_and(|u| u.starts_with("cannctl check")),
            "{e:?}"
        );

        let e = error(Lang::Zh, &["cannctl", "check", "a.yaml", "--format", "xml"]);
        assert_eq!(e.message, "`--format <FORMAT>` 的值 `xml` 无效");
        assert_eq!(e.hint.as_deref(), Some("以下之一：`human`、`json`"));

        let e = error(Lang::Zh, &["cannctl", "chek"]);
        assert_eq!(e.message, "没有名为 `chek` 的命令");
        assert_eq!(e.hint.as_deref(), Some("是否想写 `check`？"));

        let e = error(Lang::Zh, &["cannctl", "check"]);
        assert_eq!(e.message, "缺少必需的参数：`<FILES>...`");
        assert_eq!(
            e.hint.as_deref(),
            Some("`cannctl check --help` 可列出该命令接受的参数")
        );

        // A value outside a flag's range is said in Chinese too, not in clap's English.
        for n in ["300", "0", "70000", "-1"] {
            let e = error(
                Lang::Zh,
                &[
                    "cannctl",
                    "mem",
                    "plan",
                    "--buffers",
                    "b.csv",
                    &format!("--threads={n}"),
                ],
            );
            assert_eq!(
                e.message,
                format!("`--threads <THREADS>` 的值 `{n}` 无效：不在 1 到 256 的范围内"),
                "{e:?}"
            );
        }
        let e = error(
            Lang::En,
            &[
                "cannctl",
                "mem",
                "plan",
                "--buffers",
                "b.csv",
                "--threads",
                "300",
            ],
        );
        assert_eq!(
            e.message,
            "invalid value `300` for `--threads <THREADS>`: not between 1 and 256"
        );

        let e = error(Lang::Zh, &["cannctl", "lint", "x.py", "--fix", "--diff"]);
        assert!(e.message.contains("不能与"), "{e:?}");
    }

    #[test]
    fn usage_errors_read_in_english() {
        let e = error(Lang::En, &["cannctl", "check", "a.yaml", "--formt", "json"]);
        assert_eq!(e.message, "unexpected argument `--formt`");
        assert_eq!(e.hint.as_deref(), Some("did you mean `--format`?"));
        let e = error(Lang::En, &["cannctl", "emit", "a.yaml", "--to", "yaml"]);
        assert!(
            e.message
                .starts_with("invalid value `yaml` for `--to <TO>`"),
            "{e:?}"
        );
    }
}
