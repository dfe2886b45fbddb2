//! `cargo xtask <task>`: repository chores that are not part of any crate.
//!
//! This file only dispatches. Each task lives in its own module; to add one, add a
//! module, a line to `TASKS` and an arm to `run`.

mod counts;
mod drill;
mod ensure;
mod fidelity;
mod flags;
mod git;
mod history;
mod regenerate;

use std::process::ExitCode;

/// Every task, with a one-line summary for `cargo xtask help`.
const TASKS: &[(&str, &str)] = &[
    (
        "regenerate",
        "write the docs site, JSON Schema and Markdown reference from spec/",
    ),
    (
        "check",
        "fail, naming each file, when a generated file is stale against spec/",
    ),
    (
        "fidelity",
        "per release, the spec against the upstream code (--mirrors or CANN_MIRRORS)",
    ),
    (
        "upstream-history",
        "read the adapter's release refs (--ascend, --hicann) into spec/history/",
    ),
    (
        "history-counts",
        "per release, the options the spec states with a source, and the retired ones",
    ),
    (
        "release-drill",
        "add a product and a release to a copy's spec only, rebuild, check cannctl",
    ),
];

fn run(task: &str, args: &[String]) -> Option<Result<(), Box<dyn std::error::Error>>> {
    Some(match task {
        "regenerate" => regenerate::run(ensure::Mode::Write).map_err(Into::into),
        "check" => regenerate::run(ensure::Mode::Check).map_err(Into::into),
        "release-drill" => drill::run(&workspace_root()),
        "history-counts" => counts::run(&workspace_root()),
        "fidelity" => fidelity::run(args).map_err(Into::into),
        "upstream-history" => history::run(args).map_err(Into::into),
        _ => return None,
    })
}

fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default()
}

fn usage() -> String {
    let mut s = String::from("usage: cargo xtask <task>\n\ntasks:\n");
    for (name, what) in TASKS {
        s.push_str(&format!("  {name:<16} {what}\n"));
    }
    s
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(task) = args.first() else {
        eprint!("{}", usage());
        return ExitCode::from(2);
    };
    if matches!(task.as_str(), "help" | "-h" | "--help") {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    match run(task, &args[1..]) {
        Some(Ok(())) => ExitCode::SUCCESS,
        Some(Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
        None => {
            eprint!("unknown task `{task}`\n\n{}", usage());
            ExitCode::from(2)
        }
    }
}
