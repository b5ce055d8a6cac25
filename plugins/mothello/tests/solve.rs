//! 4x4 Othello solved by the real solver (through the same adapter a plugin uses) and
//! checked against an independent brute force written here from the rules alone: its
//! own board arrays and flipping, and a memoized minimax over (board, side to move)
//! with no tiers, no ranking and no undo moves.
//!
//! Published result: 4x4 Othello is a win for white (the second player) with perfect
//! play (as reported for the 4x4 and 6x6 boards, e.g. in Wikipedia's Othello article:
//! "On 4x4 and 6x6 boards under perfect play, the second player wins"); the margin
//! found here by both the solver and the brute force is 8 discs (black - white = -8,
//! e.g. 3 to 11), black losing in 12 plies.
//!
//! The 4x4 game is solved once per test binary (about 15 s on two threads) and shared:
//! every position the brute force visits is compared with it, and two large tiers are
//! solved again on 1 and 7 threads, which must give byte-identical tier files.

use gamesman_host::engine::db::{self, file::encode_tier, Database, GameKey};
use gamesman_host::engine::record::Record;
use gamesman_host::engine::solver::children::ChildTier;
use gamesman_host::engine::solver::frontier::ChildFrontier;
use gamesman_host::engine::solver::{self, meta_of, Silent, SolveOptions, SolveReport};
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Game, List, Move, TierPosition, Value};
use mothello::Mothello;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

const N: usize = 4;

/// A board: 0 empty, 1 black, 2 white, row by row from the top.
type Board = [u8; N * N];

/// The discs `who` flips by playing on the empty `(r, c)` (empty: not a legal move).
fn flips(b: &Board, who: u8, r: usize, c: usize) -> Vec<usize> {
    let mut all = Vec::new();
    if b[r * N + c] != 0 {
        return all;
    }
    for dr in -1isize..=1 {
        for dc in -1isize..=1 {
            if dr == 0 && dc == 0 {
                continue;
            }
            let mut line = Vec::new();
            let (mut y, mut x) = (r as isize + dr, c as isize + dc);
            while (0..N as isize).contains(&y) && (0..N as isize).contains(&x) {
                let cell = y as usize * N + x as usize;
                if b[cell] == 3 - who {
                    line.push(cell);
                } else {
                    if b[cell] == who {
                        all.extend(line.iter().copied());
                    }
                    break;
                }
                y += dr;
                x += dc;
            }
        }
    }
    all
}

/// Every board `who` can reach in one placement.
fn placements(b: &Board, who: u8) -> Vec<Board> {
    let mut out = Vec::new();
    for r in 0..N {
        for c in 0..N {
            let f = flips(b, who, r, c);
            if !f.is_empty() {
                let mut next = *b;
                next[r * N + c] = who;
                for x in f {
                    next[x] = who;
                }
                out.push(next);
            }
        }
    }
    out
}

fn margin(b: &Board) -> i64 {
    b.iter()
        .map(|&x| match x {
            1 => 1,
            2 => -1,
            _ => 0,
        })
        .sum()
}

