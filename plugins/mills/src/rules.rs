//! The rules of the Mills variants, as GamesmanOne's pull request 27 plays them.
//!
//! A state is the pieces in hand and on the board for each side (its tier, `Counts`),
//! the two sides' point masks and the side to move (0 the first player, X; 1 O).
//! Placing takes a piece from the hand; in the Lasker rule a side may place or move on
//! every turn, otherwise it moves only once its hand is empty. A move slides a piece to
//! a neighbouring empty point, or flies it to any empty point when the side may fly
//! (pieces on the board at most the threshold, or on the board and in hand under the
//! Lasker rule). A move that closes a mill through its destination removes one
//! opposing piece: one not in a mill, or any if all are (standard removal); when the
//! opponent has no piece on the board the move removes nothing. A side with two pieces
//! left (in hand and on the board) loses, as does a side to move with no move; in
//! Morabaraba a full board is a tie.
//!
//! The side to move follows from the counts wherever it can (GamesmanOne's fixed-turn
//! tiers): while pieces are in hand without the Lasker rule (X has placed as many as
//! O, or one more), and wherever a side is down to two pieces or (Lasker) has none on
//! the board. In other tiers either side may be to move, and the state says which.
//!
//! A move is `src | dest << 5 | remove << 10`, with `src` = `NONE` for a placement and
//! `remove` = `NONE` for none; an undo move is the move it takes back.
//!
//! This file holds the rules only: no numbering of positions, no text.

use crate::board::Geometry;

/// `src` of a placement, `remove` of a move that removes nothing.
pub const NONE: usize = 31;

/// Pieces in hand and on the board for each side: a tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Counts {
    /// Pieces in hand, X then O.
    pub hand: [u8; 2],
    /// Pieces on the board, X then O.
    pub board: [u8; 2],
}

impl Counts {
    /// The tier number.
    pub fn encode(self) -> u64 {
        self.hand[0] as u64
            | (self.hand[1] as u64) << 8
            | (self.board[0] as u64) << 16
            | (self.board[1] as u64) << 24
    }

    /// The counts of a tier number (not checked against a variant).
    pub fn decode(t: u64) -> Option<Counts> {
        if t >> 32 != 0 {
            return None;
        }
        Some(Counts {
            hand: [t as u8, (t >> 8) as u8],
            board: [(t >> 16) as u8, (t >> 24) as u8],
        })
    }

    /// Pieces left to side `s`, in hand and on the board.
    pub fn left(self, s: usize) -> u8 {
        self.hand[s] + self.board[s]
    }
}

/// A position: counts, both sides' masks, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The tier.
    pub counts: Counts,
    /// The points of X (0) and O (1).
    pub bits: [u32; 2],
    /// The side to move.
    pub turn: usize,
}

/// A move, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveParts {
    /// The point moved from, `None` for a placement.
    pub src: Option<usize>,
    /// The point moved or placed to.
    pub dest: usize,
    /// The opposing piece removed, if any.
    pub remove: Option<usize>,
}

impl MoveParts {
    /// The move's number.
    pub fn encode(self) -> u64 {
        (self.src.unwrap_or(NONE) | self.dest << 5 | self.remove.unwrap_or(NONE) << 10) as u64
    }

    /// The move of a number (fields checked for range only).
    pub fn decode(m: u64) -> Option<MoveParts> {
        if m >> 15 != 0 {
            return None;
        }
        let f = |v: u64| (v != NONE as u64).then_some(v as usize);
        Some(MoveParts {
            src: f(m & 31),
            dest: (m >> 5 & 31) as usize,
            remove: f(m >> 10 & 31),
        })
    }
}

/// A variant's rules.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The board.
    pub geo: Geometry,
    /// Pieces per side.
    pub pieces: u8,
    /// A side may fly with at most this many pieces (0: never).
    pub fly: u8,
    /// Lasker: place or move on every turn; flying counts pieces in hand too.
    pub lasker: bool,
    /// A full board is a tie (Morabaraba).
    pub full_board_ties: bool,
}

impl Rules {
    /// The tier of the initial position.
    pub fn initial(&self) -> Counts {
        Counts {
            hand: [self.pieces; 2],
            board: [0; 2],
        }
    }

    /// The side to move in every position of `c`, or `None` when either may be.
    pub fn fixed_turn(&self, c: Counts) -> Option<usize> {
        if self.lasker {
            if c.board[0] == 0 {
                return Some(0);
            }
            if c.board[1] == 0 {
                return Some(1);
            }
        } else if c.hand[0] + c.hand[1] > 0 {
            return Some(usize::from(c.hand[0] != c.hand[1]));
        }
        if c.left(0) == 2 {
            Some(0)
        } else if c.left(1) == 2 {
            Some(1)
        } else {
            None
        }
    }

