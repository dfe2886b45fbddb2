//! What a value does, for the options the runtime acts on.
//!
//! The runtime implements a closed set of behaviours per family (the operator compile cache
//! can reuse, rebuild or be off; a memory policy expands static-shape graphs, dynamic-shape
//! graphs, both or neither; ...). An option the runtime acts on names its family
//! (`behaviours: cache-mode`) and each of its values names what it does (`behaviour: reuse`).
//! The runtime matches on the behaviour, never on a value's name, so a new value with a known
//! behaviour is a spec edit; a value without one is refused here, at its line.
//!
//! Every spelling of a family and a behaviour is in [`FAMILIES`] and [`BEHAVIOURS`]; codegen
//! derives the Rust names from them.

use std::fmt;

/// A closed set of behaviours: what the values of one option choose from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// `op_compiler_cache_mode`.
    CacheMode,
    /// `static_memory_policy` (and `GE_USE_STATIC_MEMORY`, which takes its values).
    MemoryExpansion,
    /// `atomic_clean_policy`.
    AtomicClean,
    /// `variable_use_1g_huge_page`.
    HugePages,
}

/// Each family: its spec word, the Rust type codegen names, and whether every behaviour
/// must be done by some value (the runtime then names the value doing a behaviour: it
/// combines `static_memory_policy` with `GE_USE_STATIC_MEMORY` into one, and compares both
/// atomic clean policies side by side).
pub const FAMILIES: &[(Family, &str, &str, bool)] = &[
    (Family::CacheMode, "cache-mode", "CacheBehaviour", false),
    (
        Family::MemoryExpansion,
        "memory-expansion",
        "MemoryExpansion",
        true,
    ),
    (Family::AtomicClean, "atomic-clean", "AtomicClean", true),
    (Family::HugePages, "huge-pages", "HugePages", false),
];

/// One behaviour of one family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Behaviour {
    Cache(CacheBehaviour),
    Memory(MemoryExpansion),
    Clean(AtomicClean),
    Pages(HugePages),
}

/// Every behaviour with its spec word; the Rust variant is the word in UpperCamelCase
/// ([`crate::names::variant_name`]).
pub const BEHAVIOURS: &[(Behaviour, &str)] = &[
    (Behaviour::Cache(CacheBehaviour::Reuse), "reuse"),
    (Behaviour::Cache(CacheBehaviour::Rebuild), "rebuild"),
    (Behaviour::Cache(CacheBehaviour::Off), "off"),
    (Behaviour::Memory(MemoryExpansion::None), "none"),
    (
        Behaviour::Memory(MemoryExpansion::StaticShape),
        "static-shape",
    ),
    (
        Behaviour::Memory(MemoryExpansion::DynamicShape),
        "dynamic-shape",
    ),
    (Behaviour::Memory(MemoryExpansion::AllShapes), "all-shapes"),
    (Behaviour::Clean(AtomicClean::Centralized), "centralized"),
    (Behaviour::Clean(AtomicClean::Separate), "separate"),
    (Behaviour::Pages(HugePages::DefaultPages), "default-pages"),
    (Behaviour::Pages(HugePages::Require1g), "require-1g"),
    (Behaviour::Pages(HugePages::Prefer1g), "prefer-1g"),
];

/// What the operator compile cache does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CacheBehaviour {
    /// Look entries up and store new ones.
    Reuse,
    /// Treat the entries already there as absent, then store again.
    Rebuild,
    /// No lookups and no stores.
    Off,
}

/// Which graphs a memory policy gives expandable memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemoryExpansion {
    /// Every graph gets memory at its exact size.
    None,
    /// Static-shape graphs of a session share one growing pool.
    StaticShape,
    /// Dynamic-shape graphs use an expandable arena.
    DynamicShape,
    /// Both.
    AllShapes,
}

impl MemoryExpansion {
    /// Whether static-shape graphs share an expanding pool.
    pub const fn static_expansion(self) -> bool {
        matches!(self, Self::StaticShape | Self::AllShapes)
    }

