//! Our bookkeeping in `kernel_cache/.cann-cache/`: the ledger, the index, the directory list
//! and the loose-file record. Every state file's name is spelled once, in [`names`].

pub(crate) mod dirtime;
pub(crate) mod files;
pub(crate) mod index;
pub(crate) mod ledger;
pub(crate) mod loose;
pub(crate) mod names;
