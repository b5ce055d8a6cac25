//! The solver's WinBy on real cycles and with go-again moves, against a naive solver
//! of the same rules on random tiered graphs dense with moves inside loopy tiers; and
//! verification (`solver::verify`) on the same graphs: it accepts every solved tier
//! (the solve runs it) and finds any single record changed by hand.

mod common;

use common::{naive_solve, naive_winby_loopy, register, Graph, GraphGame, Node, Rng};
use gamesman_host::engine::db::{self, Database, GameKey};
use gamesman_host::engine::record::{pack, TierRecords};
use gamesman_host::engine::solver::verify::{self, Selection, Stage, VerifyMode};
use gamesman_host::engine::solver::{self, meta_of, Silent, SolveOptions};
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use std::collections::HashMap;
use std::sync::Arc;

const U: Value = Value::UNDECIDED;

/// A random game of up to four tiers, each loopy, with up to 40 nodes and about half of
/// the moves inside the node's own tier, so decided positions often form cycles.
/// Primitive margins agree with their values for player one.
fn cyclic_graph(rng: &mut Rng, go_again: bool) -> Graph {
    let tiers = 1 + rng.below(4) as usize;
    let mut nodes = Vec::new();
    let mut ids: Vec<Vec<usize>> = Vec::new();
    for t in 0..tiers {
        let count = 2 + rng.below(39) as usize;
        let mut list = Vec::new();
        for _ in 0..count {
            list.push(nodes.len());
            let turn = 1 + rng.below(2) as u8;
            let prim = match rng.below(6) {
                0 => Value::WIN,
                1 => Value::LOSE,
                2 => Value::TIE,
                _ => U,
            };
            let margin = 1 + rng.below(9) as i64;
            let winby = match (prim, turn) {
                (Value::WIN, 1) | (Value::LOSE, 2) => margin,
                (Value::LOSE, 1) | (Value::WIN, 2) => -margin,
                _ => 0,
            };
            nodes.push(Node {
                tier: t as u64,
                turn,
                prim,
                winby,
                edges: vec![],
            });
        }
        ids.push(list);
    }
    for node in nodes.iter_mut() {
        let t = node.tier as usize;
        for _ in 0..1 + rng.below(4) {
            let target = if t == 0 || rng.below(2) == 0 {
                t
            } else {
                rng.below(t as u64) as usize
            };
            let c = ids[target][rng.below(ids[target].len() as u64) as usize];
            if !node.edges.contains(&c) {
                node.edges.push(c);
            }
        }
    }
    // Every tier reachable from the top one, whose first node is the initial position.
    for t in 1..tiers {
        let (a, b) = (ids[t][0], ids[t - 1][0]);
        nodes[a].prim = U;
        if !nodes[a].edges.contains(&b) {
            nodes[a].edges.push(b);
        }
    }
    let top = ids[tiers - 1][0];
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
        players: 2,
        winby: true,
        go_again,
    }
}

fn key(game: &GameHandle) -> GameKey {
    GameKey {
        game: game.module_name().into(),
        variant: game.variant().into(),
        winby: game.supports_winby(),
        numbering: 0,
    }
}

/// Registers and solves a graph (verifying every tier, as a solve does by default for
/// small tiers, and here in full); returns the game, its database and node positions.
fn solve(name: &str, g: &Graph) -> (GameHandle, Arc<dyn Database>, Vec<TierPosition>) {
    register(name, g.clone());
    let game = GameHandle::from_static::<GraphGame>(name).unwrap();
    let db = db::open("memory:", &key(&game)).unwrap();
    let options = SolveOptions {
        verify: VerifyMode::Full,
        ..SolveOptions::default()
    };
    solver::solve(&game, db.as_ref(), &options, &Silent)
        .unwrap_or_else(|e| panic!("{name}: {e}\n{g:?}"));
    let mut next: HashMap<u64, u64> = HashMap::new();
    let pos = g
        .nodes
        .iter()
        .map(|n| {
            let i = next.entry(n.tier).or_default();
            *i += 1;
            TierPosition::new(Tier(n.tier), *i - 1)
        })
        .collect();
    (game, db, pos)
}

