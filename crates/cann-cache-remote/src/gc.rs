//! Remote aging (`cannctl cache gc --remote URL`): the local cache's LRU rules on the store.
//!
//! The size is the sum of the entry objects' sizes. When it reaches the limit, entries go
//! least recently used first until the size is at `limit * ratio / 100`, and none used within
//! the aging floor (30 minutes, as locally) is removed: the pass stops at the first such one.
//! "Used" is the later of the object's push and its last pull: pulls record their uses (a
//! Redis hash; elsewhere one small use-log object per pull and scope, compacted by this pass).
//!
//! Removal unpublishes first (Redis: `SREM` from the scope's index), then deletes the
//! object, so a pull never lists an object that is already gone for good; a pull that raced
//! the delete reports the object missing and goes on.

use std::collections::BTreeMap;

use crate::error::RemoteError;
use crate::store::{Item, Remote};

/// Limits of a remote pass.
#[derive(Debug, Clone, Copy)]
pub struct GcLimits {
    pub max_bytes: u64,
    /// What aging shrinks the store to (the local rule: `limit * ratio / 100`, from
    /// [`cann_runtime::cache::Limits::retained_bytes`]).
    pub target_bytes: u64,
    /// Nothing used more recently than this many nanoseconds before `now_ns` is removed.
    pub floor_ns: i64,
    pub now_ns: i64,
    pub dry_run: bool,
}

/// One removal (or, in a dry run, one that would happen).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RemoteRemoval {
    pub object: String,
    pub bytes: u64,
    pub last_use_ns: i64,
}

/// What a remote pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct RemoteGcReport {
    pub store: String,
    pub dry_run: bool,
    pub limit_bytes: u64,
    pub target_bytes: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub entries_before: u64,
    pub entries_after: u64,
    pub stopped_by_floor: bool,
    pub removed: Vec<RemoteRemoval>,
}

/// Runs one pass on `remote`.
pub fn gc_remote(remote: &Remote, limits: &GcLimits) -> Result<RemoteGcReport, RemoteError> {
    let rt = crate::sync::runtime(4)?;
    rt.block_on(async {
        let inv = remote.inventory().await?;
        let items = &inv.items;
        let mut rep = RemoteGcReport {
            store: remote.label().to_owned(),
            dry_run: limits.dry_run,
            limit_bytes: limits.max_bytes,
            target_bytes: limits.target_bytes,
            bytes_before: items.iter().map(|i| i.bytes).sum(),
            entries_before: items.len() as u64,
            ..RemoteGcReport::default()
        };
        let mut total = rep.bytes_before;
        let mut order: Vec<&Item> = items.iter().collect();
        order.sort_by(|a, b| {
            (a.last_use_ns, &a.scope_dir, &a.name).cmp(&(b.last_use_ns, &b.scope_dir, &b.name))
        });
        let mut gone: BTreeMap<String, Vec<crate::ObjectName>> = BTreeMap::new();
        if total >= limits.max_bytes {
            for it in order {
                if total <= rep.target_bytes {
                    break;
                }
                if limits.now_ns.saturating_sub(it.last_use_ns) < limits.floor_ns {
                    rep.stopped_by_floor = true;
                    break;
                }
                if !limits.dry_run {
                    remote.remove(&it.scope_dir, &it.name).await?;
                }
                total = total.saturating_sub(it.bytes);
                gone.entry(it.scope_dir.clone())
                    .or_default()
                    .push(it.name.clone());
                rep.removed.push(RemoteRemoval {
                    object: format!("{}/{}", it.scope_dir, it.name.rel()),
                    bytes: it.bytes,
                    last_use_ns: it.last_use_ns,
                });
            }
        }
        if !limits.dry_run {
            remote.compact_uses(&inv, &gone, limits.now_ns).await?;
        }
        rep.bytes_after = total;
        rep.entries_after = rep.entries_before - rep.removed.len() as u64;
        Ok(rep)
    })
}
