//! The level passes of one tier: wins and losses in increasing remoteness, then
//! ties. At each level the child tiers' decided positions (or the seeds the scan read
//! from them) and, in a loopy tier, the tier's own newly decided positions send
//! their values to their parents; the parents decided by it form the next level.
//! Levels run in parallel with atomic counters; results do not depend on the thread
//! count. This file must not scan positions or store anything.

use super::counters::Cell;
use super::ctx::{TierCtx, PARENT_CHUNK};
use super::onebyte::RemotenessLog;
use super::parents::{for_each_parents_warmed, ParentBuffers};
use super::prefetch::prefetch;
use super::recipe::Flow;
use super::seeds::{Seed, Seeds};
use super::state::TierState;
use crate::engine::game::GameHandle;
use crate::engine::record::{pack, value_of, MAX_REMOTENESS};
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::frontier::{Bits, Level};
use crate::engine::solver::input::runs::LevelRuns;
use crate::engine::solver::input::ChildTier;
use gamesman_plugin_api::{Player, Tier, TierPosition, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering::*};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    WinLose,
    Tie,
}

/// What the level passes of one tier share.
pub(super) struct Levels<'a, 'b> {
    pub(super) ctx: &'a TierCtx<'a>,
    pub(super) state: &'a TierState,
    /// One-byte cells: where each level's newly decided positions are written.
    pub(super) log: Option<&'b mut RemotenessLog>,
    pub(super) flow: Flow,
    pub(super) children: &'a [ChildTier],
    /// The child tiers' values read by the scan, sent instead of `children` when read.
    pub(super) seeds: Option<&'a Seeds>,
    /// Positions of the tier decided at the level being sent on.
    pub(super) now: &'b mut Bits,
    /// Positions of the tier decided at the next level.
    pub(super) next: &'b mut Bits,
}

impl Levels<'_, '_> {
    /// Wins and losses (from the scan's marks in `now`), then ties (from the records
    /// of positions the scan decided as ties).
    pub(super) fn both_phases<C: Cell>(&mut self, counters: &[C]) -> Result<(), SolveError> {
        self.run(counters, Phase::WinLose)?;
        self.now.clear();
        let tie0 = pack(Value::TIE, 0);
        let records = &self.state.records;
        self.now
            .fill(counters.len(), |i| counters[i].packed(records, i) == tie0);
        self.run(counters, Phase::Tie)
    }

    /// Processes one phase's frontier in increasing remoteness: at each level the
    /// child tiers' positions and (in a loopy tier) the tier's own decided positions
    /// send their values to their parents; parents decided by it form the next level.
    fn run<C: Cell>(&mut self, counters: &[C], phase: Phase) -> Result<(), SolveError> {
        let child_levels = match (self.seeds, phase) {
            (Some(s), Phase::WinLose) => s.wl_levels(),
            (Some(s), Phase::Tie) => s.tie_levels(),
            (None, _) => self
                .children
                .iter()
                .map(|cf| match phase {
                    Phase::WinLose => cf.wl_levels(),
                    Phase::Tie => cf.tie_levels(),
                })
                .max()
                .unwrap_or(0),
        };
        let loopy = self.ctx.node.loopy;
        let mut own = loopy && self.now.any();
        let mut r = 0u32;
        // One thread in the pool running the passes: nothing else updates a counter
        // or a mark while they run (rayon runs a one-thread pool's work one piece after
        // another), so they take plain loads and stores (`Send::solo`).
        let solo = rayon::current_num_threads() == 1;
        while r < child_levels || own {
            let send = Send {
                game: self.ctx.game,
                state: self.state,
                counters,
                flow: self.flow,
                r,
                phase,
                next: self.next,
                solo,
            };
            // The child tiers' values: as the scan read them, or from their levels.
            let children = match self.seeds {
                Some(s) => {
                    send.seeds(match phase {
                        Phase::WinLose => s.wins_losses(r),
                        Phase::Tie => s.ties(r),
                    });
                    &[]
                }
                None => self.children,
            };
            for child in children {
                match child {
                    ChildTier::Whole(cf) => {
                        let level = match phase {
                            Phase::WinLose => cf.wins_losses(r),
                            Phase::Tie => cf.ties(r),
                        };
                        send.level(cf.tier, level, |i| cf.records.packed(i))?;
                    }
                    ChildTier::Streamed(s) => send.runs(&s.runs)?,
                }
            }
            if own {
                let records = &self.state.records;
                send.bits(self.now, |i| {
                    counters[i as usize].packed(records, i as usize)
                })?;
            }
            let more = self.next.any();
            if more {
                if let Some(log) = self.log.as_mut() {
                    log.record(self.next, r + 1)?;
                }
            }
            if more && r + 1 > MAX_REMOTENESS {
                return Err(SolveError::RemotenessOverflow(self.ctx.node.tier));
            }
            own = loopy && more;
            // The level just sent on is done with: its bitmap takes the next level.
            std::mem::swap(self.now, self.next);
            self.next.clear();
            r += 1;
        }
        Ok(())
    }
}

