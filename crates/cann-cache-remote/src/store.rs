//! The stores, through Apache OpenDAL, and how each keeps a half-written object invisible.
//!
//! Every entry is one object written by one PUT, and each store makes a single PUT atomic:
//!
//! - **fs**: OpenDAL writes into `<root>/.cce-tmp/` (same file system), `fsync`s, and
//!   `rename`s into place; a reader sees no file or the whole file, and a crashed writer
//!   leaves only a temporary outside the listed tree.
//! - **S3** (and OBS, MinIO, ...): a PutObject becomes visible only when complete, and
//!   listing is strongly consistent after the PUT returns; two PUTs of one name leave one of
//!   them whole. Objects here are far below the multipart threshold, so a PUT is one request.
//! - **Redis**: `SET` is a single command, atomic by Redis's execution model.
//!
//! The index: on fs and S3 the listing of a scope directory is the index (an object is
//! listed only once whole). OpenDAL's Redis service is a plain key-value store without
//! listing, so each scope keeps a Redis set of its object names; a push adds names with
//! `SADD` only after the objects' `SET`s returned (the index is written last), and `SADD` is
//! atomic, so concurrent pushers never lose each other's names. Names are content hashes:
//! two nodes pushing the same entry write identical bytes under one name, which is why a
//! push needs no lock.

use std::collections::BTreeMap;

use opendal::{ErrorKind, Operator};

use crate::error::RemoteError;
use crate::layout::{ObjectName, Scope};
use crate::url::{Env, StoreSpec};

/// Where OpenDAL's fs service stages writes, inside the store's root.
const FS_STAGING: &str = ".cce-tmp";

/// An open store.
#[derive(Debug, Clone)]
pub struct Remote {
    op: Operator,
    index: Option<RedisIndex>,
    label: String,
}

#[derive(Debug, Clone)]
struct RedisIndex {
    client: redis::Client,
    /// Key prefix, as OpenDAL's Redis service prefixes its keys (root without the leading `/`).
    prefix: String,
}

impl Remote {
    /// Opens the store `spec` names, with credentials from `env` only.
    pub fn open(spec: &StoreSpec, env: &dyn Env) -> Result<Remote, RemoteError> {
        let label = spec.label();
        let fail = |e: opendal::Error| RemoteError::store("open", &label, e);
        // A network store answers a busy moment with a temporary error (S3's 500/503, a
        // dropped Redis connection): OpenDAL's retry layer retries only what it classifies
        // as temporary, with jittered backoff, so one slow moment does not fail a push.
        let retry = || {
            opendal::layers::RetryLayer::new()
                .with_jitter()
                .with_max_times(4)
        };
        match spec {
            StoreSpec::Fs { root } => {
                let root_s = root.to_string_lossy();
                let staging = root.join(FS_STAGING);
                let b = opendal::services::Fs::default()
                    .root(&root_s)
                    .atomic_write_dir(&staging.to_string_lossy());
                Ok(Remote {
                    op: Operator::new(b).map_err(fail)?.finish(),
                    index: None,
                    label,
                })
            }
            StoreSpec::Redis {
                endpoint,
                db,
                prefix,
            } => {
                let mut b = opendal::services::Redis::default()
                    .endpoint(endpoint)
                    .db(*db)
                    .root(prefix);
                let mut u = url::Url::parse(&format!("{endpoint}/{db}"))
                    .map_err(|e| RemoteError::store("open", &label, e))?;
                if let Some(user) = env.var("REDIS_USERNAME") {
                    b = b.username(&user);
                    let _ = u.set_username(&user);
                }
                if let Some(pw) = env.var("REDIS_PASSWORD") {
                    b = b.password(&pw);
                    let _ = u.set_password(Some(&pw));
                }
                let client = redis::Client::open(u.as_str())
                    .map_err(|e| RemoteError::store("open", &label, e))?;
                Ok(Remote {
                    op: Operator::new(b).map_err(fail)?.layer(retry()).finish(),
                    index: Some(RedisIndex {
                        client,
                        prefix: prefix.trim_start_matches('/').to_owned(),
                    }),
                    label,
                })
            }
            StoreSpec::S3 {
                bucket,
                prefix,
                endpoint,
                region,
                virtual_host_style,
            } => {
                // Only the environment: no profile files, and never the instance-metadata
                // address, which would be a network call a node may not be allowed to make.
                let mut b = opendal::services::S3::default()
                    .bucket(bucket)
                    .root(prefix)
                    .region(region.as_deref().unwrap_or("us-east-1"))
                    .disable_config_load()
                    .disable_ec2_metadata();
                if let Some(e) = endpoint {
                    b = b.endpoint(e);
                }
                if *virtual_host_style {
                    b = b.enable_virtual_host_style();
                }
                match (
                    env.var("AWS_ACCESS_KEY_ID"),
                    env.var("AWS_SECRET_ACCESS_KEY"),
                ) {
                    (Some(id), Some(secret)) => {
                        b = b.access_key_id(&id).secret_access_key(&secret);
                        if let Some(t) = env.var("AWS_SESSION_TOKEN") {
                            b = b.session_token(&t);
                        }
                    }
                    _ => b = b.skip_signature(),
                }
                Ok(Remote {
                    op: Operator::new(b).map_err(fail)?.layer(retry()).finish(),
                    index: None,
                    label,
                })
            }
        }
    }

