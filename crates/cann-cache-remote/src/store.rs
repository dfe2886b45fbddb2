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

    /// The binary formats stored for `scope`'s SoC and toolkit (its `binary_format` is
    /// ignored), sorted.
    pub async fn formats(&self, scope: &Scope) -> Result<Vec<String>, RemoteError> {
        let vdir = format!("{}/", scope.versions_dir());
        let mut out: Vec<String> = match &self.index {
            Some(ix) => {
                let mut c = ix.conn(&self.label).await?;
                let scopes: Vec<String> = redis::cmd("SMEMBERS")
                    .arg(ix.scopes_key())
                    .query_async(&mut c)
                    .await
                    .map_err(|e| RemoteError::store("list", &vdir, e))?;
                scopes
                    .iter()
                    .filter_map(|d| d.strip_prefix(&vdir))
                    .map(str::to_owned)
                    .collect()
            }
            None => {
                let entries = match self.op.list(&vdir).await {
                    Ok(v) => v,
                    Err(e) if e.kind() == ErrorKind::NotFound => Vec::new(),
                    Err(e) => return Err(RemoteError::store("list", &vdir, e)),
                };
                entries
                    .iter()
                    .filter(|e| e.metadata().is_dir())
                    .filter_map(|e| e.path().strip_prefix(&vdir))
                    .map(|p| p.trim_end_matches('/').to_owned())
                    .collect()
            }
        };
        out.retain(|f| crate::binfmt::is_format_name(f));
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// How many objects of the first layout (no binary format) `scope`'s SoC and toolkit
    /// have: never pulled, only counted (see [`crate::layout`]).
    pub async fn old_objects(&self, scope: &Scope) -> Result<u64, RemoteError> {
        let dir = scope.old_dir();
        match &self.index {
            Some(ix) => {
                let mut c = ix.conn(&self.label).await?;
                redis::cmd("SCARD")
                    .arg(ix.index_key(&dir))
                    .query_async(&mut c)
                    .await
                    .map_err(|e| RemoteError::store("list", &dir, e))
            }
            None => {
                let dir = format!("{dir}/");
                let entries = match self.op.list_with(&dir).recursive(true).await {
                    Ok(v) => v,
                    Err(e) if e.kind() == ErrorKind::NotFound => Vec::new(),
                    Err(e) => return Err(RemoteError::store("list", &dir, e)),
                };
                Ok(entries
                    .iter()
                    .filter(|e| e.metadata().is_file())
                    .filter_map(|e| e.path().strip_prefix(&dir))
                    .filter(|p| ObjectName::parse(p).is_some())
                    .count() as u64)
            }
        }
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
        self.scopes_key_of(crate::layout::FORMAT_DIR)
    }

    /// The same set in a layout's top directory (the first layout's, for `gc`).
    fn scopes_key_of(&self, top: &str) -> String {
        format!("{}{top}/scopes", self.prefix)
    }

    async fn conn(&self, label: &str) -> Result<redis::aio::MultiplexedConnection, RemoteError> {
        self.client
            .get_multiplexed_async_connection()
            .await
            .map_err(|e| RemoteError::store("connect", label, e))
    }
}

mod inventory;
pub use inventory::{Inventory, Item};