    /// Whether `c` can be a tier of this variant at all (counts in range, room on
    /// the board, hands as the alternation allows).
    pub fn plausible(&self, c: Counts) -> bool {
        let ok = (0..2).all(|s| c.left(s) <= self.pieces && c.left(s) >= 2);
        ok && (c.board[0] + c.board[1]) as usize <= self.geo.n
            && (self.lasker || c.hand[0] == c.hand[1] || c.hand[0] + 1 == c.hand[1])
    }

    /// The tiers the positions of `c` lead to, `c` itself first when its positions
    /// can lead to each other.
    pub fn child_tiers(&self, c: Counts) -> Vec<Counts> {
        if c.left(0) == 2 || c.left(1) == 2 {
            return Vec::new();
        }
        let mut out = Vec::new();
        let place = |c: Counts, s: usize, out: &mut Vec<Counts>| {
            let mut d = c;
            d.hand[s] -= 1;
            d.board[s] += 1;
            out.push(d);
            if d.board[s] >= 3 && d.board[1 - s] > 0 {
                d.board[1 - s] -= 1;
                out.push(d);
            }
        };
        match self.fixed_turn(c) {
            Some(s) if !self.lasker => place(c, s, &mut out),
            // Lasker with a side without pieces on the board: it must place.
            Some(s) => place(c, s, &mut out),
            None => {
                out.push(c);
                for s in 0..2 {
                    if c.board[s] >= 3 {
                        let mut d = c;
                        d.board[1 - s] -= 1;
                        out.push(d);
                    }
                    if self.lasker && c.hand[s] > 0 {
                        place(c, s, &mut out);
                    }
                }
            }
        }
        let mut seen = Vec::new();
        out.retain(|d| {
            let fresh = !seen.contains(d);
            seen.push(*d);
            fresh
        });
        out
    }

    /// Every tier reachable from the initial one, children before parents.
    pub fn tiers(&self) -> Vec<Counts> {
        let mut order = Vec::new();
        let mut seen = std::collections::HashSet::new();
        // Depth-first post-order: a tier after all its children.
        let mut stack = vec![(self.initial(), false)];
        while let Some((c, done)) = stack.pop() {
            if done {
                order.push(c);
                continue;
            }
            if !seen.insert(c) {
                continue;
            }
            stack.push((c, true));
            for d in self.child_tiers(c) {
                if d != c && !seen.contains(&d) {
                    stack.push((d, false));
                }
            }
        }
        order
    }

    /// Whether side `s` may fly in tier `c`.
    pub fn flies(&self, c: Counts, s: usize) -> bool {
        let n = if self.lasker { c.left(s) } else { c.board[s] };
        n <= self.fly
    }

    /// The opposing pieces a mill may remove from `pattern` (standard removal).
    pub fn removable(&self, pattern: u32) -> u32 {
        let free = pattern & !self.geo.in_mills(pattern);
        if free == 0 {
            pattern
        } else {
            free
        }
    }

    fn blanks(&self, s: &State) -> u32 {
        !(s.bits[0] | s.bits[1]) & self.geo.all
    }

    /// Calls `f` with every legal move of `s` (which must not be primitive for the
    /// list to mean anything), in a fixed order.
    pub fn for_each_move(&self, s: &State, mut f: impl FnMut(MoveParts)) {
        let me = s.turn;
        let removable = self.removable(s.bits[1 - me]);
        let blanks = self.blanks(s);
        let mut emit = |src: Option<usize>, dest: usize, own_after: u32| {
            if removable != 0 && self.geo.in_mill_at(own_after, dest) {
                for r in bits(removable) {
                    f(MoveParts {
                        src,
                        dest,
                        remove: Some(r),
                    });
                }
            } else {
                f(MoveParts {
                    src,
                    dest,
                    remove: None,
                });
            }
        };
        if s.counts.hand[me] > 0 {
            for d in bits(blanks) {
                emit(None, d, s.bits[me] | 1 << d);
            }
        }
        if self.lasker || s.counts.hand[me] == 0 {
            let fly = self.flies(s.counts, me);
            for src in bits(s.bits[me]) {
                let dests = if fly {
                    blanks
                } else {
                    self.geo.adjacent[src] & blanks
                };
                for d in bits(dests) {
                    emit(Some(src), d, (s.bits[me] & !(1 << src)) | 1 << d);
                }
            }
        }
    }

