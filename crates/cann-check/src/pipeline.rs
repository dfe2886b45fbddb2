//! load → target → diagnose: the steps `cannctl check`, `emit`, the Python package's
//! `check()` and the language server take with a config.

use std::path::Path;

use cann_config::meta::Lang;
use cann_config::{ConfigFile, Diagnostic, Product, Release, Target};

use crate::settings::Settings;
use crate::CheckError;

/// Config files hold a few dozen options; anything far larger is a mistake or an attack.
pub const CONFIG_LIMITS: cann_input::Limits = cann_input::Limits::new(4 * 1024 * 1024);

/// A `platform_config` ini file is a few kilobytes.
const SOC_INI_LIMITS: cann_input::Limits = cann_input::Limits::new(1024 * 1024);

/// A config file as read: its text (for carets) and what it says.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub name: String,
    pub text: String,
    pub file: ConfigFile,
}

/// Reads and parses a config file (`-` is standard input) through the one input layer, so
/// every front end accepts and refuses the same files.
pub fn load(path: &Path, lang: Lang) -> Result<Loaded, CheckError> {
    load_named(path, None, lang)
}

/// As [`load`]; standard input (`-`) is reported as `stdin_name` when given, which also
/// says whether it is JSON.
pub fn load_named(
    path: &Path,
    stdin_name: Option<&Path>,
    lang: Lang,
) -> Result<Loaded, CheckError> {
    let text = cann_input::read_text(path, CONFIG_LIMITS)?;
    let named = match stdin_name {
        Some(n) if path == Path::new("-") => n,
        _ => path,
    };
    let name = cann_input::display_name(named);
    load_text(&name, text, is_json(named), lang)
}

/// A `.json` file is held to JSON; anything else is read as YAML, of which JSON is a part.
pub fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("json"))
}

/// A config given as text (JSON only when `json`, else YAML); `name` stands for the file in
/// findings.
pub fn load_text(name: &str, text: String, json: bool, lang: Lang) -> Result<Loaded, CheckError> {
    let parsed = if json {
        cann_config::parse_json_config_in(&text, lang)
    } else {
        cann_config::parse_config_in(&text, lang)
    };
    let file = parsed.map_err(|e| CheckError::Parse {
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
pub fn soc_cores(path: &Path, lang: Lang) -> Result<cann_config::CoreCounts, CheckError> {
    let text = cann_input::read_text(path, SOC_INI_LIMITS)?;
    let name = cann_input::display_name(path);
    cann_config::soc::parse_soc_ini(&text).map_err(|e| {
        CheckError::Usage(
            format!("{name}: {}", e.message(lang)),
            Some(cann_i18n::catalog::config::soc_hint(lang)),
        )
    })
}

pub fn parse_release(id: &str, lang: Lang) -> Result<Release, CheckError> {
    id.parse::<Release>().map_err(|e| unknown_id(&e, lang))
}

pub fn parse_product(id: &str, lang: Lang) -> Result<Product, CheckError> {
    id.parse::<Product>().map_err(|e| unknown_id(&e, lang))
}

/// An unknown product or release id.
fn unknown_id(e: &cann_config::UnknownId, lang: Lang) -> CheckError {
    CheckError::Usage(e.message(lang), Some(e.expected(lang)))
}

/// The target: `product` and `release` given (on a command line, in an API call) beat what
/// the file names; the release defaults to the newest one.
pub fn target(
    product: Option<&str>,
    release: Option<&str>,
    file: &ConfigFile,
    lang: Lang,
) -> Result<Target, CheckError> {
    target_in(product, release, file, &Settings::default(), lang)
}

/// As [`target`], with the project's settings below the file: given ids, then the file's
/// own `product:` / `release:` (a config says what it is for), then `[tool.cannctl]`, then
/// the newest release.
pub fn target_in(
    product: Option<&str>,
    release: Option<&str>,
    file: &ConfigFile,
    project: &Settings,
    lang: Lang,
) -> Result<Target, CheckError> {
    use cann_i18n::catalog::cli as msg;
    let product = match product {
        Some(p) => parse_product(p, lang)?,
        None => file.product.or(project.product).ok_or_else(|| {
            CheckError::Usage(msg::no_product(lang), Some(msg::no_product_hint(lang)))
        })?,
    };
    let release = match release {
        Some(r) => parse_release(r, lang)?,
        None => file.release.or(project.release).unwrap_or(Release::LATEST),
    };
    Ok(Target { product, release })
}

/// Parse findings and validation findings together, placed and ordered by position.
/// `device`: the core counts of the card, when known, for the checks that need them.
pub fn diagnose(
    loaded: &Loaded,
    target: Target,
    device: Option<cann_config::CoreCounts>,
    lang: Lang,
) -> Vec<Diagnostic> {
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
