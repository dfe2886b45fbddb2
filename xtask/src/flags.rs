//! The arguments of the tasks that read two checkouts and write (or, with `--check`,
//! compare) one facts file: `fidelity --upstream DIR --ge DIR`, `upstream-history --ascend
//! DIR --hicann DIR`. One parser, so the two cannot drift apart in how they read flags.

use std::path::PathBuf;

use crate::ensure::Mode;

pub struct TwoDirs {
    /// The directories, in the order their flags were named to [`two_dirs`].
    pub dirs: [PathBuf; 2],
    pub mode: Mode,
}

/// `FIRST DIR SECOND DIR [--check]` in any order; `None` when a flag is missing, unknown or
/// has no value (the caller says its usage).
pub fn two_dirs(raw: &[String], first: &str, second: &str) -> Option<TwoDirs> {
    let (mut a, mut b, mut mode) = (None, None, Mode::Write);
    let mut it = raw.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            f if f == first => a = Some(PathBuf::from(it.next()?)),
            f if f == second => b = Some(PathBuf::from(it.next()?)),
            "--check" => mode = Mode::Check,
            _ => return None,
        }
    }
    Some(TwoDirs {
        dirs: [a?, b?],
        mode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn both_directories_are_required_and_unknown_flags_refused() {
        let ok = two_dirs(
            &args(&["--ge", "g", "--upstream", "u", "--check"]),
            "--upstream",
            "--ge",
        );
        let Some(ok) = ok else {
            panic!("valid arguments refused")
        };
        assert_eq!(ok.dirs, [PathBuf::from("u"), PathBuf::from("g")]);
        assert!(ok.mode == Mode::Check);
        assert!(two_dirs(&args(&["--upstream", "u"]), "--upstream", "--ge").is_none());
        assert!(two_dirs(&args(&["--upstream", "u", "--ge"]), "--upstream", "--ge").is_none());
        assert!(two_dirs(
            &args(&["--upstream", "u", "--ge", "g", "-x"]),
            "--upstream",
            "--ge"
        )
        .is_none());
    }
}
