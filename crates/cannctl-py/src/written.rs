//! How each setting of a live object was written (`parameter_map["op_debug_level"]`,
//! `memory_config.static_memory_policy`): the readers of live objects record it, and a
//! report names a finding's setting by it. Below both, so neither imports the other.

use cann_config::yaml::Pos;

/// Hands out the position of each value read, so that findings point back at the setting:
/// the n-th setting read is at line n, and `settings[n - 1]` says how it was written.
#[derive(Debug, Default)]
pub struct Settings {
    pub written: Vec<String>,
}

impl Settings {
    pub fn next(&mut self, written: String) -> Pos {
        self.written.push(written);
        Pos {
            line: u32::try_from(self.written.len()).unwrap_or(u32::MAX),
            col: 1,
        }
    }

    /// How the setting at `line` was written; `None` for the object as a whole (line 0).
    pub fn at(&self, line: Option<u32>) -> Option<String> {
        let i = usize::try_from(line?.checked_sub(1)?).ok()?;
        self.written.get(i).cloned()
    }
}
