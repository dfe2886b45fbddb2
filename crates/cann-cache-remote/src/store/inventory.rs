//! What `gc --remote` reads and changes: every entry object of both layouts with its size
//! and last use (pushes date objects; pulls record uses), removal, and use-log compaction.

use std::collections::BTreeMap;

use opendal::ErrorKind;

use super::{RedisIndex, Remote};
use crate::error::RemoteError;
use crate::layout::{ObjectName, Scope};

/// An entry object as the inventory sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// `cce2/<soc>/<versions>/<binary format>` (`cce1/<soc>/<versions>` for the first layout).
    pub scope_dir: String,
    pub name: ObjectName,
    pub bytes: u64,
    /// The later of its push and its last recorded pull, ns since the epoch.
    pub last_use_ns: i64,
}

/// Every entry object of every scope, and the use logs read to date them.
#[derive(Debug, Clone, Default)]
pub struct Inventory {
    pub items: Vec<Item>,
    /// Use-log objects read (fs and S3), removed once compacted.
    pub logs: Vec<String>,
}

/// A use log: object names (within their scope) and when they were used.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct UseLog {
    uses: BTreeMap<String, i64>,
}

static USE_NONCE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn use_log_path(scope_dir: &str, now_ns: i64) -> String {
    let n = USE_NONCE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!(
        "{scope_dir}/{USES_DIR}/{now_ns:020}-{}-{n}.json",
        std::process::id()
    )
}

/// Where use logs live in a scope: a hidden component no entry key can have.
const USES_DIR: &str = ".uses";

