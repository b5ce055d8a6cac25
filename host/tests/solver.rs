//! The solver against independent answers: tic-tac-toe by brute-force minimax, small
//! hand-made games (loopy draws, go-again moves, a puzzle, WinBy), and many random
//! tiered graph games against a naive whole-graph solver; results must not depend on
//! the thread count, and a damaged tier file must be found and solved again.

mod common;
mod harness;

use common::{naive_solve, naive_winby, register, Graph, GraphGame, Node, Rng};
use gamesman_host::engine::db::{self, Database, GameKey, TierStatus};
use gamesman_host::engine::record::Record;
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::engine::tier::{TierGraph, TierNode};
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

fn solve_in_memory(game: &GameHandle) -> Arc<dyn Database> {
    let db = db::open("memory:", &key(game)).unwrap();
    solver::solve(game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    db
}

fn lookup(game: &GameHandle, db: &dyn Database, p: TierPosition) -> Record {
    db.lookup(game.canonical(p).unwrap())
        .unwrap()
        .expect("tier solved")
}

// ---- tic-tac-toe by brute force -------------------------------------------------

#[test]
fn mtttier_every_position_matches_minimax() {
    let boards = harness::reachable();
    // Every board that can occur in a game: for tic-tac-toe these are exactly the
    // legal boards the solver solves.
    assert_eq!(boards.len(), 5478);
    let mut minimax = harness::Minimax::new();
    for variant in ["regular", "symmetric"] {
        let game = GameHandle::from_static::<MttTier>(variant).unwrap();
        let db = solve_in_memory(&game);
        let module = MttTier::new_for_tests(variant);
        for b in &boards {
            let (v, r) = minimax.solve(b);
            let expected = match v {
                harness::V::Win => Value::WIN,
                harness::V::Lose => Value::LOSE,
                harness::V::Tie => Value::TIE,
            };
            let got = lookup(&game, db.as_ref(), module.position(b));
            assert_eq!(
                (got.value, got.remoteness),
                (expected, r),
                "{variant} board {b:?}"
            );
        }
        let init = lookup(&game, db.as_ref(), game.initial_position().unwrap());
        assert_eq!((init.value, init.remoteness), (Value::TIE, 9));
    }
}

// ---- hand-made games ------------------------------------------------------------

fn node(tier: u64, turn: u8, prim: Value, edges: &[usize]) -> Node {
    Node {
        tier,
        turn,
        prim,
        winby: 0,
        edges: edges.to_vec(),
    }
}

const U: Value = Value::UNDECIDED;

fn solve_graph(name: &str, g: Graph) -> (GameHandle, Arc<dyn Database>, Vec<TierPosition>) {
    register(name, g.clone());
    let game = GameHandle::from_static::<GraphGame>(name).unwrap();
    let db = solve_in_memory(&game);
    // Node positions, in the order GraphGame assigns them.
    let mut next: HashMap<u64, u64> = HashMap::new();
    let pos = g
        .nodes
        .iter()
        .map(|n| {
            let i = next.entry(n.tier).or_default();
            let p = TierPosition::new(Tier(n.tier), *i);
            *i += 1;
            p
        })
        .collect();
    (game, db, pos)
}

fn values(game: &GameHandle, db: &dyn Database, pos: &[TierPosition]) -> Vec<(Value, u32)> {
    pos.iter()
        .map(|&p| {
            let r = lookup(game, db, p);
            (r.value, r.remoteness)
        })
        .collect()
}

#[test]
fn loopy_cycle_without_exit_is_a_draw() {
    // Tier 1 (loopy): 0 <-> 1, 1 may also move to 2 in tier 0, where player one wins,
    // which player two will not do. 3 -> 4 -> 3 also loops, but 4 may move to 5 where
    // player one (to move) loses, so player two at 4 wins and 3 loses.
    let g = Graph {
        nodes: vec![
            node(1, 1, U, &[1]),
            node(1, 2, U, &[0, 2]),
            node(0, 1, Value::WIN, &[]),
            node(1, 1, U, &[4]),
            node(1, 2, U, &[3, 5]),
            node(0, 1, Value::LOSE, &[]),
        ],
        players: 2,
        winby: false,
        go_again: false,
    };
    let (game, db, pos) = solve_graph("draw", g);
    let v = values(&game, db.as_ref(), &pos);
    assert_eq!(
        v,
        vec![
            (Value::DRAW, 0),
            (Value::DRAW, 0),
            (Value::WIN, 0),
            (Value::LOSE, 2),
            (Value::WIN, 1),
            (Value::LOSE, 0)
        ]
    );
}

#[test]
fn go_again_moves_keep_the_value() {
    // 0 (P1) -> 1 (P1 again) -> 2 (P2 to move, lost): the go-again move is not inverted.
    // 0 may also move to 3 (P2 to move, P2 wins). 4 (P2) -> 5 (P2 again) -> 6 (P2, tie).
    let g = Graph {
        nodes: vec![
            node(2, 1, U, &[1, 3]),
            node(1, 1, U, &[2]),
            node(0, 2, Value::LOSE, &[]),
            node(0, 2, Value::WIN, &[]),
            node(2, 2, U, &[5]),
            node(1, 2, U, &[6]),
            node(0, 2, Value::TIE, &[]),
        ],
        players: 2,
        winby: false,
        go_again: true,
    };
    let (game, db, pos) = solve_graph("goagain", g);
    let v = values(&game, db.as_ref(), &pos);
    assert_eq!(v[1], (Value::WIN, 1));
    assert_eq!(v[0], (Value::WIN, 2));
    assert_eq!(v[5], (Value::TIE, 1));
    assert_eq!(v[4], (Value::TIE, 2));
}

#[test]
fn puzzle_values_are_never_inverted() {
    // One player. 2 is solved; 0 -> 1 -> 2 with 1 -> 0 looping back; 0 -> 3 dead end;
    // 4 <-> 5 never reach a solution.
    let g = Graph {
        nodes: vec![
            node(0, 1, U, &[1, 3]),
            node(0, 1, U, &[0, 2]),
            node(0, 1, Value::WIN, &[]),
            node(0, 1, U, &[]),
            node(0, 1, U, &[5]),
            node(0, 1, U, &[4]),
        ],
        players: 1,
        winby: false,
        go_again: false,
    };
    let (game, db, pos) = solve_graph("puzzle", g);
    let v = values(&game, db.as_ref(), &pos);
    assert_eq!(
        v,
        vec![
            (Value::WIN, 2),
            (Value::WIN, 1),
            (Value::WIN, 0),
            (Value::LOSE, 0),
            (Value::DRAW, 0),
            (Value::DRAW, 0)
        ]
    );
}

#[test]
fn winby_is_max_for_player_one_and_min_for_player_two() {
    // 0 (P1) -> 1, 2 (P2). 1 -> leaves +3 (P1 wins), -2 (P2 wins). 2 -> leaves +5, +1.
    // P2 picks -2 at 1 and +1 at 2; P1 picks 2: WinBy +1, a win for P1.
    let leaf = |w: i64| Node {
        tier: 0,
        turn: 1,
        prim: if w > 0 { Value::WIN } else { Value::LOSE },
        winby: w,
        edges: vec![],
    };
    let g = Graph {
        nodes: vec![
            node(2, 1, U, &[1, 2]),
            node(1, 2, U, &[3, 4]),
            node(1, 2, U, &[5, 6]),
            leaf(3),
            leaf(-2),
            leaf(5),
            leaf(1),
        ],
        players: 2,
        winby: true,
        go_again: false,
    };
    let (game, db, pos) = solve_graph("winby", g);
    let w: Vec<Option<i64>> = pos
        .iter()
        .map(|&p| lookup(&game, db.as_ref(), p).winby)
        .collect();
    assert_eq!(
        w,
        vec![
            Some(1),
            Some(-2),
            Some(1),
            Some(3),
            Some(-2),
            Some(5),
            Some(1)
        ]
    );
    let r = lookup(&game, db.as_ref(), pos[0]);
    assert_eq!((r.value, r.remoteness), (Value::WIN, 2));
}

// ---- random games against the naive solver --------------------------------------

fn random_graph(rng: &mut Rng, players: u8, go_again: bool, loops: bool, winby: bool) -> Graph {
    let tiers = 1 + rng.below(4);
    let mut nodes = Vec::new();
    let mut first_of = Vec::new();
    let mut tier_of_nodes: Vec<Vec<usize>> = Vec::new();
    for t in 0..tiers {
        first_of.push(nodes.len());
        let count = 1 + rng.below(12) as usize;
        let mut ids = Vec::new();
        for _ in 0..count {
            ids.push(nodes.len());
            let turn = if players == 1 {
                1
            } else {
                1 + rng.below(2) as u8
            };
            let prim = match rng.below(8) {
                0 => Value::WIN,
                1 => Value::LOSE,
                2 => Value::TIE,
                _ => U,
            };
            nodes.push(Node {
                tier: t,
                turn,
                prim,
                winby: rng.below(21) as i64 - 10,
                edges: vec![],
            });
        }
        tier_of_nodes.push(ids);
    }
    for (i, node) in nodes.iter_mut().enumerate() {
        let t = node.tier as usize;
        let k = rng.below(4);
        for _ in 0..k {
            let target_tier = if loops && rng.below(3) == 0 {
                t
            } else if t > 0 {
                rng.below(t as u64) as usize
            } else {
                continue;
            };
            let ids = &tier_of_nodes[target_tier];
            let c = ids[rng.below(ids.len() as u64) as usize];
            if c != i || loops {
                node.edges.push(c);
            }
        }
    }
    // Keep every tier reachable from the top one.
    for t in 1..tiers as usize {
        let (a, b) = (first_of[t], first_of[t - 1]);
        nodes[a].edges.push(b);
        nodes[a].prim = U;
    }
    // Node 0 must be the initial position, in the top tier.
    let top = first_of[tiers as usize - 1];
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
    if winby {
        // Primitive margins agree with the value for player one.
        for n in nodes.iter_mut() {
            let sign = match (n.prim, n.turn) {
                (Value::WIN, 1) | (Value::LOSE, 2) => 1,
                (Value::LOSE, 1) | (Value::WIN, 2) => -1,
                _ => 0,
            };
            n.winby = sign * (1 + n.winby.abs());
        }
    }
    Graph {
        nodes,
        players,
        winby,
        go_again,
    }
}

#[test]
fn random_tiered_games_match_the_naive_solver() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..300 {
        let (players, go_again) = match case % 3 {
            0 => (2, false),
            1 => (2, true),
            _ => (1, false),
        };
        let g = random_graph(&mut rng, players, go_again, true, false);
        let name = format!("random{case}");
        let expected = naive_solve(&g);
        let (game, db, pos) = solve_graph(&name, g.clone());
        let graph = TierGraph::discover(&game).unwrap();
        for (i, p) in pos.iter().enumerate() {
            if !graph.contains(p.tier) {
                continue;
            }
            let r = lookup(&game, db.as_ref(), *p);
            assert_eq!(
                (r.value, r.remoteness),
                (expected[i].value, expected[i].remoteness),
                "case {case} node {i}: {g:?}"
            );
        }
    }
}

