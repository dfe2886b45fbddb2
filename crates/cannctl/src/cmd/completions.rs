//! `cannctl completions SHELL` and `cannctl man`: the command tree, as the catalog words it,
//! written for a shell or for `man`.

use std::io::Write;

use crate::cli::{localize, LangArg, Shell};
use crate::{CliError, EXIT_OK};

pub fn run(shell: Shell, lang: LangArg, out: &mut dyn Write) -> Result<u8, CliError> {
    let mut cmd = localize::command(lang.into());
    clap_complete::generate(shell, &mut cmd, "cannctl", out);
    Ok(EXIT_OK)
}

pub fn man(lang: LangArg, out: &mut dyn Write) -> Result<u8, CliError> {
    let cmd = localize::command(lang.into());
    clap_mangen::Man::new(cmd).render(out)?;
    Ok(EXIT_OK)
}
