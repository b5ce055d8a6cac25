//! Rank 0: refuses a run whose ranks loaded different games or do not share the
//! database directory, finds what the database already holds, then hands ready tiers
//! to idle workers until every tier is stored, logging the overall progress.
//!
//! Every assignment is logged and mirrored to the journal file before it is sent, and
//! a signal thread prints which rank held which tier when the launcher ends the job
//! (OpenMPI ends every rank when one dies). The manager never solves a tier itself.

use super::checks::{await_marker, marker_wait, Fingerprint, Marker};
use super::journal::{Held, Journal, RankInfo};
use super::messages::{self, Backoff, ToManager, ToWorker};
use super::schedule::Schedule;
use super::{MpiError, Prepared, Setup};
use crate::engine::game::GameHandle;
use crate::engine::numbers::rate;
use crate::engine::solver::{self, SolveOptions, SolveReport};
use crate::report::progress;
use ::mpi::topology::{Communicator, SimpleCommunicator};
use gamesman_plugin_api::Tier;
use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the manager says which tiers are still being solved.
const HEARTBEAT: Duration = Duration::from_secs(60);

/// Runs the manager; every worker has been told to stop when this returns.
pub(super) fn run(
    world: &SimpleCommunicator,
    game: &GameHandle,
    setup: Setup,
    resource: &str,
    options: &SolveOptions,
) -> Result<SolveReport, MpiError> {
    let started = Instant::now();
    let size = world.size() as usize;
    let me = RankInfo {
        rank: 0,
        pid: setup.pid,
        host: setup.host.clone(),
        threads: setup.threads,
    };
    let result = manage(world, game, &me, setup.prepared, resource, options, started);
    for r in 1..size {
        messages::send(world, r, &ToWorker::Stop);
    }
    result
}

/// Everything the manager does between the first and the last message.
fn manage(
    world: &SimpleCommunicator,
    game: &GameHandle,
    me: &RankInfo,
    prepared: Result<Prepared, MpiError>,
    resource: &str,
    options: &SolveOptions,
    started: Instant,
) -> Result<SolveReport, MpiError> {
    log::info!(
        "{me} manages {} worker ranks: solving {} ({}) into {resource}",
        world.size() - 1,
        game.module_name(),
        game.variant()
    );
    let hello = hellos(world, me, prepared.as_ref().ok().map(|p| &p.fingerprint));
    // Rank 0's own problem is the run's error, as in a one-process solve.
    let prepared = prepared?;
    let ranks = hello?;
    let journal = Arc::new(Mutex::new(Journal::new(
        prepared.db.dir(),
        format!(
            "host-mpi solve of {} ({}) into {resource}: manager pid {} on {}, {} workers\n",
            game.module_name(),
            game.variant(),
            me.pid,
            me.host,
            ranks.len() - 1
        ),
    )));
    let _signals = SignalReport::start(journal.clone());
    check_shared(world, me, &prepared, &ranks)?;
    let mut m = Manager {
        world,
        ranks,
        prepared: &prepared,
        journal,
    };
    m.solve(game, options, started)
}

/// Collects every worker's hello and refuses ranks that could not set up or loaded
/// another game. Returns the workers by rank (index 0 is the manager).
fn hellos(
    world: &SimpleCommunicator,
    me: &RankInfo,
    mine: Option<&Fingerprint>,
) -> Result<Vec<RankInfo>, MpiError> {
    let size = world.size() as usize;
    let mut ranks: Vec<Option<RankInfo>> = vec![None; size];
    ranks[0] = Some(me.clone());
    let mut refusal: Option<MpiError> = None;
    let mut nap = Backoff::default();
    while ranks.iter().any(Option::is_none) {
        let Some((r, msg)) = messages::poll_workers(world)? else {
            nap.sleep();
            continue;
        };
        nap.reset();
        let ToManager::Hello {
            pid,
            host,
            threads,
            fingerprint,
        } = msg
        else {
            return Err(MpiError::Protocol(format!(
                "rank {r} sent {msg:?} before saying hello"
            )));
        };
        let info = RankInfo {
            rank: r,
            pid,
            host,
            threads,
        };
        log::info!(
            "{info} joined with {threads} thread{}",
            if threads == 1 { "" } else { "s" }
        );
        let problem = match (mine, fingerprint) {
            (_, Err(reason)) => Some(MpiError::RankSetup {
                rank: info.to_string(),
                reason,
            }),
            (Some(mine), Ok(theirs)) => {
                mine.difference(&theirs)
                    .map(|difference| MpiError::Mismatch {
                        rank: info.to_string(),
                        difference,
                        module: mine.module.clone(),
                        variant: mine.variant.clone(),
                    })
            }
            (None, Ok(_)) => None,
        };
        if refusal.is_none() {
            refusal = problem;
        }
        ranks[r] = Some(info);
    }
    match refusal {
        Some(e) => Err(e),
        None => Ok(ranks
            .into_iter()
            .map(|r| r.expect("all said hello"))
            .collect()),
    }
}

