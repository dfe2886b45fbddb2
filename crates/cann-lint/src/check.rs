//! One config object through `cann_config`'s reader and validator: every rule about a value
//! lives there, none here.

use cann_config::{config_from_node, validate_into, Config, Diagnostic, Report, Target};

use crate::extract::ConfigObject;
use crate::{Finding, FindingKind, LintOptions};

pub(crate) fn check(obj: ConfigObject, opts: &LintOptions) -> Vec<Finding> {
    let mut out = obj.findings;
    if obj.doc.is_empty() {
        return out;
    }
    let anchor = obj.anchor;
    let surface = obj.surface;
    let mut push = |mut d: Diagnostic| {
        if d.line.is_none() {
            d.line = Some(anchor.line);
            d.column = Some(anchor.col);
        }
        out.push(Finding {
            surface,
            kind: FindingKind::Spec,
            diagnostic: d,
        });
    };
    let file = match config_from_node(&obj.doc.to_node(anchor)) {
        Ok(f) => f,
        Err(e) => {
            // Not expected: the tree is always a mapping. Said rather than dropped.
            let mut d = Diagnostic::new(cann_config::meta::Severity::Error, "", e.message);
            d.line = e.pos.map(|p| p.line);
            d.column = e.pos.map(|p| p.col);
            push(d);
            return out;
        }
    };
    let mut ds = file.diagnostics.clone();
    ds.extend(validate(&file.config, opts));
    for mut d in ds {
        file.locate(&mut d);
        push(d);
    }
    out
}

/// With a product, its findings. Without one, a script may run on any product the release
/// knows, so only what is wrong on every one of them is reported: bad values, ranges,
/// deprecations and rules, but not product support.
fn validate(config: &Config, opts: &LintOptions) -> Vec<Diagnostic> {
    let run = |product| {
        let mut r = Report::new(opts.lang);
        validate_into(
            config,
            Target {
                product,
                release: opts.release,
            },
            &mut r,
        );
        r.diagnostics
    };
    if let Some(p) = opts.product {
        return run(p);
    }
    let mut per_product = opts.release.meta().products.iter().map(|p| run(*p));
    let Some(first) = per_product.next() else {
        return Vec::new();
    };
    let rest: Vec<Vec<Diagnostic>> = per_product.collect();
    first
        .into_iter()
        .filter(|d| rest.iter().all(|other| other.contains(d)))
        .collect()
}
