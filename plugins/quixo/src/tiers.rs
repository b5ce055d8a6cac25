//! Quixo's tiers: one per unordered pair of cube counts {a, b} (a <= b), their
//! numbers, names, sizes, children and rankers.
//!
//! Cube counts never fall: a move that takes a blank cube adds one cube of the mover's
//! symbol (one blank fewer), a move that takes the mover's own cube keeps the counts.
//! So boards (x, o) lead to (x + 1, o), (x, o + 1) and themselves. Swapping the
//! colours and the side to move is a symmetry of the game, so one tier holds the boards
//! (a, b) and (b, a), both sides to move (as chess holds KQK and KKQ in one tier): tier
//! {a, b} leads to {a + 1, b} and {a, b + 1}, each with its counts put in order, and to
//! itself. A tier is named like the boards it keeps canonical ones of, (a X, b O),
//! e.g. `0Blank_2X_14O`. This file must not know moves or the plugin API's positions
//! beyond tier numbers.

use crate::rank::{Tables, TierRanker};
use gamesman_plugin_api::Tier;

/// The tiers of one board size, with a ranker for each.
#[derive(Debug)]
pub struct Tiers {
    cells: usize,
    /// `rankers[x * (cells + 1) + o]`, `None` where `x + o > cells`.
    rankers: Vec<Option<TierRanker>>,
}

impl Tiers {
    /// Every tier of a board of `cells` cells.
    pub fn new(t: &Tables, cells: usize) -> Tiers {
        let mut rankers = Vec::with_capacity((cells + 1) * (cells + 1));
        for x in 0..=cells {
            for o in 0..=cells {
                rankers.push((x + o <= cells).then(|| TierRanker::new(t, cells, x, o)));
            }
        }
        Tiers { cells, rankers }
    }

    /// The tier of the boards with `x` X and `o` O cubes, in either order: number
    /// `a * (cells + 1) + b` for `a = min(x, o)`, `b = max(x, o)`.
    #[inline(always)]
    pub fn tier(&self, x: u32, o: u32) -> Tier {
        let (a, b) = (x.min(o), x.max(o));
        Tier(a as u64 * (self.cells as u64 + 1) + b as u64)
    }

    /// The cube counts `(a, b)` (`a <= b`) of a valid tier, or `None`.
    #[inline(always)]
    pub fn counts(&self, t: Tier) -> Option<(u32, u32)> {
        let per = self.cells as u64 + 1;
        let (a, b) = (t.0 / per, t.0 % per);
        (a <= b && a + b <= self.cells as u64).then_some((a as u32, b as u32))
    }

    /// The ranker of the boards `(a, b)` of a valid tier (panics on an invalid one).
    #[inline(always)]
    pub fn ranker(&self, t: Tier) -> &TierRanker {
        self.rankers[t.0 as usize]
            .as_ref()
            .expect("a valid Quixo tier")
    }

    /// The number of boards `(a, b)` of tier `t` (0 for a number that is not a tier);
    /// the tier holds as many `(b, a)` when `a < b`.
    pub fn boards(&self, t: Tier) -> u64 {
        if self.counts(t).is_none() {
            return 0;
        }
        self.rankers
            .get(t.0 as usize)
            .and_then(Option::as_ref)
            .map_or(0, TierRanker::size)
    }

    /// Writes the children of tier `t` into `out`: one more cube of either colour
    /// (each once: from {a, a} both are {a, a + 1}), and `t` itself when a move can
    /// stay in it (when someone has a cube to take back).
    pub fn children(&self, t: Tier, mut out: impl FnMut(Tier)) {
        let Some((a, b)) = self.counts(t) else {
            return;
        };
        if (a + b) < self.cells as u32 {
            out(self.tier(a + 1, b));
            if a != b {
                out(self.tier(a, b + 1));
            }
        }
        if a + b > 0 {
            out(t);
        }
    }

    /// GamesmanOne's name of the boards `(a, b)` of tier `t`, e.g. `0Blank_2X_14O`.
    pub fn name(&self, t: Tier) -> String {
        match self.counts(t) {
            Some((x, o)) => format!("{}Blank_{x}X_{o}O", self.cells as u32 - x - o),
            None => format!("invalid tier {}", t.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_names_and_children() {
        let t = Tiers::new(&Tables::new(), 16);
        let tier = t.tier(2, 14);
        assert_eq!(tier, t.tier(14, 2));
        assert_eq!(t.counts(tier), Some((2, 14)));
        assert_eq!(t.name(tier), "0Blank_2X_14O");
        assert_eq!(t.counts(Tier(16 * 17 + 1)), None);
        assert_eq!(t.boards(Tier(16 * 17 + 1)), 0);
        // (14, 2) is no tier number: its boards live in {2, 14}.
        assert_eq!(t.counts(Tier(14 * 17 + 2)), None);
        assert_eq!(t.boards(Tier(14 * 17 + 2)), 0);
        assert_eq!(t.boards(Tier(1 << 40)), 0);
        let mut kids = Vec::new();
        t.children(tier, |c| kids.push(c));
        assert_eq!(kids, vec![tier]);
        kids.clear();
        t.children(t.tier(0, 0), |c| kids.push(c));
        assert_eq!(kids, vec![t.tier(0, 1)]);
        kids.clear();
        t.children(t.tier(3, 4), |c| kids.push(c));
        assert_eq!(kids, vec![t.tier(4, 4), t.tier(3, 5), t.tier(3, 4)]);
        kids.clear();
        t.children(t.tier(4, 4), |c| kids.push(c));
        assert_eq!(kids, vec![t.tier(4, 5), t.tier(4, 4)]);
        assert_eq!(t.name(t.tier(0, 0)), "16Blank_0X_0O");
        assert_eq!(t.boards(t.tier(5, 5)), 2_018_016);
    }
}
