//! Project settings: `[tool.cannctl]` in the nearest `pyproject.toml`, found by walking up
//! from a file as ruff does (a `pyproject.toml` without the table is passed over). Every
//! front end (`cannctl lint` and `check`, the pre-commit hooks through them, the language
//! server, the Python API) reads them through [`resolve`]; what a front end is told
//! directly (a flag, an editor setting) beats them, and they beat the defaults.
//!
//! ```toml
//! [tool.cannctl]
//! product = "atlas-a2-training"
//! release = "8.0.RC3"
//! lang = "zh"
//! exclude = ["build/**", "third_party/**"]
//! docs-url = "https://example.org/cannctl/"
//! ```

use std::path::{Path, PathBuf};

use cann_config::meta::Lang;
use cann_config::{Product, Release};
use cann_i18n::catalog::settings as msg;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// The file the settings live in.
pub const PYPROJECT: &str = "pyproject.toml";

/// A pyproject.toml is a few kilobytes.
const PYPROJECT_LIMITS: cann_input::Limits = cann_input::Limits::new(1024 * 1024);

/// The keys of `[tool.cannctl]`, as written there.
pub const KEYS: [&str; 5] = ["product", "release", "lang", "exclude", "docs-url"];

/// What `[tool.cannctl]` says; every field is unset when there is no such table.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    pub product: Option<Product>,
    pub release: Option<Release>,
    pub lang: Option<Lang>,
    pub exclude: Exclude,
    pub docs_url: Option<String>,
    /// The pyproject.toml they were read from.
    pub file: Option<PathBuf>,
}

/// Paths left out: globs relative to the directory of the pyproject.toml that lists them.
/// A glob without a `/` matches at any depth (`*_test.py`), as in a `.gitignore`.
#[derive(Debug, Clone, Default)]
pub struct Exclude {
    root: PathBuf,
    globs: Vec<String>,
    set: globset::GlobSet,
}

impl Exclude {
    /// `globs` relative to `root`; the first bad glob is returned with its index.
    pub fn new(root: &Path, globs: Vec<String>) -> Result<Self, (usize, globset::Error)> {
        let mut b = globset::GlobSetBuilder::new();
        for (i, g) in globs.iter().enumerate() {
            let g = g.trim_start_matches("./").trim_end_matches('/');
            let pattern = if g.contains('/') {
                g.to_string()
            } else {
                format!("**/{g}")
            };
            let glob = globset::GlobBuilder::new(&pattern)
                .literal_separator(true)
                .build()
                .map_err(|e| (i, e))?;
            b.add(glob);
            // A directory's name leaves out all below it, and `dir/**` the directory too.
            let extra = match pattern.strip_suffix("/**") {
                Some(dir) => dir.to_string(),
                None => format!("{pattern}/**"),
            };
            if let Ok(g) = globset::GlobBuilder::new(&extra)
                .literal_separator(true)
                .build()
            {
                b.add(g);
            }
        }
        let set = b.build().map_err(|e| (0, e))?;
        Ok(Exclude {
            root: root.to_path_buf(),
            globs,
            set,
        })
    }

    pub fn globs(&self) -> &[String] {
        &self.globs
    }

    /// Whether `path` (absolute, or relative to the working directory) is left out.
    pub fn excludes(&self, path: &Path) -> bool {
        if self.globs.is_empty() {
            return false;
        }
        let abs = absolute(path);
        abs.strip_prefix(&self.root)
            .is_ok_and(|rel| self.set.is_match(rel))
    }
}

/// `path` made absolute against the working directory, without touching the file system
/// otherwise (a path that does not exist yet, an editor's unsaved file, still resolves).
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Why the settings could not be read: the file, and where in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", file.display(), place.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
pub struct SettingsError {
    pub file: PathBuf,
    /// Line and column (1-based, columns in characters).
    pub place: Option<(u32, u32)>,
    pub message: String,
    pub hint: Option<String>,
    /// The text of the line the place is on, for a caret.
    pub source_line: Option<String>,
}

impl SettingsError {
    /// `file:line:col`, or the file alone.
    pub fn place(&self) -> String {
        match self.place {
            Some((l, c)) => format!("{}:{l}:{c}", self.file.display()),
            None => self.file.display().to_string(),
        }
    }
}

/// The settings for `start` (a file or a directory): those of the nearest pyproject.toml
/// above it with a `[tool.cannctl]` table; defaults when there is none. Errors are worded
/// in `lang`.
pub fn resolve(start: &Path, lang: Lang) -> Result<Settings, SettingsError> {
    let abs = absolute(start);
    for dir in abs.ancestors() {
        let candidate = dir.join(PYPROJECT);
        if !candidate.is_file() {
            continue;
        }
        let text =
            cann_input::read_text(&candidate, PYPROJECT_LIMITS).map_err(|e| SettingsError {
                file: candidate.clone(),
                place: e.position().map(|p| (to_u32(p.line), to_u32(p.column))),
                message: e.message(lang),
                hint: e.hint(lang),
                source_line: None,
            })?;
        if let Some(s) = from_text(&candidate, &text, lang)? {
            return Ok(s);
        }
    }
    Ok(Settings::default())
}

