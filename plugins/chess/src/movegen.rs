//! Chess move rules for endgame boards, as pgChess lays them out: pseudo-legal
//! ("prevalid") moves per piece, legal moves are those not leaving one's own king
//! attacked; plus the reverse (un-moves, un-captures, un-promotions) for the solver's
//! undo moves. No castling (endgame positions carry no rights). En passant: a double
//! step next to an enemy pawn gives the opponent the right to take en passant on the
//! next move only, recorded in `Board::ep` when the capture is legal.
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
    !in_check(b, b.stm ^ 1) && ep_is_valid(b)
}

/// The rank offset of a colour's pawn moves (+1 for white).
fn forward(colour: u8) -> i8 {
    if colour == WHITE {
        1
    } else {
        -1
    }
}

/// The rank (0-based) a colour's pawn reaches with a double step.
fn double_step_rank(colour: u8) -> u8 {
    if colour == WHITE {
        3
    } else {
        4
    }
}

/// The square an en-passant capture lands on: the one the pawn on `b.ep` passed.
pub fn ep_target(b: &Board) -> Option<u8> {
    let e = b.ep?;
    offset(e, (0, -forward(b.stm ^ 1)))
}

/// Whether `b.ep` (if set) is a right to take en passant that exists: the opponent's
/// pawn stands where a double step took it, the two squares it passed are empty, the
/// position before the double step was legal, and the side to move has a legal
/// capture en passant. A board where the capture would be illegal is the same
/// position as the board without the right, so it is not a position of its own.
pub fn ep_is_valid(b: &Board) -> bool {
    let Some(e) = b.ep else {
        return true;
    };
    let them = b.stm ^ 1;
    let Some(i) = b.at(e) else {
        return false;
    };
    let pawn = b.pieces[i];
    if pawn.kind != PAWN || pawn.colour != them || rank(e) != double_step_rank(them) {
        return false;
    }
    let passed = offset(e, (0, -forward(them))).expect("on the board");
    let start = offset(passed, (0, -forward(them))).expect("on the board");
    if b.occupied() & (1 << passed | 1 << start) != 0 {
        return false;
    }
    let mut before = *b;
    before.ep = None;
    before.pieces[i].sq = start;
    before.stm = them;
    if !is_legal_board(&before) {
        return false;
    }
    b.pieces().iter().any(|p| {
        p.colour == b.stm
            && p.kind == PAWN
            && rank(p.sq) == rank(e)
            && file(p.sq).abs_diff(file(e)) == 1
            && !in_check(
                &apply_plain(
                    b,
                    ChessMove {
                        from: p.sq,
                        to: passed,
                        promo: 0,
                    },
                ),
                b.stm,
            )
    })
}

/// The board after `m` (the caller gives a pseudo-legal move of the side to move),
/// with the opponent's right to take en passant when `m` is a double step that gives
/// one.
pub fn apply(b: &Board, m: ChessMove) -> Board {
    let c = apply_plain(b, m);
    let moved = c.pieces[c.at(m.to).expect("the moved piece")];
    if moved.kind == PAWN && rank(m.from).abs_diff(rank(m.to)) == 2 {
        let mut e = c;
        e.ep = Some(m.to);
        if ep_is_valid(&e) {
            return e;
        }
    }
    c
}

/// The board after `m` without any right to take en passant (enough to test checks).
fn apply_plain(b: &Board, m: ChessMove) -> Board {
    let mut c = *b;
    c.ep = None;
    let mover = c.pieces[c.at(m.from).expect("a piece on the from square")];
    if let Some(i) = c.at(m.to) {
        c.remove(i);
    } else if mover.kind == PAWN && file(m.from) != file(m.to) {
        // en passant: the pawn taken stands beside the from square
        let taken = rank(m.from) * 8 + file(m.to);
        let i = c.at(taken).expect("the pawn taken en passant");
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
            if let (Some(e), Some(t)) = (b.ep, ep_target(b)) {
                if rank(p.sq) == rank(e) && file(p.sq).abs_diff(file(e)) == 1 {
                    targets |= 1 << t;
                }
            }
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
            .filter(|&m| !in_check(&apply_plain(b, m), b.stm)),
    );
}