#[test]
fn random_loop_free_winby_matches_naive_minimax() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for case in 0..200 {
        let g = random_graph(&mut rng, 2, false, false, true);
        let solved = naive_solve(&g);
        let expected = naive_winby(&g, &solved);
        let (game, db, pos) = solve_graph(&format!("wb{case}"), g.clone());
        let graph = TierGraph::discover(&game).unwrap();
        for (i, p) in pos.iter().enumerate() {
            if !graph.contains(p.tier) {
                continue;
            }
            let r = lookup(&game, db.as_ref(), *p);
            assert_eq!(r.winby, expected[i], "case {case} node {i}: {g:?}");
        }
    }
}

// ---- parents from a reverse graph -------------------------------------------------

/// Every stored tier of a solve: values and WinBy margins.
fn stored(game: &GameHandle, db: &dyn Database) -> Vec<(Vec<u16>, Option<Vec<i32>>)> {
    let graph = TierGraph::discover(game).unwrap();
    graph
        .order
        .iter()
        .map(|n| {
            let t = db.load_tier(&solver::meta_of(n)).unwrap();
            (t.values.clone(), t.winby.clone())
        })
        .collect()
}

#[test]
fn the_reverse_graph_gives_what_undo_moves_give_on_random_games() {
    use gamesman_host::engine::solver::parents::ParentMode;
    let mut rng = Rng(0xf00d_5eed_1234_4321);
    for case in 0..240 {
        // Alternating, go-again, puzzle and loopy WinBy games.
        let (players, go_again, winby) = match case % 4 {
            0 => (2, false, false),
            1 => (2, true, false),
            2 => (1, false, false),
            _ => (2, false, true),
        };
        let g = random_graph(&mut rng, players, go_again, true, winby);
        let name = format!("reverse{case}");
        register(&name, g.clone());
        let game = GameHandle::from_static::<GraphGame>(&name).unwrap();
        let solve_with = |parents| {
            let db = db::open("memory:", &key(&game)).unwrap();
            let options = SolveOptions {
                parents,
                ..SolveOptions::default()
            };
            solver::solve(&game, db.as_ref(), &options, &Silent).unwrap();
            stored(&game, db.as_ref())
        };
        let undo = solve_with(ParentMode::UndoMoves);
        let forward = solve_with(ParentMode::Forward);
        assert!(!undo.is_empty());
        assert_eq!(undo, forward, "case {case}: {g:?}");
    }
}

