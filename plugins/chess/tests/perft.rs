//! Perft (the number of move sequences of each length) from the standard perft test
//! positions with at most four pieces and no castling rights, counted through the
//! module's own `generate_moves` and `do_move`, the functions the solver uses: every
//! position is decoded from and encoded to its number in its tier at each step, so
//! promotions and captures also cross tiers as they do while solving.
//!
//! The expected counts are the published ones of the widely used `perftsuite.epd`
//! (a suite of 126 positions with node counts to depth 6, checked by many engines);
//! the suite's number of each position is in the comment. Every count the suite lists
//! for these positions is checked (a few seconds in all).

use chess::tiers::Material;
use chess::{fen, Chess};
use gamesman_plugin_api::{Game, List, Move, TierPosition};

/// Leaf count of the move tree of `p`, `depth` plies deep.
fn perft(chess: &Chess, p: TierPosition, depth: u32, buf: &mut Vec<Vec<Move>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = buf.pop().unwrap_or_default();
    moves.resize(chess.properties().max_moves as usize, Move::default());
    let mut list = List::new(&mut moves);
    chess.generate_moves(p, &mut list);
    assert!(!list.overflowed(), "more moves than max_moves");
    let n = list.len();
    let total = if depth == 1 {
        n as u64
    } else {
        (0..n)
            .map(|i| perft(chess, chess.do_move(p, moves[i]), depth - 1, buf))
            .sum()
    };
    buf.push(moves);
    total
}

/// The module for a FEN position's material, and the position's number.
fn start(fen_text: &str) -> (Chess, TierPosition) {
    let board = fen::parse(fen_text).unwrap();
    let chess = Chess::new_for_tests(&Material::of(&board).canonical().name());
    let p = chess.text_to_position(fen_text).unwrap();
    (chess, p)
}

/// Checks each position's counts for depths 1, 2, ... against its list.
fn check_all_depths(cases: &[(&str, &[u64])]) {
    for &(fen_text, expected) in cases {
        let (chess, p) = start(fen_text);
        let mut buf = Vec::new();
        for (d, &want) in expected.iter().enumerate() {
            let got = perft(&chess, p, d as u32 + 1, &mut buf);
            assert_eq!(got, want, "perft {} of {fen_text}", d + 1);
        }
    }
}

/// Checks one depth's count per position (the suite lists some positions at a single
/// depth).
fn check_one_depth(cases: &[(&str, u32, u64)]) {
    for &(fen_text, depth, want) in cases {
        let (chess, p) = start(fen_text);
        let got = perft(&chess, p, depth, &mut Vec::new());
        assert_eq!(got, want, "perft {depth} of {fen_text}");
    }
}

#[test]
fn pawnless_positions() {
    check_all_depths(&[
        // 38, 43: KNKN
        (
            "8/1k6/8/5N2/8/4n3/8/2K5 w - - 0 1",
            &[11, 156, 1636, 20534, 223507, 2594412],
        ),
        (
            "8/1k6/8/5N2/8/4n3/8/2K5 b - - 0 1",
            &[16, 180, 2290, 24640, 288141, 3147566],
        ),
        // 59, 62: the queen beside its king in a corner (a KQK position of each colour)
        (
            "6kq/8/8/8/8/8/8/7K w - - 0 1",
            &[2, 36, 143, 3637, 14893, 391507],
        ),
        (
            "6qk/8/8/8/8/8/8/7K b - - 0 1",
            &[22, 43, 1015, 4167, 105749, 419369],
        ),
        // 61: KQKQ
        (
            "K7/8/8/3Q4/4q3/8/8/7k w - - 0 1",
            &[6, 35, 495, 8349, 166741, 3370175],
        ),
    ]);
    check_one_depth(&[
        // 150, 151: KQNK of each colour, listed at depth 4 only
        ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527),
        ("8/5k2/8/5N2/5Q2/2K5/8/8 w - - 0 1", 4, 23527),
    ]);
}

