//! The `cannctl` command line, run in this process: `cannctl.main(args)` writing through
//! `sys.stdout` and `sys.stderr` (so `contextlib.redirect_stdout` and a notebook see it),
//! and the console script's entry, which writes to the process's own streams as the binary
//! does.

use std::ffi::OsString;
use std::io::{self, Write};

use pyo3::prelude::*;

/// A Python text stream as a Rust writer: bytes are passed on a line at a time, decoded
/// as UTF-8 (the command writes nothing else), so no character is split between writes.
struct PyStream {
    stream: Py<PyAny>,
    pending: Vec<u8>,
    /// The first exception the stream raised; raised again once the command is done.
    failed: Option<PyErr>,
}

impl PyStream {
    fn new(stream: Bound<'_, PyAny>) -> Self {
        PyStream {
            stream: stream.unbind(),
            pending: Vec::new(),
            failed: None,
        }
    }

    fn pass_on(&mut self, upto: usize) -> io::Result<()> {
        if upto == 0 || self.failed.is_some() {
            self.pending.drain(..upto);
            return Ok(());
        }
        let chunk: Vec<u8> = self.pending.drain(..upto).collect();
        let text = String::from_utf8_lossy(&chunk);
        let result = Python::attach(|py| {
            self.stream
                .bind(py)
                .call_method1("write", (text.as_ref(),))
                .map(drop)
        });
        result.map_err(|e| {
            let message = e.to_string();
            self.failed = Some(e);
            io::Error::other(message)
        })
    }
}

impl Write for PyStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(i) = self.pending.iter().rposition(|&b| b == b'\n') {
            self.pass_on(i + 1)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.pass_on(self.pending.len())?;
        let result = Python::attach(|py| self.stream.bind(py).call_method0("flush").map(drop));
        result.map_err(|e| io::Error::other(e.to_string()))
    }
}

fn is_terminal(stream: &Bound<'_, PyAny>) -> bool {
    stream
        .call_method0("isatty")
        .and_then(|v| v.extract::<bool>())
        .unwrap_or(false)
}

/// Runs the `cannctl` command line with `args` (without the program name; `sys.argv[1:]`
/// when `None`) and returns its exit code, writing through `sys.stdout` and `sys.stderr`:
/// `contextlib.redirect_stdout` captures it and a notebook shows it.
/// 以 `args`（不含程序名；为 `None` 时取 `sys.argv[1:]`）运行 `cannctl` 命令行并返回退出码，
/// 输出经由 `sys.stdout` 与 `sys.stderr`，因此 `contextlib.redirect_stdout` 可以捕获、Notebook 可以显示。
#[pyfunction]
#[pyo3(signature = (args=None))]
pub fn main(py: Python<'_>, args: Option<Vec<OsString>>) -> PyResult<u8> {
    let sys = py.import("sys")?;
    let args = match args {
        Some(a) => a,
        None => {
            let argv: Vec<OsString> = sys.getattr("argv")?.extract()?;
            argv.into_iter().skip(1).collect()
        }
    };
    let argv: Vec<OsString> = std::iter::once(OsString::from("cannctl"))
        .chain(args)
        .collect();
    let out = sys.getattr("stdout")?;
    let err = sys.getattr("stderr")?;
    let terminal = is_terminal(&out) && is_terminal(&err);
    let (mut out, mut err) = (PyStream::new(out), PyStream::new(err));
    let code = py.detach(|| {
        let code = cannctl::main_to(argv, &mut out, &mut err, Some(terminal));
        let _ = out.flush();
        let _ = err.flush();
        code
    });
    if let Some(e) = out.failed.take().or_else(|| err.failed.take()) {
        return Err(e);
    }
    Ok(code)
}

/// The console script's entry: `argv` as `sys.argv` has it, output on the process's own
/// streams with the binary's colours and progress.
#[pyfunction]
pub fn _console(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    py.detach(|| cannctl::main(argv))
}
