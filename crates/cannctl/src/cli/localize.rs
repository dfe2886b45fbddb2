//! The command tree in the user's language. Every help text comes from the catalog
//! (`cann_i18n::catalog::help`, found by the id scheme its docs describe); in Chinese the
//! help page's own words (headings, defaults, possible values) are the catalog's too.

use clap::{Arg, Command, CommandFactory};

use cann_config::meta::Lang;
use cann_i18n::catalog::help;

use super::Cli;

/// `cannctl` as parsed and as shown by `--help`, `completions` and `man`, in `lang`.
pub fn command(lang: Lang) -> Command {
    let mut cmd = Cli::command().version(version());
    // Built first, so clap's own `--help`, `--version` and `help` are there to translate.
    cmd.build();
    localize(cmd, &[], lang)
}

/// `--version`: the crate's version and the newest release of the spec it carries.
pub fn version() -> String {
    format!(
        "{} (CANN {})",
        env!("CARGO_PKG_VERSION"),
        cann_config::Release::LATEST.id()
    )
}

/// The catalog's text with this id, if it has one.
fn text(id: &str, lang: Lang) -> Option<String> {
    help::ENTRIES
        .iter()
        .find(|e| e.id == id)
        .and_then(|e| e.plain(lang))
}

fn key(parts: &[&str]) -> String {
    parts.join("_").replace('-', "_")
}

/// The id of a command's text: `about_cannctl`, `about_cache_info`. Every `help` command
/// is `about_help`; `help check` (clap's `help` lists the tree again) is described as
/// `check` is.
pub fn about_id(path: &[&str]) -> String {
    if path.last() == Some(&"help") {
        return "about_help".into();
    }
    let path: Vec<&str> = path.iter().copied().filter(|p| *p != "help").collect();
    if path.is_empty() {
        "about_cannctl".into()
    } else {
        format!("about_{}", key(&path))
    }
}

/// Ids an argument's text is looked up by, most specific first: `arg_cache_gc_dir`,
/// `arg_cache_dir`, `arg_dir`.
pub fn arg_ids(path: &[&str], arg: &str) -> Vec<String> {
    (0..=path.len())
        .rev()
        .map(|n| {
            let mut parts = vec!["arg"];
            parts.extend_from_slice(&path[..n]);
            parts.push(arg);
            key(&parts)
        })
        .collect()
}

/// The text of an argument, by the most specific id the catalog has.
pub fn arg_text(path: &[&str], arg: &str, lang: Lang) -> Option<String> {
    arg_ids(path, arg).iter().find_map(|id| text(id, lang))
}

fn localize(mut cmd: Command, path: &[&str], lang: Lang) -> Command {
    if let Some(about) = text(&about_id(path), lang) {
        cmd = cmd.about(about).long_about(None);
    }
    if lang == Lang::Zh {
        let usage = help::ENTRIES
            .iter()
            .find(|e| e.id == "heading_usage")
            .map_or("", |e| e.text(lang));
        cmd = cmd
            .help_template(format!(
                "{{before-help}}{{about-with-newline}}\n{usage}{{usage}}\n\n{{all-args}}{{after-help}}"
            ))
            .subcommand_help_heading(help::heading_commands(lang));
    }
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(&id, |a| localize_arg(a, path, lang));
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for sub in subs {
        let mut sub_path = path.to_vec();
        sub_path.push(&sub);
        cmd = cmd.mut_subcommand(&sub, |s| localize(s, &sub_path, lang));
    }
    cmd
}

fn localize_arg(mut a: Arg, path: &[&str], lang: Lang) -> Arg {
    let id = a.get_id().to_string();
    let Some(mut help_text) = arg_text(path, &id, lang) else {
        return a;
    };
    if lang == Lang::Zh {
        // clap's own brackets are English; ours say the same in the catalog's words (full
        // width, so no space before them).
        if a.get_action().takes_values() {
            let defaults: Vec<String> = a
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            if !defaults.is_empty() && !a.is_hide_default_value_set() {
                help_text.push_str(&help::default_value(lang, &defaults.join(" ")));
            }
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            if !values.is_empty() && !a.is_hide_possible_values_set() {
                help_text.push_str(&help::possible_values(lang, &lang.join(values)));
            }
        }
        if let Some(env) = a.get_env().filter(|_| !a.is_hide_env_set()) {
            help_text.push_str(&help::env_var(lang, &env.to_string_lossy()));
        }
        let heading = if a.is_positional() {
            help::heading_arguments(lang)
        } else {
            help::heading_options(lang)
        };
        a = a
            .hide_default_value(true)
            .hide_possible_values(true)
            .hide_env(true)
            .help_heading(heading);
    }
    a.help(help_text).long_help(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command and argument a user can see has its text in the catalog, in both
    /// languages, and the catalog has no help text that nothing uses.
    #[test]
    fn every_command_and_argument_has_a_catalog_text() {
        fn walk(
            cmd: &Command,
            path: &mut Vec<String>,
            missing: &mut Vec<String>,
            used: &mut Vec<String>,
        ) {
            let p: Vec<&str> = path.iter().map(String::as_str).collect();
            let about = about_id(&p);
            if text(&about, Lang::En).is_none() {
                missing.push(about.clone());
            }
            used.push(about);
            for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
                let ids = arg_ids(&p, a.get_id().as_str());
                match ids.iter().find(|id| text(id, Lang::En).is_some()) {
                    Some(id) => used.push(id.clone()),
                    None => missing.push(ids[0].clone()),
                }
            }
            for s in cmd.get_subcommands() {
                path.push(s.get_name().to_string());
                walk(s, path, missing, used);
                path.pop();
            }
        }
        let mut cmd = Cli::command();
        cmd.build();
        let (mut missing, mut used) = (Vec::new(), Vec::new());
        walk(&cmd, &mut Vec::new(), &mut missing, &mut used);
        assert!(missing.is_empty(), "no catalog text for: {missing:?}");
        let unused: Vec<&str> = help::ENTRIES
            .iter()
            .filter(|e| e.id.starts_with("about_") || e.id.starts_with("arg_"))
            .map(|e| e.id)
            .filter(|id| !used.iter().any(|u| u == id))
            .collect();
        assert!(unused.is_empty(), "help texts nothing shows: {unused:?}");
    }

    #[test]
    fn chinese_help_has_chinese_texts_and_headings() {
        let mut cmd = command(Lang::Zh);
        let top = cmd.render_help().to_string();
        assert!(top.contains("用法："), "{top}");
        assert!(top.contains("命令:"), "{top}");
        assert!(top.contains("检查、解释并生成"), "{top}");
        let check = cmd
            .find_subcommand_mut("check")
            .map(|c| c.render_help().to_string())
            .unwrap_or_default();
        assert!(
            check.contains("参数:") && check.contains("选项:"),
            "{check}"
        );
        assert!(check.contains("［默认：human］"), "{check}");
        assert!(check.contains("［可选值：human、json］"), "{check}");
        assert!(!check.contains("Print help"), "{check}");
    }

    #[test]
    fn the_version_names_the_newest_release() {
        assert!(version().contains(cann_config::Release::LATEST.id()));
    }
}
