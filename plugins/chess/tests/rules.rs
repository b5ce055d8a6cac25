//! Move generation, checkmate and stalemate, FEN text, tiers and undo moves, checked
//! on positions whose numbers are worked out by hand in the comments.

use chess::tiers::Material;
use chess::{fen, index, movegen, Chess};
use gamesman_plugin_api::{Game, List, Move, Tier, TierPosition, UndoMove, Value};

fn moves(fen_text: &str) -> Vec<String> {
    let b = fen::parse(fen_text).unwrap();
    let mut v = Vec::new();
    movegen::legal_moves(&b, &mut v);
    let mut names: Vec<String> = v.iter().map(|m| m.text()).collect();
    names.sort();
    names
}

#[test]
fn move_counts_by_hand() {
    // Ke1 Qf1 / ke5, white: king d1 d2 e2 f2 (4; none attacked by the black king);
    // queen g1 h1 (2), f2..f8 (7), e2 d3 c4 b5 a6 (5), g2 h3 (2) = 16; total 20.
    assert_eq!(moves("8/8/8/4k3/8/8/8/4KQ2 w - - 0 1").len(), 20);
    // Same, black: the king's 8 squares less f4 f5 f6 (the queen's file) = 5.
    assert_eq!(
        moves("8/8/8/4k3/8/8/8/4KQ2 b - - 0 1"),
        ["e5d4", "e5d5", "e5d6", "e5e4", "e5e6"]
    );
    // The perft suite's "4k3/8/8/8/8/8/8/4K2R w K" has 15 moves with castling; without
    // castling rights: rook h2..h8, g1, f1 (9) and king d1 d2 e2 f2 f1 (5) = 14.
    assert_eq!(moves("4k3/8/8/8/8/8/8/4K2R w - - 0 1").len(), 14);
    // Ra1 Ke1 / kh1: rook b1 c1 d1 (blocked by its king) and a2..a8 (10); king d1 d2
    // e2 f1 f2 (5; kh1 only guards g1 g2 h2) = 15.
    assert_eq!(moves("8/8/8/8/8/8/8/R3K2k w - - 0 1").len(), 15);
    // Pe2 Ke1 / kh1: pawn e3 e4 (2), king d1 d2 f1 f2 (4) = 6.
    assert_eq!(
        moves("8/8/8/8/8/8/4P3/4K2k w - - 0 1"),
        ["e1d1", "e1d2", "e1f1", "e1f2", "e2e3", "e2e4"]
    );
    // Pe7 Ke1 / ka1: four promotions on e8, king d1 d2 e2 f1 f2 = 9.
    assert_eq!(moves("8/4P3/8/8/8/8/8/k3K3 w - - 0 1").len(), 9);
    // Pe7 Ke1 / rd8 ka1: e8 and exd8, four promotions each (8); the rook guards d1 and
    // d2, so the king has e2 f1 f2 (3) = 11.
    let m = moves("3r4/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    assert_eq!(m.len(), 11);
    assert!(m.contains(&"e7d8n".to_string()) && !m.contains(&"e1d2".to_string()));
    // A blocked pawn has no move: Pe4 against pe5, Ka1 / kh1: king a2 b1 b2 (3).
    assert_eq!(moves("8/8/8/4p3/4P3/8/8/K6k w - - 0 1").len(), 3);
    // Black pawn double step from the 7th rank: pd7 kh8 / Ka1: d6 d5, king g8 g7 h7 = 5.
    assert_eq!(moves("7k/3p4/8/8/8/8/8/K7 b - - 0 1").len(), 5);
}

fn primitive(fen_text: &str) -> Value {
    let b = fen::parse(fen_text).unwrap();
    let m = Material::of(&b).canonical().name();
    let chess = Chess::new_for_tests(&m);
    chess.primitive(chess.text_to_position(fen_text).unwrap())
}

#[test]
fn checkmate_and_stalemate() {
    // ka8 in check from Qb7, which Kb6 guards: mate.
    assert_eq!(primitive("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), Value::LOSE);
    // Ra8 checks kh8; Kh6 guards g7 h7, the rook g8: mate.
    assert_eq!(primitive("R6k/8/7K/8/8/8/8/8 b - - 0 1"), Value::LOSE);
    // ka8, Qb6: a7 b7 b8 all guarded, no check: stalemate.
    assert_eq!(primitive("k7/8/1Q6/8/8/8/8/7K b - - 0 1"), Value::TIE);
    // The pawn stalemate of KPK: ke8, Pe7, Ke6, black to move. The pawn guards d8 f8,
    // the king d7 e7 f7 (so the pawn cannot be taken), and nothing checks e8.
    assert_eq!(primitive("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1"), Value::TIE);
    // Not over: the black king can take an unguarded queen.
    assert_eq!(primitive("k7/1Q6/8/8/8/8/8/7K b - - 0 1"), Value::UNDECIDED);
}

#[test]
fn fen_round_trip_and_captures() {
    let chess = Chess::new_for_tests("KQKR");
    let text = "8/8/3r4/4k3/8/8/8/4KQ2 w - - 0 1";
    let p = chess.text_to_position(text).unwrap();
    assert_eq!(chess.tier_name(p.tier), "KQKR");
    assert_eq!(chess.position_to_text(p), text);
    // Black's rook takes the queen: the child is a KKR board in real colours, in the
    // tier of its colour class, KRK.
    let before = chess
        .text_to_position("8/8/8/4k3/8/8/8/4KQ1r b - - 0 1")
        .unwrap();
    let after = chess.do_move(before, chess.text_to_move(before, "h1f1").unwrap());
    assert_eq!(chess.tier_name(after.tier), "KRK");
    assert_eq!(
        chess.position_to_text(after),
        "8/8/8/4k3/8/8/8/4Kr2 w - - 0 1"
    );
    assert_eq!(Material::of(&chess.board(after)).name(), "KKR");
    assert!(chess
        .text_to_position("8/8/8/4k3/8/8/8/4KQ2 w KQ - 0 1")
        .is_err());
    assert!(chess
        .text_to_position("8/8/8/3Kk3/8/8/8/5Q2 w - - 0 1")
        .is_err());
}

#[test]
fn tiers_and_symmetry() {
    let chess = Chess::new_for_tests("KQKR");
    let names: Vec<String> = chess.tiers.iter().map(|m| m.name()).collect();
    assert_eq!(names, ["KQKR", "KQK", "KRK", "KK"]);
    // a set and its colour mirror are one tier: KQKQ reaches KQK whichever side
    // captures, and KKQ is no tier of its own
    let kqkq = Chess::new_for_tests("KQKQ");
    let names: Vec<String> = kqkq.tiers.iter().map(|m| m.name()).collect();
    assert_eq!(names, ["KQKQ", "KQK", "KK"]);
    let sizes: Vec<u64> = kqkq
        .tiers
        .iter()
        .map(|m| kqkq.tier_size(Tier(m.tier())))
        .collect();
    // KQK holds both orientations; KQKQ and KK are their own mirrors
    assert_eq!(
        sizes,
        [2 * 64u64.pow(4), 2 * 2 * 64u64.pow(3), 2 * 64u64.pow(2)]
    );
    let kpk = Chess::new_for_tests("KPK");
    let mut names: Vec<String> = kpk.tiers.iter().map(|m| m.name()).collect();
    names.sort();
    assert_eq!(names, ["KBK", "KK", "KNK", "KPK", "KQK", "KRK"]);
    assert!(Chess::new("KKQ").is_err());
    // Qf1 Ke1 / ke5 and its mirror images share one canonical position.
    let kqk = Chess::new_for_tests("KQK");
    let a = kqk.canonical_position(
        kqk.text_to_position("8/8/8/4k3/8/8/8/4KQ2 w - - 0 1")
            .unwrap(),
    );
    let b = kqk.canonical_position(
        kqk.text_to_position("2QK4/8/8/8/3k4/8/8/8 w - - 0 1")
            .unwrap(),
    );
    assert_eq!(a, b);
    // All eight images of a pawnless board share it; with a pawn only the left-right
    // mirror does.
    let board = index::decode(a);
    for sym in 0..8 {
        assert_eq!(index::canonical(&board.transform(sym)), a);
    }
    // The colour flip (colours swapped, ranks mirrored, the other side to move) is a
    // symmetry too: Ke1 Qf1 against ke5 with white to move is ke8 qf8 against Ke4 with
    // black to move, and a KKQ board shares its KQK class.
    let mirrored = kqk
        .text_to_position("4kq2/8/8/8/4K3/8/8/8 b - - 0 1")
        .unwrap();
    assert_eq!(kqk.tier_name(mirrored.tier), "KQK");
    assert_ne!(
        mirrored,
        kqk.text_to_position("8/8/8/4k3/8/8/8/4KQ2 w - - 0 1")
            .unwrap()
    );
    assert_eq!(kqk.canonical_position(mirrored), a);
    let pawn = fen::parse("8/8/8/4k3/8/8/2P5/4K3 w - - 0 1").unwrap();
    let c = index::canonical(&pawn);
    assert_eq!(index::canonical(&pawn.transform(1)), c);
    assert_ne!(index::canonical(&pawn.transform(2)), c);
    assert_eq!(index::canonical(&pawn.flip_colours()), c);
    assert_eq!(index::canonical(&pawn.flip_colours().transform(1)), c);
    assert_ne!(index::canonical(&pawn.flip_colours().transform(2)), c);
}

/// Every undo move's parent has the position (up to symmetry) as a child, and every
/// child of a position lists the position among its parents, on a spread of positions.
#[test]
fn undo_moves_match_moves() {
    for variant in ["KQK", "KPK", "KQKR", "KPKP", "KBNK"] {
        let chess = Chess::new_for_tests(variant);
        let props = chess.properties();
        let mut checked = 0;
        for m in &chess.tiers {
            let tier = Tier(m.tier());
            let size = chess.tier_size(tier);
            let step = size / 997 + 1;
            for i in (0..size).step_by(step as usize) {
                let p = TierPosition::new(tier, i);
                if !chess.is_legal(p) || chess.primitive(p) != Value::UNDECIDED {
                    continue;
                }
                let mut buf = vec![Move::default(); props.max_moves as usize];
                let mut ms = List::new(&mut buf);
                chess.generate_moves(p, &mut ms);
                for &mv in ms.as_slice() {
                    let c = chess.do_move(p, mv);
                    let mut ubuf = vec![UndoMove::default(); props.max_undo_moves as usize];
                    let mut us = List::new(&mut ubuf);
                    chess.generate_undo_moves_to_tier(chess.canonical_position(c), tier, &mut us);
                    assert!(!us.overflowed());
                    let parents: Vec<TierPosition> = us
                        .as_slice()
                        .iter()
                        .map(|&u| chess.canonical_position(chess.undo_move(c, u)))
                        .collect();
                    assert!(
                        parents.contains(&chess.canonical_position(p)),
                        "{variant}: {} -> {} not undone",
                        chess.position_to_text(p),
                        chess.move_to_text(p, mv)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{variant}: only {checked} moves checked");
    }
}

#[test]
fn moves_as_coordinates_or_san() {
    let chess = Chess::new_for_tests("KQKR");
    let p = chess
        .text_to_position("3r4/8/8/4k3/8/8/8/4KQ2 w - - 0 1")
        .unwrap();
    let coord = chess.text_to_move(p, "f1b5").unwrap();
    assert_eq!(chess.text_to_move(p, "Qb5").unwrap(), coord);
    assert_eq!(chess.text_to_move(p, "Qb5+").unwrap(), coord);
    assert_eq!(
        chess.move_to_text(p, chess.text_to_move(p, "Ke2").unwrap()),
        "e1e2"
    );
    // the rook guards d1 and d2
    assert!(chess.text_to_move(p, "Kd2").is_err());
    let kpk = Chess::new_for_tests("KPK");
    let q = kpk
        .text_to_position("8/4P3/8/8/8/8/8/k3K3 w - - 0 1")
        .unwrap();
    assert_eq!(
        kpk.move_to_text(q, kpk.text_to_move(q, "e8=N").unwrap()),
        "e7e8n"
    );
    assert_eq!(
        kpk.move_to_text(q, kpk.text_to_move(q, "e8Q").unwrap()),
        "e7e8q"
    );
}

/// Text with multi-byte characters anywhere (the `e€` of a user's keyboard slip, a
/// piece glyph, a combining accent) names no move and is refused with a message, never
/// by a panic at a byte index inside a character; moves around such text still parse.
#[test]
fn moves_in_any_utf8_text_are_refused_cleanly() {
    let chess = Chess::new_for_tests("KQKR");
    let p = chess
        .text_to_position("3r4/8/8/4k3/8/8/8/4KQ2 w - - 0 1")
        .unwrap();
    for text in [
        "e\u{20ac}",
        "\u{20ac}",
        "\u{20ac}\u{20ac}",
        "Q\u{20ac}",
        "Qb\u{20ac}",
        "Q\u{20ac}5",
        "\u{20ac}b5",
        "b5\u{20ac}",
        "e8=\u{20ac}",
        "\u{2655}b5",
        "Qb5\u{301}",
        "\u{1d11e}",
        "Q\u{1d11e}b5",
        "\u{e9}1\u{e9}2",
        "xx\u{20ac}",
        "=\u{20ac}+",
    ] {
        let e = chess
            .text_to_move(p, text)
            .expect_err(&format!("{text:?} names no move"));
        assert!(e.contains("is not one legal move here"), "{text:?}: {e}");
    }
    // A move with its check sign and spaces still parses.
    assert_eq!(
        chess.move_to_text(p, chess.text_to_move(p, " Qb5+ ").unwrap()),
        "f1b5"
    );
}

/// The board diagram: Unicode glyphs by default, FEN letters in the ASCII style
/// (`GAMESMAN_ASCII=1`), and `board_to_text` draws in the style the environment asks
/// for.
#[test]
fn board_diagram_in_unicode_or_ascii() {
    let text = "8/8/8/4k3/8/1p6/8/K1Q5 b - - 0 1";
    let b = fen::parse(text).unwrap();
    let unicode = fen::diagram(&b, fen::Style::Unicode);
    let lines: Vec<&str> = unicode.lines().collect();
    assert_eq!(lines.len(), 10, "{unicode}");
    assert_eq!(lines[0], "8 · · · · · · · · ");
    assert_eq!(lines[3], "5 · · · · ♚ · · · ");
    assert_eq!(lines[5], "3 · ♟ · · · · · · ");
    assert_eq!(lines[7], "1 ♔ · ♕ · · · · · ");
    assert_eq!(lines[8], "  a b c d e f g h");
    assert_eq!(lines[9], "Black to move; material KQKP");
    let ascii = fen::diagram(&b, fen::Style::Ascii);
    let lines: Vec<&str> = ascii.lines().collect();
    assert_eq!(lines[3], "5 . . . . k . . . ");
    assert_eq!(lines[5], "3 . p . . . . . . ");
    assert_eq!(lines[7], "1 K . Q . . . . . ");
    assert_eq!(
        lines[9],
        "Black (upper case = White) to move; material KQKP"
    );
    assert!(ascii.is_ascii());
    let chess = Chess::new_for_tests("KQKP");
    let p = chess.text_to_position(text).unwrap();
    assert_eq!(
        chess.board_to_text(p),
        fen::diagram(&b, fen::Style::from_env())
    );
}

/// En passant: a double step beside an enemy pawn gives a right to take it on the next
/// move; the right is part of the position (FEN field, its own number in KPKP) and is
/// dropped when the capture is impossible.
#[test]
fn en_passant() {
    // Pd4 may take e4 en passant (landing on e3): king a7 b7 b8, d3, dxe3 = 5 moves;
    // without the right, 4.
    assert_eq!(
        moves("k7/8/8/8/3pP3/8/8/K7 b - e3 0 1"),
        ["a8a7", "a8b7", "a8b8", "d4d3", "d4e3"]
    );
    assert_eq!(moves("k7/8/8/8/3pP3/8/8/K7 b - - 0 1").len(), 4);
    let chess = Chess::new_for_tests("KPKP");
    let kpkp = Tier(Material::parse("KPKP").unwrap().tier());
    // the double step e2e4 beside pd4 gives the right; e2e3 does not
    let before = chess
        .text_to_position("k7/8/8/8/3p4/8/4P3/K7 w - - 0 1")
        .unwrap();
    let with_right = chess.do_move(before, chess.text_to_move(before, "e4").unwrap());
    assert_eq!(
        chess.position_to_text(with_right),
        "k7/8/8/8/3pP3/8/8/K7 b - e3 0 1"
    );
    assert!(with_right.position >= 2 * 64u64.pow(4));
    assert_eq!(
        chess.text_to_position("k7/8/8/8/3pP3/8/8/K7 b - e3 0 1"),
        Ok(with_right)
    );
    let single = chess.do_move(before, chess.text_to_move(before, "e2e3").unwrap());
    assert_eq!(
        chess.position_to_text(single),
        "k7/8/8/8/3p4/4P3/8/K7 b - - 0 1"
    );
    // the same placement without the right is another position, with one move less
    let without = chess
        .text_to_position("k7/8/8/8/3pP3/8/8/K7 b - - 0 1")
        .unwrap();
    assert_ne!(without, with_right);
    assert_eq!(
        chess.tier_size(kpkp),
        2 * 64u64.pow(4) + index::EP_POSITIONS
    );
    // the capture removes the pawn that passed e3
    let taken = chess.do_move(with_right, chess.text_to_move(with_right, "dxe3").unwrap());
    assert_eq!(chess.tier_name(taken.tier), "KPK");
    assert_eq!(Material::of(&chess.board(taken)).name(), "KKP");
    assert_eq!(
        chess.position_to_text(taken),
        "k7/8/8/8/8/4p3/8/K7 w - - 0 1"
    );
    // the next move ends the right: after Ka8-b8 and Ka1-b1 the pawns stand as before
    // but nobody may take en passant
    let b8 = chess.do_move(with_right, chess.text_to_move(with_right, "Kb8").unwrap());
    assert_eq!(
        chess.position_to_text(b8),
        "1k6/8/8/8/3pP3/8/8/K7 w - - 0 1"
    );
    // a right that cannot be used is not recorded: ke3 would have stood in check
    // from Pe2 before the double step (so e2e4 cannot have been the last move), and a
    // pawn on a4 has no black pawn beside it
    let p = chess
        .text_to_position("8/8/8/8/3pP3/5k2/8/K7 b - e3 0 1")
        .unwrap();
    assert_eq!(chess.position_to_text(p), "8/8/8/8/3pP3/5k2/8/K7 b - - 0 1");
    let p = chess
        .text_to_position("k7/8/8/8/P7/8/6p1/K7 b - a3 0 1")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(chess.position_to_text(p), "k7/8/8/8/P7/8/6p1/K7 b - - 0 1");
    // FEN errors: no pawn has passed the square, or it does not fit the side to move
    assert!(chess
        .text_to_position("k7/8/8/8/3p4/8/8/K7 b - e3 0 1")
        .is_err());
    assert!(chess
        .text_to_position("k7/8/8/8/3pP3/8/8/K7 w - e3 0 1")
        .is_err());
    // black's double step: c7c5 beside Pd5 gives white the right (dxc6)
    let p = chess
        .text_to_position("k7/2p5/8/3P4/8/8/8/K7 b - - 0 1")
        .unwrap();
    let q = chess.do_move(p, chess.text_to_move(p, "c5").unwrap());
    assert_eq!(chess.position_to_text(q), "k7/8/8/2pP4/8/8/8/K7 w - c6 0 1");
    let r = chess.do_move(q, chess.text_to_move(q, "dxc6").unwrap());
    assert_eq!(chess.position_to_text(r), "k7/8/2P5/8/8/8/8/K7 b - - 0 1");
    // the mirror image keeps the right (left-right is KPKP's symmetry)
    let board = chess.board(q);
    assert_eq!(
        index::canonical(&board.transform(1)),
        chess.canonical_position(q)
    );
}

fn children(chess: &Chess, p: TierPosition) -> Vec<TierPosition> {
    let mut buf = vec![Move::default(); chess.properties().max_moves as usize];
    let mut ms = List::new(&mut buf);
    chess.generate_moves(p, &mut ms);
    ms.as_slice().iter().map(|&m| chess.do_move(p, m)).collect()
}

fn parents(chess: &Chess, c: TierPosition, tier: Tier) -> Vec<TierPosition> {
    let mut ubuf = vec![UndoMove::default(); chess.properties().max_undo_moves as usize];
    let mut us = List::new(&mut ubuf);
    chess.generate_undo_moves_to_tier(c, tier, &mut us);
    assert!(!us.overflowed());
    us.as_slice()
        .iter()
        .map(|&u| chess.undo_move(c, u))
        .collect()
}

/// Moves and undo moves agree both ways around every KPKP position with a right to
/// take en passant: its children list it as a parent, its parents list it as a child,
/// and so do the children's other parents (positions one move after a right was
/// given up).
#[test]
fn en_passant_moves_and_undo_moves_agree() {
    let chess = Chess::new_for_tests("KPKP");
    let kpkp = Tier(Material::parse("KPKP").unwrap().tier());
    let plain = 2 * 64u64.pow(4);
    let canon = |p: TierPosition| chess.canonical_position(p);
    let (mut with_right, mut checked) = (0, 0);
    for i in plain..chess.tier_size(kpkp) {
        let p = TierPosition::new(kpkp, i);
        if !chess.is_legal(p) || canon(p) != p {
            continue;
        }
        with_right += 1;
        // its parents (a double step, with or without a right of their own)
        for q in parents(&chess, p, kpkp) {
            assert!(chess.is_legal(q));
            assert!(
                children(&chess, q).into_iter().any(|c| canon(c) == p),
                "{} is not a child of its parent {}",
                chess.position_to_text(p),
                chess.position_to_text(q)
            );
        }
        for c in children(&chess, p) {
            let c = canon(c);
            let ps = parents(&chess, c, kpkp);
            assert!(
                ps.iter().any(|&q| canon(q) == p),
                "{} -> {} not undone",
                chess.position_to_text(p),
                chess.position_to_text(c)
            );
            // every parent of the child has it as a child (no double step that would
            // have given a right, no right that does not exist)
            for q in ps {
                assert!(chess.is_legal(q), "{}", chess.position_to_text(q));
                assert!(
                    children(&chess, q).into_iter().any(|d| canon(d) == c),
                    "{} lists {} as a parent",
                    chess.position_to_text(c),
                    chess.position_to_text(q)
                );
                checked += 1;
            }
        }
    }
    eprintln!("{with_right} canonical positions with a right, {checked} parents checked");
    assert!(with_right > 1000, "{with_right}");
}
