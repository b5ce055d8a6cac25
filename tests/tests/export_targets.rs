//! `host export` against hostile destinations and interruptions (issue 40), end to
//! end: an `--out` (or moves file) that is a FIFO, a unix socket, a symbolic link (to a
//! device) or a directory is refused before any work and left as it was (run as root,
//! a rename had replaced `/dev/full`; these stand-ins live in a temporary directory,
//! so no test can touch a real device); SIGTERM and Ctrl-C remove the temporaries and
//! say so (exit 143 and 130); a killed export's temporary is reclaimed by the next
//! export into the directory; a file size limit (`ulimit -f`) is a clear error that
//! leaves nothing behind.

use e2e_tests::run::{host_command, run, run_host, RunOutput};
use e2e_tests::workspace::host_binary;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A solved database of `module` (`variant`) in a temporary directory.
struct Solved {
    dir: tempfile::TempDir,
    module: &'static str,
    variant: &'static str,
}

impl Solved {
    fn new(module: &'static str, variant: &'static str) -> Solved {
        let s = Solved {
            dir: tempfile::tempdir().unwrap(),
            module,
            variant,
        };
        let res = s.resource();
        run_host(
            &host_binary(),
            &[
                "--plugin",
                module,
                "--variant",
                variant,
                "solve",
                "--db",
                &res,
            ],
        )
        .assert_success();
        std::fs::create_dir_all(s.out_dir()).unwrap();
        s
    }

    fn resource(&self) -> String {
        format!("file:{}", self.dir.path().join("db").display())
    }

    fn out_dir(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    fn args<'a>(&'a self, res: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut a = vec![
            "--plugin",
            self.module,
            "--variant",
            self.variant,
            "export",
            "--db",
            res,
            "--out",
            out,
        ];
        a.extend_from_slice(extra);
        a
    }

    fn export(&self, out: &Path, extra: &[&str]) -> RunOutput {
        let res = self.resource();
        let out = out.to_str().unwrap();
        run_host(&host_binary(), &self.args(&res, out, extra))
    }

    fn spawn(&self, out: &Path, extra: &[&str]) -> Child {
        let res = self.resource();
        let out = out.to_str().unwrap();
        let mut cmd = host_command(&host_binary(), &self.args(&res, out, extra));
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd.spawn().unwrap()
    }

    /// The names in the output directory.
    fn left(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.out_dir())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    }

    fn temporaries(&self) -> Vec<String> {
        self.left()
            .into_iter()
            .filter(|n| n.ends_with(".export-tmp"))
            .collect()
    }
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success());
}

#[test]
fn destinations_that_are_not_regular_files_are_refused() {
    let s = Solved::new("mtttier", "regular");
    let d = s.out_dir();
    let fifo = d.join("fifo.csv");
    mkfifo(&fifo);
    let socket = d.join("socket.csv");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    // A link to a device: the rename would have replaced the link (and, with the
    // device's own path, the device node itself).
    let to_device = d.join("full.csv");
    std::os::unix::fs::symlink("/dev/full", &to_device).unwrap();
    let dangling = d.join("dangling.csv");
    std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
    for (out, kind) in [
        (&fifo, "a FIFO (named pipe)"),
        (&socket, "a socket"),
        (&to_device, "a symbolic link"),
        (&dangling, "a symbolic link"),
    ] {
        let e = s.export(out, &[]).assert_failure_code(2);
        assert!(e.contains(&format!("exists and is {kind}")), "{e}");
    }
    let meta = |p: &Path| std::fs::symlink_metadata(p).unwrap().file_type();
    assert!(meta(&fifo).is_fifo());
    assert!(meta(&socket).is_socket());
    assert!(meta(&to_device).is_symlink() && meta(&dangling).is_symlink());
    assert!(!d.join("nowhere").exists());
    // The moves file of a CSV export is a FIFO: refused before the positions are written.
    mkfifo(&d.join("m.moves.csv"));
    let e = s
        .export(&d.join("m.csv"), &["--moves"])
        .assert_failure_code(2);
    assert!(e.contains("m.moves.csv exists and is a FIFO"), "{e}");
    assert!(!d.join("m.csv").exists());
    assert!(s.temporaries().is_empty(), "{:?}", s.left());
    // A regular file is replaced, as before.
    let plain = d.join("plain.csv");
    std::fs::write(&plain, "old").unwrap();
    s.export(&plain, &[]).assert_success();
    assert!(std::fs::read_to_string(&plain)
        .unwrap()
        .starts_with("tier,idx,position"));
}

