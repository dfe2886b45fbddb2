//! `cannctl mem`: what each `static_memory_policy` / `atomic_clean_policy`
//! does to a workload, on the runtime's own engine (`cann_memsim` over `cann_runtime::memory`).
//! Thin: arguments in, library call, text or JSON out.

use std::io::Write;
use std::path::Path;

use cann_runtime::memory::{self as rt, GrowthMode};

use crate::cli::{MemCommand, OutputFormat};
use cann_memsim::report::{growth_name, human_bytes, offsets_csv};
use cann_memsim::{
    compare, load_buffers_in, load_trace, render_svg, replay, CleanComparison, ImportOptions,
    ImportReport, PlanOptions, PlanSummary, ReplayConfig, SimSummary, Trace,
};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Policy codes are parsed by the spec's types, so invalid values get the spec's message.
fn static_policy(text: &str) -> Result<rt::StaticMemoryPolicy, BoxError> {
    Ok(text.trim().parse::<rt::StaticMemoryPolicy>()?)
}

fn clean_policy(text: &str) -> Result<rt::AtomicCleanPolicy, BoxError> {
    Ok(text.trim().parse::<rt::AtomicCleanPolicy>()?)
}

/// Writes `text` beside `path` and renames it over, so a failure leaves the old file.
fn write_atomic(path: &Path, text: &str) -> Result<(), BoxError> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let res = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{}: {e}", path.display()).into());
    }
    Ok(())
}

fn describe(
    out: &mut dyn Write,
    trace: &Trace,
    import: Option<&ImportReport>,
) -> std::io::Result<()> {
    writeln!(
        out,
        "trace {}: {} events, {} graphs, {} executions",
        trace.origin,
        trace.events.len(),
        trace.graphs.len(),
        trace.execs.len()
    )?;
    if let Some(r) = import {
        writeln!(
            out,
            "  torch snapshot ({}), device {} of {}: {} entries, {} allocs, {} frees",
            r.form, r.device, r.devices, r.entries, r.allocs, r.frees
        )?;
        if r.unmatched_frees > 0 {
            writeln!(
                out,
                "  note: {} frees of allocations made before the recorded window ({}); replayed as live from the start",
                r.unmatched_frees,
                human_bytes(r.unmatched_free_bytes)
            )?;
        }
        if r.prelive_blocks > 0 {
            writeln!(
                out,
                "  note: {} blocks allocated before the window and never freed ({})",
                r.prelive_blocks,
                human_bytes(r.prelive_block_bytes)
            )?;
        }
        if let Some(p) = r.recorded_peak_reserved_bytes {
            writeln!(
                out,
                "  torch's caching allocator peaked at {} reserved",
                human_bytes(p)
            )?;
        }
        for (action, n) in &r.ignored_actions {
            writeln!(
                out,
                "  note: {n} entries with unknown action `{action}` ignored"
            )?;
        }
    }
    Ok(())
}

fn human_sim(out: &mut dyn Write, s: &SimSummary) -> std::io::Result<()> {
    let alias = if s.policy != s.effective_policy {
        format!(" (runs as {})", s.effective_policy)
    } else {
        String::new()
    };
    writeln!(
        out,
        "static_memory_policy {}{alias}, atomic_clean_policy {}, pool growth {}",
        s.policy, s.atomic_clean, s.growth
    )?;
    writeln!(
        out,
        "  peak reserved    {} ({} B)",
        human_bytes(s.peak_reserved_bytes),
        s.peak_reserved_bytes
    )?;
    writeln!(
        out,
        "  peak live        {} ({} B)",
        human_bytes(s.peak_live_bytes),
        s.peak_live_bytes
    )?;
    writeln!(out, "  reserved / live  {:.3}", s.reserved_to_live)?;
    writeln!(
        out,
        "  backend calls    {} alloc, {} free",
        s.backend_alloc_calls, s.backend_free_calls
    )?;
    writeln!(
        out,
        "  cleans           {} ops, {}",
        s.clean_ops,
        human_bytes(s.clean_bytes)
    )?;
    writeln!(
        out,
        "  executions       {} run, {} refused",
        s.executions, s.refused_concurrent
    )
}

