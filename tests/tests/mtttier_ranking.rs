//! mtttier's dense hash: every index of every tier unranks to a board with the tier's
//! piece counts and ranks back to itself, every such board ranks into range, and the
//! text forms and canonical positions round-trip through the plugin adapter.
//!
//! Tier sizes are checked against binomials computed here, not the plugin-api's. This
//! file must not test moves.

use e2e_tests::tictactoe::{self, Cells};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Game, Tier, TierPosition};
use mtttier::MttTier;
use std::collections::HashSet;

/// `n choose k`, the obvious way.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// X and O on the boards of tier `t` (X moves first, `9 - t` pieces placed).
fn pieces_of_tier(t: u64) -> (usize, usize) {
    let placed = 9 - t as usize;
    (placed.div_ceil(2), placed / 2)
}

fn count(b: &Cells, piece: u8) -> usize {
    b.iter().filter(|&&c| c == piece).count()
}

#[test]
fn every_index_round_trips_and_tiers_are_dense() {
    for variant in ["regular", "symmetric"] {
        let game = MttTier::new_for_tests(variant);
        let mut total = 0u64;
        for t in 0..=9u64 {
            let (xs, os) = pieces_of_tier(t);
            let size = game.tier_size(Tier(t));
            assert_eq!(
                size,
                choose(9, xs as u64) * choose(9 - xs as u64, os as u64),
                "{variant}: size of tier {t}"
            );
            total += size;
            let mut seen = HashSet::new();
            for i in 0..size {
                let p = TierPosition::new(Tier(t), i);
                let b = game.board(p);
                assert_eq!(
                    (count(&b, 1), count(&b, 2)),
                    (xs, os),
                    "{variant}: {p} -> {b:?}"
                );
                assert!(
                    seen.insert(b),
                    "{variant}: {p} unranks to a board seen before"
                );
                assert_eq!(game.position(&b), p, "{variant}: {b:?} does not rank back");
            }
        }
        // Every board with as many X as O, or one more: sum over placed pieces.
        assert_eq!(total, 6046, "{variant}");
    }
}

#[test]
fn every_board_ranks_into_its_tier() {
    let game = MttTier::new_for_tests("regular");
    let mut ranked = 0;
    for code in 0..3u32.pow(9) {
        let mut b: Cells = [0; 9];
        let mut rest = code;
        for cell in b.iter_mut() {
            *cell = (rest % 3) as u8;
            rest /= 3;
        }
        let (xs, os) = (count(&b, 1), count(&b, 2));
        if xs != os && xs != os + 1 {
            continue;
        }
        ranked += 1;
        let p = game.position(&b);
        assert_eq!(p.tier, Tier(9 - (xs + os) as u64), "{b:?}");
        assert!(p.position < game.tier_size(p.tier), "{b:?} -> {p}");
        assert_eq!(game.board(p), b);
    }
    assert_eq!(ranked, 6046);
}

#[test]
fn text_forms_round_trip_through_the_adapter() {
    let g = GameHandle::from_static::<MttTier>("regular").expect("opens");
    let game = MttTier::new_for_tests("regular");
    for t in 0..=9u64 {
        for i in 0..g.tier_size(Tier(t)).expect("size") {
            let p = TierPosition::new(Tier(t), i);
            let text = g.position_to_text(p).expect("position_to_text");
            let expected: String = game
                .board(p)
                .iter()
                .map(|&c| ['-', 'X', 'O'][c as usize])
                .collect();
            assert_eq!(text, expected, "{p}");
            assert_eq!(g.text_to_position(&text).expect("call"), Ok(p), "{text}");
        }
    }
    assert_eq!(
        g.text_to_position("X-O").expect("call"),
        Err("'X-O' is not a board: give 9 cells row by row, each X, O or -".to_string())
    );
}

#[test]
fn canonical_position_is_the_smallest_symmetric_image() {
    let g = GameHandle::from_static::<MttTier>("symmetric").expect("opens");
    let game = MttTier::new_for_tests("symmetric");
    for t in 0..=9u64 {
        let mut classes = HashSet::new();
        let size = g.tier_size(Tier(t)).expect("size");
        for i in 0..size {
            let p = TierPosition::new(Tier(t), i);
            let c = g.canonical(p).expect("canonical_position");
            let images = tictactoe::symmetric_images(&game.board(p));
            let smallest = images
                .iter()
                .map(|b| game.position(b))
                .min()
                .expect("eight images");
            assert_eq!(c, smallest, "{p}");
            assert_eq!(
                g.canonical(c).expect("canonical"),
                c,
                "{c} is not its own canonical form"
            );
            classes.insert(c);
        }
        // Every board of the tier is one image of exactly one canonical board.
        let covered: usize = classes
            .iter()
            .map(|&c| {
                tictactoe::symmetric_images(&game.board(c))
                    .into_iter()
                    .collect::<HashSet<_>>()
                    .len()
            })
            .sum();
        assert_eq!(covered as u64, size, "tier {t}");
    }
}
