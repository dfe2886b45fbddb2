//! `cannctl mem simulate|compare|plan`

use std::path::PathBuf;
use std::time::Duration;

use cann_memsim::PlanOptions;

use cann_runtime::memory::GrowthMode;

use super::{human_or_json, LangArg, OutputFormat};

/// Longest `--time-limit`: a day.
const MAX_TIME_LIMIT_SECS: u64 = 86_400;

/// Parsed before `--lang` is known, so the message is in English.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_TIME_LIMIT_SECS as f64 => Ok(Duration::from_secs_f64(s)),
        _ => Err(cann_i18n::catalog::mem::time_limit_invalid(
            cann_i18n::Lang::En,
            text,
            MAX_TIME_LIMIT_SECS,
        )),
    }
}

/// How a policy-2 pool grows when a bigger graph comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum GrowthArg {
    /// Free the pool and allocate one of the new size (the documentation).
    #[default]
    Documented,
    /// Keep the pool and add the shortfall in 2 MiB blocks (the engine's code).
    EngineCode,
}

impl From<GrowthArg> for GrowthMode {
    fn from(g: GrowthArg) -> Self {
        match g {
            GrowthArg::Documented => GrowthMode::Documented,
            GrowthArg::EngineCode => GrowthMode::EngineCode,
        }
    }
}

#[derive(Debug, clap::Subcommand)]
pub enum MemCommand {
    /// Replay a trace under one static_memory_policy: peak reserved and live
    /// bytes, backend calls, cleans, refused concurrent executions (exit 1 if any).
    Simulate {
        /// JSONL trace (see examples/traces/README.md) or a torch / torch_npu
        /// memory snapshot (`_dump_snapshot`, pickle or JSON).
        #[arg(long)]
        trace: PathBuf,
        /// static_memory_policy: 0, 1, 2, 3 or 4.
        #[arg(long)]
        policy: String,
        /// atomic_clean_policy: 0 or 1.
        #[arg(long = "atomic-clean", default_value = "0")]
        atomic_clean: String,
        /// Policy-2 pool growth model.
        #[arg(long, value_enum, default_value_t)]
        growth: GrowthArg,
        /// Device of a torch snapshot (default: the longest history).
        #[arg(long)]
        device: Option<usize>,
        #[arg(long, value_parser = human_or_json(), default_value = "human")]
        format: OutputFormat,
    },
    /// Replay a trace under every policy side by side.
    Compare {
        /// JSONL trace or torch memory snapshot.
        #[arg(long)]
        trace: PathBuf,
        /// atomic_clean_policy: 0 or 1.
        #[arg(long = "atomic-clean", default_value = "0")]
        atomic_clean: String,
        #[arg(long, value_enum, default_value_t)]
        growth: GrowthArg,
        #[arg(long)]
        device: Option<usize>,
        #[arg(long, value_parser = human_or_json(), default_value = "human")]
        format: OutputFormat,
        /// Also draw reserved and live bytes over the trace to this SVG file.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Plan offsets for a graph's buffers in one arena against the LOAD bound.
    Plan {
        /// CSV `id,lower,upper,size[,memset]`, lifetimes half-open.
        #[arg(long)]
        buffers: PathBuf,
        /// atomic_clean_policy: 0 or 1 (both are planned; this one is reported first).
        #[arg(long = "atomic-clean", default_value = "0")]
        atomic_clean: String,
        #[arg(long, value_parser = human_or_json(), default_value = "human")]
        format: OutputFormat,
        /// Write `id,lower,upper,size,memset,offset` for the reported plan here.
        #[arg(long)]
        offsets: Option<PathBuf>,
        /// Seconds the whole search may take (it stops earlier when the plan is
        /// proven optimal or its work budget is spent).
        #[arg(long = "time-limit", default_value = "5", value_parser = parse_seconds)]
        time_limit: Duration,
        /// Threads for the search; the plan is the same for any number.
        /// Default: the available cores, at most 4.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// Seed of the search's noise: the same seed gives the same plan.
        #[arg(long, default_value_t = PlanOptions::default().seed)]
        seed: u64,
        /// Language of errors and of the human report.
        #[arg(long, value_enum, default_value_t)]
        lang: LangArg,
    },
}
