//! The few WebDriver commands the test needs, over plain HTTP/1.1, to Debian's chromium and
//! chromium-driver.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The few WebDriver commands the test needs, over plain HTTP/1.1.
pub struct Driver {
    child: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub fn find_program(names: &[&str]) -> Option<PathBuf> {
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
    pub fn start(chromium: &Path, chromedriver: &Path) -> Driver {
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

    pub fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let p = format!("/session/{}{path}", self.session);
        http(self.port, method, &p, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    pub fn url(&self) -> String {
        self.cmd("GET", "/url", None).as_str().unwrap().to_string()
    }

    pub fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    pub fn try_find(&self, css: &str) -> Option<String> {
        let p = format!("/session/{}/element", self.session);
        let body = json!({ "using": "css selector", "value": css });
        http(self.port, "POST", &p, Some(&body))
            .ok()
            .and_then(|v| v[ELEMENT].as_str().map(str::to_string))
    }

    /// Waits up to 10 s for an element.
    pub fn find(&self, css: &str) -> String {
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
    pub fn text(&self, el: &str) -> String {
        self.cmd("GET", &format!("/element/{el}/text"), None)
            .as_str()
            .unwrap()
            .to_string()
    }

    pub fn click(&self, el: &str) {
        self.cmd("POST", &format!("/element/{el}/click"), Some(json!({})));
    }

    pub fn set_size(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// Waits up to 10 s for a script to return true.
    pub fn wait_for(&self, script: &str, what: &str) {
        let until = Instant::now() + Duration::from_secs(10);
        while self.js(script) != Value::Bool(true) {
            assert!(Instant::now() < until, "{what} at {}", self.url());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn strings(&self, script: &str) -> Vec<String> {
        self.js(script)
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let b64 = self.cmd("GET", "/screenshot", None);
        decode_base64(b64.as_str().unwrap_or_default())
    }

    /// The languages the browser says it prefers (`navigator.languages`), as a reader's
    /// system would set them, through the DevTools protocol chromedriver forwards.
    pub fn set_languages(&self, accept: &str) {
        let ua = self.js("return navigator.userAgent;");
        self.cmd(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setUserAgentOverride", "params": {
                "userAgent": ua, "acceptLanguage": accept,
            }})),
        );
    }

    pub fn type_text(&self, el: &str, text: &str) {
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

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
