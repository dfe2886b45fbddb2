//! An option as it stands in one release, and the releases in which that changes.
//!
//! The one reading of an option's `changes`, value availability and per-value product
//! support by release: `explain --release`, the docs' option pages and the JSON Schema all
//! show what this returns, so they cannot disagree with `check`.

use crate::meta::{supports, Lit, OptionMeta, RangeMeta, ValueMeta};
use crate::{Product, Release};

/// One value of an option in one release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueIn {
    pub value: &'static ValueMeta,
    /// The adapter takes the value in this release.
    pub available: bool,
    /// Products of the release that may use the value (the value's own support, else the
    /// option's); empty when the value is not available.
    pub products: Vec<Product>,
}

/// The facts of an option in effect in one release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionIn {
    pub option: &'static OptionMeta,
    pub release: Release,
    /// The adapter reads the option in this release.
    pub read: bool,
    pub default: Option<Lit>,
    pub range: Option<RangeMeta>,
    pub ge_key: Option<&'static str>,
    /// Products of the release that may use the option.
    pub products: Vec<Product>,
    /// Every value the spec lists, available in this release or not, in spec order.
    pub values: Vec<ValueIn>,
}

impl OptionIn {
    /// The values the adapter takes in this release.
    pub fn available_values(&self) -> impl Iterator<Item = &ValueIn> {
        self.values.iter().filter(|v| v.available)
    }

    /// Whether the facts a user sets differ from `other`'s (the products aside, which the
    /// support table shows).
    fn same_facts(&self, other: &OptionIn) -> bool {
        let lits =
            |o: &OptionIn| -> Vec<Lit> { o.available_values().map(|v| v.value.value).collect() };
        self.read == other.read
            && self.default == other.default
            && self.range == other.range
            && self.ge_key == other.ge_key
            && lits(self) == lits(other)
    }
}

/// The products of `release` that `products` support there.
fn products_in(products: crate::meta::Products, release: Release) -> Vec<Product> {
    release
        .meta()
        .products
        .iter()
        .copied()
        .filter(|p| supports(products, *p, release))
        .collect()
}

impl OptionMeta {
    /// This option as it stands in `release`.
    pub fn in_release(&'static self, release: Release) -> OptionIn {
        let read = self.available.contains(release);
        let products = if read {
            products_in(self.products, release)
        } else {
            Vec::new()
        };
        let values = self
            .values
            .iter()
            .map(|v| {
                let available = read && v.available.contains(release);
                ValueIn {
                    value: v,
                    available,
                    products: if available {
                        products_in(v.products.unwrap_or(self.products), release)
                    } else {
                        Vec::new()
                    },
                }
            })
            .collect();
        OptionIn {
            option: self,
            release,
            read,
            default: self.default_in(release),
            range: self.range_in(release),
            ge_key: self.ge_key_in(release),
            products,
            values,
        }
    }

    /// The option in the first release, then in each release whose facts differ from the
    /// release before (the default, range, graph-engine key, available values, or whether it
    /// is read at all), oldest first.
    pub fn history(&'static self) -> Vec<OptionIn> {
        let mut out: Vec<OptionIn> = Vec::new();
        for r in Release::ALL {
            let now = self.in_release(*r);
            if out.last().is_none_or(|before| !before.same_facts(&now)) {
                out.push(now);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use crate::{Release, OPTIONS};

    #[test]
    fn every_release_reads_the_facts_check_uses() {
        for o in OPTIONS.iter() {
            for r in Release::ALL {
                let at = o.in_release(*r);
                assert_eq!(at.default, o.default_in(*r), "{}", o.path);
                assert_eq!(at.range, o.range_in(*r), "{}", o.path);
                for v in &at.values {
                    assert_eq!(
                        v.available,
                        o.available.contains(*r) && v.value.available.contains(*r),
                        "{} {}",
                        o.path,
                        v.value.value
                    );
                }
            }
        }
    }

    #[test]
    fn history_starts_at_the_first_release_and_lists_only_changes() {
        for o in OPTIONS.iter() {
            let h = o.history();
            assert_eq!(h.first().map(|f| f.release), Release::ALL.first().copied());
            for w in h.windows(2) {
                assert!(!w[0].same_facts(&w[1]), "{}: {:?}", o.path, w[1].release);
            }
        }
        // variable_use_1g_huge_page is read from 8.1.RC1 on: its history says so.
        let o = OPTIONS
            .iter()
            .find(|o| o.name == "variable_use_1g_huge_page")
            .expect("in the spec");
        let h = o.history();
        assert!(!h[0].read);
        assert!(h.iter().any(|f| f.read && f.release.id() == "8.1.RC1"));
    }
}
