//! A small HTTP/1.1 server on 127.0.0.1 for the client's tests, which answers as a
//! hostile or broken publisher would: files from a directory (with Range, so the
//! `http://` database reads it like `host serve`), or, for paths the test chooses, a
//! redirect, a body longer than announced, a trickle of one byte at a time, or silence.
//! It runs on threads of the test, serves until dropped, and never reaches past
//! loopback.
//!
//! This file knows HTTP only; nothing of tier files.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the server does for a path prefix.
#[derive(Clone, Debug)]
pub enum Trick {
    /// Answers `status` with this Location.
    Redirect(u16, String),
    /// Answers 302 with Location: this prefix and the rest of the path asked for.
    Moved(String),
    /// Announces `announced` bytes and sends that many zeros (or more: `sent`).
    Oversize {
        /// The Content-Length given.
        announced: u64,
        /// Bytes actually sent.
        sent: u64,
    },
    /// Sends the headers, then one byte every `interval`, never finishing.
    Drip(Duration),
    /// Accepts and says nothing.
    Silent,
    /// Announces `announced` bytes but sends `sent` and closes.
    Short {
        /// The Content-Length given.
        announced: u64,
        /// Bytes actually sent.
        sent: u64,
    },
}

/// The server.
pub struct Hostile {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    tricks: Arc<Mutex<Vec<(String, Trick)>>>,
}

