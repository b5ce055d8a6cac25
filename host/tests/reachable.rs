//! Reachable-only solving (`solve --reachable`) against full solves: on random tiered
//! graph games (loopy, go-again, puzzles, WinBy; with many positions no move reaches)
//! and tic-tac-toe, every reachable position's record equals the full solve's, every
//! other position has none and is said not to occur; tier files round-trip, a solve
//! resumes, and full and reachable-only databases are never mixed up.

mod common;

use common::{register, Graph, GraphGame, Node, Rng};
use gamesman_host::engine::ask::analyze;
use gamesman_host::engine::ask::query;
use gamesman_host::engine::ask::ranking::Ranking;
use gamesman_host::engine::db::{self, Coverage, Database, DbError, GameKey, TierStatus};
use gamesman_host::engine::record::Record;
use gamesman_host::engine::solver::parents::ParentMode;
use gamesman_host::engine::solver::reachable::solve_reachable;
use gamesman_host::engine::solver::{self, Silent, SolveError, SolveOptions};
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use mtttier::MttTier;
use std::collections::HashMap;
use std::sync::Arc;

fn key(game: &GameHandle) -> GameKey {
    GameKey {
        game: game.module_name().into(),
        variant: game.variant().into(),
        winby: game.supports_winby(),
        numbering: 0,
    }
}

