//! The on-disk entry layout shared with the real CANN compiler.
//!
//! An entry is a `.json` manifest. It names its binary with `binFileName` + `binFileSuffix`
//! (same directory), or lists sub-manifests in `jsonList` (`[{"jsonFileName": "..."}]`), each
//! naming its own binary. `*_mix_aic.json` / `*_mix_aiv.json` are such parts, never entries.
//! Entries written by this library add a `cannCache` object (commit time, binary size), which
//! the CANN loader ignores.

use serde::{Deserialize, Serialize};

use std::path::Path;

use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx;

/// Suffix of entry manifests.
pub const MANIFEST_SUFFIX: &str = ".json";
const PART_SUFFIXES: [&str; 2] = ["_mix_aic.json", "_mix_aiv.json"];

/// True for the parts of a mixed kernel (`*_mix_aic.json`, `*_mix_aiv.json`).
pub fn is_part_name(name: &str) -> bool {
    PART_SUFFIXES
        .iter()
        .any(|s| name.len() > s.len() && name.ends_with(s))
}

/// True for a name the upstream scan treats as an entry manifest: ends in `.json`, is not a
/// part, and (our addition) is not hidden, so temporaries and our state never count.
pub fn is_manifest_name(name: &str) -> bool {
    name.len() > MANIFEST_SUFFIX.len()
        && name.ends_with(MANIFEST_SUFFIX)
        && !is_part_name(name)
        && !name.starts_with('.')
}

/// A file name that stays inside the manifest's directory.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains('/') && !name.contains('\0')
}

#[derive(Debug, Clone, Deserialize)]
struct SubRef {
    #[serde(rename = "jsonFileName")]
    json_file_name: String,
}

/// Metadata this library adds to its own manifests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnMeta {
    /// Wall-clock commit time, ns; compared with the invalidation epoch.
    pub committed_ns: Nanos,
    /// Size of the binary, checked on every hit so a torn binary is a miss, not data.
    pub bin_size: u64,
}

/// The fields of a manifest that matter to the cache; everything else is ignored.
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    #[serde(rename = "binFileName")]
    pub bin_file_name: Option<String>,
    #[serde(rename = "binFileSuffix")]
    pub bin_file_suffix: Option<String>,
    #[serde(rename = "jsonList")]
    json_list: Option<Vec<SubRef>>,
    #[serde(rename = "cannCache")]
    pub own: Option<OwnMeta>,
}

/// Why a manifest cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestProblem {
    /// Not JSON, or a field of the wrong type.
    Unparsable(String),
    /// A referenced name would leave the directory.
    BadName(String),
}

impl Manifest {
    /// Parses manifest bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, ManifestProblem> {
        serde_json::from_slice(bytes).map_err(|e| ManifestProblem::Unparsable(e.to_string()))
    }

    /// The binary named directly by this manifest, if any.
    pub fn bin_name(&self) -> Result<Option<String>, ManifestProblem> {
        match (&self.bin_file_name, &self.bin_file_suffix) {
            (Some(n), s) => {
                let full = format!("{n}{}", s.as_deref().unwrap_or(""));
                if is_plain_name(&full) {
                    Ok(Some(full))
                } else {
                    Err(ManifestProblem::BadName(full))
                }
            }
            _ => Ok(None),
        }
    }

    /// The sub-manifest names of a `jsonList` entry.
    pub fn sub_manifests(&self) -> Result<Vec<String>, ManifestProblem> {
        let Some(list) = &self.json_list else {
            return Ok(Vec::new());
        };
        list.iter()
            .map(|r| {
                if is_plain_name(&r.json_file_name) {
                    Ok(r.json_file_name.clone())
                } else {
                    Err(ManifestProblem::BadName(r.json_file_name.clone()))
                }
            })
            .collect()
    }
}

