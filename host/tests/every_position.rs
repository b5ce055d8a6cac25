//! `analyze --every-position` against an exhaustive count: every position reached
//! from the start by the module's own moves, without any symmetry (a breadth-first
//! walk over `generate_moves` and `do_move`, no move out of a primitive), and every
//! legal position of every tier's whole hash, each counted once under its own player to
//! move with the record of its canonical form. Total, by value, by remoteness and by
//! the player to move must agree exactly, on mtttier (with and without its symmetry;
//! its symmetric variant's legal counts come from its canonical positions alone,
//! through `orbit_by_turn`, as Quixo's do),
//! Quixo 3x3 (whose colour swap made the old weighting count 15 positions that never
//! occur: 32,042 against GamesmanOne's 32,027) and Dodgem 3x3 (loopy). GamesmanOne
//! itself (`../shared/anchors/gamesmanone-1.3.0`) is the oracle of a last test, which
//! passes without `../shared` and fails without it under CI.

use gamesman_host::engine::ask::analyze::{analyze_with, AnalyzeOptions, Counts};
use gamesman_host::engine::db::{self, Database, GameKey};
use gamesman_host::engine::load::loader;
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::GameHandle;
use gamesman_plugin_api::{TierPosition, Value};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::PathBuf;

/// Counts kept the plain way.
#[derive(Debug, Default, PartialEq, Eq)]
struct Plain {
    total: u64,
    /// win, lose, tie, draw, unsolved
    by_value: [u64; 5],
    /// remoteness -> win, lose, tie
    by_remoteness: BTreeMap<u32, [u64; 3]>,
    /// player -> total, by value
    by_turn: BTreeMap<u8, (u64, [u64; 5])>,
}

fn slot(v: Value) -> usize {
    match v {
        Value::WIN => 0,
        Value::LOSE => 1,
        Value::TIE => 2,
        Value::DRAW => 3,
        _ => 4,
    }
}

impl Plain {
    fn add(&mut self, v: Value, remoteness: u32, turn: u8) {
        self.total += 1;
        self.by_value[slot(v)] += 1;
        if slot(v) < 3 {
            self.by_remoteness.entry(remoteness).or_default()[slot(v)] += 1;
        }
        let t = self.by_turn.entry(turn).or_default();
        t.0 += 1;
        t.1[slot(v)] += 1;
    }

    /// The host's counts in the same shape.
    fn of(c: &Counts) -> Plain {
        let values = |v: &gamesman_host::engine::ask::analyze::ValueCounts| {
            [v.win, v.lose, v.tie, v.draw, v.unsolved]
        };
        Plain {
            total: c.total,
            by_value: values(&c.by_value),
            by_remoteness: c
                .by_remoteness
                .iter()
                .map(|r| (r.remoteness, [r.win, r.lose, r.tie]))
                .collect(),
            by_turn: c
                .by_turn
                .iter()
                .enumerate()
                .filter(|(_, t)| t.total > 0)
                .map(|(k, t)| (k as u8 + 1, (t.total, values(&t.by_value))))
                .collect(),
        }
    }
}

fn open(module: &str, variant: &str) -> GameHandle {
    let host = PathBuf::from(env!("CARGO_BIN_EXE_host"));
    let path = host.parent().unwrap().join(format!("lib{module}.so"));
    assert!(
        path.exists(),
        "{} is missing: build the workspace first",
        path.display()
    );
    let m = loader::load(path.to_str().unwrap()).unwrap();
    m.open(Some(variant)).unwrap()
}

