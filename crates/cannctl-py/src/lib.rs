//! The native module of the `cannctl` Python package (`cannctl._cannctl`): the `cannctl`
//! command line and an in-process API over the same Rust core, with no subprocess and no
//! second parser. The Python side (`python/cannctl/`) only re-exports and documents it.

mod api;
mod convert;
mod errors;
mod proto;
mod report;
mod source;

use pyo3::prelude::*;

#[pymodule]
fn _cannctl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("InputError", py.get_type::<errors::InputError>())?;
    m.add("ConfigError", py.get_type::<errors::ConfigError>())?;
    m.add_class::<report::Report>()?;
    m.add_class::<report::Finding>()?;
    m.add_function(wrap_pyfunction!(api::check, m)?)?;
    m.add_function(wrap_pyfunction!(api::guard, m)?)?;
    m.add_function(wrap_pyfunction!(api::check_session_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::guard_session_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::check_npu_run_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::guard_npu_run_config, m)?)?;
    m.add_function(wrap_pyfunction!(api::lint, m)?)?;
    m.add_function(wrap_pyfunction!(api::emit, m)?)?;
    m.add_function(wrap_pyfunction!(api::explain, m)?)?;
    m.add_function(wrap_pyfunction!(api::schema, m)?)?;
    m.add_function(wrap_pyfunction!(api::main, m)?)?;
    Ok(())
}