/// Sends values of positions at remoteness `r` to their parents in the tier being
/// solved, marking the parents decided by it (at `r + 1`) in `next`.
struct Send<'a, C> {
    game: &'a GameHandle,
    state: &'a TierState,
    counters: &'a [C],
    flow: Flow,
    r: u32,
    phase: Phase,
    next: &'a Bits,
    /// No other thread runs the passes: counters and marks are updated with plain
    /// loads and stores. A locked read-modify-write is a full barrier on x86, so each
    /// one waited for its counter's cache miss where plain stores let the misses of
    /// successive parents overlap.
    solo: bool,
}

impl<C: Cell> Send<'_, C> {
    /// Marks `p` decided at the next level.
    #[inline]
    fn mark(&self, p: u64) {
        if self.solo {
            self.next.set_alone(p);
        } else {
            self.next.set(p);
        }
    }

    /// A level of a child tier (or of any tier, given as a list).
    // Generic rather than `dyn`: `packed_of` runs once per child position, and
    // inlined it is a load.
    fn level(
        &self,
        child_tier: Tier,
        positions: Level<'_>,
        packed_of: impl Fn(u64) -> u16 + Sync,
    ) -> Result<(), SolveError> {
        match positions {
            Level::Wide(s) => s
                .par_chunks(PARENT_CHUNK)
                .try_for_each_init(ParentBuffers::default, |bufs, chunk| {
                    self.chunk(child_tier, chunk, bufs, &packed_of)
                }),
            Level::Narrow(s) => s.par_chunks(PARENT_CHUNK).try_for_each_init(
                || (ParentBuffers::default(), Vec::with_capacity(PARENT_CHUNK)),
                |(bufs, wide), chunk| {
                    wide.clear();
                    wide.extend(chunk.iter().map(|&i| i as u64));
                    self.chunk(child_tier, wide, bufs, &packed_of)
                },
            ),
        }
    }

    /// A level of a streamed child tier: its wins and losses (or ties) at `r`, read
    /// from its runs a segment at a time. Within a level the updates commute, so
    /// sending wins before losses decides every parent as the sorted level does.
    fn runs(&self, runs: &LevelRuns) -> Result<(), SolveError> {
        let values: &[Value] = match self.phase {
            Phase::WinLose => &[Value::WIN, Value::LOSE],
            Phase::Tie => &[Value::TIE],
        };
        let mut buf = Vec::new();
        for &v in values {
            let packed = pack(v, self.r);
            runs.for_each_segment(v, self.r, &mut buf, |positions| {
                positions
                    .par_chunks(PARENT_CHUNK)
                    .try_for_each_init(ParentBuffers::default, |bufs, chunk| {
                        self.chunk(runs.tier, chunk, bufs, &|_| packed)
                    })
            })?;
        }
        Ok(())
    }

    /// Seeds of the child tiers' values at this level (`seeds`).
    fn seeds(&self, seeds: &[Seed]) {
        let records = &self.state.records;
        seeds.par_chunks(PARENT_CHUNK).for_each(|chunk| {
            for s in chunk {
                let p = s.position as u64;
                let child = match self.phase {
                    Phase::Tie => (Value::TIE, 1),
                    Phase::WinLose if s.losing_moves == 0 => (Value::WIN, 1),
                    Phase::WinLose => (Value::LOSE, s.losing_moves),
                };
                let decided = update(
                    self.counters,
                    records,
                    p,
                    child,
                    self.r + 1,
                    self.phase,
                    self.solo,
                );
                if decided {
                    self.mark(p);
                }
            }
        });
    }

    /// The tier's own positions marked in `bits`.
    fn bits(&self, bits: &Bits, packed_of: impl Fn(u64) -> u16 + Sync) -> Result<(), SolveError> {
        bits.for_each_block(ParentBuffers::default, |bufs, positions| {
            for chunk in positions.chunks(PARENT_CHUNK) {
                self.chunk(self.state.tier, chunk, bufs, &packed_of)?;
            }
            Ok(())
        })
    }

    /// At most `PARENT_CHUNK` positions of `child_tier`.
    fn chunk(
        &self,
        child_tier: Tier,
        chunk: &[u64],
        bufs: &mut ParentBuffers,
        packed_of: &impl Fn(u64) -> u16,
    ) -> Result<(), SolveError> {
        let (state, counters, flow) = (self.state, self.counters, self.flow);
        // The counters of a tier larger than the caches are a miss each, and the
        // atomic update below waits for its line: ask for the whole chunk's first, so
        // the misses overlap (a 512-child chunk has a few thousand parents, well
        // within the second-level cache).
        let warm = |parents: &[u64]| {
            for &p in parents {
                if let Some(cell) = counters.get(p as usize) {
                    prefetch(cell);
                }
            }
        };
        for_each_parents_warmed(
            self.game,
            state.parents(),
            child_tier,
            chunk,
            bufs,
            warm,
            |c, found| {
                if found.is_empty() {
                    return Ok(());
                }
                let child_value = value_of(packed_of(c));
                let child_turn = if flow == Flow::ByTurn {
                    Some(turn_of(self.game, state, child_tier, c)?)
                } else {
                    None
                };
                for &p in found {
                    if p as usize >= counters.len() {
                        return Err(SolveError::PastPrefix {
                            tier: state.tier,
                            index: p,
                            prefix: counters.len() as u64,
                        });
                    }
                    let v = match flow {
                        Flow::Alternate => child_value.invert(),
                        Flow::Puzzle => child_value,
                        Flow::ByTurn => {
                            if Some(Player(state.turns[p as usize].load(Relaxed))) == child_turn {
                                child_value
                            } else {
                                child_value.invert()
                            }
                        }
                    };
                    if update(
                        counters,
                        &state.records,
                        p,
                        (v, 1),
                        self.r + 1,
                        self.phase,
                        self.solo,
                    ) {
                        self.mark(p);
                    }
                }
                Ok(())
            },
        )
    }
}

