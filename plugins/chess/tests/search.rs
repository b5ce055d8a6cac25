//! The host's depth-limited search on chess positions no database covers.

use chess::Chess;
use gamesman_host::engine::ask::search::{search, MATE};
use gamesman_host::GameHandle;
use gamesman_plugin_api::Game;

/// KRRK is never solved here: the search alone finds the ladder mate in 2 (3 plies).
/// Kg1 Ra2 Rb1 / kh8: 1. Ra7 (or Rb7) Kg8 (the only move) 2. Rb8# (Ra8#); no mate in 1
/// (Rb8+ Kh7, Ra8+ Kg7).
#[test]
fn finds_a_mate_in_two_in_an_unsolved_variant() {
    let game = GameHandle::from_static::<Chess>("KRRK").unwrap();
    let chess = Chess::new_for_tests("KRRK");
    let p = chess
        .text_to_position("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")
        .unwrap();
    let r = search(&game, None, p, 3).unwrap();
    assert_eq!(r.score, MATE - 3);
    assert_eq!(r.plies_to_end(), Some(3));
    let best = chess.move_to_text(p, r.best.unwrap());
    assert!(["a2a7", "b1b7"].contains(&best.as_str()), "{best}");
    // two plies see no mate: the score is the material heuristic (two rooks, in
    // centipawns, for white to move)
    let shallow = search(&game, None, p, 2).unwrap();
    assert_eq!(shallow.plies_to_end(), None);
    assert_eq!(shallow.score, 1000);
}