    /// Whether `s` has a legal move.
    pub fn has_move(&self, s: &State) -> bool {
        let me = s.turn;
        let blanks = self.blanks(s);
        if blanks == 0 {
            return false;
        }
        if s.counts.hand[me] > 0 {
            return true;
        }
        if self.flies(s.counts, me) {
            return s.bits[me] != 0;
        }
        bits(s.bits[me]).any(|src| self.geo.adjacent[src] & blanks != 0)
    }

    /// Whether `m` is a legal move of `s`.
    pub fn is_legal_move(&self, s: &State, m: MoveParts) -> bool {
        let me = s.turn;
        let blanks = self.blanks(s);
        let n = self.geo.n;
        if m.dest >= n || blanks >> m.dest & 1 == 0 {
            return false;
        }
        let own_after = match m.src {
            None => {
                if s.counts.hand[me] == 0 {
                    return false;
                }
                s.bits[me] | 1 << m.dest
            }
            Some(src) => {
                if !(self.lasker || s.counts.hand[me] == 0)
                    || src >= n
                    || s.bits[me] >> src & 1 == 0
                    || !(self.flies(s.counts, me) || self.geo.adjacent[src] >> m.dest & 1 == 1)
                {
                    return false;
                }
                (s.bits[me] & !(1 << src)) | 1 << m.dest
            }
        };
        let removable = self.removable(s.bits[1 - me]);
        let closes = removable != 0 && self.geo.in_mill_at(own_after, m.dest);
        match (closes, m.remove) {
            (true, Some(r)) => r < n && removable >> r & 1 == 1,
            (false, None) => true,
            _ => false,
        }
    }

    /// The position after the legal move `m` of `s`.
    pub fn apply(&self, s: &State, m: MoveParts) -> State {
        let me = s.turn;
        let mut t = *s;
        match m.src {
            None => {
                t.counts.hand[me] -= 1;
                t.counts.board[me] += 1;
            }
            Some(src) => t.bits[me] &= !(1 << src),
        }
        t.bits[me] |= 1 << m.dest;
        if let Some(r) = m.remove {
            t.bits[1 - me] &= !(1 << r);
            t.counts.board[1 - me] -= 1;
        }
        t.turn = 1 - me;
        t
    }

    /// Whether `s` ends the game before any move (a full board in Morabaraba, or a
    /// side down to two pieces): `Some(true)` a tie, `Some(false)` a loss for the side
    /// to move; `None` otherwise (the side to move may still have no move).
    pub fn terminal(&self, c: Counts) -> Option<bool> {
        if self.full_board_ties && (c.board[0] + c.board[1]) as usize == self.geo.n {
            return Some(true);
        }
        if c.left(0) == 2 || c.left(1) == 2 {
            return Some(false);
        }
        None
    }

    /// The parent reached by taking back move `m` (made by the side not to move) from
    /// `s`; the caller checks that it is real (`can_be_parent` and `is_legal_move`).
    pub fn unapply(&self, s: &State, m: MoveParts) -> State {
        let last = 1 - s.turn;
        let mut p = *s;
        p.turn = last;
        p.bits[last] &= !(1 << m.dest);
        match m.src {
            None => {
                p.counts.hand[last] += 1;
                p.counts.board[last] -= 1;
            }
            Some(src) => p.bits[last] |= 1 << src,
        }
        if let Some(r) = m.remove {
            p.bits[s.turn] |= 1 << r;
            p.counts.board[s.turn] += 1;
        }
        p
    }

    /// Whether a position of tier `c` with `turn` to move can be a parent at all: a
    /// plausible tier, that side allowed to move in it, and the game not over (a real
    /// parent of `s` by `m` also has `m` legal).
    pub fn can_be_parent(&self, c: Counts, turn: usize) -> bool {
        self.plausible(c)
            && self.fixed_turn(c).is_none_or(|t| t == turn)
            && self.terminal(c).is_none()
    }

