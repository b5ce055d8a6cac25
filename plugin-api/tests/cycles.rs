//! The book's game with cycles end to end (tutorial/cycles.md): the example module
//! `examples/morris3.rs` (Three Men's Morris: a loopy last tier, undo moves per
//! parent tier, the turn in the index, the board's symmetries from
//! `symmetry::Symmetries`) is validated and solved by the real `validate` and `host`
//! binaries, and every reachable position's value and remoteness is compared with a
//! brute force written here from the rules alone (not from the module's code).

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::process::Command;

/// `<target>/release`: the test executable lives in `<target>/release/deps`.
fn release_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// Runs `tool --plugin <morris3> args...` (bounded by `timeout`): exit code, stdout.
fn run(tool: &str, args: &[&str]) -> (i32, String) {
    let dir = release_dir();
    let (bin, plugin) = (dir.join(tool), dir.join("examples/libmorris3.so"));
    assert!(
        bin.exists() && plugin.exists(),
        "build first: cargo build --release --workspace --examples (looked for {} and {})",
        bin.display(),
        plugin.display()
    );
    let out = Command::new("timeout")
        .arg("120")
        .arg(&bin)
        .arg("--plugin")
        .arg(&plugin)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn run_ok(tool: &str, args: &[&str]) -> String {
    let (code, out) = run(tool, args);
    assert_eq!(code, 0, "{tool} {args:?}: {out}");
    out
}

// ---- the brute force: the rules, over (board, player to move) ----------------------

/// A board as the module's texts write it (`.`, `X`, `O`, row by row), and whose
/// turn it is (`X` or `O`).
type State = ([u8; 9], u8);

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

fn other(p: u8) -> u8 {
    if p == b'X' {
        b'O'
    } else {
        b'X'
    }
}

fn line(b: &[u8; 9], p: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| b[i] == p))
}

/// Every child of a state (none once the last mover has a line).
fn children(&(b, turn): &State) -> Vec<State> {
    if line(&b, other(turn)) {
        return Vec::new();
    }
    let men = b.iter().filter(|&&c| c != b'.').count();
    let mut out = Vec::new();
    for from in 0..9 {
        if men < 6 && b[from] == b'.' {
            let mut c = b;
            c[from] = turn;
            out.push((c, other(turn)));
        } else if men == 6 && b[from] == turn {
            let (r, col) = (from / 3, from % 3);
            let near = [
                (r > 0).then(|| from - 3),
                (r < 2).then(|| from + 3),
                (col > 0).then(|| from - 1),
                (col < 2).then(|| from + 1),
            ];
            for to in near.into_iter().flatten().filter(|&to| b[to] == b'.') {
                let mut c = b;
                c[to] = turn;
                c[from] = b'.';
                out.push((c, other(turn)));
            }
        }
    }
    out
}

/// Every legal state: `t` men down (X has `ceil(t / 2)`, O `t / 2`), the player to
/// move implied by `t` before all six are down, and the player to move without a line.
fn legal_states() -> Vec<State> {
    let mut out = Vec::new();
    for code in 0..3u32.pow(9) {
        let mut b = [b'.'; 9];
        let mut n = code;
        for cell in &mut b {
            *cell = [b'.', b'X', b'O'][(n % 3) as usize];
            n /= 3;
        }
        let x = b.iter().filter(|&&c| c == b'X').count();
        let o = b.iter().filter(|&&c| c == b'O').count();
        if x > 3 || x != o && x != o + 1 {
            continue;
        }
        for turn in [b'X', b'O'] {
            let implied = if x == o { b'X' } else { b'O' };
            if (x + o == 6 || turn == implied) && !line(&b, turn) {
                out.push((b, turn));
            }
        }
    }
    out
}

