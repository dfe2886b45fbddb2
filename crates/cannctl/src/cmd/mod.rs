//! One module per subcommand, plus what they share: reading a config and its target.

pub mod cache;
pub mod check;
pub mod completions;
pub mod diff;
pub mod emit;
mod engine;
pub mod explain;
pub mod lint;
pub mod mem;
pub mod options;
pub mod products;
pub mod remote;
pub mod schema;

use std::path::Path;

use cann_config::meta::Lang;
use cann_config::{ConfigFile, Product, Release, Target};

use crate::cli::TargetArgs;
use crate::CliError;

/// Config files hold a few dozen options; anything far larger is a mistake or an attack.
const CONFIG_LIMITS: cann_input::Limits = cann_input::Limits::new(4 * 1024 * 1024);

/// A `platform_config` ini file is a few kilobytes.
const SOC_INI_LIMITS: cann_input::Limits = cann_input::Limits::new(1024 * 1024);

/// A config file as read: its text (for carets) and what it says.
pub struct Loaded {
    pub name: String,
    pub text: String,
    pub file: ConfigFile,
}

/// Reads and parses a config file (`-` is standard input) through the one input layer:
/// `check`, `emit`, `explain` and `cache --config` accept and refuse the same files.
pub fn load(path: &Path, lang: Lang) -> Result<Loaded, CliError> {
    load_named(path, None, lang)
}

/// As [`load`]; standard input (`-`) is reported as `stdin_name` when given, which also
/// says whether it is JSON.
pub fn load_named(path: &Path, stdin_name: Option<&Path>, lang: Lang) -> Result<Loaded, CliError> {
    let text = cann_input::read_text(path, CONFIG_LIMITS)?;
    let named = match stdin_name {
        Some(n) if path == Path::new("-") => n,
        _ => path,
    };
    let name = cann_input::display_name(named);
    // A `.json` file is held to JSON; anything else is read as YAML, of which JSON is a part.
    let json = named
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("json"));
    load_text(&name, text, json, lang)
}

/// A config given as text (JSON only when `json`, else YAML); `name` stands for the file in
/// findings.
pub fn load_text(name: &str, text: String, json: bool, lang: Lang) -> Result<Loaded, CliError> {
    let parsed = if json {
        cann_config::parse_json_config_in(&text, lang)
    } else {
        cann_config::parse_config_in(&text, lang)
    };
    let file = parsed.map_err(|e| CliError::Parse {
        path: name.into(),
        line: e
            .pos
            .and_then(|p| text.lines().nth(p.line.saturating_sub(1) as usize))
            .map(str::to_string),
        pos: e.pos,
        message: e.message,
        hint: e.hint,
    })?;
    Ok(Loaded {
        name: name.to_string(),
        text,
        file,
    })
}

/// Core counts from a `platform_config` ini file.
pub fn soc_cores(path: &Path, lang: Lang) -> Result<cann_config::CoreCounts, CliError> {
    let text = cann_input::read_text(path, SOC_INI_LIMITS)?;
    let name = cann_input::display_name(path);
    cann_config::soc::parse_soc_ini(&text).map_err(|e| {
        CliError::Usage(
            format!("{name}: {}", e.message(lang)),
            Some(cann_i18n::catalog::config::soc_hint(lang)),
        )
    })
}

pub fn parse_release(id: &str, lang: Lang) -> Result<Release, CliError> {
    id.parse::<Release>().map_err(|e| unknown_id(&e, lang))
}

pub fn parse_product(id: &str, lang: Lang) -> Result<Product, CliError> {
    id.parse::<Product>().map_err(|e| unknown_id(&e, lang))
}

/// An unknown product or release id on the command line.
fn unknown_id(e: &cann_config::UnknownId, lang: Lang) -> CliError {
    CliError::Usage(e.message(lang), Some(e.expected(lang)))
}

/// Command line beats the file; the release defaults to the newest one.
pub fn target(args: &TargetArgs, file: &ConfigFile, lang: Lang) -> Result<Target, CliError> {
    use cann_i18n::catalog::cli as msg;
    let product = match &args.product {
        Some(p) => parse_product(p, lang)?,
        None => file.product.ok_or_else(|| {
            CliError::Usage(msg::no_product(lang), Some(msg::no_product_hint(lang)))
        })?,
    };
    let release = match &args.release {
        Some(r) => parse_release(r, lang)?,
        None => file.release.unwrap_or(Release::LATEST),
    };
    Ok(Target { product, release })
}

/// Parse findings and validation findings together, placed and ordered by position.
pub fn diagnose(
    loaded: &Loaded,
    target: Target,
    device: Option<cann_config::CoreCounts>,
    lang: cann_config::meta::Lang,
) -> Vec<cann_config::Diagnostic> {
    let mut report = cann_config::Report::new(lang);
    report.diagnostics = loaded.file.diagnostics.clone();
    cann_config::validate_on_device(&loaded.file.config, target, device, &mut report);
    let mut ds = report.diagnostics;
    for d in &mut ds {
        loaded.file.locate(d);
    }
    // Findings without a position (rules over several options) keep their order at the end.
    ds.sort_by_key(|d| (d.line.is_none(), d.line, d.column));
    ds
}
