//! KQK, KRK and KPK through the real solver, checked against published endgame
//! tablebase statistics.
//!
//! Published numbers (Guido, on the Kirill Kryukov chess forum thread "Longest Mate in
//! kqk", counting positions up to board symmetry, as our canonical positions are):
//! - KQK: white to move wins in at most 10 moves, one position (Ka1 Qb2 kf5); black
//!   to move loses in at most 10 moves, eight positions (one is Ka1 Qb2 ke4).
//! - KRK: white to move 16 moves, 121 positions (one is Ka1 Rb2 kc3); black to move
//!   16 moves, 390 positions (one is Ka1 Rb2 kc2).
//! - KPK: white to move 28 moves, 3 positions (Ka2/Kb2/Ka3, Pg2, kb5); black to move
//!   28 moves, 2 positions (Ka3 Pg2 ka5, Ka3 Pg2 ka6).
//!
//! Our remoteness counts plies: a win in N moves with the winner to move is 2N - 1
//! plies, a loss in N moves with the loser to move is 2N plies.

use chess::board::*;
use chess::{movegen, Chess};
use gamesman_host::db::{self, Database, GameKey};
use gamesman_host::solver::{self, Silent, SolveOptions};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Game, Tier, TierPosition, Value};
use std::sync::Arc;

