//! The two stores the model's records are held in.
//!
//! One record type serves both: `Change<Owned>` is what the loader reads, and
//! `Change<Tables>` (cann-config's `meta::ChangeMeta`) is what codegen emits as `static`
//! data. The stores differ in four ways, each an associated type, so no record is written
//! twice: how strings and lists are held, how releases and products are named, and whether
//! positions in the spec are kept.

use std::cmp::Ordering;
use std::fmt::{Debug, Display};
use std::ops::Deref;

use crate::diag::Loc;

/// What a record of the model holds its data in.
pub trait Store: Data + Copy + Default {
    /// A string: `String` in the loader, `&'static str` in the tables.
    type Str: AsRef<str> + Data;
    /// A list: `Vec<T>` in the loader, `&'static [T]` in the tables.
    type List<T: Data>: Deref<Target = [T]> + Data;
    /// A release: its id in the loader, the generated `Release` enum in the tables.
    type Release: Display + Data;
    /// A product: its id in the loader, the generated `Product` enum in the tables.
    type Product: Display + Data;
    /// A position in the spec (`Loc`, where each key was written): kept by the loader for
    /// its messages, `()` in the tables, which the run time reads without them.
    type Pos<T: Data>: Data;
}

/// What every field of a record is, so the records derive their traits over any store.
pub trait Data: Clone + Debug + PartialEq + Eq + 'static {}

impl<T: Clone + Debug + PartialEq + Eq + 'static> Data for T {}

/// The loader's store: owned strings and lists, releases and products by id, positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Owned;

impl Store for Owned {
    type Str = String;
    type List<T: Data> = Vec<T>;
    type Release = String;
    type Product = String;
    type Pos<T: Data> = T;
}

/// A release type whose own order is the release order: the generated `Release` enum,
/// oldest first. Ids (the loader's releases) are not: they are ordered through the spec.
pub trait Ordered: Copy + Ord + Debug + 'static {
    /// Every release, oldest first.
    const ALL: &'static [Self];
    /// CANN's own version string, e.g. `9.0.0`.
    fn id(self) -> &'static str;
}

/// A release to read facts at, compared with the releases a record names: an [`Ordered`]
/// release itself, or a release of the loader's spec by index ([`crate::Spec::at`]).
pub trait At<R> {
    /// How this release compares with `r`; `None` when `r` is not a known release.
    fn cmp_to(&self, r: &R) -> Option<Ordering>;

    /// Whether `r` is this release or an older one.
    fn reached(&self, r: &R) -> bool {
        matches!(self.cmp_to(r), Some(Ordering::Greater | Ordering::Equal))
    }
}

impl<R: Ordered> At<R> for R {
    fn cmp_to(&self, r: &R) -> Option<Ordering> {
        Some(self.cmp(r))
    }
}

/// The release with index `index` in the loader's `spec.releases`.
#[derive(Debug, Clone, Copy)]
pub struct SpecAt<'a> {
    pub spec: &'a crate::Spec,
    pub index: usize,
}

impl At<String> for SpecAt<'_> {
    fn cmp_to(&self, r: &String) -> Option<Ordering> {
        Some(self.index.cmp(&self.spec.release_index(r)?))
    }
}

/// A position the loader keeps and the tables drop.
pub type Position<S> = <S as Store>::Pos<Loc>;
