//! KQK, KRK, KPK and KBNK through the real solver, checked against published endgame
//! tablebase statistics.
//!
//! Two ways of counting appear below, and each number says which it is:
//! - *every legal position*: all placements of the pieces on the full board with the
//!   given side to move that are legal (kings apart, the side not to move not in
//!   check), not reduced by symmetry: KQK and KRK have 223,944 with black to move;
//! - *classes up to board symmetry*: positions equal under the 8 rotations and
//!   reflections of the board count once. These are exactly the canonical positions
//!   the solver stores (`canonical_position(p) == p`); KQK and KRK have 28,056 with
//!   black to move.
//!
//! Published numbers:
//! - Longest mates (Guido, Kirill Kryukov's chess forum thread "Longest Mate in kqk",
//!   <http://kirill-kryukov.com/chess/discussion-board/viewtopic.php?t=920>, counting
//!   classes up to board symmetry):
//!   KQK white to move wins in at most 10 moves, one position (Ka1 Qb2 kf5); black to
//!   move loses in at most 10 moves, eight positions (one is Ka1 Qb2 ke4).
//!   KRK white to move 16 moves, 121 positions (one is Ka1 Rb2 kc3); black to move 16
//!   moves, 390 positions (one is Ka1 Rb2 kc2).
//!   KPK white to move 28 moves, 3 positions (Ka2/Kb2/Ka3, Pg2, kb5); black to move 28
//!   moves, 2 positions (Ka3 Pg2 ka5, Ka3 Pg2 ka6).
//! - KRK with black to move, the whole distribution (M. Bain and A. van Hoff, Turing
//!   Institute, "Chess (King-Rook vs. King)" data set in the UCI Machine Learning
//!   Repository, <https://archive.ics.uci.edu/dataset/23/chess+king+rook+vs+king>,
//!   file `krkopt.data`, whose description gives the class distribution): 28,056
//!   black-to-move positions, white king restricted to the a1-d1-d4 triangle and
//!   illegal positions left out, which is one position per class up to board
//!   symmetry (28,056 = (223,944 + 2 x 252) / 8 by Burnside's lemma: the 252 legal
//!   placements with all three men on one long diagonal are fixed by that diagonal's
//!   reflection). Of these 2,796 are drawn (stalemate, or the rook can be taken) and
//!   black is lost in 0, 1, ..., 16 moves in 27, 78, 246, 81, 198, 471, 592, 683,
//!   1,433, 1,712, 1,985, 2,854, 3,597, 4,194, 4,553, 2,166 and 390 of them.
//! - Checkmates on the full board, every legal position (A. Luiro and A. Tiilikainen,
//!   "The Number of Simple Endgame Mates", Kemi Chess Club,
//!   <http://shakki.net/kerhot/KemTS/lopmates.htm>): 364 with king and queen against
//!   king, 216 with king and rook (27 classes times 8, as above).
//! - KQK drawn positions, black to move, every legal position: 23,048, all stalemates
//!   or positions where the queen can be taken (Wikibooks, "Chess/Analysis of KQK
//!   Endgame", <https://en.wikibooks.org/wiki/Chess/Analysis_of_KQK_Endgame>).
//!
//! - KBNK, the longest mates (Peter Karrer's table of maximal depths to mate for
//!   every 3- to 5-man endgame, posted by Guy Haworth in the same thread as
//!   `PK_maxDTM_stats.txt`: "kbnk wtm: max win 33 (138)"; a reply there notes that
//!   the ICGA spreadsheet gives 144 positions instead, so only the 138 of Karrer's
//!   own count, one position per class up to board symmetry, is asserted): white to
//!   move wins in at most 33 moves, in 138 classes.
//!
//! KPK's counts of won and drawn positions are our own values (kept as a regression
//! check); no published count to compare them with was found.
//!
//! Our remoteness counts plies: a win in N moves with the winner to move is 2N - 1
//! plies, a loss in N moves with the loser to move is 2N plies.

use chess::board::*;
use chess::tiers::Material;
use chess::{index, movegen, Chess};
use gamesman_host::engine::db::{self, Database, GameKey};
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Game, Tier, TierPosition, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

