//! The functions of the `cannctl` module. Each reads its input, hands it to the core
//! (`cann_check`, `cannctl::embed`, `cann_lint`, `cann_config`) and wraps the result; none decides validity.

use std::path::PathBuf;

use cann_config::meta::Lang;
use cann_config::yaml::Pos;
use cann_config::{Product, Release};
use cann_lint::live::{self, Kwarg};
use cann_lint::LintOptions;
use cannctl::embed;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert::{self, Settings};
use crate::errors::{ConfigError, InputError};
use crate::report::{Finding, Report};
use crate::{proto, source};

fn lang(s: &str) -> PyResult<Lang> {
    match s {
        "en" => Ok(Lang::En),
        "zh" => Ok(Lang::Zh),
        other => Err(PyValueError::new_err(format!(
            "lang must be \"en\" or \"zh\", found {other:?}"
        ))),
    }
}

fn product(p: Option<&str>) -> PyResult<Option<Product>> {
    p.map(|p| p.parse::<Product>())
        .transpose()
        .map_err(|e| InputError::new_err(e.to_string()))
}

fn release(r: Option<&str>) -> PyResult<Release> {
    r.map_or(Ok(Release::LATEST), |r| {
        r.parse::<Release>()
            .map_err(|e| InputError::new_err(e.to_string()))
    })
}

fn lint_options(p: Option<&str>, r: Option<&str>, l: &str) -> PyResult<LintOptions> {
    Ok(LintOptions {
        product: product(p)?,
        release: release(r)?,
        lang: lang(l)?,
    })
}

/// Raises `ConfigError` carrying `report` when it has errors; returns it otherwise.
fn guarded(py: Python<'_>, report: Report) -> PyResult<Report> {
    if !report.has_errors() {
        return Ok(report);
    }
    let err = ConfigError::new_err(report.render());
    err.value(py).setattr("report", report)?;
    Err(err)
}

/// Checks a config file, YAML or JSON text, or a dict against a product and release, and
/// returns every finding at once, as `cannctl check` does.
/// 按产品与版本检查配置文件、YAML/JSON 文本或 dict，一次返回全部问题，与 `cannctl check` 一致。
#[pyfunction]
#[pyo3(signature = (source, *, product=None, release=None, lang="en"))]
pub fn check(
    source: &Bound<'_, PyAny>,
    product: Option<String>,
    release: Option<String>,
    lang: &str,
) -> PyResult<Report> {
    let py = source.py();
    let lang = self::lang(lang)?;
    let (loaded, kind) = source::load(source, lang)?;
    let target = cann_check::target(product.as_deref(), release.as_deref(), &loaded.file, lang)
        .map_err(|e| source::error(py, &e.into(), lang))?;
    let ds = cann_check::diagnose(&loaded, target, None, lang);
    let no_lines = Settings::default();
    let settings = match kind {
        source::Kind::Text => None,
        source::Kind::Mapping => Some(&no_lines),
    };
    Ok(Report::new(
        loaded.name,
        loaded.text,
        ds,
        Some(target.product),
        target.release,
        settings,
        lang,
    ))
}

/// As `check`, but raises `ConfigError` (with `.report`) when any finding is an error.
/// 同 `check`，但存在错误级别问题时抛出 `ConfigError`（附 `.report`）。
#[pyfunction]
#[pyo3(signature = (source, *, product=None, release=None, lang="en"))]
pub fn guard(
    source: &Bound<'_, PyAny>,
    product: Option<String>,
    release: Option<String>,
    lang: &str,
) -> PyResult<Report> {
    let report = check(source, product, release, lang)?;
    guarded(source.py(), report)
}

fn session_report(config_proto: &Bound<'_, PyAny>, opts: &LintOptions) -> PyResult<Report> {
    let (proto, settings) = proto::read(config_proto)?;
    let ds = live::check_session(&proto, opts)
        .into_iter()
        .map(|f| f.diagnostic)
        .collect();
    Ok(Report::new(
        "<ConfigProto>".into(),
        String::new(),
        ds,
        opts.product,
        opts.release,
        Some(&settings),
        opts.lang,
    ))
}

