//! Problems that stop a command before it has anything to report (exit code 2).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is {size} bytes; config files over {limit} bytes are refused", path.display())]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error("{} is not UTF-8 text", path.display())]
    NotText { path: PathBuf },
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

impl CliError {
    pub fn hint(&self) -> Option<&str> {
        match self {
            CliError::Parse { hint, .. } | CliError::Usage(_, hint) => hint.as_deref(),
            CliError::TooLarge { .. } => {
                Some("a config file holds a few dozen options; check that this is the right file")
            }
            _ => None,
        }
    }
}