/// The positions of `node` the solver expands: legal, canonical, not primitive.
fn expanded_of<'a>(game: &'a GameHandle, node: &'a TierNode) -> impl Fn(u64) -> bool + Sync + 'a {
    move |i: u64| {
        let p = TierPosition::new(node.tier, i);
        game.is_legal(p).unwrap()
            && game.is_canonical(p).unwrap()
            && game.primitive(p).unwrap() == Value::UNDECIDED
    }
}

/// The tiers a reverse graph of `node` holds parents for (its child tiers, and itself
/// when loopy), at their full sizes.
fn graph_parts(game: &GameHandle, node: &TierNode) -> Vec<(Tier, u64)> {
    let mut parts: Vec<(Tier, u64)> = node
        .children
        .iter()
        .map(|&c| (c, game.tier_size(c).unwrap()))
        .collect();
    if node.loopy {
        parts.push((node.tier, node.size));
    }
    parts
}

/// The parents `graph` holds for position `c` of `tier`, sorted.
fn sorted_parents(
    graph: &gamesman_host::engine::solver::parents::ReverseGraph,
    tier: Tier,
    c: u64,
) -> Vec<u64> {
    let mut found: Vec<u64> = graph.parents(tier, c).collect();
    found.sort_unstable();
    found
}

#[test]
fn a_reverse_graph_built_from_kept_moves_equals_one_built_by_expanding_twice() {
    use gamesman_host::engine::solver::parents::{Moves, ReverseGraph};
    let mut rng = Rng(0x5eed_0f4e_79a9);
    let mut games = vec![
        GameHandle::from_static::<MttTier>("regular").unwrap(),
        GameHandle::from_static::<MttTier>("symmetric").unwrap(),
    ];
    for case in 0..40 {
        let name = format!("kept{case}");
        register(&name, random_graph(&mut rng, 2, case % 2 == 0, true, false));
        games.push(GameHandle::from_static::<GraphGame>(&name).unwrap());
    }
    let mut edges = 0u64;
    for game in &games {
        let graph = TierGraph::discover(game).unwrap();
        for node in &graph.order {
            let open = expanded_of(game, node);
            let child_tiers = graph_parts(game, node);
            let kept = ReverseGraph::build(game, node, &open, &child_tiers, Moves::Keep).unwrap();
            let twice = ReverseGraph::build(game, node, &open, &child_tiers, Moves::Twice).unwrap();
            assert_eq!(kept.edges(), twice.edges(), "{game:?} tier {}", node.tier);
            for &(child, size) in &child_tiers {
                for c in 0..size {
                    let (a, b) = (
                        sorted_parents(&kept, child, c),
                        sorted_parents(&twice, child, c),
                    );
                    assert_eq!(a, b, "{game:?} tier {} child {child}:{c}", node.tier);
                }
            }
            edges += kept.edges();
        }
    }
    assert!(edges > 1000, "the graphs compared hold {edges} moves");
}

