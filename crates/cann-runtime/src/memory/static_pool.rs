//! The shared static pool of `static_memory_policy` 2.
//!
//! Static-shape graphs of a session run one at a time on one pool sized to the
//! largest graph seen so far; a smaller graph reuses it with no allocation. Two
//! growth modes exist because the sources disagree:
//!
//! - [`GrowthMode::Documented`] (default): the MemoryConfig page says the pool
//!   of the previous graph is freed and one of the new size allocated.
//! - [`GrowthMode::EngineCode`]: the graph engine keeps what it has and adds
//!   the shortfall rounded up to 2 MiB. To keep the pool contiguous (a feature
//!   map is one range) this mode reserves address space once and commits each
//!   addition at the end of what is already committed.

use super::backend::{round_up, Block, CleanTarget, MemoryBackend, PageSize, Reservation};
use super::error::MemoryError;

/// How the pool grows when a bigger graph arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GrowthMode {
    /// Free the pool, allocate one of the new size (the documentation).
    #[default]
    Documented,
    /// Keep the pool, add the shortfall rounded up to 2 MiB (the engine's code).
    EngineCode,
}

/// Granule of [`GrowthMode::EngineCode`] growth.
pub const ENGINE_GROWTH_GRANULE: u64 = PageSize::TWO_MIB;

/// What one `ensure` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// The pool was big enough.
    Reused,
    /// The old pool was freed and a bigger one allocated.
    Replaced {
        /// Capacity before.
        old: u64,
        /// Capacity after.
        new: u64,
    },
    /// The shortfall was added.
    Extended {
        /// Bytes added.
        added: u64,
    },
}

#[derive(Debug)]
enum Storage {
    Empty,
    Block(Block),
    Reserved { r: Reservation, committed: u64 },
}

/// See the module docs.
#[derive(Debug)]
pub struct StaticPool {
    mode: GrowthMode,
    /// Address space for `EngineCode` growth; the pool cannot grow past it.
    reserve_bytes: u64,
    storage: Storage,
}

impl StaticPool {
    /// An empty pool; nothing is allocated or reserved until the first `ensure`.
    pub fn new(mode: GrowthMode, reserve_bytes: u64) -> Self {
        Self {
            mode,
            reserve_bytes,
            storage: Storage::Empty,
        }
    }

    /// The growth mode.
    pub fn mode(&self) -> GrowthMode {
        self.mode
    }

    /// Usable bytes.
    pub fn capacity(&self) -> u64 {
        match &self.storage {
            Storage::Empty => 0,
            Storage::Block(b) => b.len(),
            Storage::Reserved { committed, .. } => *committed,
        }
    }

    /// The pool's memory, for cleaning; `None` while empty.
    pub fn target(&self) -> Option<CleanTarget<'_>> {
        match &self.storage {
            Storage::Empty => None,
            Storage::Block(b) => Some(CleanTarget::Block(b)),
            Storage::Reserved { r, committed } if *committed > 0 => {
                Some(CleanTarget::Reservation(r))
            }
            Storage::Reserved { .. } => None,
        }
    }

    /// Makes the pool at least `size` bytes.
    pub fn ensure<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        size: u64,
    ) -> Result<Growth, MemoryError> {
        let old = self.capacity();
        if size <= old {
            return Ok(Growth::Reused);
        }
        match self.mode {
            GrowthMode::Documented => self.replace(backend, size, old),
            GrowthMode::EngineCode => self.extend(backend, size, old),
        }
    }

    fn replace<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        size: u64,
        old: u64,
    ) -> Result<Growth, MemoryError> {
        // The documented order: free first, so the two never coexist.
        if let Storage::Block(b) = std::mem::replace(&mut self.storage, Storage::Empty) {
            backend.free(b)?;
        }
        match backend.allocate(size, PageSize::Base) {
            Ok(b) => {
                let new = b.len();
                self.storage = Storage::Block(b);
                Ok(Growth::Replaced { old, new })
            }
            Err(e) => {
                // Best effort to leave the pool as it was; if even that fails
                // the pool is empty and the next ensure allocates afresh.
                if old > 0 {
                    if let Ok(b) = backend.allocate(old, PageSize::Base) {
                        self.storage = Storage::Block(b);
                    }
                }
                Err(e.into())
            }
        }
    }

    fn extend<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        size: u64,
        old: u64,
    ) -> Result<Growth, MemoryError> {
        let exhausted = MemoryError::ArenaExhausted {
            requested: size,
            reserved: self.reserve_bytes,
        };
        let added = round_up(size - old, ENGINE_GROWTH_GRANULE).ok_or_else(|| exhausted.clone())?;
        if old + added > self.reserve_bytes {
            return Err(exhausted);
        }
        if matches!(self.storage, Storage::Empty) {
            let r = backend.reserve(self.reserve_bytes)?;
            self.storage = Storage::Reserved { r, committed: 0 };
        }
        if let Storage::Reserved { r, committed } = &mut self.storage {
            backend.commit(r, *committed, added)?;
            *committed += added;
        }
        Ok(Growth::Extended { added })
    }

    /// Gives everything back.
    pub fn release<B: MemoryBackend + ?Sized>(self, backend: &mut B) -> Result<(), MemoryError> {
        match self.storage {
            Storage::Empty => Ok(()),
            Storage::Block(b) => backend.free(b).map_err(Into::into),
            Storage::Reserved { r, .. } => backend.release(r).map_err(Into::into),
        }
    }
}
