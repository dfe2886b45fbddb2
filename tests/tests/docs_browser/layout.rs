//! Phone and desktop widths: at 375 px and 1280 px, in both languages, no page is wider than
//! the window, no table cell breaks a token (`8.0.RC2`, `"allow_fp32_to_fp16"`) over lines,
//! every table sits in a box that scrolls sideways, the header stays compact, and an
//! `#anchor` lands below the sticky header.

use serde_json::Value;

use super::driver::Driver;

/// Tokens of every visible table cell split over more than one line, and the page's width
/// against the window's. A token is a run of a code span without spaces, or a word of prose
/// (Latin letters, digits and the punctuation inside them: `8.0.RC2`; a hyphen, a slash or
/// a bar ends it, as typography breaks there).
const SCAN: &str = r#"
var bad = [];
var de = document.documentElement;
if (de.scrollWidth > window.innerWidth) { bad.push('page is ' + de.scrollWidth + ' px wide'); }
var prose = /[^\s\-\/|\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+/g, code = /\S+/g;
var cells = document.querySelectorAll('main td, main th');
for (var c = 0; c < cells.length && bad.length < 12; c++) {
  var walk = document.createTreeWalker(cells[c], NodeFilter.SHOW_TEXT);
  for (var n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.parentElement || !n.parentElement.getClientRects().length) { continue; }
    var m, re = n.parentElement.closest('code') ? code : prose;
    re.lastIndex = 0;
    while ((m = re.exec(n.data))) {
      var r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      var tops = {};
      Array.prototype.forEach.call(r.getClientRects(), function (x) { if (x.width > 0) { tops[Math.round(x.top)] = 1; } });
      if (Object.keys(tops).length > 1) { bad.push('`' + m[0] + '` breaks in a cell'); }
    }
  }
}
var wraps = Array.prototype.every.call(document.querySelectorAll('main table'), function (t) {
  var w = t.parentElement;
  return w.classList.contains('table-wrap') && getComputedStyle(w).overflowX === 'auto' && w.getBoundingClientRect().right <= window.innerWidth + 1;
});
if (!wraps) { bad.push('a table is not in its own scrolling box'); }
return bad;
"#;

pub fn pages(page: &str) -> Vec<String> {
    [
        "index.html",
        page,
        "options/npu_run_config.sump_mode.html",
        "options/npu_run_config.precision_mode.html",
        "options/npu_run_config.experimental_config.graph_memory_optimize_config.graph_slice.html",
        "picker.html",
        "products.html",
        "classes/NPURunConfig.html",
        "releases/9.0.0.html",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

pub fn check_widths(d: &Driver, base: &str, page: &str) {
    for (w, h) in [(375, 812), (1280, 900)] {
        d.set_size(w, h);
        for p in pages(page) {
            for lang in ["en", "zh"] {
                d.goto(&format!("{base}{p}?lang={lang}"));
                d.find("main h1");
                let screen = d.js("return window.innerWidth;").as_u64().unwrap_or(0);
                assert!(
                    screen > 0 && screen.abs_diff(u64::from(w)) <= 20,
                    "{p}: the window is {screen} px, not about {w}"
                );
                let bad = d.strings(SCAN);
                assert!(bad.is_empty(), "{p} ({lang}) at {w} px: {bad:?}");
            }
        }
        check_header_and_anchors(d, base, page, h);
    }
    d.set_size(1280, 900);
}

/// The sticky header takes at most an eighth of a phone's height, and a section reached by
/// its `#anchor` starts below it.
fn check_header_and_anchors(d: &Driver, base: &str, page: &str, height: u32) {
    for lang in ["en", "zh"] {
        d.goto(&format!("{base}{page}?lang={lang}"));
        d.find("main h1");
        let header =
            d.js("return document.querySelector('header.top').getBoundingClientRect().height;");
        let header = header.as_f64().unwrap_or(f64::MAX);
        assert!(
            header <= f64::from(height) / 8.0,
            "{lang}: the header is {header} px of {height}"
        );
        for anchor in ["values", "rules", "products", "sources"] {
            d.goto(&format!("{base}{page}?lang={lang}#{anchor}"));
            d.find("main h1");
            let ok = d.js(&format!(
                "var h = document.querySelector('header.top').getBoundingClientRect().bottom; \
                 var t = document.getElementById('{anchor}'); \
                 if (!t) {{ return 'missing'; }} \
                 var top = t.getBoundingClientRect().top; \
                 return top >= h - 1 && top < window.innerHeight ? true : ('top ' + top + ' header ' + h);"
            ));
            assert_eq!(ok, Value::Bool(true), "{page}#{anchor} ({lang}): {ok}");
        }
    }
}
