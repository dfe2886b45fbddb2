//! A few threads for the file-system calls of a pass that each wait on the device.
//!
//! A pass over a large cache is a long run of small, independent calls: an `lstat` and a
//! read per manifest, two unlinks per evicted entry. When each call waits on the device,
//! one thread spends the pass idle: on a cold cache every read waits for its block, on ext4
//! without a journal but mounted with `discard` every unlink of a file that holds data
//! issues its discard synchronously (measured on this machine class: 0.5–2 ms an unlink,
//! sequentially 10k unlinks in 5–20 s, on 8 threads in 0.8 s), and on NFS or Lustre, where
//! shared caches live, every call is a round trip. Keeping a few calls in flight overlaps
//! those waits; the work is I/O, not CPU, so the thread count does not follow the cores.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Calls in flight. Measured here, 4 threads already take most of the gain and 16 add
/// nothing over 8.
pub const THREADS: usize = 8;

/// Below this many items the threads cost more than they save.
pub const MIN_PARALLEL: usize = 64;

/// `f` over every item, on up to [`THREADS`] scoped threads when there are enough items;
/// results in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() < MIN_PARALLEL {
        return items.iter().map(f).collect();
    }
    // Small chunks: a thread that meets slow blocks does not hold up a long run of others.
    const CHUNK: usize = 8;
    let next = AtomicUsize::new(0);
    let threads = THREADS.min(items.len().div_ceil(CHUNK));
    let mut parts: Vec<(usize, Vec<R>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let at = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if at >= items.len() {
                            break;
                        }
                        let end = (at + CHUNK).min(items.len());
                        mine.push((at, items[at..end].iter().map(&f).collect()));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker panicking is a bug in `f`; re-raise it here rather than lose items.
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    parts.sort_unstable_by_key(|p| p.0);
    parts.into_iter().flat_map(|p| p.1).collect()
}

/// Jobs handed to background threads as they come, results collected at the end. Threads
/// start with the first jobs, so a pass that queues nothing starts none.
pub struct Background<J: Send + 'static, R: Send + 'static> {
    work: Arc<dyn Fn(J) -> R + Send + Sync>,
    tx: Option<mpsc::Sender<(usize, J)>>,
    rx: Arc<Mutex<mpsc::Receiver<(usize, J)>>>,
    done: Arc<Mutex<Vec<(usize, R)>>>,
    handles: Vec<JoinHandle<()>>,
    queued: usize,
}

impl<J: Send + 'static, R: Send + 'static> Background<J, R> {
    pub fn new(work: impl Fn(J) -> R + Send + Sync + 'static) -> Self {
        let (tx, rx) = mpsc::channel();
        Background {
            work: Arc::new(work),
            tx: Some(tx),
            rx: Arc::new(Mutex::new(rx)),
            done: Arc::new(Mutex::new(Vec::new())),
            handles: Vec::new(),
            queued: 0,
        }
    }

    /// Queues one job.
    pub fn push(&mut self, job: J) {
        if self.handles.len() < THREADS {
            let rx = Arc::clone(&self.rx);
            let done = Arc::clone(&self.done);
            let work = Arc::clone(&self.work);
            self.handles.push(std::thread::spawn(move || loop {
                // The lock is held only to take the next job, never while working.
                let next = match rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok((seq, job)) = next else {
                    return;
                };
                let r = work(job);
                if let Ok(mut d) = done.lock() {
                    d.push((seq, r));
                }
            }));
        }
        // The receiver lives in `self`, so sending cannot fail.
        if let Some(tx) = &self.tx {
            let _ = tx.send((self.queued, job));
        }
        self.queued += 1;
    }

    /// Waits for every job; results in the order the jobs were queued.
    pub fn finish(mut self) -> Vec<R> {
        // Closing the channel lets each worker finish the queue and return.
        self.tx = None;
        for h in self.handles.drain(..) {
            if let Err(p) = h.join() {
                std::panic::resume_unwind(p);
            }
        }
        let mut done = std::mem::take(&mut *self.done.lock().unwrap_or_else(|p| p.into_inner()));
        done.sort_unstable_by_key(|d| d.0);
        done.into_iter().map(|d| d.1).collect()
    }
}

impl<J: Send + 'static, R: Send + 'static> Drop for Background<J, R> {
    /// A pass that stops early (an error) still waits for what it queued: its locks must
    /// not be released while its unlinks go on.
    fn drop(&mut self) {
        self.tx = None;
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_order_at_every_size() {
        for n in [0, 1, MIN_PARALLEL - 1, MIN_PARALLEL, 1000] {
            let items: Vec<usize> = (0..n).collect();
            assert_eq!(
                map(&items, |i| i * 2),
                (0..n).map(|i| i * 2).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn background_returns_every_result_in_queue_order() {
        let mut b = Background::new(|i: usize| i + 1);
        for i in 0..500 {
            b.push(i);
        }
        assert_eq!(b.finish(), (1..501).collect::<Vec<_>>());
        let none: Background<usize, usize> = Background::new(|i| i);
        assert!(none.finish().is_empty());
    }
}
