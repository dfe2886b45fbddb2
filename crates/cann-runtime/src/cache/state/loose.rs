//! The loose-file record ([`super::names::LOOSE`]): the bytes of the loose files (orphans,
//! temporaries, torn entries) gc kept in each directory, and the pass that wrote it, so
//! `info` after a foreign write re-reads only the directories that moved.

use std::collections::{BTreeMap, HashMap};

use crate::cache::entries::relpath::RelPath;
use crate::cache::sys::clock::Nanos;

/// Tens of directories in practice; this is far beyond any layout.
pub(crate) const LOOSE_MAX_BYTES: u64 = 16 << 20;

const HEADER: &str = "L1\t";

/// The record of a pass that reconciled at `reconciled_ns` and kept `loose` (each file's
/// path relative to `kernel_cache/`, and its bytes): a header naming the pass, then one
/// `<bytes>\t<directory>` line per directory. A directory name holding a newline cannot be
/// written; the record then names no pass (0), and `info` walks everything.
pub fn encode(reconciled_ns: Nanos, loose: &[(String, u64)]) -> Vec<u8> {
    let mut by_dir: BTreeMap<&str, u64> = BTreeMap::new();
    for (rel, bytes) in loose {
        *by_dir.entry(RelPath::new(rel).dir()).or_default() += bytes;
    }
    let pass = if by_dir.keys().any(|d| d.contains(['\n', '\r'])) {
        0
    } else {
        reconciled_ns
    };
    let mut out = format!("{HEADER}{pass}\n");
    if pass != 0 {
        for (dir, bytes) in by_dir {
            out.push_str(&format!("{bytes}\t{dir}\n"));
        }
    }
    out.into_bytes()
}

/// The pass and the bytes by directory; `None` when the text is not such a record.
pub fn parse(text: &[u8]) -> Option<(Nanos, HashMap<String, u64>)> {
    let text = std::str::from_utf8(text).ok()?;
    let mut lines = text.split('\n');
    let pass = lines.next()?.strip_prefix(HEADER)?.parse().ok()?;
    let mut by_dir = HashMap::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let (bytes, dir) = line.split_once('\t')?;
        by_dir.insert(dir.to_owned(), bytes.parse().ok()?);
    }
    Some((pass, by_dir))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn record_round_trips_and_refuses_what_it_cannot_hold() {
        let loose = vec![
            ("a/x.o".to_owned(), 3),
            ("a/y.o".to_owned(), 4),
            ("top.o".to_owned(), 5),
        ];
        let (pass, by_dir) = parse(&encode(42, &loose)).unwrap();
        assert_eq!(pass, 42);
        assert_eq!(by_dir.get("a"), Some(&7));
        assert_eq!(by_dir.get(""), Some(&5));
        let (pass, by_dir) = parse(&encode(42, &[("a\nb/x.o".to_owned(), 1)])).unwrap();
        assert_eq!((pass, by_dir.len()), (0, 0));
        assert!(parse(b"not a record\n").is_none());
        assert!(parse(b"L1\t5\nx\tdir\n").is_none());
    }
}
