//! Running a child process (the `host` binary) with a time limit and bounded output,
//! and the checks every failing command must pass (one paragraph, no panic noise).
//!
//! A test must never hang or fill memory because the program under test does: every
//! child here is killed after its time limit and its output is capped. This file must
//! not know about any particular command's arguments or messages.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a child may run before it is killed.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The most bytes kept of each of stdout and stderr; the rest is read and dropped so
/// the child never blocks on a full pipe.
pub const OUTPUT_LIMIT: usize = 1 << 20;

/// What a finished child did.
#[derive(Debug)]
pub struct RunOutput {
    /// The command line, for failure messages.
    pub command: String,
    /// How it ended.
    pub status: ExitStatus,
    /// Its standard output (lossy UTF-8, at most `OUTPUT_LIMIT` bytes).
    pub stdout: String,
    /// Its standard error (lossy UTF-8, at most `OUTPUT_LIMIT` bytes).
    pub stderr: String,
}

impl RunOutput {
    /// Everything about the run, for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "`{}` ended with {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.command, self.status, self.stdout, self.stderr
        )
    }

    /// Asserts the command succeeded.
    pub fn assert_success(&self) -> &Self {
        assert!(
            self.status.success(),
            "expected success:\n{}",
            self.describe()
        );
        self
    }

    /// Asserts the command failed the way the host fails on a user error: a non-zero
    /// exit code (not a signal), nothing on stdout, and on stderr exactly one
    /// paragraph starting with `error: `, without panic messages or backtraces.
    /// Returns the paragraph.
    pub fn assert_clean_failure(&self) -> String {
        let d = self.describe();
        assert!(
            self.status.code().is_some_and(|c| c != 0),
            "expected a non-zero exit code (not a signal):\n{d}"
        );
        assert_no_panic_noise(&self.stderr, &d);
        let text = self.stderr.trim();
        assert!(
            text.starts_with("error: "),
            "stderr must start with `error: `:\n{d}"
        );
        assert!(
            !text.lines().any(|l| l.trim().is_empty()),
            "stderr must be one paragraph (no blank lines):\n{d}"
        );
        assert_eq!(
            text.matches("error:").count(),
            1,
            "stderr must hold one error:\n{d}"
        );
        assert!(self.stdout.trim().is_empty(), "stdout must be empty:\n{d}");
        text.to_string()
    }
}

impl RunOutput {
    /// Asserts the command failed with `--json` the way the host does: exit code
    /// `code`, no panic noise, and on stdout exactly one JSON object `{"error",
    /// "kind", "exit_code"}` with that kind and code. Returns the error message.
    pub fn assert_json_failure(&self, kind: &str, code: i32) -> String {
        let d = self.describe();
        assert_eq!(self.status.code(), Some(code), "exit code:\n{d}");
        assert_no_panic_noise(&self.stderr, &d);
        let v: serde_json::Value = serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout must be one JSON object ({e}):\n{d}"));
        assert_eq!(v["kind"], kind, "{d}");
        assert_eq!(v["exit_code"], code, "{d}");
        assert_eq!(v.as_object().map(|o| o.len()), Some(3), "{d}");
        v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("error is a string:\n{d}"))
            .to_string()
    }

    /// Asserts a clean failure (`assert_clean_failure`) with exit code `code`.
    pub fn assert_failure_code(&self, code: i32) -> String {
        let text = self.assert_clean_failure();
        assert_eq!(self.status.code(), Some(code), "{}", self.describe());
        text
    }
}

/// Asserts `stderr` shows no sign of a panic reaching the user: no "thread '...'
/// panicked", no backtrace, no abi_stable abort message.
pub fn assert_no_panic_noise(stderr: &str, context: &str) {
    for noise in [
        "panicked at",
        "thread '",
        "stack backtrace",
        "RUST_BACKTRACE",
        "Attempted to panic across the ffi boundary",
        "fatal runtime error",
    ] {
        assert!(
            !stderr.contains(noise),
            "stderr contains panic noise ({noise:?}):\n{context}"
        );
    }
}

fn drain(mut source: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            match source.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = OUTPUT_LIMIT.saturating_sub(kept.len());
                    kept.extend_from_slice(&chunk[..n.min(room)]);
                }
            }
        }
        kept
    })
}

