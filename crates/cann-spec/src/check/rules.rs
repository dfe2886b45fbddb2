//! Cross-option rules: each condition names a known option and a value of its type.

use crate::diag::Diagnostics;
use crate::fits::literal_fits;
use crate::model::{Literal, OptionType, Spec, Test};
use crate::read::did_you_mean;

use super::refs::range;

pub(super) fn rules(spec: &Spec, d: &mut Diagnostics) {
    let paths: Vec<&str> = spec.options.iter().map(|o| o.path.as_str()).collect();
    for r in &spec.rules {
        range(spec, &r.available, d);
        for c in &r.when {
            let Some(o) = spec.option_by_path(&c.option) else {
                let diag = d.error(
                    c.loc.clone(),
                    format!("rule `{}` names unknown option `{}`", r.id, c.option),
                );
                if let Some(s) = did_you_mean(&c.option, paths.iter().copied()) {
                    diag.hint(format!("did you mean `{s}`?"));
                }
                continue;
            };
            let lits: Vec<&Literal> = match &c.test {
                Test::Equals(l) | Test::Not(l) => vec![l],
                Test::In(ls) => ls.iter().collect(),
                Test::Set | Test::Unset => vec![],
            };
            for lit in lits {
                if !literal_fits(&o.ty, lit) {
                    d.error(
                        c.loc.clone(),
                        format!(
                            "rule `{}`: {lit} does not fit the type {} of `{}`",
                            r.id,
                            o.ty.name(),
                            o.path
                        ),
                    );
                } else if !o.values.is_empty()
                    && o.ty != OptionType::Bool
                    && !o.values.iter().any(|v| v.value == *lit)
                {
                    d.error(
                        c.loc.clone(),
                        format!("rule `{}`: {lit} is not a value of `{}`", r.id, o.path),
                    )
                    .hint("conditions compare canonical values, not legacy aliases");
                }
            }
            if matches!(o.ty, OptionType::Config(_)) && !matches!(c.test, Test::Set | Test::Unset) {
                d.error(
                    c.loc.clone(),
                    format!(
                        "rule `{}`: a config class can only be tested with `set`/`unset`",
                        r.id
                    ),
                );
            }
        }
    }
}
