//! What the pages must never say, checked on the generated site of the bundled spec: a
//! retired option offers no way to set it, no range of releases runs backwards, "any
//! release" is said only of options read by every release from an open start to an open
//! end, and the index writes "unset" where there is no default.

use cann_spec::Spec;

use crate::regenerate::Output;

fn site() -> (&'static Spec, Vec<Output>) {
    let Ok(spec) = cann_config::model() else {
        panic!("the bundled spec does not load");
    };
    match crate::regenerate::generate(spec) {
        Ok(out) => (spec, out),
        Err(e) => panic!("{e}"),
    }
}

fn page<'a>(out: &'a [Output], path: &str) -> &'a str {
    match out.iter().find(|o| o.path == path) {
        Some(o) => &o.text,
        None => panic!("{path} was not generated"),
    }
}

/// The English text of the "Available" row.
fn available(text: &str) -> &str {
    text.split("id=\"available\"><span class=\"en\" lang=\"en\">")
        .nth(1)
        .and_then(|s| s.split("</span>").next())
        .unwrap_or_default()
}

#[test]
fn retired_options_say_so_first_and_offer_nothing_to_set() {
    let (spec, out) = site();
    let mut retired = 0;
    for o in spec.options.iter().filter(|o| o.removal().is_some()) {
        retired += 1;
        let text = page(&out, &format!("docs/options/{}.html", o.path));
        let lead = text.find("id=\"retired\"");
        let desc = text.find("id=\"description\"");
        assert!(
            lead.is_some() && lead < desc,
            "{}: no leading retirement",
            o.path
        );
        assert!(
            !text.contains("id=\"how-to-set\""),
            "{}: how to set it",
            o.path
        );
        assert!(!text.contains("class=\"snippet\""), "{}: a snippet", o.path);
    }
    assert!(retired >= 20, "{retired} retired options");
}

#[test]
fn release_ranges_run_forwards_and_any_release_is_true() {
    let (spec, out) = site();
    let order = |id: &str| spec.release_index(id);
    for o in &spec.options {
        let text = page(&out, &format!("docs/options/{}.html", o.path));
        let words = available(text);
        assert!(!words.is_empty(), "{}: no Available row", o.path);
        if let Some(range) = words.strip_prefix("releases ") {
            let (a, b) = range.split_once(" to ").unwrap_or((range, range));
            assert!(order(a) < order(b), "{}: {words}", o.path);
        }
        if words == "any release" {
            assert!(
                o.introduced.is_none()
                    && o.removal().is_none()
                    && o.available.from.is_none()
                    && o.available.last.is_none(),
                "{}: says any release",
                o.path
            );
        }
    }
}

#[test]
fn the_index_writes_unset_where_there_is_no_default() {
    let (spec, out) = site();
    let index = page(&out, "docs/index.html");
    let unset = index.matches("<span class=\"unset\">").count();
    let without = spec.options.iter().filter(|o| o.default.is_none()).count();
    assert_eq!(unset, without);
    assert!(!index.contains("<td><code></code></td>"));
}