/// Value (`win`, `lose`, `draw`) and remoteness (none for draws) of every legal
/// state, by retrograde rounds: round `r` decides the states that win or lose in `r`
/// moves; what no round decides is a draw.
fn brute_force() -> HashMap<State, (&'static str, Option<u32>)> {
    let kids: HashMap<State, Vec<State>> = legal_states()
        .into_iter()
        .map(|s| (s, children(&s)))
        .collect();
    let mut solved: HashMap<State, (&'static str, Option<u32>)> = HashMap::new();
    for round in 0u32.. {
        let mut new = Vec::new();
        for (s, c) in &kids {
            if solved.contains_key(s) {
                continue;
            }
            let lose_child = round > 0
                && c.iter()
                    .any(|k| solved.get(k) == Some(&("lose", Some(round - 1))));
            let all_win = c.iter().all(|k| matches!(solved.get(k), Some(("win", _))));
            if lose_child {
                new.push((*s, ("win", Some(round))));
            } else if all_win {
                new.push((*s, ("lose", Some(round))));
            }
        }
        if new.is_empty() {
            break;
        }
        solved.extend(new);
    }
    for s in kids.keys() {
        solved.entry(*s).or_insert(("draw", None));
    }
    solved
}

/// The least of a board's 8 images (rotations and reflections, by coordinates).
fn canonical(&(b, turn): &State) -> State {
    let mut best = b;
    for k in 0..8 {
        let mut img = [b'.'; 9];
        for (i, cell) in img.iter_mut().enumerate() {
            let (mut r, mut c) = (i / 3, i % 3);
            if k & 4 != 0 {
                c = 2 - c;
            }
            for _ in 0..k % 4 {
                (r, c) = (c, 2 - r);
            }
            *cell = b[r * 3 + c];
        }
        best = best.min(img);
    }
    (best, turn)
}

/// Symmetry classes reachable from the empty board.
fn reachable_classes() -> usize {
    let start: State = ([b'.'; 9], b'X');
    let mut seen = std::collections::HashSet::from([canonical(&start)]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        for k in children(&s) {
            if seen.insert(canonical(&k)) {
                queue.push_back(k);
            }
        }
    }
    seen.len()
}

// ---- the tests ------------------------------------------------------------------

#[test]
fn the_loopy_example_validates_with_its_loopy_tier() {
    let json: serde_json::Value =
        serde_json::from_str(&run_ok("validate", &["--exhaustive", "--json"])).unwrap();
    assert_eq!(json["summary"]["ok"], true, "{json}");
    assert_eq!(json["summary"]["errors"], 0, "{json}");
    assert_eq!(json["summary"]["warnings"], 0, "{json}");
    assert_eq!(json["summary"]["tiers"], 7, "{json}");
    assert_eq!(json["summary"]["loopy_tiers"], 1, "{json}");
    let tiers = json["tiers"].as_array().unwrap();
    let loopy: Vec<_> = tiers.iter().filter(|t| t["loopy"] == true).collect();
    assert_eq!(loopy.len(), 1, "{json}");
    assert_eq!(loopy[0]["tier"], 6, "{json}");
    assert_eq!(loopy[0]["name"], "sliding", "{json}");
    // Its positions really do return to themselves.
    assert_eq!(loopy[0]["cycles"], true, "{json}");
    assert_eq!(json["summary"]["cyclic_tiers"], 1, "{json}");
    // Legal positions, and symmetry classes reachable from the start, counted apart.
    assert_eq!(
        json["summary"]["legal_positions"],
        legal_states().len() as u64,
        "{json}"
    );
    assert_eq!(
        json["summary"]["reachable_positions"],
        reachable_classes() as u64,
        "{json}"
    );
}

#[test]
fn the_loopy_example_solves_as_the_brute_force_says() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    run_ok("host", &["solve", "--db", &db]);
    let csv = dir.path().join("all.csv");
    let csv_arg = csv.display().to_string();
    run_ok(
        "host",
        &["export", "--db", &db, "--all-positions", "--out", &csv_arg],
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("tier,idx,position,turn,value,remoteness")
    );
    let want = brute_force();
    let mut seen = 0;
    let mut draws = 0;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        let (board, turn) = f[2].split_once(':').unwrap();
        let state: State = (board.as_bytes().try_into().unwrap(), turn.as_bytes()[0]);
        let (value, remoteness) = want[&state];
        assert_eq!(f[4], value, "{l}");
        assert_eq!(
            f[5],
            remoteness.map_or(String::new(), |r| r.to_string()),
            "{l}"
        );
        seen += 1;
        draws += usize::from(value == "draw");
    }
    assert_eq!(seen, want.len());
    // Cycles matter: some positions are draws, which only a loopy solve finds.
    assert!(draws > 0, "{draws}");
    // The start, as `query` gives it.
    let json: serde_json::Value =
        serde_json::from_str(&run_ok("host", &["query", "--db", &db, "--json"])).unwrap();
    let (value, remoteness) = want[&([b'.'; 9], b'X')];
    assert_eq!(json["value"], value, "{json}");
    assert_eq!(
        json["remoteness"],
        remoteness.map_or(serde_json::Value::Null, |r| r.into()),
        "{json}"
    );
}

#[test]
fn the_validator_names_each_mistake() {
    let text = |variant: &str| {
        let (code, out) = run("validate", &["--variant", variant]);
        assert_eq!(code, 1, "{variant}: {out}");
        out
    };
    let out = text("mistake-no-self-loop");
    assert!(out.contains("2 children         FAIL"), "{out}");
    assert!(
        out.contains("lies in the position's own tier, but tier_children(6) does not list it, so the tier is not declared loopy"),
        "{out}"
    );
    let out = text("mistake-undo-one-tier");
    assert!(out.contains("3 undo-moves       FAIL"), "{out}");
    assert!(
        out.contains("missing undo move: the undo moves of the child"),
        "{out}"
    );
    assert!(
        out.contains("towards tier 6 lead to [], not back to this position"),
        "{out}"
    );
    // Undo moves are named by the module's text (plugin-api 0.1.9), with the number.
    let out = text("mistake-primitive-parents");
    assert!(
        out.contains(r#"extra undo move: undo move "c3-c2 taken back" (#86) towards tier 6 (sliding) leads to 6:159 ".XXX..OOO:O", which is illegal"#),
        "{out}"
    );
    assert!(!out.contains("extra undo move: undo move #"), "{out}");
}

#[test]
fn all_variants_are_checked_in_one_run() {
    let (code, out) = run("validate", &["--all-variants"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("=== morris3 variant regular ==="), "{out}");
    let tail: Vec<&str> = out.lines().rev().take(5).collect();
    assert_eq!(
        tail,
        [
            "  mistake-primitive-parents  96 errors",
            "  mistake-undo-one-tier      1108 errors",
            "  mistake-no-self-loop       8680 errors",
            "  regular                    ok (0 warnings)",
            "All variants of morris3 (4):",
        ],
        "{out}"
    );
    let (code, out) = run("validate", &["--all-variants", "--json"]);
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["module"], "morris3");
    assert_eq!(json["ok"], false);
    assert_eq!(json["failed"], 3);
    assert_eq!(json["not_opened"], 0);
    let v = json["variants"].as_array().unwrap();
    assert_eq!(v.len(), 4);
    assert_eq!(v[0]["variant"], "regular");
    assert_eq!(v[0]["outcome"]["summary"]["ok"], true);
    assert_eq!(v[3]["outcome"]["summary"]["errors"], 96);
    // One variant at a time still works, and cannot be mixed with --all-variants.
    let (code, _) = run("validate", &["--all-variants", "--variant", "regular"]);
    assert_eq!(code, 2);
}