#[test]
fn a_reverse_graph_over_stored_positions_holds_their_parents_and_no_more_offsets() {
    use gamesman_host::engine::solver::parents::{Moves, ReverseGraph};
    // Quixo numbers its canonical positions first, so its tiers store fewer positions
    // than they index: only those get offsets, the parents of each the same as in a
    // graph over every index, kept (as 4-byte positions, one part) or expanded twice.
    let host = std::path::PathBuf::from(env!("CARGO_BIN_EXE_host"));
    let path = host.parent().unwrap().join("libquixo.so");
    assert!(
        path.exists(),
        "{} is missing: build the workspace first",
        path.display()
    );
    let module = gamesman_host::engine::load::loader::load(path.to_str().unwrap()).unwrap();
    let game = module.open(Some("3x3")).unwrap();
    let graph = TierGraph::discover(&game).unwrap();
    let (mut narrowed, mut single, mut edges) = (0, 0, 0u64);
    for node in graph
        .order
        .iter()
        .filter(|n| n.loopy || !n.children.is_empty())
    {
        let open = expanded_of(&game, node);
        // Every tier its moves lead to (its own when loopy), at its full size and at
        // its stored size. A tier with only its own moves (Quixo's full boards) has
        // one part: its kept moves are 4-byte positions.
        let full = graph_parts(&game, node);
        let stored: Vec<(Tier, u64)> = full
            .iter()
            .map(|&(t, _)| (t, game.stored_size(t).unwrap()))
            .collect();
        narrowed += full.iter().zip(&stored).filter(|(f, s)| s.1 < f.1).count();
        let every = ReverseGraph::build(&game, node, &open, &full, Moves::Keep).unwrap();
        for moves in [Moves::Keep, Moves::Twice] {
            let g = ReverseGraph::build(&game, node, &open, &stored, moves).unwrap();
            let held: u64 = stored.iter().map(|&(_, s)| s + 1).sum();
            assert_eq!(g.bytes(), 4 * (g.edges() + held), "tier {}", node.tier);
            for (&(tier, size), &(_, kept)) in full.iter().zip(&stored) {
                for c in 0..size {
                    let (a, b) = (sorted_parents(&g, tier, c), sorted_parents(&every, tier, c));
                    if c >= kept {
                        assert!(
                            a.is_empty(),
                            "tier {} child {tier}:{c} not stored",
                            node.tier
                        );
                    } else {
                        assert_eq!(a, b, "tier {} child {tier}:{c}", node.tier);
                    }
                }
            }
            edges += g.edges();
            single += (stored.len() == 1) as usize;
        }
    }
    assert!(single > 0, "no tier of Quixo 3x3 has only its own moves");
    assert!(
        narrowed > 0,
        "no tier of Quixo 3x3 stores fewer than it indexes"
    );
    assert!(edges > 100, "the graphs compared hold {edges} moves");
}

