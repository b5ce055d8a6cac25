//! Canonical numbers of a position's children and parents, as the module lists them:
//! `Numbering` remembers the tier and X's orbit from one state to the next, and `Key`
//! packs each number into one sortable word so a position's list is sorted and its
//! duplicates dropped in a scratch list kept per thread.
//!
//! It numbers by `index` and the module's tier table; it must not hold rules of play.

use crate::rules::{Counts, State};
use crate::{index, Mills, TierInfo};
use gamesman_plugin_api::{Tier, TierPosition};
use std::cell::Cell;

/// Canonical numbers of one position's children or parents, X's orbit remembered
/// from one to the next: where O moves (or is unmoved) without a removal, they all
/// share X's set, and finding its orbit is a third of numbering a board.
pub(crate) struct Numbering<'a> {
    game: &'a Mills,
    last: Option<(Counts, u32, index::XOrbit)>,
    /// The last state's tier: only a removal or a placement changes it.
    tier: Option<(Counts, &'a TierInfo)>,
}

impl<'a> Numbering<'a> {
    pub(crate) fn new(game: &'a Mills) -> Self {
        Numbering {
            game,
            last: None,
            tier: None,
        }
    }

    /// The canonical number of state `s`'s class, its tier and X's orbit taken from
    /// the last state when it has the same counts (and X's set).
    #[inline]
    pub(crate) fn canonical(&mut self, s: &State) -> TierPosition {
        let game = self.game;
        let info = match self.tier {
            Some((c, info)) if c == s.counts => info,
            _ => {
                let info = game
                    .tiers
                    .of_counts(s.counts)
                    .expect("a tier of this variant");
                self.tier = Some((s.counts, info));
                info
            }
        };
        let (geo, xs) = (&game.rules.geo, s.bits[0]);
        let x = match self.last {
            Some((c, last_xs, x)) if c == s.counts && last_xs == xs => x,
            _ => {
                let x = info.boards.x_orbit(geo, &game.orbits, xs);
                self.last = Some((s.counts, xs, x));
                x
            }
        };
        let r = info.boards.canonical_with(geo, &x, s.bits[1]);
        TierPosition::new(
            Tier(s.counts.encode()),
            info.turn_of(s) * info.boards.count() + r,
        )
    }
}

thread_local! {
    /// One position's children (or parents) as keys, kept for the next position: the
    /// scan asks for millions, and a list allocated for each showed in its profile.
    static KEYS: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
}

/// A canonical position as one number that sorts as `TierPosition` does: its tier's
/// four counts (each below 16) in 16 bits, above the position's 48. Slices of plain
/// numbers sort without the comparisons of a pair, and a position's children are
/// sorted to drop the duplicates that symmetric moves give.
pub(crate) struct Key;

impl Key {
    const POSITION_BITS: u32 = 48;

    #[inline]
    pub(crate) fn of(p: TierPosition) -> u64 {
        debug_assert!(p.position >> Self::POSITION_BITS == 0 && p.tier.0 >> 32 == 0);
        debug_assert!(p.tier.0 & 0xf0f0_f0f0 == 0);
        let t = p.tier.0;
        let counts = (t & 0xf) | (t >> 4 & 0xf0) | (t >> 8 & 0xf00) | (t >> 12 & 0xf000);
        counts << Self::POSITION_BITS | p.position
    }

    #[inline]
    pub(crate) fn position(k: u64) -> TierPosition {
        let c = k >> Self::POSITION_BITS;
        let tier = (c & 0xf) | (c & 0xf0) << 4 | (c & 0xf00) << 8 | (c & 0xf000) << 12;
        TierPosition::new(Tier(tier), k & ((1 << Self::POSITION_BITS) - 1))
    }

    /// `f` of the distinct keys `fill` pushes, sorted, in this thread's scratch list.
    #[inline]
    pub(crate) fn collect<R>(fill: impl FnOnce(&mut Vec<u64>), f: impl FnOnce(&[u64]) -> R) -> R {
        KEYS.with(|cell| {
            let mut keys = cell.take();
            keys.clear();
            fill(&mut keys);
            keys.sort_unstable();
            keys.dedup();
            let answer = f(&keys);
            cell.set(keys);
            answer
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_sort_as_positions_do() {
        let mut positions = Vec::new();
        for variant in ["9mm", "morabaraba", "lasker", "7mm"] {
            let g = Mills::new_for_tests(variant);
            for t in g.tier_list() {
                let size = g.info(t).size();
                for i in [0, 1, size / 2, size - 1] {
                    positions.push(TierPosition::new(t, i));
                }
            }
        }
        let mut keys: Vec<u64> = positions.iter().map(|&p| Key::of(p)).collect();
        for (&k, &p) in keys.iter().zip(&positions) {
            assert_eq!(Key::position(k), p);
        }
        positions.sort_unstable();
        keys.sort_unstable();
        let back: Vec<TierPosition> = keys.into_iter().map(Key::position).collect();
        assert_eq!(back, positions);
    }
}
