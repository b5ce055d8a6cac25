//! The moves a tier's expansion keeps for its reverse graph (`Expanded`), between the
//! pass that expands the tier (the scan, or the graph's own count pass) and the
//! graph's fill pass: per chunk, the expanded positions, their numbers of children,
//! and the children as codes, or as plain positions when the graph has one part.
//! This file must not build the graph nor decide values.

use super::ctx::TierCtx;
use super::need::kept_as_positions;
use crate::engine::game::GameHandle;
use crate::engine::solver::base::SolveError;
use gamesman_plugin_api::{Tier, TierPosition};

/// A child's part (its tier's place among the graph's child tiers) above this bit of
/// a kept move, its position below.
pub(super) const PART_SHIFT: u32 = 40;
pub(super) const POSITION_MASK: u64 = (1 << PART_SHIFT) - 1;

/// A kept move as stored: a code (`encode`), or a position of the graph's only part.
pub(super) trait Code: Copy {
    /// The move's code (`encode`).
    fn code(self) -> u64;
}

impl Code for u64 {
    #[inline]
    fn code(self) -> u64 {
        self
    }
}

impl Code for u32 {
    #[inline]
    fn code(self) -> u64 {
        self as u64
    }
}

/// The code of a kept move to `c`: `part << PART_SHIFT | position`, its part being
/// its tier's place in `child_tiers` (`None` for a tier not there). A child tier of
/// 2^40 positions would need a 4 TiB offset array first.
pub(super) fn encode(c: &TierPosition, child_tiers: &[(Tier, u64)]) -> Option<u64> {
    let k = child_tiers.iter().position(|&(t, _)| t == c.tier)?;
    Some(((k as u64) << PART_SHIFT) | c.position)
}

/// A chunk of a tier's expansion, kept for the graph's fill pass: the expanded
/// positions, their numbers of children, and the children.
#[derive(Default)]
pub struct Expanded {
    pub(super) parents: Vec<u32>,
    pub(super) counts: Vec<u32>,
    pub(super) kids: Kids,
}

/// The children kept: as codes (`encode`, 8 bytes a move), or as plain positions when
/// the graph has one part of at most 2^32 positions (4 bytes a move: a seeded graph,
/// which holds only the moves within the tier).
pub(super) enum Kids {
    Codes(Vec<u64>),
    Positions(Vec<u32>),
}

impl Default for Kids {
    fn default() -> Kids {
        Kids::Codes(Vec::new())
    }
}

impl Expanded {
    /// Nothing kept yet, of moves into `child_tiers` (the graph's): as plain positions
    /// where `need::kept_as_positions` says so, else as codes.
    pub fn new(child_tiers: &[(Tier, u64)]) -> Expanded {
        let kids = if kept_as_positions(child_tiers) {
            Kids::Positions(Vec::new())
        } else {
            Kids::Codes(Vec::new())
        };
        Expanded {
            kids,
            ..Expanded::default()
        }
    }

    /// Room for `positions` more positions with `moves` children in all (the error
    /// names the tier when memory runs out).
    pub fn reserve(
        &mut self,
        ctx: &TierCtx<'_>,
        positions: usize,
        moves: usize,
    ) -> Result<(), SolveError> {
        ctx.grow("kept moves", &mut self.parents, positions)?;
        ctx.grow("kept moves", &mut self.counts, positions)?;
        match &mut self.kids {
            Kids::Codes(k) => ctx.grow("kept moves", k, moves),
            Kids::Positions(k) => ctx.grow("kept moves", k, moves),
        }
    }

    /// Moves kept.
    pub fn moves(&self) -> usize {
        match &self.kids {
            Kids::Codes(k) => k.len(),
            Kids::Positions(k) => k.len(),
        }
    }

    /// Keeps position `p`'s `kids`, moves into `child_tiers` (the graph's, in its
    /// order, as given to `new`); a child in a tier not among them is an error naming
    /// the module. `kids` is an iterator so that a seeded scan keeps the moves within
    /// the tier straight from the module's list, without copying them out first.
    pub fn push<'k>(
        &mut self,
        game: &GameHandle,
        tier: Tier,
        p: u64,
        kids: impl IntoIterator<Item = &'k TierPosition>,
        child_tiers: &[(Tier, u64)],
    ) -> Result<(), SolveError> {
        let missing = |c: &TierPosition| undeclared(game, tier, *c);
        let before = self.moves();
        match &mut self.kids {
            Kids::Codes(k) => {
                for c in kids {
                    k.push(encode(c, child_tiers).ok_or_else(|| missing(c))?);
                }
            }
            Kids::Positions(k) => {
                // One part: its tier is the only one a move may lead to. A child past
                // its stored positions is never sent (it has no record), so it is not
                // kept: truncated to 32 bits it would name another position.
                let (only, stored) = child_tiers[0];
                for c in kids {
                    if c.tier != only {
                        return Err(missing(c));
                    }
                    if c.position < stored {
                        k.push(c.position as u32);
                    }
                }
            }
        }
        self.parents.push(p as u32);
        self.counts.push((self.moves() - before) as u32);
        Ok(())
    }
}

/// The error of a module whose position leads to a tier the solver did not prepare.
pub(crate) fn undeclared(game: &GameHandle, tier: Tier, c: TierPosition) -> SolveError {
    SolveError::Module(crate::engine::game::ModuleError {
        module: game.module_name().to_string(),
        function: "children_batch",
        kind: gamesman_plugin_api::ffi::CallErrorKind::BAD_OUTPUT,
        message: format!(
            "a position of tier {tier} leads to {c}, in a tier the solver did not prepare"
        ),
    })
}
