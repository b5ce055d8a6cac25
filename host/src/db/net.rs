//! The HTTP side of an `http://HOST:PORT/PATH` database: the same directory layout as
//! `file:DIR`, read with Range GETs (a tier's header and index once, then one block
//! per lookup) through `ureq`, a small synchronous client. `HttpSource` is a `Source`
//! for the tier readers, which check every byte as they do for local files.
//!
//! Requests are bounded: a connect timeout, a whole-request timeout and a few retries
//! with backoff for failures that may pass (connection errors, 5xx). Every error names
//! the URL and what failed. This file moves bytes; it must not interpret them.

use super::file::source::Source;
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

/// Attempts per request (the first and the retries).
const ATTEMPTS: u32 = 3;
/// Waits before the retries.
const BACKOFF: [Duration; 2] = [Duration::from_millis(200), Duration::from_millis(800)];
/// The longest a whole tier file may be when fetched at once (what the largest bundled
/// tiers need, with room to spare).
const WHOLE_FILE_LIMIT: u64 = 1 << 32;

/// A server holding databases in the `file:` layout under a base URL.
pub struct Remote {
    base: String,
    agent: ureq::Agent,
}

/// What a request found.
enum Got {
    /// The body.
    Body(Vec<u8>, u16),
    /// 404 or 410: nothing there.
    Missing,
}

impl Remote {
    /// A client for the databases under `base` (`http://HOST:PORT/PATH`, no trailing
    /// slash needed).
    pub fn new(base: &str) -> Remote {
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(5))
            .timeout(Duration::from_secs(60))
            .redirects(3)
            .build();
        Remote {
            base: base.trim_end_matches('/').to_string(),
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

    /// One request with retries; `range` is an inclusive byte range.
    fn get(&self, url: &str, range: Option<(u64, u64)>, limit: u64) -> std::io::Result<Got> {
        let mut last = String::new();
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                std::thread::sleep(BACKOFF[(attempt - 1) as usize]);
            }
            let mut req = self.agent.get(url);
            if let Some((a, b)) = range {
                req = req.set("Range", &format!("bytes={a}-{b}"));
            }
            match req.call() {
                Ok(resp) => {
                    let status = resp.status();
                    let mut body = Vec::new();
                    match resp.into_reader().take(limit + 1).read_to_end(&mut body) {
                        Ok(_) if body.len() as u64 > limit => {
                            return Err(other(format!(
                                "GET {url}: the answer is longer than {limit} bytes"
                            )))
                        }
                        Ok(_) => return Ok(Got::Body(body, status)),
                        // A connection cut in the middle may pass.
                        Err(e) => last = format!("reading the answer failed: {e}"),
                    }
                }
                Err(ureq::Error::Status(404 | 410, _)) => return Ok(Got::Missing),
                Err(e) => last = retry_or_fail(url, e)?,
            }
        }
        Err(other(format!(
            "GET {url}: {last} (after {ATTEMPTS} attempts)"
        )))
    }

    /// Bytes `offset..offset + len` of `url`; an error when the server does not answer
    /// that range exactly (a server that ignores Range is named as such).
    pub fn range(&self, url: &str, offset: u64, len: u64) -> std::io::Result<Vec<u8>> {
        if len == 0 {
            return Ok(Vec::new());
        }
        match self.get(url, Some((offset, offset + len - 1)), len)? {
            Got::Body(body, 206) if body.len() as u64 == len => Ok(body),
            Got::Body(body, 206) => Err(other(format!(
                "GET {url}: asked for {len} bytes at {offset}, got {} (the file is shorter or changed)",
                body.len()
            ))),
            Got::Body(_, status) => Err(other(format!(
                "GET {url}: the server answered {status} to a Range request; it must support Range (HTTP 206)"
            ))),
            Got::Missing => Err(other(format!("GET {url}: the file is gone (404)"))),
        }
    }

    /// The length of `url`, or `None` when there is nothing there; read from a
    /// one-byte Range answer's Content-Range, so it needs no HEAD support.
    pub fn length(&self, url: &str) -> std::io::Result<Option<u64>> {
        let mut last = String::new();
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                std::thread::sleep(BACKOFF[(attempt - 1) as usize]);
            }
            match self.agent.get(url).set("Range", "bytes=0-0").call() {
                Ok(resp) => {
                    let total = resp
                        .header("Content-Range")
                        .and_then(|r| r.rsplit('/').next())
                        .and_then(|n| n.trim().parse::<u64>().ok());
                    return match (resp.status(), total) {
                        (206, Some(n)) => Ok(Some(n)),
                        (status, _) => Err(other(format!(
                            "GET {url}: the server answered {status} without a Content-Range to a Range request; it must support Range (HTTP 206)"
                        ))),
                    };
                }
                Err(ureq::Error::Status(404 | 410, _)) => return Ok(None),
                // An empty file cannot answer a one-byte range.
                Err(ureq::Error::Status(416, _)) => return Ok(Some(0)),
                Err(e) => last = retry_or_fail(url, e)?,
            }
        }
        Err(other(format!(
            "GET {url}: {last} (after {ATTEMPTS} attempts)"
        )))
    }

    /// The whole file at `url`, or `None` when there is nothing there.
    pub fn whole(&self, url: &str) -> std::io::Result<Option<Vec<u8>>> {
        match self.get(url, None, WHOLE_FILE_LIMIT)? {
            Got::Body(body, 200) => Ok(Some(body)),
            Got::Body(_, status) => Err(other(format!("GET {url}: the server answered {status}"))),
            Got::Missing => Ok(None),
        }
    }

    /// The file names a directory listing at `dir` links to (an HTML or text index, as
    /// `host serve` and most static servers give); `None` when there is no directory.
    pub fn list(&self, dir: &str) -> std::io::Result<Option<Vec<String>>> {
        let url = format!("{}/{}/", self.base, encode(dir));
        match self.get(&url, None, 1 << 24)? {
            Got::Body(body, 200) => Ok(Some(linked_names(&String::from_utf8_lossy(&body)))),
            Got::Body(_, status) => Err(other(format!("GET {url}: the server answered {status}"))),
            Got::Missing => Ok(None),
        }
    }
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
}