/// Every rank writes a marker into its database directory and looks for the others':
/// the directory is shared only if all are seen everywhere.
fn check_shared(
    world: &SimpleCommunicator,
    me: &RankInfo,
    prepared: &Prepared,
    ranks: &[RankInfo],
) -> Result<(), MpiError> {
    let dir = prepared.db.dir();
    let nonce = format!("{:016x}", rand::random::<u64>());
    let mine = Marker::write(dir, &nonce, 0, &me.host).map_err(|reason| MpiError::RankSetup {
        rank: me.to_string(),
        reason,
    })?;
    for r in &ranks[1..] {
        messages::send(
            world,
            r.rank,
            &ToWorker::Check {
                nonce: nonce.clone(),
                host: me.host.clone(),
            },
        );
    }
    let mut problems: Vec<String> = Vec::new();
    let mut answered = vec![false; ranks.len()];
    answered[0] = true;
    let mut nap = Backoff::default();
    while answered.iter().any(|a| !a) {
        let Some((r, msg)) = messages::poll_workers(world)? else {
            nap.sleep();
            continue;
        };
        nap.reset();
        match msg {
            ToManager::Checked(Ok(())) => {}
            ToManager::Checked(Err(e)) => problems.push(format!("{}: {e}", ranks[r])),
            other => {
                return Err(MpiError::Protocol(format!(
                    "rank {r} sent {other:?} during the shared-directory check"
                )))
            }
        }
        answered[r] = true;
    }
    // Workers wrote their markers before answering; one wait for all of them.
    let wait = marker_wait();
    let deadline = Instant::now() + wait;
    let mut theirs = Vec::new();
    let mut unseen = Vec::new();
    for r in &ranks[1..] {
        let left = deadline.saturating_duration_since(Instant::now());
        match await_marker(dir, &nonce, r.rank, &r.host, left) {
            Ok(()) => theirs.push(super::checks::marker_path(dir, &nonce, r.rank)),
            Err(e) => {
                log::debug!("{e}");
                unseen.push(r.rank.to_string());
            }
        }
    }
    if !unseen.is_empty() {
        problems.push(format!(
            "{me} does not see the marker{} of rank{} {} in {} after {wait:.0?}",
            if unseen.len() == 1 { "" } else { "s" },
            if unseen.len() == 1 { "" } else { "s" },
            unseen.join(", "),
            dir.display()
        ));
    }
    for p in theirs {
        let _ = std::fs::remove_file(p);
    }
    drop(mine);
    if problems.is_empty() {
        log::info!(
            "all {} ranks run the same game and share {}",
            ranks.len(),
            dir.display()
        );
        Ok(())
    } else {
        Err(MpiError::NotShared {
            dir: dir.display().to_string(),
            detail: problems.join("; "),
        })
    }
}

struct Manager<'a> {
    world: &'a SimpleCommunicator,
    ranks: Vec<RankInfo>,
    prepared: &'a Prepared,
    journal: Arc<Mutex<Journal>>,
}