#[test]
fn pawn_positions() {
    check_all_depths(&[
        // 65, 67, 75: KPK
        ("8/8/8/8/8/K7/P7/k7 w - - 0 1", &[3, 7, 43, 199, 1347, 6249]),
        ("K7/p7/k7/8/8/8/8/8 w - - 0 1", &[1, 3, 12, 80, 342, 2343]),
        (
            "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1",
            &[2, 8, 44, 282, 1814, 11848],
        ),
        // 79, 80, 81, 82, 88: KPKP with blocked and free pawns
        (
            "8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1",
            &[5, 25, 180, 1294, 8296, 53138],
        ),
        (
            "8/3k4/3p4/8/3P4/3K4/8/8 w - - 0 1",
            &[8, 61, 483, 3213, 23599, 157093],
        ),
        (
            "8/8/3k4/3p4/8/3P4/3K4/8 w - - 0 1",
            &[8, 61, 411, 3213, 21637, 158065],
        ),
        (
            "k7/8/3p4/8/3P4/8/8/7K w - - 0 1",
            &[4, 15, 90, 534, 3450, 20960],
        ),
        (
            "k7/8/3p4/8/3P4/8/8/7K b - - 0 1",
            &[4, 15, 89, 537, 3309, 21104],
        ),
        // 89, 97, 90, 98: double steps that may give en passant rights
        (
            "7k/3p4/8/8/3P4/8/8/K7 w - - 0 1",
            &[4, 19, 117, 720, 4661, 32191],
        ),
        (
            "7k/3p4/8/8/3P4/8/8/K7 b - - 0 1",
            &[5, 19, 117, 720, 5014, 32167],
        ),
        (
            "7k/8/8/3p4/8/8/3P4/K7 w - - 0 1",
            &[5, 19, 116, 716, 4786, 30980],
        ),
        (
            "7k/8/8/3p4/8/8/3P4/K7 b - - 0 1",
            &[4, 19, 117, 712, 4658, 30749],
        ),
        // 91, 96: pawns on neighbouring files
        (
            "k7/8/8/7p/6P1/8/8/K7 w - - 0 1",
            &[5, 22, 139, 877, 6112, 41874],
        ),
        (
            "k7/8/3p4/8/8/4P3/8/7K w - - 0 1",
            &[4, 16, 101, 637, 4271, 28662],
        ),
        // 95, 103: two black pawns (KPPK in black's colours)
        (
            "k7/8/8/3p4/4p3/8/8/7K w - - 0 1",
            &[3, 15, 84, 573, 3013, 22886],
        ),
        (
            "k7/8/8/3p4/4p3/8/8/7K b - - 0 1",
            &[5, 15, 102, 569, 4337, 22579],
        ),
    ]);
}

#[test]
fn promotions() {
    check_all_depths(&[
        // 119, 123: both sides promote, to every piece (KPKP becomes KQKP, KNKB, ...)
        (
            "8/Pk6/8/8/8/8/6Kp/8 w - - 0 1",
            &[11, 97, 887, 8048, 90606, 1030499],
        ),
        (
            "8/Pk6/8/8/8/8/6Kp/8 b - - 0 1",
            &[11, 97, 887, 8048, 90606, 1030499],
        ),
    ]);
    check_one_depth(&[
        // 142-149: promotion races, listed at depth 6 or 7 only, each with its colour
        // mirror
        ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342),
        ("8/k7/8/8/8/8/1p6/4K3 b - - 0 1", 6, 217342),
        ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683),
        ("8/8/8/8/8/k7/p1K5/8 b - - 0 1", 6, 92683),
        ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217),
        ("8/8/8/8/8/p7/8/k1K5 b - - 0 1", 6, 2217),
        ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584),
        ("8/8/8/8/1k6/8/K1p5/8 b - - 0 1", 7, 567584),
        // 138, 139: KPKR, the pawn promotes or takes the rook (on f8 or f1)
        ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001),
        ("3K4/8/8/8/8/8/4p3/2k2R2 b - - 0 1", 6, 3821001),
    ]);
}