fn wait_or_kill(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait().expect("waiting for the child") {
            Some(status) => return Some(status),
            None if Instant::now() >= deadline => {
                // Killing an already exited child is harmless; reap it either way.
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// Runs `cmd` (stdin closed) and returns its output; panics if it runs past `timeout`
/// (after killing it) or cannot be started.
pub fn run(cmd: Command, timeout: Duration) -> RunOutput {
    run_full(cmd, None, false, timeout)
}

/// Runs `cmd` with `input` on its stdin (closed after it), as `run` otherwise.
pub fn run_with_input(cmd: Command, input: &[u8], timeout: Duration) -> RunOutput {
    run_full(cmd, Some(input.to_vec()), false, timeout)
}

/// Runs `cmd` with its stdout a pipe nobody reads, closed before the child writes
/// (`host ... | head -c 0`): every write to it fails with a broken pipe. The output's
/// `stdout` is empty.
pub fn run_with_closed_stdout(cmd: Command, input: &[u8], timeout: Duration) -> RunOutput {
    run_full(cmd, Some(input.to_vec()), true, timeout)
}

/// Runs `cmd` (stdin closed) like `run`, but a run past `timeout` is killed and
/// reported as `Err` with what it printed, instead of a panic.
pub fn run_bounded(cmd: Command, timeout: Duration) -> Result<RunOutput, String> {
    run_limited(cmd, None, false, timeout)
}

fn run_full(
    cmd: Command,
    input: Option<Vec<u8>>,
    close_stdout: bool,
    timeout: Duration,
) -> RunOutput {
    run_limited(cmd, input, close_stdout, timeout).unwrap_or_else(|e| panic!("{e}"))
}

fn run_limited(
    mut cmd: Command,
    input: Option<Vec<u8>>,
    close_stdout: bool,
    timeout: Duration,
) -> Result<RunOutput, String> {
    let command = format!("{cmd:?}");
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    // A binary a test has just copied can be "busy" (ETXTBSY) for a moment: a child
    // another test thread forks meanwhile inherits the copy's open write handle until
    // it execs. Starting again shortly after succeeds.
    let mut tries = 0;
    let mut child = loop {
        match cmd.spawn() {
            Ok(child) => break child,
            Err(e) if e.raw_os_error() == Some(26) && tries < 100 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("cannot start {command}: {e}"),
        }
    };
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        // A writer thread: the child may print a lot before it reads everything, and
        // may exit without reading it all (a write error here is expected then).
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = stdin.write_all(&bytes);
        });
    }
    let stdout = child.stdout.take().expect("piped stdout");
    let out = if close_stdout {
        drop(stdout);
        std::thread::spawn(Vec::new)
    } else {
        drain(stdout)
    };
    let err = drain(child.stderr.take().expect("piped stderr"));
    let status = wait_or_kill(&mut child, timeout);
    let stdout = String::from_utf8_lossy(&out.join().expect("stdout reader")).into_owned();
    let stderr = String::from_utf8_lossy(&err.join().expect("stderr reader")).into_owned();
    match status {
        Some(status) => Ok(RunOutput {
            command,
            status,
            stdout,
            stderr,
        }),
        None => Err(format!(
            "{command} ran longer than {timeout:?} and was killed\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}"
        )),
    }
}

/// A `host` command with panic backtraces switched on (so any panic that reaches the
/// user would show), logging at its default, and the user's own settings kept out:
/// `GAMESMAN_DB` and `GAMESMAN_PLUGIN_PATH` unset, and `XDG_DATA_HOME` pointed at a
/// directory under `target/` so no test reads or writes the real per-user data
/// directory (its database or installed plugins).
pub fn host_command(host: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(host);
    cmd.args(args)
        .env("RUST_BACKTRACE", "1")
        .env_remove("RUST_LOG")
        .env_remove("GAMESMAN_DB")
        .env_remove("GAMESMAN_PLUGIN_PATH")
        .env("XDG_DATA_HOME", isolated_data_home(host));
    cmd
}

/// The stand-in for `$XDG_DATA_HOME` that `host_command` sets: `e2e-data-home` next to
/// the binary, never the user's.
pub fn isolated_data_home(host: &Path) -> std::path::PathBuf {
    host.parent()
        .expect("the host binary lies in a directory")
        .join("e2e-data-home")
}

/// Runs the `host` binary at `host` with `args` (see `host_command`).
pub fn run_host(host: &Path, args: &[&str]) -> RunOutput {
    run(host_command(host, args), DEFAULT_TIMEOUT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hanging_child_is_killed() {
        let mut cmd = Command::new("sleep");
        cmd.arg("30");
        let started = Instant::now();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(cmd, Duration::from_millis(200))
        }));
        assert!(r.is_err(), "a child past its time limit must fail the run");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn output_is_capped() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "head -c 3000000 /dev/zero; echo done >&2"]);
        let r = run(cmd, DEFAULT_TIMEOUT);
        assert!(r.status.success());
        assert_eq!(r.stdout.len(), OUTPUT_LIMIT);
        assert_eq!(r.stderr, "done\n");
    }
}