fn solved(game: &GameHandle) -> std::sync::Arc<dyn Database> {
    let db = db::open("memory:", &GameKey::of(game)).unwrap();
    solver::solve(game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    db
}

/// Every position reached from the start, and every legal position, counted plainly.
fn exhaustive(game: &GameHandle, db: &dyn Database) -> (Plain, Plain) {
    let record = |p: TierPosition| {
        let r = db
            .lookup(game.canonical(p).unwrap())
            .unwrap()
            .expect("stored");
        (r.value, r.remoteness, game.turn(p).unwrap().0)
    };
    let mut reached = Plain::default();
    let start = game.initial_position().unwrap();
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        let (v, r, turn) = record(p);
        reached.add(v, r, turn);
        if game.primitive(p).unwrap() != Value::UNDECIDED {
            continue;
        }
        for m in game.moves(p).unwrap() {
            let c = game.do_move(p, m).unwrap();
            if seen.insert(c) {
                queue.push_back(c);
            }
        }
    }
    let mut legal = Plain::default();
    for node in TierGraph::discover(game).unwrap().order {
        for i in 0..node.size {
            let p = TierPosition::new(node.tier, i);
            if game.is_legal(p).unwrap() {
                let (v, r, turn) = record(p);
                legal.add(v, r, turn);
            }
        }
    }
    (reached, legal)
}

/// The host's every-position counts equal the exhaustive ones; returns them.
fn agrees(module: &str, variant: &str) -> Plain {
    let game = open(module, variant);
    let db = solved(&game);
    let a = analyze_with(
        &game,
        db.as_ref(),
        &AnalyzeOptions {
            every_position: true,
        },
    )
    .unwrap();
    assert!(!a.canonical_only);
    let (reached, legal) = exhaustive(&game, db.as_ref());
    assert_eq!(
        Plain::of(&a.reachable.counts),
        reached,
        "{module} {variant} reachable"
    );
    assert_eq!(
        Plain::of(&a.legal.counts),
        legal,
        "{module} {variant} legal"
    );
    // Per tier too.
    let per_tier: u64 = a.tiers.iter().map(|t| t.reachable.total).sum();
    assert_eq!(per_tier, reached.total, "{module} {variant}");
    reached
}

#[test]
fn tic_tac_toe_every_position_is_exact() {
    let regular = agrees("mtttier", "regular");
    assert_eq!(regular.total, 5478);
    // The symmetric variant stands for the same boards.
    assert_eq!(agrees("mtttier", "symmetric"), regular);
}

#[test]
fn quixo_3x3_every_position_is_exact() {
    let q = agrees("quixo", "3x3");
    // GamesmanOne's own analysis of Quixo 3x3 (its variant 2) counts 32,027 reachable
    // positions; weighting canonical positions by whole orbits gave 32,042.
    assert_eq!(q.total, 32_027);
    // X moves first: no position with X to move lacks an X cube once moves are made,
    // and the counts by turn are not the mirror of each other.
    assert_ne!(q.by_turn[&1].0, q.by_turn[&2].0, "{q:?}");
}

#[test]
fn dodgem_every_position_is_exact() {
    agrees("dodgem", "3x3");
}

/// GamesmanOne's analysis of Quixo 3x3 as the oracle: its output holds our totals.
#[test]
fn quixo_3x3_matches_gamesmanone() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/anchors");
    let bin = root.join("gamesmanone-1.3.0");
    if !bin.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing (../shared/anchors), which CI must have",
            bin.display()
        );
        eprintln!("skipped: {} is missing", bin.display());
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new("timeout")
            .arg("300")
            .arg(&bin)
            .arg("--data-path=g")
            .args(args)
            .current_dir(scratch.path())
            .env("OMP_NUM_THREADS", "1")
            .output()
            .unwrap()
    };
    let solve = run(&["solve", "quixo", "2"]);
    {
        use std::os::unix::process::ExitStatusExt;
        // Built with -march=native elsewhere: a CPU without those instructions
        // cannot run it at all, which says nothing of the counts.
        if solve.status.signal() == Some(4) {
            eprintln!("skipped: {} cannot run on this CPU (SIGILL)", bin.display());
            return;
        }
    }
    assert!(solve.status.success(), "{solve:?}");
    let out = run(&["analyze", "quixo", "2"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).replace(',', "");
    let numbers: HashSet<u64> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let ours = agrees("quixo", "3x3");
    for n in [ours.total, ours.by_value[0], ours.by_value[1]] {
        assert!(
            numbers.contains(&n),
            "{n} is not in GamesmanOne's analysis:\n{text}"
        );
    }
}
