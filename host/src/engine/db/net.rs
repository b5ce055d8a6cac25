//! The HTTP side of an `http://HOST:PORT/PATH` database: the same directory layout as
//! `file:DIR`, read with Range GETs (a tier's header and index once, then one block
//! per lookup) through `ureq`, a small synchronous client. `HttpSource` is a `Source`
//! for the tier readers, which check every byte as they do for local files.
//!
//! Requests are bounded: a connect timeout, a few retries with backoff for failures
//! that may pass (connection errors, 5xx), every body capped by the size asked for or
//! announced, and a total deadline (`within`, `--fetch-deadline`) over all the requests
//! of one lookup, one whole-tier fetch or one copy. Redirects are followed by hand, on
//! the same origin only (ureq's own following is off: it panicked on `file:` targets).
//! Every error names the URL and what failed. This file moves bytes; it must not
//! interpret them.

use super::file::source::Source;
use std::cell::Cell;
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Attempts per request (the first and the retries).
const ATTEMPTS: u32 = 3;
/// Waits before the retries.
const BACKOFF: [Duration; 2] = [Duration::from_millis(200), Duration::from_millis(800)];
/// Redirects followed per request (same origin only).
const REDIRECTS: usize = 3;
/// The longest a directory listing or manifest may be.
pub const LISTING_LIMIT: u64 = 1 << 24;

thread_local! {
    /// When the current lookup, fetch or copy on this thread must be over.
    static DEADLINE: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// Runs `f` with a total deadline of `limit` for every request it makes on this thread;
/// inside another `within`, the outer deadline stays.
pub fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let outer = DEADLINE.with(Cell::get);
    if outer.is_some() {
        return f();
    }
    DEADLINE.with(|d| d.set(Some((Instant::now() + limit, limit))));
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(None));
        }
    }
    let _reset = Reset;
    f()
}

/// Time left before the deadline (the configured one from now when none is running),
/// or the error that it has passed.
fn remaining(url: &str) -> std::io::Result<Duration> {
    let (end, limit) = DEADLINE.with(Cell::get).unwrap_or_else(|| {
        let d = super::trust::policy().deadline;
        (Instant::now() + d, d)
    });
    let left = end.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "GET {url}: gave up after the deadline of {} s (--fetch-deadline SECONDS sets it)",
                limit.as_secs_f64()
            ),
        ));
    }
    Ok(left)
}

/// A server holding databases in the `file:` layout under a base URL.
pub struct Remote {
    base: String,
    /// `http://HOST:PORT` of the base: redirects may only stay there.
    origin: String,
    agent: ureq::Agent,
}

/// What a request found.
enum Got {
    /// The answer (2xx or 3xx already followed).
    Answer(Box<ureq::Response>),
    /// 404 or 410: nothing there.
    Missing,
    /// 416: the range is past the end (an empty file).
    Unsatisfiable,
}

impl Remote {
    /// A client for the databases under `base` (`http://HOST:PORT/PATH`, no trailing
    /// slash needed).
    pub fn new(base: &str) -> Remote {
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(5))
            .redirects(0)
            .build();
        let base = base.trim_end_matches('/').to_string();
        Remote {
            origin: origin(&base).unwrap_or_default().to_string(),
            base,
            agent,
        }
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The URL of a file under the base (`dir` and `file` are percent-encoded).
    pub fn url(&self, dir: &str, file: &str) -> String {
        format!("{}/{}/{}", self.base, encode(dir), encode(file))
    }