fn full(game: &GameHandle) -> Arc<dyn Database> {
    let db = db::open("memory:", &key(game)).unwrap();
    solver::solve(game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    db
}

fn reachable_only(game: &GameHandle, parents: ParentMode) -> Arc<dyn Database> {
    let db = db::open("memory:", &key(game)).unwrap();
    let options = SolveOptions {
        parents,
        ..SolveOptions::default()
    };
    solve_reachable(game, db.as_ref(), &options, &Silent).unwrap();
    db
}

/// A random tiered game whose nodes have 0 to 3 moves, so many are never reached.
fn random_graph(rng: &mut Rng, players: u8, go_again: bool, winby: bool) -> Graph {
    let tiers = 1 + rng.below(4) as usize;
    let mut by_tier: Vec<Vec<usize>> = Vec::new();
    let mut nodes = Vec::new();
    for t in 0..tiers {
        let mut ids = Vec::new();
        for _ in 0..1 + rng.below(14) {
            ids.push(nodes.len());
            let prim = match rng.below(7) {
                0 => Value::WIN,
                1 => Value::LOSE,
                2 => Value::TIE,
                _ => Value::UNDECIDED,
            };
            let turn = if players == 1 {
                1
            } else {
                1 + rng.below(2) as u8
            };
            // Primitive margins agree with the value for player one.
            let sign = match (prim, turn) {
                (Value::WIN, 1) | (Value::LOSE, 2) => 1,
                (Value::LOSE, 1) | (Value::WIN, 2) => -1,
                _ => 0,
            };
            nodes.push(Node {
                tier: t as u64,
                turn,
                prim,
                winby: sign * (1 + rng.below(9) as i64),
                edges: vec![],
            });
        }
        by_tier.push(ids);
    }
    for node in nodes.iter_mut() {
        let t = node.tier as usize;
        for _ in 0..rng.below(4) {
            let to = if rng.below(3) == 0 || t == 0 {
                t
            } else {
                rng.below(t as u64) as usize
            };
            let ids = &by_tier[to];
            node.edges.push(ids[rng.below(ids.len() as u64) as usize]);
        }
        node.edges.sort_unstable();
        node.edges.dedup();
    }
    // The initial position (node 0) lies in the top tier.
    let top = by_tier[tiers - 1][0];
    nodes.swap(0, top);
    for n in nodes.iter_mut() {
        for e in n.edges.iter_mut() {
            if *e == 0 {
                *e = top;
            } else if *e == top {
                *e = 0;
            }
        }
    }
    Graph {
        nodes,
        players,
        winby,
        go_again,
    }
}

/// Node ids reachable from node 0 by moves (a primitive position has none).
fn reachable_nodes(g: &Graph) -> Vec<bool> {
    let mut seen = vec![false; g.nodes.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        if g.nodes[i].prim != Value::UNDECIDED {
            continue;
        }
        for &c in &g.nodes[i].edges {
            if !seen[c] {
                seen[c] = true;
                stack.push(c);
            }
        }
    }
    seen
}

/// Each node's position, in the order GraphGame numbers a tier's nodes.
fn positions(g: &Graph) -> Vec<TierPosition> {
    let mut next: HashMap<u64, u64> = HashMap::new();
    g.nodes
        .iter()
        .map(|n| {
            let i = next.entry(n.tier).or_default();
            *i += 1;
            TierPosition::new(Tier(n.tier), *i - 1)
        })
        .collect()
}

#[test]
fn random_games_keep_every_reachable_value_of_the_full_solve() {
    let mut rng = Rng(0x05ee_d0f4_eac4_ab1e);
    let mut unreached_checked = 0;
    for case in 0..400 {
        let (players, go_again, winby) = match case % 4 {
            0 => (2, false, false),
            1 => (2, true, false),
            2 => (1, false, false),
            _ => (2, false, true),
        };
        let g = random_graph(&mut rng, players, go_again, winby);
        let name = format!("reach{case}");
        register(&name, g.clone());
        let game = GameHandle::from_static::<GraphGame>(&name).unwrap();
        let graph = TierGraph::discover(&game).unwrap();
        let whole = full(&game);
        // Undo moves and the reverse graph on the compact view, in turn.
        let parents = if case % 8 < 4 {
            ParentMode::UndoMoves
        } else {
            ParentMode::Forward
        };
        let part = reachable_only(&game, parents);
        assert_eq!(
            db::coverage(part.as_ref()).unwrap(),
            Some(Coverage::ReachableOnly)
        );
        let reached = reachable_nodes(&g);
        for (i, &p) in positions(&g).iter().enumerate() {
            if !graph.contains(p.tier) {
                continue;
            }
            let got = part.lookup(p).unwrap().expect("every tier is stored");
            if reached[i] {
                let want = whole.lookup(p).unwrap().unwrap();
                assert_eq!(got, want, "case {case} node {i}: {g:?}");
                assert_eq!(part.reachable(p).unwrap(), Some(true));
            } else {
                assert_eq!(got, Record::UNSOLVED, "case {case} node {i}");
                assert_eq!(part.reachable(p).unwrap(), Some(false));
                unreached_checked += 1;
            }
            assert_eq!(whole.reachable(p).unwrap(), None);
        }
    }
    // The games do hold positions no move reaches.
    assert!(unreached_checked > 1000, "{unreached_checked}");
}

#[test]
fn tic_tac_toe_reachable_is_every_legal_board() {
    for (variant, reachable) in [("regular", 5478), ("symmetric", 765)] {
        let game = GameHandle::from_static::<MttTier>(variant).unwrap();
        let db = db::open("memory:", &key(&game)).unwrap();
        let r = solve_reachable(&game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
        assert_eq!(r.reachable, reachable, "{variant}");
        assert_eq!(r.solve.positions_solved, reachable);
        let graph = TierGraph::discover(&game).unwrap();
        assert_eq!(r.positions_in_tiers, graph.total_positions(), "{variant}");
        assert!(r.positions_in_tiers > reachable);
        assert_eq!(
            (
                r.solve.initial_record.value,
                r.solve.initial_record.remoteness
            ),
            (Value::TIE, 9)
        );
        assert_eq!(r.solve.initial, game.initial_position().unwrap());
        // The counts of analyze agree with a full solve's reachable counts.
        let whole = full(&game);
        let a = analyze::analyze(&game, db.as_ref()).unwrap();
        let b = analyze::analyze(&game, whole.as_ref()).unwrap();
        assert!(a.reachable_only && !b.reachable_only);
        assert_eq!(a.reachable.counts, b.reachable.counts, "{variant}");
        assert_eq!(a.reachable.counts.total, reachable);
        assert_eq!(a.reachable.max_remoteness, b.reachable.max_remoteness);
        // Every legal board is reachable in tic-tac-toe.
        assert_eq!(a.legal.counts, b.legal.counts);
    }
}

#[test]
fn a_position_that_cannot_occur_says_so() {
    // 0 -> 1 (a win for the mover there); 2 -> 1 is never played: 2 cannot occur.
    let g = Graph {
        nodes: vec![
            Node {
                tier: 1,
                turn: 1,
                prim: Value::UNDECIDED,
                winby: 0,
                edges: vec![2],
            },
            Node {
                tier: 1,
                turn: 1,
                prim: Value::UNDECIDED,
                winby: 0,
                edges: vec![2],
            },
            Node {
                tier: 0,
                turn: 2,
                prim: Value::LOSE,
                winby: 0,
                edges: vec![],
            },
        ],
        players: 2,
        winby: false,
        go_again: false,
    };
    register("cannot-occur", g);
    let game = GameHandle::from_static::<GraphGame>("cannot-occur").unwrap();
    let db = reachable_only(&game, ParentMode::Auto);
    let start = TierPosition::new(Tier(1), 0);
    let never = TierPosition::new(Tier(1), 1);
    let ranking = Ranking::of(&game, db.as_ref(), never, true).unwrap();
    assert_eq!(ranking.reachable, Some(false));
    assert_eq!(ranking.record, Record::UNSOLVED);
    let report = query::report(&game, &ranking).unwrap();
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["reachable"], false);
    assert_eq!(json["value"], "unsolved");
    // Its move still leads to a reachable, solved position.
    assert_eq!(json["moves"][0]["value"], "lose");
    let text = query::text(&game, &ranking).unwrap();
    assert!(text.contains("cannot occur from the start"), "{text}");
    let ranking = Ranking::of(&game, db.as_ref(), start, true).unwrap();
    assert_eq!(ranking.reachable, Some(true));
    assert_eq!(
        (ranking.record.value, ranking.record.remoteness),
        (Value::WIN, 1)
    );
    // A full solve's query has no such field.
    let whole = full(&game);
    let ranking = Ranking::of(&game, whole.as_ref(), never, true).unwrap();
    assert_eq!(ranking.reachable, None);
    let json = serde_json::to_value(query::report(&game, &ranking).unwrap()).unwrap();
    assert!(json.get("reachable").is_none());
    assert_eq!(json["value"], "win");
}

fn tier_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[test]
fn file_databases_resume_and_are_never_mixed_up() {
    let dir = tempfile::tempdir().unwrap();
    let game = GameHandle::from_static::<MttTier>("regular").unwrap();
    let resource = format!("file:{}", dir.path().display());
    let db = db::open(&resource, &key(&game)).unwrap();
    let options = SolveOptions::default();
    let first = solve_reachable(&game, db.as_ref(), &options, &Silent).unwrap();
    assert_eq!(first.solve.tiers_solved, 10);
    let tdir = dir.path().join("mtttier_regular_tierdb");
    let files = tier_files(&tdir);
    assert_eq!(files.len(), 10);
    // Every record read back from the files equals a full solve's.
    let whole = full(&game);
    let fresh = db::open(&resource, &key(&game)).unwrap();
    let mut reachable = 0;
    for t in 0..=9u64 {
        let size = game.tier_size(Tier(t)).unwrap();
        for i in 0..size {
            let p = TierPosition::new(Tier(t), i);
            let want = whole.lookup(p).unwrap().unwrap();
            let got = fresh.lookup(p).unwrap().unwrap();
            if fresh.reachable(p).unwrap().unwrap() {
                reachable += 1;
                assert_eq!(got, want, "{p}");
            } else {
                // In tic-tac-toe exactly the illegal boards cannot occur.
                assert!(!game.is_legal(p).unwrap(), "{p}");
                assert_eq!(got, Record::UNSOLVED);
            }
        }
    }
    assert_eq!(reachable, 5478);
    let info = gamesman_host::engine::ask::info::database_info(&game, fresh.as_ref()).unwrap();
    assert_eq!(info.coverage, Some(Coverage::ReachableOnly));
    assert_eq!((info.tiers_stored, info.positions_held), (10, 5478));
    assert!(gamesman_host::engine::ask::info::database_text(&info).contains("reachable-only"));

    // A second run keeps everything; a lost and a damaged tier are solved again.
    let again = solve_reachable(&game, db.as_ref(), &options, &Silent).unwrap();
    assert_eq!(
        (again.solve.tiers_solved, again.solve.tiers_reused),
        (0, 10)
    );
    std::fs::remove_file(tdir.join("tier_4.gz")).unwrap();
    let path = tdir.join("tier_6.gz");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&path, &bytes).unwrap();
    let db = db::open(&resource, &key(&game)).unwrap();
    let repaired = solve_reachable(&game, db.as_ref(), &options, &Silent).unwrap();
    assert_eq!(repaired.solve.tiers_solved, 2);
    for t in graph_tiers(&game) {
        let meta = solver::meta_of(TierGraph::discover(&game).unwrap().get(t).unwrap());
        let marks = db.load_reachable_tier(&meta).unwrap().marks;
        assert_eq!(
            db.verify_reachable_tier(&meta, &marks).unwrap(),
            TierStatus::Valid
        );
    }

    // A full solve refuses the reachable-only database, and the reverse.
    let err = solver::solve(&game, db.as_ref(), &options, &Silent).unwrap_err();
    assert!(
        matches!(
            err,
            SolveError::Db(DbError::Coverage {
                found: Coverage::ReachableOnly,
                wanted: Coverage::Full,
                ..
            })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("--force"), "{err}");
    let forced = SolveOptions {
        force: true,
        ..SolveOptions::default()
    };
    solver::solve(&game, db.as_ref(), &forced, &Silent).unwrap();
    assert_eq!(db::coverage(db.as_ref()).unwrap(), Some(Coverage::Full));
    assert_eq!(db.reachable(TierPosition::new(Tier(9), 0)).unwrap(), None);
    let err = solve_reachable(&game, db.as_ref(), &options, &Silent).unwrap_err();
    assert!(
        matches!(
            err,
            SolveError::Db(DbError::Coverage {
                found: Coverage::Full,
                wanted: Coverage::ReachableOnly,
                ..
            })
        ),
        "{err}"
    );
    // Reading whole tiers of the other kind is refused too, not misread.
    let meta = solver::meta_of(TierGraph::discover(&game).unwrap().get(Tier(5)).unwrap());
    assert!(matches!(
        db.load_reachable_tier(&meta),
        Err(DbError::Coverage { .. })
    ));
    let r = solve_reachable(&game, db.as_ref(), &forced, &Silent).unwrap();
    assert_eq!(r.solve.tiers_solved, 10);
    assert!(matches!(db.load_tier(&meta), Err(DbError::Coverage { .. })));
    assert!(matches!(
        db.verify_tier(&meta),
        Err(DbError::Coverage { .. })
    ));

    // A database with tiers of both kinds is reported as such.
    let full_db = db::open("memory:", &key(&game)).unwrap();
    solver::solve(&game, full_db.as_ref(), &options, &Silent).unwrap();
    let records = full_db.load_tier(&meta).unwrap();
    db.store_tier(&meta, &records).unwrap();
    assert!(matches!(
        db::coverage(db.as_ref()),
        Err(DbError::MixedCoverage(_))
    ));
}

fn graph_tiers(game: &GameHandle) -> Vec<Tier> {
    TierGraph::discover(game)
        .unwrap()
        .order
        .iter()
        .map(|n| n.tier)
        .collect()
}

#[test]
fn transfer_copies_reachable_only_tiers() {
    let game = GameHandle::from_static::<MttTier>("symmetric").unwrap();
    let src = reachable_only(&game, ParentMode::Auto);
    let dir = tempfile::tempdir().unwrap();
    let dst = db::open(&format!("file:{}", dir.path().display()), &key(&game)).unwrap();
    let graph = TierGraph::discover(&game).unwrap();
    let metas: Vec<_> = graph.order.iter().map(solver::meta_of).collect();
    assert_eq!(
        db::transfer(src.as_ref(), dst.as_ref(), &metas, false).unwrap(),
        10
    );
    for meta in &metas {
        let a = src.load_reachable_tier(meta).unwrap();
        let b = dst.load_reachable_tier(meta).unwrap();
        assert_eq!(*a.marks, *b.marks);
        assert_eq!(*a.records, *b.records);
    }
}