/// Builds the manifest text for an entry stored by this library.
pub fn own_manifest(
    kernel_name: &str,
    bin_file_name: &str,
    bin_suffix: &str,
    meta: OwnMeta,
    extra: Option<&serde_json::Map<String, serde_json::Value>>,
) -> Vec<u8> {
    let mut obj = serde_json::Map::new();
    if let Some(extra) = extra {
        for (k, v) in extra {
            obj.insert(k.clone(), v.clone());
        }
    }
    obj.insert("kernelName".into(), kernel_name.into());
    obj.insert("binFileName".into(), bin_file_name.into());
    obj.insert("binFileSuffix".into(), bin_suffix.into());
    obj.insert(
        "cannCache".into(),
        serde_json::json!({"committedNs": meta.committed_ns, "binSize": meta.bin_size}),
    );
    serde_json::Value::Object(obj).to_string().into_bytes()
}

/// `bytes` with the commit time of our own metadata set to `committed_ns` (an entry pulled
/// from a shared store is committed on this node when it lands); a manifest without our
/// metadata (CANN's own) is returned unchanged, byte for byte.
pub fn restamp(bytes: &[u8], committed_ns: Nanos) -> Vec<u8> {
    let Ok(serde_json::Value::Object(mut obj)) = serde_json::from_slice(bytes) else {
        return bytes.to_vec();
    };
    match obj.get_mut("cannCache").and_then(|v| v.as_object_mut()) {
        Some(own) if own.contains_key("committedNs") => {
            own.insert("committedNs".into(), committed_ns.into());
        }
        _ => return bytes.to_vec(),
    }
    serde_json::Value::Object(obj).to_string().into_bytes()
}

/// Manifests are kilobytes; a larger one (or a FIFO, a device) is not a manifest.
const MANIFEST_LIMITS: cann_input::Limits = cann_input::Limits::new(64 * 1024 * 1024);

/// Reads an opened manifest through the input layer: a regular file, under a cap.
pub(crate) fn read_manifest(
    fd: &std::os::fd::OwnedFd,
    name: impl AsRef<Path>,
) -> std::result::Result<Vec<u8>, cann_input::InputError> {
    let path = name.as_ref();
    let file = fd
        .try_clone()
        .map_err(|source| cann_input::InputError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    cann_input::read_file(std::fs::File::from(file), path, MANIFEST_LIMITS)
}

/// Reads a small file in `dir` if it exists and is a regular file (not a symlink).
pub(crate) fn read_small(dir: std::os::fd::BorrowedFd<'_>, name: &str) -> Option<Vec<u8>> {
    let fd = fsx::open_read_noatime(dir, Path::new(name)).ok()?;
    read_manifest(&fd, name).ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_manifest_name("te_add_12ab.json"));
        assert!(!is_manifest_name("te_add_12ab_mix_aic.json"));
        assert!(!is_manifest_name("te_add_12ab_mix_aiv.json"));
        assert!(!is_manifest_name(".tmp-te_add.json"));
        assert!(!is_manifest_name("te_add.o"));
        assert!(is_part_name("x_mix_aiv.json"));
        assert!(!is_part_name("_mix_aiv.json"));
    }

    #[test]
    fn parse_real_layouts() {
        let m = Manifest::parse(
            br#"{"binFileName":"te_add_1","binFileSuffix":".o","kernelName":"k","sha256":"x"}"#,
        )
        .unwrap();
        assert_eq!(m.bin_name().unwrap().as_deref(), Some("te_add_1.o"));
        let m = Manifest::parse(br#"{"jsonList":[{"jsonFileName":"k_mix_aic.json"},{"jsonFileName":"k_mix_aiv.json"}]}"#).unwrap();
        assert_eq!(
            m.sub_manifests().unwrap(),
            vec!["k_mix_aic.json", "k_mix_aiv.json"]
        );
        assert_eq!(m.bin_name().unwrap(), None);
        let m =
            Manifest::parse(br#"{"binFileName":"../../etc/passwd","binFileSuffix":""}"#).unwrap();
        assert!(matches!(m.bin_name(), Err(ManifestProblem::BadName(_))));
        assert!(Manifest::parse(b"{\"binFileName\": ").is_err());
    }

    #[test]
    fn own_manifest_round_trips() {
        let meta = OwnMeta {
            committed_ns: 5,
            bin_size: 3,
        };
        let bytes = own_manifest("k", "k.ab", ".o", meta, None);
        let m = Manifest::parse(&bytes).unwrap();
        assert_eq!(m.own, Some(meta));
        assert_eq!(m.bin_name().unwrap().as_deref(), Some("k.ab.o"));
    }
}
