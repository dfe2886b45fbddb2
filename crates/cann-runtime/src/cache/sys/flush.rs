//! Flushing only what a batch wrote.
//!
//! A durable batch must have every binary on disk before any manifest naming it becomes
//! visible. `syncfs` would do that, but it writes back every dirty page of the whole file
//! system, so on a disk shared with a job writing checkpoints a pull would wait for the
//! checkpoint too. Instead each file is flushed on its own:
//!
//! - right after a file is written, `sync_file_range(SYNC_FILE_RANGE_WRITE)` starts the
//!   write-back of its pages (asynchronous: the disk works while the next files are
//!   written), and the descriptor is kept;
//! - `fdatasync` then waits for that file alone (by then it is mostly written already). A
//!   new file's size is metadata `fdatasync` includes, so its bytes read back whole.
//!
//! At most [`OPEN_MAX`] descriptors are held: past that the oldest is waited on and closed,
//! so a batch of any size stays far below a node's default limit of 1,024 open files.
//! `sync_file_range` alone guarantees nothing (it neither waits nor flushes the disk cache,
//! and its errors are ignored here); every durability claim rests on the `fdatasync`, whose
//! error is kept for the entry that wrote the file, so that entry alone is not committed.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

/// Descriptors held while their write-back runs.
const OPEN_MAX: usize = 64;

/// The files a batch wrote and has yet to wait on, each with the batch position of its entry.
pub(crate) struct Flusher {
    durable: bool,
    queue: VecDeque<(usize, OwnedFd)>,
    failed: BTreeMap<usize, io::Error>,
}

impl Flusher {
    /// A flusher that does nothing when `durable` is off.
    pub(crate) fn new(durable: bool) -> Flusher {
        Flusher {
            durable,
            queue: VecDeque::new(),
            failed: BTreeMap::new(),
        }
    }

    /// Takes a file entry `at` just wrote: starts its write-back and keeps it to wait on.
    pub(crate) fn wrote(&mut self, at: usize, fd: OwnedFd) {
        if !self.durable {
            return;
        }
        start_writeback(fd.as_fd());
        self.queue.push_back((at, fd));
        while self.queue.len() > OPEN_MAX {
            if let Some((a, f)) = self.queue.pop_front() {
                self.wait(a, &f);
            }
        }
    }

    fn wait(&mut self, at: usize, fd: &OwnedFd) {
        if let Err(e) = rustix::fs::fdatasync(fd) {
            self.failed.entry(at).or_insert_with(|| e.into());
        }
    }

    /// Waits for every file still held; returns the entries whose files did not reach the
    /// disk, with the first error of each.
    pub(crate) fn finish(mut self) -> BTreeMap<usize, io::Error> {
        while let Some((a, f)) = self.queue.pop_front() {
            self.wait(a, &f);
        }
        self.failed
    }
}

/// Asks the kernel to start writing `fd`'s dirty pages now, without waiting.
#[cfg(target_os = "linux")]
fn start_writeback(fd: BorrowedFd<'_>) {
    use std::os::fd::AsRawFd;
    // SAFETY: `fd` is an open descriptor borrowed for the whole call, and sync_file_range
    // reads and writes no memory of this process. Its result is only a hint (see above).
    let _ = unsafe { libc::sync_file_range(fd.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE) };
}

/// Elsewhere the `fdatasync` alone does the work.
#[cfg(not(target_os = "linux"))]
fn start_writeback(_fd: BorrowedFd<'_>) {}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn holds_a_bounded_number_of_files_and_waits_for_all() {
        let t = tempfile::tempdir().unwrap();
        let mut f = Flusher::new(true);
        for i in 0..(OPEN_MAX * 3) {
            let file = std::fs::File::create(t.path().join(format!("f{i}"))).unwrap();
            std::io::Write::write_all(&mut &file, &[i as u8; 5000]).unwrap();
            f.wrote(i / 2, OwnedFd::from(file));
            assert!(f.queue.len() <= OPEN_MAX);
        }
        assert!(f.finish().is_empty());
        // A descriptor fdatasync refuses (a pipe) fails its own entry only.
        let mut f = Flusher::new(true);
        let (r, _w) = std::io::pipe().unwrap();
        f.wrote(7, OwnedFd::from(r));
        let failed = f.finish();
        assert_eq!(failed.keys().copied().collect::<Vec<_>>(), [7]);
    }
}
