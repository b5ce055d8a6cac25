//! Quixo's per-class win/lose/draw counts against the published tables: the whole 4x4
//! (`../shared/reference/quixo4-classes.tsv`, from F. Bonnet's independent solver) and
//! the 5x5 endgame without blanks (`quixo5-classes.tsv`, Tanaka, Bonnet, Tixeuil and
//! Tamura, "Quixo Is Solved"), through the real solver (`solve` with a scope), the
//! partial database and `analyze --every-position` (counts weighted by orbit size, split
//! by the player to move). The 5x5 one-blank endgame is checked by the solve bench.
//!
//! A table counts every board of class (x X cubes, o O cubes) with O to move, from O's
//! view. Our tier {a, b} (a <= b, named `..._aX_bO`) holds the boards (a, b) and (b, a),
//! both sides to move, and `analyze --every-position` counts each position under its own
//! player to move. With O to move the tier holds class (a, b) and class (b, a); with X
//! to move, the colour swap of each board (O to move, from the mover's view) makes the
//! same two classes. So for a < b both `by_turn` entries equal the sum of the classes
//! (a, b) and (b, a), and for a = b both equal class (a, a).
//!
//! Needs `../shared` (the tables): without it these tests say so and pass, except in CI
//! (`CI` set), where they fail.

use gamesman_host::engine::ask::analyze::{self, Analysis, AnalyzeOptions, TierCounts};
use gamesman_host::engine::db::{self, GameKey};
use gamesman_host::engine::solver::{self, Scope, Silent, SolveOptions};
use gamesman_host::GameHandle;
use quixo::Quixo;
use std::collections::HashMap;
use std::path::PathBuf;

/// (win, lose, draw) per class (x, o), O to move, from O's view.
type Table = HashMap<(u32, u32), (u64, u64, u64)>;

/// The table in `../shared/reference/NAME`, or `None` (outside CI) when it is missing.
fn table(name: &str) -> Option<Table> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("../shared/reference").join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing, and CI must check the published tables",
            path.display()
        );
        eprintln!("skipped: {} is missing", path.display());
        return None;
    };
    let mut t = Table::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('x'))
    {
        let f: Vec<u64> = line
            .split('\t')
            .map(|s| s.trim().parse().expect("a number"))
            .collect();
        assert_eq!(f.len(), 6, "x o blanks win lose draw: {line}");
        t.insert((f[0] as u32, f[1] as u32), (f[3], f[4], f[5]));
    }
    Some(t)
}

/// (x, o) of a tier named like `2Blank_7X_7O`.
fn counts_of(name: &str) -> (u32, u32) {
    let parts: Vec<&str> = name.split('_').collect();
    let x = parts[1].trim_end_matches('X').parse().unwrap();
    let o = parts[2].trim_end_matches('O').parse().unwrap();
    (x, o)
}

/// (win, lose, draw) of a tier with `turn` (0: X, 1: O) to move, from the mover's view
/// (none when no canonical position has that player to move).
fn by_turn(t: &TierCounts, turn: usize) -> (u64, u64, u64) {
    let Some(c) = t.legal.by_turn.get(turn) else {
        return (0, 0, 0);
    };
    assert_eq!(c.by_value.tie + c.by_value.unsolved, 0, "tier {}", t.name);
    (c.by_value.win, c.by_value.lose, c.by_value.draw)
}

/// Solves `scope` of `variant` in memory and analyzes every position.
fn solve_and_count(variant: &str, scope: Scope) -> Analysis {
    let game = GameHandle::from_static::<Quixo>(variant).unwrap();
    let key = GameKey::of(&game);
    let database = db::open("memory:", &key).unwrap();
    let options = SolveOptions {
        scope,
        ..SolveOptions::default()
    };
    solver::solve(&game, database.as_ref(), &options, &Silent).unwrap();
    let options = AnalyzeOptions {
        every_position: true,
    };
    analyze::analyze_with(&game, database.as_ref(), &options).unwrap()
}

/// Checks every solved tier of `a` against `t`, both sides to move; returns how many
/// classes were compared (two per tier, one when a = b).
fn compare(a: &Analysis, t: &Table) -> usize {
    assert!(!a.canonical_only);
    let mut checked = 0;
    for tier in a.tiers.iter().filter(|t| t.solved) {
        let (a, b) = counts_of(&tier.name);
        assert!(a <= b, "tier {}", tier.name);
        let expected = if a == b {
            checked += 1;
            t[&(a, a)]
        } else {
            checked += 2;
            let (one, other) = (t[&(a, b)], t[&(b, a)]);
            (one.0 + other.0, one.1 + other.1, one.2 + other.2)
        };
        assert_eq!(tier.legal.by_turn.len(), 2, "tier {}", tier.name);
        assert_eq!(
            by_turn(tier, 0),
            expected,
            "tier {} with X to move",
            tier.name
        );
        assert_eq!(
            by_turn(tier, 1),
            expected,
            "tier {} with O to move",
            tier.name
        );
    }
    checked
}

#[test]
fn every_4x4_class_equals_the_independent_table() {
    let Some(t) = table("quixo4-classes.tsv") else {
        return;
    };
    let a = solve_and_count("4x4", Scope::Whole);
    assert_eq!(compare(&a, &t), 153);
    // Every position counted: 2 * 3^16.
    assert_eq!(a.legal.counts.total, 86_093_442);
    assert!(a.reachable_searched);
}

#[test]
fn every_5x5_class_without_blanks_equals_the_published_table() {
    let Some(t) = table("quixo5-classes.tsv") else {
        return;
    };
    let a = solve_and_count("5x5", Scope::Endgame(0));
    assert_eq!(compare(&a, &t), 26);
    // 2 * 2^25 positions in 13 tiers; the other 169 tiers are unsolved and nothing was
    // searched.
    assert_eq!(a.tiers.iter().filter(|t| t.solved).count(), 13);
    assert_eq!(a.legal.counts.total, 1 << 26);
    assert_eq!(a.unsolved_tiers.len(), 169);
    assert!(!a.reachable_searched);
    assert_eq!(a.reachable.counts.total, 0);
}
