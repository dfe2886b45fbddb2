//! Where the cache is and how large it may grow: the directory, the environment, the spec's
//! facts, `op_cache.ini` and the limits they resolve to.

pub mod dir;
pub mod env;
pub mod facts;
pub mod ini;
pub mod limits;
