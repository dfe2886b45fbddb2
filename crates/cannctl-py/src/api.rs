//! The functions of the `cannctl` module. Each reads its input, hands it to the core
//! (`cann_check`, `cannctl::embed`, `cann_lint`, `cann_config`) and wraps the result; none decides validity.

use std::path::PathBuf;

use cann_config::meta::Lang;
use cann_config::yaml::Pos;
use cann_config::Diagnostic;
use cann_lint::live;
use cann_lint::LintOptions;
use cannctl::embed;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;
use crate::estimator::Reader;
use crate::findings::{Finding, Report};
use crate::options::{guarded, lang as lang_of};
use crate::written::Settings;
use crate::{project, proto, source};

/// Checks a config file, YAML or JSON text, or a dict against a product and release, and
/// returns every finding at once, as `cannctl check` does. What the call leaves out is
/// taken as the command takes it: `product` and `release` from the config itself, then from
/// `[tool.cannctl]` in the nearest pyproject.toml (above the file; above the working
/// directory for text and dicts); `lang` from there, then from the locale.
/// 按产品与版本检查配置文件、YAML/JSON 文本或 dict，一次返回全部问题，与 `cannctl check` 一致。
/// 未给出的参数与命令行取法相同：`product`、`release` 先取配置自身，再取最近的 pyproject.toml
/// （文件所在目录向上；文本与 dict 从工作目录向上）中的 `[tool.cannctl]`；`lang` 取该表，再取系统区域设置。
#[pyfunction]
#[pyo3(signature = (source, *, product=None, release=None, lang=None))]
pub fn check(
    source: &Bound<'_, PyAny>,
    product: Option<String>,
    release: Option<String>,
    lang: Option<&str>,
) -> PyResult<Report> {
    let py = source.py();
    let first = lang_of(lang)?;
    let given = source::given(source, first)?;
    let (project, lang) = project::resolve(py, &given.start(), lang)?;
    let mut extra = Vec::new();
    let (loaded, kind) = source::load(py, given, lang, &mut extra)?;
    let target = cann_check::target_in(
        product.as_deref(),
        release.as_deref(),
        &loaded.file,
        &project,
        lang,
    )
    .map_err(|e| source::error(py, &e.into(), lang))?;
    let mut ds = cann_check::diagnose(&loaded, target, None, lang);
    ds.extend(extra);
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
#[pyo3(signature = (source, *, product=None, release=None, lang=None))]
pub fn guard(
    source: &Bound<'_, PyAny>,
    product: Option<String>,
    release: Option<String>,
    lang: Option<&str>,
) -> PyResult<Report> {
    let report = check(source, product, release, lang)?;
    guarded(source.py(), report)
}

fn session_report(config_proto: &Bound<'_, PyAny>, opts: &LintOptions) -> PyResult<Report> {
    let mut settings = Settings::default();
    let proto = proto::read(config_proto, &mut settings, "", opts.lang)?;
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
/// script. `product`, `release` and `lang` not given come from `[tool.cannctl]` above the
/// working directory, as for `check`. Without a product, only what is wrong on every
/// product of the release is reported.
/// 检查 TF1 session 的 `tf.compat.v1.ConfigProto`：`NpuOptimizer` 自定义优化器的 `parameter_map`
/// （键名、`AttrValue` 字段与取值）以及适配器要求的 rewrite 选项，与 `cannctl lint` 对脚本的检查一致。
/// 未给出的 `product`、`release`、`lang` 取自工作目录向上的 `[tool.cannctl]`，与 `check` 相同；
/// 没有产品时，仅报告该版本所有产品上都成立的问题。
#[pyfunction]
#[pyo3(signature = (config_proto, *, product=None, release=None, lang=None))]
pub fn check_session_config(
    config_proto: &Bound<'_, PyAny>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
) -> PyResult<Report> {
    session_report(
        config_proto,
        &project::here(config_proto.py(), product, release, lang)?,
    )
}

/// As `check_session_config`, but raises `ConfigError` when any finding is an error; call it
/// before building the session.
/// 同 `check_session_config`，但存在错误级别问题时抛出 `ConfigError`；请在创建 session 前调用。
#[pyfunction]
#[pyo3(signature = (config_proto, *, product=None, release=None, lang=None))]
pub fn guard_session_config(
    config_proto: &Bound<'_, PyAny>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
) -> PyResult<Report> {
    let report = session_report(
        config_proto,
        &project::here(config_proto.py(), product, release, lang)?,
    )?;
    guarded(config_proto.py(), report)
}

/// A report on settings read from live values: findings at the settings' numbers, with
/// the reader's own findings (notes on what was not read, integers past 64 bits).
fn live_report(
    name: &str,
    found: Vec<cann_lint::Finding>,
    reader: Reader,
    opts: &LintOptions,
) -> Report {
    let mut ds: Vec<Diagnostic> = found.into_iter().map(|f| f.diagnostic).collect();
    ds.extend(reader.extra);
    // In the order the settings were given.
    ds.sort_by_key(|d| d.line.unwrap_or(0));
    Report::new(
        name.into(),
        String::new(),
        ds,
        opts.product,
        opts.release,
        Some(&reader.settings),
        opts.lang,
    )
}

fn estimator_report(kwargs: Option<&Bound<'_, PyDict>>, opts: &LintOptions) -> PyResult<Report> {
    let mut reader = Reader::new(*opts);
    let kws = reader.kwargs("NPURunConfig", kwargs, "", 0)?;
    let anchor = Pos { line: 0, col: 0 };
    let found = live::check_estimator("NPURunConfig", &kws, anchor, opts)
        .ok_or_else(|| PyValueError::new_err("the spec has no NPURunConfig class"))?;
    Ok(live_report("<NPURunConfig>", found, reader, opts))
}

/// Checks keyword arguments for `NPURunConfig(...)` (the TF1 Estimator surface), as
/// `cannctl lint` checks the same call in a script. A class an option takes
/// (`memory_config=`) may be the adapter's own object (`MemoryConfig(...)`, read by its
/// attributes, those left at the constructor's default counting as not set) or a dict of its
/// keyword arguments; `session_config` may be a `ConfigProto`, whose `NpuOptimizer` entries
/// are checked as `check_session_config` checks them. Any other object is not read, and a
/// note in the report says so. `product`, `release` and `lang` not given come from
/// `[tool.cannctl]` above the working directory.
/// 检查 `NPURunConfig(...)` 的关键字参数（TF1 Estimator 接口），与 `cannctl lint` 对脚本中同一调用的检查一致。
/// 选项所需的类（`memory_config=`）可为适配器自己的对象（如 `MemoryConfig(...)`，按属性读取，等于构造默认值的属性视为未设置），
/// 也可为其关键字参数组成的 dict；`session_config` 可为 `ConfigProto`，其 `NpuOptimizer` 条目按 `check_session_config` 的方式检查。
/// 其他对象不会被读取，报告中会以提示说明。未给出的 `product`、`release`、`lang` 取自工作目录向上的 `[tool.cannctl]`。
#[pyfunction]
#[pyo3(signature = (*, product=None, release=None, lang=None, **kwargs))]
pub fn check_npu_run_config(
    py: Python<'_>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Report> {
    estimator_report(kwargs, &project::here(py, product, release, lang)?)
}

/// As `check_npu_run_config`, but raises `ConfigError` when any finding is an error.
/// 同 `check_npu_run_config`，但存在错误级别问题时抛出 `ConfigError`。
#[pyfunction]
#[pyo3(signature = (*, product=None, release=None, lang=None, **kwargs))]
pub fn guard_npu_run_config(
    py: Python<'_>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Report> {
    let report = estimator_report(kwargs, &project::here(py, product, release, lang)?)?;
    guarded(py, report)
}

fn tf2_report(attrs: Option<&Bound<'_, PyDict>>, opts: &LintOptions) -> PyResult<Report> {
    let mut reader = Reader::new(*opts);
    let mut paths = Vec::new();
    reader.tf2_paths(attrs, "", 0, &mut paths)?;
    let found = live::check_tf2(&paths, Pos { line: 0, col: 0 }, opts);
    Ok(live_report("<npu.global_options()>", found, reader, opts))
}

/// Checks TF2's `npu.global_options()` settings, given as keyword arguments named as its
/// attributes (`op_compiler_cache_mode="enable"`), a section as a dict
/// (`memory_config={"atomic_clean_policy": 1}`), as `cannctl lint` checks
/// `npu.global_options().a.b = value` in a script. `product`, `release` and `lang` not
/// given come from `[tool.cannctl]` above the working directory.
/// 检查 TF2 `npu.global_options()` 的设置：以属性名作关键字参数（`op_compiler_cache_mode="enable"`），
/// 子项以 dict 给出（`memory_config={"atomic_clean_policy": 1}`），与 `cannctl lint` 对脚本中
/// `npu.global_options().a.b = value` 的检查一致。未给出的 `product`、`release`、`lang` 取自工作目录向上的 `[tool.cannctl]`。
#[pyfunction]
#[pyo3(signature = (*, product=None, release=None, lang=None, **attrs))]
pub fn check_global_options(
    py: Python<'_>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
    attrs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Report> {
    tf2_report(attrs, &project::here(py, product, release, lang)?)
}

/// As `check_global_options`, but raises `ConfigError` when any finding is an error.
/// 同 `check_global_options`，但存在错误级别问题时抛出 `ConfigError`。
#[pyfunction]
#[pyo3(signature = (*, product=None, release=None, lang=None, **attrs))]
pub fn guard_global_options(
    py: Python<'_>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
    attrs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Report> {
    let report = tf2_report(attrs, &project::here(py, product, release, lang)?)?;
    guarded(py, report)
}

/// One path (`str`, `bytes`, `os.PathLike`) or an iterable of them.
fn paths_of(paths: &Bound<'_, PyAny>, lang: Lang) -> PyResult<Vec<PathBuf>> {
    if let Some(p) = source::path_of(paths)? {
        return Ok(vec![p]);
    }
    let one = |p: PyResult<Bound<'_, PyAny>>| -> PyResult<PathBuf> {
        let p = p?;
        source::path_of(&p)?.ok_or_else(|| {
            PyTypeError::new_err(cann_i18n::catalog::python::not_paths(
                lang,
                &crate::convert::type_name(&p),
            ))
        })
    };
    paths.try_iter()?.map(one).collect()
}

/// Lints Python training scripts (files, or directories searched for `.py` files honouring
/// .gitignore) and returns their findings, as `cannctl lint` does. Paths are `str`, `bytes`
/// or `os.PathLike`. `product`, `release` and `lang` not given come from `[tool.cannctl]`
/// above the first path, whose `exclude` leaves paths out, as for the command. Without a
/// product, only what is wrong on every product of the release is reported. Files that
/// cannot be read raise `InputError`, whose `findings` holds what the other files gave.
/// 检查 Python 训练脚本（文件，或按 .gitignore 搜索 `.py` 的目录）并返回结果，与 `cannctl lint` 一致。
/// 路径可为 `str`、`bytes` 或 `os.PathLike`。未给出的 `product`、`release`、`lang` 取自第一个路径向上的
/// `[tool.cannctl]`，其 `exclude` 同样排除路径。存在无法读取的文件时抛出 `InputError`，其 `findings` 为其余文件的结果。
#[pyfunction]
#[pyo3(signature = (paths, *, product=None, release=None, lang=None))]
pub fn lint(
    paths: &Bound<'_, PyAny>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
) -> PyResult<Vec<Finding>> {
    let py = paths.py();
    let paths = paths_of(paths, lang_of(lang)?)?;
    let start = paths.first().cloned().unwrap_or_else(|| PathBuf::from("."));
    let (opts, project) = project::lint_options(py, &start, product, release, lang)?;
    let l = opts.lang;
    // `exclude` leaves out what a directory walk finds and the files named, as the command does.
    let kept: Vec<PathBuf> = paths
        .into_iter()
        .filter(|p| !project.exclude.excludes(p))
        .collect();
    let exclude = &project.exclude;
    let outcome = py
        .detach(|| cann_lint::lint_paths_where(&kept, &opts, &|_| {}, &|p| !exclude.excludes(p)))
        .map_err(|e| errors::input_error(py, &e.message(l), None, None, Vec::new(), l))?;
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
            .map(|u| {
                format!(
                    "{}: {}",
                    errors::capped(&u.path.display().to_string(), l),
                    u.reason
                )
            })
            .collect();
        let text = cann_i18n::catalog::lint::not_linted(l, list.len(), &list.join("; "));
        return Err(errors::input_error(py, &text, None, None, findings, l));
    }
    Ok(findings)
}

/// Writes a config without errors for a target: "ge" (the graph engine's option map),
/// "estimator", "session", "tf2", "env" or "json", as `cannctl emit --to` does. A config
/// with errors raises `ConfigError`.
/// 将无错误的配置输出为指定目标格式（"ge"、"estimator"、"session"、"tf2"、"env"、"json"），
/// 与 `cannctl emit --to` 一致；配置有错误时抛出 `ConfigError`。
#[pyfunction]
#[pyo3(signature = (source, *, to, product=None, release=None, lang=None))]
pub fn emit(
    source: &Bound<'_, PyAny>,
    to: &str,
    product: Option<String>,
    release: Option<String>,
    lang: Option<&str>,
) -> PyResult<String> {
    let py = source.py();
    let l = lang_of(lang)?;
    let format = cann_config::emit::Format::from_name(to).ok_or_else(|| {
        let names = cann_config::emit::Format::names();
        let list = l.join(names.iter().map(|n| format!("{n:?}")));
        PyValueError::new_err(cann_i18n::catalog::python::unknown_target(
            l,
            &errors::capped(&format!("{to:?}"), l),
            &list,
        ))
    })?;
    // `cannctl emit` reads no `[tool.cannctl]` (what it writes must follow from the config
    // and the flags alone): neither does this.
    let given = source::given(source, l)?;
    let mut extra = Vec::new();
    let (loaded, kind) = source::load(py, given, l, &mut extra)?;
    let target = cann_check::target(product.as_deref(), release.as_deref(), &loaded.file, l)
        .map_err(|e| source::error(py, &e.into(), l))?;
    let mut ds = cann_check::diagnose(&loaded, target, None, l);
    ds.extend(extra);
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
#[pyo3(signature = (name, release=None, lang=None))]
pub fn explain<'py>(
    py: Python<'py>,
    name: &str,
    release: Option<&str>,
    lang: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let l = lang_of(lang)?;
    let mut argv = vec![
        "cannctl",
        "explain",
        name,
        "--format",
        "json",
        "--lang",
        l.code(),
    ];
    if let Some(r) = release {
        argv.extend(["--release", r]);
    }
    let (code, out, err) = embed::run_captured(argv);
    if code != cannctl::EXIT_OK {
        return Err(failure(py, &out, &err, l));
    }
    json(py, &String::from_utf8_lossy(&out))
}

/// What a failed `--format json` command said, as an `InputError`: it writes its error as
/// JSON on stdout (so a pipeline reading JSON never gets plain text), with the message, the
/// hint and the place; plain stderr is the fallback for failures before the format is
/// known (a usage error).
fn failure(py: Python<'_>, out: &[u8], err: &[u8], l: Lang) -> PyErr {
    let parsed: Option<serde_json::Value> = serde_json::from_slice(out).ok();
    let error = parsed.as_ref().and_then(|v| v.get("error"));
    let field = |k: &str| error.and_then(|e| e.get(k)).and_then(|v| v.as_str());
    let number = |k: &str| {
        error
            .and_then(|e| e.get(k))
            .and_then(serde_json::Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    };
    let hint = field("hint").map(str::to_string);
    let message = match (field("message"), &hint) {
        (Some(m), Some(h)) => {
            format!("{m}\n{}: {h}", cann_i18n::catalog::cli::label_hint(l))
        }
        (Some(m), None) => m.to_string(),
        _ => String::from_utf8_lossy(err).trim_end().to_string(),
    };
    let place = number("line").zip(number("column"));
    errors::input_error(py, &message, place, hint, Vec::new(), l)
}

/// The JSON Schema of config files, as a dict (`cannctl schema` prints it).
/// 配置文件的 JSON Schema（dict 形式；`cannctl schema` 输出同一内容）。
#[pyfunction]
pub fn schema(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    json(py, embed::SCHEMA)
}
