//! Driving the board page of `host serve` in headless Chromium through chromedriver
//! (WebDriver, with fantoccini): finding the browser, starting a driver on a free
//! loopback port, a session per test, and waiting for the page to reach a state.
//!
//! Without Chromium and chromedriver a test is skipped with a message, except when
//! `CI` is set: CI must run the browser tests. Tests using `with_page` run one at a
//! time. This file knows the page's element ids, not what a test checks.

use crate::serve::{encode, solved, Server};
use crate::workspace::host_binary;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// How long the page may take to reach a state.
pub const WAIT: Duration = Duration::from_secs(20);

/// The colours the page gives values (as the browser computes them).
pub fn colour(value: &str) -> &'static str {
    match value {
        "win" => "rgb(0, 160, 0)",
        "tie" | "draw" => "rgb(230, 194, 0)",
        "lose" => "rgb(139, 0, 0)",
        _ => "rgb(136, 136, 136)",
    }
}

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium and chromedriver, or `None` after saying why the test is skipped; under
/// `CI` their absence fails the test.
pub fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = find_program(&["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        (c, d) => {
            let missing = match (c.is_none(), d.is_none()) {
                (true, true) => "chromium and chromedriver are",
                (true, false) => "chromium is",
                _ => "chromedriver is",
            };
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must run the browser tests, but {missing} not installed (apt-get install chromium chromium-driver)"
            );
            eprintln!("skipping the browser test: {missing} not installed (apt-get install chromium chromium-driver)");
            None
        }
    }
}

/// A chromedriver on a free loopback port, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start(program: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        // Its own process group, so dropping the driver also ends the browser it
        // started, even when a failing test never closed its session.
        let child = Command::new(program)
            .process_group(0)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting chromedriver");
        let d = Driver { child, port };
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        d
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group: chromedriver and the Chromium processes it started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one test works with: a server, a driver, the browser session.
pub struct Page {
    /// The server under test.
    pub server: Server,
    /// The browser session.
    pub client: Client,
    driver: Driver,
}

async fn open(chromium: &Path, driver: Driver, server: Server, width: u32, height: u32) -> Page {
    let mut caps = serde_json::Map::new();
    // The console (console.error, failed requests), read by `Page::browser_log`.
    caps.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
    // chromedriver starts every session with a new temporary profile: nothing cached
    // (GamesmanUni's service worker) carries over from an earlier run.
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", format!("--window-size={width},{height}"),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session");
    Page {
        server,
        client,
        driver,
    }
}

impl Page {
    pub async fn goto(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.server.url()))
            .await
            .unwrap();
    }

    pub async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap()
    }

    /// Waits until `condition` (a JS expression) is true; fails with the page's state.
    pub async fn wait_until(&self, condition: &str, what: &str) {
        let deadline = Instant::now() + WAIT;
        let script = format!("return !!({condition});");
        while Instant::now() < deadline {
            if self.js(&script).await == json!(true) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let state = self
            .js("return [document.getElementById('prediction').textContent, document.getElementById('position').textContent, document.getElementById('message').textContent].join(' | ');")
            .await;
        panic!("timed out waiting for {what} ({condition}); page: {state}");
    }

    pub async fn position(&self) -> String {
        self.js("return document.getElementById('position').textContent;")
            .await
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Waits for the page to show `position` (as the API gives it: the page shows it
    /// with `%XX` escapes decoded) with its moves drawn.
    pub async fn wait_for_position(&self, position: &str) {
        let p = serde_json::to_string(position).unwrap();
        self.wait_until(
            &format!(
                "document.getElementById('position').textContent === decodeURIComponent({p}) && document.querySelectorAll('#moves li').length > 0"
            ),
            &format!("position {position}"),
        )
        .await;
    }

    /// The API's answer for `position` ("" for the start).
    pub fn api(&self, game: &str, variant: &str, position: &str) -> Value {
        let query = if position.is_empty() {
            String::new()
        } else {
            format!("?p={}", encode(position))
        };
        let r = self
            .server
            .get(&format!("/api/{game}/{variant}/positions/{query}"));
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    }

    pub async fn key(&self, key: Key) {
        let k: char = key.into();
        let actions = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: k })
            .then(KeyAction::Up { value: k });
        self.client.perform_actions(actions).await.unwrap();
    }

    pub async fn select(&self, id: &str, value: &str) {
        self.js(&format!(
            "const s = document.getElementById('{id}'); s.value = '{value}'; s.dispatchEvent(new Event('change')); return true;"
        ))
        .await;
    }

    /// The browser's console and network log since the last call (chromedriver's
    /// `se/log`): objects with `level` (`SEVERE` for errors), `source` and `message`.
    pub async fn browser_log(&self) -> Vec<Value> {
        let id = self.client.session_id().await.unwrap().expect("a session");
        let body = r#"{"type":"browser"}"#;
        let request = format!(
            "POST /session/{id}/se/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let port = self.driver.port;
        let body = tokio::task::spawn_blocking(move || {
            use std::io::{BufRead, BufReader, Read, Write};
            let mut tcp = TcpStream::connect(("127.0.0.1", port)).expect("chromedriver");
            tcp.set_read_timeout(Some(WAIT)).unwrap();
            tcp.write_all(request.as_bytes()).unwrap();
            // chromedriver keeps the connection open: read the headers, then the body's
            // Content-Length bytes.
            let mut reader = BufReader::new(tcp);
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("chromedriver's answer");
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().expect("a length");
                    }
                }
            }
            let mut body = vec![0u8; length];
            reader.read_exact(&mut body).expect("chromedriver's log");
            String::from_utf8_lossy(&body).to_string()
        })
        .await
        .unwrap();
        let v: Value = serde_json::from_str(body.trim())
            .unwrap_or_else(|e| panic!("chromedriver's log is not JSON ({e}): {body}"));
        v["value"].as_array().cloned().unwrap_or_default()
    }

    /// A PNG of the window.
    pub async fn screenshot(&self) -> Vec<u8> {
        self.client.screenshot().await.unwrap()
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// A test body: runs with the page.
pub type PageTest<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + 'a>>;

/// Runs `test` with a page on a server for `games` (solved first), or skips.
pub fn with_page<F>(games: &[(&str, &str)], size: (u32, u32), test: F)
where
    F: for<'a> FnOnce(&'a Page) -> PageTest<'a>,
{
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some((chromium, _)) = browser() else {
        return;
    };
    let db = solved(&host_binary(), games);
    let mut modules: Vec<&str> = games.iter().map(|(m, _)| *m).collect();
    modules.dedup();
    let resource = format!("file:{}", db.path().display());
    run_page(&chromium, &modules, &["--db", &resource], size, test);
}

/// Runs `test` with a page on `host serve` of `modules` with `serve_args` (the
/// database and whatever else), once a browser is known to be there (`browser`).
pub fn with_server_page<F>(modules: &[&str], serve_args: &[&str], size: (u32, u32), test: F)
where
    F: for<'a> FnOnce(&'a Page) -> PageTest<'a>,
{
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some((chromium, _)) = browser() else {
        return;
    };
    run_page(&chromium, modules, serve_args, size, test);
}

fn run_page<F>(chromium: &Path, modules: &[&str], serve_args: &[&str], size: (u32, u32), test: F)
where
    F: for<'a> FnOnce(&'a Page) -> PageTest<'a>,
{
    let driver = browser().expect("checked by the caller").1;
    let server = Server::start_with(&host_binary(), modules, serve_args);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let page = open(chromium, Driver::start(&driver), server, size.0, size.1).await;
        test(&page).await;
        page.close().await;
    });
}
