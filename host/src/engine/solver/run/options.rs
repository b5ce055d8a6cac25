//! What a solve is asked to do and what it reports: its options (`SolveOptions`,
//! `Scope`), the memory check they make (`memory_check`), and the report of a solve
//! (`SolveReport`, `TierMemory`). Types and small helpers only; this file must not
//! solve, plan or store anything.

use super::progress::Measured;
use crate::engine::db::TierMeta;
use crate::engine::game::GameHandle;
use crate::engine::record::Record;
use crate::engine::solver::base::SolveError;
use crate::engine::solver::budget::{plan, MemoryCheck};
use crate::engine::solver::tier::parents::ParentMode;
use crate::engine::solver::verify::VerifyMode;
use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::TierPosition;
use std::time::Duration;

/// Options of a solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Forget what the database holds and solve every tier again.
    pub force: bool,
    /// Where parents come from: undo moves, or a reverse graph built forward.
    pub parents: ParentMode,
    /// Whether and against what the estimated memory need is checked.
    pub memory: MemoryCheck,
    /// How much of each solved tier to check before storing it (default: a sample).
    pub verify: VerifyMode,
    /// The seed of the sample's choice of positions.
    pub seed: u64,
    /// Which tiers to solve: all below the initial tier, or a closed part of them.
    pub scope: Scope,
}

/// Which tiers a solve covers. Every scope is closed under tier children, so its
/// tiers are solved exactly as in a whole solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// Every tier reachable from the initial tier.
    #[default]
    Whole,
    /// The tiers within this many steps of the game's end (`TierGraph::endgame`).
    Endgame(usize),
    /// The named tier and every tier below it.
    Tier(String),
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Whole => write!(f, "every tier"),
            Scope::Endgame(k) => write!(f, "the endgame of {k} steps (--endgame {k})"),
            Scope::Tier(t) => write!(f, "tier {t} and the tiers below it (--tier {t})"),
        }
    }
}

/// The tiers `scope` covers, children first.
pub fn graph_of(game: &GameHandle, scope: &Scope) -> Result<TierGraph, SolveError> {
    let whole = TierGraph::discover(game)?;
    Ok(match scope {
        Scope::Whole => whole,
        Scope::Endgame(k) => whole.endgame(*k),
        Scope::Tier(name) => match whole.below(name) {
            Some(g) => g,
            None => {
                return Err(SolveError::NoSuchTier {
                    name: name.clone(),
                    like: whole.names_like(name, 8).join(", "),
                })
            }
        },
    })
}

/// What a solve did.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Tiers reachable from the initial tier.
    pub tiers: usize,
    /// Tiers solved in this run.
    pub tiers_solved: usize,
    /// Tiers kept from an earlier run.
    pub tiers_reused: usize,
    /// Positions (tier sizes) solved in this run.
    pub positions_solved: u64,
    /// Of them, the positions the solver held and stored: the canonical ones of a
    /// module that numbers them first (`canonical_prefix`), else all.
    pub positions_stored: u64,
    /// Positions in all tiers.
    pub positions_total: u64,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// CPU time (user + system, every thread) of the process during this run.
    pub cpu_seconds: f64,
    /// Worker threads the tiers were solved on.
    pub threads: usize,
    /// The initial position (canonical).
    pub initial: TierPosition,
    /// Its record.
    pub initial_record: Record,
    /// The budget planned against, in bytes (when known).
    pub budget: Option<u64>,
    /// How each tier solved in this run was solved, and its memory.
    pub memory: Vec<TierMemory>,
}

/// How one tier was solved: its way, the memory and the time it took.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TierMemory {
    /// The tier's name.
    pub name: String,
    /// Its way of solving (`plan::SolveMode::name`).
    pub mode: String,
    /// The planner's estimate of the peak while it was solved.
    pub estimated_bytes: u64,
    /// The process's resident high-water mark once it was solved (since the solve
    /// started: the peak of this tier or of one before it), where the system tells it.
    pub measured_bytes: Option<u64>,
    /// The largest resident size read while its group was solved (`ResidentWatch`):
    /// its own peak, where `measured_bytes` may be an earlier tier's.
    #[serde(default)]
    pub group_peak_bytes: Option<u64>,
    /// Wall time of the tier's own solve, check and store, in seconds.
    #[serde(default)]
    pub wall_seconds: f64,
    /// The process's CPU time (user + system, every thread) while the tier's group was
    /// solved, in seconds: the tier's own when it was solved alone (`group_tiers` 1);
    /// tiers solved side by side share one figure, as CPU time cannot be told apart
    /// per tier there. Against `group_wall_seconds` times the threads, it shows the
    /// parallel work lost.
    #[serde(default)]
    pub cpu_seconds: f64,
    /// The tiers solved side by side with it, itself included.
    #[serde(default = "one")]
    pub group_tiers: usize,
    /// Wall time of its group, in seconds.
    #[serde(default)]
    pub group_wall_seconds: f64,
}

impl TierMemory {
    /// Its figures as a progress reporter is shown them (`SolveProgress::measured`).
    pub fn figures(&self) -> Measured<'_> {
        Measured {
            mode: &self.mode,
            cpu_seconds: self.cpu_seconds,
            group_tiers: self.group_tiers,
            peak_bytes: self.measured_bytes,
            own_peak_bytes: self.group_peak_bytes,
            estimated_bytes: self.estimated_bytes,
        }
    }
}

fn one() -> usize {
    1
}

/// The metadata of a tier of a reachable-only database, which marks positions over
/// the tier's whole hash.
pub fn full_meta_of(node: &TierNode) -> TierMeta {
    TierMeta {
        tier: node.tier,
        name: node.name.clone(),
        size: node.size,
    }
}

/// The memory options of a solve, with whether tiers go through a reverse graph.
pub fn memory_check(game: &GameHandle, options: &SolveOptions) -> MemoryCheck {
    let reverse_graph = options.parents.uses_graph(game);
    let mut check = MemoryCheck {
        reverse_graph,
        ..options.memory.clone()
    };
    check.process_bytes = crate::engine::solver::budget::memory::process_bytes(
        crate::engine::solver::budget::system::resident().unwrap_or(0),
        rayon::current_num_threads(),
    );
    // The module's own caches get a share of the budget, and count in every estimate.
    if let Some(budget) = plan::budget(&check) {
        let share = plan::module_share(budget.bytes);
        check.module_bytes = match game.memory_budget(share) {
            Ok(kept) => kept,
            Err(e) => {
                log::warn!("the module's memory budget could not be set ({e}); its own caches are not counted");
                0
            }
        };
        if check.module_bytes > 0 {
            log::info!(
                "the module keeps at most {} of its own (of {} offered)",
                crate::engine::solver::base::bytes(check.module_bytes),
                crate::engine::solver::base::bytes(share)
            );
        }
    }
    check
}
