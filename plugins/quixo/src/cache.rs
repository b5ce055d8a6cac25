//! The 5x5 tiers' numberings (`pattern`) kept within a byte budget: a shared map of
//! the ones built, from which the least recently fetched are dropped when the budget is
//! passed, and in front of it, per thread, the last few used (so the solver's hot
//! paths take no lock: a tier and its children are what one thread touches at once).
//!
//! A numbering is built in well under a second for any tier (0.4 s for the largest
//! with 3 blanks), so dropping one costs little; keeping all 182 of them would take
//! about 4 GB (a sampled `validate` touches every tier). This file must not know
//! moves, ranks or the plugin API's positions beyond tier numbers.

use crate::pattern::PatternOrder;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Numberings each thread keeps at hand.
const RECENT: usize = 4;

/// Gives each cache its own number, for the per-thread entries.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One thread's recently used numberings: (cache id, tier, numbering).
type Recent = [(u64, u64, Option<Arc<PatternOrder>>); RECENT];

thread_local! {
    static RECENT_USED: RefCell<(Recent, usize)> = RefCell::new((Default::default(), 0));
}

/// The shared part: numberings by tier, with when each was last fetched.
#[derive(Default)]
struct Shared {
    map: HashMap<u64, (Arc<PatternOrder>, u64)>,
    bytes: usize,
    clock: u64,
}

/// Numberings by tier, built on first use, kept within `budget` bytes (besides the
/// few each thread holds).
pub struct Cache {
    id: u64,
    budget: AtomicUsize,
    shared: Mutex<Shared>,
}

impl Cache {
    /// An empty cache keeping about `budget` bytes of numberings.
    pub fn new(budget: usize) -> Cache {
        Cache {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            budget: AtomicUsize::new(budget),
            shared: Mutex::new(Shared::default()),
        }
    }

    /// Calls `f` with the numbering of tier `t`, built by `build` if no one has it.
    #[inline(always)]
    pub fn with<R>(
        &self,
        t: u64,
        build: impl FnOnce() -> PatternOrder,
        f: impl FnOnce(&PatternOrder) -> R,
    ) -> R {
        self.recent(t, build, |order| f(order))
    }

    /// The numbering of tier `t` itself (as `with`), for a caller that numbers many
    /// boards of it: one lookup instead of one a board.
    pub fn get(&self, t: u64, build: impl FnOnce() -> PatternOrder) -> Arc<PatternOrder> {
        self.recent(t, build, Arc::clone)
    }

    /// `f` of this thread's entry for tier `t`, fetched into its slots when missing.
    #[inline(always)]
    fn recent<R>(
        &self,
        t: u64,
        build: impl FnOnce() -> PatternOrder,
        f: impl FnOnce(&Arc<PatternOrder>) -> R,
    ) -> R {
        RECENT_USED.with(|cell| {
            let mut recent = cell.borrow_mut();
            let (slots, next) = &mut *recent;
            for (id, tier, order) in slots.iter() {
                if *id == self.id && *tier == t {
                    if let Some(order) = order {
                        return f(order);
                    }
                }
            }
            let order = self.fetch(t, build);
            let at = *next;
            *next = (at + 1) % RECENT;
            slots[at] = (self.id, t, Some(order));
            f(slots[at].2.as_ref().expect("just stored"))
        })
    }

    /// The numbering of tier `t` from the shared map, built (outside the lock) and
    /// added when missing, dropping the least recently fetched ones over the budget.
    #[inline(never)]
    fn fetch(&self, t: u64, build: impl FnOnce() -> PatternOrder) -> Arc<PatternOrder> {
        {
            let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            shared.clock += 1;
            let now = shared.clock;
            if let Some((order, used)) = shared.map.get_mut(&t) {
                *used = now;
                return order.clone();
            }
        }
        let order = Arc::new(build());
        let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        shared.clock += 1;
        let now = shared.clock;
        if let Some((existing, used)) = shared.map.get_mut(&t) {
            *used = now;
            return existing.clone();
        }
        shared.bytes += order.bytes();
        shared.map.insert(t, (order.clone(), now));
        Self::trim(&mut shared, self.budget.load(Ordering::Relaxed), Some(t));
        order
    }

    /// Drops the least recently fetched numberings (but `keep`) until `budget` holds.
    fn trim(shared: &mut Shared, budget: usize, keep: Option<u64>) {
        while shared.bytes > budget && shared.map.len() > 1 {
            let oldest = shared
                .map
                .iter()
                .filter(|(&tier, _)| Some(tier) != keep)
                .min_by_key(|(_, (_, used))| *used)
                .map(|(&tier, _)| tier);
            let Some(oldest) = oldest else { break };
            if let Some((dropped, _)) = shared.map.remove(&oldest) {
                shared.bytes -= dropped.bytes();
            }
        }
    }

    /// Keeps about `budget` bytes from now on (dropping numberings over it now).
    pub fn set_budget(&self, budget: usize) {
        self.budget.store(budget, Ordering::Relaxed);
        let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        Self::trim(&mut shared, budget, None);
    }

    /// The bytes of the numberings in the shared map.
    pub fn bytes(&self) -> usize {
        self.shared.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        // This thread's entries of this cache go with it (other threads' stay until
        // they are replaced: an id is never reused).
        let _ = RECENT_USED.try_with(|cell| {
            if let Ok(mut recent) = cell.try_borrow_mut() {
                for slot in recent.0.iter_mut() {
                    if slot.0 == self.id {
                        *slot = (0, 0, None);
                    }
                }
            }
        });
    }
}