impl Manager<'_> {
    fn journal_error(&self, e: std::io::Error) -> MpiError {
        MpiError::Journal {
            path: self
                .prepared
                .db
                .dir()
                .join(super::journal::FILE_NAME)
                .display()
                .to_string(),
            source: e,
        }
    }

    fn solve(
        &mut self,
        game: &GameHandle,
        options: &SolveOptions,
        started: Instant,
    ) -> Result<SolveReport, MpiError> {
        let graph = &self.prepared.graph;
        let db = &self.prepared.db;
        if let Some(text) = Journal::leftover(db.dir()) {
            let held: Vec<&str> = text.lines().skip(1).collect();
            log::warn!(
                "an earlier MPI run on this database did not end cleanly ({}); it was solving {}; tiers it did not store are solved again",
                text.lines().next().unwrap_or("").trim(),
                if held.is_empty() { "nothing".to_string() } else { held.join(", ") }
            );
        }
        // The job's writer lock, held by this rank until the end, before any change.
        crate::engine::db::Database::begin_writing(db, crate::engine::db::LockWait::Wait)?;
        let todo: HashSet<Tier> = solver::pending_tiers(graph, db, options, &progress::Lines)?;
        let to_solve: u64 = graph
            .order
            .iter()
            .filter(|n| todo.contains(&n.tier))
            .map(|n| n.size)
            .sum();
        let workers = self.ranks.len() - 1;
        let threads: usize = self.ranks[1..].iter().map(|r| r.threads).sum();
        log::info!(
            "{} tiers, {} positions; {} tiers ({} positions) to solve on {workers} worker rank{} ({threads} thread{} in all)",
            graph.order.len(),
            graph.total_positions(),
            todo.len(),
            to_solve,
            if workers == 1 { "" } else { "s" },
            if threads == 1 { "" } else { "s" }
        );
        let mut schedule = Schedule::new(&graph.order, &todo);
        let mut idle: VecDeque<usize> = (1..self.ranks.len()).collect();
        let mut failure: Option<MpiError> = None;
        let (mut tiers_done, mut positions_done) = (0usize, 0u64);
        // How each tier was solved, and the tightest budget a worker planned against.
        let mut memory: Vec<solver::TierMemory> = Vec::new();
        let mut budget: Option<u64> = None;
        let mut nap = Backoff::default();
        let mut heartbeat = Instant::now();
        loop {
            while failure.is_none() && !idle.is_empty() && schedule.ready() > 0 {
                let r = idle.pop_front().expect("an idle worker");
                let tier = schedule.take_ready().expect("a ready tier");
                let node = graph.get(tier).expect("scheduled tiers are in the graph");
                log::info!(
                    "{} solves tier {tier} ({}), {} positions",
                    self.ranks[r],
                    node.name,
                    node.size
                );
                let held = Held {
                    tier,
                    name: node.name.clone(),
                    positions: node.size,
                    since: Instant::now(),
                };
                let saved = self
                    .journal
                    .lock()
                    .expect("journal")
                    .hold(&self.ranks[r], held);
                saved.map_err(|e| self.journal_error(e))?;
                messages::send(self.world, r, &ToWorker::Solve { tier: tier.0 });
            }
            let nobody_busy = self.journal.lock().expect("journal").is_empty();
            if nobody_busy && (failure.is_some() || schedule.is_done()) {
                break;
            }
            if nobody_busy {
                return Err(MpiError::Protocol(format!(
                    "{} tiers are left but none is ready and no worker is busy",
                    schedule.left()
                )));
            }
            let Some((r, msg)) = messages::poll_workers(self.world)? else {
                if heartbeat.elapsed() >= HEARTBEAT {
                    heartbeat = Instant::now();
                    let d = self.journal.lock().expect("journal").describe();
                    log::info!(
                        "still solving: {}",
                        d.replace(" held ", " has been solving ")
                    );
                }
                nap.sleep();
                continue;
            };
            nap.reset();
            let released = self.journal.lock().expect("journal").release(r);
            let held = released.map_err(|e| self.journal_error(e))?;
            let (tier, message) = match msg {
                ToManager::Solved { tier, .. } | ToManager::Failed { tier, .. }
                    if held.as_ref().map(|h| h.tier.0) != Some(tier) =>
                {
                    return Err(MpiError::Protocol(format!(
                        "rank {r} reported tier {tier}, but it was given {}",
                        held.map_or("none".to_string(), |h| h.tier.to_string())
                    )));
                }
                ToManager::Solved {
                    tier,
                    seconds,
                    memory: used,
                    budget: theirs,
                } => {
                    let tier = Tier(tier);
                    schedule
                        .solved(tier)
                        .map_err(|e| MpiError::Protocol(e.to_string()))?;
                    let node = graph.get(tier).expect("scheduled tiers are in the graph");
                    tiers_done += 1;
                    positions_done += node.size;
                    let part = positions_done as f64 / to_solve.max(1) as f64;
                    let how = used.as_ref().map_or(String::new(), |m| {
                        format!(
                            ", {}, rank peak {}",
                            m.mode,
                            m.measured_bytes
                                .map_or("unknown".to_string(), solver::memory::bytes)
                        )
                    });
                    log::info!(
                        "[{tiers_done}/{} tiers, {:.1}% of positions, {:.1?}{}] rank {r} stored tier {tier} ({}) in {seconds:.2}s ({} positions/s{how})",
                        todo.len(),
                        100.0 * part,
                        started.elapsed(),
                        eta(started.elapsed(), part),
                        node.name,
                        rate(node.size as f64 / seconds.max(1e-9))
                    );
                    memory.extend(used);
                    budget = match (budget, theirs) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    idle.push_back(r);
                    continue;
                }
                ToManager::Failed { tier, message } => (tier, message),
                other => {
                    return Err(MpiError::Protocol(format!(
                        "rank {r} sent {other:?} while solving"
                    )))
                }
            };
            let name = held.map(|h| h.name).unwrap_or_default();
            log::error!(
                "{} failed on tier {tier} ({name}): {message}; no more tiers are handed out, waiting for the busy ranks to store theirs",
                self.ranks[r]
            );
            if failure.is_none() {
                failure = Some(MpiError::WorkerFailed {
                    rank: self.ranks[r].to_string(),
                    tier,
                    name,
                    message,
                });
            }
        }
        let journal = self.journal.lock().expect("journal");
        journal.remove().map_err(|e| self.journal_error(e))?;
        drop(journal);
        if let Some(e) = failure {
            return Err(e);
        }
        let mut report = solver::report(game, db, graph, &todo, started)?;
        // The workers' CPU, each tier solved alone on one of them (the manager only
        // waits); the threads are the workers' in all.
        report.cpu_seconds = memory.iter().map(|m| m.cpu_seconds).sum();
        report.threads = self.ranks[1..].iter().map(|r| r.threads).sum();
        report.memory = memory;
        report.budget = budget;
        Ok(report)
    }
}