/// Starts a long export and waits until its temporary exists.
fn started(s: &Solved, out: &Path) -> Child {
    let mut child = s.spawn(out, &["--moves", "--all-positions"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while s.temporaries().is_empty() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the export ended ({status}) before its temporary was seen");
        }
        assert!(Instant::now() < deadline, "no temporary appeared");
        std::thread::sleep(Duration::from_millis(2));
    }
    child
}

fn signal(child: &Child, name: &str) {
    Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
}

#[test]
fn signals_remove_the_temporaries_and_say_so() {
    let s = Solved::new("quixo", "3x3");
    for (sig, code, said) in [("TERM", 143, "SIGTERM"), ("INT", 130, "Ctrl-C (SIGINT)")] {
        let out = s.out_dir().join("q.sqlite");
        let child = started(&s, &out);
        signal(&child, sig);
        let r = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(code), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "the export was stopped by {said}: removed the unfinished"
            )),
            "{stderr}"
        );
        assert!(s.left().is_empty(), "{:?}", s.left());
    }
}

#[test]
fn a_killed_exports_temporary_is_reclaimed_by_the_next() {
    let s = Solved::new("quixo", "3x3");
    let out = s.out_dir().join("q.sqlite");
    let mut child = started(&s, &out);
    child.kill().unwrap();
    child.wait().unwrap();
    let left = s.temporaries();
    assert_eq!(left.len(), 1, "{left:?}");
    // A live export's temporary (PID 1 always runs) is never taken.
    let live = s.out_dir().join(".other.csv.1.export-tmp");
    std::fs::write(&live, "in use").unwrap();
    let r = s.export(&s.out_dir().join("small.csv"), &["--tiers", "0"]);
    r.assert_success();
    assert!(
        r.stderr
            .contains(&format!("removed {}", s.out_dir().join(&left[0]).display())),
        "{}",
        r.describe()
    );
    assert!(live.exists());
    assert_eq!(s.temporaries(), vec![".other.csv.1.export-tmp".to_string()]);
}

#[test]
fn a_file_size_limit_is_an_error_that_leaves_nothing() {
    let s = Solved::new("mtttier", "regular");
    for file in ["limited.sqlite", "limited.csv", "limited.parquet"] {
        let out = s.out_dir().join(file);
        let res = s.resource();
        let out_s = out.to_str().unwrap();
        let args = s.args(&res, out_s, &["--moves"]);
        let mut cmd = Command::new("sh");
        // 64 blocks (of 512 bytes in dash, 1024 in bash): far less than the export's
        // hundreds of kilobytes.
        cmd.arg("-c")
            .arg("ulimit -f 64 && exec \"$0\" \"$@\"")
            .arg(host_binary())
            .args(&args)
            .env_remove("GAMESMAN_DB")
            .env_remove("GAMESMAN_PLUGIN_PATH")
            .env(
                "XDG_DATA_HOME",
                e2e_tests::run::isolated_data_home(&host_binary()),
            );
        let r = run(cmd, Duration::from_secs(60));
        // Killed by SIGXFSZ before: no exit code, no message, the temporary left.
        assert_eq!(r.status.code(), Some(1), "{}", r.describe());
        e2e_tests::run::assert_no_panic_noise(&r.stderr, &r.describe());
        let e = r.stderr.clone();
        assert!(
            e.contains(&format!("error: writing {}: ", out.display())),
            "{e}"
        );
        assert!(
            e.contains("the process's file size limit (ulimit -f) is"),
            "{e}"
        );
        assert!(s.left().is_empty(), "{file}: {:?}", s.left());
    }
}