/// Checks a TF1 session's `tf.compat.v1.ConfigProto`: its `NpuOptimizer` custom optimizer's
/// `parameter_map` (each key, the `AttrValue` field it is set through, its value) and the
/// rewrite options the adapter needs, as `cannctl lint` checks the same settings in a
/// script. Without `product`, only what is wrong on every product of the release is reported.
/// 检查 TF1 session 的 `tf.compat.v1.ConfigProto`：`NpuOptimizer` 自定义优化器的 `parameter_map`
/// （键名、`AttrValue` 字段与取值）以及适配器要求的 rewrite 选项，与 `cannctl lint` 对脚本的检查一致。
/// 未指定 `product` 时，仅报告该版本所有产品上都成立的问题。
#[pyfunction]
#[pyo3(signature = (config_proto, *, product=None, release=None, lang="en"))]
pub fn check_session_config(
    config_proto: &Bound<'_, PyAny>,
    product: Option<&str>,
    release: Option<&str>,
    lang: &str,
) -> PyResult<Report> {
    session_report(config_proto, &lint_options(product, release, lang)?)
}

/// As `check_session_config`, but raises `ConfigError` when any finding is an error; call it
/// before building the session.
/// 同 `check_session_config`，但存在错误级别问题时抛出 `ConfigError`；请在创建 session 前调用。
#[pyfunction]
#[pyo3(signature = (config_proto, *, product=None, release=None, lang="en"))]
pub fn guard_session_config(
    config_proto: &Bound<'_, PyAny>,
    product: Option<&str>,
    release: Option<&str>,
    lang: &str,
) -> PyResult<Report> {
    let report = session_report(config_proto, &lint_options(product, release, lang)?)?;
    guarded(config_proto.py(), report)
}

fn kwargs_of(
    kwargs: Option<&Bound<'_, PyDict>>,
    settings: &mut Settings,
    prefix: &str,
    depth: u32,
) -> PyResult<Vec<Kwarg>> {
    let Some(kwargs) = kwargs else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(kwargs.len());
    for (k, v) in kwargs.iter() {
        let name: String = k.cast::<PyString>()?.to_cow()?.into_owned();
        let at = settings.next(format!("{prefix}{name}"));
        // A class an option takes, given as a dict of its own keyword arguments.
        let value = match v.cast::<PyDict>() {
            Ok(d) if depth < 8 => {
                let inner = kwargs_of(Some(d), settings, &format!("{prefix}{name}."), depth + 1)?;
                let entries = inner
                    .into_iter()
                    .map(|kw| {
                        let key = cann_config::yaml::Node {
                            pos: kw.at,
                            kind: cann_config::yaml::Kind::Str(kw.name),
                        };
                        let value = kw.value.unwrap_or(cann_config::yaml::Node {
                            pos: kw.at,
                            kind: cann_config::yaml::Kind::Null,
                        });
                        (key, value)
                    })
                    .collect();
                Some(cann_config::yaml::Node {
                    pos: at,
                    kind: cann_config::yaml::Kind::Map(entries),
                })
            }
            _ => convert::scalar(&v)?.map(|kind| cann_config::yaml::Node { pos: at, kind }),
        };
        out.push(Kwarg { name, at, value });
    }
    Ok(out)
}

fn estimator_report(kwargs: Option<&Bound<'_, PyDict>>, opts: &LintOptions) -> PyResult<Report> {
    let mut settings = Settings::default();
    let kws = kwargs_of(kwargs, &mut settings, "", 0)?;
    let anchor = Pos { line: 0, col: 0 };
    let findings = live::check_estimator("NPURunConfig", &kws, anchor, opts)
        .ok_or_else(|| PyValueError::new_err("the spec has no NPURunConfig class"))?;
    let ds = findings.into_iter().map(|f| f.diagnostic).collect();
    Ok(Report::new(
        "<NPURunConfig>".into(),
        String::new(),
        ds,
        opts.product,
        opts.release,
        Some(&settings),
        opts.lang,
    ))
}

