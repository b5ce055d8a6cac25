//! Quixo's tiers: one per (blanks, X cubes, O cubes), their numbers, names, sizes,
//! children and rankers.
//!
//! Cube counts never fall: a move that takes a blank cube adds one cube of the mover's
//! symbol (one blank fewer), a move that takes the mover's own cube keeps the counts.
//! So tier (x, o) leads to (x + 1, o), (x, o + 1) and itself. Both sides to move live
//! in every tier. This file must not know moves or the plugin API's positions beyond
//! tier numbers.

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

    /// The tier number of `x` X and `o` O cubes: `x * (cells + 1) + o`.
    #[inline(always)]
    pub fn tier(&self, x: u32, o: u32) -> Tier {
        Tier(x as u64 * (self.cells as u64 + 1) + o as u64)
    }

    /// The cube counts `(x, o)` of a valid tier, or `None`.
    #[inline(always)]
    pub fn counts(&self, t: Tier) -> Option<(u32, u32)> {
        let per = self.cells as u64 + 1;
        let (x, o) = (t.0 / per, t.0 % per);
        (x + o <= self.cells as u64).then_some((x as u32, o as u32))
    }

    /// The ranker of a valid tier number (panics on an invalid one).
    #[inline(always)]
    pub fn ranker(&self, t: Tier) -> &TierRanker {
        self.rankers[t.0 as usize]
            .as_ref()
            .expect("a valid Quixo tier")
    }

    /// The number of boards of tier `t` (0 for a number that is not a tier).
    pub fn boards(&self, t: Tier) -> u64 {
        self.rankers
            .get(t.0 as usize)
            .and_then(Option::as_ref)
            .map_or(0, TierRanker::size)
    }

    /// Writes the children of tier `t` into `out`: one more X, one more O, and `t`
    /// itself when a move can stay in it (when someone has a cube to take back).
    pub fn children(&self, t: Tier, mut out: impl FnMut(Tier)) {
        let Some((x, o)) = self.counts(t) else {
            return;
        };
        if (x + o) < self.cells as u32 {
            out(self.tier(x + 1, o));
            out(self.tier(x, o + 1));
        }
        if x + o > 0 {
            out(t);
        }
    }

    /// GamesmanOne's name of tier `t`, e.g. `0Blank_2X_14O`.
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
        assert_eq!(t.counts(tier), Some((2, 14)));
        assert_eq!(t.name(tier), "0Blank_2X_14O");
        assert_eq!(t.counts(Tier(16 * 17 + 1)), None);
        assert_eq!(t.boards(Tier(16 * 17 + 1)), 0);
        assert_eq!(t.boards(Tier(1 << 40)), 0);
        let mut kids = Vec::new();
        t.children(tier, |c| kids.push(c));
        assert_eq!(kids, vec![tier]);
        kids.clear();
        t.children(t.tier(0, 0), |c| kids.push(c));
        assert_eq!(kids, vec![t.tier(1, 0), t.tier(0, 1)]);
        kids.clear();
        t.children(t.tier(3, 4), |c| kids.push(c));
        assert_eq!(kids, vec![t.tier(4, 4), t.tier(3, 5), t.tier(3, 4)]);
        assert_eq!(t.name(t.tier(0, 0)), "16Blank_0X_0O");
        assert_eq!(t.boards(t.tier(5, 5)), 2_018_016);
    }
}
