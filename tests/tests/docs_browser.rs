//! The generated docs site in a real browser: headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromium-driver`), one browser for the whole test. The site is
//! served from `docs/` by a small static server on 127.0.0.1, and opened again from file://.
//!
//! Checked: search to a page, the product table and the language switch (`site`); widths of
//! 375 and 1280 px in both languages (`layout`); 60+ reader queries in Chinese, English,
//! mixed and misspelled, `/` and the address (`search`); the language of a first visit and
//! of copied links (`lang`); every internal link and anchor (`crawl`).
//! `CANN_DOCS_SCREENSHOTS=DIR` also writes screenshots to DIR (`shots`).
//!
//! Without Chromium the test fails when `CI` is set and is skipped otherwise.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "docs_browser/crawl.rs"]
mod crawl;
#[path = "docs_browser/driver.rs"]
mod driver;
#[path = "docs_browser/lang.rs"]
mod lang;
#[path = "docs_browser/layout.rs"]
mod layout;
#[path = "docs_browser/search.rs"]
mod search;
#[path = "docs_browser/server.rs"]
mod server;
#[path = "docs_browser/shots.rs"]
mod shots;
#[path = "docs_browser/site.rs"]
mod site;

use std::path::{Path, PathBuf};

use driver::{find_program, Driver};
use server::Server;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn docs_site_works_in_chromium() {
    let chromium = find_program(&["chromium", "chromium-browser"]);
    let chromedriver = find_program(&["chromedriver"]);
    let (Some(chromium), Some(chromedriver)) = (chromium, chromedriver) else {
        let msg =
            "chromium and chromedriver are needed: apt-get install -y chromium chromium-driver";
        if std::env::var_os("CI").is_some() {
            panic!("{msg}");
        }
        eprintln!("skipped docs_site_works_in_chromium: {msg}");
        return;
    };
    let spec = cann_spec::load_dir(&root().join("spec")).expect("the spec loads");
    let o = spec
        .options
        .iter()
        .find(|o| o.name == "static_memory_policy")
        .expect("static_memory_policy in the spec");
    let page = format!("options/{}.html", o.path);
    let docs = root().join("docs");
    assert!(
        docs.join(&page).is_file(),
        "{page} missing; run `cargo xtask regenerate`"
    );

    let server = Server::start(docs.clone());
    let driver = Driver::start(&chromium, &chromedriver);
    let http = format!("http://127.0.0.1:{}/", server.port);
    let file = format!("file://{}/", docs.display());
    let (en, zh) = (&o.doc.en, &o.doc.zh);

    site::check_site(&driver, &http, &page, en, zh);
    site::check_site(&driver, &file, &page, en, zh);
    site::check_unreleased(&driver, &http);
    layout::check_widths(&driver, &http, &page);
    search::check_queries(&driver, &http);
    search::check_box(&driver, &http);
    let names: Vec<String> = spec.options.iter().map(|o| o.name.clone()).collect();
    search::check_similarity(&driver, &http, &names);
    search::check_typos(&driver, &http, &names);
    crawl::check_every_link(&driver, &http);
    lang::check_first_visit(&driver, &http, &page, en, zh);
    lang::check_first_visit(&driver, &file, &page, en, zh);
    if let Some(dir) = std::env::var_os("CANN_DOCS_SCREENSHOTS") {
        shots::take(&driver, &http, &page, Path::new(&dir));
    }
}