fn ns_of(t: Option<opendal::raw::Timestamp>) -> i64 {
    t.map(std::time::SystemTime::from)
        .and_then(|s| s.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

impl Remote {
    /// Records that `names` of `scope` were used at `now_ns` (a pull).
    pub async fn record_use(
        &self,
        scope: &Scope,
        names: &[ObjectName],
        now_ns: i64,
    ) -> Result<(), RemoteError> {
        if names.is_empty() {
            return Ok(());
        }
        match &self.index {
            Some(ix) => {
                let mut c = ix.conn(&self.label).await?;
                for chunk in names.chunks(1000) {
                    let mut cmd = redis::cmd("HSET");
                    cmd.arg(ix.used_key(&scope.dir()));
                    for n in chunk {
                        cmd.arg(n.rel()).arg(now_ns);
                    }
                    cmd.query_async::<()>(&mut c)
                        .await
                        .map_err(|e| RemoteError::store("record use in", &scope.dir(), e))?;
                }
                Ok(())
            }
            None => {
                let log = UseLog {
                    uses: names.iter().map(|n| (n.rel(), now_ns)).collect(),
                };
                let p = use_log_path(&scope.dir(), now_ns);
                let bytes = serde_json::to_vec(&log).unwrap_or_default();
                self.op
                    .write(&p, bytes)
                    .await
                    .map(|_| ())
                    .map_err(|e| RemoteError::store("write", &p, e))
            }
        }
    }

    /// Every entry object with its size and last use.
    pub async fn inventory(&self) -> Result<Inventory, RemoteError> {
        match &self.index {
            Some(ix) => self.redis_inventory(ix).await,
            None => self.listed_inventory().await,
        }
    }

    async fn listed_inventory(&self) -> Result<Inventory, RemoteError> {
        let mut inv = Inventory::default();
        let mut used: BTreeMap<(String, String), i64> = BTreeMap::new();
        // The first layout's scopes are `<soc>/<versions>`; this one's add the binary format.
        for (top, depth) in [
            (crate::layout::FORMAT_DIR, 3),
            (crate::layout::OLD_FORMAT_DIR, 2),
        ] {
            self.list_layout(top, depth, &mut inv, &mut used).await?;
        }
        for it in &mut inv.items {
            if let Some(t) = used.get(&(it.scope_dir.clone(), it.name.rel())) {
                it.last_use_ns = it.last_use_ns.max(*t);
            }
        }
        Ok(inv)
    }

    /// Adds one layout's objects (scope directories `depth` components below `top`) and use
    /// logs to `inv`.
    async fn list_layout(
        &self,
        top: &str,
        depth: usize,
        inv: &mut Inventory,
        used: &mut BTreeMap<(String, String), i64>,
    ) -> Result<(), RemoteError> {
        let top = format!("{top}/");
        let entries = match self.op.list_with(&top).recursive(true).await {
            Ok(v) => v,
            Err(e) if e.kind() == ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(RemoteError::store("list", &top, e)),
        };
        for e in entries.iter().filter(|e| e.metadata().is_file()) {
            let Some(tail) = e.path().strip_prefix(&top) else {
                continue;
            };
            let parts: Vec<&str> = tail.splitn(depth + 1, '/').collect();
            let [scope @ .., rest] = parts.as_slice() else {
                continue;
            };
            if scope.len() != depth {
                continue;
            }
            let scope_dir = format!("{top}{}", scope.join("/"));
            if rest.starts_with(USES_DIR) {
                let p = e.path().to_owned();
                if let Ok(b) = self.op.read(&p).await {
                    if let Ok(log) = serde_json::from_slice::<UseLog>(&b.to_vec()) {
                        for (n, t) in log.uses {
                            let slot = used.entry((scope_dir.clone(), n)).or_insert(t);
                            *slot = (*slot).max(t);
                        }
                    }
                }
                inv.logs.push(p);
            } else if let Some(name) = ObjectName::parse(rest) {
                let mut meta = e.metadata().clone();
                if meta.last_modified().is_none() {
                    meta = self
                        .op
                        .stat(e.path())
                        .await
                        .map_err(|x| RemoteError::store("stat", e.path(), x))?;
                }
                inv.items.push(Item {
                    scope_dir,
                    name,
                    bytes: meta.content_length(),
                    last_use_ns: ns_of(meta.last_modified()),
                });
            }
        }
        Ok(())
    }

    async fn redis_inventory(&self, ix: &RedisIndex) -> Result<Inventory, RemoteError> {
        let mut c = ix.conn(&self.label).await?;
        let mut scopes: Vec<String> = Vec::new();
        for top in [crate::layout::FORMAT_DIR, crate::layout::OLD_FORMAT_DIR] {
            let key = ix.scopes_key_of(top);
            let mut these: Vec<String> = redis::cmd("SMEMBERS")
                .arg(&key)
                .query_async(&mut c)
                .await
                .map_err(|e| RemoteError::store("list", &key, e))?;
            scopes.append(&mut these);
        }
        let mut inv = Inventory::default();
        for scope_dir in scopes {
            let members: Vec<String> = redis::cmd("SMEMBERS")
                .arg(ix.index_key(&scope_dir))
                .query_async(&mut c)
                .await
                .map_err(|e| RemoteError::store("list", &scope_dir, e))?;
            let used: BTreeMap<String, i64> = redis::cmd("HGETALL")
                .arg(ix.used_key(&scope_dir))
                .query_async(&mut c)
                .await
                .map_err(|e| RemoteError::store("list", &scope_dir, e))?;
            let names: Vec<ObjectName> = members
                .iter()
                .filter_map(|m| ObjectName::parse(m))
                .collect();
            for chunk in names.chunks(1000) {
                let mut pipe = redis::pipe();
                for n in chunk {
                    pipe.cmd("STRLEN")
                        .arg(format!("{}{scope_dir}/{}", ix.prefix, n.rel()));
                }
                let sizes: Vec<u64> = pipe
                    .query_async(&mut c)
                    .await
                    .map_err(|e| RemoteError::store("stat", &scope_dir, e))?;
                for (n, bytes) in chunk.iter().zip(sizes) {
                    inv.items.push(Item {
                        scope_dir: scope_dir.clone(),
                        name: n.clone(),
                        bytes,
                        last_use_ns: used.get(&n.rel()).copied().unwrap_or(0),
                    });
                }
            }
        }
        Ok(inv)
    }

    /// Removes one entry object: unpublished first, then deleted.
    pub async fn remove(&self, scope_dir: &str, name: &ObjectName) -> Result<(), RemoteError> {
        if let Some(ix) = &self.index {
            let mut c = ix.conn(&self.label).await?;
            redis::pipe()
                .cmd("SREM")
                .arg(ix.index_key(scope_dir))
                .arg(name.rel())
                .cmd("HDEL")
                .arg(ix.used_key(scope_dir))
                .arg(name.rel())
                .query_async::<()>(&mut c)
                .await
                .map_err(|e| RemoteError::store("unpublish", scope_dir, e))?;
        }
        let p = format!("{scope_dir}/{}", name.rel());
        match self.op.delete(&p).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
            Err(e) => Err(RemoteError::store("delete", &p, e)),
        }
    }

    /// Replaces the use logs a pass read by one per scope holding the survivors' uses (fs
    /// and S3; Redis keeps one hash per scope already). Logs written since are kept.
    pub async fn compact_uses(
        &self,
        inv: &Inventory,
        gone: &BTreeMap<String, Vec<ObjectName>>,
        now_ns: i64,
    ) -> Result<(), RemoteError> {
        if self.index.is_some() || inv.logs.is_empty() {
            return Ok(());
        }
        let mut per_scope: BTreeMap<&str, UseLog> = BTreeMap::new();
        for it in &inv.items {
            if gone
                .get(&it.scope_dir)
                .is_some_and(|g| g.contains(&it.name))
            {
                continue;
            }
            per_scope
                .entry(it.scope_dir.as_str())
                .or_default()
                .uses
                .insert(it.name.rel(), it.last_use_ns);
        }
        for (scope_dir, log) in per_scope {
            let p = use_log_path(scope_dir, now_ns);
            let bytes = serde_json::to_vec(&log).unwrap_or_default();
            self.op
                .write(&p, bytes)
                .await
                .map_err(|e| RemoteError::store("write", &p, e))?;
        }
        for p in &inv.logs {
            match self.op.delete(p).await {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => return Err(RemoteError::store("delete", p, e)),
            }
        }
        Ok(())
    }
}
