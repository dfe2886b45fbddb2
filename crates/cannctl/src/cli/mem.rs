//! `cannctl mem simulate|compare|plan`

use std::path::PathBuf;
use std::time::Duration;

use cann_memsim::PlanOptions;

use cann_runtime::memory::GrowthMode;

use super::{human_or_json, LangArg, OutputFormat};

/// Longest `--time-limit`: a day.
const MAX_TIME_LIMIT_SECS: u64 = 86_400;

/// Worded by [`crate::usage`] in the language the command line is read in.
fn parse_seconds(text: &str) -> Result<Duration, super::FlagValueError> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_TIME_LIMIT_SECS as f64 => Ok(Duration::from_secs_f64(s)),
        _ => Err(super::FlagValueError::Seconds {
            text: text.to_owned(),
            max: MAX_TIME_LIMIT_SECS,
        }),
    }
}

// How a policy-2 pool grows when a bigger graph comes: as documented, or as the engine's
// code does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum GrowthArg {
    #[default]
    Documented,
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
    Simulate {
        #[arg(long)]
        trace: PathBuf,
        #[arg(long)]
        policy: String,
        #[arg(long = "atomic-clean", default_value = "0")]
        atomic_clean: String,
        #[arg(long, value_enum, default_value_t)]
        growth: GrowthArg,
        #[arg(long)]
        device: Option<usize>,
        #[arg(long, value_parser = human_or_json(), default_value = "human")]
        format: OutputFormat,
        #[arg(long, value_enum, default_value_t)]
        lang: LangArg,
    },
    Compare {
        #[arg(long)]
        trace: PathBuf,
        #[arg(long = "atomic-clean", default_value = "0")]
        atomic_clean: String,
        #[arg(long, value_enum, default_value_t)]
        growth: GrowthArg,
        #[arg(long)]
        device: Option<usize>,
        #[arg(long, value_parser = human_or_json(), default_value = "human")]
        format: OutputFormat,
        #[arg(long)]
        plot: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t)]
        lang: LangArg,
    },
    Plan {
        #[arg(long)]
        buffers: PathBuf,
        #[arg(long = "atomic-clean", default_value = "0")]
        atomic_clean: String,
        #[arg(long, value_parser = human_or_json(), default_value = "human")]
        format: OutputFormat,
        #[arg(long)]
        offsets: Option<PathBuf>,
        #[arg(long = "time-limit", default_value = "5", value_parser = parse_seconds)]
        time_limit: Duration,
        #[arg(long, value_parser = super::u16_in(1, 256))]
        threads: Option<u16>,
        #[arg(long, default_value_t = PlanOptions::default().seed)]
        seed: u64,
        #[arg(long, value_enum, default_value_t)]
        lang: LangArg,
    },
}
