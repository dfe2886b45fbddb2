//! Problems that stop a command before it has anything to report (exit code 2).

use std::path::PathBuf;

use cann_config::meta::Lang;
use cann_i18n::catalog::cli as msg;
use cann_input::io_reason;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file refused or unreadable by the input layer, in the language asked for.
    #[error("{0}")]
    Input(#[from] cann_input::InputError),
    #[error("{}{}: {message}", path.display(), pos.map(|p| format!(":{}:{}", p.line, p.col)).unwrap_or_default())]
    Parse {
        path: PathBuf,
        pos: Option<cann_config::yaml::Pos>,
        message: String,
        hint: Option<String>,
        /// The offending line of the file, for a caret.
        line: Option<String>,
    },
    #[error("{0}")]
    Usage(String, Option<String>),
    #[error("cannot write output: {0}")]
    Write(#[from] std::io::Error),
    /// An input error reported by a subcommand module (cache, mem, lint).
    #[error("{0}")]
    Other(Box<dyn std::error::Error + Send + Sync>),
}

/// The pipeline's errors are the command's, variant for variant, so they render alike.
impl From<cann_check::CheckError> for CliError {
    fn from(e: cann_check::CheckError) -> Self {
        use cann_check::CheckError;
        match e {
            CheckError::Input(e) => CliError::Input(e),
            CheckError::Parse {
                path,
                pos,
                message,
                hint,
                line,
            } => CliError::Parse {
                path,
                pos,
                message,
                hint,
                line,
            },
            CheckError::Usage(m, h) => CliError::Usage(m, h),
        }
    }
}

impl From<cann_check::settings::SettingsError> for CliError {
    fn from(e: cann_check::settings::SettingsError) -> Self {
        cann_check::CheckError::from(e).into()
    }
}

impl CliError {
    /// What went wrong, in `lang`. A parse error with a position leaves the place to the
    /// renderer's location line.
    pub fn message(&self, lang: Lang) -> String {
        let shown = |p: &std::path::Path| p.display().to_string();
        match self {
            CliError::Input(e) => e.message(lang),
            CliError::Parse {
                path, pos, message, ..
            } => match pos {
                Some(_) => message.clone(),
                None => format!("{}: {message}", shown(path)),
            },
            CliError::Usage(m, _) => m.clone(),
            CliError::Write(e) => msg::cannot_write(lang, &io_reason(e, lang)),
            CliError::Other(e) => match e.downcast_ref::<cann_runtime::cache::CacheError>() {
                Some(c) => c.message(lang),
                None => e.to_string(),
            },
        }
    }

    pub fn hint(&self, lang: Lang) -> Option<String> {
        match self {
            CliError::Parse { hint, .. } | CliError::Usage(_, hint) => hint.clone(),
            CliError::Input(e) => e.hint(lang),
            _ => None,
        }
    }
}
