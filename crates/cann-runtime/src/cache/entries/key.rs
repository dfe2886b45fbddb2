//! Cache keys: the manifest's path under `kernel_cache/` without `.json`, e.g.
//! `Ascend910B/kernel_meta/te_add_1a2b`. Checked so a key can never name anything outside
//! the cache, a hidden file, our state directory or a mixed-kernel part.

use std::path::PathBuf;

use crate::cache::entries::manifest::MANIFEST_SUFFIX;
use crate::cache::error::{CacheError, KeyProblem, Result};

/// A checked key split into its directory and file stem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// Directory of the entry relative to `kernel_cache/` (empty for the top level).
    pub dir: PathBuf,
    /// File stem of the manifest.
    pub stem: String,
    /// Manifest path relative to `kernel_cache/`, with `/` separators.
    pub manifest_rel: String,
}

fn bad(key: &str, why: KeyProblem) -> CacheError {
    CacheError::BadKey {
        key: key.to_owned(),
        why,
    }
}

impl Key {
    /// Checks and splits a key.
    pub fn parse(key: &str) -> Result<Key> {
        if key.is_empty() || key.len() > 1024 {
            return Err(bad(key, KeyProblem::Length));
        }
        let comps: Vec<&str> = key.split('/').collect();
        for c in &comps {
            if c.is_empty() {
                return Err(bad(key, KeyProblem::EmptyComponent));
            }
            if c.starts_with('.') {
                return Err(bad(key, KeyProblem::HiddenComponent));
            }
            if c.len() > 200 {
                return Err(bad(key, KeyProblem::LongComponent));
            }
            if !c
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
            {
                return Err(bad(key, KeyProblem::BadChar));
            }
        }
        let Some((stem, dirs)) = comps.split_last() else {
            return Err(bad(key, KeyProblem::Empty));
        };
        if stem.ends_with("_mix_aic") || stem.ends_with("_mix_aiv") {
            return Err(bad(key, KeyProblem::MixPart));
        }
        Ok(Key {
            dir: dirs.iter().collect(),
            stem: (*stem).to_owned(),
            manifest_rel: format!("{key}{MANIFEST_SUFFIX}"),
        })
    }

    /// Relative path of a sibling file of the manifest.
    pub fn sibling(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        let k = Key::parse("Ascend910B/kernel_meta/te_add_1").unwrap();
        assert_eq!(k.dir, PathBuf::from("Ascend910B/kernel_meta"));
        assert_eq!(k.manifest_rel, "Ascend910B/kernel_meta/te_add_1.json");
        for bad in [
            "",
            "../x",
            "a//b",
            "/abs",
            ".cann-cache/ledger",
            "a/.hidden",
            "x y",
            "k_mix_aic",
            "a\\b",
        ] {
            assert!(Key::parse(bad).is_err(), "{bad}");
        }
    }
}
