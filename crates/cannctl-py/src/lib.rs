//! The native module of the `cannctl` Python package (`cannctl._cannctl`): the `cannctl`
//! command line and an in-process API over the same Rust core, with no subprocess and no
//! second parser. The Python side (`python/cannctl/`) only re-exports and documents it.

mod api;
mod console;
mod convert;
mod errors;
mod estimator;
mod findings;
mod options;
mod pickle;
mod project;
mod proto;
mod report;
mod source;
mod table;
mod written;

use pyo3::prelude::*;

#[pymodule]
fn _cannctl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // PEP 440 with the spec's newest release as a local label (`0.1.0+cann.9.0.0`), so a
    // bug report that quotes it says which facts the user had; `__spec_release__` alone.
    let release = cann_config::Release::LATEST.id();
    let label = release.to_ascii_lowercase().replace(['-', '_'], ".");
    m.add(
        "__version__",
        format!("{}+cann.{label}", env!("CARGO_PKG_VERSION")),
    )?;
    m.add("__spec_release__", release)?;
    errors::init_class(py)?;
    m.add("InputError", py.get_type::<errors::InputError>())?;
    m.add("ConfigError", py.get_type::<errors::ConfigError>())?;
    m.add_class::<findings::Report>()?;
    m.add_class::<findings::Finding>()?;
    m.add_function(wrap_pyfunction!(api::check, m)?)?;
    m.add_function(wrap_pyfunction!(api::guard, m)?)?;
    m.add_function(wrap_pyfunction!(api::check_session_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::guard_session_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::check_npu_run_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::guard_npu_run_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::check_global_options, m)?)?;
    m.add_function(wrap_pyfunction!(api::guard_global_options, m)?)?;
    m.add_function(wrap_pyfunction!(api::lint, m)?)?;
    m.add_function(wrap_pyfunction!(api::emit, m)?)?;
    m.add_function(wrap_pyfunction!(api::explain, m)?)?;
    m.add_function(wrap_pyfunction!(api::schema, m)?)?;
    m.add_function(wrap_pyfunction!(console::main, m)?)?;
    m.add_function(wrap_pyfunction!(console::_console, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_report, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_finding, m)?)?;
    Ok(())
}
