//! `Report` and `Finding` as data: the results of a check, what the Python methods
//! (`report.rs`), pickling (`pickle.rs`) and the notebook tables (`table.rs`) all read. They
//! sit below those three, so none imports another back.

use cann_config::meta::{Lang, Severity};
use cann_config::{Diagnostic, Product, Release};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::written::Settings;

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
    /// The finding as a dict of its fields (`to_dict`, and a pickled report's state).
    pub(crate) fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
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
        settings: Option<&Settings>,
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

    /// The product id checked against, or `None` for every product of the release.
    pub fn product_id(&self) -> Option<&'static str> {
        self.product.map(|p| p.id())
    }

    /// The CANN release checked against.
    pub fn release_id(&self) -> &'static str {
        self.release.id()
    }

    pub(crate) fn count(&self, s: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == s).count()
    }
}