    /// The store, as messages name it.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Every entry object of `scope`, sorted.
    pub async fn list(&self, scope: &Scope) -> Result<Vec<ObjectName>, RemoteError> {
        let dir = format!("{}/", scope.dir());
        let mut names: Vec<ObjectName> = match &self.index {
            Some(ix) => {
                let mut c = ix.conn(&self.label).await?;
                let members: Vec<String> = redis::cmd("SMEMBERS")
                    .arg(ix.index_key(&scope.dir()))
                    .query_async(&mut c)
                    .await
                    .map_err(|e| RemoteError::store("list", &dir, e))?;
                members
                    .iter()
                    .filter_map(|m| ObjectName::parse(m))
                    .collect()
            }
            None => {
                let entries = match self.op.list_with(&dir).recursive(true).await {
                    Ok(v) => v,
                    Err(e) if e.kind() == ErrorKind::NotFound => Vec::new(),
                    Err(e) => return Err(RemoteError::store("list", &dir, e)),
                };
                entries
                    .iter()
                    .filter(|e| e.metadata().is_file())
                    .filter_map(|e| e.path().strip_prefix(&dir))
                    .filter_map(ObjectName::parse)
                    .collect()
            }
        };
        names.sort();
        names.dedup();
        Ok(names)
    }

    fn path(scope: &Scope, name: &ObjectName) -> String {
        format!("{}/{}", scope.dir(), name.rel())
    }

    /// The object's bytes; `None` when it is not there.
    pub async fn get(
        &self,
        scope: &Scope,
        name: &ObjectName,
    ) -> Result<Option<Vec<u8>>, RemoteError> {
        let p = Self::path(scope, name);
        match self.op.read(&p).await {
            Ok(b) => Ok(Some(b.to_vec())),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(RemoteError::store("read", &p, e)),
        }
    }

    /// Stores an object (one atomic PUT).
    pub async fn put(
        &self,
        scope: &Scope,
        name: &ObjectName,
        bytes: Vec<u8>,
    ) -> Result<(), RemoteError> {
        let p = Self::path(scope, name);
        self.op
            .write(&p, bytes)
            .await
            .map(|_| ())
            .map_err(|e| RemoteError::store("write", &p, e))
    }