fn solve(variant: &str) -> (Chess, Arc<dyn Database>) {
    let game = GameHandle::from_static::<Chess>(variant).unwrap();
    let key = GameKey {
        game: "chess".into(),
        variant: variant.into(),
        winby: false,
    };
    let db = db::open("memory:", &key).unwrap();
    solver::solve(&game, db.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    (Chess::new_for_tests(variant), db)
}

/// Counts over the legal positions of a variant's own tier, one side to move.
#[derive(Debug, Default)]
struct Stats {
    /// Every legal position (not reduced by symmetry) by value: win, lose, tie, draw.
    all: [u64; 4],
    /// The largest remoteness of a win or loss.
    max: u32,
    /// Canonical positions at that remoteness (counted up to board symmetry).
    at_max: u64,
}

fn stats(chess: &Chess, db: &dyn Database, stm: u8) -> Stats {
    let tier = Tier(chess.root.tier());
    let mut s = Stats::default();
    for i in (stm as u64..chess.tier_size(tier)).step_by(2) {
        let p = TierPosition::new(tier, i);
        if !chess.is_legal(p) {
            continue;
        }
        let c = chess.canonical_position(p);
        let r = db.lookup(c).unwrap().expect("stored");
        let slot = match r.value {
            Value::WIN => 0,
            Value::LOSE => 1,
            Value::TIE => 2,
            Value::DRAW => 3,
            v => panic!("unsolved {v:?} at {}", chess.position_to_text(p)),
        };
        s.all[slot] += 1;
        if c == p && (r.value == Value::WIN || r.value == Value::LOSE) {
            if r.remoteness > s.max {
                s.max = r.remoteness;
                s.at_max = 0;
            }
            if r.remoteness == s.max {
                s.at_max += 1;
            }
        }
    }
    s
}

fn record(chess: &Chess, db: &dyn Database, fen: &str) -> (Value, u32) {
    let p = chess.text_to_position(fen).unwrap();
    let r = db
        .lookup(chess.canonical_position(p))
        .unwrap()
        .expect("stored");
    (r.value, r.remoteness)
}

#[test]
fn kqk_matches_published_numbers() {
    let (chess, db) = solve("KQK");
    let w = stats(&chess, db.as_ref(), WHITE);
    let b = stats(&chess, db.as_ref(), BLACK);
    eprintln!("KQK wtm {w:?}\nKQK btm {b:?}");
    // every legal position with white to move is a win (144,508 of them on the full
    // board); with black to move 23,048 are drawn (the Wikibooks "Chess/Analysis of
    // KQK Endgame" total): stalemates (ties) and positions where the queen is taken
    // (draws, through KK)
    assert_eq!(w.all, [144_508, 0, 0, 0]);
    assert_eq!(b.all[2] + b.all[3], 23_048);
    assert_eq!(b.all, [0, 200_896, 872, 22_176]);
    assert_eq!((w.max, w.at_max), (19, 1));
    assert_eq!((b.max, b.at_max), (20, 8));
    assert_eq!(
        record(&chess, db.as_ref(), "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"),
        (Value::WIN, 19)
    );
    assert_eq!(
        record(&chess, db.as_ref(), "8/8/8/8/4k3/8/1Q6/K7 b - - 0 1"),
        (Value::LOSE, 20)
    );
}

/// In KQK with black to move, the only non-losses are stalemates (tie) and positions
/// where the king can take the queen (draw).
#[test]
fn kqk_black_non_losses_are_stalemates_or_queen_captures() {
    let (chess, db) = solve("KQK");
    let tier = Tier(chess.root.tier());
    let (mut stalemates, mut captures) = (0, 0);
    for i in (1..chess.tier_size(tier)).step_by(2) {
        let p = TierPosition::new(tier, i);
        if !chess.is_legal(p) {
            continue;
        }
        let r = db.lookup(chess.canonical_position(p)).unwrap().unwrap();
        let b = chess.board(p);
        let mut moves = Vec::new();
        movegen::legal_moves(&b, &mut moves);
        let takes_queen = moves.iter().any(|m| b.at(m.to).is_some());
        match r.value {
            Value::LOSE => assert!(!takes_queen),
            Value::TIE => {
                assert!(moves.is_empty() && !movegen::in_check(&b, BLACK));
                stalemates += 1;
            }
            Value::DRAW => {
                assert!(takes_queen);
                captures += 1;
            }
            v => panic!("{v:?} at {}", chess.position_to_text(p)),
        }
    }
    assert_eq!((stalemates, captures), (872, 22_176));
}

#[test]
fn krk_matches_published_numbers() {
    let (chess, db) = solve("KRK");
    let w = stats(&chess, db.as_ref(), WHITE);
    let b = stats(&chess, db.as_ref(), BLACK);
    eprintln!("KRK wtm {w:?}\nKRK btm {b:?}");
    // white to move always wins; black to move draws only by stalemate or by taking
    // the rook
    assert_eq!(w.all, [175_168, 0, 0, 0]);
    assert_eq!(b.all, [0, 201_700, 68, 22_176]);
    assert_eq!((w.max, w.at_max), (31, 121));
    assert_eq!((b.max, b.at_max), (32, 390));
    assert_eq!(
        record(&chess, db.as_ref(), "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"),
        (Value::WIN, 31)
    );
    assert_eq!(
        record(&chess, db.as_ref(), "8/8/8/8/8/8/1Rk5/K7 b - - 0 1"),
        (Value::LOSE, 32)
    );
}

#[test]
fn kpk_matches_published_numbers() {
    let (chess, db) = solve("KPK");
    let w = stats(&chess, db.as_ref(), WHITE);
    let b = stats(&chess, db.as_ref(), BLACK);
    eprintln!("KPK wtm {w:?}\nKPK btm {b:?}");
    assert_eq!(w.all, [124_960, 0, 38_364, 4]);
    assert_eq!(b.all, [0, 97_604, 68_120, 2_300]);
    assert_eq!((w.max, w.at_max), (55, 3));
    assert_eq!((b.max, b.at_max), (56, 2));
    for fen in [
        "8/8/8/1k6/8/8/K5P1/8 w - - 0 1",
        "8/8/8/1k6/8/8/1K4P1/8 w - - 0 1",
        "8/8/8/1k6/8/K7/6P1/8 w - - 0 1",
    ] {
        assert_eq!(record(&chess, db.as_ref(), fen), (Value::WIN, 55), "{fen}");
    }
    for fen in [
        "8/8/8/k7/8/K7/6P1/8 b - - 0 1",
        "8/8/k7/8/8/K7/6P1/8 b - - 0 1",
    ] {
        assert_eq!(record(&chess, db.as_ref(), fen), (Value::LOSE, 56), "{fen}");
    }
}
