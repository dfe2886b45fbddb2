//! Push and pull: which entries move, in parallel, and what is reported.
//!
//! Push uploads the live local entries (not torn, not invalidated) whose key the remote scope
//! lacks; each entry's scope includes its binaries' format, told from their first bytes. A
//! key the scope already has, under any hash, is "already there", so a second push reads
//! those first bytes only and writes nothing. Pull brings the entries of the node's scopes
//! whose key the local cache lacks; each object is verified (hash, format, key, scope, and
//! the binaries' format from their bytes) before the local commit, and a refused one is
//! reported while the others still arrive.
//!
//! Which binary formats a node pulls, per SoC: those given (`--binary-format`), else those
//! of its own entries of that SoC, else, on a node with none, the one format the store holds
//! for that SoC and toolkit when it holds exactly one. Formats not pulled are reported with
//! why ([`OtherFormat`]); they are not errors (a mixed cluster shares one store). When a key has several
//! objects (two nodes compiled it differently and pushed at the same moment), every node takes
//! the smallest hash, so concurrent pullers agree.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use futures::stream::{self, StreamExt};

use cann_i18n::catalog::remote as msg;
use cann_i18n::Lang;
use cann_runtime::cache::{self, Cache, CacheDir, NoProgress, Progress};

use crate::binfmt;
use crate::error::RemoteError;
use crate::layout::{self, ObjectName, Scope};
use crate::store::Remote;

/// How a transfer runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Decide (and for a pull, fetch and verify) but write nothing.
    pub dry_run: bool,
    /// Transfers in flight at once.
    pub jobs: usize,
    /// Language of the reasons in the report.
    pub lang: Lang,
    /// Pull: the binary formats this node takes (see the module text); empty to tell them
    /// from its own entries.
    pub binary_formats: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dry_run: false,
            jobs: 16,
            lang: Lang::En,
            binary_formats: Vec::new(),
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
    /// Binary formats stored for a pulled SoC and toolkit that this node does not take.
    pub other_formats: Vec<OtherFormat>,
    /// Objects of the first store layout (no binary format) for these scopes: never pulled.
    pub old_layout: u64,
}

/// A binary format of a SoC that a pull left in the store, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OtherFormat {
    pub soc: String,
    pub binary_format: String,
    /// Objects of that format.
    pub objects: u64,
    pub reason: String,
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

/// A `--binary-format` value: a name [`binfmt::entry_format`] can return.
pub fn check_binary_format(format: &str) -> Result<(), RemoteError> {
    if !binfmt::is_format_name(format) {
        return Err(RemoteError::BadBinaryFormat {
            format: format.to_owned(),
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
        let Some((soc, _)) = e.key.split_once('/') else {
            rep.skipped.push(Skipped {
                key: e.key,
                why: msg::why_no_soc(opts.lang),
            });
            continue;
        };
        let binary_format = match cache.read_heads(&e.key, binfmt::HEAD)? {
            Ok(heads) => binfmt::entry_format(heads.iter().map(Vec::as_slice)),
            Err(why) => {
                rep.skipped.push(Skipped { key: e.key, why });
                continue;
            }
        };
        by_scope
            .entry(Scope {
                soc: soc.to_owned(),
                adk_version: versions.0.clone(),
                ops_version: versions.1.clone(),
                binary_format,
            })
            .or_default()
            .push((e.key.clone(), e.bytes));
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
                    // Rewritten since its first bytes were read: its scope is not known.
                    if layout::format_of(&exact).as_deref() != Some(&scope.binary_format) {
                        return Ok(Err(Skipped {
                            key,
                            why: msg::why_changed(opts.lang),
                        }));
                    }
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

/// Bytes of an entry: its manifest and every file.
pub(crate) fn exact_bytes(e: &cache::ExactEntry) -> u64 {
    e.manifest.len() as u64 + e.files.values().map(|b| b.len() as u64).sum::<u64>()
}

pub use crate::pull::pull;
