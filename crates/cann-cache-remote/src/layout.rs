//! Object layout: scopes, object names and the entry object format.
//!
//! An entry travels as ONE object: a magic line, a one-line JSON header (key, scope, sizes of
//! the manifest and each file), then the manifest and the files' bytes. Its name is
//!
//! ```text
//! cce2/<soc>/<versions>/<binary format>/<rest of key>.<sha256 of the whole object>
//! cce2/Ascend910B/5d41402abc4b2a76b9719d911017c592/elf64le-em183/kernel_meta/te_add_1a2b.9f86d0...
//! ```
//!
//! - `cce2` is the object format: a later, different encoding gets a new name and is never
//!   read by this one (nor this one by it).
//! - `<soc>` is the entry's SoC directory (the first component of its key).
//! - `<versions>` is the first 128 bits of SHA-256 over the `adk_version` and `ops_version`
//!   stamps of the pushing node's `op_cache.ini`; `scope.json` beside the entries spells
//!   them out for people. A node reads only its own stamps' directory, so it never sees an
//!   entry compiled by another toolkit, and only the SoC directories it asks for.
//! - `<binary format>` is what the entry's binaries are (see [`binary_format`]): for an ELF
//!   its class, byte order and machine, else a coarse file kind. A node pulls only the
//!   formats its own entries of that SoC have (or those it is told), so a binary built for
//!   another machine never lands in its cache.
//! - The hash covers every byte of the object (header, manifest, binaries), so a pull checks
//!   one digest against the name: a bit flip or a cut-off object is refused. The header
//!   carries the key and scope, and a pull checks them against the name too, so an object
//!   copied under another name or scope is refused as well; the binaries' format is
//!   classified again from the bytes received, so an object whose binaries are not what its
//!   scope says is refused whatever its header claims.
//!
//! Objects of the first layout (`cce1/<soc>/<versions>/...`, magic `CANN-CACHE-ENTRY 1`)
//! recorded no binary format, so nothing can place them safely: a pull never reads them and
//! counts them in its report ([`OLD_FORMAT_DIR`]), a push writes its entries anew under
//! `cce2`, and `gc --remote` still ages the old objects out by last use.
//!
//! SHA-256 (the `sha2` crate, RustCrypto): the digest Bazel's remote cache protocol names
//! objects by, hardware-accelerated (SHA-NI, ARMv8 SHA) where the CPU has it, and already
//! built into this tier for S3 request signing, so it costs no extra build.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use cann_i18n::catalog::remote as msg;
use cann_i18n::Lang;
use cann_runtime::cache::{ExactEntry, Key, EXACT_FILE_MAX};

use crate::binfmt::HEAD;

/// First line of every entry object.
pub const MAGIC: &[u8] = b"CANN-CACHE-ENTRY 2\n";
/// Top directory of this object format.
pub const FORMAT_DIR: &str = "cce2";
/// Top directory of the first layout, whose objects carry no binary format (never pulled;
/// counted, and aged by `gc`).
pub const OLD_FORMAT_DIR: &str = "cce1";
/// The human-readable description of a scope, beside its entries.
pub const SCOPE_FILE: &str = "scope.json";
/// Largest header accepted (a key and a handful of file names).
const HEADER_MAX: usize = 64 * 1024;
/// Largest object accepted on pull: the entry's files, each under the local cap.
pub const OBJECT_MAX: u64 = 4 * EXACT_FILE_MAX;

/// What an entry is valid for: the SoC directory, the toolkit that compiled it and the
/// format of its binaries.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Scope {
    pub soc: String,
    pub adk_version: String,
    pub ops_version: String,
    /// See [`binary_format`].
    pub binary_format: String,
}

impl Scope {
    /// `cce2/<soc>/<versions>`: every binary format of this SoC and toolkit below it.
    pub fn versions_dir(&self) -> String {
        format!("{FORMAT_DIR}/{}/{}", self.soc, self.versions_id())
    }

    /// Where the first layout kept this SoC and toolkit's objects.
    pub fn old_dir(&self) -> String {
        format!("{OLD_FORMAT_DIR}/{}/{}", self.soc, self.versions_id())
    }

    fn versions_id(&self) -> String {
        let mut h = Sha256::new();
        h.update(b"adk_version=");
        h.update(self.adk_version.as_bytes());
        h.update(b"\nops_version=");
        h.update(self.ops_version.as_bytes());
        h.update(b"\n");
        let d = h.finalize();
        hex(&d[..16])
    }