/// The settings in `text`, the content of the pyproject.toml at `file` (an editor's unsaved
/// buffer, say); `None` when it has no `[tool.cannctl]` table.
pub fn from_text(file: &Path, text: &str, lang: Lang) -> Result<Option<Settings>, SettingsError> {
    let err = |span: Option<std::ops::Range<usize>>, message: String, hint: Option<String>| {
        let place = span.map(|s| line_col(text, s.start));
        SettingsError {
            file: file.to_path_buf(),
            place,
            message,
            hint,
            source_line: place
                .and_then(|(l, _)| text.lines().nth(l.saturating_sub(1) as usize))
                .map(str::to_string),
        }
    };
    let doc = DeTable::parse(text).map_err(|e| {
        err(
            e.span(),
            msg::not_toml(lang, e.message()),
            Some(msg::toml_hint(lang)),
        )
    })?;
    let Some(tool) = doc.get_ref().get("tool") else {
        return Ok(None);
    };
    let DeValue::Table(tool) = tool.get_ref() else {
        return Err(err(Some(tool.span()), msg::not_a_table(lang, "tool"), None));
    };
    let Some(ours) = tool.get("cannctl") else {
        return Ok(None);
    };
    let DeValue::Table(table) = ours.get_ref() else {
        return Err(err(
            Some(ours.span()),
            msg::not_a_table(lang, "tool.cannctl"),
            None,
        ));
    };
    let root = file.parent().map(absolute).unwrap_or_default();
    let mut s = Settings {
        file: Some(absolute(file)),
        exclude: Exclude {
            root: root.clone(),
            ..Exclude::default()
        },
        ..Settings::default()
    };
    for (key, value) in table {
        let name: &str = key.get_ref();
        let at = Some(value.span());
        let string = || match value.get_ref() {
            DeValue::String(v) => Ok(v.to_string()),
            _ => Err(err(at.clone(), msg::want_string(lang, name), None)),
        };
        match name {
            "product" => {
                let id = string()?;
                let p = crate::parse_product(&id, lang)
                    .map_err(|e| err(at.clone(), e.message(lang), e.hint(lang)))?;
                s.product = Some(p);
            }
            "release" => {
                let id = string()?;
                let r = crate::parse_release(&id, lang)
                    .map_err(|e| err(at.clone(), e.message(lang), e.hint(lang)))?;
                s.release = Some(r);
            }
            "lang" => {
                let v = string()?;
                s.lang = Some(parse_lang(&v).ok_or_else(|| {
                    err(
                        at.clone(),
                        msg::bad_lang(lang, &v),
                        Some(msg::lang_hint(lang)),
                    )
                })?);
            }
            "exclude" => {
                let globs = strings(value)
                    .ok_or_else(|| err(at.clone(), msg::want_strings(lang, name), None))?;
                let texts: Vec<String> = globs.iter().map(|g| g.get_ref().clone()).collect();
                s.exclude = Exclude::new(&root, texts.clone()).map_err(|(i, e)| {
                    let span = globs.get(i).map(Spanned::span).or(at.clone());
                    let written = texts.get(i).map_or("", String::as_str);
                    err(
                        span,
                        msg::bad_glob(lang, written, &e.kind().to_string()),
                        Some(msg::glob_hint(lang)),
                    )
                })?;
            }
            "docs-url" => {
                let v = string()?;
                if !(v.starts_with("https://") || v.starts_with("http://")) {
                    return Err(err(at, msg::bad_url(lang, &v), Some(msg::url_hint(lang))));
                }
                s.docs_url = Some(v);
            }
            _ => {
                let keys: Vec<String> = KEYS.iter().map(|k| format!("`{k}`")).collect();
                return Err(err(
                    Some(key.span()),
                    msg::unknown_key(lang, name),
                    Some(msg::expected_keys(lang, &keys.join(", "))),
                ));
            }
        }
    }
    Ok(Some(s))
}

/// A list of strings, each with its place.
fn strings(value: &Spanned<DeValue<'_>>) -> Option<Vec<Spanned<String>>> {
    let DeValue::Array(items) = value.get_ref() else {
        return None;
    };
    items
        .into_iter()
        .map(|v| match v.get_ref() {
            DeValue::String(s) => Some(Spanned::new(v.span(), s.to_string())),
            _ => None,
        })
        .collect()
}

/// `en` or `zh` (a locale such as `zh_CN` too).
pub fn parse_lang(v: &str) -> Option<Lang> {
    let head = v.split(['_', '.', '@', '-']).next().unwrap_or("");
    if head.eq_ignore_ascii_case("zh") {
        Some(Lang::Zh)
    } else if head.eq_ignore_ascii_case("en") {
        Some(Lang::En)
    } else {
        None
    }
}

fn to_u32(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// 1-based line and character column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(start..).map_or(0, |s| s.chars().count()) + 1;
    (to_u32(line), to_u32(col))
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
