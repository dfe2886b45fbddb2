//! Errors that stop a push or pull. Problems with single entries are not errors: they are
//! reported per entry and the rest goes on (see [`crate::Refusal`]).

use cann_i18n::catalog::remote as msg;
use cann_i18n::Lang;

/// Why a push or pull could not run.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// The `--remote` URL is not one this tier understands.
    #[error("{}", msg::bad_url(Lang::En, url, why))]
    BadUrl { url: String, why: String },
    /// The URL names no store this tier has.
    #[error("{}", msg::bad_scheme(Lang::En, url, scheme))]
    BadScheme { url: String, scheme: String },
    /// The URL carries a secret; `var` is where it belongs.
    #[error("{}", msg::credentials_in_url(Lang::En, url, what, var))]
    CredentialsInUrl {
        url: String,
        what: String,
        var: String,
    },
    /// The store refused or failed an operation.
    #[error("{}", msg::store_failed(Lang::En, op, target, detail))]
    Store {
        op: &'static str,
        target: String,
        detail: String,
    },
    /// The local cache failed.
    #[error(transparent)]
    Cache(#[from] cann_runtime::cache::CacheError),
    /// `op_cache.ini` lacks the version stamps the scope is made of.
    #[error("{}", msg::no_versions(Lang::En, ini))]
    NoVersions { ini: String },
    /// A pull that cannot tell which SoC's entries the node needs.
    #[error("{}", msg::no_soc(Lang::En, dir))]
    NoSoc { dir: String },
    /// `--soc` names something that is not a SoC directory name.
    #[error("{}", msg::bad_soc(Lang::En, soc))]
    BadSoc { soc: String },
    /// `--binary-format` names something no binary format is called.
    #[error("{}", msg::bad_binary_format(Lang::En, format))]
    BadBinaryFormat { format: String },
    /// A push from a directory that holds no cache.
    #[error("{}", msg::no_cache(Lang::En, dir))]
    NoCache { dir: String },
    /// The async runtime could not start.
    #[error("{}", msg::runtime_failed(Lang::En, detail))]
    Runtime { detail: String },
}

impl RemoteError {
    /// The message in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            RemoteError::BadUrl { url, why } => msg::bad_url(lang, url, why),
            RemoteError::BadScheme { url, scheme } => msg::bad_scheme(lang, url, scheme),
            RemoteError::CredentialsInUrl { url, what, var } => {
                msg::credentials_in_url(lang, url, what, var)
            }
            RemoteError::Store { op, target, detail } => {
                msg::store_failed(lang, op, target, detail)
            }
            RemoteError::Cache(e) => e.message(lang),
            RemoteError::NoVersions { ini } => msg::no_versions(lang, ini),
            RemoteError::NoSoc { dir } => msg::no_soc(lang, dir),
            RemoteError::BadSoc { soc } => msg::bad_soc(lang, soc),
            RemoteError::BadBinaryFormat { format } => msg::bad_binary_format(lang, format),
            RemoteError::NoCache { dir } => msg::no_cache(lang, dir),
            RemoteError::Runtime { detail } => msg::runtime_failed(lang, detail),
        }
    }

    pub(crate) fn store(op: &'static str, target: &str, e: impl std::fmt::Display) -> Self {
        RemoteError::Store {
            op,
            target: target.to_owned(),
            detail: e.to_string(),
        }
    }
}
