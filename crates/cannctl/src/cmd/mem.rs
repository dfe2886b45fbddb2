//! `cannctl mem`: what each `static_memory_policy` / `atomic_clean_policy`
//! does to a workload, on the runtime's own engine (`cann_memsim` over `cann_runtime::memory`).
//! Thin: arguments in, library call, text or JSON out.

mod strategy;

use std::io::Write;
use std::path::Path;

use cann_runtime::memory::{self as rt, GrowthMode};

use crate::cli::{MemCommand, OutputFormat};
use crate::render::progress::Progress;
use cann_memsim::report::{growth_name, human_bytes, offsets_csv};
use cann_memsim::{
    compare, load_buffers_in, load_trace, render_svg, replay, CleanComparison, ImportOptions,
    ImportReport, PlanOptions, PlanSummary, ReplayConfig, SimSummary, Trace,
};

use cann_i18n::catalog::{cli as cli_msg, mem as msg};
use cann_i18n::Lang;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Policy codes are parsed by the spec's types, so the values offered are the spec's; the
/// words are the catalog's, in `lang`.
fn static_policy(text: &str, lang: Lang) -> Result<rt::StaticMemoryPolicy, BoxError> {
    text.trim()
        .parse::<rt::StaticMemoryPolicy>()
        .map_err(|e| not_a_value(&e, lang))
}

fn clean_policy(text: &str, lang: Lang) -> Result<rt::AtomicCleanPolicy, BoxError> {
    text.trim()
        .parse::<rt::AtomicCleanPolicy>()
        .map_err(|e| not_a_value(&e, lang))
}

fn not_a_value(e: &cann_config::EnumError, lang: Lang) -> BoxError {
    use cann_i18n::catalog::config as cfg;
    let shown = format!("`{}`", e.text);
    let expected = lang.join(e.expected.iter().map(|v| format!("`{v}`")));
    format!(
        "{}{}{}",
        cfg::not_a_value(lang, &shown, e.option),
        if lang == Lang::Zh { "；" } else { "; " },
        cfg::one_of(lang, &expected)
    )
    .into()
}

/// A trace or snapshot that cannot be read, or whose content breaks the trace format, is
/// said in `lang`.
fn in_lang(e: cann_memsim::MemsimError, lang: Lang) -> BoxError {
    use cann_memsim::MemsimError as E;
    match e {
        E::Read(r) => r.message(lang).into(),
        E::Trace { place, error } => format!("{place}: {}", error.message(lang)).into(),
        E::Import { place, error } => format!(
            "{place}: {}",
            msg::trace_importing(lang, &error.message(lang))
        )
        .into(),
        // The event that was refused, or the session's set-up or close (no line).
        E::Replay { place, source } => {
            let why = super::engine::session(&source, lang);
            let text = match place.line {
                Some(_) => msg::engine_refused(lang, &why),
                None => msg::engine_session_refused(lang, &why),
            };
            format!("{place}: {text}").into()
        }
        E::Io { path, source } => format!(
            "{}: {}",
            path.display(),
            cann_input::io_reason(&source, lang)
        )
        .into(),
        other => other.into(),
    }
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
    lang: Lang,
) -> std::io::Result<()> {
    let (events, graphs, execs) = (trace.events.len(), trace.graphs.len(), trace.execs.len());
    writeln!(
        out,
        "{}",
        msg::trace_read(lang, &trace.origin, events, graphs, execs)
    )?;
    let Some(r) = import else {
        return Ok(());
    };
    writeln!(
        out,
        "  {}",
        msg::torch_snapshot_read(lang, r.form, r.device, r.devices, r.entries, r.allocs, r.frees)
    )?;
    let note = cli_msg::label_note(lang);
    if r.unmatched_frees > 0 {
        let bytes = human_bytes(r.unmatched_free_bytes);
        let text = msg::torch_unmatched_frees(lang, r.unmatched_frees, &bytes);
        writeln!(out, "  {note}: {text}")?;
    }
    if r.prelive_blocks > 0 {
        let bytes = human_bytes(r.prelive_block_bytes);
        let text = msg::torch_prelive_blocks(lang, r.prelive_blocks, &bytes);
        writeln!(out, "  {note}: {text}")?;
    }
    if let Some(p) = r.recorded_peak_reserved_bytes {
        writeln!(out, "  {}", msg::torch_recorded_peak(lang, &human_bytes(p)))?;
    }
    for (action, n) in &r.ignored_actions {
        let text = msg::torch_ignored_action(lang, *n, action);
        writeln!(out, "  {note}: {text}")?;
    }
    Ok(())
}

