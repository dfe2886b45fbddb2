//! The generated docs site in a real browser: headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromium-driver`). The site is served from `docs/` by a small
//! static server on 127.0.0.1, and opened again from file://. Checked: the index page loads
//! with its search index, search finds `static_memory_policy`, its page shows the product
//! table with Atlas 350, and the language switch shows (and remembers) the Chinese text.
//!
//! Without Chromium the test fails when `CI` is set and is skipped otherwise.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

// ---------------------------------------------------------------- static server

/// Serves a directory on 127.0.0.1 until dropped; bounded in time and connections.
struct Server {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

const SERVER_LIFETIME: Duration = Duration::from_secs(180);
const SERVER_MAX_CONNECTIONS: usize = 5_000;

impl Server {
    fn start(dir: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let deadline = Instant::now() + SERVER_LIFETIME;
            let mut served = 0;
            while !flag.load(Ordering::Relaxed)
                && Instant::now() < deadline
                && served < SERVER_MAX_CONNECTIONS
            {
                match listener.accept() {
                    Ok((stream, _)) => {
                        // One thread per connection: the browser opens connections it
                        // may never use, and one of those must not hold up the rest.
                        served += 1;
                        let dir = dir.clone();
                        std::thread::spawn(move || serve_one(stream, &dir));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => break,
                }
            }
        });
        Server {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve_one(stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let rel = path.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    let file = (!rel.split('/').any(|p| p == ".." || p.is_empty()))
        .then(|| dir.join(rel))
        .and_then(|p| std::fs::read(p).ok());
    let mut out = stream;
    match file {
        Some(body) => {
            let ty = match rel.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("json") => "application/json",
                _ => "text/plain; charset=utf-8",
            };
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: {ty}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            out.write_all(&body)?;
        }
        None => {
            out.write_all(
                b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            )?;
        }
    }
    out.flush()
}

// ---------------------------------------------------------------- WebDriver client

/// The few WebDriver commands the test needs, over plain HTTP/1.1.
struct Driver {
    child: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path).chain([PathBuf::from("/usr/bin")]) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    // chromedriver keeps the connection open whatever we ask: read by Content-Length.
    let mut reader = BufReader::new(s);
    let mut length = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err("connection closed in the header".into());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
            if k == "content-length" {
                length = v.parse::<usize>().ok();
            } else if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
                chunked = true;
            }
        }
    }
    let payload = if chunked {
        let mut out = Vec::new();
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).map_err(|e| e.to_string())?;
            let n = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            out.extend_from_slice(&chunk[..n]);
        }
        String::from_utf8_lossy(&out).into_owned()
    } else {
        let n = length.ok_or("no Content-Length")?;
        let mut body = vec![0; n];
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
        String::from_utf8_lossy(&body).into_owned()
    };
    let v: Value = serde_json::from_str(&payload).map_err(|e| format!("{e}: {payload}"))?;
    let value = v.get("value").cloned().unwrap_or(Value::Null);
    if let Some(err) = value.get("error") {
        return Err(format!(
            "{method} {path}: {err}: {}",
            value.get("message").cloned().unwrap_or_default()
        ));
    }
    Ok(value)
}

