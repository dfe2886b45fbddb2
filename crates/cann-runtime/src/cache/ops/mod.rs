//! The operations on an open cache, one module each, over the entries, the state and the
//! scan below them. The façade ([`super::Cache`]) above calls them; none of them calls it.
//! [`core::Core`] is what they share: the open directory, the state files, the options.

pub(crate) mod account;
pub(crate) mod batch;
pub(crate) mod clear;
pub(crate) mod core;
pub(crate) mod export;
pub(crate) mod gc;
pub(crate) mod get;
pub(crate) mod info;
pub(crate) mod put;
pub(crate) mod remove;
pub(crate) mod startup;
pub(crate) mod verify;
