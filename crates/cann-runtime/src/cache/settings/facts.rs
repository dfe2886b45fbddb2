//! The cache's facts as the spec states them: `op_cache.ini`'s name, section, keys, ranges,
//! special values and defaults, the environment variables and their own ranges, and the
//! characters a cache path may hold. Each is looked up here once, at compile time, in
//! cann-config's generated tables, so the runtime restates none of them, and a spec edit that
//! drops one fails the build instead of a run.
//!
//! Behaviour the spec does not model stays in the modules that implement it, each with its
//! upstream source: the MB multiplier and the "aging off" switch in [`crate::cache::settings::limits`], the
//! 30-minute floor in [`crate::cache::settings::limits::AGING_FLOOR`].

use cann_config::meta::{CharClass, FileKeyMeta, FileMeta, Lit, OptionMeta, TypeMeta};
use cann_config::{FILES, OPTIONS};

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn file(name: &str) -> &'static FileMeta {
    let mut i = 0;
    while i < FILES.len() {
        if same(FILES[i].name, name) {
            return &FILES[i];
        }
        i += 1;
    }
    panic!("the spec describes no such file (spec/files.yaml)")
}

const fn key(f: &'static FileMeta, name: &str) -> &'static FileKeyMeta {
    let mut i = 0;
    while i < f.keys.len() {
        if same(f.keys[i].name, name) {
            return &f.keys[i];
        }
        i += 1;
    }
    panic!("the spec's op_cache.ini has no such key (spec/files.yaml)")
}

const fn option(path: &str) -> &'static OptionMeta {
    let mut i = 0;
    while i < OPTIONS.len() {
        if same(OPTIONS[i].path, path) {
            return &OPTIONS[i];
        }
        i += 1;
    }
    panic!("the spec has no option at this path")
}

/// The option whose environment variable a file key falls back to.
const fn env_of(k: &'static FileKeyMeta) -> &'static OptionMeta {
    let Some(var) = k.env else {
        panic!("an op_cache.ini limit key names no environment variable (spec/files.yaml)")
    };
    let mut i = 0;
    while i < OPTIONS.len() {
        if let Some(e) = OPTIONS[i].env {
            if same(e, var) {
                return &OPTIONS[i];
            }
        }
        i += 1;
    }
    panic!("an op_cache.ini key names an environment variable spec/env.yaml lacks")
}

const fn path_chars(o: &'static OptionMeta) -> &'static [CharClass] {
    match o.ty {
        TypeMeta::Path { chars } => chars,
        _ => panic!("op_compiler_cache_dir is not a path option in the spec"),
    }
}

/// `op_cache.ini`.
pub const INI: &FileMeta = file("op_cache.ini");
/// `max_op_cache_size` in the file.
pub const INI_MAX_SIZE: &FileKeyMeta = key(INI, "max_op_cache_size");
/// `remain_cache_size_ratio` in the file.
pub const INI_REMAIN_RATIO: &FileKeyMeta = key(INI, "remain_cache_size_ratio");
/// The toolkit version stamp.
pub const INI_ADK_VERSION: &FileKeyMeta = key(INI, "adk_version");
/// The operator package version stamp.
pub const INI_OPS_VERSION: &FileKeyMeta = key(INI, "ops_version");
/// The section the limits and stamps live in (the one the size key names).
pub const INI_SECTION: &str = INI_MAX_SIZE.section;

/// `ASCEND_MAX_OP_CACHE_SIZE`, the limit's fallback when the file does not count.
pub const ENV_MAX_SIZE: &OptionMeta = env_of(INI_MAX_SIZE);
/// `ASCEND_REMAIN_CACHE_SIZE_RATIO`, the ratio's fallback.
pub const ENV_REMAIN_RATIO: &OptionMeta = env_of(INI_REMAIN_RATIO);
/// `ASCEND_CACHE_PATH`, the directory when `op_compiler_cache_dir` is unset.
pub const ENV_CACHE_PATH: &OptionMeta = option("env.ASCEND_CACHE_PATH");
/// `op_compiler_cache_dir`.
pub const CACHE_DIR: &OptionMeta = option("npu_run_config.op_compiler_cache_dir");
/// The characters a cache directory may contain.
pub const CACHE_DIR_CHARS: &[CharClass] = path_chars(CACHE_DIR);

/// The default of an integer option.
pub const fn int_default(o: &'static OptionMeta) -> i64 {
    match o.default {
        Some(Lit::Int(v)) => v,
        _ => panic!("a cache limit in spec/env.yaml has no integer default"),
    }
}

/// The default limit in MB.
pub const DEFAULT_MAX_SIZE: i64 = int_default(ENV_MAX_SIZE);
/// The default retained share in percent.
pub const DEFAULT_REMAIN_RATIO: i64 = int_default(ENV_REMAIN_RATIO);

/// The environment variable an option is read from (every option here has one).
pub const fn env_name(o: &'static OptionMeta) -> &'static str {
    match o.env {
        Some(e) => e,
        None => o.name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_facts_are_the_cache_ones() {
        assert_eq!(env_name(ENV_MAX_SIZE), "ASCEND_MAX_OP_CACHE_SIZE");
        assert_eq!(env_name(ENV_REMAIN_RATIO), "ASCEND_REMAIN_CACHE_SIZE_RATIO");
        assert_eq!(env_name(ENV_CACHE_PATH), "ASCEND_CACHE_PATH");
        assert_eq!(INI_SECTION, INI_REMAIN_RATIO.section);
        assert!(!CACHE_DIR_CHARS.is_empty());
    }
}