/// Whether the side to move has a legal move (stops at the first).
pub fn has_legal_move(b: &Board) -> bool {
    let mut pseudo = Vec::with_capacity(64);
    pseudo_moves(b, &mut pseudo);
    pseudo
        .into_iter()
        .any(|m| !in_check(&apply_plain(b, m), b.stm))
}

/// Every board `p` with `p.stm` = the side that just moved and a legal-looking move
/// of `p` giving `b`: un-moves, un-captures of any kind (`uncapture` lists the kinds to
/// try), un-promotions, and the en-passant rights involved: a board with a right to
/// take en passant has only the double step as its parent move, a double step that
/// would give such a right is not a parent of the board without it, an en-passant
/// capture is retracted too, and any parent may itself carry a right to take en
/// passant. The caller checks legality (`is_legal_board`, which rejects rights that do
/// not exist) and material of the results.
pub fn unmoves(b: &Board, uncapture: &[u8], out: &mut Vec<Board>) {
    let first = out.len();
    let mover = b.stm ^ 1;
    if let Some(e) = b.ep {
        // the last move was the double step to `e`
        if let (Some(i), Some(from)) = (b.at(e), offset(e, (0, -2 * forward(mover)))) {
            let mut parent = *b;
            parent.ep = None;
            parent.pieces[i].sq = from;
            parent.stm = mover;
            out.push(parent);
        }
    } else {
        plain_unmoves(b, uncapture, out);
    }
    // the side that just moved may have had the right to take en passant, and not
    // used it
    for k in first..out.len() {
        let q = out[k];
        if q.ep.is_some() {
            continue;
        }
        for p in q.pieces() {
            if p.kind == PAWN && p.colour != q.stm && rank(p.sq) == double_step_rank(p.colour) {
                let mut r = q;
                r.ep = Some(p.sq);
                out.push(r);
            }
        }
    }
}

/// `unmoves` for a board without a right to take en passant.
fn plain_unmoves(b: &Board, uncapture: &[u8], out: &mut Vec<Board>) {
    let mover = b.stm ^ 1;
    let occ = b.occupied();
    for (i, &p) in b.pieces().iter().enumerate() {
        if p.colour != mover {
            continue;
        }
        // (from square, kind the piece had before, whether a capture is required,
        // whether a capture is allowed)
        let mut froms: Vec<(u8, u8, bool, bool)> = Vec::new();
        let dr = forward(mover);
        let last = if mover == WHITE { 7 } else { 0 };
        if p.kind == PAWN {
            if let Some(f) = offset(p.sq, (0, -dr)) {
                if occ & (1 << f) == 0 {
                    froms.push((f, PAWN, false, false));
                    if rank(p.sq) == double_step_rank(mover) {
                        let f2 = offset(f, (0, -dr)).expect("on the board");
                        // a double step that gave a right to take en passant led to
                        // the board with that right, not to this one
                        let mut with_right = *b;
                        with_right.ep = Some(p.sq);
                        if occ & (1 << f2) == 0 && !ep_is_valid(&with_right) {
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
            // an en-passant capture: the pawn taken had passed this square with a
            // double step and stood behind it
            let passed_rank = double_step_rank(mover ^ 1) as i8 + dr;
            if rank(p.sq) as i8 == passed_rank && uncapture.contains(&PAWN) && b.n < MAX_PIECES {
                let taken = offset(p.sq, (0, -dr)).expect("on the board");
                let start = offset(p.sq, (0, dr)).expect("on the board");
                if occ & (1 << taken | 1 << start) == 0 {
                    for df in [-1, 1] {
                        if let Some(f) = offset(p.sq, (df, -dr)) {
                            if occ & (1 << f) == 0 {
                                let mut parent = *b;
                                parent.pieces[i].sq = f;
                                parent.stm = mover;
                                parent.push(PAWN, mover ^ 1, taken);
                                parent.ep = Some(taken);
                                out.push(parent);
                            }
                        }
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
