//! Push and pull: which entries move, in parallel, and what is reported.
//!
//! Push uploads the live local entries (not torn, not invalidated) whose key the remote scope
//! lacks; a key the scope already has, under any hash, is "already there", so a second push
//! reads and writes nothing. Pull brings the entries of the node's scopes whose key the local
//! cache lacks; each object is verified (hash, format, key, scope) before the local commit,
//! and a refused one is reported while the others still arrive. When a key has several
//! objects (two nodes compiled it differently and pushed at the same moment), every node takes
//! the smallest hash, so concurrent pullers agree.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use futures::stream::{self, StreamExt};

use cann_i18n::catalog::remote as msg;
use cann_i18n::Lang;
use cann_runtime::cache::{self, Cache, CacheDir, ExactCommit, NoProgress, Progress};

use crate::error::RemoteError;
use crate::layout::{self, ObjectName, Scope};
use crate::store::Remote;

/// How a transfer runs.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Decide (and for a pull, fetch and verify) but write nothing.
    pub dry_run: bool,
    /// Transfers in flight at once.
    pub jobs: usize,
    /// Language of the reasons in the report.
    pub lang: Lang,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dry_run: false,
            jobs: 16,
            lang: Lang::En,
        }
    }
}

/// An entry left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub key: String,
    pub why: String,
}

/// A remote object refused on pull, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Refusal {
    pub object: String,
    pub why: String,
}

/// What a push did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct PushReport {
    pub store: String,
    pub dry_run: bool,
    pub scopes: Vec<Scope>,
    pub pushed: u64,
    pub pushed_bytes: u64,
    pub present: u64,
    pub skipped: Vec<Skipped>,
}

/// What a pull did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct PullReport {
    pub store: String,
    pub dry_run: bool,
    pub scopes: Vec<Scope>,
    pub pulled: u64,
    pub pulled_bytes: u64,
    pub present: u64,
    pub refused: Vec<Refusal>,
    /// Keys with more than one object in the store.
    pub conflicts: u64,
}

impl PullReport {
    /// True when an object was refused (the exit status says so).
    pub fn has_errors(&self) -> bool {
        !self.refused.is_empty()
    }
}

/// The toolkit stamps of `dir`'s `op_cache.ini`, which scope every entry of that cache.
pub fn versions(dir: &CacheDir) -> Result<(String, String), RemoteError> {
    let doc = cache::read_ini(dir)?;
    let get = |k| {
        doc.as_ref()
            .and_then(|d| d.get(cache::ini::SECTION, k))
            .map(str::to_owned)
    };
    match (
        get(cache::ini::KEY_ADK_VERSION),
        get(cache::ini::KEY_OPS_VERSION),
    ) {
        (Some(a), Some(o)) => Ok((a, o)),
        _ => Err(RemoteError::NoVersions {
            ini: dir.ini_path().display().to_string(),
        }),
    }
}

/// The SoC directories a cache already has (the pull default).
pub fn local_socs(dir: &CacheDir) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.kernel_cache())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| cann_runtime::cache::Key::parse(n).is_ok())
        .collect();
    v.sort();
    v
}

/// A `--soc` value: one directory name a key may start with.
pub fn check_soc(soc: &str) -> Result<(), RemoteError> {
    if soc.contains('/') || cann_runtime::cache::Key::parse(soc).is_err() {
        return Err(RemoteError::BadSoc {
            soc: soc.to_owned(),
        });
    }
    Ok(())
}

pub(crate) fn runtime(jobs: usize) -> Result<tokio::runtime::Runtime, RemoteError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(jobs.clamp(1, 4))
        .enable_all()
        .build()
        .map_err(|e| RemoteError::Runtime {
            detail: e.to_string(),
        })
}

