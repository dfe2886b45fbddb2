//! The one error type of the simulator and planner: every input problem names
//! where it is (file and line where there is one) and what would be valid.

use std::fmt;
use std::path::PathBuf;

/// Where in the input a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// File name as given (or `<input>` for in-memory text).
    pub origin: String,
    /// 1-based line, when the input has lines.
    pub line: Option<usize>,
}

impl Place {
    /// A line of `origin`.
    pub fn line(origin: &str, line: usize) -> Self {
        Self {
            origin: origin.to_owned(),
            line: Some(line),
        }
    }

    /// The whole of `origin`.
    pub fn file(origin: &str) -> Self {
        Self {
            origin: origin.to_owned(),
            line: None,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}", self.origin),
            None => f.write_str(&self.origin),
        }
    }
}

/// Why a trace, snapshot or buffer list could not be used.
#[derive(Debug, thiserror::Error)]
pub enum MemsimError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's answer.
        source: std::io::Error,
    },
    /// The file was refused or could not be read (with the byte, line and column of text
    /// that is not UTF-8).
    #[error(transparent)]
    Read(#[from] cann_input::InputError),
    /// The input is malformed or inconsistent at `place`.
    #[error("{place}: {message}")]
    Input {
        /// Where.
        place: Place,
        /// What is wrong, and what would be valid.
        message: String,
    },
    /// A trace line breaks the format or refers to what is not there.
    #[error("{place}: {error}")]
    Trace {
        /// Where.
        place: Place,
        /// Which rule it breaks; `error.message(lang)` words it.
        error: crate::TraceError,
    },
    /// A snapshot's events do not make a trace (an importer's finding).
    #[error("{}: importing the snapshot: {error}", place)]
    Import {
        /// The snapshot.
        place: Place,
        /// Which trace rule its events break.
        error: crate::TraceError,
    },
    /// The simulated engine refused an event the trace says happened.
    #[error("{place}: the engine refused this event: {source}")]
    Replay {
        /// The event.
        place: Place,
        /// The engine's error.
        source: cann_runtime::memory::SessionError,
    },
    /// A plan failed its own verification (a planner bug, never the input's fault).
    #[error("plan verification failed: {0}")]
    Verify(String),
    /// The chart could not be drawn.
    #[error("plot: {0}")]
    Plot(String),
}

impl MemsimError {
    /// An input error at a line.
    pub fn at(origin: &str, line: usize, message: impl Into<String>) -> Self {
        Self::Input {
            place: Place::line(origin, line),
            message: message.into(),
        }
    }

    /// An input error about a whole file.
    pub fn in_file(origin: &str, message: impl Into<String>) -> Self {
        Self::Input {
            place: Place::file(origin),
            message: message.into(),
        }
    }

    /// A read failure.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}

/// serde_json's message without its " at line L column C" tail: the caller
/// places the error itself.
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full[..i].to_owned(),
        None => full,
    }
}