fn human_sim(out: &mut dyn Write, s: &SimSummary, lang: Lang) -> std::io::Result<()> {
    let head = if s.policy != s.effective_policy {
        msg::sim_policies_alias(lang, s.policy, s.effective_policy, s.atomic_clean, s.growth)
    } else {
        msg::sim_policies(lang, s.policy, s.atomic_clean, s.growth)
    };
    writeln!(out, "{head}")?;
    let rows = [
        (
            msg::sim_peak_reserved(lang),
            format!(
                "{} ({} B)",
                human_bytes(s.peak_reserved_bytes),
                s.peak_reserved_bytes
            ),
        ),
        (
            msg::sim_peak_live(lang),
            format!(
                "{} ({} B)",
                human_bytes(s.peak_live_bytes),
                s.peak_live_bytes
            ),
        ),
        (
            msg::sim_reserved_to_live(lang),
            format!("{:.3}", s.reserved_to_live),
        ),
        (
            msg::sim_backend_calls(lang),
            msg::sim_backend_calls_value(lang, s.backend_alloc_calls, s.backend_free_calls),
        ),
        (
            msg::sim_cleans(lang),
            msg::sim_cleans_value(lang, s.clean_ops, &human_bytes(s.clean_bytes)),
        ),
        (
            msg::sim_executions(lang),
            msg::sim_executions_value(lang, s.executions, s.refused_concurrent),
        ),
    ];
    // Labels padded by display width, so the values line up after Chinese labels too.
    let width = rows
        .iter()
        .map(|(l, _)| console::measure_text_width(l))
        .max()
        .unwrap_or(0);
    for (label, value) in rows {
        let pad = " ".repeat(width - console::measure_text_width(&label));
        writeln!(out, "  {label}{pad}  {value}")?;
    }
    Ok(())
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
            lang,
        } => {
            let lang: Lang = (*lang).into();
            let policy = static_policy(policy, lang)?;
            let cfg = ReplayConfig {
                policy,
                atomic_clean: clean_policy(atomic_clean, lang)?,
                growth: (*growth).into(),
            };
            let (trace, import) = load_trace(trace, ImportOptions { device: *device })
                .map_err(|e| in_lang(e, lang))?;
            let r = replay(&trace, cfg).map_err(|e| in_lang(e, lang))?;
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
                    describe(out, &trace, import.as_ref(), lang)?;
                    human_sim(out, &s, lang)?;
                    let error = cli_msg::label_error(lang);
                    for x in &s.refused {
                        let text = msg::sim_refused(
                            lang,
                            &trace.origin,
                            x.line,
                            &x.exec,
                            &x.graph,
                            s.policy,
                        );
                        writeln!(out, "{error}: {text}")?;
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
            lang,
        } => {
            let lang: Lang = (*lang).into();
            let growth: GrowthMode = (*growth).into();
            let (trace, import) = load_trace(trace, ImportOptions { device: *device })
                .map_err(|e| in_lang(e, lang))?;
            let all = compare(&trace, clean_policy(atomic_clean, lang)?, growth)
                .map_err(|e| in_lang(e, lang))?;
            let sums: Vec<SimSummary> = all
                .iter()
                .map(|r| SimSummary::new(r.config.policy, r))
                .collect();
            if let Some(path) = plot {
                let title = msg::compare_plot_title(lang, &trace.origin);
                write_atomic(path, &render_svg(&title, trace.events.len(), &all, lang)?)?;
            }
            match format {
                OutputFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&sums)?)?,
                OutputFormat::Human
                | OutputFormat::Sarif
                | OutputFormat::Github
                | OutputFormat::Gitlab => {
                    describe(out, &trace, import.as_ref(), lang)?;
                    let growth = growth_name(growth);
                    writeln!(out, "{}", msg::compare_header(lang, growth))?;
                    write!(out, "{}", compare_table(&sums, lang))?;
                    if let Some(p) = plot {
                        let path = p.display().to_string();
                        writeln!(out, "{}", msg::compare_plot_written(lang, &path))?;
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
            let requested = clean_policy(atomic_clean, lang)?;
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
            let progress = spinner(*time_limit, lang);
            let cmp = CleanComparison::observed(&bufs, opts, &|p| show(&progress, p, lang));
            progress.finish();
            let cmp = cmp?;
            let s = PlanSummary::new(&bufs, &cmp, requested.code());
            if let Some(path) = offsets {
                let chosen = if requested.behaviour() == rt::AtomicClean::Separate {
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
                    plan_report(out, &s, buffers, offsets.as_deref(), lang)?;
                }
            }
            Ok(0)
        }
    }
}

