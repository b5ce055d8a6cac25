//! Chess move rules for endgame boards, as pgChess lays them out: pseudo-legal
//! ("prevalid") moves per piece, legal moves are those not leaving one's own king
//! attacked; plus the reverse (un-moves, un-captures, un-promotions) for the solver's
//! undo moves. No castling (endgame positions carry no rights) and no en passant (see
//! the crate docs).
//!
//! This file works on `Board`s only: it must not know tiers or position numbers.

use crate::board::*;

/// King and knight steps as (file, rank) offsets.
const KING_STEPS: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];
const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A move: from, to, and the kind promoted to (or `KING` = 0 for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessMove {
    /// Square left.
    pub from: u8,
    /// Square reached.
    pub to: u8,
    /// `QUEEN`..`KNIGHT` for a promotion, 0 otherwise.
    pub promo: u8,
}

impl ChessMove {
    /// The move in coordinate notation (`e7e8q`).
    pub fn text(&self) -> String {
        let mut s = format!("{}{}", square_name(self.from), square_name(self.to));
        if self.promo != 0 {
            s.push(kind_letter(self.promo).to_ascii_lowercase());
        }
        s
    }
}

fn offset(sq: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let f = file(sq) as i8 + df;
    let r = rank(sq) as i8 + dr;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as u8)
}

/// Squares a sliding piece on `sq` reaches along `dirs`, stopping at (and including)
/// the first occupied square.
fn slide(sq: u8, dirs: &[(i8, i8)], occ: u64) -> u64 {
    let mut set = 0;
    for &d in dirs {
        let mut s = sq;
        while let Some(t) = offset(s, d) {
            set |= 1 << t;
            if occ & (1 << t) != 0 {
                break;
            }
            s = t;
        }
    }
    set
}

fn steps(sq: u8, table: &[(i8, i8)]) -> u64 {
    table
        .iter()
        .filter_map(|&d| offset(sq, d))
        .fold(0, |a, t| a | 1 << t)
}

/// The squares a piece attacks (for a pawn: its two capture squares).
pub fn attacks(p: Piece, occ: u64) -> u64 {
    match p.kind {
        KING => steps(p.sq, &KING_STEPS),
        KNIGHT => steps(p.sq, &KNIGHT_STEPS),
        ROOK => slide(p.sq, &ROOK_DIRS, occ),
        BISHOP => slide(p.sq, &BISHOP_DIRS, occ),
        QUEEN => slide(p.sq, &ROOK_DIRS, occ) | slide(p.sq, &BISHOP_DIRS, occ),
        _ => {
            let dr = if p.colour == WHITE { 1 } else { -1 };
            steps(p.sq, &[(-1, dr), (1, dr)])
        }
    }
}

/// Whether `sq` is attacked by a piece of colour `by`.
pub fn attacked(b: &Board, sq: u8, by: u8) -> bool {
    let occ = b.occupied();
    b.pieces()
        .iter()
        .any(|&p| p.colour == by && attacks(p, occ) & (1 << sq) != 0)
}

/// Whether `colour`'s king is attacked.
pub fn in_check(b: &Board, colour: u8) -> bool {
    attacked(b, b.king(colour), colour ^ 1)
}

/// Whether the board breaks a placement rule: two pieces on a square, kings adjacent,
/// the side not to move in check, a pawn on rank 1 or 8.
pub fn is_legal_board(b: &Board) -> bool {
    let ps = b.pieces();
    for (i, p) in ps.iter().enumerate() {
        if ps[..i].iter().any(|q| q.sq == p.sq) {
            return false;
        }
        if p.kind == PAWN && (rank(p.sq) == 0 || rank(p.sq) == 7) {
            return false;
        }
    }
    let (wk, bk) = (b.king(WHITE), b.king(BLACK));
    if steps(wk, &KING_STEPS) & (1 << bk) != 0 {
        return false;
    }
    !in_check(b, b.stm ^ 1)
}

/// The board after `m` (the caller gives a pseudo-legal move of the side to move).
pub fn apply(b: &Board, m: ChessMove) -> Board {
    let mut c = *b;
    if let Some(i) = c.at(m.to) {
        c.remove(i);
    }
    let i = c.at(m.from).expect("a piece on the from square");
    c.pieces[i].sq = m.to;
    if m.promo != 0 {
        c.pieces[i].kind = m.promo;
    }
    c.stm ^= 1;
    c
}

