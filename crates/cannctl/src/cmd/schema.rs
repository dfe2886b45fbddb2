//! `cannctl schema`: the JSON Schema of config files, as `cargo xtask regenerate` wrote it.
//! It is compiled in, so an installed command (the Python wheel) carries it. The path is
//! the crate's own `schema/`, a link to the workspace's, so a package of the crate (the
//! Python sdist) carries the file too.

use std::io::Write;

use crate::{CliError, EXIT_OK};

pub const SCHEMA: &str = include_str!("../../schema/cann-config.schema.json");

pub fn run(out: &mut dyn Write) -> Result<u8, CliError> {
    out.write_all(SCHEMA.as_bytes())?;
    Ok(EXIT_OK)
}