fn turn_of(game: &GameHandle, state: &TierState, tier: Tier, i: u64) -> Result<Player, SolveError> {
    if tier == state.tier {
        Ok(Player(state.turns[i as usize].load(Relaxed)))
    } else {
        Ok(game.turn(TierPosition::new(tier, i))?)
    }
}

/// Applies the value `v` (from the parent's mover's view) of `moves` of parent `p`'s
/// children to it (several at once only for losses the scan read, `seeds`); returns
/// whether this decided `p` (at remoteness `r`). `solo`: no other thread updates
/// counters meanwhile, so the new count is stored plainly.
#[inline]
fn update<C: Cell>(
    counters: &[C],
    records: &[AtomicU16],
    p: u64,
    (v, moves): (Value, u32),
    r: u32,
    phase: Phase,
    solo: bool,
) -> bool {
    let counter = &counters[p as usize];
    let mut cur = counter.get();
    loop {
        if cur >= C::DECIDED {
            return false;
        }
        let (new, decided_as) = match phase {
            Phase::Tie => (C::DECIDED, Value::TIE),
            Phase::WinLose if v == Value::WIN => (C::DECIDED, Value::WIN),
            Phase::WinLose if v == Value::LOSE => {
                // The counter started at the number of children, each counted once.
                debug_assert!(cur >= moves);
                if cur <= moves {
                    (C::DECIDED, Value::LOSE)
                } else {
                    (cur - moves, Value::UNDECIDED)
                }
            }
            Phase::WinLose => return false,
        };
        let swapped = if solo {
            counter.put(new);
            Ok(cur)
        } else {
            counter.cas(cur, new)
        };
        match swapped {
            Ok(_) => {
                if new == C::DECIDED {
                    counter.settle(records, p as usize, decided_as, r);
                    return true;
                }
                return false;
            }
            Err(actual) => cur = actual,
        }
    }
}
