//! Shared by the play, query and analyze tests: running the real `host` binary with a
//! time limit and a cap on its output, and tic-tac-toe solved by plain brute-force
//! minimax over boards, independent of the module, the solver and the databases.
//!
//! Nothing here may use the host library: the numbers must come from elsewhere.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one run of the host may take.
const TIME_LIMIT: Duration = Duration::from_secs(120);
/// How much output one run may print before the test gives up on it.
const OUTPUT_LIMIT: u64 = 4 << 20;

/// The mtttier module built next to the host binary.
pub fn mtttier() -> PathBuf {
    let host = PathBuf::from(env!("CARGO_BIN_EXE_host"));
    let p = host.parent().unwrap().join("libmtttier.so");
    assert!(
        p.exists(),
        "{} is missing: run `cargo build --release --workspace` before the tests",
        p.display()
    );
    p
}

/// What a run printed.
pub struct Run {
    /// Whether it exited with status 0.
    pub success: bool,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

fn reader<R: Read + Send + 'static>(r: R) -> std::thread::JoinHandle<(Vec<u8>, bool)> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut limited = r.take(OUTPUT_LIMIT + 1);
        let _ = limited.read_to_end(&mut buf);
        let over = buf.len() as u64 > OUTPUT_LIMIT;
        (buf, over)
    })
}

/// Runs `host --plugin <mtttier> ARGS` with `stdin` as its input, bounded in time and
/// output; panics when a bound is hit.
pub fn host(args: &[&str], stdin: &str) -> Run {
    host_in(None, args, stdin)
}

/// A per-user data directory of its own for each run, so the default database and
/// installed plugins of the machine's user are never read or written.
pub fn data_home() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary data directory")
}

/// A module built next to the host binary (`whirly` for `libwhirly.so`).
pub fn module(name: &str) -> PathBuf {
    let host = PathBuf::from(env!("CARGO_BIN_EXE_host"));
    let p = host.parent().unwrap().join(format!("lib{name}.so"));
    assert!(
        p.exists(),
        "{} is missing: run `cargo build --release --workspace` before the tests",
        p.display()
    );
    p
}

/// `host --plugin <module> ARGS`, as `host_in` runs it.
pub fn host_module(name: &str, args: &[&str]) -> Run {
    let path = module(name);
    let mut all = vec!["--plugin", path.to_str().unwrap()];
    all.extend_from_slice(args);
    host_raw(None, &all, "")
}

/// `host` run in directory `dir`, with a fresh empty per-user data directory and the
/// user's `GAMESMAN_DB` and `GAMESMAN_PLUGIN_PATH` unset.
pub fn host_in(dir: Option<&Path>, args: &[&str], stdin: &str) -> Run {
    let plugin = mtttier();
    let mut all = vec!["--plugin", plugin.to_str().unwrap()];
    all.extend_from_slice(args);
    host_raw(dir, &all, stdin)
}

