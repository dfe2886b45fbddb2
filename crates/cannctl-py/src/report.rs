//! `Report` and `Finding`: the results of a check, as Python objects. The text of each is
//! the command's own rendering.

use cann_config::meta::{Lang, Severity};
use cann_config::{Diagnostic, Product, Release};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// One finding: what is wrong, where, and how to fix it.
/// 一条检查结果：问题是什么、位于何处、如何修正。
///
/// `severity` is "error", "warning" or "note". `option` is the option's dotted path
/// (`npu_run_config.memory_config.static_memory_policy`). `line` and `column` are 1-based
/// positions in the file or text checked, `None` when the config was a dict or a live object;
/// for those, `setting` says how the value was written (`parameter_map["op_debug_level"]`,
/// `memory_config.static_memory_policy`). `path` is the script of a lint finding.
/// `severity` 取 "error"、"warning" 或 "note"；`option` 为选项的点分路径；`line`、`column`
/// 为所查文件或文本中从 1 开始的位置，检查 dict 或运行中对象时为 `None`，此时 `setting`
/// 给出该值的写法；`path` 为 lint 结果所在的脚本。
#[pyclass(module = "cannctl", frozen, get_all, skip_from_py_object)]
#[derive(Debug, Clone)]
pub struct Finding {
    pub severity: &'static str,
    pub option: String,
    pub message: String,
    pub hint: Option<String>,
    pub expected: Option<String>,
    pub value: Option<String>,
    pub rule: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub setting: Option<String>,
    pub path: Option<String>,
}

impl Finding {
    pub(crate) fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.to_dict(py)
    }

    pub fn from_diagnostic(d: &Diagnostic) -> Self {
        Finding {
            severity: d.severity.as_str(),
            option: d.option.clone(),
            message: d.message.clone(),
            hint: d.hint.clone(),
            expected: d.expected.clone(),
            value: d.value.clone(),
            rule: d.rule.map(str::to_string),
            line: d.line,
            column: d.column,
            setting: None,
            path: None,
        }
    }
}

#[pymethods]
impl Finding {
    /// The finding as a dict of its fields. / 以 dict 形式返回各字段。
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("severity", self.severity)?;
        d.set_item("option", &self.option)?;
        d.set_item("message", &self.message)?;
        d.set_item("hint", &self.hint)?;
        d.set_item("expected", &self.expected)?;
        d.set_item("value", &self.value)?;
        d.set_item("rule", &self.rule)?;
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("setting", &self.setting)?;
        d.set_item("path", &self.path)?;
        Ok(d)
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
        Ok((rebuild, (self.to_dict(py)?,)))
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding(severity={:?}, option={:?}, message={:?})",
            self.severity, self.option, self.message
        )
    }
}

/// The result of a check: every finding at once, and the product and release checked.
/// 一次检查的结果：全部问题及所检查的产品与版本。
///
/// `ok` is true when no finding is an error, and so is the report itself (`if report:`);
/// iterating yields the findings in order; `len(report)` counts them. `str(report)` is what `cannctl check` prints. `product` is
/// `None` when none was given for a live object: then the findings are those that hold on
/// every product of the release.
/// 无错误级别问题时 `ok` 为真，报告本身亦为真（`if report:`）。遍历按顺序得到各条结果，`len(report)` 为条数，`str(report)`
/// 与 `cannctl check` 的输出一致。未指定产品时 `product` 为 `None`，结果为该版本所有产品上都成立的问题。
#[pyclass(module = "cannctl", frozen, skip_from_py_object)]
#[derive(Debug)]
pub struct Report {
    /// The file, `<string>`, `<dict>`, `<ConfigProto>` or `<NPURunConfig>`.
    #[pyo3(get)]
    pub source: String,
    pub(crate) text: String,
    pub(crate) diagnostics: Vec<Diagnostic>,
    #[pyo3(get)]
    pub findings: Vec<Finding>,
    pub(crate) product: Option<Product>,
    pub(crate) release: Release,
    pub(crate) lang: Lang,
}

impl Report {
    /// `settings`: how each line of a live object was written; positions are then dropped,
    /// since they are ordinals and not places in a file.
    pub fn new(
        source: String,
        text: String,
        mut diagnostics: Vec<Diagnostic>,
        product: Option<Product>,
        release: Release,
        settings: Option<&crate::convert::Settings>,
        lang: Lang,
    ) -> Self {
        let mut findings = Vec::with_capacity(diagnostics.len());
        for d in &mut diagnostics {
            let mut f = Finding::from_diagnostic(d);
            if let Some(s) = settings {
                f.setting = s.at(d.line);
                (f.line, f.column) = (None, None);
                (d.line, d.column) = (None, None);
            }
            findings.push(f);
        }
        Report {
            source,
            text,
            diagnostics,
            findings,
            product,
            release,
            lang,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    pub fn render(&self) -> String {
        cannctl::embed::render_check(
            &self.source,
            &self.text,
            &self.diagnostics,
            self.product,
            self.release,
            self.lang,
        )
    }

    fn count(&self, s: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == s).count()
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
    pub(crate) fn product(&self) -> Option<&'static str> {
        self.product.map(|p| p.id())
    }

    /// The CANN release checked against. / 所检查的 CANN 版本。
    #[getter]
    pub(crate) fn release(&self) -> &'static str {
        self.release.id()
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
        let state = crate::pickle::state(py, self)?;
        Ok((rebuild, PyTuple::new(py, [state])?))
    }

    /// The report as an HTML table (a summary line, then one row a finding), which Jupyter
    /// shows for a report left as a cell's value.
    /// 以 HTML 表格呈现报告（摘要一行，每条问题一行）；报告作为 Jupyter 单元格的值时即如此显示。
    fn _repr_html_(&self) -> String {
        crate::table::html(self)
    }

    /// The report as a Markdown table (a summary line, then one row a finding), for
    /// notebook front ends and exports that take Markdown.
    /// 以 Markdown 表格呈现报告（摘要一行，每条问题一行），供接受 Markdown 的 Notebook 前端与导出使用。
    fn _repr_markdown_(&self) -> String {
        crate::table::markdown(self)
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
