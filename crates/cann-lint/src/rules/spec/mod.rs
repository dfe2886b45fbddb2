//! The spec's own verdicts: every finding of `cann_config`'s reader and validator on the
//! settings a script makes (a value, a product, a release, a cross-option rule from
//! `spec/rules.yaml`), so that a script gets the findings a config file with the same
//! settings would. Its id is the spec rule's id, else the option's path (`config` for a
//! finding about no option); it is described by the spec rule's message, else the option's
//! doc, and explained on the page of the rule's first option, else of the option.
//!
//! No verdict about a value is made in lint: [`check`] only builds config-file trees of the
//! settings and hands them to `cann_config`.

mod check;

pub(crate) use check::check;

use cann_config::meta::Lang;
use cann_config::{OPTIONS, RULES};

use crate::Finding;

pub(super) fn id(f: &Finding) -> &str {
    match f.diagnostic.rule {
        Some(r) => r,
        None if f.diagnostic.option.is_empty() => "config",
        None => &f.diagnostic.option,
    }
}

pub(super) fn describe(f: &Finding, lang: Lang) -> String {
    if let Some(r) = f
        .diagnostic
        .rule
        .and_then(|id| RULES.iter().find(|r| r.id == id))
    {
        return r.message.get(lang).into();
    }
    match OPTIONS.iter().find(|o| o.path == f.diagnostic.option) {
        Some(o) => o.doc.get(lang).into(),
        None => f.diagnostic.option.clone(),
    }
}

pub(super) fn help(f: &Finding, docs_url: &str) -> Option<String> {
    crate::docs::docs_page(&f.diagnostic, docs_url)
}
