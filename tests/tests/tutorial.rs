//! The tutorial, run as a reader runs it (issue 52 item 1): every command of its
//! chapters' `sh` blocks, in the book's order, in one shell, and every `text` block
//! compared with what the commands before it printed. A `text` block whose first line
//! is `$ COMMAND` shows that command's output: the command is run there too. The
//! shown lines must appear, in order, in the output (the book leaves lines out, never
//! adds one); times and rates (`in 0.04s`, `1,032 positions/s`) and this checkout's
//! path (shown as `/home/you/gamesman-rs`) are the only things that may differ.
//!
//! What the reader has and the test provides instead:
//! - the checkout, built: a scratch directory whose `target` links to this build;
//! - a home directory of its own (`HOME`), so `install-plugin` and the default
//!   database stay in the scratch directory;
//! - cargo offline: each new project gets the workspace's Cargo.lock, and its
//!   `target` (and `$HOME/.cache/gamesman-target`) links to one shared target
//!   directory, so abi_stable compiles once for the test suite (`host_new` shares it).
//!
//! Commands not run, each named in `NOT_RUN` with the reason; `play` reads an empty
//! input (it then ends cleanly), `serve` runs for three seconds.

use e2e_tests::cbuild::workspace_root;
use e2e_tests::run::run;
use e2e_tests::workspace::{artifact_dir, projects_target_dir};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The chapters, in the book's order, with the directory (under the scratch checkout)
/// each starts in.
const CHAPTERS: [(&str, &str); 6] = [
    ("new-project.md", "."),
    ("solve-play.md", "mygame"),
    ("tiers.md", "."),
    ("cycles.md", "."),
    ("serve.md", "treble"),
    ("export.md", "treble"),
];

/// Commands the test does not run, and why.
const NOT_RUN: [(&str, &str); 5] = [
    (
        "cargo build --release --workspace",
        "the test runs on this checkout's build",
    ),
    (
        "cargo build --release --examples -p gamesman-plugin-api",
        "cargo test builds the examples; the test checks the library is there",
    ),
    ("pip install", "the Python package is tested by CI's pytest"),
    (
        "--gamesmanuni ../GamesmanUni/dist",
        "needs a GamesmanUni checkout; tests/tests/uni*.rs serve the real client",
    ),
    (
        "export GAMESMAN_PLUGIN_PATH",
        "for the Python package (not installed here)",
    ),
];

/// The longest the whole tutorial may take (two project builds, offline, warm).
const TIMEOUT: Duration = Duration::from_secs(900);

enum Block {
    Sh(Vec<String>),
    Text(Vec<String>),
}

/// The `sh` and `text` blocks of a chapter, in order (commands without their
/// trailing `# comment`).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((lang.trim().to_string(), Vec::new())),
            (Some(_), Some("")) => {
                let (lang, lines) = open.take().expect("open");
                match lang.as_str() {
                    "sh" => out.push(Block::Sh(
                        lines
                            .iter()
                            .map(|l| l.split(" # ").next().unwrap_or("").trim().to_string())
                            .filter(|l| !l.is_empty())
                            .collect(),
                    )),
                    "text" => out.push(Block::Text(lines)),
                    _ => {}
                }
            }
            (Some((_, lines)), _) => lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    out
}

/// A line as compared: times, rates and this checkout's path made neutral.
fn neutral(line: &str, root: &str) -> String {
    let mut s = line.replace(root, "/home/you/gamesman-rs");
    // "in 0.04s" / "in 1.2ms": a time (a number with a unit; "win in 11" is a value).
    let mut from = 0;
    while let Some(found) = s[from..].find(" in ") {
        let at = from + found + 4;
        let digits = s[at..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len() - at);
        let rest = &s[at + digits..];
        let unit = ["ms", "µs", "s"].into_iter().find(|u| {
            rest.starts_with(u)
                && !rest[u.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric())
        });
        match unit {
            Some(u) if digits > 0 => {
                s = format!("{}T{}", &s[..at], &s[at + digits + u.len()..]);
                from = at + 1;
            }
            _ => from = at,
        }
    }
    // "(1,032 positions/s)": the rate.
    if let Some(at) = s.find(" positions/s)") {
        if let Some(open) = s[..at].rfind('(') {
            s = format!("{}(R{}", &s[..open], &s[at..]);
        }
    }
    s.trim_end().to_string()
}

/// What one command printed (stdout and stderr) and its exit status.
struct Ran {
    command: String,
    output: Vec<String>,
    status: i32,
}

const MARK: &str = "@@tutorial@@";

