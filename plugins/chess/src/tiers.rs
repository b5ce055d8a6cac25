//! Tiers are material sets up to colours: the non-king pieces of each side, with a set
//! and its colour mirror (KQK and KKQ) one tier, named and numbered by the canonical
//! orientation (white has more, or at equal counts stronger, pieces). A tier's number
//! packs both sides' pieces (two base-6 digits per side, strongest first), so a tier's
//! children (one piece captured, or a pawn promoted) are computed from the number
//! alone. Positions of both orientations live in the tier (`index.rs`), and the colour
//! flip is one of the symmetries `canonical_position` merges, so a set and its mirror
//! are solved once, as the Tier Gamesman seed suggests for KQk and Kkq.
//!
//! This file must not know squares, moves or position numbers.

use crate::board::*;

/// The most non-king pieces of one side in a tier number.
const SIDE_SLOTS: usize = 2;

/// A material set: each side's non-king piece kinds, strongest first.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material {
    /// `[white, black]` piece kinds, sorted ascending (`QUEEN` first).
    pub sides: [Vec<u8>; 2],
}

impl Material {
    /// The material on a board.
    pub fn of(b: &Board) -> Self {
        let mut sides = [Vec::new(), Vec::new()];
        for p in b.pieces().iter().filter(|p| p.kind != KING) {
            sides[p.colour as usize].push(p.kind);
        }
        sides[0].sort_unstable();
        sides[1].sort_unstable();
        Material { sides }
    }

    /// Non-king pieces on the board.
    pub fn count(&self) -> usize {
        self.sides[0].len() + self.sides[1].len()
    }

    /// Whether this orientation is the tier's: white has more pieces, or as many and
    /// at least as strong ones (kinds compare lower for stronger pieces, strongest
    /// first). Runs for every position canonicalised, so it does not allocate.
    pub fn is_canonical(&self) -> bool {
        let [w, b] = &self.sides;
        w.len() > b.len() || (w.len() == b.len() && w <= b)
    }

    /// The same set with colours swapped.
    pub fn flipped(&self) -> Self {
        Material {
            sides: [self.sides[1].clone(), self.sides[0].clone()],
        }
    }

    /// The canonical orientation.
    pub fn canonical(self) -> Self {
        if self.is_canonical() {
            self
        } else {
            self.flipped()
        }
    }

    /// Whether swapping colours gives the same set (KK, KQKQ): its tier needs no
    /// second orientation, the colour flip maps its positions among themselves.
    pub fn self_twin(&self) -> bool {
        self.sides[0] == self.sides[1]
    }

    /// The number of this orientation's packing; the tier of a set is the number of its
    /// canonical orientation (`canonical().tier()`).
    pub fn tier(&self) -> u64 {
        let side = |s: &[u8]| s.iter().fold(0u64, |a, &k| a * 6 + k as u64);
        // pad to SIDE_SLOTS digits so "Q" and "QR" differ
        let digits = self
            .sides
            .each_ref()
            .map(|s| side(s) * 6u64.pow((SIDE_SLOTS - s.len()) as u32));
        digits[0] * 36 + digits[1]
    }

    /// The material of a tier number.
    pub fn from_tier(t: u64) -> Option<Self> {
        if t >= 36 * 36 {
            return None;
        }
        let side = |d: u64| -> Option<Vec<u8>> {
            let (a, b) = ((d / 6) as u8, (d % 6) as u8);
            match (a, b) {
                (0, 0) => Some(vec![]),
                (a, 0) => Some(vec![a]),
                (0, _) => None,
                (a, b) if a <= b => Some(vec![a, b]),
                _ => None,
            }
        };
        let m = Material {
            sides: [side(t / 36)?, side(t % 36)?],
        };
        (m.count() + 2 <= MAX_PIECES && m.tier() == t).then_some(m)
    }

    /// The name, such as `KQK` or `KRKP`.
    pub fn name(&self) -> String {
        let mut s = String::from("K");
        s.extend(self.sides[0].iter().map(|&k| kind_letter(k)));
        s.push('K');
        s.extend(self.sides[1].iter().map(|&k| kind_letter(k)));
        s
    }

    /// Parses a name such as `KQK`, `kqk`, `KBNK` (any orientation; not canonicalised).
    pub fn parse(name: &str) -> Option<Self> {
        let up = name.trim().to_ascii_uppercase();
        let rest = up.strip_prefix('K')?;
        let (w, b) = rest.split_once('K')?;
        let kinds = |s: &str| -> Option<Vec<u8>> {
            let mut v: Vec<u8> = s
                .chars()
                .map(|c| letter_kind(c).filter(|&k| k != KING))
                .collect::<Option<_>>()?;
            v.sort_unstable();
            Some(v)
        };
        let m = Material {
            sides: [kinds(w)?, kinds(b)?],
        };
        (m.count() + 2 <= MAX_PIECES).then_some(m)
    }

    /// The material sets one move can lead to: this one (quiet moves), one
    /// piece fewer (captures), a pawn replaced (promotions, with or without a capture).
    pub fn children(&self) -> Vec<Material> {
        let mut out = vec![self.clone()];
        for c in 0..2 {
            for i in 0..self.sides[c].len() {
                let mut m = self.clone();
                let kind = m.sides[c].remove(i);
                out.push(m.clone());
                if kind == PAWN {
                    for promo in [QUEEN, ROOK, BISHOP, KNIGHT] {
                        let mut p = self.clone();
                        p.sides[c][i] = promo;
                        p.sides[c].sort_unstable();
                        out.push(p.clone());
                        // a promotion that also captures
                        for j in 0..p.sides[1 - c].len() {
                            let mut q = p.clone();
                            q.sides[1 - c].remove(j);
                            out.push(q);
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The tiers (canonical sets) one move can lead to from a position of this set in
    /// either orientation: the children of one orientation, each in canonical form
    /// (the other orientation's children are their mirrors).
    pub fn tier_children(&self) -> Vec<Material> {
        let mut out: Vec<Material> = self
            .children()
            .into_iter()
            .map(Material::canonical)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The tier of a tier number: a set in canonical orientation, `None` for a number
    /// that is not one.
    pub fn of_tier(t: u64) -> Option<Self> {
        Self::from_tier(t).filter(Material::is_canonical)
    }

    /// Every tier (canonical set) reachable from this one by captures and promotions,
    /// this one included.
    pub fn closure(&self) -> Vec<Material> {
        let mut seen = vec![self.clone().canonical()];
        let mut i = 0;
        while i < seen.len() {
            for c in seen[i].tier_children() {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
            i += 1;
        }
        seen
    }
}

/// Every canonical material set with 3 or 4 pieces except KBK and KNK: the variants
/// offered, 3-piece sets first.
pub fn all_variants() -> Vec<Material> {
    let mut out = Vec::new();
    for t in 0..36 * 36 {
        if let Some(m) = Material::from_tier(t) {
            // KBK and KNK are dead draws (no mate exists): tiers, not variants
            let trivial = m.count() == 1 && matches!(m.sides[0][..], [BISHOP] | [KNIGHT]);
            if m.is_canonical() && m.count() >= 1 && !trivial {
                out.push(m);
            }
        }
    }
    out.sort_by_key(|m| (m.count(), m.sides[1].len(), m.sides.clone()));
    out
}