/// `mem compare`'s table: one row per policy, numbers right-aligned under headings measured
/// by display width.
fn compare_table(sums: &[SimSummary], lang: Lang) -> String {
    let header = [
        msg::compare_policy(lang),
        msg::sim_peak_reserved(lang),
        msg::sim_peak_live(lang),
        msg::sim_reserved_to_live(lang),
        msg::compare_allocs(lang),
        msg::compare_frees(lang),
        msg::sim_cleans(lang),
        msg::compare_clean_bytes(lang),
        msg::compare_refused(lang),
    ];
    let rows: Vec<Vec<String>> = sums
        .iter()
        .map(|s| {
            vec![
                s.policy.to_string(),
                human_bytes(s.peak_reserved_bytes),
                human_bytes(s.peak_live_bytes),
                format!("{:.3}", s.reserved_to_live),
                s.backend_alloc_calls.to_string(),
                s.backend_free_calls.to_string(),
                s.clean_ops.to_string(),
                human_bytes(s.clean_bytes),
                s.refused_concurrent.to_string(),
            ]
        })
        .collect();
    crate::render::table::numbers(&header, &rows)
}

/// `mem plan`'s human report.
fn plan_report(
    out: &mut dyn Write,
    s: &PlanSummary,
    buffers: &Path,
    offsets: Option<&Path>,
    lang: Lang,
) -> std::io::Result<()> {
    let path = buffers.display().to_string();
    writeln!(
        out,
        "{}",
        msg::plan_read(lang, &path, s.buffers, s.memset_buffers)
    )?;
    let chosen = msg::plan_chosen(
        lang,
        s.atomic_clean,
        &human_bytes(s.arena_bytes),
        s.arena_bytes,
        &human_bytes(s.load_bytes),
        s.load_bytes,
        &format!("{:.4}", s.ratio),
    );
    writeln!(out, "{chosen}")?;
    writeln!(out, "  {}", quality(s, lang))?;
    for p in &s.policies {
        let line = msg::plan_policy(
            lang,
            p.atomic_clean,
            &human_bytes(p.arena_bytes),
            &human_bytes(p.load_bytes),
            &format!("{:.4}", p.ratio),
            p.clean_ops,
            &human_bytes(p.clean_bytes),
            &strategy::words(&p.found_by, lang),
        );
        writeln!(out, "  {line}")?;
    }
    let difference = msg::plan_policy_difference(
        lang,
        s.centralized_extra_arena_bytes,
        s.centralized_extra_load_bytes,
        -s.separate_extra_clean_ops,
    );
    writeln!(out, "{difference}")?;
    if let Some(p) = offsets {
        let path = p.display().to_string();
        writeln!(out, "{}", msg::plan_offsets_written(lang, &path))?;
    }
    Ok(())
}

/// The cores to search on by default: what the machine offers, at most 4
/// (the plan is the same for any number; more only finishes sooner).
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// One line on how good the reported plan is.
fn quality(s: &PlanSummary, lang: cann_i18n::Lang) -> String {
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

/// The spinner while the planner searches, shown when the search may take a while.
fn spinner(limit: std::time::Duration, lang: Lang) -> Progress {
    let template = msg::plan_spinner(lang, &format!("{:.0?}", limit));
    Progress::spinner(&template, limit >= std::time::Duration::from_secs(1))
}

/// The best arena and bound so far, beside the time.
fn show(progress: &Progress, p: cann_memsim::Progress, lang: Lang) {
    let gap = if p.lower_bound == 0 {
        0.0
    } else {
        100.0 * (p.arena as f64 / p.lower_bound as f64 - 1.0)
    };
    progress.set_message(msg::plan_spinner_best(
        lang,
        &human_bytes(p.arena),
        &human_bytes(p.lower_bound),
        &format!("{gap:.2}"),
    ));
}