/// The perfect-play margin (black - white) of `b` with `who` to move: black maximizes,
/// white minimizes; a player without a placement passes; no placement for either ends
/// the game.
fn best_margin(b: &Board, who: u8, memo: &mut HashMap<(Board, u8), i64>) -> i64 {
    if let Some(&m) = memo.get(&(*b, who)) {
        return m;
    }
    let kids = placements(b, who);
    let m = if kids.is_empty() {
        if placements(b, 3 - who).is_empty() {
            margin(b)
        } else {
            best_margin(b, 3 - who, memo)
        }
    } else {
        let values = kids.iter().map(|k| best_margin(k, 3 - who, memo));
        if who == 1 {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    };
    memo.insert((*b, who), m);
    m
}

fn start() -> Board {
    let mut b = [0u8; N * N];
    b[5] = 2;
    b[6] = 1;
    b[9] = 1;
    b[10] = 2;
    b
}

fn text(b: &Board, who: u8) -> String {
    let rows: Vec<String> = b
        .chunks(N)
        .map(|r| r.iter().map(|&x| ['-', 'B', 'W'][x as usize]).collect())
        .collect();
    format!("{}:{}", rows.join("/"), if who == 1 { 'B' } else { 'W' })
}

#[test]
fn the_brute_force_follows_the_rules() {
    // Black's four opening moves each flip one disc.
    let kids = placements(&start(), 1);
    assert_eq!(kids.len(), 4);
    assert!(kids.iter().all(|k| margin(k) == 3));
    // A lone black disc flanked by white on a row: white takes it from either end.
    let mut b = [0u8; N * N];
    b[0] = 2;
    b[1] = 1;
    assert_eq!(flips(&b, 2, 0, 2), vec![1]);
    assert!(flips(&b, 1, 0, 2).is_empty());
}

/// The perfect-play value for `who` (to move) and remoteness of `b`, by the rules
/// alone: a pass is a move; a position where neither side can place is over and won
/// by whoever has more discs; otherwise win by the quickest lost child, tie by the
/// quickest tied one, else lose by the slowest won one.
fn best_record(b: &Board, who: u8, memo: &mut HashMap<(Board, u8), (Value, u32)>) -> (Value, u32) {
    if let Some(&r) = memo.get(&(*b, who)) {
        return r;
    }
    let mut kids: Vec<(Board, u8)> = placements(b, who)
        .into_iter()
        .map(|k| (k, 3 - who))
        .collect();
    if kids.is_empty() && !placements(b, 3 - who).is_empty() {
        kids.push((*b, 3 - who));
    }
    let r = if kids.is_empty() {
        let mine = if who == 1 { margin(b) } else { -margin(b) };
        let v = match mine.signum() {
            1 => Value::WIN,
            -1 => Value::LOSE,
            _ => Value::TIE,
        };
        (v, 0)
    } else {
        let rs: Vec<(Value, u32)> = kids.iter().map(|(k, w)| best_record(k, *w, memo)).collect();
        let quickest = |v: Value| rs.iter().filter(|r| r.0 == v).map(|r| r.1).min();
        if let Some(r) = quickest(Value::LOSE) {
            (Value::WIN, r + 1)
        } else if let Some(r) = quickest(Value::TIE) {
            (Value::TIE, r + 1)
        } else {
            (Value::LOSE, rs.iter().map(|r| r.1).max().unwrap() + 1)
        }
    };
    memo.insert((*b, who), r);
    r
}

/// The 4x4 game solved once (two threads) for every test of this binary.
struct Solved {
    game: GameHandle,
    db: Arc<dyn Database>,
    report: SolveReport,
}

fn solved() -> &'static Solved {
    static SOLVED: OnceLock<Solved> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let game = GameHandle::from_static::<Mothello>("4x4").unwrap();
        let key = GameKey {
            game: game.module_name().into(),
            variant: game.variant().into(),
            winby: true,
            numbering: 0,
        };
        let db = db::open("memory:", &key).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let report = pool
            .install(|| solver::solve(&game, db.as_ref(), &SolveOptions::default(), &Silent))
            .unwrap();
        Solved { game, db, report }
    })
}

#[test]
fn solver_matches_brute_force_at_the_start_and_after_every_first_move() {
    let Solved { db, report, .. } = solved();
    let database = db;
    assert_eq!(report.tiers, 13);
    assert_eq!(report.positions_total, 17_006_112);

    // The initial position: black (to move) loses by 8, in 12 plies.
    let init = report.initial_record;
    assert_eq!(init.value, Value::LOSE);
    assert_eq!(init.remoteness, 12);
    assert_eq!(init.winby, Some(-8));

    let mut memo = HashMap::new();
    assert_eq!(best_margin(&start(), 1, &mut memo), -8);

    // Every child of the initial position: the solver's WinBy is the brute force's.
    let module = Mothello::new_for_tests("4x4");
    let p0 = module.initial_position();
    let mut buf = vec![Move::default(); 16];
    let mut moves = List::new(&mut buf);
    module.generate_moves(p0, &mut moves);
    assert_eq!(moves.len(), 4);
    let mut seen = Vec::new();
    for &m in moves.as_slice() {
        let child: TierPosition = module.do_move(p0, m);
        let rec = database.lookup(child).unwrap().expect("solved");
        // The brute force's own board for the child, found by its own rules.
        let kid = placements(&start(), 1)
            .into_iter()
            .find(|k| module.text_to_position(&text(k, 2)).unwrap() == child)
            .expect("the module's child is one of the brute force's");
        let expected = best_margin(&kid, 2, &mut memo);
        assert_eq!(
            rec.winby,
            Some(expected),
            "after {}",
            module.move_to_text(p0, m)
        );
        seen.push(expected);
    }
    // By symmetry every opening move leads to the same margin.
    assert_eq!(seen, [-8, -8, -8, -8]);
}