    /// Makes objects already stored visible to pulls (Redis only; elsewhere the listing
    /// already shows them).
    pub async fn publish(&self, scope: &Scope, names: &[ObjectName]) -> Result<(), RemoteError> {
        let Some(ix) = &self.index else {
            return Ok(());
        };
        if names.is_empty() {
            return Ok(());
        }
        let mut c = ix.conn(&self.label).await?;
        let dir = scope.dir();
        let now = cann_runtime::cache::clock::system_now();
        for chunk in names.chunks(1000) {
            // Dated first (Redis keeps no object times; gc ages by this), listed last.
            let mut used = redis::cmd("HSET");
            used.arg(ix.used_key(&dir));
            let mut cmd = redis::cmd("SADD");
            cmd.arg(ix.index_key(&dir));
            for n in chunk {
                used.arg(n.rel()).arg(now);
                cmd.arg(n.rel());
            }
            used.query_async::<()>(&mut c)
                .await
                .map_err(|e| RemoteError::store("index", &dir, e))?;
            cmd.query_async::<()>(&mut c)
                .await
                .map_err(|e| RemoteError::store("index", &dir, e))?;
        }
        redis::cmd("SADD")
            .arg(ix.scopes_key())
            .arg(&dir)
            .query_async::<()>(&mut c)
            .await
            .map_err(|e| RemoteError::store("index", &ix.scopes_key(), e))?;
        Ok(())
    }

    /// Writes the scope's description unless it is there (for people and `gc`).
    pub async fn describe(&self, scope: &Scope) -> Result<(), RemoteError> {
        let p = scope.description_path();
        match self.op.exists(&p).await {
            Ok(true) => Ok(()),
            Ok(false) => self
                .op
                .write(&p, scope.description())
                .await
                .map(|_| ())
                .map_err(|e| RemoteError::store("write", &p, e)),
            Err(e) => Err(RemoteError::store("stat", &p, e)),
        }
    }
}

impl RedisIndex {
    /// The set of a scope's published object names.
    fn index_key(&self, scope_dir: &str) -> String {
        format!("{}{scope_dir}/index", self.prefix)
    }

    /// The hash of a scope's object names to their last use (ns).
    fn used_key(&self, scope_dir: &str) -> String {
        format!("{}{scope_dir}/used", self.prefix)
    }

    /// The set of every scope directory that has published something.
    fn scopes_key(&self) -> String {
        format!("{}{}/scopes", self.prefix, crate::layout::FORMAT_DIR)
    }

    async fn conn(&self, label: &str) -> Result<redis::aio::MultiplexedConnection, RemoteError> {
        self.client
            .get_multiplexed_async_connection()
            .await
            .map_err(|e| RemoteError::store("connect", label, e))
    }
}

/// An entry object as the inventory sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// `cce1/<soc>/<versions>`.
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
        let top = format!("{}/", crate::layout::FORMAT_DIR);
        let entries = match self.op.list_with(&top).recursive(true).await {
            Ok(v) => v,
            Err(e) if e.kind() == ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(RemoteError::store("list", &top, e)),
        };
        let mut inv = Inventory::default();
        let mut used: BTreeMap<(String, String), i64> = BTreeMap::new();
        for e in entries.iter().filter(|e| e.metadata().is_file()) {
            let Some(tail) = e.path().strip_prefix(&top) else {
                continue;
            };
            let mut parts = tail.splitn(3, '/');
            let (Some(soc), Some(vid), Some(rest)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let scope_dir = format!("{top}{soc}/{vid}");
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
        for it in &mut inv.items {
            if let Some(t) = used.get(&(it.scope_dir.clone(), it.name.rel())) {
                it.last_use_ns = it.last_use_ns.max(*t);
            }
        }
        Ok(inv)
    }

    async fn redis_inventory(&self, ix: &RedisIndex) -> Result<Inventory, RemoteError> {
        let mut c = ix.conn(&self.label).await?;
        let scopes: Vec<String> = redis::cmd("SMEMBERS")
            .arg(ix.scopes_key())
            .query_async(&mut c)
            .await
            .map_err(|e| RemoteError::store("list", &ix.scopes_key(), e))?;
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