/// `host ARGS` (no `--plugin` added), as `host_in` runs it.
pub fn host_raw(dir: Option<&Path>, args: &[&str], stdin: &str) -> Run {
    let data = data_home();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_host"));
    cmd.args(args)
        .env("RUST_LOG", "warn")
        .env("XDG_DATA_HOME", data.path())
        .env_remove("GAMESMAN_DB")
        .env_remove("GAMESMAN_PLUGIN_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("starting host");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_string();
    // A writer thread: the host may print a lot before it reads everything.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let out = reader(child.stdout.take().unwrap());
    let err = reader(child.stderr.take().unwrap());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("host {args:?} did not finish within {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    writer.join().unwrap();
    let (stdout, over_out) = out.join().unwrap();
    let (stderr, over_err) = err.join().unwrap();
    assert!(
        !over_out && !over_err,
        "host {args:?} printed more than {OUTPUT_LIMIT} bytes"
    );
    Run {
        success: status.success(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Solves mtttier (`variant`) into `file:DIR` and returns the resource string.
pub fn solved_file_db(dir: &Path, variant: &str) -> String {
    let res = format!("file:{}", dir.display());
    let run = host(&["--variant", variant, "solve", "--db", &res], "");
    assert!(run.success, "solve failed: {}", run.stderr);
    res
}

/// A board: 0 blank, 1 X, 2 O, row by row.
pub type Board = [u8; 9];

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A value from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum V {
    /// The player to move wins.
    Win,
    /// The player to move loses.
    Lose,
    /// Nobody wins.
    Tie,
}

impl V {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            V::Win => "win",
            V::Lose => "lose",
            V::Tie => "tie",
        }
    }

    /// The value for the other player.
    pub fn flip(self) -> V {
        match self {
            V::Win => V::Lose,
            V::Lose => V::Win,
            V::Tie => V::Tie,
        }
    }
}

/// The piece of the player to move (X moves first).
pub fn to_move(b: &Board) -> u8 {
    let xs = b.iter().filter(|&&c| c == 1).count();
    let os = b.iter().filter(|&&c| c == 2).count();
    if xs == os {
        1
    } else {
        2
    }
}

fn line(b: &Board, piece: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&c| b[c] == piece))
}

/// Whether the game is over at `b`.
pub fn is_over(b: &Board) -> bool {
    line(b, 1) || line(b, 2) || b.iter().all(|&c| c != 0)
}

/// The board a 9-character text (X, O, -) stands for.
pub fn parse(text: &str) -> Board {
    let mut b = [0u8; 9];
    for (cell, ch) in b.iter_mut().zip(text.chars()) {
        *cell = match ch {
            'X' => 1,
            'O' => 2,
            _ => 0,
        };
    }
    b
}

/// The 9-character text of a board.
pub fn show(b: &Board) -> String {
    b.iter()
        .map(|&c| match c {
            1 => 'X',
            2 => 'O',
            _ => '-',
        })
        .collect()
}

/// Minimax with remoteness: shortest win, longest loss, shortest tie (a tie's
/// length is fixed anyway: the board fills up).
pub struct Minimax {
    memo: HashMap<Board, (V, u32)>,
}

impl Minimax {
    /// An empty memo.
    pub fn new() -> Self {
        Minimax {
            memo: HashMap::new(),
        }
    }

    /// Value and remoteness of `b` for the player to move.
    pub fn solve(&mut self, b: &Board) -> (V, u32) {
        if let Some(&r) = self.memo.get(b) {
            return r;
        }
        let me = to_move(b);
        let other = 3 - me;
        let r = if line(b, other) {
            (V::Lose, 0)
        } else if b.iter().all(|&c| c != 0) {
            (V::Tie, 0)
        } else {
            let mut best: Option<(V, u32)> = None;
            for cell in 0..9 {
                if b[cell] != 0 {
                    continue;
                }
                let mut c = *b;
                c[cell] = me;
                let (v, r) = self.solve(&c);
                let mine = (v.flip(), r + 1);
                best = Some(match best {
                    None => mine,
                    Some(cur) => better(cur, mine),
                });
            }
            best.unwrap()
        };
        self.memo.insert(*b, r);
        r
    }
}

fn better(a: (V, u32), b: (V, u32)) -> (V, u32) {
    let rank = |v: V| match v {
        V::Win => 0,
        V::Tie => 1,
        V::Lose => 2,
    };
    if rank(a.0) != rank(b.0) {
        return if rank(a.0) < rank(b.0) { a } else { b };
    }
    match a.0 {
        V::Lose => (a.0, a.1.max(b.1)),
        _ => (a.0, a.1.min(b.1)),
    }
}

/// Every board reachable from the empty board (games stop at their end).
pub fn reachable() -> HashSet<Board> {
    let mut seen = HashSet::new();
    let mut stack = vec![[0u8; 9]];
    seen.insert([0u8; 9]);
    while let Some(b) = stack.pop() {
        if is_over(&b) {
            continue;
        }
        let me = to_move(&b);
        for cell in 0..9 {
            if b[cell] == 0 {
                let mut c = b;
                c[cell] = me;
                if seen.insert(c) {
                    stack.push(c);
                }
            }
        }
    }
    seen
}

/// The smallest of a board's eight symmetric images (rotations and reflections).
pub fn canonical(b: &Board) -> Board {
    let rot = |b: &Board| -> Board {
        let mut r = [0u8; 9];
        for row in 0..3 {
            for col in 0..3 {
                r[col * 3 + (2 - row)] = b[row * 3 + col];
            }
        }
        r
    };
    let mirror = |b: &Board| -> Board {
        let mut r = [0u8; 9];
        for row in 0..3 {
            for col in 0..3 {
                r[row * 3 + (2 - col)] = b[row * 3 + col];
            }
        }
        r
    };
    let mut images = Vec::new();
    let mut cur = *b;
    for _ in 0..4 {
        images.push(cur);
        images.push(mirror(&cur));
        cur = rot(&cur);
    }
    images.into_iter().min().unwrap()
}