/// Uploads what the remote lacks. `versions` are the cache's stamps (see [`versions`]).
pub fn push(
    cache: &Arc<Cache>,
    remote: &Remote,
    versions: &(String, String),
    opts: &Options,
    progress: &(dyn Progress + Sync),
) -> Result<PushReport, RemoteError> {
    let mut rep = PushReport {
        store: remote.label().to_owned(),
        dry_run: opts.dry_run,
        ..PushReport::default()
    };
    let mut by_scope: BTreeMap<Scope, Vec<(String, u64)>> = BTreeMap::new();
    for e in cache.live_entries(&NoProgress)? {
        match e.key.split_once('/') {
            Some((soc, _)) => by_scope
                .entry(Scope {
                    soc: soc.to_owned(),
                    adk_version: versions.0.clone(),
                    ops_version: versions.1.clone(),
                })
                .or_default()
                .push((e.key.clone(), e.bytes)),
            None => rep.skipped.push(Skipped {
                key: e.key,
                why: msg::why_no_soc(opts.lang),
            }),
        }
    }
    let rt = runtime(opts.jobs)?;
    rt.block_on(async {
        let mut todo = Vec::new();
        for (scope, entries) in &by_scope {
            let there: BTreeSet<String> = remote
                .list(scope)
                .await?
                .into_iter()
                .map(|n| n.rest)
                .collect();
            for (key, bytes) in entries {
                let rest = key.split_once('/').map_or("", |p| p.1);
                if there.contains(rest) {
                    rep.present += 1;
                } else {
                    todo.push((scope.clone(), key.clone(), *bytes));
                }
            }
        }
        rep.scopes = by_scope.keys().cloned().collect();
        progress.set_total(todo.len() as u64);
        if opts.dry_run {
            rep.pushed = todo.len() as u64;
            rep.pushed_bytes = todo.iter().map(|t| t.2).sum();
            return Ok(());
        }
        for scope in by_scope.keys() {
            remote.describe(scope).await?;
        }
        let results: Vec<_> = stream::iter(todo)
            .map(|(scope, key, _)| {
                let cache = Arc::clone(cache);
                async move {
                    let k = key.clone();
                    let read = tokio::task::spawn_blocking(move || cache.read_exact(&k))
                        .await
                        .map_err(|e| RemoteError::Runtime {
                            detail: e.to_string(),
                        })??;
                    let exact = match read {
                        Ok(x) => x,
                        Err(why) => return Ok(Err(Skipped { key, why })),
                    };
                    let Some((name, bytes)) = layout::encode(&key, &scope, &exact) else {
                        return Ok(Err(Skipped {
                            key,
                            why: msg::why_no_soc(opts.lang),
                        }));
                    };
                    let n = bytes.len() as u64;
                    remote.put(&scope, &name, bytes).await?;
                    progress.inc(1);
                    Ok::<_, RemoteError>(Ok((scope, name, n, exact_bytes(&exact))))
                }
            })
            .buffer_unordered(opts.jobs.max(1))
            .collect()
            .await;
        let mut published: BTreeMap<Scope, Vec<ObjectName>> = BTreeMap::new();
        let mut first_err = None;
        for r in results {
            match r {
                Ok(Ok((scope, name, _, entry_bytes))) => {
                    rep.pushed += 1;
                    rep.pushed_bytes += entry_bytes;
                    published.entry(scope).or_default().push(name);
                }
                Ok(Err(s)) => rep.skipped.push(s),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        // The index last: only objects whose PUT returned are published, even when another
        // PUT failed, so what is listed is always whole.
        for (scope, names) in &published {
            remote.publish(scope, names).await?;
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })?;
    rep.skipped.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(rep)
}

/// A batch is committed once it holds this many entries or bytes (whichever first): large
/// enough that the two flushes are paid rarely, small enough to bound the memory held.
const BATCH_ENTRIES: usize = 512;
const BATCH_BYTES: u64 = 64 * 1024 * 1024;

/// A verified object, ready to commit.
struct Pulled {
    scope: Scope,
    name: ObjectName,
    key: String,
    entry: cache::ExactEntry,
}

enum Fetched {
    Refused(Refusal),
    Ready(Pulled),
}

/// A committed batch: its entries, and each one's outcome.
type Committed = Result<(Vec<Pulled>, Vec<cann_runtime::cache::Result<ExactCommit>>), RemoteError>;

fn commit(cache: &Cache, batch: Vec<Pulled>) -> Committed {
    let refs: Vec<(&str, &cache::ExactEntry)> =
        batch.iter().map(|p| (p.key.as_str(), &p.entry)).collect();
    let out = cache.commit_exact_batch(&refs)?;
    drop(refs);
    Ok((batch, out))
}

fn joined(r: Result<Committed, tokio::task::JoinError>) -> Committed {
    r.map_err(|e| RemoteError::Runtime {
        detail: e.to_string(),
    })?
}

fn exact_bytes(e: &cache::ExactEntry) -> u64 {
    e.manifest.len() as u64 + e.files.values().map(|b| b.len() as u64).sum::<u64>()
}

/// Brings the entries of `socs` (in the cache's toolkit scope) that the cache lacks.
pub fn pull(
    cache: &Arc<Cache>,
    remote: &Remote,
    versions: &(String, String),
    socs: &[String],
    opts: &Options,
    progress: &(dyn Progress + Sync),
) -> Result<PullReport, RemoteError> {
    let mut rep = PullReport {
        store: remote.label().to_owned(),
        dry_run: opts.dry_run,
        ..PullReport::default()
    };
    let local: BTreeSet<String> = cache
        .live_entries(&NoProgress)?
        .into_iter()
        .map(|e| e.key)
        .collect();
    let lang = opts.lang;
    let rt = runtime(opts.jobs)?;
    rt.block_on(async {
        let mut todo = Vec::new();
        for soc in socs {
            let scope = Scope {
                soc: soc.clone(),
                adk_version: versions.0.clone(),
                ops_version: versions.1.clone(),
            };
            let mut by_key: BTreeMap<String, Vec<ObjectName>> = BTreeMap::new();
            for n in remote.list(&scope).await? {
                by_key.entry(n.key(&scope)).or_default().push(n);
            }
            for (key, mut names) in by_key {
                if names.len() > 1 {
                    rep.conflicts += 1;
                }
                names.sort();
                if local.contains(&key) {
                    rep.present += 1;
                } else if let Some(n) = names.into_iter().next() {
                    todo.push((scope.clone(), key, n));
                }
            }
            rep.scopes.push(scope);
        }
        progress.set_total(todo.len() as u64);
        let dry = opts.dry_run;
        // Downloads run in parallel; verified entries are committed in batches, one batch at
        // a time while the next downloads, so a durable pull pays two flushes per batch
        // instead of three `fsync`s per entry (see `Cache::commit_exact_batch`).
        let mut downloads = stream::iter(todo)
            .map(|(scope, key, name)| async move {
                let object = format!("{}/{}", scope.dir(), name.rel());
                let refuse = |why| Ok(Fetched::Refused(Refusal { object, why }));
                let Some(bytes) = remote.get(&scope, &name).await? else {
                    return refuse(msg::why_missing(lang));
                };
                if bytes.len() as u64 > layout::OBJECT_MAX {
                    return refuse(msg::why_format(lang, "larger than any entry"));
                }
                let entry = match layout::decode(&name, &scope, &bytes, lang) {
                    Ok(e) => e,
                    Err(why) => return refuse(why),
                };
                drop(bytes);
                progress.inc(1);
                Ok::<_, RemoteError>(Fetched::Ready(Pulled {
                    scope,
                    name,
                    key,
                    entry,
                }))
            })
            .buffer_unordered(opts.jobs.max(1));
        let mut first_err = None;
        let mut used: BTreeMap<Scope, Vec<ObjectName>> = BTreeMap::new();
        let mut batch: Vec<Pulled> = Vec::new();
        let mut batch_bytes = 0u64;
        let mut pending: Option<tokio::task::JoinHandle<Committed>> = None;
        let mut land = |done: Committed, rep: &mut PullReport, first_err: &mut Option<_>| {
            let (pulled, results) = match done {
                Ok(x) => x,
                Err(e) => {
                    first_err.get_or_insert(e);
                    return;
                }
            };
            for (p, r) in pulled.into_iter().zip(results) {
                match r {
                    Ok(ExactCommit::Committed(n)) => {
                        rep.pulled += 1;
                        rep.pulled_bytes += n;
                        used.entry(p.scope).or_default().push(p.name);
                    }
                    Ok(ExactCommit::Present) => rep.present += 1,
                    Err(e) => rep.refused.push(Refusal {
                        object: format!("{}/{}", p.scope.dir(), p.name.rel()),
                        why: msg::why_unusable(lang, &e.to_string()),
                    }),
                }
            }
        };
        loop {
            let next = downloads.next().await;
            let last = next.is_none();
            match next {
                None => {}
                Some(Err(e)) => {
                    first_err.get_or_insert(e);
                }
                Some(Ok(Fetched::Refused(r))) => rep.refused.push(r),
                Some(Ok(Fetched::Ready(p))) if dry => {
                    rep.pulled += 1;
                    rep.pulled_bytes += exact_bytes(&p.entry);
                }
                Some(Ok(Fetched::Ready(p))) => {
                    batch_bytes += exact_bytes(&p.entry);
                    batch.push(p);
                }
            }
            let full = batch.len() >= BATCH_ENTRIES || batch_bytes >= BATCH_BYTES;
            if !batch.is_empty() && (full || last) {
                if let Some(h) = pending.take() {
                    land(joined(h.await), &mut rep, &mut first_err);
                }
                let todo = std::mem::take(&mut batch);
                batch_bytes = 0;
                let cache = Arc::clone(cache);
                pending = Some(tokio::task::spawn_blocking(move || commit(&cache, todo)));
            }
            if last {
                break;
            }
        }
        if let Some(h) = pending.take() {
            land(joined(h.await), &mut rep, &mut first_err);
        }
        // A pull is a use: remote aging keeps what nodes still fetch.
        if !dry {
            let now = cann_runtime::cache::clock::system_now();
            for (scope, names) in &used {
                remote.record_use(scope, names, now).await?;
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok::<(), RemoteError>(()),
        }
    })?;
    rep.refused.sort_by(|a, b| a.object.cmp(&b.object));
    Ok(rep)
}
