//! Where the generated docs site explains an option, for links from findings.

use cann_config::{OPTIONS, RULES};

/// The docs page of the option a finding (of a script or a config file) is about: a
/// rule's first option, else the finding's own.
pub fn docs_page(d: &cann_config::Diagnostic, docs_url: &str) -> Option<String> {
    let option = d
        .rule
        .and_then(|id| RULES.iter().find(|r| r.id == id))
        .and_then(|r| r.options.first().copied())
        .unwrap_or(d.option.as_str());
    option_page(option, docs_url)
}

/// The docs page of the option at `path` under the site at `docs_url`.
pub fn option_page(path: &str, docs_url: &str) -> Option<String> {
    let o = OPTIONS.iter().find(|o| o.path == path)?;
    Some(format!(
        "{}/options/{}.html",
        docs_url.trim_end_matches('/'),
        o.path
    ))
}
