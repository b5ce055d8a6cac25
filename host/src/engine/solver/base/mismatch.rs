//! What a failed verification tells the user: the tier, the position, the move that
//! contradicts its record, both values, and what to do next. Presentation of the
//! failure only; the check itself lives in `mod.rs`.

use crate::engine::game::ModuleError;
use gamesman_plugin_api::Tier;

/// Where the records under check come from (only the message differs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Just solved, not yet stored.
    Solve,
    /// Read from a stored database.
    Stored,
}

/// A record that does not follow from its children, with everything a user needs to
/// find the fault.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The module's name.
    pub module: String,
    /// The variant's name.
    pub variant: String,
    /// The tier.
    pub tier: Tier,
    /// Its name.
    pub tier_name: String,
    /// The position, in the module's text.
    pub position: String,
    /// The move that contradicts the record, in the module's text, if one does.
    pub mv: Option<String>,
    /// The record, in words.
    pub stored: String,
    /// What the children call for, in words (`None` when they call for nothing: a
    /// child without a record).
    pub derived: Option<String>,
    /// The evidence, as a clause ("its move take1 leads to 3b, which is lose in 2").
    pub because: String,
    /// Just solved or stored.
    pub stage: Stage,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "verification failed in tier {} ({}) at position {}: the record is {}, but {}",
            self.tier, self.tier_name, self.position, self.stored, self.because
        )?;
        if let Some(d) = &self.derived {
            write!(f, ", so it must be {d}")?;
        }
        match self.stage {
            Stage::Solve => write!(
                f,
                ". Nothing was stored for tier {}: the module's functions contradict each other (moves, undo moves or parents, symmetry, legality).",
                self.tier
            )?,
            Stage::Stored => write!(
                f,
                ". The stored database does not follow from the module: it was changed, solved by another version of the module, or the module is inconsistent; solve again with --force once the cause is fixed."
            )?,
        }
        write!(
            f,
            " Run `validate --plugin {} --variant {}` to find the module's fault",
            self.module, self.variant
        )
    }
}

/// Why a verification failed.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// A record does not follow from its children.
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
    /// The module failed while being asked.
    #[error("verifying tier {tier} ({name}): {cause}")]
    Module {
        /// The tier.
        tier: Tier,
        /// Its name.
        name: String,
        /// The module's failure.
        cause: ModuleError,
    },
    /// A child tier's records could not be read.
    #[error("verifying tier {tier} ({name}): {cause}")]
    Read {
        /// The tier.
        tier: Tier,
        /// Its name.
        name: String,
        /// The read's failure.
        cause: crate::engine::db::DbError,
    },
}

impl VerifyError {
    /// The mismatch, if this is one.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        match self {
            VerifyError::Mismatch(m) => Some(m),
            VerifyError::Module { .. } | VerifyError::Read { .. } => None,
        }
    }
}
