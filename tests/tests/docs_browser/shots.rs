//! Screenshots for a person to look at (never committed): with `CANN_DOCS_SCREENSHOTS=DIR`,
//! the index, an option page, a removed option's page and the picker at 375 and 1280 px, in
//! both languages, as PNG files in DIR.

use std::path::Path;

use super::driver::Driver;

pub fn take(d: &Driver, base: &str, page: &str, dir: &Path) {
    std::fs::create_dir_all(dir).expect("create the screenshot directory");
    let pages = [
        ("index", "index.html".to_string()),
        ("option", page.to_string()),
        (
            "removed",
            "options/npu_run_config.sump_mode.html".to_string(),
        ),
        (
            "picker",
            "picker.html?release=9.0.0&product=atlas-a2-training".to_string(),
        ),
    ];
    for (w, h) in [(375, 812), (1280, 900)] {
        d.set_size(w, h);
        for (name, p) in &pages {
            for lang in ["en", "zh"] {
                let sep = if p.contains('?') { '&' } else { '?' };
                d.goto(&format!("{base}{p}{sep}lang={lang}"));
                d.find("main h1");
                let file = dir.join(format!("{name}-{lang}-{w}.png"));
                std::fs::write(&file, d.screenshot()).expect("write a screenshot");
            }
        }
    }
    d.set_size(1280, 900);
}
