//! The site's behaviour as a reader meets it: search to a page, the product table, the
//! language switch and `?lang=`, marks and legends, contents and anchors, the products matrix.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::driver::Driver;

pub fn check_site(d: &Driver, base: &str, page: &str, en: &str, zh: &str) {
    // English first, whatever an earlier run left in storage.
    d.goto(&format!("{base}index.html"));
    d.js("try { localStorage.clear(); } catch (e) {}");
    d.goto(&format!("{base}index.html"));

    // The index loads, with the search index from its script tag.
    let h1 = d.text(&d.find("main h1"));
    assert_eq!(h1, "CANN TF Adapter options", "{base}");
    let entries = d.js("return (window.CANN_SEARCH || []).length;");
    assert!(
        entries.as_u64().unwrap_or(0) > 10,
        "search index: {entries}"
    );

    // Search finds static_memory_policy and leads to its page.
    let box_ = d.find("#search");
    d.type_text(&box_, "static_memory");
    let hit = d.find("#search-results a[data-name='static_memory_policy']");
    d.click(&hit);
    let until = Instant::now() + Duration::from_secs(10);
    while !d
        .url()
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .ends_with(page)
    {
        assert!(Instant::now() < until, "did not reach {page}: {}", d.url());
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(d.text(&d.find("#option-name")), "static_memory_policy");
    assert_eq!(d.text(&d.find("#description")), en);

    // The product table has Atlas 350, supported from 9.0.0 on.
    let head: Vec<String> = d
        .js("return Array.from(document.querySelectorAll('#support thead th')).map(e => e.innerText.trim());")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let col = head
        .iter()
        .position(|h| h == "9.0.0")
        .expect("a 9.0.0 column");
    let row = d.find("#support tr[data-product='atlas-350']");
    let cells: Vec<String> = d
        .js("return Array.from(document.querySelectorAll(\"#support tr[data-product='atlas-350'] > *\")).map(e => e.innerText.trim());")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(d.text(&row).starts_with("Atlas 350"), "{cells:?}");
    assert_eq!(cells[col], "✓", "Atlas 350 on 9.0.0: {cells:?}");

    // The language switch shows the Chinese text, and the choice is remembered.
    d.click(&d.find("#lang-toggle"));
    assert_eq!(d.text(&d.find("#description")), zh);
    assert!(
        d.text(&row).starts_with("Atlas 350 加速卡"),
        "{}",
        d.text(&row)
    );
    d.goto(&format!("{base}{page}"));
    assert_eq!(
        d.text(&d.find("#description")),
        zh,
        "language not remembered"
    );
    d.click(&d.find("#lang-toggle"));
    assert_eq!(d.text(&d.find("#description")), en);

    check_marks(d, base, page, &head);
    check_links(d, base, page, en, zh);
    check_search_shows_the_match(d, base);
    check_contents_and_anchors(d, base, page);
    check_products_matrix(d, base);
}

/// "Not in this release" (—) is told apart from "not supported" (☓), in a legend in both
/// languages.
fn check_marks(d: &Driver, base: &str, page: &str, head: &[String]) {
    d.goto(&format!("{base}{page}?lang=en"));
    let col = head
        .iter()
        .position(|h| h == "8.3.RC1")
        .expect("an 8.3.RC1 column");
    let cells = d.strings("return Array.from(document.querySelectorAll(\"#support tr[data-product='atlas-350'] > *\")).map(e => e.innerText.trim());");
    assert_eq!(cells[col], "—", "Atlas 350 is not in 8.3.RC1: {cells:?}");
    let titles = d.strings("return Array.from(document.querySelectorAll(\"#support tr[data-product='atlas-350'] td\")).map(e => e.className);");
    assert!(
        titles.iter().any(|c| c == "absent") && titles.iter().any(|c| c == "yes"),
        "{titles:?}"
    );
    // Somewhere in the spec an option exists in a release that knows a product and is
    // not supported there: its page shows ☓, and the legend names it.
    let legend = d.text(&d.find("p.legend"));
    assert!(legend.contains("product not in this release"), "{legend}");
    d.goto(&format!(
        "{base}options/npu_run_config.memory_config.html?lang=en"
    ));
    let no = d.js("return document.querySelectorAll('#support td.no').length;");
    assert!(
        no.as_u64().unwrap_or(0) > 0,
        "memory_config is not supported on some products"
    );
    assert!(d.text(&d.find("p.legend")).contains("☓ not supported"));
    d.goto(&format!(
        "{base}options/npu_run_config.memory_config.html?lang=zh"
    ));
    let legend = d.text(&d.find("p.legend"));
    assert!(
        legend.contains("☓ 不支持") && legend.contains("该版本不含此产品"),
        "{legend}"
    );
}

/// `?lang=` picks the language of a shared link; the switch writes it into the address.
fn check_links(d: &Driver, base: &str, page: &str, en: &str, zh: &str) {
    d.goto(&format!("{base}index.html"));
    d.js("try { localStorage.clear(); } catch (e) {}");
    d.goto(&format!("{base}{page}?lang=zh"));
    assert_eq!(d.text(&d.find("#description")), zh, "?lang=zh");
    d.goto(&format!("{base}{page}?lang=en"));
    assert_eq!(d.text(&d.find("#description")), en, "?lang=en");
    if base.starts_with("http") {
        d.click(&d.find("#lang-toggle"));
        assert!(d.url().contains("lang=zh"), "{}", d.url());
        d.click(&d.find("#lang-toggle"));
        assert!(d.url().contains("lang=en"), "{}", d.url());
    }
}

/// `?q=` opens a search; a hit by its `ge.*` key says that key, in the page's language.
fn check_search_shows_the_match(d: &Driver, base: &str) {
    for (lang, label) in [("en", "graph-engine key"), ("zh", "图引擎参数")] {
        d.goto(&format!(
            "{base}index.html?lang={lang}&q=ge.exec.staticMemoryPolicy"
        ));
        let hit = d.find("#search-results a[data-name='static_memory_policy']");
        let text = d.text(&hit);
        assert!(
            text.contains("ge.exec.staticMemoryPolicy") && text.contains(label),
            "{lang}: {text}"
        );
        let value = d.js("return document.getElementById('search').value;");
        assert_eq!(value, "ge.exec.staticMemoryPolicy");
    }
    if base.starts_with("http") {
        d.goto(&format!("{base}index.html"));
        let box_ = d.find("#search");
        d.type_text(&box_, "aicore");
        d.wait_for(
            "return location.search.indexOf('q=aicore') >= 0;",
            "?q= follows the box",
        );
    }
}

/// Every section heading has an anchor, and a page of several sections lists them.
fn check_contents_and_anchors(d: &Driver, base: &str, page: &str) {
    for lang in ["en", "zh"] {
        d.goto(&format!("{base}{page}?lang={lang}"));
        let toc = d.strings("return Array.from(document.querySelectorAll('#toc a')).map(a => a.getAttribute('href'));");
        assert!(
            toc.len() >= 3 && toc.contains(&"#products".to_string()),
            "{toc:?}"
        );
        let words = d.text(&d.find("#toc"));
        let want = if lang == "zh" {
            "产品与版本支持"
        } else {
            "Support by product and release"
        };
        assert!(words.contains(want), "{lang}: {words}");
        let anchors = d.js("return Array.from(document.querySelectorAll('main h2')).every(h => h.id && h.querySelector('a.anchor[href=\"#' + h.id + '\"]'));");
        assert_eq!(anchors, Value::Bool(true));
        d.click(&d.find("#toc a[href='#products']"));
        d.wait_for(
            "return location.hash === '#products';",
            "the contents lead to the section",
        );
    }
}

/// The products page has its own product × release matrix.
fn check_products_matrix(d: &Driver, base: &str) {
    for lang in ["en", "zh"] {
        d.goto(&format!("{base}products.html?lang={lang}"));
        let rows = d.js(
            "return document.querySelectorAll('#matrix ~ .table-wrap #support tbody tr').length;",
        );
        assert!(rows.as_u64().unwrap_or(0) >= 8, "{lang}: {rows}");
        let marks = d.strings("return Array.from(document.querySelectorAll(\"#support tr[data-product='atlas-350'] td\")).map(e => e.innerText.trim());");
        assert!(
            marks.contains(&"✓".to_string()) && marks.contains(&"—".to_string()),
            "{marks:?}"
        );
    }
}

/// The unreleased release `next` says so wherever a reader picks or meets it, in both
/// languages: the picker (which starts at the newest released release, as `cannctl check`
/// defaults to), the index's release list, its release page, and an option page's release
/// picker and block.
pub fn check_unreleased(d: &Driver, base: &str) {
    for (lang, word) in [("en", "unreleased"), ("zh", "未发布")] {
        d.goto(&format!("{base}picker.html?lang={lang}"));
        d.wait_for(
            "return document.querySelectorAll('#pick-release option').length > 1;",
            "the picker's releases",
        );
        let chosen = d.js("return document.getElementById('pick-release').value;");
        assert_eq!(
            chosen, "9.0.0",
            "{lang}: the picker starts at the newest released release"
        );
        let label = d.js(
            "return document.querySelector(\"#pick-release option[value='next']\").textContent;",
        );
        assert_eq!(label, format!("next ({word})"), "{lang}");

        d.goto(&format!("{base}index.html?lang={lang}"));
        let item = d.text(&d.find("#releases + ul li:last-child"));
        assert_eq!(item, format!("CANN next {word}"), "{lang}");
        d.goto(&format!("{base}releases/next.html?lang={lang}"));
        assert_eq!(
            d.text(&d.find("#release-name")),
            format!("CANN next {word}")
        );
        d.goto(&format!("{base}releases/9.0.0.html?lang={lang}"));
        assert_eq!(d.text(&d.find("#release-name")), "CANN 9.0.0");

        d.goto(&format!(
            "{base}options/npu_run_config.auto_multistream_parallel_mode.html?release=next&lang={lang}"
        ));
        let title = d.text(&d.find(".at-release[data-release='next'] .at-release-title"));
        assert_eq!(title, format!("CANN next {word}"), "{lang}");
    }
}
