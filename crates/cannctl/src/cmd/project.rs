//! `[tool.cannctl]` for a command: which pyproject.toml answers, and the language that
//! follows from it. Flags beat the settings; the settings beat the defaults.

use std::path::{Path, PathBuf};

use cann_check::settings::{self, Settings};
use cann_config::meta::Lang;

use crate::cli::LangArg;
use crate::CliError;

/// The settings of the files a command was given, read from the first one (standard input
/// by its `--stdin-filename`, else the working directory), and the language of messages:
/// `--lang`, else `lang` of the settings, else the locale's.
pub fn resolve(
    paths: &[PathBuf],
    stdin_name: Option<&Path>,
    lang: Option<LangArg>,
) -> Result<(Settings, Lang), CliError> {
    let start = match paths.first() {
        Some(p) if !cann_input::is_stdin(p) => p.clone(),
        _ => stdin_name
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
    };
    // The settings' own errors are worded before their `lang` is known.
    let first: Lang = lang.unwrap_or_default().into();
    let s = settings::resolve(&start, first).map_err(cann_check::CheckError::from)?;
    let lang = match lang {
        Some(l) => l.into(),
        None => s.lang.unwrap_or(first),
    };
    Ok((s, lang))
}

/// `paths` without those `exclude` leaves out (standard input is never left out).
pub fn kept(paths: &[PathBuf], s: &Settings) -> Vec<PathBuf> {
    paths
        .iter()
        .filter(|p| cann_input::is_stdin(p) || !s.exclude.excludes(p))
        .cloned()
        .collect()
}
