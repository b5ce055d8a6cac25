//! A worker rank: says who it is and what it loaded, takes part in the
//! shared-directory check, then solves the tiers the manager hands it, one at a time,
//! with the ordinary solver and all of the rank's threads, until told to stop.
//!
//! A failed tier is reported to the manager, which ends the run; the worker itself
//! never decides to stop. It must not solve anything the manager did not hand it.

use super::checks::{await_marker, marker_wait, Marker};
use super::messages::{self, ToManager, ToWorker};
use super::{MpiError, Setup};
use crate::engine::game::GameHandle;
use crate::engine::solver::{self, SolveOptions, SolveProgress};
use crate::engine::tier::{TierGraph, TierNode};
use ::mpi::topology::{Communicator, SimpleCommunicator};
use gamesman_plugin_api::Tier;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// Runs a worker until the manager says stop.
pub(super) fn run(
    world: &SimpleCommunicator,
    game: &GameHandle,
    setup: Setup,
    options: &SolveOptions,
) -> Result<(), MpiError> {
    let rank = world.rank() as usize;
    messages::send(
        world,
        0,
        &ToManager::Hello {
            pid: setup.pid,
            host: setup.host.clone(),
            threads: setup.threads,
            fingerprint: setup
                .prepared
                .as_ref()
                .map(|p| p.fingerprint.clone())
                .map_err(|e| e.to_string()),
        },
    );
    let mut marker: Option<Marker> = None;
    loop {
        match messages::receive_from_manager(world)? {
            ToWorker::Stop => break,
            ToWorker::Check { nonce, host } => {
                let result = match &setup.prepared {
                    Ok(p) => {
                        check_shared(p.db.dir(), &nonce, &host, rank, &setup.host, &mut marker)
                    }
                    Err(e) => Err(e.to_string()),
                };
                messages::send(world, 0, &ToManager::Checked(result));
            }
            ToWorker::Solve { tier } => {
                let reply = match &setup.prepared {
                    Ok(p) => solve(game, &p.graph, &p.db, Tier(tier), rank, options),
                    Err(e) => ToManager::Failed {
                        tier,
                        message: e.to_string(),
                    },
                };
                messages::send(world, 0, &reply);
            }
        }
    }
    drop(marker);
    Ok(())
}

/// Writes this rank's marker into its database directory and looks there for the
/// one rank 0 wrote: both are seen only if the directory is shared.
fn check_shared(
    dir: &std::path::Path,
    nonce: &str,
    manager_host: &str,
    rank: usize,
    host: &str,
    marker: &mut Option<Marker>,
) -> Result<(), String> {
    *marker = Some(Marker::write(dir, nonce, rank, host)?);
    await_marker(dir, nonce, 0, manager_host, marker_wait())
}

/// Solves one handed-out tier and says how it went.
fn solve(
    game: &GameHandle,
    graph: &TierGraph,
    db: &crate::engine::db::file::FileDb,
    tier: Tier,
    rank: usize,
    options: &SolveOptions,
) -> ToManager {
    let Some(node) = graph.get(tier) else {
        return ToManager::Failed {
            tier: tier.0,
            message: format!("tier {tier} is not in this rank's tier graph"),
        };
    };
    let t0 = Instant::now();
    let progress = WorkerLog { rank };
    // A panic here would take the whole job down without a word about the tier.
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        solver::solve_and_store(game, db, graph, node, options, &progress)
    }));
    match result {
        Ok(Ok(solved)) => ToManager::Solved {
            tier: tier.0,
            seconds: t0.elapsed().as_secs_f64(),
            memory: Some(solved.memory),
            budget: solved.budget,
        },
        Ok(Err(e)) => {
            log::error!("rank {rank}: tier {tier} ({}) failed: {e}", node.name);
            ToManager::Failed {
                tier: tier.0,
                message: e.to_string(),
            }
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            log::error!("rank {rank}: tier {tier} ({}) panicked: {what}", node.name);
            ToManager::Failed {
                tier: tier.0,
                message: format!("the solver panicked: {what}"),
            }
        }
    }
}

/// A worker's log: one line when a tier starts and one when it is stored.
struct WorkerLog {
    rank: usize,
}

impl SolveProgress for WorkerLog {
    fn start(&self, _: &TierGraph, _: u64) {}
    fn reused(&self, _: &TierNode) {}
    fn corrupt(&self, _: &TierNode, _: &str) {}
    fn tier_started(&self, node: &TierNode) {
        log::info!(
            "rank {}: solving tier {} ({}), {} positions",
            self.rank,
            node.tier,
            node.name,
            node.size
        );
    }
    fn advance(&self, _: &TierNode, _: u64) {}
    fn tier_finished(&self, node: &TierNode, took: Duration) {
        log::info!(
            "rank {}: stored tier {} ({}) in {took:.2?} ({} positions/s)",
            self.rank,
            node.tier,
            node.name,
            crate::engine::numbers::rate(node.size as f64 / took.as_secs_f64().max(1e-9))
        );
    }
    fn finish(&self) {}
}
