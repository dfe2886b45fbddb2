//! The reader's language: a first visit follows `navigator.languages` (zh* is Chinese), the
//! choice is kept, and a link copied from a page opens in the language it was seen in.

use super::driver::Driver;

pub fn check_first_visit(d: &Driver, base: &str, page: &str, en: &str, zh: &str) {
    for (accept, want, text) in [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh", zh),
        ("zh-TW", "zh", zh),
        ("en-US,en;q=0.9,zh;q=0.8", "en", en),
        ("fr-FR,zh;q=0.5", "zh", zh),
        ("de-DE", "en", en),
    ] {
        d.set_languages(accept);
        d.goto(&format!("{base}index.html"));
        d.js("try { localStorage.clear(); } catch (e) {}");
        d.goto(&format!("{base}{page}"));
        let got = d.js("return document.documentElement.lang;");
        assert_eq!(got.as_str(), Some(want), "navigator.languages {accept}");
        assert_eq!(d.text(&d.find("#description")), text, "{accept}");
        // A link on the page, copied and opened elsewhere, opens in the same language.
        let href = d.js("return document.querySelector('.crumbs a').href;");
        let href = href.as_str().unwrap_or_default().to_string();
        assert!(href.contains(&format!("lang={want}")), "{accept}: {href}");
        if base.starts_with("http") {
            assert!(d.url().contains(&format!("lang={want}")), "{}", d.url());
        }
    }
    // A choice made on the page outlives what the browser asks for.
    d.set_languages("en-US");
    d.goto(&format!("{base}{page}"));
    assert_eq!(
        d.js("return document.documentElement.lang;").as_str(),
        Some("en")
    );
    d.click(&d.find("#lang-toggle"));
    d.goto(&format!("{base}index.html"));
    assert_eq!(
        d.js("return document.documentElement.lang;").as_str(),
        Some("zh"),
        "the choice is kept"
    );
    d.js("try { localStorage.clear(); } catch (e) {}");
}