/// Checks keyword arguments for `NPURunConfig(...)` (the TF1 Estimator surface), as
/// `cannctl lint` checks the same call in a script. Classes an option takes
/// (`memory_config=MemoryConfig(...)`) are given as dicts of their keyword arguments.
/// 检查 `NPURunConfig(...)` 的关键字参数（TF1 Estimator 接口），与 `cannctl lint` 对脚本中同一调用的检查一致。
/// 选项所需的类（如 `memory_config=MemoryConfig(...)`）以其关键字参数组成的 dict 给出。
#[pyfunction]
#[pyo3(signature = (*, product=None, release=None, lang="en", **kwargs))]
pub fn check_npu_run_config(
    product: Option<&str>,
    release: Option<&str>,
    lang: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Report> {
    estimator_report(kwargs, &lint_options(product, release, lang)?)
}

/// As `check_npu_run_config`, but raises `ConfigError` when any finding is an error.
/// 同 `check_npu_run_config`，但存在错误级别问题时抛出 `ConfigError`。
#[pyfunction]
#[pyo3(signature = (*, product=None, release=None, lang="en", **kwargs))]
pub fn guard_npu_run_config(
    py: Python<'_>,
    product: Option<&str>,
    release: Option<&str>,
    lang: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Report> {
    let report = estimator_report(kwargs, &lint_options(product, release, lang)?)?;
    guarded(py, report)
}

fn paths_of(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if paths.is_instance_of::<PyString>() {
        return Ok(vec![paths.extract()?]);
    }
    if let Ok(p) = paths.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    paths.try_iter()?.map(|p| p?.extract::<PathBuf>()).collect()
}

/// Lints Python training scripts (files, or directories searched for `.py` files honouring
/// .gitignore) and returns their findings, as `cannctl lint` does. Without `product`, only
/// what is wrong on every product of the release is reported.
/// 检查 Python 训练脚本（文件，或按 .gitignore 搜索 `.py` 的目录）并返回结果，与 `cannctl lint` 一致。
#[pyfunction]
#[pyo3(signature = (paths, *, product=None, release=None, lang="en"))]
pub fn lint(
    paths: &Bound<'_, PyAny>,
    product: Option<&str>,
    release: Option<&str>,
    lang: &str,
) -> PyResult<Vec<Finding>> {
    let py = paths.py();
    let paths = paths_of(paths)?;
    let opts = lint_options(product, release, lang)?;
    let outcome = py
        .detach(|| cann_lint::lint_paths(&paths, &opts))
        .map_err(|e| InputError::new_err(e.message(opts.lang)))?;
    let findings: Vec<Finding> = outcome
        .findings()
        .map(|(file, f)| {
            let mut x = Finding::from_diagnostic(&f.diagnostic);
            x.path = Some(file.path.display().to_string());
            x.rule = Some(f.rule_id().to_string());
            x
        })
        .collect();
    if !outcome.unreadable.is_empty() {
        let list: Vec<String> = outcome
            .unreadable
            .iter()
            .map(|u| format!("{}: {}", u.path.display(), u.reason))
            .collect();
        let err = InputError::new_err(cann_i18n::catalog::lint::not_linted(
            opts.lang,
            list.len(),
            &list.join("; "),
        ));
        err.value(py).setattr("findings", findings)?;
        return Err(err);
    }
    Ok(findings)
}

/// Writes a config without errors for a target: "ge" (the graph engine's option map),
/// "estimator", "session", "tf2", "env" or "json", as `cannctl emit --to` does. A config
/// with errors raises `ConfigError`.
/// 将无错误的配置输出为指定目标格式（"ge"、"estimator"、"session"、"tf2"、"env"、"json"），
/// 与 `cannctl emit --to` 一致；配置有错误时抛出 `ConfigError`。
#[pyfunction]
#[pyo3(signature = (source, *, to, product=None, release=None, lang="en"))]
pub fn emit(
    source: &Bound<'_, PyAny>,
    to: &str,
    product: Option<String>,
    release: Option<String>,
    lang: &str,
) -> PyResult<String> {
    let py = source.py();
    let format = cann_config::emit::Format::from_name(to).ok_or_else(|| {
        PyValueError::new_err(format!(
            "to must be one of {}, found {to:?}",
            cann_config::emit::Format::names().join(", ")
        ))
    })?;
    let l = self::lang(lang)?;
    let (loaded, kind) = source::load(source, l)?;
    let target = cann_check::target(product.as_deref(), release.as_deref(), &loaded.file, l)
        .map_err(|e| source::error(py, &e.into(), l))?;
    let ds = cann_check::diagnose(&loaded, target, None, l);
    let no_lines = Settings::default();
    let settings = match kind {
        source::Kind::Text => None,
        source::Kind::Mapping => Some(&no_lines),
    };
    let report = |ds| {
        Report::new(
            loaded.name.clone(),
            loaded.text.clone(),
            ds,
            Some(target.product),
            target.release,
            settings,
            l,
        )
    };
    guarded(py, report(ds))?;
    // A value no target can carry (a NUL byte, say) is refused by the emitter itself.
    cann_config::emit::emit_in(&loaded.file.config, format, target.release, l).or_else(|errors| {
        let ds = errors
            .iter()
            .map(|e| {
                let mut d = e.diagnostic(l);
                loaded.file.locate(&mut d);
                d
            })
            .collect();
        guarded(py, report(ds)).map(|_| String::new())
    })
}

fn json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// One option as `cannctl explain --format json` describes it: type, default, values,
/// ranges, keys on every surface, support by product and release, rules, sources. `name` is
/// an option name, a dotted path or an environment variable; with `release`, the facts in
/// effect in that release (`cannctl explain --release`), else in the newest.
/// 以 dict 返回一个选项的说明，与 `cannctl explain --format json` 一致；`name` 可为选项名、点分路径或环境变量名；给出 `release` 时为该版本中生效的事实（同 `--release`），否则为最新版本。
#[pyfunction]
#[pyo3(signature = (name, release=None, lang="en"))]
pub fn explain<'py>(
    py: Python<'py>,
    name: &str,
    release: Option<&str>,
    lang: &str,
) -> PyResult<Bound<'py, PyAny>> {
    self::lang(lang)?;
    let mut argv = vec![
        "cannctl", "explain", name, "--format", "json", "--lang", lang,
    ];
    if let Some(r) = release {
        argv.extend(["--release", r]);
    }
    let (code, out, err) = embed::run_captured(argv);
    if code != cannctl::EXIT_OK {
        return Err(InputError::new_err(failure_text(&out, &err)));
    }
    json(py, &String::from_utf8_lossy(&out))
}