    /// Whether dynamic-shape graphs use the expandable arena.
    pub const fn dynamic_expansion(self) -> bool {
        matches!(self, Self::DynamicShape | Self::AllShapes)
    }

    /// The expansion with these two parts.
    pub const fn from_parts(static_expansion: bool, dynamic_expansion: bool) -> Self {
        match (static_expansion, dynamic_expansion) {
            (false, false) => Self::None,
            (true, false) => Self::StaticShape,
            (false, true) => Self::DynamicShape,
            (true, true) => Self::AllShapes,
        }
    }
}

/// How the outputs of memset operators are cleared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AtomicClean {
    /// Side by side, cleared once at the start of a run.
    Centralized,
    /// Each placed by its lifetime and cleared just before use.
    Separate,
}

/// Which pages back variables and constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HugePages {
    /// The system's default pages.
    DefaultPages,
    /// 1 GiB pages, or fail.
    Require1g,
    /// 1 GiB pages, else 2 MiB pages (sticky), else fail.
    Prefer1g,
}

impl Family {
    fn row(self) -> &'static (Family, &'static str, &'static str, bool) {
        // FAMILIES lists every family; the fallback is never taken.
        FAMILIES
            .iter()
            .find(|r| r.0 == self)
            .unwrap_or(&FAMILIES[0])
    }

    /// The family's spec word (`cache-mode`).
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The Rust type of its behaviours, in `cann_config::behaviour`.
    pub fn type_name(self) -> &'static str {
        self.row().2
    }

    /// Whether every behaviour of the family must be done by some value.
    pub fn needs_every(self) -> bool {
        self.row().3
    }

    /// The family a spec word names.
    pub fn from_name(word: &str) -> Option<Family> {
        FAMILIES.iter().find(|r| r.1 == word).map(|r| r.0)
    }

    /// Every spec word of a family.
    pub fn names() -> impl Iterator<Item = &'static str> {
        FAMILIES.iter().map(|r| r.1)
    }

    /// The behaviours of the family, in spec order.
    pub fn behaviours(self) -> impl Iterator<Item = Behaviour> {
        BEHAVIOURS
            .iter()
            .map(|r| r.0)
            .filter(move |b| b.family() == self)
    }
}

impl Behaviour {
    /// The family the behaviour belongs to.
    pub const fn family(self) -> Family {
        match self {
            Behaviour::Cache(_) => Family::CacheMode,
            Behaviour::Memory(_) => Family::MemoryExpansion,
            Behaviour::Clean(_) => Family::AtomicClean,
            Behaviour::Pages(_) => Family::HugePages,
        }
    }

    /// Its spec word (`reuse`).
    pub fn name(self) -> &'static str {
        BEHAVIOURS.iter().find(|r| r.0 == self).map_or("", |r| r.1)
    }

    /// The behaviour of `family` a spec word names.
    pub fn from_name(family: Family, word: &str) -> Option<Behaviour> {
        BEHAVIOURS
            .iter()
            .find(|r| r.1 == word && r.0.family() == family)
            .map(|r| r.0)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Behaviour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_and_behaviour_is_spelled_once() {
        for (f, ..) in FAMILIES {
            assert_eq!(Family::from_name(f.name()), Some(*f));
            assert!(f.behaviours().count() > 0);
        }
        for (b, word) in BEHAVIOURS {
            assert_eq!(Behaviour::from_name(b.family(), word), Some(*b));
        }
        assert_eq!(Behaviour::from_name(Family::CacheMode, "centralized"), None);
    }

    #[test]
    fn expansion_parts_round_trip() {
        for b in Family::MemoryExpansion.behaviours() {
            let Behaviour::Memory(m) = b else {
                panic!("{b} is not a memory expansion")
            };
            assert_eq!(
                MemoryExpansion::from_parts(m.static_expansion(), m.dynamic_expansion()),
                m
            );
        }
    }
}