#[test]
fn solver_matches_brute_force_at_every_position_it_visits() {
    let Solved { game, db, .. } = solved();
    let mut margins = HashMap::new();
    assert_eq!(best_margin(&start(), 1, &mut margins), -8);
    let mut records = HashMap::new();
    assert_eq!(best_record(&start(), 1, &mut records), (Value::LOSE, 12));
    // Every (board, side to move) the brute force searched, passes and ends included.
    assert_eq!(margins.len(), 62_789);
    let mut by_value = HashMap::new();
    for (&(b, who), &m) in &margins {
        let t = text(&b, who);
        let p = game
            .text_to_position(&t)
            .unwrap()
            .unwrap_or_else(|e| panic!("{t}: {e}"));
        let got = db
            .lookup(game.canonical(p).unwrap())
            .unwrap()
            .expect("solved");
        let (value, remoteness) = records[&(b, who)];
        let want = Record {
            value,
            remoteness,
            winby: Some(m),
        };
        assert_eq!(got, want, "{t}");
        *by_value.entry(value.name()).or_insert(0usize) += 1;
    }
    // All three outcomes occur among them, so the check saw each kind of record.
    assert_eq!(by_value.len(), 3, "{by_value:?}");
}

/// The stored records of `node`'s tier solved again on `threads` threads from its
/// stored child tiers, encoded as its tier file would be.
fn resolve_tier(
    s: &Solved,
    graph: &TierGraph,
    tier: gamesman_plugin_api::Tier,
    threads: usize,
) -> Vec<u8> {
    let node = graph.get(tier).unwrap();
    let children: Vec<ChildTier> = node
        .children
        .iter()
        .map(|&c| {
            ChildTier::Whole(ChildFrontier::new(
                c,
                s.db.load_tier(&meta_of(graph.get(c).unwrap())).unwrap(),
            ))
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let records = pool
        .install(|| {
            solver::solve_one(
                &s.game,
                node,
                &children,
                solver::parents::ParentMode::Auto,
                false,
                &|_| {},
                &|_| {},
            )
        })
        .unwrap();
    encode_tier(&key_of(&s.game), &meta_of(node), &records)
}

fn key_of(game: &GameHandle) -> GameKey {
    GameKey {
        game: game.module_name().into(),
        variant: game.variant().into(),
        winby: game.supports_winby(),
        numbering: 0,
    }
}

#[test]
fn large_tiers_are_byte_identical_on_1_2_and_7_threads() {
    let s = solved();
    let graph = TierGraph::discover(&s.game).unwrap();
    // The tiers of 9 and 15 discs: 811,008 and 786,432 positions, far more than the
    // scan's and the parents' chunks, with WinBy and passes inside the tier; the
    // largest tiers would cost this test four times as much.
    for tier in [9, 15] {
        let node = graph.get(gamesman_plugin_api::Tier(tier)).unwrap();
        assert!(node.size > 750_000 && node.loopy, "{node:?}");
        let stored = encode_tier(
            &key_of(&s.game),
            &meta_of(node),
            &s.db.load_tier(&meta_of(node)).unwrap(),
        );
        for threads in [1, 7] {
            assert!(
                resolve_tier(s, &graph, node.tier, threads) == stored,
                "tier {} on {threads} threads differs from the two-thread solve",
                node.tier
            );
        }
    }
}
