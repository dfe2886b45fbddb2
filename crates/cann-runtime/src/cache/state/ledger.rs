//! The ledger: 128 bytes in [`super::names::LEDGER`] (totals, invalidation epoch, the newest
//! directory time seen at the last reconcile, checksum), rewritten in place under a `flock`.
//! The start-up "is aging needed" check reads it (one `pread`) and compares the directory
//! time with the listed directories' own (a few `stat`s), never scanning entries. A torn or
//! missing ledger reads as "unknown"; the next gc rebuilds it from the directory itself.

use crate::cache::sys::clock::Nanos;

/// Version 2 added the directory time; a version-1 ledger reads as damaged ("unknown") and
/// the next gc rewrites it.
const MAGIC: &[u8; 8] = b"CNCLEDG2";
pub(crate) const LEN: usize = 128;
const SUM_AT: usize = LEN - 8;

/// The totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Ledger {
    /// Bytes of all files in the cache as last accounted.
    pub total_bytes: u64,
    /// Number of entries as last accounted.
    pub entries: u64,
    /// Entries committed before this time are invalid (set by `force` and version changes).
    pub epoch_ns: Nanos,
    /// Last time a gc reconciled the ledger with the directory.
    pub reconciled_ns: Nanos,
    /// Newest modification time of `kernel_cache/` and its subdirectories when the totals
    /// were last known to account for every file in them; 0 when they are known not to (a
    /// foreign writer added files during the last pass). A directory newer than this means
    /// someone created, renamed or removed files since: the totals are then unknown.
    pub dirs_mtime_ns: Nanos,
}

/// What reading the ledger found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerRead {
    Valid(Ledger),
    Missing,
    Corrupt,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Ledger {
    /// Accounts for one of our own changes, made between two readings `(before, after)` of
    /// the directories' time: if nothing had moved them past the record before the change,
    /// the record moves to `after`; otherwise a foreign write is still unaccounted and the
    /// record stays behind. (A foreign write into the directory we changed, landing during our
    /// change or within one coarse clock tick after it, is the one this cannot tell from
    /// ours; see the limits in `dirtime`. The next gc accounts for it.)
    pub fn advance_dirs(&mut self, (before, after): (Nanos, Nanos)) {
        if after == Nanos::MAX {
            // A directory could not be read after the change: nothing vouches for the
            // record any more (it must never become a time no directory can pass).
            self.dirs_mtime_ns = 0;
        } else if self.dirs_mtime_ns > 0 && before <= self.dirs_mtime_ns {
            self.dirs_mtime_ns = self.dirs_mtime_ns.max(after);
        }
    }

    pub(crate) fn encode(&self) -> [u8; LEN] {
        let mut b = [0u8; LEN];
        b[..8].copy_from_slice(MAGIC);
        b[8..16].copy_from_slice(&self.total_bytes.to_le_bytes());
        b[16..24].copy_from_slice(&self.entries.to_le_bytes());
        b[24..32].copy_from_slice(&self.epoch_ns.to_le_bytes());
        b[32..40].copy_from_slice(&self.reconciled_ns.to_le_bytes());
        b[40..48].copy_from_slice(&self.dirs_mtime_ns.to_le_bytes());
        let sum = fnv1a(&b[..SUM_AT]);
        b[SUM_AT..].copy_from_slice(&sum.to_le_bytes());
        b
    }

    pub(crate) fn decode(b: &[u8]) -> Option<Ledger> {
        if b.len() != LEN || &b[..8] != MAGIC {
            return None;
        }
        let word = |i: usize| -> Option<[u8; 8]> { b.get(i..i + 8)?.try_into().ok() };
        if u64::from_le_bytes(word(SUM_AT)?) != fnv1a(&b[..SUM_AT]) {
            return None;
        }
        Some(Ledger {
            total_bytes: u64::from_le_bytes(word(8)?),
            entries: u64::from_le_bytes(word(16)?),
            epoch_ns: i64::from_le_bytes(word(24)?),
            reconciled_ns: i64::from_le_bytes(word(32)?),
            dirs_mtime_ns: i64::from_le_bytes(word(40)?),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn ledger_codec_detects_damage() {
        let l = Ledger {
            total_bytes: 7,
            entries: 2,
            epoch_ns: -3,
            reconciled_ns: 9,
            dirs_mtime_ns: 11,
        };
        let mut b = l.encode();
        assert_eq!(Ledger::decode(&b), Some(l));
        b[9] ^= 1;
        assert_eq!(Ledger::decode(&b), None);
    }

    #[test]
    fn the_directory_record_never_becomes_a_time_no_directory_passes() {
        let mut l = Ledger {
            dirs_mtime_ns: 100,
            ..Ledger::default()
        };
        l.advance_dirs((90, 120));
        assert_eq!(l.dirs_mtime_ns, 120);
        // A foreign write during our change: the record stays behind it.
        l.advance_dirs((Nanos::MAX, 150));
        assert_eq!(l.dirs_mtime_ns, 120);
        // A directory unreadable after the change: unreconciled, so "unknown".
        l.advance_dirs((110, Nanos::MAX));
        assert_eq!(l.dirs_mtime_ns, 0);
        l.advance_dirs((0, 200));
        assert_eq!(l.dirs_mtime_ns, 0);
    }
}
