//! `info` after a foreign write, at the cost of what changed: only the directories whose
//! times moved past the ledger's record are read again.
//!
//! A directory whose modification time is not newer than the record holds the names it held
//! when the ledger last accounted for them (see [`super::dirtime`]): creating, renaming or
//! removing a name moves its directory's time. So the ledger's totals stand for every such
//! directory, and only the moved ones (with any new directories inside them) are listed:
//! the answer is the ledger's total, minus what it counted in the moved directories (their
//! entries in the index, and the loose files gc kept there, recorded per directory in
//! [`LOOSE`]), plus what those directories hold now. Whatever cannot be vouched for (a
//! listed directory unreadable, a record missing or from another pass, a name the index
//! cannot hold) sends `info` back to the whole walk.
//!
//! The start-up check's limits hold here too: a file rewritten in place under the same name
//! moves no directory, so its new size is seen by the next gc, not here. gc itself still
//! walks everything: only its `lstat` of every entry catches such rewrites, and only its
//! listing finds the loose files that have aged since.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::os::fd::AsFd;

use super::clock::Nanos;
use super::dirtime;
use super::error::Result;
use super::ledger::{self, Ledger};
use super::maint::{InfoReport, InfoSource, StartupCheck};
use super::progress::Progress;
use super::scan::{self, Known};
use super::store::Cache;

/// The state file with the bytes of the loose files (orphans, temporaries, torn entries)
/// gc kept in each directory, and the pass that wrote it.
pub const LOOSE: &str = "loose";

/// Tens of directories in practice; this is far beyond any layout.
const LOOSE_MAX_BYTES: u64 = 16 << 20;

const HEADER: &str = "L1\t";

fn dir_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |p| p.0)
}

/// The record of a pass that reconciled at `reconciled_ns` and kept `loose` (each file's
/// path relative to `kernel_cache/`, and its bytes): a header naming the pass, then one
/// `<bytes>\t<directory>` line per directory. A directory name holding a newline cannot be
/// written; the record then names no pass (0), and `info` walks everything.
pub fn encode(reconciled_ns: Nanos, loose: &[(String, u64)]) -> Vec<u8> {
    let mut by_dir: BTreeMap<&str, u64> = BTreeMap::new();
    for (rel, bytes) in loose {
        *by_dir.entry(dir_of(rel)).or_default() += bytes;
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

impl Cache {
    /// `info` from the ledger plus a walk of the moved directories; `None` when that cannot
    /// be vouched for (the caller walks everything).
    pub(super) fn info_changed(
        &self,
        l: &Ledger,
        startup: StartupCheck,
        progress: &dyn Progress,
    ) -> Result<Option<InfoReport>> {
        if l.reconciled_ns <= 0 || l.dirs_mtime_ns <= 0 || l.dirs_mtime_ns == Nanos::MAX {
            return Ok(None);
        }
        let Some(listed) = self.state.read_dirs() else {
            return Ok(None);
        };
        let Some((pass, loose)) = self
            .state
            .read_small_state(LOOSE, LOOSE_MAX_BYTES)
            .and_then(|t| parse(&t))
        else {
            return Ok(None);
        };
        if pass != l.reconciled_ns {
            return Ok(None);
        }
        let Some((moved, gone)) = dirtime::moved_since(self.kc.as_fd(), &listed, l.dirs_mtime_ns)
        else {
            return Ok(None);
        };
        let utf8 = |v: Vec<Vec<u8>>| -> Option<Vec<String>> {
            v.into_iter().map(|d| String::from_utf8(d).ok()).collect()
        };
        let (Some(moved), Some(gone)) = (utf8(moved), utf8(gone)) else {
            return Ok(None);
        };
        let listed: HashSet<String> = listed
            .iter()
            .map(|d| String::from_utf8_lossy(d).into_owned())
            .collect();
        // Directories whose names are as the ledger counted them.
        let mut unchanged: HashSet<&str> = listed.iter().map(String::as_str).collect();
        unchanged.insert("");
        for d in moved.iter().chain(&gone) {
            unchanged.remove(d.as_str());
        }
        let mut known = BTreeMap::new();
        // An unreadable index: what the ledger counted in the moved directories is unknown.
        let Ok(text) = self.state.read_index_from(0) else {
            return Ok(None);
        };
        ledger::apply_index_where(&mut known, &text, &|rel: &str| {
            !unchanged.contains(dir_of(rel))
        });
        drop(text);
        // Below a moved directory, only the directories nobody listed are new; a listed
        // one is judged by its own time.
        let descend = |sub: &str| !listed.contains(sub);
        let Ok(sc) = scan::walk_from(
            self.kc.as_fd(),
            &moved,
            &descend,
            &known,
            Known::Trust,
            progress,
        ) else {
            return Ok(None);
        };
        let walked: HashSet<&str> = sc.dirs.iter().chain(&gone).map(String::as_str).collect();
        // An indexed entry in a directory neither walked nor gone (one nobody listed, under
        // a directory that did not move), or a manifest the index cannot hold (counted in
        // the ledger, absent from the index): the difference would be wrong.
        if known.keys().any(|rel| !walked.contains(dir_of(rel)))
            || sc.entries.keys().any(|rel| !ledger::indexable(rel))
        {
            return Ok(None);
        }
        let old_bytes: u64 = known.values().map(|r| r.bytes).sum::<u64>()
            + walked.iter().filter_map(|d| loose.get(*d)).sum::<u64>();
        let bytes = (i128::from(l.total_bytes) - i128::from(old_bytes)
            + i128::from(sc.total_bytes()))
        .max(0);
        let entries =
            (i128::from(l.entries) - known.len() as i128 + sc.entries.len() as i128).max(0);
        Ok(Some(InfoReport {
            bytes: u64::try_from(bytes).unwrap_or(u64::MAX),
            entries: u64::try_from(entries).unwrap_or(u64::MAX),
            source: InfoSource::Changed,
            oldest_access_ns: None,
            newest_access_ns: None,
            startup: self.counted(startup, u64::try_from(bytes).unwrap_or(u64::MAX)),
            epoch_ns: l.epoch_ns,
            dirs_listed: sc.dirs.len() as u64,
            skipped_dirs: sc.unreadable_dirs(),
        }))
    }
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
