//! Variable memory under `variable_use_1g_huge_page`.
//!
//! - 0: the system's default pages;
//! - 1: 1 GiB pages, or [`HugePageError::Unavailable`];
//! - 2: 1 GiB pages; when they are unavailable, 2 MiB pages for the same
//!   request rounded to the same 1 GiB granularity (so the chunks the variable
//!   manager sees do not change shape), else an error. The downgrade is sticky:
//!   once 1 GiB pages failed, later requests go straight to 2 MiB.
//!
//! "Unavailable" is what the backend reports for `MAP_HUGETLB` answering ENOMEM
//! (no pages reserved) or EINVAL (size unsupported); other failures (a plain
//! out-of-memory, a bad handle) pass through unchanged.

use super::backend::{round_up, BackendError, Block, MemoryBackend, PageSize};
use super::policy::{HugePages, VariableUse1gHugePage};

/// Why variable memory could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HugePageError {
    /// Every page size the policy allows was unavailable.
    #[error(
        "variable_use_1g_huge_page = {policy}: {len} bytes could not be had with {} pages",
        tried_names(.tried)
    )]
    Unavailable {
        /// The policy code.
        policy: i64,
        /// Bytes asked for.
        len: u64,
        /// Page sizes tried, in order, with the errno each answered.
        tried: Vec<(PageSize, i32)>,
    },
    /// Zero bytes were requested.
    #[error("zero-byte variable allocation")]
    ZeroSize,
    /// Any other backend failure.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

fn tried_names(tried: &[(PageSize, i32)]) -> String {
    tried
        .iter()
        .map(|(p, e)| format!("{p} (errno {e})"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Something the log should say (the engine prints these at ERROR level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HugePageEvent {
    /// 1 GiB pages failed; this and later requests use 2 MiB pages.
    Downgraded {
        /// Bytes of the request that failed.
        len: u64,
        /// What the OS answered.
        errno: i32,
    },
}

/// The page-size ladder for variable memory. See the module docs.
#[derive(Debug, Clone)]
pub struct VariableMemory {
    policy: VariableUse1gHugePage,
    downgraded: bool,
    events: Vec<HugePageEvent>,
}

impl VariableMemory {
    /// A ladder at the top rung.
    pub fn new(policy: VariableUse1gHugePage) -> Self {
        Self {
            policy,
            downgraded: false,
            events: Vec::new(),
        }
    }

    /// The policy.
    pub fn policy(&self) -> VariableUse1gHugePage {
        self.policy
    }

    /// Whether policy 2 has fallen back to 2 MiB pages.
    pub fn is_downgraded(&self) -> bool {
        self.downgraded
    }

    /// The page size the next request will try first.
    pub fn current_page(&self) -> PageSize {
        match (self.policy.behaviour(), self.downgraded) {
            (HugePages::DefaultPages, _) => PageSize::Base,
            (_, false) => PageSize::Huge1G,
            (_, true) => PageSize::Huge2M,
        }
    }

    /// Events so far, oldest first.
    pub fn events(&self) -> &[HugePageEvent] {
        &self.events
    }

    /// The size requests are rounded up to.
    pub fn granularity<B: MemoryBackend + ?Sized>(&self, backend: &B) -> u64 {
        match self.policy.behaviour() {
            HugePages::DefaultPages => backend.page_bytes(PageSize::Base),
            _ => PageSize::ONE_GIB,
        }
    }

    /// Allocates `len` bytes of variable memory down the ladder.
    pub fn allocate<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        len: u64,
    ) -> Result<Block, HugePageError> {
        if len == 0 {
            return Err(HugePageError::ZeroSize);
        }
        let size = round_up(len, self.granularity(backend))
            .ok_or(HugePageError::Backend(BackendError::TooLarge { len }))?;
        let mut tried = Vec::new();
        if self.policy.behaviour() == HugePages::DefaultPages {
            return Ok(backend.allocate(size, PageSize::Base)?);
        }
        if !self.downgraded {
            match backend.allocate(size, PageSize::Huge1G) {
                Ok(b) => return Ok(b),
                Err(BackendError::HugePagesUnavailable { errno, .. }) => {
                    tried.push((PageSize::Huge1G, errno));
                    if self.policy.behaviour() == HugePages::Prefer1g {
                        self.downgraded = true;
                        self.events.push(HugePageEvent::Downgraded { len, errno });
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        if self.downgraded {
            match backend.allocate(size, PageSize::Huge2M) {
                Ok(b) => return Ok(b),
                Err(BackendError::HugePagesUnavailable { errno, .. }) => {
                    tried.push((PageSize::Huge2M, errno));
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(HugePageError::Unavailable {
            policy: self.policy.code(),
            len,
            tried,
        })
    }

    /// Frees a block this ladder allocated.
    pub fn free<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        block: Block,
    ) -> Result<(), HugePageError> {
        backend.free(block).map_err(Into::into)
    }
}