fn solve(variant: &str) -> (Chess, Arc<dyn Database>) {
    let game = GameHandle::from_static::<Chess>(variant).unwrap();
    let key = GameKey {
        game: "chess".into(),
        variant: variant.into(),
        winby: false,
        numbering: 0,
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
    /// Checkmates (losses at remoteness 0), every legal position (not reduced).
    mates: u64,
    /// Canonical positions (one per class under board symmetry) by value and
    /// remoteness: `(slot, remoteness)` with the slots of `all`.
    classes: BTreeMap<(usize, u32), u64>,
}

impl Stats {
    /// Canonical positions (classes under board symmetry) that lose in `n` moves for
    /// the side to move, `n = 0..=max`: a loss in `n` moves is `2n` plies.
    fn canonical_losses_by_moves(&self) -> Vec<u64> {
        let max = self.classes.keys().filter(|k| k.0 == 1).map(|k| k.1).max();
        (0..=max.unwrap_or(0) / 2)
            .map(|n| self.classes.get(&(1, 2 * n)).copied().unwrap_or(0))
            .collect()
    }

    /// Canonical positions that are neither won nor lost (ties and draws).
    fn canonical_non_decisive(&self) -> u64 {
        self.classes
            .iter()
            .filter(|(k, _)| k.0 >= 2)
            .map(|(_, &c)| c)
            .sum()
    }

    /// Every canonical position, whatever its value.
    fn canonical_total(&self) -> u64 {
        self.classes.values().sum()
    }
}

/// Counts over the numbers of the variant's own orientation (white has the piece); the
/// tier's other half, the colour-mirrored positions, holds the same games again.
fn stats(chess: &Chess, db: &dyn Database, stm: u8) -> Stats {
    let tier = Tier(chess.root.tier());
    let mut s = Stats::default();
    for i in (stm as u64..index::orientation_size(&chess.root)).step_by(2) {
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
        if r.value == Value::LOSE && r.remoteness == 0 {
            s.mates += 1;
        }
        if c == p {
            *s.classes.entry((slot, r.remoteness)).or_default() += 1;
        }
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

/// The stored value and remoteness of a position, looked up by its canonical form.
fn lookup(chess: &Chess, db: &dyn Database, p: TierPosition) -> (Value, u32) {
    let r = db
        .lookup(chess.canonical_position(p))
        .unwrap()
        .expect("stored");
    (r.value, r.remoteness)
}

/// The stored value and remoteness of a FEN position.
fn record(chess: &Chess, db: &dyn Database, fen: &str) -> (Value, u32) {
    lookup(chess, db, chess.text_to_position(fen).unwrap())
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
    // every legal position with black to move: 223,944 (Luiro and Tiilikainen's 364
    // checkmates among them); the same placements counted up to board symmetry are
    // 28,056 classes, the total of the UCI KRK set (KQK has the same legal placements)
    assert_eq!(b.all.iter().sum::<u64>(), 223_944);
    assert_eq!(b.mates, 364);
    assert_eq!(b.canonical_total(), 28_056);
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
    for i in (1..index::orientation_size(&chess.root)).step_by(2) {
        let p = TierPosition::new(tier, i);
        if !chess.is_legal(p) {
            continue;
        }
        let (value, _) = lookup(&chess, db.as_ref(), p);
        let b = chess.board(p);
        let mut moves = Vec::new();
        movegen::legal_moves(&b, &mut moves);
        let takes_queen = moves.iter().any(|m| b.at(m.to).is_some());
        match value {
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

/// Checks that every legal position among numbers `0, step, 2 step, ...` of `tier`
/// has the value its moves give, looking every position up through its canonical
/// form. Returns how many were checked in each half of the tier (for a tier that is
/// not its own colour mirror: white stronger, black stronger) and how many captures
/// by white and by black into a smaller tier were among the moves.
fn check_against_moves(
    chess: &Chess,
    db: &dyn Database,
    tier: Tier,
    step: u64,
) -> ([u64; 2], [u64; 2]) {
    let half = index::orientation_size(&Material::of_tier(tier.0).unwrap());
    let (mut checked, mut captures) = ([0u64; 2], [0u64; 2]);
    for i in (0..chess.tier_size(tier)).step_by(step as usize) {
        let p = TierPosition::new(tier, i);
        if !chess.is_legal(p) {
            continue;
        }
        let b = chess.board(p);
        let mut moves = Vec::new();
        movegen::legal_moves(&b, &mut moves);
        let (v, r) = lookup(chess, db, p);
        let at = chess.position_to_text(p);
        checked[(i >= half) as usize] += 1;
        if moves.is_empty() {
            let mate = movegen::in_check(&b, b.stm);
            let expected = if mate { Value::LOSE } else { Value::TIE };
            assert_eq!((v, r), (expected, 0), "{at}");
            continue;
        }
        let mut kids = Vec::new();
        for &m in &moves {
            let c = chess.position(&movegen::apply(&b, m));
            if c.tier != tier {
                captures[b.stm as usize] += 1;
            }
            kids.push(lookup(chess, db, c));
        }
        let losing = kids
            .iter()
            .filter(|k| k.0 == Value::LOSE)
            .map(|k| k.1)
            .min();
        if let Some(l) = losing {
            assert_eq!((v, r), (Value::WIN, l + 1), "{at}");
        } else if kids.iter().all(|k| k.0 == Value::WIN) {
            let longest = kids.iter().map(|k| k.1).max().unwrap();
            assert_eq!((v, r), (Value::LOSE, longest + 1), "{at}");
        } else {
            assert!(
                kids.iter().any(|k| k.0 == v),
                "{at}: {v:?} not among {kids:?}"
            );
            assert!(v == Value::TIE || v == Value::DRAW, "{at}: {v:?}");
        }
    }
    (checked, captures)
}

/// KQK and KKQ are one tier. Every legal position of both orientations (the solver
/// visits only canonical ones, white stronger) has the value its moves give: a move
/// keeps real colours, so a KKQ board's children are KKQ (or KK) boards, looked up
/// through their mirrored canonical positions.
#[test]
fn both_colour_orientations_agree_with_their_moves() {
    let (chess, db) = solve("KQK");
    let tier = Tier(chess.root.tier());
    assert_eq!(
        chess.tier_size(tier),
        2 * index::orientation_size(&chess.root)
    );
    let (checked, _) = check_against_moves(&chess, db.as_ref(), tier, 1);
    // every legal placement with either side to move, in each orientation: 144,508
    // with the queen's side to move and 223,944 with the lone king's
    assert_eq!(checked, [368_452, 368_452]);
    // a real KKQ position has the value of its mirror: the longest KQK win
    assert_eq!(
        record(&chess, db.as_ref(), "k7/1q6/8/8/5K2/8/8/8 b - - 0 1"),
        (Value::WIN, 19)
    );
}

/// KQKQ is its own colour mirror: white taking the queen leads to KQK with black to
/// move, black taking it to KKQ with white to move, and both are stored as KQK
/// positions. A spread of KQKQ positions, where both sides capture, has the values
/// their moves give.
#[test]
fn a_self_mirrored_tier_reaches_its_child_from_both_sides() {
    let (chess, db) = solve("KQKQ");
    let names: Vec<String> = chess.tiers.iter().map(|m| m.name()).collect();
    assert_eq!(names, ["KQKQ", "KQK", "KK"]);
    let tier = Tier(chess.root.tier());
    let (checked, captures) = check_against_moves(&chess, db.as_ref(), tier, 101);
    assert_eq!(checked, [177_258, 0]);
    assert!(captures[0] > 10_000 && captures[1] > 10_000, "{captures:?}");
    // the same placement with colours swapped and the other side to move (ranks
    // mirrored) has the same value
    let a = record(&chess, db.as_ref(), "8/8/8/k6K/8/8/1q4Q1/8 w - - 0 1");
    let b = record(&chess, db.as_ref(), "8/1Q4q1/8/8/K6k/8/8/8 b - - 0 1");
    assert_eq!(a, b);
    assert_eq!(a, (Value::WIN, 13));
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
    assert_eq!(b.all.iter().sum::<u64>(), 223_944);
    // Luiro and Tiilikainen: 216 checkmates on the full board
    assert_eq!(b.mates, 216);
    // the UCI KRK data set (Bain and van Hoff): black to move, one position per class
    // up to board symmetry; 2,796 drawn, and lost in n = 0..=16 moves as listed
    assert_eq!(b.canonical_total(), 28_056);
    assert_eq!(b.canonical_non_decisive(), 2_796);
    assert_eq!(
        b.canonical_losses_by_moves(),
        [
            27, 78, 246, 81, 198, 471, 592, 683, 1_433, 1_712, 1_985, 2_854, 3_597, 4_194, 4_553,
            2_166, 390
        ]
    );
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

#[test]
fn kbnk_matches_published_numbers() {
    let (chess, db) = solve("KBNK");
    let w = stats(&chess, db.as_ref(), WHITE);
    let b = stats(&chess, db.as_ref(), BLACK);
    eprintln!("KBNK wtm {w:?}\nKBNK btm {b:?}");
    // Karrer: white to move mates in at most 33 moves (65 plies), 138 classes
    assert_eq!((w.max, w.at_max), (65, 138));
    // black to move then loses in at most 33 moves too (66 plies)
    assert_eq!(b.max, 66);
    // our own counts over every legal position (a regression check; no published
    // count was found): white to move wins 99.5%; the rest are ties, where black wins
    // a piece and the other cannot mate (KBK and KNK hold stalemates, so their
    // non-decisive values are ties, not draws); black to move has 464 checkmates
    assert_eq!(w.all, [10_822_184, 0, 53_320, 0]);
    assert_eq!(b.all, [0, 11_188_168, 2_472_416, 0]);
    assert_eq!(b.mates, 464);
}