#[test]
fn every_tutorial_command_runs_and_prints_what_the_book_shows() {
    let root = workspace_root().canonicalize().unwrap();
    let book = root.join("docs/book/src/tutorial");
    let scratch = tempfile::tempdir().unwrap();
    let checkout = scratch.path().join("gamesman-rs");
    let home = scratch.path().join("home");
    let shared = projects_target_dir();
    std::fs::create_dir_all(&checkout).unwrap();
    std::fs::create_dir_all(home.join(".cache")).unwrap();
    std::fs::create_dir_all(&shared).unwrap();
    let target = artifact_dir()
        .parent()
        .expect("a target directory")
        .to_path_buf();
    std::os::unix::fs::symlink(&target, checkout.join("target")).unwrap();
    std::os::unix::fs::symlink(&shared, home.join(".cache/gamesman-target")).unwrap();
    let examples = checkout.join("target/release/examples/libmorris3.so");
    assert!(
        examples.is_file(),
        "{} missing (cargo test builds it)",
        examples.display()
    );

    // One script: each command between marks, its status after it.
    let q = |p: &Path| format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
    let mut script = String::from("exec 2>&1\n");
    let mut expected: Vec<(usize, usize, Vec<String>)> = Vec::new(); // (from, to, lines)
    let mut commands: Vec<String> = Vec::new();
    let mut since = 0;
    let run_line = |script: &mut String, commands: &mut Vec<String>, line: &str| {
        let n = commands.len();
        commands.push(line.to_string());
        let mut cmd = line.to_string();
        if cmd.contains(" play ") || cmd.ends_with(" play") {
            cmd = format!("{cmd} < /dev/null");
        }
        if cmd.contains(" serve ") {
            cmd = format!("timeout 3 {cmd}; [ $? = 124 ]");
        }
        script.push_str(&format!(
            "echo '{MARK} {n}'\n{cmd}\necho \"{MARK} status $?\"\n"
        ));
        // A new project: the harness's offline build set-up.
        if let Some(rest) = line.strip_prefix("host new ") {
            let name = rest.split_whitespace().next().unwrap_or("");
            script.push_str(&format!(
                "cp {} {name}/Cargo.lock && ln -s {} {name}/target\n",
                q(&root.join("Cargo.lock")),
                q(&shared)
            ));
        }
    };
    for (chapter, start) in CHAPTERS {
        let text = std::fs::read_to_string(book.join(chapter)).unwrap();
        script.push_str(&format!("cd {}\n", q(&checkout.join(start))));
        for block in blocks(&text) {
            match block {
                Block::Sh(lines) => {
                    for line in lines {
                        if NOT_RUN.iter().any(|(part, _)| line.contains(part)) {
                            continue;
                        }
                        run_line(&mut script, &mut commands, &line);
                    }
                }
                Block::Text(lines) => {
                    let mut shown = lines.as_slice();
                    if let Some(cmd) = shown.first().and_then(|l| l.strip_prefix("$ ")) {
                        since = commands.len();
                        run_line(&mut script, &mut commands, cmd);
                        shown = &shown[1..];
                    }
                    let shown: Vec<String> = shown
                        .iter()
                        .filter(|l| l.trim() != "...")
                        .map(|l| neutral(l, &root.display().to_string()))
                        .collect();
                    expected.push((since, commands.len(), shown));
                    since = commands.len();
                }
            }
        }
        since = commands.len();
    }

    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(&script)
        .current_dir(&checkout)
        .env("HOME", &home)
        .env("CARGO_NET_OFFLINE", "true")
        .env("RUST_LOG", "warn")
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env_remove("XDG_DATA_HOME")
        .env_remove("GAMESMAN_DB")
        .env_remove("GAMESMAN_PLUGIN_PATH")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS");
    let out = run(sh, TIMEOUT);

    // Split the output at the marks.
    let mut ran: Vec<Ran> = Vec::new();
    for line in out.stdout.lines() {
        if let Some(rest) = line.strip_prefix(MARK) {
            let rest = rest.trim();
            if let Some(status) = rest.strip_prefix("status ") {
                let last = ran.last_mut().expect("a command before its status");
                last.status = status.parse().unwrap_or(-1);
            } else {
                let n: usize = rest.parse().expect("a command number");
                ran.push(Ran {
                    command: commands[n].clone(),
                    output: Vec::new(),
                    status: -1,
                });
            }
        } else if let Some(last) = ran.last_mut() {
            last.output.push(neutral(line, &root.display().to_string()));
        }
    }
    assert_eq!(
        ran.len(),
        commands.len(),
        "every command ran:\n{}",
        out.describe()
    );
    for r in &ran {
        // The chapter on cycles shows its broken variants failing: exit status 1
        // (and so `--all-variants`, which checks them too).
        let broken =
            r.command.contains("--variant mistake-") || r.command.contains("--all-variants");
        let want = if broken { 1 } else { 0 };
        assert_eq!(
            r.status,
            want,
            "`{}` exited {}:\n{}",
            r.command,
            r.status,
            r.output.join("\n")
        );
    }
    eprintln!(
        "{} commands run, {} shown outputs of {} lines compared",
        ran.len(),
        expected.len(),
        expected.iter().map(|e| e.2.len()).sum::<usize>()
    );
    for (from, to, shown) in &expected {
        let printed: Vec<&String> = ran[*from..*to].iter().flat_map(|r| &r.output).collect();
        let mut at = 0;
        for line in shown {
            match printed[at..].iter().position(|p| *p == line) {
                Some(i) => at += i + 1,
                None => panic!(
                    "the book shows `{line}` after `{}`, but the commands printed (from the line before):\n{}",
                    commands[*from..*to].join("`, `"),
                    printed[at.saturating_sub(1)..]
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join("\n")
                ),
            }
        }
    }
    // The project's library where the new-project chapter says it is.
    assert!(shared.join("release/libmygame.so").is_file());
    assert!(checkout.join("treble/treble.parquet").is_file());
}
