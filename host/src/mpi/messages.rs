//! The messages between the manager (rank 0) and the workers, and how they travel:
//! small JSON documents sent as byte buffers with one tag. Tier records never cross
//! MPI; workers read and write them in the shared database directory.
//!
//! Only the main thread of a rank calls these (MPI is started with funneled
//! threading). This file must not decide anything: it only carries.

use super::checks::Fingerprint;
use super::MpiError;
use crate::engine::solver::TierMemory;
use ::mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use ::mpi::topology::{Communicator, SimpleCommunicator};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// The one tag every message uses.
const TAG: i32 = 21;

/// What a worker tells the manager.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ToManager {
    /// First message: who the worker is and what it loaded (or why it could not).
    Hello {
        /// Process id.
        pid: u32,
        /// Node name.
        host: String,
        /// Solver threads.
        threads: usize,
        /// The game it loaded, or why its tier graph could not be built.
        fingerprint: Result<Fingerprint, String>,
    },
    /// The shared-directory check: the manager's marker was seen and the worker's
    /// own written (or why not). The worker is then ready for tiers.
    Checked(Result<(), String>),
    /// A tier is solved and stored.
    Solved {
        /// The tier.
        tier: u64,
        /// Seconds it took.
        seconds: f64,
        /// How it was solved and the worker's memory (absent from older workers).
        #[serde(default)]
        memory: Option<TierMemory>,
        /// The worker's budget, in bytes.
        #[serde(default)]
        budget: Option<u64>,
    },
    /// A tier could not be solved.
    Failed {
        /// The tier.
        tier: u64,
        /// The error, as a user would read it.
        message: String,
    },
}

/// What the manager tells a worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ToWorker {
    /// Look for the manager's marker and write yours (named by this nonce).
    Check {
        /// Names the markers of this run.
        nonce: String,
        /// The manager's node, written in its marker.
        host: String,
    },
    /// Solve and store this tier (its children are stored).
    Solve {
        /// The tier.
        tier: u64,
    },
    /// The run is over (finished, or ended by an error the manager reports).
    Stop,
}

fn encode<T: Serialize>(m: &T) -> Vec<u8> {
    serde_json::to_vec(m).expect("messages serialize")
}

fn decode<T: DeserializeOwned>(from: i32, bytes: &[u8]) -> Result<T, MpiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        MpiError::Protocol(format!(
            "rank {from} sent a message this rank cannot read ({e}); are all ranks running the same host-mpi build?"
        ))
    })
}

/// Sends `m` to `rank`.
pub fn send<T: Serialize>(world: &SimpleCommunicator, rank: usize, m: &T) {
    let bytes = encode(m);
    world
        .process_at_rank(rank as i32)
        .send_with_tag(&bytes[..], TAG);
}

/// Waits for the manager's next message (workers). Polls with short sleeps instead
/// of a blocking receive: MPI libraries spin while blocked, which would steal the
/// cores of busy ranks on the same node.
pub fn receive_from_manager(world: &SimpleCommunicator) -> Result<ToWorker, MpiError> {
    let mut nap = Backoff::default();
    loop {
        if let Some(probed) = world
            .process_at_rank(0)
            .immediate_matched_probe_with_tag(TAG)
        {
            let (bytes, _) = probed.matched_receive_vec::<u8>();
            return decode(0, &bytes);
        }
        nap.sleep();
    }
}

/// Sleeps between polls: 1 ms at first, up to 10 ms while nothing arrives.
#[derive(Default)]
pub struct Backoff(u32);

impl Backoff {
    /// Sleeps a little longer than last time.
    pub fn sleep(&mut self) {
        self.0 = (self.0 + 1).min(10);
        std::thread::sleep(std::time::Duration::from_millis(self.0 as u64));
    }

    /// Something arrived: poll quickly again.
    pub fn reset(&mut self) {
        self.0 = 0;
    }
}

/// A worker's message if one has arrived, without waiting (the manager).
pub fn poll_workers(world: &SimpleCommunicator) -> Result<Option<(usize, ToManager)>, MpiError> {
    let Some(probed) = world.any_process().immediate_matched_probe_with_tag(TAG) else {
        return Ok(None);
    };
    let (bytes, status) = probed.matched_receive_vec::<u8>();
    let from = status.source_rank();
    Ok(Some((from as usize, decode(from, &bytes)?)))
}