    /// One GET with retries and same-origin redirects; `range` is an inclusive byte range.
    fn send(&self, url: &str, range: Option<(u64, u64)>) -> std::io::Result<Got> {
        let mut last = String::new();
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                let pause = BACKOFF[(attempt - 1) as usize].min(remaining(url)?);
                std::thread::sleep(pause);
            }
            let mut target = url.to_string();
            let mut hops = 0;
            let outcome = loop {
                let mut req = self.agent.get(&target).timeout(remaining(url)?);
                if let Some((a, b)) = range {
                    req = req.set("Range", &format!("bytes={a}-{b}"));
                }
                match req.call() {
                    Ok(resp) if (300..400).contains(&resp.status()) => {
                        target = self.follow(url, &target, &resp, &mut hops)?;
                    }
                    Ok(resp) => break Ok(Got::Answer(Box::new(resp))),
                    Err(ureq::Error::Status(404 | 410, _)) => break Ok(Got::Missing),
                    Err(ureq::Error::Status(416, _)) => break Ok(Got::Unsatisfiable),
                    Err(e) => break Err(e),
                }
            };
            match outcome {
                Ok(got) => return Ok(got),
                Err(e) => last = retry_or_fail(url, e)?,
            }
        }
        Err(other(format!(
            "GET {url}: {last} (after {ATTEMPTS} attempts)"
        )))
    }

    /// Where a redirect from `at` leads, when it stays on the base's origin.
    fn follow(
        &self,
        url: &str,
        at: &str,
        resp: &ureq::Response,
        hops: &mut usize,
    ) -> std::io::Result<String> {
        *hops += 1;
        let status = resp.status();
        let location = resp.header("Location").unwrap_or_default().to_string();
        if *hops > REDIRECTS {
            return Err(other(format!(
                "GET {url}: more than {REDIRECTS} redirects (the last to {location})"
            )));
        }
        let next = if location.starts_with("http://") {
            location.clone()
        } else if location.starts_with('/') && !location.starts_with("//") {
            format!("{}{location}", self.origin)
        } else if !location.is_empty() && !location.contains(':') && !location.starts_with("//") {
            let dir = at.rsplit_once('/').map_or(at, |(d, _)| d);
            format!("{dir}/{location}")
        } else {
            String::new()
        };
        if next.is_empty() || origin(&next) != Some(self.origin.as_str()) {
            let shown: String = location.chars().take(200).collect();
            return Err(other(format!(
                "GET {url}: the server redirects ({status}) to {shown:?}, outside {}; only redirects on the same server are followed",
                self.origin
            )));
        }
        Ok(next)
    }

    /// The body of `resp`, at most `limit` bytes.
    fn body(url: &str, resp: ureq::Response, limit: u64) -> std::io::Result<Vec<u8>> {
        let announced = resp
            .header("Content-Length")
            .and_then(|n| n.trim().parse::<u64>().ok());
        if announced.is_some_and(|n| n > limit) {
            return Err(other(format!(
                "GET {url}: the server announces {} bytes where at most {limit} were expected",
                announced.unwrap_or_default()
            )));
        }
        let mut body = Vec::new();
        resp.into_reader()
            .take(limit + 1)
            .read_to_end(&mut body)
            .map_err(|e| read_failed(url, e, announced))?;
        if body.len() as u64 > limit {
            return Err(other(format!(
                "GET {url}: the answer is longer than the {limit} bytes expected"
            )));
        }
        Ok(body)
    }

    /// Bytes `offset..offset + len` of `url`; an error when the server does not answer
    /// that range exactly (a server that ignores Range is named as such).
    pub fn range(&self, url: &str, offset: u64, len: u64) -> std::io::Result<Vec<u8>> {
        if len == 0 {
            return Ok(Vec::new());
        }
        match self.send(url, Some((offset, offset + len - 1)))? {
            Got::Answer(resp) if resp.status() == 206 => {
                let body = Self::body(url, *resp, len)?;
                if body.len() as u64 == len {
                    Ok(body)
                } else {
                    Err(other(format!(
                        "GET {url}: asked for {len} bytes at {offset}, got {} (the file is shorter or changed)",
                        body.len()
                    )))
                }
            }
            Got::Answer(resp) => Err(other(format!(
                "GET {url}: the server answered {} to a Range request; it must support Range (HTTP 206)",
                resp.status()
            ))),
            Got::Missing => Err(other(format!("GET {url}: the file is gone (404)"))),
            Got::Unsatisfiable => Err(other(format!(
                "GET {url}: the server has fewer than {} bytes (416)",
                offset + len
            ))),
        }
    }

    /// The length of `url`, or `None` when there is nothing there; read from a
    /// one-byte Range answer's Content-Range, so it needs no HEAD support.
    pub fn length(&self, url: &str) -> std::io::Result<Option<u64>> {
        match self.send(url, Some((0, 0)))? {
            Got::Answer(resp) => {
                let total = resp
                    .header("Content-Range")
                    .and_then(|r| r.rsplit('/').next())
                    .and_then(|n| n.trim().parse::<u64>().ok());
                match (resp.status(), total) {
                    (206, Some(n)) => Ok(Some(n)),
                    (status, _) => Err(other(format!(
                        "GET {url}: the server answered {status} without a Content-Range to a Range request; it must support Range (HTTP 206)"
                    ))),
                }
            }
            Got::Missing => Ok(None),
            // An empty file cannot answer a one-byte range.
            Got::Unsatisfiable => Ok(Some(0)),
        }
    }

    /// Streams the whole file at `url` into `sink` (at most `limit` bytes, the size
    /// the caller was told); returns its length, or `None` when there is nothing there.
    /// An answer of another size is an `InvalidData` error.
    pub fn fetch_to(
        &self,
        url: &str,
        limit: u64,
        sink: &mut dyn Write,
    ) -> std::io::Result<Option<u64>> {
        let resp = match self.send(url, None)? {
            Got::Answer(resp) if resp.status() == 200 => *resp,
            Got::Answer(resp) => {
                return Err(other(format!(
                    "GET {url}: the server answered {}",
                    resp.status()
                )))
            }
            Got::Missing => return Ok(None),
            Got::Unsatisfiable => return Err(other(format!("GET {url}: the server answered 416"))),
        };
        let announced = resp
            .header("Content-Length")
            .and_then(|n| n.trim().parse::<u64>().ok());
        if announced.is_some_and(|n| n != limit) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "GET {url}: the server announces {} bytes where the file is {limit}",
                    announced.unwrap_or_default()
                ),
            ));
        }
        let mut reader = resp.into_reader().take(limit + 1);
        let mut buf = vec![0u8; 1 << 16];
        let mut n = 0u64;
        loop {
            let k = reader
                .read(&mut buf)
                .map_err(|e| read_failed(url, e, announced))?;
            if k == 0 {
                break;
            }
            n += k as u64;
            if n > limit {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("GET {url}: the answer is longer than the {limit} bytes the file is"),
                ));
            }
            sink.write_all(&buf[..k])?;
        }
        if n != limit {
            return Err(other(format!(
                "GET {url}: the server sent {n} bytes of a {limit}-byte file (the connection ended early)"
            )));
        }
        Ok(Some(n))
    }

    /// A small whole file (a manifest), or `None` when there is nothing there.
    pub fn small(&self, url: &str, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
        match self.send(url, None)? {
            Got::Answer(resp) if resp.status() == 200 => Self::body(url, *resp, limit).map(Some),
            Got::Answer(resp) => Err(other(format!(
                "GET {url}: the server answered {}",
                resp.status()
            ))),
            Got::Missing => Ok(None),
            Got::Unsatisfiable => Err(other(format!("GET {url}: the server answered 416"))),
        }
    }

    /// The file names a directory listing at `dir` links to (an HTML or text index, as
    /// `host serve` and most static servers give); `None` when there is no directory.
    pub fn list(&self, dir: &str) -> std::io::Result<Option<Vec<String>>> {
        let url = format!("{}/{}/", self.base, encode(dir));
        Ok(self
            .small(&url, LISTING_LIMIT)?
            .map(|body| linked_names(&String::from_utf8_lossy(&body))))
    }
}

