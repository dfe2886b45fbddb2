//! Every page reachable from the index, fetched by the browser from the served site: each
//! internal link names a page that loads, and each `#anchor` an element of that page (as the
//! page's own script leaves it, for the headings it numbers). Links carry `?lang=`.

use super::driver::Driver;

const CRAWL: &str = r#"
var start = new URL('index.html', location.href).href;
var seen = {}, queue = [start], pages = 0, bad = [], ids = {}, links = [];
function load(u) {
  var x = new XMLHttpRequest();
  x.open('GET', u, false);
  try { x.send(); } catch (e) { return null; }
  return x.status === 200 ? x.responseText : null;
}
while (queue.length && pages < 2000) {
  var u = queue.shift();
  if (seen[u]) { continue; }
  seen[u] = 1;
  var text = load(u);
  if (text === null) { bad.push('does not load: ' + u); continue; }
  if (!/\.html$/.test(u)) { continue; }
  pages++;
  var doc = new DOMParser().parseFromString(text, 'text/html');
  ids[u] = {};
  Array.prototype.forEach.call(doc.querySelectorAll('[id]'), function (e) { ids[u][e.id] = 1; });
  Array.prototype.forEach.call(doc.querySelectorAll('a[href]'), function (a) {
    var h = a.getAttribute('href');
    if (/^[a-z]+:/i.test(h)) { return; }
    var abs = new URL(h, u);
    var file = abs.origin + abs.pathname;
    links.push([u, h, file, abs.hash.slice(1)]);
    if (!seen[file]) { queue.push(file); }
  });
}
links.forEach(function (l) {
  if (!seen[l[2]]) { return; }
  if (l[3] && ids[l[2]] && !ids[l[2]][decodeURIComponent(l[3])]) { bad.push(l[0] + ': ' + l[1] + ' names no anchor there'); }
});
return [String(pages), String(links.length)].concat(bad.slice(0, 30));
"#;

pub fn check_every_link(d: &Driver, base: &str) {
    d.goto(&format!("{base}index.html?lang=en"));
    d.find("main h1");
    let out = d.strings(CRAWL);
    let pages: usize = out[0].parse().unwrap_or(0);
    let links: usize = out[1].parse().unwrap_or(0);
    println!("crawl: {pages} pages, {links} internal links");
    assert!(pages > 150, "only {pages} pages reached from the index");
    assert!(out.len() == 2, "broken links:\n{}", out[2..].join("\n"));

    // In the page as the reader has it, every internal page link carries the language.
    for lang in ["en", "zh"] {
        for p in [
            "index.html",
            "options/npu_run_config.sump_mode.html",
            "picker.html",
        ] {
            d.goto(&format!("{base}{p}?lang={lang}"));
            d.find("main h1");
            let missing = d.strings(&format!(
                "return Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href')).filter(h => /\\.html/.test(h) && !/^[a-z]+:/i.test(h) && h.indexOf('lang={lang}') < 0);"
            ));
            assert!(missing.is_empty(), "{p} ({lang}): {missing:?}");
        }
    }
}