    /// `cce2/<soc>/<versions>/<binary format>`: this scope's objects.
    pub fn dir(&self) -> String {
        format!("{}/{}", self.versions_dir(), self.binary_format)
    }

    /// The scope description object's path.
    pub fn description_path(&self) -> String {
        format!("{}/{SCOPE_FILE}", self.dir())
    }

    /// The description's bytes (for people and for `gc`; never trusted by a pull).
    pub fn description(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// SHA-256 of `bytes`, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// An object's name within its scope: the key without the SoC, and the content hash.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectName {
    /// The entry key relative to the SoC directory (`kernel_meta/te_add_1a2b`).
    pub rest: String,
    /// SHA-256 of the object, hex.
    pub hash: String,
}

impl ObjectName {
    /// Name within the scope directory.
    pub fn rel(&self) -> String {
        format!("{}.{}", self.rest, self.hash)
    }

    /// Parses a name within the scope directory; `None` for anything that is not an entry
    /// object of this format (the scope description, a stranger's file).
    pub fn parse(rel: &str) -> Option<ObjectName> {
        let (rest, hash) = rel.rsplit_once('.')?;
        if hash.len() != 64
            || !hash
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return None;
        }
        Key::parse(rest).ok()?;
        Some(ObjectName {
            rest: rest.to_owned(),
            hash: hash.to_owned(),
        })
    }

    /// The full cache key in `scope`.
    pub fn key(&self, scope: &Scope) -> String {
        format!("{}/{}", scope.soc, self.rest)
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    key: String,
    scope: Scope,
    manifest: u64,
    files: Vec<(String, u64)>,
}

/// Encodes an entry of `key` in `scope` as one object; returns its name and bytes.
pub fn encode(key: &str, scope: &Scope, e: &ExactEntry) -> Option<(ObjectName, Vec<u8>)> {
    let rest = key.strip_prefix(&scope.soc)?.strip_prefix('/')?.to_owned();
    let header = Header {
        key: key.to_owned(),
        scope: scope.clone(),
        manifest: e.manifest.len() as u64,
        files: e
            .files
            .iter()
            .map(|(n, b)| (n.clone(), b.len() as u64))
            .collect(),
    };
    let head = serde_json::to_vec(&header).ok()?;
    let total = MAGIC.len()
        + head.len()
        + 1
        + header.manifest as usize
        + e.files.values().map(Vec::len).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&head);
    out.push(b'\n');
    out.extend_from_slice(&e.manifest);
    for b in e.files.values() {
        out.extend_from_slice(b);
    }
    let hash = sha256_hex(&out);
    Some((ObjectName { rest, hash }, out))
}

/// The binary format of an entry's binaries (see [`crate::binfmt`]); `None` when its
/// manifest does not name its files coherently.
pub fn format_of(e: &ExactEntry) -> Option<String> {
    e.binaries()
        .map(|b| crate::binfmt::entry_format(b.into_iter().map(|h| &h[..h.len().min(HEAD)])))
}