impl Hostile {
    /// Serves the files under `root` (`/PATH` is `root/PATH`).
    pub fn start(root: PathBuf) -> Hostile {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding 127.0.0.1");
        let addr = listener.local_addr().unwrap();
        listener.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let tricks: Arc<Mutex<Vec<(String, Trick)>>> = Arc::new(Mutex::new(Vec::new()));
        let (s, t) = (stop.clone(), tricks.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((conn, _)) => {
                        let (root, t, s) = (root.clone(), t.clone(), s.clone());
                        std::thread::spawn(move || {
                            let _ = conn.set_nonblocking(false);
                            let _ = handle(conn, &root, &t, &s);
                        });
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Hostile { addr, stop, tricks }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Answers every path starting with `prefix` with `trick` from now on.
    pub fn trick(&self, prefix: &str, trick: Trick) {
        self.tricks
            .lock()
            .unwrap()
            .push((prefix.to_string(), trick));
    }

    /// Forgets every trick.
    pub fn clear(&self) {
        self.tricks.lock().unwrap().clear();
    }
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn decode(path: &str) -> String {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&path[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn handle(
    conn: TcpStream,
    root: &std::path::Path,
    tricks: &Mutex<Vec<(String, Trick)>>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut out = conn;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let path = line.split(' ').nth(1).unwrap_or("/").to_string();
        let mut range = None;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some(v) = h
                .strip_prefix("Range: bytes=")
                .or_else(|| h.strip_prefix("range: bytes="))
            {
                if let Some((a, b)) = v.split_once('-') {
                    range = Some((a.parse::<u64>().unwrap_or(0), b.parse::<u64>().unwrap_or(0)));
                }
            }
        }
        let trick = tricks
            .lock()
            .unwrap()
            .iter()
            .rev()
            .find(|(p, _)| path.starts_with(p.as_str()))
            .map(|(p, t)| (p.len(), t.clone()));
        let (matched, trick) = match trick {
            Some((n, t)) => (n, Some(t)),
            None => (0, None),
        };
        match trick {
            Some(Trick::Moved(to)) => {
                let rest = &path[matched..];
                write!(
                    out,
                    "HTTP/1.1 302 Found\r\nLocation: {to}{rest}\r\nContent-Length: 0\r\n\r\n"
                )?;
            }
            Some(Trick::Redirect(status, to)) => {
                write!(
                    out,
                    "HTTP/1.1 {status} Moved\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n"
                )?;
            }
            Some(Trick::Oversize { announced, sent }) => {
                let status = if range.is_some() {
                    "206 Partial Content"
                } else {
                    "200 OK"
                };
                let cr = range.map_or(String::new(), |(a, _)| {
                    format!(
                        "Content-Range: bytes {a}-{}/{}\r\n",
                        a + announced - 1,
                        u64::MAX / 2
                    )
                });
                write!(
                    out,
                    "HTTP/1.1 {status}\r\n{cr}Content-Length: {announced}\r\n\r\n"
                )?;
                let zeros = vec![0u8; 1 << 16];
                let mut left = sent;
                while left > 0 && !stop.load(Ordering::Relaxed) {
                    let n = left.min(zeros.len() as u64) as usize;
                    out.write_all(&zeros[..n])?;
                    left -= n as u64;
                }
                return Ok(());
            }
            Some(Trick::Short { announced, sent }) => {
                if let Some((a, b)) = range {
                    // The length probe is answered truthfully; the body is not.
                    let b = b.min(announced - 1);
                    write!(out, "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {a}-{b}/{announced}\r\nContent-Length: {}\r\n\r\n", b - a + 1)?;
                    out.write_all(&vec![0u8; (b - a + 1).min(sent) as usize])?;
                    return Ok(());
                }
                write!(
                    out,
                    "HTTP/1.1 200 OK\r\nContent-Length: {announced}\r\n\r\n"
                )?;
                out.write_all(&vec![0u8; sent as usize])?;
                return Ok(());
            }
            Some(Trick::Drip(every)) => {
                let (a, b) = range.unwrap_or((0, 999_999));
                let b = b.min(999_999);
                write!(out, "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {a}-{b}/1000000\r\nContent-Length: {}\r\n\r\n", b - a + 1)?;
                while !stop.load(Ordering::Relaxed) {
                    out.write_all(b"x")?;
                    std::thread::sleep(every);
                }
                return Ok(());
            }
            Some(Trick::Silent) => {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                return Ok(());
            }
            None => serve_file(&mut out, root, &decode(&path), range)?,
        }
    }
}

fn serve_file(
    out: &mut TcpStream,
    root: &std::path::Path,
    path: &str,
    range: Option<(u64, u64)>,
) -> std::io::Result<()> {
    let rel = path.trim_start_matches('/');
    let full = root.join(rel);
    if rel.ends_with('/') || rel.is_empty() {
        // A listing: every file name linked.
        let mut html = String::from("<ul>");
        if let Ok(rd) = std::fs::read_dir(&full) {
            for e in rd.flatten() {
                let n = e.file_name().to_string_lossy().to_string();
                html.push_str(&format!("<li><a href=\"{n}\">{n}</a></li>"));
            }
        } else {
            return write!(out, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        }
        html.push_str("</ul>");
        return write!(
            out,
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{html}",
            html.len()
        );
    }
    let Ok(mut bytes) = std::fs::read(&full) else {
        return write!(out, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
    };
    match range {
        Some((a, b)) => {
            let len = bytes.len() as u64;
            if a >= len {
                return write!(
                    out,
                    "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Length: 0\r\n\r\n"
                );
            }
            let b = b.min(len - 1);
            let part = bytes[a as usize..=b as usize].to_vec();
            write!(
                out,
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {a}-{b}/{len}\r\nContent-Length: {}\r\n\r\n",
                part.len()
            )?;
            out.write_all(&part)
        }
        None => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n",
                bytes.len()
            )?;
            out.write_all(&std::mem::take(&mut bytes))
        }
    }
}

/// Reads everything a connection sends until it closes or `limit` passes (for tests
/// of the server's own timeouts).
pub fn read_until_closed(mut conn: TcpStream, limit: Duration) -> (Vec<u8>, bool) {
    conn.set_read_timeout(Some(limit)).ok();
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match conn.read(&mut buf) {
            Ok(0) => return (all, true),
            Ok(n) => all.extend_from_slice(&buf[..n]),
            Err(_) => return (all, false),
        }
    }
}
