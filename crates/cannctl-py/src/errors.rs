//! The exceptions the API raises, and the one way each is built: every `InputError` carries
//! `line`, `column`, `hint` and `findings` (as the stub declares them), and no message repeats
//! more of the user's input than [`MAX_REPEATED`] characters.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use cann_config::meta::Lang;
use cann_i18n::catalog::python as msg;
use cannctl::embed::{self, CliError};

use crate::findings::Finding;

create_exception!(
    cannctl,
    InputError,
    PyValueError,
    "The input cannot be read as a config: unreadable file, bad YAML/JSON, unknown product or \
     release. The message is what the command prints (file:line:column, the line, a hint); \
     `line` and `column` are 1-based and `None` when there is no place, `hint` is `None` when \
     there is none, `findings` holds what `lint` found in the files it could read.\n\
     输入无法作为配置读取：文件不可读、YAML/JSON 有误、产品或版本未知。消息与命令行输出一致（文件:行:列、所在行与提示）；\
     `line`、`column` 从 1 开始，无位置时为 `None`；无提示时 `hint` 为 `None`；`findings` 为 `lint` 在可读文件中的检查结果。"
);

create_exception!(
    cannctl,
    ConfigError,
    PyValueError,
    "Raised by the guard functions when a config has findings at error severity. `.report` is \
     the whole Report; the message is its text as the command prints it.\n\
     guard 系列函数在配置存在错误级别问题时抛出。`.report` 为完整报告；消息即命令行输出的报告文本。"
);

/// The longest run of a message taken from the input (a path, a line of the file): a 50 MB
/// string given as a path must not come back as a 50 MB message.
pub const MAX_REPEATED: usize = 2_000;

/// `text` cut to [`MAX_REPEATED`] characters, saying how many were left out.
pub fn capped(text: &str, lang: Lang) -> String {
    match text.char_indices().nth(MAX_REPEATED) {
        None => text.to_string(),
        Some((at, _)) => {
            let rest = text[at..].chars().count();
            format!("{}{}", &text[..at], msg::elided(lang, rest))
        }
    }
}

/// Sets the attributes every `InputError` has, at class level, so that the class itself
/// matches its stub (`mypy.stubtest`) and an instance raised by Python code has them too.
pub fn init_class(py: Python<'_>) -> PyResult<()> {
    let cls = py.get_type::<InputError>();
    cls.setattr("line", py.None())?;
    cls.setattr("column", py.None())?;
    cls.setattr("hint", py.None())?;
    cls.setattr("findings", PyList::empty(py))?;
    Ok(())
}

/// An `InputError` with every attribute set.
pub fn input_error(
    py: Python<'_>,
    message: &str,
    place: Option<(u32, u32)>,
    hint: Option<String>,
    findings: Vec<Finding>,
    lang: Lang,
) -> PyErr {
    let err = InputError::new_err(capped(message, lang));
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("line", place.map(|p| p.0))?;
        value.setattr("column", place.map(|p| p.1))?;
        value.setattr("hint", hint.map(|h| capped(&h, lang)))?;
        value.setattr("findings", PyList::new(py, findings)?)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// The command's error as an [`InputError`], with its place as attributes.
pub fn input(py: Python<'_>, e: &CliError, lang: Lang) -> PyErr {
    let place = match e {
        CliError::Parse { pos: Some(p), .. } => Some((p.line, p.col)),
        _ => None,
    };
    input_error(
        py,
        &embed::render_error(e, lang),
        place,
        e.hint(lang),
        Vec::new(),
        lang,
    )
}

/// An `InputError` from a message alone (an unknown product, a bad argument).
pub fn plain(message: &str, lang: Lang) -> PyErr {
    Python::attach(|py| input_error(py, message, None, None, Vec::new(), lang))
}
