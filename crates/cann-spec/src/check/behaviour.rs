//! Checks of value behaviours (see [`crate::behaviour`]) and of `values_of`, which runs
//! before the other checks so that an option taking another's values is checked with them.

use crate::diag::Diagnostics;
use crate::keys as k;
use crate::model::{OptionType, Spec};
use crate::read::did_you_mean;

pub(crate) fn check(spec: &mut Spec, d: &mut Diagnostics) {
    values_of(spec, d);
    for o in &spec.options {
        let Some(family) = o.behaviours else { continue };
        if !matches!(o.ty, OptionType::IntEnum | OptionType::StrEnum) {
            d.error(
                o.at(k::BEHAVIOURS),
                format!(
                    "option `{}` names the behaviour family `{family}` but is not an enum",
                    o.name
                ),
            );
            continue;
        }
        // An option taking another's values is checked once, on that option.
        if !family.needs_every() || o.values_of.is_some() {
            continue;
        }
        // The runtime combines values into a behaviour and then needs the value doing it.
        let missing: Vec<&str> = family
            .behaviours()
            .filter(|b| !o.values.iter().any(|v| v.behaviour == Some(*b)))
            .map(|b| b.name())
            .collect();
        if !missing.is_empty() {
            d.error(
                o.at(k::BEHAVIOURS),
                format!(
                    "no value of `{}` does {}; the runtime combines `{family}` behaviours and needs a value for each",
                    o.name,
                    crate::read::list(&missing)
                ),
            );
        }
    }
}

/// Copies the values of the option `values_of` names; reports a name that is not an enum
/// option, a chain, or values of its own.
fn values_of(spec: &mut Spec, d: &mut Diagnostics) {
    for i in 0..spec.options.len() {
        let o = &spec.options[i];
        let Some(target) = o.values_of.as_deref() else {
            continue;
        };
        let at = o.at(k::VALUES_OF);
        let Some(t) = spec.options.iter().find(|t| t.name == target) else {
            let diag = d.error(
                at,
                format!("`values_of` names the unknown option `{target}`"),
            );
            if let Some(s) = did_you_mean(target, spec.options.iter().map(|t| t.name.as_str())) {
                diag.hint(format!("did you mean `{s}`?"));
            }
            continue;
        };
        let problem = if !o.values.is_empty() {
            Some(format!(
                "option `{}` takes the values of `{target}` and lists values of its own",
                o.name
            ))
        } else if t.values_of.is_some() {
            Some(format!(
                "`{target}` itself takes another option's values; name that option instead"
            ))
        } else if o.ty != t.ty || !matches!(t.ty, OptionType::IntEnum | OptionType::StrEnum) {
            Some(format!(
                "option `{}` is `{}` but `{target}` is `{}`; both must be the same enum type",
                o.name,
                o.ty.name(),
                t.ty.name()
            ))
        } else if o.behaviours.is_some() {
            Some(format!(
                "option `{}` takes the behaviours of `{target}` with its values; remove `behaviours`",
                o.name
            ))
        } else {
            None
        };
        if let Some(p) = problem {
            d.error(at, p);
            continue;
        }
        let (values, behaviours) = (t.values.clone(), t.behaviours);
        let o = &mut spec.options[i];
        o.values = values;
        o.behaviours = behaviours;
    }
}
