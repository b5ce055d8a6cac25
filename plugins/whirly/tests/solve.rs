//! Whirly through the real solver: hand-checked shortest solutions of the tiny levels,
//! an unsolvable level, the same numbers from an independent breadth-first search
//! written here, ranking round-trips, and the solver's shortest solution replayed move
//! by move until the level is solved.

use gamesman_host::engine::db::{self, Database, GameKey};
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Game, TierPosition, Value};
use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use whirly::{Whirly, LEVELS};

fn solve(variant: &str) -> (GameHandle, Arc<dyn Database>) {
    let game = GameHandle::from_static::<Whirly>(variant).unwrap();
    let key = GameKey {
        game: "whirly".into(),
        variant: variant.into(),
        winby: false,
        numbering: 0,
    };
    let db = db::open("memory:", &key).unwrap();
    solver::solve(&game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    (game, db)
}

/// Shortest solution length by plain BFS over (pusher cells, boxes) on the raw map,
/// with its own reading of the level: letters are boxes/targets, '@' pushers.
fn bfs(text: &str) -> Option<usize> {
    let grid: Vec<Vec<char>> = text
        .lines()
        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
        .map(|l| l.chars().collect())
        .collect();
    let wall = |r: i32, c: i32| -> bool {
        r < 0
            || c < 0
            || grid
                .get(r as usize)
                .and_then(|row| row.get(c as usize))
                .is_none_or(|&ch| ch == '#')
    };
    let mut pushers = Vec::new();
    let mut boxes = Vec::new();
    let mut targets = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            let at = (r as i32, c as i32);
            match ch {
                '@' => pushers.push(at),
                x if x.is_ascii_uppercase() => boxes.push((at, x.to_ascii_lowercase())),
                x if x.is_ascii_lowercase() => targets.push((at, x)),
                _ => {}
            }
        }
    }
    type State = (Vec<(i32, i32)>, Vec<((i32, i32), char)>);
    let norm = |mut s: State| -> State {
        s.0.sort();
        s.1.sort();
        s
    };
    let solved = |s: &State| {
        targets
            .iter()
            .all(|(t, col)| s.1.iter().any(|(b, bc)| b == t && bc == col))
    };
    let start = norm((pushers, boxes));
    let mut seen: HashSet<State> = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([(start, 0usize)]);
    while let Some((s, d)) = queue.pop_front() {
        if solved(&s) {
            return Some(d);
        }
        for i in 0..s.0.len() {
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (r, c) = s.0[i];
                let n1 = (r + dr, c + dc);
                if wall(n1.0, n1.1) || s.0.contains(&n1) {
                    continue;
                }
                let mut next = s.clone();
                if let Some(b) = s.1.iter().position(|(p, _)| *p == n1) {
                    let n2 = (n1.0 + dr, n1.1 + dc);
                    if wall(n2.0, n2.1) || s.0.contains(&n2) || s.1.iter().any(|(p, _)| *p == n2) {
                        continue;
                    }
                    next.1[b].0 = n2;
                }
                next.0[i] = n1;
                let next = norm(next);
                if seen.insert(next.clone()) {
                    queue.push_back((next, d + 1));
                }
            }
        }
    }
    None
}

fn level_text(name: &str) -> &'static str {
    LEVELS.iter().find(|l| l.0 == name).unwrap().2
}

#[test]
fn tiny_levels_have_their_hand_checked_solutions() {
    for (name, expected) in [
        ("tiny-push", Some(2)),
        ("tiny-corner", Some(5)),
        ("two-colours", Some(10)),
        ("stuck", None),
    ] {
        let (game, db) = solve(name);
        let r = db
            .lookup(game.initial_position().unwrap())
            .unwrap()
            .unwrap();
        match expected {
            Some(n) => assert_eq!((r.value, r.remoteness), (Value::WIN, n), "{name}"),
            None => assert!(
                r.value == Value::DRAW || r.value == Value::LOSE,
                "{name}: {r:?}"
            ),
        }
        assert_eq!(
            bfs(level_text(name)),
            expected.map(|n| n as usize),
            "{name} by BFS"
        );
    }
}

#[test]
fn bundled_levels_agree_with_breadth_first_search() {
    for name in ["two-pushers", "warehouse"] {
        let (game, db) = solve(name);
        let r = db
            .lookup(game.initial_position().unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(r.value, Value::WIN, "{name}");
        assert_eq!(Some(r.remoteness as usize), bfs(level_text(name)), "{name}");
    }
}

#[test]
fn ranking_round_trips() {
    for name in ["tiny-corner", "two-colours", "two-pushers"] {
        let w = Whirly::open(name).unwrap();
        let size = w.tier_size(gamesman_plugin_api::Tier(0));
        for i in 0..size {
            let p = TierPosition::new(gamesman_plugin_api::Tier(0), i);
            assert_eq!(w.position_of(&w.units(p)), p);
            let text = w.position_to_text(p);
            assert_eq!(w.text_to_position(&text), Ok(p), "{name} {text}");
        }
    }
}

#[test]
fn shortest_solution_replays_to_a_solved_level() {
    for name in ["two-colours", "two-pushers", "warehouse"] {
        let (game, db) = solve(name);
        let mut p = game.initial_position().unwrap();
        let mut r = db.lookup(p).unwrap().unwrap();
        let length = r.remoteness;
        let mut steps = 0;
        while game.primitive(p).unwrap() == Value::UNDECIDED {
            let next = game
                .moves(p)
                .unwrap()
                .into_iter()
                .map(|m| game.do_move(p, m).unwrap())
                .find(|&c| {
                    let cr = db.lookup(c).unwrap().unwrap();
                    cr.value == Value::WIN && cr.remoteness + 1 == r.remoteness
                })
                .expect("a move one step closer");
            p = next;
            r = db.lookup(p).unwrap().unwrap();
            steps += 1;
        }
        assert_eq!(game.primitive(p).unwrap(), Value::WIN, "{name}");
        assert_eq!(steps, length, "{name}");
    }
}

#[test]
fn moves_parse_and_print() {
    let w = Whirly::open("two-pushers").unwrap();
    let p = w.start();
    let m = w.text_to_move(p, "b2r").unwrap();
    assert_eq!(w.move_to_text(p, m), "b2r");
    assert!(w
        .text_to_move(p, "r")
        .unwrap_err()
        .contains("several pushers"));
    assert!(w
        .text_to_move(p, "c2r")
        .unwrap_err()
        .contains("no pusher at"));
    let single = Whirly::open("tiny-push").unwrap();
    let s = single.start();
    assert_eq!(
        single.move_to_text(s, single.text_to_move(s, "R").unwrap()),
        "r"
    );
    assert!(single.text_to_move(s, "x").is_err());
    assert!(Whirly::open("nope").err().unwrap().contains("bundled:"));
}
