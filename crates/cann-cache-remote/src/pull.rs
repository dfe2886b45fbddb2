//! Pull: which objects a node takes (its scopes and binary formats, see [`crate::sync`]),
//! fetched and verified in parallel, committed in batches with grouped flushes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use futures::stream::{self, StreamExt};

use cann_i18n::catalog::remote as msg;
use cann_runtime::cache::{self, Cache, ExactCommit, NoProgress, Progress};

use crate::binfmt;
use crate::error::RemoteError;
use crate::layout::{self, ObjectName, Scope};
use crate::store::Remote;
use crate::sync::{exact_bytes, runtime, Options, OtherFormat, PullReport, Refusal};

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

/// The binary formats this node takes per SoC of `socs`: those `opts` names for every SoC,
/// else those of its own live entries (a SoC without any is absent).
fn own_formats(
    cache: &Cache,
    live: &[cache::LiveEntry],
    socs: &[String],
    opts: &Options,
) -> Result<BTreeMap<String, BTreeSet<String>>, RemoteError> {
    let mut own: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    if !opts.binary_formats.is_empty() {
        for soc in socs {
            own.insert(soc.clone(), opts.binary_formats.iter().cloned().collect());
        }
        return Ok(own);
    }
    for e in live {
        let Some((soc, _)) = e.key.split_once('/') else {
            continue;
        };
        if !socs.iter().any(|s| s == soc) {
            continue;
        }
        // An entry unreadable now tells nothing; the others still do.
        if let Ok(heads) = cache.read_heads(&e.key, binfmt::HEAD)? {
            own.entry(soc.to_owned())
                .or_default()
                .insert(binfmt::entry_format(heads.iter().map(Vec::as_slice)));
        }
    }
    Ok(own)
}

/// The objects of `scope` to fetch: per key the local cache lacks, the smallest hash (the
/// one every node takes).
fn pick(
    scope: &Scope,
    names: Vec<ObjectName>,
    local: &BTreeSet<String>,
    rep: &mut PullReport,
    todo: &mut Vec<(Scope, String, ObjectName)>,
) {
    let mut by_key: BTreeMap<String, Vec<ObjectName>> = BTreeMap::new();
    for n in names {
        by_key.entry(n.key(scope)).or_default().push(n);
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
    let live = cache.live_entries(&NoProgress)?;
    let own = own_formats(cache, &live, socs, opts)?;
    let local: BTreeSet<String> = live.into_iter().map(|e| e.key).collect();
    let lang = opts.lang;
    let rt = runtime(opts.jobs)?;
    rt.block_on(async {
        let mut todo = Vec::new();
        for soc in socs {
            let base = Scope {
                soc: soc.clone(),
                adk_version: versions.0.clone(),
                ops_version: versions.1.clone(),
                binary_format: String::new(),
            };
            rep.old_layout += remote.old_objects(&base).await?;
            let stored = remote.formats(&base).await?;
            let wanted: Vec<String> = match own.get(soc) {
                Some(f) => f.iter().cloned().collect(),
                None if stored.len() == 1 => stored.clone(),
                None => Vec::new(),
            };
            for f in &stored {
                let scope = Scope {
                    binary_format: f.clone(),
                    ..base.clone()
                };
                let names = remote.list(&scope).await?;
                if !wanted.contains(f) {
                    let reason = if wanted.is_empty() {
                        msg::why_format_unknown(lang, f, &stored.join(", "))
                    } else {
                        msg::why_other_format(lang, f, &wanted.join(", "))
                    };
                    rep.other_formats.push(OtherFormat {
                        soc: soc.clone(),
                        binary_format: f.clone(),
                        objects: names.len() as u64,
                        reason,
                    });
                    continue;
                }
                pick(&scope, names, &local, &mut rep, &mut todo);
                rep.scopes.push(scope);
            }
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