impl Driver {
    fn start(chromium: &Path, chromedriver: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let profile =
            std::env::temp_dir().join(format!("cann-docs-chromium-{}", std::process::id()));
        let mut d = Driver {
            child,
            port,
            session: String::new(),
            profile,
        };
        let ready = Instant::now() + Duration::from_secs(20);
        while http(port, "GET", "/status", None).is_err() {
            assert!(Instant::now() < ready, "chromedriver did not come up");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1280,900",
                    format!("--user-data-dir={}", d.profile.display()),
                ],
            },
        }}});
        let v = http(port, "POST", "/session", Some(&caps)).expect("new session");
        d.session = v["sessionId"].as_str().unwrap().to_string();
        d
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let p = format!("/session/{}{path}", self.session);
        http(self.port, method, &p, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    fn url(&self) -> String {
        self.cmd("GET", "/url", None).as_str().unwrap().to_string()
    }

    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    fn try_find(&self, css: &str) -> Option<String> {
        let p = format!("/session/{}/element", self.session);
        let body = json!({ "using": "css selector", "value": css });
        http(self.port, "POST", &p, Some(&body))
            .ok()
            .and_then(|v| v[ELEMENT].as_str().map(str::to_string))
    }

    /// Waits up to 10 s for an element.
    fn find(&self, css: &str) -> String {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(e) = self.try_find(css) {
                return e;
            }
            if Instant::now() >= until {
                let p = format!("/session/{}/element", self.session);
                let why = http(
                    self.port,
                    "POST",
                    &p,
                    Some(&json!({ "using": "css selector", "value": css })),
                );
                let html = self.js("return document.documentElement.outerHTML.slice(0, 400);");
                panic!(
                    "no element matches `{css}` at {}: {why:?}\n{html}",
                    self.url()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Rendered text: what a person sees, without elements hidden by the stylesheet.
    fn text(&self, el: &str) -> String {
        self.cmd("GET", &format!("/element/{el}/text"), None)
            .as_str()
            .unwrap()
            .to_string()
    }

    fn click(&self, el: &str) {
        self.cmd("POST", &format!("/element/{el}/click"), Some(json!({})));
    }

    fn set_size(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// Waits up to 10 s for a script to return true.
    fn wait_for(&self, script: &str, what: &str) {
        let until = Instant::now() + Duration::from_secs(10);
        while self.js(script) != Value::Bool(true) {
            assert!(Instant::now() < until, "{what} at {}", self.url());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn strings(&self, script: &str) -> Vec<String> {
        self.js(script)
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn type_text(&self, el: &str, text: &str) {
        self.cmd(
            "POST",
            &format!("/element/{el}/value"),
            Some(json!({ "text": text })),
        );
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

// ---------------------------------------------------------------- the test

fn check_site(d: &Driver, base: &str, page: &str, en: &str, zh: &str) {
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
    while !d.url().ends_with(page) {
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
    check_narrow_screen(d, base, page);
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

/// At 390 px no page is wider than the screen: wide tables scroll in their own box.
fn check_narrow_screen(d: &Driver, base: &str, page: &str) {
    d.set_size(390, 844);
    let pages = [
        "index.html".to_string(),
        page.to_string(),
        "products.html".to_string(),
        "classes/NPURunConfig.html".to_string(),
        "releases/9.0.0.html".to_string(),
        "options/npu_run_config.experimental_config.graph_memory_optimize_config.graph_slice.html"
            .to_string(),
    ];
    for p in &pages {
        for lang in ["en", "zh"] {
            d.goto(&format!("{base}{p}?lang={lang}"));
            d.find("main h1");
            let w = d.js("return [document.documentElement.scrollWidth, window.innerWidth];");
            let (page_w, screen) = (w[0].as_u64().unwrap_or(0), w[1].as_u64().unwrap_or(0));
            assert!(
                screen > 0 && screen <= 400,
                "{p}: the window is {screen} px"
            );
            assert!(
                page_w <= screen,
                "{p} ({lang}) is {page_w} px wide on a {screen} px screen"
            );
        }
    }
    // Every table sits in a box that scrolls sideways when the table is wider than it.
    d.goto(&format!("{base}{page}?lang=en"));
    let boxed = d.js("return Array.from(document.querySelectorAll('main table')).every(t => { var w = t.parentElement; return w.classList.contains('table-wrap') && getComputedStyle(w).overflowX === 'auto' && w.clientWidth <= window.innerWidth; });");
    assert_eq!(
        boxed,
        Value::Bool(true),
        "every table scrolls in its own box"
    );
    d.set_size(1280, 900);
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
    check_site(
        &driver,
        &format!("http://127.0.0.1:{}/", server.port),
        &page,
        &o.doc.en,
        &o.doc.zh,
    );
    check_site(
        &driver,
        &format!("file://{}/", docs.display()),
        &page,
        &o.doc.en,
        &o.doc.zh,
    );
}
