//! Search as readers use it: queries in Chinese, English, mixed and misspelled, written from
//! the option descriptions (`queries.tsv`), each finding its option in the top 3; `/` focuses
//! the box; the query is in the address; the page's Jaro-Winkler is the CLI's (strsim).

use serde_json::{json, Value};

use super::driver::Driver;

const QUERIES: &str = include_str!("queries.tsv");

/// (kind, query, option name) of every query.
pub fn queries() -> Vec<(String, String, String)> {
    QUERIES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut c = l.split('\t');
            Some((c.next()?.into(), c.next()?.into(), c.next()?.into()))
        })
        .collect()
}

pub fn check_queries(d: &Driver, base: &str) {
    let qs = queries();
    assert!(qs.len() >= 60, "{} queries", qs.len());
    for kind in ["zh", "en", "mixed", "typo"] {
        assert!(qs.iter().filter(|q| q.0 == kind).count() >= 10, "{kind}");
    }
    d.goto(&format!("{base}index.html?lang=en"));
    d.find("#search");
    let list: Vec<Value> = qs.iter().map(|q| json!(q.1)).collect();
    let script = format!(
        "var e = window.CANN_SEARCH_ENGINE; return {}.map(function (q) {{ \
         return e.search(q).slice(0, 3).map(function (h) {{ return h.item.name; }}).join(' '); }});",
        Value::Array(list)
    );
    let got = d.strings(&script);
    assert_eq!(got.len(), qs.len());
    let mut failed = Vec::new();
    for ((kind, q, want), top) in qs.iter().zip(&got) {
        if !top.split(' ').any(|n| n == want) {
            failed.push(format!("{kind} `{q}`: want {want}, top 3: {top}"));
        }
    }
    println!(
        "search: {} of {} queries find their option in the top 3",
        qs.len() - failed.len(),
        qs.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));

    // A name or key hit ranks before description hits.
    for (q, want) in [
        ("precision_mode", "precision_mode"),
        ("ge.exec.staticMemoryPolicy", "static_memory_policy"),
        ("ASCEND_CACHE_PATH", "ASCEND_CACHE_PATH"),
    ] {
        let first = d.js(&format!(
            "return window.CANN_SEARCH_ENGINE.search({}).map(function (h) {{ return h.item.name; }})[0];",
            json!(q)
        ));
        assert_eq!(first, json!(want), "{q}");
    }
}

/// Through the page: `/` focuses the box, typing a Chinese query lists the option first
/// among the top 3 and writes `?q=` into the address.
pub fn check_box(d: &Driver, base: &str) {
    d.goto(&format!("{base}index.html?lang=zh"));
    d.find("main h1");
    d.cmd(
        "POST",
        "/actions",
        Some(
            json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": [
                { "type": "keyDown", "value": "/" }, { "type": "keyUp", "value": "/" },
            ]}]}),
        ),
    );
    d.wait_for(
        "return document.activeElement === document.getElementById('search');",
        "`/` focuses search",
    );
    let value = d.js("return document.getElementById('search').value;");
    assert_eq!(value, json!(""), "the `/` is not typed into the box");
    let box_ = d.find("#search");
    d.type_text(&box_, "静态内存");
    d.find("#search-results a[data-name='static_memory_policy']");
    let top = d.strings("return Array.from(document.querySelectorAll('#search-results a')).slice(0, 3).map(a => a.getAttribute('data-name'));");
    assert!(top.contains(&"static_memory_policy".to_string()), "{top:?}");
    if base.starts_with("http") {
        d.wait_for(
            "return decodeURIComponent(location.search).indexOf('q=静态内存') >= 0 && location.search.indexOf('lang=zh') >= 0;",
            "query and language in the address",
        );
    }
}

/// Pairs of names, one a typo of the other, whose similarity the page must compute as
/// strsim does (the CLI's "did you mean" threshold is only meaningful if it does).
pub fn check_similarity(d: &Driver, base: &str, names: &[String]) {
    d.goto(&format!("{base}index.html?lang=en"));
    d.find("#search");
    let mut pairs = Vec::new();
    for (i, n) in names.iter().enumerate().step_by(7) {
        let swapped = swap(n, i);
        pairs.push((swapped.clone(), n.clone()));
        if let Some(m) = names.get(i + 1) {
            pairs.push((swapped, m.clone()));
        }
    }
    let arr: Vec<Value> = pairs.iter().map(|(a, b)| json!([a, b])).collect();
    let got = d.js(&format!(
        "return {}.map(function (p) {{ return window.CANN_SEARCH_ENGINE.jaroWinkler(p[0], p[1]); }});",
        Value::Array(arr)
    ));
    let got = got.as_array().cloned().unwrap_or_default();
    assert_eq!(got.len(), pairs.len());
    for ((a, b), g) in pairs.iter().zip(got) {
        let want = strsim::jaro_winkler(a, b);
        let g = g.as_f64().unwrap_or(-1.0);
        assert!(
            (g - want).abs() < 1e-9,
            "jaro_winkler({a}, {b}): page {g}, strsim {want}"
        );
    }
}

/// `name` with two neighbouring letters swapped somewhere in its middle.
fn swap(name: &str, seed: usize) -> String {
    let mut c: Vec<char> = name.chars().collect();
    if c.len() >= 4 {
        let i = 1 + seed % (c.len() - 2);
        c.swap(i, i + 1);
    }
    c.into_iter().collect()
}

/// Every option name typed with two neighbouring letters swapped finds the option in the
/// top 3, as the CLI's "did you mean" would suggest it.
pub fn check_typos(d: &Driver, base: &str, names: &[String]) {
    d.goto(&format!("{base}index.html?lang=en"));
    d.find("#search");
    let typed: Vec<(String, String)> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.chars().count() >= 6)
        .map(|(i, n)| (swap(n, i * 3 + 2), n.clone()))
        .filter(|(t, n)| t != n)
        .collect();
    let arr: Vec<Value> = typed.iter().map(|(t, _)| json!(t)).collect();
    let got = d.strings(&format!(
        "return {}.map(function (q) {{ return window.CANN_SEARCH_ENGINE.search(q).slice(0, 3).map(function (h) {{ return h.item.name; }}).join(' '); }});",
        Value::Array(arr)
    ));
    let missed: Vec<String> = typed
        .iter()
        .zip(&got)
        .filter(|((_, n), top)| !top.split(' ').any(|x| x == n))
        .map(|((t, n), top)| format!("`{t}` for {n}: {top}"))
        .collect();
    println!(
        "typos: {} of {} names with two letters swapped are in the top 3",
        typed.len() - missed.len(),
        typed.len()
    );
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}
