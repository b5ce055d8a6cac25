//! Why a solve fails: `SolveError` and its memory part `MemoryError`. A leaf every
//! layer of the solver may import (with `need`); it must import nothing of the
//! solver but `need`, whose figures its messages print.

use super::mismatch::VerifyError;
use super::need::{bytes, TierNeed};
use crate::engine::db::DbError;
use crate::engine::game::ModuleError;
use crate::engine::tier::TierGraphError;
use gamesman_plugin_api::{Tier, TierPosition};

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The module failed or returned something impossible.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// The tier graph is not a DAG (or the module failed describing it).
    #[error(transparent)]
    Graph(#[from] TierGraphError),
    /// Reading or writing the database failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// A remoteness too large for the record format.
    #[error("tier {0} has a remoteness above {max}, the most a record holds", max = crate::engine::record::MAX_REMOTENESS)]
    RemotenessOverflow(Tier),
    /// A WinBy that does not fit the stored 32 bits.
    #[error("the module's WinBy {winby} at position {position} does not fit in 32 bits")]
    WinByOverflow {
        /// The position.
        position: TierPosition,
        /// Its margin.
        winby: i64,
    },
    /// The solve does not fit in memory, or an allocation failed.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// The module gave a parent index past the tier's canonical prefix.
    #[error("tier {tier}: the module gave parent index {index}, past the {prefix} canonical positions it numbers first (canonical_prefix); a bug in the module's numbering")]
    PastPrefix {
        /// The tier.
        tier: Tier,
        /// The index given.
        index: u64,
        /// The tier's canonical prefix.
        prefix: u64,
    },
    /// The module gave a position more children than its `max_moves` allows for.
    #[error("the module gave position {position} {children} children, but says a position has at most {max_moves} moves (max_moves); a bug in the module")]
    TooManyChildren {
        /// The position.
        position: TierPosition,
        /// Its children.
        children: u32,
        /// The module's `max_moves`.
        max_moves: u32,
    },
    /// A child in a tier the solver did not load for the tier being solved.
    #[error("tier {tier}: a position leads to tier {child}, which is not among the child tiers loaded for it")]
    UnknownChildTier {
        /// The tier being solved.
        tier: Tier,
        /// The child's tier.
        child: Tier,
    },
    /// A tier too large to hold in memory on this platform.
    #[error("tier {0} has {1} positions, more than this machine can address")]
    TooLarge(Tier, u64),
    /// A forward-only tier whose reverse graph does not fit its 32-bit indices.
    #[error("tier {tier} is too large for a reverse graph: {what}; give the module undo moves (generate_undo_moves_to_tier, undo_move) to solve it")]
    GraphTooLarge {
        /// The tier.
        tier: Tier,
        /// What overflowed.
        what: String,
    },
    /// Undo moves were asked for, but the module gives none.
    #[error("module '{0}' gives no undo moves (it is forward-only); solve it with --parents auto or forward")]
    NoUndoMoves(String),
    /// A solved tier's records do not follow from its children: nothing was stored.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// `--tier` named no tier of the game.
    #[error("the game has no tier named '{name}' (tiers are named as `info` and `query` show them, e.g. {like})")]
    NoSuchTier {
        /// The name given.
        name: String,
        /// Some names of real tiers.
        like: String,
    },
}

/// Why memory stopped a solve.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// The estimate exceeds what is available: nothing was solved.
    #[error(
        "solving tier {tier} ({name}) needs about {} at its peak, {mode} ({}), but {} is available ({}); \
         free memory, or pass --memory-limit SIZE to say how much the solve may use, or \
         --ignore-memory-check to solve anyway",
        bytes(need.total()), need.breakdown(), bytes(*available), from
    )]
    TooLittle {
        /// The leanest way of solving it that was considered, in words.
        mode: String,
        /// The tier with the largest need.
        tier: Tier,
        /// Its name.
        name: String,
        /// Its need.
        need: Box<TierNeed>,
        /// Bytes available.
        available: u64,
        /// Where that figure comes from.
        from: String,
    },
    /// An allocation failed while solving: the tiers stored so far are kept.
    #[error(
        "out of memory solving tier {tier} ({name}): {} for its {what} could not be allocated \
         (its own arrays need about {} in all, its child tiers more); the tiers solved \
         before it are stored, and a new run resumes from them",
        bytes(*requested), bytes(*estimate)
    )]
    Allocation {
        /// The tier being solved.
        tier: Tier,
        /// Its name.
        name: String,
        /// The array that could not be allocated.
        what: &'static str,
        /// Its size in bytes.
        requested: u64,
        /// The model's estimate of the tier's whole need.
        estimate: u64,
    },
}
