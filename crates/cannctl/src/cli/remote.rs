//! Arguments of `cannctl cache push|pull`: the shared store and how to talk to it.

use clap::Args;

/// Which shared store, and how a transfer runs.
#[derive(Debug, Clone, Args)]
pub struct RemoteArgs {
    /// The shared store: a path or file:///dir, redis://host:port/db (rediss:// for TLS), or
    /// s3://bucket/prefix (endpoint and region from ?endpoint=&region= or AWS_ENDPOINT_URL,
    /// AWS_REGION). Credentials only from the environment: AWS_ACCESS_KEY_ID,
    /// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, REDIS_USERNAME, REDIS_PASSWORD
    #[arg(long, value_name = "URL")]
    pub remote: String,
    /// Show what would move without writing anything (a pull still fetches and verifies)
    #[arg(long)]
    pub dry_run: bool,
    /// Transfers in flight at once
    #[arg(long, default_value_t = 16, value_parser = super::u16_in(1, 256))]
    pub jobs: u16,
}
