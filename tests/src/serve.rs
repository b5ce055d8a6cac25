//! Running `host serve` for a test, and talking HTTP/1.1 to it over a plain socket.
//!
//! The server listens on 127.0.0.1 with a port it picks (`--addr 127.0.0.1:0`) and
//! says which on stdout; the test's `Server` stops it (SIGTERM, then a kill) when
//! dropped, so no test leaves a server behind. Requests are written byte for byte
//! (no client library normalizes `..` or re-encodes a path), which the bad-input tests
//! need. This file knows the `serve` command's arguments and its first stdout line,
//! nothing of its answers.

use crate::run::run_host;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a server may take to start listening.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `host serve`, stopped when dropped.
pub struct Server {
    child: Option<Child>,
    /// Where it listens.
    pub addr: SocketAddr,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Server {
    /// Starts `host serve` on a free loopback port with `args` before the command
    /// (`--plugin` options) and `--db resource`.
    pub fn start(host: &Path, plugins: &[&str], resource: &str) -> Server {
        Self::start_with(host, plugins, &["--db", resource])
    }

    /// Starts `host serve` with `serve_args` after the command.
    pub fn start_with(host: &Path, plugins: &[&str], serve_args: &[&str]) -> Server {
        let mut cmd = Command::new(host);
        for p in plugins {
            cmd.args(["--plugin", p]);
        }
        cmd.arg("serve")
            .args(serve_args)
            .args(["--addr", "127.0.0.1:0"])
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("starting host serve");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let err_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = BufReader::new(stderr).take(1 << 20).read_to_string(&mut s);
            s
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(first)) = lines.next() {
                let _ = tx.send(first);
            }
            // Keep reading so the server never blocks on a full pipe.
            for _ in lines {}
        });
        let mut server = Server {
            child: Some(child),
            addr: "127.0.0.1:1".parse().unwrap(),
            stderr: Some(err_reader),
        };
        let line = match rx.recv_timeout(START_TIMEOUT) {
            Ok(l) => l,
            Err(_) => {
                let (status, err) = server.stop();
                panic!("host serve did not start listening ({status:?}):\n{err}");
            }
        };
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line from host serve: {line}"));
        server.addr = addr;
        server
    }

    /// The base URL (`http://127.0.0.1:PORT`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `GET path`, answered in full.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path)
    }

    /// `METHOD path` without a body.
    pub fn request(&self, method: &str, path: &str) -> Response {
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nOrigin: http://elsewhere.example\r\nConnection: close\r\n\r\n",
            self.addr
        );
        self.raw(req.as_bytes())
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// Sends `bytes` as they are and reads the answer until the server closes.
    pub fn raw(&self, bytes: &[u8]) -> Result<Response, String> {
        let mut s = TcpStream::connect(self.addr).map_err(|e| format!("connecting: {e}"))?;
        s.set_read_timeout(Some(REQUEST_TIMEOUT)).unwrap();
        s.set_write_timeout(Some(REQUEST_TIMEOUT)).unwrap();
        // A server may answer and close before reading a huge request to its end.
        let _ = s.write_all(bytes);
        let mut data = Vec::new();
        let _ = s.read_to_end(&mut data);
        Response::parse(&data)
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running server").id()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.as_mut().map(|c| c.try_wait()), Some(Ok(None)))
    }

    /// Sends SIGTERM and waits (killing it after 10 s); returns how it ended and its
    /// stderr.
    pub fn stop(&mut self) -> (Option<ExitStatus>, String) {
        let status = self.child.take().map(|mut child| {
            if let Ok(Some(status)) = child.try_wait() {
                return status;
            }
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                if let Ok(Some(status)) = child.try_wait() {
                    break status;
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    break child.wait().expect("reaping host serve");
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let err = self
            .stderr
            .take()
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default();
        (status, err)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Solves `games` (module, variant) into a fresh directory.
pub fn solved(host: &Path, games: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", dir.path().display());
    for (module, variant) in games {
        run_host(
            host,
            &[
                "--plugin",
                module,
                "--variant",
                variant,
                "solve",
                "--db",
                &resource,
            ],
        )
        .assert_success();
    }
    dir
}

/// The `file:` resource of a database directory.
pub fn resource(dir: &tempfile::TempDir) -> String {
    format!("file:{}", dir.path().display())
}

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Header lines, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (chunked bodies decoded).
    pub body: Vec<u8>,
}

impl Response {
    fn parse(data: &[u8]) -> Result<Response, String> {
        let end = data
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or_else(|| format!("no complete answer ({} bytes)", data.len()))?;
        let head = String::from_utf8_lossy(&data[..end]);
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap_or_default();
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {status_line:?}"))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let mut body = data[end + 4..].to_vec();
        if headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"))
        {
            body = dechunk(&body)?;
        }
        Ok(Response {
            status,
            headers,
            body,
        })
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; panics with the body when it is not.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("truncated chunk size")?;
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&data[..line_end])
                .split(';')
                .next()
                .unwrap_or("")
                .trim(),
            16,
        )
        .map_err(|e| format!("bad chunk size: {e}"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        if data.len() < size + 2 {
            return Err("truncated chunk".into());
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

/// Percent-encodes a query value (everything but unreserved characters).
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
