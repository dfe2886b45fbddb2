//! Real servers for the store tests, each started on 127.0.0.1 with a free port and stopped
//! when dropped. A missing server skips its tests with a message, except under `CI=true`,
//! where `.ci/run` installs them and a missing one is a failure.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{Store, TestEnv};

/// `Some(reason)` means skip; under CI a reason is a failure instead.
pub fn skip_or_fail<T>(what: &str, why: String) -> Option<T> {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{what}: {why} (CI=true: .ci/run installs it, so this must not be skipped)");
    }
    eprintln!("skipped: {what}: {why}");
    None
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn wait_port(port: u16, child: &mut Child, what: &str) {
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        if let Ok(Some(st)) = child.try_wait() {
            panic!("{what} exited before listening: {st}");
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} did not listen on 127.0.0.1:{port} within 30 s");
}

/// A child process killed (and reaped) on drop.
pub struct Server {
    child: Child,
    pub store: Store,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn which(bin: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| PathBuf::from(d).join(bin))
        .find(|p| p.is_file())
}

/// Debian's `redis-server`, no persistence, bound to loopback.
pub fn redis() -> Option<Server> {
    let Some(bin) = which("redis-server") else {
        return skip_or_fail(
            "Redis store tests",
            "redis-server is not installed (apt-get install redis-server)".into(),
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(bin)
        .args([
            "--bind",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .arg("--dir")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_port(port, &mut child, "redis-server");
    Some(Server {
        child,
        store: Store {
            url: format!("redis://127.0.0.1:{port}/0"),
            env: TestEnv::default(),
        },
        _dir: dir,
    })
}

/// moto's S3-protocol server (PyPI `moto[server]`) from the shared test Python, with a
/// bucket made for the tests.
pub fn s3() -> Option<Server> {
    let Some(py) = std::env::var_os("CANNCTL_TEST_PYTHON") else {
        return skip_or_fail(
            "S3 store tests",
            "CANNCTL_TEST_PYTHON is unset (a Python with moto[server])".into(),
        );
    };
    let has_moto = Command::new(&py)
        .args(["-c", "import moto.server, flask"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_moto {
        return skip_or_fail(
            "S3 store tests",
            format!(
                "{} cannot import moto.server (pip install 'moto[server]')",
                PathBuf::from(&py).display()
            ),
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(&py)
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_port(port, &mut child, "moto server");
    // moto accepts the bucket creation unsigned; the tests' requests are signed with its
    // well-known test credentials.
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "PUT /cann-test HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").unwrap();
    let mut resp = String::new();
    let _ = s.read_to_string(&mut resp);
    assert!(
        resp.starts_with("HTTP/1.1 200"),
        "creating the bucket: {resp}"
    );
    let env = TestEnv(
        [
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", "testing"),
            ("AWS_ENDPOINT_URL", &format!("http://127.0.0.1:{port}")),
            ("AWS_REGION", "us-east-1"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect(),
    );
    Some(Server {
        child,
        store: Store {
            url: "s3://cann-test/team/cache".into(),
            env,
        },
        _dir: dir,
    })
}
