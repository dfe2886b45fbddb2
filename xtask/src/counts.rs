//! `cargo xtask history-counts`: per modelled release, how many options the spec states with
//! a source, how many may exist there with their first release unknown (`introduced`), and
//! the retired options and spellings it models. For the release note; it writes nothing.
//!
//! An option counts as sourced in a release when the spec says it is there (available, and
//! not before its first record) or that it is gone by then (a removal), and that statement
//! cites a source: the option's own for being there, the removal's for being gone.

use std::path::Path;

use cann_spec::{Gone, OptionSpec, OptionType, Spec};

pub fn run(root: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let dir = root.join("spec");
    let spec = cann_config::model().map_err(|e| format!("{}: {e}", dir.display()))?;
    print!("{}", report(spec));
    Ok(())
}

/// What one release has, in counts.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    /// Stated present there, with a source.
    present: usize,
    /// Stated gone by then (or never read), with the removal's source.
    retired: usize,
    /// Inside `available` but before the first record: may or may not be there.
    unknown: usize,
    /// Stated present or gone, but citing nothing.
    unsourced: usize,
}

fn counts(spec: &Spec, ri: usize) -> Counts {
    let lookup = |id: &str| spec.release_index(id);
    let mut c = Counts::default();
    // Classes are counted through their fields.
    for o in spec
        .options
        .iter()
        .filter(|o| !matches!(o.ty, OptionType::Config(_)))
    {
        if o.available.contains_index(ri, lookup) {
            let before_record = o
                .introduced
                .as_ref()
                .and_then(|i| lookup(&i.first_recorded))
                .is_some_and(|first| ri < first);
            if before_record {
                c.unknown += 1;
            } else if o.source.is_empty() {
                c.unsourced += 1;
            } else {
                c.present += 1;
            }
        } else if let Some(r) = o.removal().filter(|r| gone_by(spec, &r.gone, ri)) {
            if r.source.is_empty() {
                c.unsourced += 1;
            } else {
                c.retired += 1;
            }
        }
    }
    c
}

/// Whether the release at `ri` no longer reads what `gone` retires.
fn gone_by(spec: &Spec, gone: &Gone, ri: usize) -> bool {
    match gone {
        Gone::Never => true,
        Gone::After(last) => spec.release_index(last).is_some_and(|l| ri > l),
        Gone::Before(b) => spec.release_index(b).is_some_and(|b| ri >= b),
    }
}

fn when(gone: &Gone) -> String {
    match gone {
        Gone::After(l) => format!("last supported in {l}"),
        Gone::Before(b) => format!("unsupported since {b}"),
        Gone::Never => "never read".into(),
    }
}

fn report(spec: &Spec) -> String {
    let mut s =
        String::from("release    sourced  (present  retired)  first-release-unknown  unsourced\n");
    for (ri, r) in spec.releases.iter().enumerate() {
        let c = counts(spec, ri);
        s.push_str(&format!(
            "{:<10} {:>7}  ({:>7}  {:>7})  {:>21}  {:>9}\n",
            r.id,
            c.present + c.retired,
            c.present,
            c.retired,
            c.unknown,
            c.unsourced
        ));
    }
    let whole: Vec<&OptionSpec> = spec
        .options
        .iter()
        .filter(|o| o.removal().is_some())
        .collect();
    s.push_str(&format!("\nretired options modelled: {}\n", whole.len()));
    for o in &whole {
        if let Some(r) = o.removal() {
            s.push_str(&format!("  {} ({})\n", o.path, when(&r.gone)));
        }
    }
    let spellings: Vec<(&OptionSpec, &cann_spec::Removal)> = spec
        .options
        .iter()
        .flat_map(|o| {
            o.removed
                .iter()
                .filter(|r| !r.is_whole())
                .map(move |r| (o, r))
        })
        .collect();
    s.push_str(&format!(
        "retired spellings of living options: {}\n",
        spellings.len()
    ));
    for (o, r) in spellings {
        s.push_str(&format!("  {} ({})\n", o.path, when(&r.gone)));
    }
    let unknown: Vec<&OptionSpec> = spec
        .options
        .iter()
        .filter(|o| o.introduced.is_some())
        .collect();
    s.push_str(&format!(
        "options whose first release is not known: {}\n",
        unknown.len()
    ));
    for o in unknown {
        if let Some(i) = &o.introduced {
            s.push_str(&format!(
                "  {} (after {}, first recorded in {})\n",
                o.path, i.after, i.first_recorded
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_of_a_release_is_counted_once() {
        let Ok(spec) = cann_config::model() else {
            panic!("the bundled spec does not load");
        };
        let leaves = spec
            .options
            .iter()
            .filter(|o| !matches!(o.ty, OptionType::Config(_)))
            .count();
        let lookup = |id: &str| spec.release_index(id);
        for (ri, r) in spec.releases.iter().enumerate() {
            let c = counts(spec, ri);
            let available = spec
                .options
                .iter()
                .filter(|o| !matches!(o.ty, OptionType::Config(_)))
                .filter(|o| o.available.contains_index(ri, lookup))
                .count();
            // Every statement of the bundled spec cites something.
            assert_eq!(c.unsourced, 0, "{}", r.id);
            assert_eq!(c.present + c.unknown, available, "{}", r.id);
            assert!(c.present + c.retired + c.unknown <= leaves, "{}", r.id);
        }
        // Before the newest release, the options first recorded there are unknown, not
        // counted as present; from it on they are present.
        let newest = spec.releases.len() - 1;
        assert!(counts(spec, 0).unknown > 0);
        assert_eq!(counts(spec, newest).unknown, 0);
        assert!(report(spec).contains("retired options modelled"));
    }
}