/// `http://HOST:PORT` of an `http://` URL.
fn origin(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("http://")?;
    let end = rest.find('/').map_or(url.len(), |i| i + 7);
    Some(&url[..end])
}

/// A body that could not be read to its end, said as what happened.
fn read_failed(url: &str, e: std::io::Error, announced: Option<u64>) -> std::io::Error {
    let what = match announced {
        Some(n) => format!(
            "the server sent less than the {n} bytes its Content-Length announced, or stopped sending ({e}): the connection or the server failed, not the file"
        ),
        None => format!("reading the answer failed: {e}"),
    };
    // Never UnexpectedEof: the readers take that for a truncated file.
    let kind = match e.kind() {
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
            std::io::ErrorKind::TimedOut
        }
        _ => std::io::ErrorKind::Other,
    };
    std::io::Error::new(kind, format!("GET {url}: {what}"))
}

/// The names of the tier files a listing mentions (`tier_N.gz`, each once).
fn linked_names(listing: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, _) in listing.match_indices("tier_") {
        let rest = &listing[i + 5..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let after = &rest[digits.len()..];
        let ends = after
            .strip_prefix(".gz")
            .is_some_and(|t| !t.starts_with(|c: char| c.is_ascii_alphanumeric()));
        if !digits.is_empty() && ends {
            let name = format!("tier_{digits}.gz");
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// Why a failed request may be tried again (a 5xx answer, a transport failure), or
/// the error when it may not (any other answer).
fn retry_or_fail(url: &str, e: ureq::Error) -> std::io::Result<String> {
    match e {
        ureq::Error::Status(code, resp) if code >= 500 => {
            Ok(format!("the server answered {code} {}", resp.status_text()))
        }
        ureq::Error::Status(code, resp) => Err(other(format!(
            "GET {url}: the server answered {code} {}",
            resp.status_text()
        ))),
        ureq::Error::Transport(t) => Ok(transport(&t)),
    }
}

/// A transport failure without the URL ureq repeats (the caller names it once).
fn transport(t: &ureq::Transport) -> String {
    match t.message() {
        Some(m) => format!("{}: {m}", t.kind()),
        None => t.kind().to_string(),
    }
}

fn other(message: String) -> std::io::Error {
    std::io::Error::other(message)
}

/// `text` percent-encoded for a URL path segment (unreserved characters kept).
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One remote tier file, read by ranges.
pub struct HttpSource {
    remote: Arc<Remote>,
    url: String,
    len: u64,
}

impl HttpSource {
    /// The file at `url`, or `None` when the server has nothing there.
    pub fn open(remote: Arc<Remote>, url: String) -> std::io::Result<Option<HttpSource>> {
        Ok(remote
            .length(&url)?
            .map(|len| HttpSource { remote, url, len }))
    }
}

impl Source for HttpSource {
    fn byte_len(&self) -> std::io::Result<u64> {
        Ok(self.len)
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        if offset + buf.len() as u64 > self.len {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let bytes = self.remote.range(&self.url, offset, buf.len() as u64)?;
        buf.copy_from_slice(&bytes);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listings_give_tier_files_once() {
        let html = r#"<a href="tier_3.gz">tier_3.gz</a> <a href="tier_12.gz">x</a> tier_x.gz tier_7.gzip tier_5.txt"#;
        assert_eq!(linked_names(html), ["tier_3.gz", "tier_12.gz"]);
        assert_eq!(encode("mtttier_regular_tierdb"), "mtttier_regular_tierdb");
        assert_eq!(encode("a b/c"), "a%20b%2Fc");
    }

    #[test]
    fn origins_of_urls() {
        assert_eq!(origin("http://h:8080/db/x"), Some("http://h:8080"));
        assert_eq!(origin("http://h:8080"), Some("http://h:8080"));
        assert_eq!(origin("file:///etc/passwd"), None);
        assert_eq!(origin("https://h/x"), None);
    }

    #[test]
    fn deadlines_nest_outermost_first() {
        let inner = within(Duration::from_secs(100), || {
            within(Duration::from_secs(1), || {
                DEADLINE.with(Cell::get).map(|(_, d)| d)
            })
        });
        assert_eq!(inner, Some(Duration::from_secs(100)));
        assert_eq!(DEADLINE.with(Cell::get), None);
        let e = within(Duration::ZERO, || remaining("http://h/x")).unwrap_err();
        assert!(e.to_string().contains("--fetch-deadline"), "{e}");
    }
}
