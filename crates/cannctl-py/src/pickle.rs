//! `Report` and `Finding` as plain data and back, for `pickle` (a report returned from a
//! `multiprocessing` pool crosses a process boundary as such data).

use cann_config::meta::{Lang, Severity};
use cann_config::{Diagnostic, Product, Release};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::findings::{Finding, Report};

fn severity(s: &str) -> PyResult<(Severity, &'static str)> {
    [Severity::Error, Severity::Warning, Severity::Note]
        .into_iter()
        .find(|v| v.as_str() == s)
        .map(|v| (v, v.as_str()))
        .ok_or_else(|| PyValueError::new_err(format!("severity {s:?}")))
}

fn get<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, k: &str) -> PyResult<T> {
    match d.get_item(k)? {
        Some(v) => v.extract().map_err(Into::into),
        None => Err(PyValueError::new_err(format!("missing {k:?}"))),
    }
}

fn diagnostic_dict<'py>(py: Python<'py>, d: &Diagnostic) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("severity", d.severity.as_str())?;
    out.set_item("option", &d.option)?;
    out.set_item("value", &d.value)?;
    out.set_item("message", &d.message)?;
    out.set_item("expected", &d.expected)?;
    out.set_item("hint", &d.hint)?;
    out.set_item("rule", d.rule)?;
    out.set_item("line", d.line)?;
    out.set_item("column", d.column)?;
    Ok(out)
}

fn diagnostic(d: &Bound<'_, PyDict>) -> PyResult<Diagnostic> {
    let sev: String = get(d, "severity")?;
    let mut out = Diagnostic::new(
        severity(&sev)?.0,
        get::<String>(d, "option")?,
        get::<String>(d, "message")?,
    );
    out.value = get(d, "value")?;
    out.expected = get(d, "expected")?;
    out.hint = get(d, "hint")?;
    let rule: Option<String> = get(d, "rule")?;
    // Rule ids are the spec's own static strings.
    out.rule = rule.and_then(|r| cann_config::RULES.iter().find(|x| x.id == r).map(|x| x.id));
    out.line = get(d, "line")?;
    out.column = get(d, "column")?;
    Ok(out)
}

/// A report's state: what `_report` rebuilds it from.
pub fn state<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("source", &r.source)?;
    out.set_item("text", &r.text)?;
    out.set_item("product", r.product_id())?;
    out.set_item("release", r.release_id())?;
    out.set_item("lang", r.lang.code())?;
    let ds: PyResult<Vec<_>> = r
        .diagnostics
        .iter()
        .map(|d| diagnostic_dict(py, d))
        .collect();
    out.set_item("diagnostics", PyList::new(py, ds?)?)?;
    let fs: PyResult<Vec<_>> = r.findings.iter().map(|f| f.dict(py)).collect();
    out.set_item("findings", PyList::new(py, fs?)?)?;
    Ok(out)
}

#[pyfunction]
pub fn _finding(d: &Bound<'_, PyDict>) -> PyResult<Finding> {
    let sev: String = get(d, "severity")?;
    Ok(Finding {
        severity: severity(&sev)?.1,
        option: get(d, "option")?,
        message: get(d, "message")?,
        hint: get(d, "hint")?,
        expected: get(d, "expected")?,
        value: get(d, "value")?,
        rule: get(d, "rule")?,
        line: get(d, "line")?,
        column: get(d, "column")?,
        setting: get(d, "setting")?,
        path: get(d, "path")?,
    })
}

#[pyfunction]
pub fn _report(state: &Bound<'_, PyDict>) -> PyResult<Report> {
    let product: Option<String> = get(state, "product")?;
    let product = product
        .map(|p| p.parse::<Product>())
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let release: String = get(state, "release")?;
    let release: Release = release
        .parse()
        .map_err(|e: cann_config::UnknownId| PyValueError::new_err(e.to_string()))?;
    let lang: String = get(state, "lang")?;
    let lang: Lang = lang.parse().map_err(|_| PyValueError::new_err(lang))?;
    let ds: Vec<Bound<'_, PyDict>> = get(state, "diagnostics")?;
    let fs: Vec<Bound<'_, PyDict>> = get(state, "findings")?;
    Ok(Report {
        source: get(state, "source")?,
        text: get(state, "text")?,
        diagnostics: ds.iter().map(diagnostic).collect::<PyResult<_>>()?,
        findings: fs.iter().map(_finding).collect::<PyResult<_>>()?,
        product,
        release,
        lang,
    })
}
