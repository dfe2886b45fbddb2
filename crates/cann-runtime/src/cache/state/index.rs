//! The index, [`super::names::INDEX`]: append-only lines, one per put (`E`) or removal
//! (`D`), compacted by gc. It tells the ager each entry's files, size and a lower bound of
//! its last access without opening any manifest. A hint like the ledger: a torn last line
//! is skipped, and gc rebuilds the whole from the directory.

use std::collections::BTreeMap;

use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx;

/// What the index knows about one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexRec {
    /// Commit time (ours) or modification time (foreign entries).
    pub committed_ns: Nanos,
    /// A time the entry is known to have been accessed at or after.
    pub access_ns: Nanos,
    /// Bytes of the manifest and every file it names.
    pub bytes: u64,
    /// The other files of the entry, in the manifest's directory.
    pub files: Vec<String>,
    /// The manifest as last read; a manifest whose `lstat` differs is read again.
    pub stamp: Stamp,
}

/// Identity of a manifest file at the time it was read: inode, modification time, size.
/// All zero means "not known" (an index line of the previous format), which never matches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stamp {
    pub ino: u64,
    pub mtime_ns: Nanos,
    pub size: u64,
}

impl Stamp {
    /// The stamp of an `lstat` result.
    pub fn of(st: &rustix::fs::Stat) -> Stamp {
        Stamp {
            ino: st.st_ino,
            mtime_ns: fsx::mtime_ns(st),
            size: fsx::apparent_size(st),
        }
    }

    /// True when `st` is the same manifest, unchanged since this stamp was taken.
    pub fn matches(&self, st: &rustix::fs::Stat) -> bool {
        self.ino != 0 && *self == Stamp::of(st)
    }
}

/// True when a relative path can be stored in the line format (no tabs or newlines).
pub fn indexable(rel: &str) -> bool {
    !rel.contains(['\t', '\n', '\r'])
}

/// One `E` line (an entry; `P` lines of the previous format, without the manifest's stamp,
/// are still read).
pub fn put_line(rel: &str, r: &IndexRec) -> String {
    let mut s = format!(
        "E\t{}\t{}\t{}\t{}\t{}\t{}\t{rel}",
        r.committed_ns, r.access_ns, r.bytes, r.stamp.ino, r.stamp.mtime_ns, r.stamp.size
    );
    for f in &r.files {
        s.push('\t');
        s.push_str(f);
    }
    s.push('\n');
    s
}

/// One `D` line.
pub fn del_line(rel: &str) -> String {
    format!("D\t{rel}\n")
}

/// Applies index text to a map (later lines win). Malformed lines, such as a torn last line
/// after a crash, are skipped.
pub fn apply_index(map: &mut BTreeMap<String, IndexRec>, text: &[u8]) {
    apply_index_where(map, text, &|_| true);
}

/// [`apply_index`] for the manifests `keep` accepts only; the others cost no allocation.
pub fn apply_index_where(
    map: &mut BTreeMap<String, IndexRec>,
    text: &[u8],
    keep: &dyn Fn(&str) -> bool,
) {
    for line in text.split(|b| *b == b'\n') {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let mut f = line.split('\t');
        let tag = f.next();
        // The path is looked at first: a line `keep` refuses costs no number parsing.
        let rel_at = match tag {
            Some("E") => 6,
            Some("P") => 3,
            _ => 0,
        };
        if !f.clone().nth(rel_at).is_some_and(keep) {
            continue;
        }
        match tag {
            Some(tag @ ("P" | "E")) => {
                let (Some(c), Some(a), Some(b)) = (f.next(), f.next(), f.next()) else {
                    continue;
                };
                let (Ok(committed_ns), Ok(access_ns), Ok(bytes)) =
                    (c.parse(), a.parse(), b.parse())
                else {
                    continue;
                };
                let stamp = if tag == "E" {
                    let (Some(i), Some(m), Some(z)) = (f.next(), f.next(), f.next()) else {
                        continue;
                    };
                    let (Ok(ino), Ok(mtime_ns), Ok(size)) = (i.parse(), m.parse(), z.parse())
                    else {
                        continue;
                    };
                    Stamp {
                        ino,
                        mtime_ns,
                        size,
                    }
                } else {
                    Stamp::default()
                };
                let Some(rel) = f.next() else {
                    continue;
                };
                let files = f.map(str::to_owned).collect();
                map.insert(
                    rel.to_owned(),
                    IndexRec {
                        committed_ns,
                        access_ns,
                        bytes,
                        files,
                        stamp,
                    },
                );
            }
            Some("D") => {
                if let Some(rel) = f.next() {
                    map.remove(rel);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn index_lines_round_trip_and_torn_tail_is_skipped() {
        let r = IndexRec {
            committed_ns: 1,
            access_ns: 2,
            bytes: 3,
            files: vec!["a.o".into()],
            stamp: Stamp {
                ino: 4,
                mtime_ns: 5,
                size: 6,
            },
        };
        let mut text = put_line("x/a.json", &r);
        text.push_str(&put_line(
            "b.json",
            &IndexRec {
                files: vec![],
                ..r.clone()
            },
        ));
        text.push_str(&del_line("b.json"));
        text.push_str("P\t7\t8\t9\told.json\told.o\n");
        text.push_str("P\t1\t2");
        let mut m = BTreeMap::new();
        apply_index(&mut m, text.as_bytes());
        assert_eq!(m.len(), 2);
        assert_eq!(m.get("x/a.json"), Some(&r));
        let old = m.get("old.json").unwrap();
        assert_eq!((old.bytes, old.stamp), (9, Stamp::default()));
        assert_eq!(old.files, vec!["old.o"]);
    }
}
