//! The Python face of `Report` and `Finding` (declared as data in `findings.rs`): their
//! methods, each a reading of the data. The text of each is the command's own rendering.

use cann_config::meta::Severity;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::findings::{Finding, Report};
use crate::{pickle, table};

#[pymethods]
impl Finding {
    /// The finding as a dict of its fields. / 以 dict 形式返回各字段。
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }

    /// `path:line:column: severity: message`, with the parts that are known.
    fn __str__(&self) -> String {
        let mut place = String::new();
        if let Some(p) = &self.path {
            place.push_str(p);
        }
        if let (Some(l), Some(c)) = (self.line, self.column) {
            place.push_str(&format!(":{l}:{c}"));
        }
        if let Some(s) = &self.setting {
            place.push_str(s);
        }
        let place = place.trim_start_matches(':');
        let head = if place.is_empty() {
            self.option.clone()
        } else {
            place.to_string()
        };
        format!("{head}: {}: {}", self.severity, self.message)
    }

    /// Pickled as its fields (a `Finding` comes back whole from a process pool).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let rebuild = py.import("cannctl._cannctl")?.getattr("_finding")?;
        Ok((rebuild, (self.dict(py)?,)))
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding(severity={:?}, option={:?}, message={:?})",
            self.severity, self.option, self.message
        )
    }
}

#[pymethods]
impl Report {
    /// True when no finding is an error. / 无错误级别问题时为真。
    #[getter]
    fn ok(&self) -> bool {
        !self.has_errors()
    }

    /// Number of findings at error severity. / 错误级别问题数。
    #[getter]
    fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// Number of warnings. / 警告数。
    #[getter]
    fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    /// Number of notes. / 提示数。
    #[getter]
    fn notes(&self) -> usize {
        self.count(Severity::Note)
    }

    /// The product id checked against, or None for every product of the release.
    /// 所检查的产品 id；为 None 时表示该版本的所有产品。
    #[getter]
    fn product(&self) -> Option<&'static str> {
        self.product_id()
    }

    /// The CANN release checked against. / 所检查的 CANN 版本。
    #[getter]
    fn release(&self) -> &'static str {
        self.release_id()
    }

    /// The report as a dict shaped like `cannctl check --format json`.
    /// 以 dict 形式返回报告，结构与 `cannctl check --format json` 一致。
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("file", &self.source)?;
        d.set_item("product", self.product())?;
        d.set_item("release", self.release())?;
        let list: PyResult<Vec<Bound<'py, PyDict>>> =
            self.findings.iter().map(|f| f.to_dict(py)).collect();
        d.set_item("diagnostics", list?)?;
        d.set_item("errors", self.errors())?;
        d.set_item("warnings", self.warnings())?;
        d.set_item("notes", self.notes())?;
        Ok(d)
    }

    /// `True` when the check passed (`ok`: no finding is an error), so `if
    /// cannctl.check(...):` reads as it says; a report with only warnings is true.
    fn __bool__(&self) -> bool {
        !self.has_errors()
    }

    /// Pickled as what it was built from (a `Report` comes back whole from a process pool).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("cannctl._cannctl")?.getattr("_report")?;
        let state = pickle::state(py, self)?;
        Ok((rebuild, PyTuple::new(py, [state])?))
    }

    /// The report as an HTML table (a summary line, then one row a finding), which Jupyter
    /// shows for a report left as a cell's value.
    /// 以 HTML 表格呈现报告（摘要一行，每条问题一行）；报告作为 Jupyter 单元格的值时即如此显示。
    fn _repr_html_(&self) -> String {
        table::html(self)
    }

    /// The report as a Markdown table (a summary line, then one row a finding), for
    /// notebook front ends and exports that take Markdown.
    /// 以 Markdown 表格呈现报告（摘要一行，每条问题一行），供接受 Markdown 的 Notebook 前端与导出使用。
    fn _repr_markdown_(&self) -> String {
        table::markdown(self)
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let list = pyo3::types::PyList::new(py, slf.findings.clone())?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __len__(&self) -> usize {
        self.findings.len()
    }

    fn __str__(&self) -> String {
        self.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Report {} for {} on CANN {}: {}>",
            self.source,
            self.product().unwrap_or("every product"),
            self.release(),
            cannctl::embed::summary(&self.diagnostics, self.lang)
        )
    }
}