#[test]
fn winby_on_cycles_and_go_again_matches_the_naive_solver() {
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    let (mut with_cycles, mut cyclic_nodes, mut go_again_cases) = (0, 0, 0);
    for case in 0..240 {
        let go_again = case % 2 == 1;
        let g = cyclic_graph(&mut rng, go_again);
        let solved = naive_solve(&g);
        let (winby, cyclic) = naive_winby_loopy(&g, &solved);
        let (game, db, pos) = solve(&format!("cyc{case}"), &g);
        let graph = TierGraph::discover(&game).unwrap();
        let mut cycles_here = 0;
        for (i, p) in pos.iter().enumerate() {
            if !graph.contains(p.tier) {
                continue;
            }
            let r = db.lookup(*p).unwrap().expect("solved");
            assert_eq!(
                (r.value, r.remoteness),
                (solved[i].value, solved[i].remoteness),
                "case {case} node {i}: {g:?}"
            );
            assert_eq!(r.winby, winby[i], "case {case} node {i}: {g:?}");
            cycles_here += cyclic[i] as usize;
        }
        if cycles_here > 0 {
            with_cycles += 1;
            cyclic_nodes += cycles_here;
            go_again_cases += go_again as usize;
        }
    }
    // The rule for cycles is what this test is for: make sure it was exercised, with
    // and without go-again moves.
    assert!(
        with_cycles >= 40 && go_again_cases >= 15,
        "only {with_cycles} cases ({go_again_cases} with go-again) had cycles of decided positions ({cyclic_nodes} nodes)"
    );
}

/// The stored records of tier `t`, and those of its child tiers.
fn tier_records(
    db: &dyn Database,
    graph: &TierGraph,
    t: Tier,
) -> (TierRecords, Vec<(Tier, Arc<TierRecords>)>) {
    let node = graph.get(t).unwrap();
    let own = db.load_tier(&meta_of(node)).unwrap().as_ref().clone();
    let kids = node
        .children
        .iter()
        .map(|&c| (c, db.load_tier(&meta_of(graph.get(c).unwrap())).unwrap()))
        .collect();
    (own, kids)
}

fn check(
    game: &GameHandle,
    graph: &TierGraph,
    t: Tier,
    own: &TierRecords,
    kids: &[(Tier, Arc<TierRecords>)],
) -> Result<u64, verify::VerifyError> {
    let refs: Vec<(Tier, &dyn gamesman_host::engine::db::RecordSource)> = kids
        .iter()
        .map(|(t, r)| {
            (
                *t,
                r.as_ref() as &dyn gamesman_host::engine::db::RecordSource,
            )
        })
        .collect();
    verify::check_tier(
        game,
        graph.get(t).unwrap(),
        own,
        &refs,
        Selection::All,
        Stage::Stored,
        &|_| {},
    )
}

#[test]
fn verification_finds_any_changed_record() {
    let mut rng = Rng(0x0dd_ba11_0002);
    let mut caught = [0usize; 3];
    for case in 0..120 {
        let g = cyclic_graph(&mut rng, case % 3 == 0);
        let (game, db, pos) = solve(&format!("mut{case}"), &g);
        let graph = TierGraph::discover(&game).unwrap();
        let text = |p: TierPosition| game.position_to_text(p).unwrap();
        for (i, &p) in pos.iter().enumerate() {
            if !graph.contains(p.tier) || rng.below(4) != 0 {
                continue;
            }
            let (own, kids) = tier_records(db.as_ref(), &graph, p.tier);
            let at = p.position as usize;
            // Untouched, the tier passes.
            let n = check(&game, &graph, p.tier, &own, &kids).unwrap();
            assert_eq!(n, own.len() as u64);
            let rec = own.get(p.position);
            // One change each: the value, the remoteness, the margin (to a number no
            // child has, so even a position on a cycle cannot take it).
            for (kind, count) in caught.iter_mut().enumerate() {
                let mut bad = own.clone();
                match kind {
                    0 => {
                        let v = match rec.value {
                            Value::WIN => Value::LOSE,
                            Value::DRAW => Value::TIE,
                            _ => Value::WIN,
                        };
                        bad.values[at] = pack(v, rec.remoteness.max(1));
                    }
                    1 => bad.values[at] = pack(rec.value, rec.remoteness + 1),
                    _ => bad.winby.as_mut().unwrap()[at] += 1000,
                }
                let Err(e) = check(&game, &graph, p.tier, &bad, &kids) else {
                    panic!("case {case} node {i} ({rec:?}): change {kind} not found: {g:?}");
                };
                let m = e.mismatch().unwrap_or_else(|| panic!("{e}"));
                // The first mismatch in index order: the changed position, or a
                // parent in its tier that read the changed record.
                let blamed: Vec<String> = (0..g.nodes.len())
                    .filter(|&j| j == i || (pos[j].tier == p.tier && g.nodes[j].edges.contains(&i)))
                    .map(|j| text(pos[j]))
                    .collect();
                assert!(blamed.contains(&m.position), "case {case} node {i}: {e}");
                assert_eq!(m.tier, p.tier);
                *count += 1;
            }
        }
    }
    assert!(caught.iter().all(|&c| c > 100), "{caught:?}");
}
