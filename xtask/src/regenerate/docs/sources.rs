//! A spec source as the pages show it: web pages and upstream files are links, files of this
//! repository and other notes stay text.

/// Hosts of the upstream repositories the spec cites as `owner/repo@ref:path[:line[-line]]`
/// (or `path:absent`, the file that never names the item).
const GITHUB_OWNERS: &[&str] = &["hicann", "Ascend", "tensorflow"];

/// A source as inline markup: a link when it is a page or an upstream file; an absence
/// citation (`path:absent`) shows the file, then says in words that it never names the item.
pub fn html(source: &str) -> super::html::Html {
    use super::html::{escape, Html};
    let (shown, absent) = match absent_file(source) {
        Some(file) => (file, true),
        None => (source, false),
    };
    let code = format!("<code>{}</code>", escape(shown));
    let mut out = match href(source) {
        Some(h) => format!("<a href=\"{}\" rel=\"noopener\">{code}</a>", escape(&h)),
        None => code,
    };
    if absent {
        out.push(' ');
        out.push_str(&super::text::t(super::text::msg::source_absent).to_string());
    }
    Html::trusted(out)
}

/// The citation without its `:absent`, when it is an absence citation.
fn absent_file(source: &str) -> Option<&str> {
    source
        .trim()
        .strip_suffix(cann_spec::source::ABSENT)?
        .strip_suffix(':')
        .filter(|f| !f.is_empty())
}

/// The address of a source, when it is a web page or a file of an upstream repository.
pub fn href(source: &str) -> Option<String> {
    let s = source.trim();
    if s.starts_with("https://") || s.starts_with("http://") {
        return Some(s.to_string());
    }
    let (repo, rest) = s.split_once('@')?;
    let (owner, name) = repo.split_once('/')?;
    if !GITHUB_OWNERS.contains(&owner) || name.is_empty() || name.contains(['/', ' ']) {
        return None;
    }
    let (reference, file) = rest.split_once(':')?;
    let file = file
        .strip_suffix(cann_spec::source::ABSENT)
        .and_then(|f| f.strip_suffix(':'))
        .unwrap_or(file);
    if reference.is_empty() || reference.contains(' ') || file.is_empty() {
        return None;
    }
    // A trailing `:12` or `:12-30` (or `#L12`) cites lines of the file.
    let (path, lines) = match file.rsplit_once(':') {
        Some((p, l)) if !l.is_empty() && l.chars().all(|c| c.is_ascii_digit() || c == '-') => {
            (p, Some(l))
        }
        _ => match file.split_once("#L") {
            Some((p, l)) => (p, Some(l)),
            None => (file, None),
        },
    };
    if path.contains(' ') {
        return None;
    }
    let anchor = match lines.map(|l| l.split_once('-').unwrap_or((l, ""))) {
        Some((a, "")) => format!("#L{}", a.trim_start_matches('L')),
        Some((a, b)) => format!(
            "#L{}-L{}",
            a.trim_start_matches('L'),
            b.trim_start_matches('L')
        ),
        None => String::new(),
    };
    Some(format!(
        "https://github.com/{owner}/{name}/blob/{reference}/{path}{anchor}"
    ))
}

#[cfg(test)]
mod tests {
    use super::href;

    #[test]
    fn upstream_files_and_pages_are_links() {
        assert_eq!(
            href("hicann/tensorflow@82957b9:tf_adapter/util/npu_attrs.cc").as_deref(),
            Some("https://github.com/hicann/tensorflow/blob/82957b9/tf_adapter/util/npu_attrs.cc")
        );
        assert_eq!(
            href("Ascend/tensorflow@8650ec39:tf_adapter/util/npu_attrs.cc:120-134").as_deref(),
            Some("https://github.com/Ascend/tensorflow/blob/8650ec39/tf_adapter/util/npu_attrs.cc#L120-L134")
        );
        assert_eq!(
            href("https://www.hiascend.com/x.html").as_deref(),
            Some("https://www.hiascend.com/x.html")
        );
        assert_eq!(
            href("hicann/tensorflow@82957b9:tf_adapter/util/npu_attrs.cc:absent").as_deref(),
            Some("https://github.com/hicann/tensorflow/blob/82957b9/tf_adapter/util/npu_attrs.cc")
        );
        assert_eq!(href("spec/history/upstream-refs.json"), None);
        let absent = super::html("hicann/tensorflow@82957b9:tf_adapter/util/npu_attrs.cc:absent");
        let absent = absent.to_string();
        assert!(!absent.contains(":absent"), "{absent}");
        assert!(
            absent.contains("<code>hicann/tensorflow@82957b9:tf_adapter/util/npu_attrs.cc</code>"),
            "{absent}"
        );
        assert!(
            absent.contains("never names it") && absent.contains("从未提及"),
            "{absent}"
        );
        assert_eq!(href("seeds/003_4673dfd952b60fb9.txt"), None);
    }
}
