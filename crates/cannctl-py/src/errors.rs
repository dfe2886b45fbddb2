//! The exceptions the API raises.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use cann_config::meta::Lang;
use cannctl::embed::{self, CliError};

create_exception!(
    cannctl,
    InputError,
    PyValueError,
    "The input cannot be read as a config: unreadable file, bad YAML/JSON, unknown product or \
     release. The message is what the command prints (file:line:column, the line, a hint).\n\
     输入无法作为配置读取：文件不可读、YAML/JSON 有误、产品或版本未知。消息与命令行输出一致（文件:行:列、所在行与提示）。"
);

create_exception!(
    cannctl,
    ConfigError,
    PyValueError,
    "Raised by the guard functions when a config has findings at error severity. `.report` is \
     the whole Report; the message is its text as the command prints it.\n\
     guard 系列函数在配置存在错误级别问题时抛出。`.report` 为完整报告；消息即命令行输出的报告文本。"
);

/// The command's error as an [`InputError`], with its place as attributes.
pub fn input(py: Python<'_>, e: &CliError, lang: Lang) -> PyErr {
    let err = InputError::new_err(embed::render_error(e, lang));
    let value = err.value(py);
    let (line, column) = match e {
        CliError::Parse { pos: Some(p), .. } => (Some(p.line), Some(p.col)),
        _ => (None, None),
    };
    let hint = e.hint(lang);
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("hint", hint);
    err
}