/// Checks an object fetched as `name` in `scope` and decodes it. Every failure is a refusal
/// reason in `lang`: the hash, the format, the key and scope the header claims.
pub fn decode(
    name: &ObjectName,
    scope: &Scope,
    bytes: &[u8],
    lang: Lang,
) -> Result<ExactEntry, String> {
    let actual = sha256_hex(bytes);
    if actual != name.hash {
        return Err(msg::why_hash(lang, &name.hash, &actual));
    }
    let fmt = |d: &str| msg::why_format(lang, d);
    let body = bytes
        .strip_prefix(MAGIC)
        .ok_or_else(|| fmt("no magic line"))?;
    let nl = body
        .iter()
        .take(HEADER_MAX)
        .position(|&b| b == b'\n')
        .ok_or_else(|| fmt("no header line"))?;
    let header: Header =
        serde_json::from_slice(&body[..nl]).map_err(|e| fmt(&format!("header: {e}")))?;
    if header.scope != *scope || header.key != name.key(scope) {
        return Err(msg::why_misplaced(lang, &header.key));
    }
    let mut rest = &body[nl + 1..];
    let mut take = |n: u64| -> Result<Vec<u8>, String> {
        let n = usize::try_from(n).map_err(|_| fmt("size out of range"))?;
        if n > rest.len() {
            return Err(fmt("shorter than its header says"));
        }
        let (a, b) = rest.split_at(n);
        rest = b;
        Ok(a.to_vec())
    };
    let manifest = take(header.manifest)?;
    let mut files = BTreeMap::new();
    for (n, size) in &header.files {
        let data = take(*size)?;
        if files.insert(n.clone(), data).is_some() {
            return Err(fmt("a file appears twice"));
        }
    }
    if !rest.is_empty() {
        return Err(fmt("longer than its header says"));
    }
    let entry = ExactEntry { manifest, files };
    // What the binaries are, from the bytes themselves: the header and the path only claim it.
    match format_of(&entry) {
        Some(f) if f == scope.binary_format => Ok(entry),
        Some(f) => Err(msg::why_binary_format(lang, &scope.binary_format, &f)),
        None => Err(fmt("the manifest does not name the files it carries")),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn scope() -> Scope {
        Scope {
            soc: "Ascend910B".into(),
            adk_version: "7.0.0".into(),
            ops_version: "7.0.0".into(),
            binary_format: "elf64le-em183".into(),
        }
    }

    /// An entry whose binary starts as an ELF object of `machine` does.
    fn entry_for(machine: u8) -> ExactEntry {
        let mut bin = b"\x7fELF\x02\x01\x01".to_vec();
        bin.resize(16, 0);
        bin.extend([1, 0, machine, 0]);
        bin.extend(b"kernel text");
        ExactEntry {
            manifest: br#"{"binFileName":"te_a","binFileSuffix":".o"}"#.to_vec(),
            files: BTreeMap::from([("te_a.o".to_owned(), bin)]),
        }
    }

    fn entry() -> ExactEntry {
        entry_for(183)
    }

    #[test]
    fn round_trip_and_refusals() {
        let s = scope();
        let (name, bytes) = encode("Ascend910B/kernel_meta/te_a", &s, &entry()).unwrap();
        assert_eq!(name.rest, "kernel_meta/te_a");
        assert_eq!(ObjectName::parse(&name.rel()), Some(name.clone()));
        assert_eq!(decode(&name, &s, &bytes, Lang::En).unwrap(), entry());

        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(decode(&name, &s, &flipped, Lang::En)
            .unwrap_err()
            .contains("corrupted"));
        let cut = &bytes[..bytes.len() - 3];
        assert!(decode(&name, &s, cut, Lang::En)
            .unwrap_err()
            .contains("truncated"));

        let other = Scope {
            adk_version: "8.0.0".into(),
            ..scope()
        };
        assert_ne!(s.dir(), other.dir());
        assert!(decode(&name, &other, &bytes, Lang::En)
            .unwrap_err()
            .contains("does not belong"));
        let x86 = Scope {
            binary_format: "elf64le-em62".into(),
            ..scope()
        };
        assert_ne!(s.dir(), x86.dir());
        assert_eq!(s.versions_dir(), x86.versions_dir());
        assert!(decode(&name, &x86, &bytes, Lang::En)
            .unwrap_err()
            .contains("does not belong"));
    }

    /// An object whose header and name both claim one machine, with another machine's
    /// binary inside (a whole, correctly hashed object), is refused by what the bytes are.
    #[test]
    fn a_binary_of_another_machine_is_refused_whatever_the_header_says() {
        let s = scope();
        let (name, bytes) = encode("Ascend910B/kernel_meta/te_a", &s, &entry_for(62)).unwrap();
        let why = decode(&name, &s, &bytes, Lang::En).unwrap_err();
        assert!(
            why.contains("elf64le-em62") && why.contains("elf64le-em183"),
            "{why}"
        );
        assert!(why.contains("binary format"), "{why}");
        let zh = decode(&name, &s, &bytes, Lang::Zh).unwrap_err();
        assert!(zh.contains("二进制格式"), "{zh}");
    }

    #[test]
    fn names() {
        assert!(ObjectName::parse("scope.json").is_none());
        assert!(ObjectName::parse("kernel_meta/te_a.1234").is_none());
        let h = "a".repeat(64);
        assert!(ObjectName::parse(&format!("../x.{h}")).is_none());
        assert!(ObjectName::parse(&format!("kernel_meta/te_a.{h}")).is_some());
        assert!(encode("Other/te_a", &scope(), &entry()).is_none());
    }
}
