//! Which positions of a tier verification checks: the modes `solve` offers and the
//! seeded sample. This file only chooses positions; it never reads a record.

use gamesman_plugin_api::Tier;

/// How much of each solved tier `solve` checks before storing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VerifyMode {
    /// Nothing.
    Off,
    /// Every position of tiers up to `SMALL_TIER` positions, one in `SAMPLE_SHARE` of
    /// larger tiers (chosen by a seeded hash, so a run is reproducible).
    #[default]
    Sample,
    /// Every position.
    Full,
}

impl std::str::FromStr for VerifyMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(VerifyMode::Off),
            "sample" => Ok(VerifyMode::Sample),
            "full" => Ok(VerifyMode::Full),
            other => Err(format!(
                "'{other}' is not a verification mode: use off, sample or full"
            )),
        }
    }
}

impl std::fmt::Display for VerifyMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            VerifyMode::Off => "off",
            VerifyMode::Sample => "sample",
            VerifyMode::Full => "full",
        })
    }
}

/// Tiers with at most this many positions are checked whole by `Sample`. (2^15 until
/// issue 31: on quixo 4x4 the tiers between 2^12 and 2^15 positions, checked whole,
/// were two thirds of the positions checked and 11% of the solve's CPU; a check costs
/// about two solves of a position.)
pub const SMALL_TIER: u64 = 1 << 12;
/// `Sample` checks one position in this many of larger tiers.
pub const SAMPLE_SHARE: u64 = 32;
/// Which positions of a tier to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every position.
    All,
    /// Small tiers whole, a seeded share of large ones.
    Sample {
        /// The seed of the choice.
        seed: u64,
    },
    /// As `Sample`, but the share taken in runs of `SAMPLE_RUN` consecutive positions:
    /// the children of neighbouring positions lie near each other, so a tier whose
    /// children are read through a block cache decodes each child block a few times
    /// instead of once per sampled position.
    SampleRuns {
        /// The seed of the choice.
        seed: u64,
    },
}

/// Positions per run of `Selection::SampleRuns`.
pub const SAMPLE_RUN: u64 = 4096;

impl Selection {
    /// The selection of a mode (`None` for `Off`).
    pub fn of(mode: VerifyMode, seed: u64) -> Option<Selection> {
        match mode {
            VerifyMode::Off => None,
            VerifyMode::Sample => Some(Selection::Sample { seed }),
            VerifyMode::Full => Some(Selection::All),
        }
    }

    /// The same share, taken in runs of consecutive positions.
    pub fn in_runs(self) -> Selection {
        match self {
            Selection::Sample { seed } => Selection::SampleRuns { seed },
            other => other,
        }
    }

    pub(super) fn whole(&self, size: u64) -> bool {
        match self {
            Selection::All => true,
            Selection::Sample { .. } | Selection::SampleRuns { .. } => size <= SMALL_TIER,
        }
    }

    pub(super) fn picks(&self, tier: Tier, i: u64) -> bool {
        match *self {
            Selection::All => true,
            Selection::Sample { seed } => {
                let h = splitmix(seed ^ splitmix(tier.0 ^ splitmix(i)));
                h.is_multiple_of(SAMPLE_SHARE)
            }
            Selection::SampleRuns { seed } => {
                let h = splitmix(seed ^ splitmix(tier.0 ^ splitmix(!(i / SAMPLE_RUN))));
                h.is_multiple_of(SAMPLE_SHARE)
            }
        }
    }
}

/// A 64-bit mixing function (SplitMix64's finaliser).
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_print() {
        for m in [VerifyMode::Off, VerifyMode::Sample, VerifyMode::Full] {
            assert_eq!(m.to_string().parse::<VerifyMode>(), Ok(m));
        }
        assert!("most".parse::<VerifyMode>().is_err());
        assert_eq!(VerifyMode::default(), VerifyMode::Sample);
        assert_eq!(Selection::of(VerifyMode::Off, 3), None);
        assert_eq!(Selection::of(VerifyMode::Full, 3), Some(Selection::All));
    }

    #[test]
    fn the_sample_is_a_seeded_share_of_large_tiers() {
        let s = Selection::Sample { seed: 0 };
        assert!(s.whole(SMALL_TIER) && !s.whole(SMALL_TIER + 1));
        assert!(Selection::All.whole(u64::MAX));
        let n = 1u64 << 20;
        let picked = |sel: Selection, t: u64| -> Vec<u64> {
            (0..n).filter(|&i| sel.picks(Tier(t), i)).collect()
        };
        let a = picked(s, 5);
        // About one in SAMPLE_SHARE, within a few standard deviations.
        let expected = n / SAMPLE_SHARE;
        assert!(a.len().abs_diff(expected as usize) < 800, "{}", a.len());
        // The same seed picks the same positions; another seed or tier others.
        assert_eq!(a, picked(s, 5));
        let b = picked(Selection::Sample { seed: 1 }, 5);
        let c = picked(s, 6);
        let common = |x: &[u64], y: &[u64]| x.iter().filter(|i| y.binary_search(i).is_ok()).count();
        assert!(common(&a, &b) < a.len() / 10);
        assert!(common(&a, &c) < a.len() / 10);
        // In runs: the same share, whole runs of consecutive positions.
        let r = picked(s.in_runs(), 5);
        assert!(
            r.len().abs_diff(expected as usize) < 8 * SAMPLE_RUN as usize,
            "{}",
            r.len()
        );
        assert!((r.len() as u64).is_multiple_of(SAMPLE_RUN) && !r.is_empty());
        assert!(r
            .chunks(SAMPLE_RUN as usize)
            .all(|c| c[0] % SAMPLE_RUN == 0 && c.windows(2).all(|w| w[1] == w[0] + 1)));
    }
}