/// `mem simulate --format json`: the summary, plus what a snapshot import found.
#[derive(serde::Serialize)]
struct SimJson<'a> {
    #[serde(flatten)]
    summary: &'a SimSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    import: Option<&'a ImportReport>,
}

pub fn run(cmd: &MemCommand, out: &mut dyn Write) -> Result<u8, BoxError> {
    match cmd {
        MemCommand::Simulate {
            trace,
            policy,
            atomic_clean,
            growth,
            device,
            format,
        } => {
            let policy = static_policy(policy)?;
            let cfg = ReplayConfig {
                policy,
                atomic_clean: clean_policy(atomic_clean)?,
                growth: (*growth).into(),
            };
            let (trace, import) = load_trace(trace, ImportOptions { device: *device })?;
            let r = replay(&trace, cfg)?;
            let s = SimSummary::new(policy, &r);
            match format {
                OutputFormat::Json => {
                    let v = SimJson {
                        summary: &s,
                        import: import.as_ref(),
                    };
                    writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
                }
                OutputFormat::Human
                | OutputFormat::Sarif
                | OutputFormat::Github
                | OutputFormat::Gitlab => {
                    describe(out, &trace, import.as_ref())?;
                    human_sim(out, &s)?;
                    for x in &s.refused {
                        writeln!(
                            out,
                            "error: {}:{}: execution `{}` of graph `{}` refused: static_memory_policy {} does not allow graphs of a session to run concurrently",
                            trace.origin, x.line, x.exec, x.graph, s.policy
                        )?;
                    }
                }
            }
            Ok(u8::from(s.refused_concurrent > 0))
        }
        MemCommand::Compare {
            trace,
            atomic_clean,
            growth,
            device,
            format,
            plot,
        } => {
            let growth: GrowthMode = (*growth).into();
            let (trace, import) = load_trace(trace, ImportOptions { device: *device })?;
            let all = compare(&trace, clean_policy(atomic_clean)?, growth)?;
            let sums: Vec<SimSummary> = all
                .iter()
                .map(|r| SimSummary::new(r.config.policy, r))
                .collect();
            if let Some(path) = plot {
                let title = format!("{}: reserved (thick) and live (thin) bytes", trace.origin);
                write_atomic(path, &render_svg(&title, trace.events.len(), &all)?)?;
            }
            match format {
                OutputFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&sums)?)?,
                OutputFormat::Human
                | OutputFormat::Sarif
                | OutputFormat::Github
                | OutputFormat::Gitlab => {
                    describe(out, &trace, import.as_ref())?;
                    writeln!(
                        out,
                        "pool growth {}; policy 1 runs as 2 and is not shown",
                        growth_name(growth)
                    )?;
                    writeln!(
                        out,
                        "{:>6} {:>14} {:>14} {:>8} {:>7} {:>7} {:>6} {:>12} {:>7}",
                        "policy",
                        "peak reserved",
                        "peak live",
                        "res/live",
                        "allocs",
                        "frees",
                        "cleans",
                        "clean bytes",
                        "refused"
                    )?;
                    for s in &sums {
                        writeln!(
                            out,
                            "{:>6} {:>14} {:>14} {:>8.3} {:>7} {:>7} {:>6} {:>12} {:>7}",
                            s.policy,
                            human_bytes(s.peak_reserved_bytes),
                            human_bytes(s.peak_live_bytes),
                            s.reserved_to_live,
                            s.backend_alloc_calls,
                            s.backend_free_calls,
                            s.clean_ops,
                            human_bytes(s.clean_bytes),
                            s.refused_concurrent
                        )?;
                    }
                    if let Some(p) = plot {
                        writeln!(out, "plot written to {}", p.display())?;
                    }
                }
            }
            Ok(0)
        }
        MemCommand::Plan {
            buffers,
            atomic_clean,
            format,
            offsets,
            time_limit,
            threads,
            seed,
            lang,
        } => {
            let lang: cann_i18n::Lang = (*lang).into();
            let requested = clean_policy(atomic_clean)?;
            let bufs = load_buffers_in(buffers, lang)?;
            // Both policies are planned when memset outputs make them differ;
            // they share the time limit.
            let plans = if bufs.iter().any(|b| b.memset) { 2 } else { 1 };
            let opts = PlanOptions {
                time_limit: *time_limit / plans,
                threads: threads.map_or_else(default_threads, usize::from),
                seed: *seed,
                ..PlanOptions::default()
            };
            let progress = Progress::start(*time_limit);
            let cmp = CleanComparison::new(&bufs, opts);
            progress.finish();
            let cmp = cmp?;
            let s = PlanSummary::new(&bufs, &cmp, requested.code());
            if let Some(path) = offsets {
                let chosen = if requested == rt::AtomicCleanPolicy::Separate {
                    &cmp.separate
                } else {
                    &cmp.centralized
                };
                write_atomic(path, &offsets_csv(&bufs, &chosen.plan.offsets))?;
            }
            match format {
                OutputFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&s)?)?,
                OutputFormat::Human
                | OutputFormat::Sarif
                | OutputFormat::Github
                | OutputFormat::Gitlab => {
                    writeln!(
                        out,
                        "{}: {} buffers ({} memset outputs)",
                        buffers.display(),
                        s.buffers,
                        s.memset_buffers
                    )?;
                    writeln!(out, "atomic_clean_policy {}: arena {} ({} B), LOAD {} ({} B), ratio {:.4}, verified", s.atomic_clean, human_bytes(s.arena_bytes), s.arena_bytes, human_bytes(s.load_bytes), s.load_bytes, s.ratio)?;
                    writeln!(out, "  {}", quality(&s, lang))?;
                    for p in &s.policies {
                        writeln!(out, "  policy {}: arena {}, LOAD {}, ratio {:.4}, {} clean ops, {} cleaned ({})", p.atomic_clean, human_bytes(p.arena_bytes), human_bytes(p.load_bytes), p.ratio, p.clean_ops, human_bytes(p.clean_bytes), p.found_by)?;
                    }
                    writeln!(
                        out,
                        "policy 0 over 1: {:+} B of arena ({:+} B of LOAD, the unavoidable part), {:+} clean launches",
                        s.centralized_extra_arena_bytes, s.centralized_extra_load_bytes, -s.separate_extra_clean_ops
                    )?;
                    if let Some(p) = offsets {
                        writeln!(out, "offsets written to {}", p.display())?;
                    }
                }
            }
            Ok(0)
        }
    }
}