    /// Calls `f` with every move that leads from a real parent in tier `parent` to `s`.
    pub fn for_each_undo(&self, s: &State, parent: Counts, mut f: impl FnMut(MoveParts)) {
        let me = s.turn;
        let last = 1 - me;
        let c = s.counts;
        let blanks = self.blanks(s);
        let placed = parent.hand[last] == c.hand[last] + 1
            && parent.board[last] + 1 == c.board[last]
            && parent.hand[me] == c.hand[me];
        let slid = parent.hand == c.hand && parent.board[last] == c.board[last];
        let removed = if parent.board[me] == c.board[me] + 1 {
            true
        } else if parent.board[me] == c.board[me] {
            false
        } else {
            return;
        };
        if !placed && !slid {
            return;
        }
        // Every undo move below leads to tier `parent` with `last` to move, so that is
        // asked once here.
        if !self.can_be_parent(parent, last) {
            return;
        }
        // What remains of the forward move's legality is settled here for all the undo
        // moves at once, not move by move (`is_legal_move`, which the tests hold this
        // to): the parent's hand allows a slide (a placement's hand holds the piece);
        // the moved piece's point is blank in the parent and its source a neighbour,
        // or any blank point when the mover flies; after the move the mover's pieces
        // are `s`'s, so whether it closes a mill depends on its point alone; without a
        // removal it must not close one (unless `me` had no piece to remove); with one,
        // the piece put back must be one the mill could take.
        if slid && !(self.lasker || parent.hand[last] == 0) {
            return;
        }
        let (own, theirs) = (s.bits[last], s.bits[me]);
        let mut takeable = None;
        let fly = self.flies(parent, last);
        for dest in bits(own) {
            let closes = self.geo.in_mill_at(own, dest);
            if closes != removed && (removed || theirs != 0) {
                continue;
            }
            // Where the piece on `dest` came from: the hand, or a point of `from`.
            let from = if placed {
                0
            } else if fly {
                blanks
            } else {
                self.geo.adjacent[dest] & blanks
            };
            let hand = placed.then_some(None);
            for src in hand.into_iter().chain(bits(from).map(Some)) {
                if removed {
                    // The blank points whose piece a mill could take were it back.
                    let takeable = *takeable.get_or_insert_with(|| {
                        bits(blanks)
                            .filter(|&r| self.removable(theirs | 1 << r) >> r & 1 == 1)
                            .fold(0u32, |m, r| m | 1 << r)
                    });
                    for r in bits(takeable & !src.map_or(0, |x| 1 << x)) {
                        f(MoveParts {
                            src,
                            dest,
                            remove: Some(r),
                        });
                    }
                } else {
                    f(MoveParts {
                        src,
                        dest,
                        remove: None,
                    });
                }
            }
        }
    }
}

/// The set bits of `m`, lowest first.
pub fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mills;
    use gamesman_plugin_api::TierPosition;

    /// The undo moves as they were found before: every candidate taken back, and kept
    /// when the forward move is legal from the parent it gives.
    fn undo_by_checks(r: &Rules, s: &State, parent: Counts) -> Vec<MoveParts> {
        let (me, last, c) = (s.turn, 1 - s.turn, s.counts);
        let blanks = r.blanks(s);
        let placed = parent.hand[last] == c.hand[last] + 1
            && parent.board[last] + 1 == c.board[last]
            && parent.hand[me] == c.hand[me];
        let slid = parent.hand == c.hand && parent.board[last] == c.board[last];
        let removed = match parent.board[me].checked_sub(c.board[me]) {
            Some(1) => true,
            Some(0) => false,
            _ => return Vec::new(),
        };
        if !(placed || slid) || !r.can_be_parent(parent, last) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for dest in bits(s.bits[last]) {
            let sources: Vec<Option<usize>> = if placed {
                vec![None]
            } else {
                bits(blanks).map(Some).collect()
            };
            for src in sources {
                let removals: Vec<Option<usize>> = if removed {
                    bits(blanks & !src.map_or(0, |x| 1 << x))
                        .map(Some)
                        .collect()
                } else {
                    vec![None]
                };
                for remove in removals {
                    let m = MoveParts { src, dest, remove };
                    if r.is_legal_move(&r.unapply(s, m), m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The undo moves equal the checked candidates' on a spread of every tier of each
    /// variant, towards every tier of the variant, and each leads back by its move.
    #[test]
    fn undo_moves_are_the_legal_ones_taken_back() {
        for (variant, step) in [
            ("5mm", 13),
            ("6mm", 499),
            ("7mm", 5003),
            ("9mm", 1_000_003),
            ("lasker", 4_000_037),
            ("morabaraba", 2_000_003),
        ] {
            let g = Mills::new_for_tests(variant);
            let tiers: Vec<Counts> = g.tier_list().iter().map(|&t| g.info(t).counts).collect();
            let (mut moves, mut removals) = (0, 0);
            for t in g.tier_list() {
                let info = g.info(t);
                for i in (0..info.prefix()).step_by(step) {
                    let s = g.state(TierPosition::new(t, i));
                    for &parent in &tiers {
                        let mut got = Vec::new();
                        g.rules.for_each_undo(&s, parent, |m| got.push(m));
                        assert_eq!(got, undo_by_checks(&g.rules, &s, parent), "{variant} {s:?}");
                        for m in got {
                            assert_eq!(g.rules.apply(&g.rules.unapply(&s, m), m), s);
                            moves += 1;
                            removals += m.remove.is_some() as u32;
                        }
                    }
                }
            }
            assert!(
                moves > 20_000 && removals > 5_000,
                "{variant}: {moves} {removals}"
            );
        }
    }
}
