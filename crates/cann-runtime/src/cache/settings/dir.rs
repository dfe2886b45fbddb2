//! Where the cache lives: `op_compiler_cache_dir` > `${ASCEND_CACHE_PATH}` > `$HOME/atc_data`,
//! each holding `op_cache.ini` and the `kernel_cache/` subdirectory with the entries.

use std::path::{Path, PathBuf};

use crate::cache::error::{CacheError, Result};
use crate::cache::settings::env::{EnvSnapshot, ASCEND_CACHE_PATH, HOME};

/// Name of the entry directory created under the cache directory.
pub const KERNEL_CACHE: &str = "kernel_cache";
/// Name of the limits and version file next to `kernel_cache/`.
pub const OP_CACHE_INI: &str = crate::cache::settings::facts::INI.name;

/// Which rule chose the directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DirSource {
    /// The `op_compiler_cache_dir` option (or a directory given on the command line).
    Option,
    /// `${ASCEND_CACHE_PATH}`.
    AscendCachePath,
    /// `$HOME/atc_data`.
    HomeDefault,
}

impl DirSource {
    /// Human explanation used by `cannctl cache info`.
    pub fn describe(self) -> &'static str {
        match self {
            DirSource::Option => "op_compiler_cache_dir (given explicitly)",
            DirSource::AscendCachePath => "ASCEND_CACHE_PATH (op_compiler_cache_dir unset)",
            DirSource::HomeDefault => {
                "$HOME/atc_data (op_compiler_cache_dir and ASCEND_CACHE_PATH unset)"
            }
        }
    }
}

/// The resolved cache location.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CacheDir {
    /// The folder that holds `op_cache.ini` and `kernel_cache/`.
    pub base: PathBuf,
    /// Why this folder was chosen.
    pub source: DirSource,
}

impl CacheDir {
    /// A directory given explicitly (the option or a CLI argument); characters are checked.
    pub fn explicit(base: impl Into<PathBuf>) -> Result<Self> {
        let base = base.into();
        check_path_chars(&base)?;
        Ok(CacheDir {
            base,
            source: DirSource::Option,
        })
    }

    /// `base/kernel_cache`.
    pub fn kernel_cache(&self) -> PathBuf {
        self.base.join(KERNEL_CACHE)
    }

    /// `base/op_cache.ini`.
    pub fn ini_path(&self) -> PathBuf {
        self.base.join(OP_CACHE_INI)
    }
}

/// Resolves the cache directory by the documented precedence. An empty option is unset,
/// as upstream treats it. The chosen path is checked against the allowed characters.
pub fn resolve(option: Option<&Path>, env: &EnvSnapshot) -> Result<CacheDir> {
    let (base, source) = match option.filter(|p| !p.as_os_str().is_empty()) {
        Some(p) => (p.to_path_buf(), DirSource::Option),
        None => match env.get(ASCEND_CACHE_PATH) {
            Some(p) => (PathBuf::from(p), DirSource::AscendCachePath),
            None => match env.get(HOME) {
                Some(h) => (PathBuf::from(h).join("atc_data"), DirSource::HomeDefault),
                None => return Err(CacheError::NoDirectory),
            },
        },
    };
    check_path_chars(&base)?;
    Ok(CacheDir { base, source })
}

/// True for characters the spec allows in the cache path (`op_compiler_cache_dir`'s
/// `chars`: letters, digits, `_-.` and Chinese characters, with `/` between components).
pub fn is_allowed_char(c: char) -> bool {
    crate::cache::settings::facts::CACHE_DIR_CHARS
        .iter()
        .any(|cc| cc.matches(c))
}

/// Rejects a path with a character outside the allowed set, naming the first offender and
/// its position (in characters, counting from 0) so the user can find it.
pub fn check_path_chars(path: &Path) -> Result<()> {
    let text = path
        .to_str()
        .ok_or_else(|| CacheError::NonUtf8Path(path.to_path_buf()))?;
    for (column, ch) in (1..).zip(text.chars()) {
        if !is_allowed_char(ch) {
            return Err(CacheError::BadPathChar {
                path: text.to_owned(),
                ch,
                column,
                allowed: crate::cache::settings::facts::CACHE_DIR_CHARS,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn option_beats_env_beats_home() {
        let env = EnvSnapshot::empty()
            .with(ASCEND_CACHE_PATH, "/a/cache")
            .with(HOME, "/home/u");
        let d = resolve(Some(Path::new("/opt/x")), &env).unwrap();
        assert_eq!(
            (d.base.as_path(), d.source),
            (Path::new("/opt/x"), DirSource::Option)
        );
        assert_eq!(d.kernel_cache(), Path::new("/opt/x/kernel_cache"));
        let d = resolve(None, &env).unwrap();
        assert_eq!(d.source, DirSource::AscendCachePath);
        assert_eq!(d.kernel_cache(), Path::new("/a/cache/kernel_cache"));
        let d = resolve(
            Some(Path::new("")),
            &EnvSnapshot::empty().with(HOME, "/home/u"),
        )
        .unwrap();
        assert_eq!(d.base, Path::new("/home/u/atc_data"));
        assert_eq!(d.ini_path(), Path::new("/home/u/atc_data/op_cache.ini"));
    }

    #[test]
    fn empty_env_value_is_unset() {
        let env = EnvSnapshot::empty()
            .with(ASCEND_CACHE_PATH, "")
            .with(HOME, "/h");
        assert_eq!(resolve(None, &env).unwrap().source, DirSource::HomeDefault);
        assert!(matches!(
            resolve(None, &EnvSnapshot::empty()),
            Err(CacheError::NoDirectory)
        ));
    }

    #[test]
    fn characters() {
        assert!(check_path_chars(Path::new("/data/缓存/kernel-1_v2.0")).is_ok());
        let err = resolve(Some(Path::new("/data/my cache")), &EnvSnapshot::empty()).unwrap_err();
        match err {
            // "/data/my cache": the space is the ninth character, as a reader counts.
            CacheError::BadPathChar { ch, column, .. } => assert_eq!((ch, column), (' ', 9)),
            other => panic!("unexpected {other:?}"),
        }
        assert!(check_path_chars(Path::new("~/x")).is_err());
        assert!(check_path_chars(Path::new("/a/$HOME")).is_err());
        let msg = CacheDir::explicit("/x;rm").unwrap_err().to_string();
        assert!(msg.contains("`;`") && msg.contains("allowed are"), "{msg}");
    }
}
