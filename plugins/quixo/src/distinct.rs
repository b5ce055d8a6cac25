//! A small set of boards for one `children` or `parents` call, so that each board is
//! ranked and returned once: the module promises the solver distinct canonical
//! positions (`fast_paths_canonical`), which spares the host a sort per call.
//!
//! Duplicates are rare (two pushes giving one board, or symmetric images of one
//! child), so membership is a 256-bit filter on a hash, with an exact scan of the
//! boards seen only when the filter says "maybe". This file must not know the rules.

/// The most boards one call holds (the most moves of any variant is 44, on 5x5;
/// `Quixo::new` checks its variant's).
pub const CAPACITY: usize = 64;

/// The boards seen so far in one call, as keys `x | o << 32`.
pub struct Distinct {
    filter: [u64; 4],
    keys: [u64; CAPACITY],
    len: usize,
}

impl Distinct {
    /// An empty set.
    #[inline(always)]
    pub fn new() -> Self {
        Distinct {
            filter: [0; 4],
            keys: [0; CAPACITY],
            len: 0,
        }
    }

    /// Adds `key`; returns whether it was new.
    #[inline(always)]
    pub fn insert(&mut self, key: u64) -> bool {
        let h = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize;
        let (word, bit) = (h >> 6, 1u64 << (h & 63));
        if self.filter[word] & bit != 0 && self.keys[..self.len].contains(&key) {
            return false;
        }
        self.filter[word] |= bit;
        self.keys[self.len] = key;
        self.len += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_is_new_once() {
        let mut d = Distinct::new();
        let mut seed = 3u64;
        let mut keys = Vec::new();
        for _ in 0..CAPACITY {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            keys.push(seed >> 40);
        }
        keys.sort_unstable();
        keys.dedup();
        for &k in &keys {
            assert!(d.insert(k));
        }
        for &k in &keys {
            assert!(!d.insert(k));
        }
    }
}
