//! The context of one tier's solve (`TierCtx`): the module and the tier, which own
//! every allocation of the tier's arrays and the context of their errors; and what the
//! passes share (progress callbacks, the parents chunk). It imports only `base`, the
//! need model and the recipe's rule for a reverse graph (for an error's estimate).

use super::need::own_need;
use super::recipe::{may_use_graph, ParentMode};
use crate::engine::game::GameHandle;
use crate::engine::solver::base::{MemoryError, SolveError};
use crate::engine::tier::TierNode;
use rayon::prelude::*;

/// Frontier positions per parents call into the module.
pub const PARENT_CHUNK: usize = 512;

/// Called with the number of positions scanned, for progress.
pub type Tick<'a> = &'a (dyn Fn(u64) + Sync);

/// Called with a short note on what the tier's solve is doing (for the progress line).
pub type Note<'a> = &'a (dyn Fn(&str) + Sync);

/// The tier being solved and its module: what every allocation of the tier's arrays
/// names when it fails.
#[derive(Clone, Copy)]
pub struct TierCtx<'a> {
    /// The module.
    pub game: &'a GameHandle,
    /// The tier.
    pub node: &'a TierNode,
}

impl<'a> TierCtx<'a> {
    /// The context of solving `node` of `game`.
    pub fn new(game: &'a GameHandle, node: &'a TierNode) -> Self {
        TierCtx { game, node }
    }

    /// A vector of `n` values made by `f`, in parallel, its memory reserved with
    /// `try_reserve` so that running out is an error naming the tier and the array.
    pub fn filled<T: Send>(
        &self,
        what: &'static str,
        n: usize,
        f: impl Fn() -> T + Sync + Send,
    ) -> Result<Vec<T>, SolveError> {
        let mut v = self.reserved(what, n)?;
        v.par_extend((0..n).into_par_iter().map(|_| f()));
        Ok(v)
    }

    /// Room for `additional` more values in `v`, or the error naming the tier and array.
    pub fn grow<T>(
        &self,
        what: &'static str,
        v: &mut Vec<T>,
        additional: usize,
    ) -> Result<(), SolveError> {
        v.try_reserve(additional)
            .map_err(|_| self.allocation::<T>(what, additional))?;
        Ok(())
    }

    /// An empty vector with room for `n` values, or the error naming the tier and array.
    pub fn reserved<T>(&self, what: &'static str, n: usize) -> Result<Vec<T>, SolveError> {
        let mut v = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|_| self.allocation::<T>(what, n))?;
        Ok(v)
    }

    /// The error of `n` values of `T` for the tier's `what` that could not be allocated.
    fn allocation<T>(&self, what: &'static str, n: usize) -> MemoryError {
        crate::engine::abort_report::allocation_handled();
        let (game, node) = (self.game, self.node);
        MemoryError::Allocation {
            tier: node.tier,
            name: node.name.clone(),
            what,
            requested: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
            estimate: own_need(game, node, may_use_graph(game, ParentMode::Auto)).total(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesman_plugin_api::Tier;

    #[test]
    fn a_reverse_graph_s_need_saturates() {
        assert_eq!(
            crate::engine::solver::tier::need::graph_bytes(u64::MAX, 1),
            u64::MAX
        );
    }

    #[test]
    fn an_impossible_allocation_is_an_error_naming_the_tier() {
        let node = TierNode {
            tier: Tier(7),
            name: "seven".into(),
            size: 1 << 60,
            stored: 1 << 60,
            children: Vec::new(),
            loopy: false,
            level: 0,
        };
        let game = GameHandle::from_static::<mtttier::MttTier>("").unwrap();
        // 2^60 counters of 4 bytes: 4 EiB, more than any address space holds.
        let e = TierCtx::new(&game, &node)
            .reserved::<u32>("child counters", 1 << 60)
            .unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("out of memory solving tier 7 (seven): 4.00 EiB for its child counters could not be allocated"),
            "{text}"
        );
        assert!(
            text.contains("the tiers solved before it are stored"),
            "{text}"
        );
    }
}