// ---- threads and damaged files ----------------------------------------------------

fn all_records(game: &GameHandle, db: &dyn Database) -> Vec<Vec<u16>> {
    let graph = TierGraph::discover(game).unwrap();
    graph
        .order
        .iter()
        .map(|n| db.load_tier(&solver::meta_of(n)).unwrap().values.clone())
        .collect()
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let mut rng = Rng(77);
    let mut games = vec![
        GameHandle::from_static::<MttTier>("regular").unwrap(),
        GameHandle::from_static::<MttTier>("symmetric").unwrap(),
    ];
    for case in 0..20 {
        let name = format!("threads{case}");
        register(&name, random_graph(&mut rng, 2, case % 2 == 0, true, false));
        games.push(GameHandle::from_static::<GraphGame>(&name).unwrap());
    }
    for game in games {
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let db = solve_in_memory(&game);
                all_records(&game, db.as_ref())
            })
        };
        assert_eq!(run(1), run(2), "{game:?}");
    }
}

#[test]
fn damaged_tier_files_are_detected_and_solved_again() {
    let dir = tempfile::tempdir().unwrap();
    let game = GameHandle::from_static::<MttTier>("regular").unwrap();
    let resource = format!("file:{}", dir.path().display());
    let db = db::open(&resource, &key(&game)).unwrap();
    let first = solver::solve(&game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    assert_eq!(first.tiers_solved, 10);
    let tdir = dir.path().join("mtttier_regular_tierdb");
    let read_all = || -> Vec<Vec<u8>> {
        (0..10)
            .map(|t| std::fs::read(tdir.join(format!("tier_{t}.gz"))).unwrap())
            .collect()
    };
    let original = read_all();

    // Nothing to do on a second run.
    let again = solver::solve(&game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    assert_eq!((again.tiers_solved, again.tiers_reused), (0, 10));

    // A flipped byte in tier 4 and a truncated tier 2.
    let mut bad = original[4].clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0xff;
    std::fs::write(tdir.join("tier_4.gz"), bad).unwrap();
    std::fs::write(
        tdir.join("tier_2.gz"),
        &original[2][..original[2].len() / 3],
    )
    .unwrap();
    let db = db::open(&resource, &key(&game)).unwrap();
    let graph = TierGraph::discover(&game).unwrap();
    let meta4 = solver::meta_of(graph.get(Tier(4)).unwrap());
    assert!(matches!(
        db.verify_tier(&meta4).unwrap(),
        TierStatus::Corrupt(_)
    ));
    let repaired = solver::solve(&game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    assert_eq!(repaired.tiers_solved, 2);
    assert_eq!(read_all(), original);
    assert_eq!(repaired.initial_record.value, Value::TIE);
}

/// Every tier file of a `file:` database directory, by name.
fn files_of(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir).unwrap().flatten() {
        for f in std::fs::read_dir(sub.path()).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            out.push((name, std::fs::read(f.path()).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn every_way_of_solving_stores_the_same_files_on_any_thread_count() {
    use solver::plan::SolveMode;
    let mut rng = Rng(0x005e_ed39);
    let mut games = vec![
        GameHandle::from_static::<MttTier>("regular").unwrap(),
        GameHandle::from_static::<MttTier>("symmetric").unwrap(),
    ];
    // Two-player, go-again and puzzle games with loops, and WinBy games (loop-free and
    // loopy): every kind of flow and pass through the streamed children.
    for case in 0..24 {
        let name = format!("modes{case}");
        let (players, go_again, winby) = match case % 4 {
            0 => (2, false, false),
            1 => (2, true, false),
            2 => (1, false, false),
            _ => (2, case % 8 == 3, true),
        };
        register(
            &name,
            random_graph(
                &mut rng,
                players,
                go_again,
                case % 4 != 3 || case % 8 == 7,
                winby,
            ),
        );
        games.push(GameHandle::from_static::<GraphGame>(&name).unwrap());
    }
    for game in games {
        let run = |threads, mode| {
            let dir = tempfile::tempdir().unwrap();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut options = SolveOptions::default();
            options.memory.forced = Some(mode);
            options.verify = solver::verify::VerifyMode::Full;
            let report = pool.install(|| {
                let db = db::open(&format!("file:{}", dir.path().display()), &key(&game)).unwrap();
                solver::solve(&game, db.as_ref(), &options, &Silent).unwrap()
            });
            assert!(
                report
                    .memory
                    .iter()
                    .all(|t| t.mode == mode.nearest_for(&game).name()),
                "{game:?}"
            );
            assert_eq!(report.memory.len(), report.tiers_solved, "{game:?}");
            // The level runs' scratch files are gone with the solve.
            let left: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
                .map(|f| f.file_name().to_string_lossy().to_string())
                .filter(|n| !n.ends_with(".gz"))
                .collect();
            assert!(left.is_empty(), "{game:?}: {left:?}");
            files_of(dir.path())
        };
        let want = run(1, SolveMode::Whole);
        assert!(!want.is_empty());
        for mode in [SolveMode::Streamed, SolveMode::Compact, SolveMode::Byte] {
            for threads in [1, 2] {
                assert!(
                    run(threads, mode) == want,
                    "{game:?} {mode}, {threads} threads"
                );
            }
        }
        assert!(
            run(2, SolveMode::Whole) == want,
            "{game:?} whole, 2 threads"
        );
    }
}