/// Every pseudo-legal move of the side to move (may leave its own king attacked).
pub fn pseudo_moves(b: &Board, out: &mut Vec<ChessMove>) {
    let occ = b.occupied();
    let own = b
        .pieces()
        .iter()
        .filter(|p| p.colour == b.stm)
        .fold(0u64, |o, p| o | 1 << p.sq);
    let enemy = occ & !own;
    let enemy_king = 1u64 << b.king(b.stm ^ 1);
    for &p in b.pieces().iter().filter(|p| p.colour == b.stm) {
        if p.kind == PAWN {
            let dr: i8 = if p.colour == WHITE { 1 } else { -1 };
            let last = if p.colour == WHITE { 7 } else { 0 };
            let mut targets = attacks(p, occ) & enemy & !enemy_king;
            if let Some(t) = offset(p.sq, (0, dr)) {
                if occ & (1 << t) == 0 {
                    targets |= 1 << t;
                    let start = if p.colour == WHITE { 1 } else { 6 };
                    if rank(p.sq) == start {
                        let t2 = offset(t, (0, dr)).expect("on the board");
                        if occ & (1 << t2) == 0 {
                            targets |= 1 << t2;
                        }
                    }
                }
            }
            for to in bits(targets) {
                if rank(to) == last {
                    for promo in [QUEEN, ROOK, BISHOP, KNIGHT] {
                        out.push(ChessMove {
                            from: p.sq,
                            to,
                            promo,
                        });
                    }
                } else {
                    out.push(ChessMove {
                        from: p.sq,
                        to,
                        promo: 0,
                    });
                }
            }
        } else {
            for to in bits(attacks(p, occ) & !own & !enemy_king) {
                out.push(ChessMove {
                    from: p.sq,
                    to,
                    promo: 0,
                });
            }
        }
    }
}

/// The squares of a bit set, lowest first.
pub fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros() as u8;
            set &= set - 1;
            s
        })
    })
}

/// Every legal move of the side to move.
pub fn legal_moves(b: &Board, out: &mut Vec<ChessMove>) {
    let mut pseudo = Vec::with_capacity(64);
    pseudo_moves(b, &mut pseudo);
    out.extend(
        pseudo
            .into_iter()
            .filter(|&m| !in_check(&apply(b, m), b.stm)),
    );
}

/// Whether the side to move has a legal move (stops at the first).
pub fn has_legal_move(b: &Board) -> bool {
    let mut pseudo = Vec::with_capacity(64);
    pseudo_moves(b, &mut pseudo);
    pseudo.into_iter().any(|m| !in_check(&apply(b, m), b.stm))
}

/// Every board `p` with `p.stm` = the side that just moved and a pseudo-legal move of
/// `p` giving `b`: un-moves, un-captures of any kind (`uncapture` lists the kinds to
/// try) and un-promotions. The caller checks legality and material of the results.
pub fn unmoves(b: &Board, uncapture: &[u8], out: &mut Vec<Board>) {
    let mover = b.stm ^ 1;
    let occ = b.occupied();
    for (i, &p) in b.pieces().iter().enumerate() {
        if p.colour != mover {
            continue;
        }
        // (from square, kind the piece had before, whether a capture is required,
        // whether a capture is allowed)
        let mut froms: Vec<(u8, u8, bool, bool)> = Vec::new();
        let dr: i8 = if mover == WHITE { 1 } else { -1 };
        let last = if mover == WHITE { 7 } else { 0 };
        if p.kind == PAWN {
            if let Some(f) = offset(p.sq, (0, -dr)) {
                if occ & (1 << f) == 0 {
                    froms.push((f, PAWN, false, false));
                    let double_rank = if mover == WHITE { 3 } else { 4 };
                    if rank(p.sq) == double_rank {
                        let f2 = offset(f, (0, -dr)).expect("on the board");
                        if occ & (1 << f2) == 0 {
                            froms.push((f2, PAWN, false, false));
                        }
                    }
                }
            }
            for df in [-1, 1] {
                if let Some(f) = offset(p.sq, (df, -dr)) {
                    if occ & (1 << f) == 0 {
                        froms.push((f, PAWN, true, true));
                    }
                }
            }
        } else {
            if p.kind != KING {
                // the retracted move may have been a promotion
                if rank(p.sq) == last {
                    for df in [-1, 0, 1] {
                        if let Some(f) = offset(p.sq, (df, -dr)) {
                            if occ & (1 << f) == 0 {
                                froms.push((f, PAWN, df != 0, df != 0));
                            }
                        }
                    }
                }
            }
            // pieces other than pawns move the same way backwards as forwards
            for f in bits(attacks(p, occ) & !occ) {
                froms.push((f, p.kind, false, true));
            }
        }
        for (f, kind, must_capture, may_capture) in froms {
            let mut parent = *b;
            parent.pieces[i].sq = f;
            parent.pieces[i].kind = kind;
            parent.stm = mover;
            if !must_capture {
                out.push(parent);
            }
            if may_capture && parent.n < MAX_PIECES {
                for &k in uncapture {
                    let mut q = parent;
                    q.push(k, mover ^ 1, p.sq);
                    out.push(q);
                }
            }
        }
    }
}
