//! Child-tier values read while the tier is scanned: when the scan gives each
//! position's children and every child tier is whole in memory, a position's moves
//! into child tiers need no reverse graph and no pass over the child tiers' levels.
//! Their values are read once, as the scan expands the position, and folded into at
//! most one seed a phase, sent at the level where the level passes would have sent
//! the child itself:
//! - a child that loses for its mover: the position wins one level later (the
//!   earliest such child counts, as the level passes keep the shortest win);
//! - otherwise, children that win for their mover: all of them at the level of the
//!   latest, as one decrease of the position's counter by their number. A position
//!   cannot lose before its latest losing move is known, and once that level is
//!   sent it holds exactly what the level passes would have left;
//! - a tie child: in the tie phase, the earliest one.
//!
//! Used only for two-player alternating games without WinBy (a child's value is
//! then always inverted). This file must not decide values: the level passes do.

use super::ctx::TierCtx;
use crate::engine::record::{remoteness_of, value_of};
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::frontier::{level_range, sort_by_level, ChildFrontier};
use gamesman_plugin_api::{TierPosition, Value};

/// What the seeds of one phase ask for at a level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seed {
    /// The position of the tier being solved.
    pub position: u32,
    /// 0: a child that loses for its mover (the position wins); k > 0: k children
    /// that win for their mover (the position's counter goes down by k).
    pub losing_moves: u32,
}

/// Seeds of one scan chunk, each with the level it is sent at.
#[derive(Default)]
pub struct SeedChunk {
    wl: Vec<(u32, Seed)>,
    tie: Vec<(u32, Seed)>,
}

impl SeedChunk {
    /// Room for the seeds of `positions` more positions (at most one a phase each; the
    /// error names the tier when memory runs out).
    pub fn reserve(&mut self, ctx: &TierCtx<'_>, positions: usize) -> Result<(), SolveError> {
        ctx.grow("seeds", &mut self.wl, positions)?;
        ctx.grow("seeds", &mut self.tie, positions)
    }

    /// Folds the values of position `p`'s children in child tiers (`kids`, each
    /// found in `children`) into its seeds. A child in no child tier given is
    /// returned as an error for the caller to report; one past its tier's stored
    /// positions has no record, as in the level passes, and counts for nothing.
    pub fn add(
        &mut self,
        p: u32,
        kids: impl Iterator<Item = TierPosition>,
        children: &[&ChildFrontier],
    ) -> Result<(), TierPosition> {
        let (mut win, mut tie) = (None::<u32>, None::<u32>);
        let (mut losing, mut latest) = (0u32, 0u32);
        for c in kids {
            let Some(f) = children.iter().find(|f| f.tier == c.tier) else {
                return Err(c);
            };
            let Some(&packed) = f.records.values.get(c.position as usize) else {
                continue;
            };
            let r = remoteness_of(packed);
            match value_of(packed) {
                Value::LOSE => win = Some(win.map_or(r, |w| w.min(r))),
                Value::WIN => {
                    losing += 1;
                    latest = latest.max(r);
                }
                Value::TIE => tie = Some(tie.map_or(r, |t| t.min(r))),
                _ => {}
            }
        }
        if let Some(w) = win {
            self.wl.push((
                w,
                Seed {
                    position: p,
                    losing_moves: 0,
                },
            ));
        } else if losing > 0 {
            self.wl.push((
                latest,
                Seed {
                    position: p,
                    losing_moves: losing,
                },
            ));
        }
        if let Some(t) = tie {
            self.tie.push((
                t,
                Seed {
                    position: p,
                    losing_moves: 0,
                },
            ));
        }
        Ok(())
    }
}

/// Every seed of a tier, by phase and level.
pub struct Seeds {
    wl: ByLevel,
    tie: ByLevel,
}

/// Seeds sorted by level: level r is `seeds[starts[r]..starts[r + 1]]`.
struct ByLevel {
    seeds: Vec<Seed>,
    starts: Vec<usize>,
}

impl ByLevel {
    /// The chunks' seeds, sorted by level.
    fn gather<'a>(chunks: impl Iterator<Item = &'a [(u32, Seed)]> + Clone) -> ByLevel {
        let pairs = chunks.flatten().map(|&(r, s)| (r as usize, s));
        let (seeds, starts) = sort_by_level(pairs);
        ByLevel { seeds, starts }
    }

    fn at(&self, r: u32) -> &[Seed] {
        &self.seeds[level_range(&self.starts, r)]
    }

    fn levels(&self) -> u32 {
        (self.starts.len() - 1) as u32
    }
}

impl Seeds {
    /// The seeds of every chunk of the scan.
    pub fn gather(chunks: &[SeedChunk]) -> Seeds {
        Seeds {
            wl: ByLevel::gather(chunks.iter().map(|c| c.wl.as_slice())),
            tie: ByLevel::gather(chunks.iter().map(|c| c.tie.as_slice())),
        }
    }

    /// Win/lose seeds sent at level `r`.
    pub fn wins_losses(&self, r: u32) -> &[Seed] {
        self.wl.at(r)
    }

    /// Tie seeds sent at level `r`.
    pub fn ties(&self, r: u32) -> &[Seed] {
        self.tie.at(r)
    }

    /// One more than the last level with a win/lose seed (0 if none).
    pub fn wl_levels(&self) -> u32 {
        self.wl.levels()
    }

    /// One more than the last level with a tie seed (0 if none).
    pub fn tie_levels(&self) -> u32 {
        self.tie.levels()
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        8 * (self.wl.seeds.len() + self.tie.seeds.len()) as u64
    }
}
