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

/// How many distinct canonical children state `s` has: the count the solver's scan
/// asks for, without numbering most of them. A move that removes nothing leaves the
/// other side's set `S` as it is, and two different such moves give different boards:
/// two of those children are one class exactly when a symmetry fixing `S` takes the
/// mover's set of one to the other's. Where only the identity fixes `S` (most sets),
/// each is its own class and is counted; otherwise each is known by the smallest image
/// of the mover's set under the symmetries fixing `S`, a plain mask, and those are
/// deduplicated. Children with a removal lie in another tier, and are numbered and
/// their duplicates dropped as `children` does; their keys carry their tier's counts
/// (never all zero) above bit 48, so they never meet a mask.
pub(crate) fn distinct_children(game: &Mills, s: &State) -> u32 {
    let (rules, geo) = (&game.rules, &game.rules.geo);
    let (me, kept) = (s.turn, s.bits[1 - s.turn]);
    let fixing = geo.fixing(kept);
    let mut plain = 0;
    let others = Key::collect(
        |keys| {
            let mut numbering = Numbering::new(game);
            rules.for_each_move(s, |m| match m.remove {
                None if fixing == 0 => plain += 1,
                None => {
                    let moved = rules.apply(s, m).bits[me];
                    let mut smallest = moved;
                    let mut rest = fixing;
                    while rest != 0 {
                        let g = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        smallest = smallest.min(geo.map(g, moved));
                    }
                    keys.push(smallest as u64);
                }
                Some(_) => {
                    let key = Key::of(numbering.canonical(&rules.apply(s, m)));
                    debug_assert!(key >> Key::POSITION_BITS != 0);
                    keys.push(key);
                }
            });
        },
        |keys| keys.len() as u32,
    );
    plain + others
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
        Self::collect_known(false, fill, f)
    }

    /// `collect`, or with `distinct` (the caller knows `fill` pushes no key twice) the
    /// keys as pushed, neither sorted nor deduplicated.
    #[inline]
    pub(crate) fn collect_known<R>(
        distinct: bool,
        fill: impl FnOnce(&mut Vec<u64>),
        f: impl FnOnce(&[u64]) -> R,
    ) -> R {
        KEYS.with(|cell| {
            let mut keys = cell.take();
            keys.clear();
            fill(&mut keys);
            if !distinct {
                keys.sort_unstable();
                keys.dedup();
            }
            let answer = f(&keys);
            cell.set(keys);
            answer
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesman_plugin_api::{Game, List};

    /// `parents` lists each parent class once (unsorted where the side to move's set has
    /// no symmetry): the same set as every undo move's parent numbered, duplicates
    /// dropped, on a spread of every tier of each variant towards each of its parents.
    #[test]
    fn parents_are_each_class_once() {
        for (variant, step) in [
            ("5mm", 11),
            ("6mm", 401),
            ("9mm", 400_009),
            ("lasker", 2_000_003),
        ] {
            let g = Mills::new_for_tests(variant);
            let mut buf = vec![TierPosition::default(); g.properties().max_undo_moves as usize];
            let (mut unsorted, mut checked) = (0, 0);
            for t in g.tier_list() {
                let info = g.info(t);
                let parents: Vec<Tier> = g
                    .tier_list()
                    .into_iter()
                    .filter(|&q| g.info(q).children.contains(&t) || q == t)
                    .collect();
                for i in (0..info.prefix()).step_by(step) {
                    let p = TierPosition::new(t, i);
                    let s = g.state(p);
                    for &q in &parents {
                        let mut list = List::new(&mut buf);
                        assert!(g.parents(p, q, &mut list));
                        let got = list.as_slice().to_vec();
                        let mut want: Vec<TierPosition> = Vec::new();
                        g.rules.for_each_undo(&s, g.info(q).counts, |m| {
                            want.push(g.canonical_of_state(&g.rules.unapply(&s, m)));
                        });
                        want.sort_unstable();
                        want.dedup();
                        let mut sorted = got.clone();
                        sorted.sort_unstable();
                        unsorted += (sorted != got) as u32;
                        assert_eq!(sorted, want, "{variant} {p:?} towards {q:?}");
                        checked += got.len();
                    }
                }
            }
            assert!(
                unsorted > 100 && checked > 20_000,
                "{variant}: {unsorted} {checked}"
            );
        }
    }

    /// The count equals the numbered children's, on a spread of every tier of each
    /// variant: boards whose kept set has symmetries of its own, and moves that remove,
    /// are among those checked.
    #[test]
    fn distinct_children_counts_as_numbering_them_does() {
        for (variant, step) in [
            ("5mm", 3),
            ("6mm", 101),
            ("7mm", 1009),
            ("9mm", 100_003),
            ("lasker", 400_009),
            ("morabaraba", 400_009),
        ] {
            let g = Mills::new_for_tests(variant);
            let (mut symmetric, mut removing, mut checked) = (0, 0, 0);
            for t in g.tier_list() {
                let info = g.info(t);
                for i in (0..info.prefix()).step_by(step) {
                    let s = g.state(TierPosition::new(t, i));
                    if g.rules.terminal(s.counts).is_some() || !g.rules.has_move(&s) {
                        continue;
                    }
                    let want = g.with_children(&s, |keys| keys.len() as u32);
                    assert_eq!(distinct_children(&g, &s), want, "{variant} {t:?} {i}");
                    let geo = &g.rules.geo;
                    let kept = s.bits[1 - s.turn];
                    if (1..geo.symmetries()).any(|k| geo.map(k, kept) == kept) {
                        symmetric += 1;
                    }
                    let mut removes = false;
                    g.rules.for_each_move(&s, |m| removes |= m.remove.is_some());
                    removing += removes as u32;
                    checked += 1;
                }
            }
            assert!(
                symmetric > 1000 && removing > 10_000 && checked > 40_000,
                "{variant}: {symmetric} symmetric, {removing} removing, {checked}"
            );
        }
    }

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