/// ", ETA 3m10s" from the time so far and the part of the positions done (nothing
/// before 1%, too early to say; positions are only roughly proportional to time).
fn eta(elapsed: Duration, part: f64) -> String {
    if !(0.01..1.0).contains(&part) {
        return String::new();
    }
    let left = elapsed.as_secs_f64() * (1.0 - part) / part;
    let s = left.round() as u64;
    if s >= 3600 {
        format!(", ETA {}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!(", ETA {}m{:02}s", s / 60, s % 60)
    } else {
        format!(", ETA {s}s")
    }
}

/// A thread that, when the launcher ends the job (SIGTERM; SIGINT, SIGHUP), prints
/// which rank held which tier, then lets the signal end the process as it would have.
struct SignalReport {
    handle: signal_hook::iterator::Handle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SignalReport {
    fn start(journal: Arc<Mutex<Journal>>) -> Option<SignalReport> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = match signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) {
            Ok(s) => s,
            Err(e) => {
                log::warn!("cannot watch for signals ({e}): if the job is ended, the tiers held are only in the log");
                return None;
            }
        };
        let handle = signals.handle();
        let thread = std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                let held = journal.lock().map(|j| j.describe()).unwrap_or_default();
                eprintln!(
                    "error: the MPI job was ended by signal {sig} ({}) while {held}. \
                     OpenMPI ends every rank when one of them dies, so a rank that held a tier may have been killed or run out of memory (see mpirun's note above or below). \
                     Tiers already stored are kept: run the same command again to resume.",
                    match sig {
                        SIGTERM => "SIGTERM",
                        SIGINT => "SIGINT",
                        _ => "SIGHUP",
                    }
                );
                let _ = signal_hook::low_level::emulate_default_handler(sig);
            }
        });
        Some(SignalReport {
            handle,
            thread: Some(thread),
        })
    }
}

impl Drop for SignalReport {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