/// The cores to search on by default: what the machine offers, at most 4
/// (the plan is the same for any number; more only finishes sooner).
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// One line on how good the reported plan is.
fn quality(s: &PlanSummary, lang: cann_i18n::Lang) -> String {
    use cann_i18n::catalog::mem as msg;
    let mut line = if s.proven_optimal {
        msg::plan_proven_optimal(lang)
    } else {
        let gap = if s.lower_bound_bytes == 0 {
            0.0
        } else {
            100.0 * (s.arena_bytes as f64 / s.lower_bound_bytes as f64 - 1.0)
        };
        msg::plan_gap(lang, s.lower_bound_bytes, &format!("{gap:.2}"))
    };
    if s.timed_out {
        line.push_str("; ");
        line.push_str(&msg::plan_stopped_by_time(lang));
    }
    line
}

/// A spinner on standard error while the planner searches, only when that
/// is a terminal and the search may take a while.
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    fn start(limit: std::time::Duration) -> Self {
        use std::io::IsTerminal;
        if !std::io::stderr().is_terminal() || limit < std::time::Duration::from_secs(1) {
            return Self(None);
        }
        let bar = indicatif::ProgressBar::new_spinner();
        if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
            "{{spinner}} planning {{elapsed}} / {:.0?}",
            limit
        )) {
            bar.set_style(style);
        }
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Self(Some(bar))
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
