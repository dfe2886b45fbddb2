//! Why a config could not be checked at all.

use std::path::PathBuf;

use cann_config::meta::Lang;

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// A file refused or unreadable by the input layer.
    #[error("{0}")]
    Input(#[from] cann_input::InputError),
    /// The text is not a config: bad YAML or JSON, or a shape the reader refuses.
    #[error("{}{}: {message}", path.display(), pos.map(|p| format!(":{}:{}", p.line, p.col)).unwrap_or_default())]
    Parse {
        path: PathBuf,
        pos: Option<cann_config::yaml::Pos>,
        message: String,
        hint: Option<String>,
        /// The offending line of the file, for a caret.
        line: Option<String>,
    },
    /// An unknown product or release id, or a config that names no product: the message
    /// and a hint, already in the language asked for.
    #[error("{0}")]
    Usage(String, Option<String>),
}

impl CheckError {
    /// What went wrong, in `lang`. A parse error with a position leaves the place to the
    /// caller's location line.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            CheckError::Input(e) => e.message(lang),
            CheckError::Parse {
                path, pos, message, ..
            } => match pos {
                Some(_) => message.clone(),
                None => format!("{}: {message}", path.display()),
            },
            CheckError::Usage(m, _) => m.clone(),
        }
    }

    pub fn hint(&self, lang: Lang) -> Option<String> {
        match self {
            CheckError::Parse { hint, .. } | CheckError::Usage(_, hint) => hint.clone(),
            CheckError::Input(e) => e.hint(lang),
        }
    }
}

/// Bad `[tool.cannctl]` settings stop a check as a bad file does, with their place.
impl From<crate::settings::SettingsError> for CheckError {
    fn from(e: crate::settings::SettingsError) -> Self {
        CheckError::Parse {
            path: e.file,
            pos: e
                .place
                .map(|(line, col)| cann_config::yaml::Pos { line, col }),
            message: e.message,
            hint: e.hint,
            line: e.source_line,
        }
    }
}