/// What a failed `--format json` command said: it writes its error as JSON on stdout (so a
/// pipeline reading JSON never gets plain text), so the message and hint come from there;
/// plain stderr is the fallback for failures before the format is known (a usage error).
fn failure_text(out: &[u8], err: &[u8]) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_slice(out).ok();
    let error = parsed.as_ref().and_then(|v| v.get("error"));
    let field = |k: &str| error.and_then(|e| e.get(k)).and_then(|v| v.as_str());
    match (field("message"), field("hint")) {
        (Some(m), Some(h)) => format!("{m}\nhint: {h}"),
        (Some(m), None) => m.to_string(),
        _ => String::from_utf8_lossy(err).trim_end().to_string(),
    }
}

/// The JSON Schema of config files, as a dict (`cannctl schema` prints it).
/// 配置文件的 JSON Schema（dict 形式；`cannctl schema` 输出同一内容）。
#[pyfunction]
pub fn schema(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    json(py, embed::SCHEMA)
}

/// Runs the `cannctl` command line in this process and returns its exit code; the
/// package's `cannctl` command is this function.
/// 在当前进程中运行 `cannctl` 命令行并返回退出码；包内的 `cannctl` 命令即此函数。
#[pyfunction]
pub fn main(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> u8 {
    py.detach(|| cannctl::main(argv))
}
