//! The functions header revisions 2 and 3 append, for `CGame`: the scan's primitive
//! value with its count of distinct canonical children (`scan_position`), the
//! canonical test (`is_canonical`), whether `children`/`parents` are canonical and
//! distinct (`GAMESMAN_FLAG_FAST_PATHS_CANONICAL`), and the module's share of the
//! memory budget (`memory_budget`). A module built against an earlier revision lacks
//! them: its struct ends before them and the loader's zeroed copy leaves them NULL,
//! which answers "not given" here. This file must not check what the module returns
//! beyond the C conventions (the plugin adapter does).

use super::super::abi::{self, CError};
use super::{to_c, CGame, ErrBuf};
use gamesman_plugin_api::object::ObjectResult;
use gamesman_plugin_api::{TierPosition, Value};

impl CGame {
    /// Like `call`, for a function that may answer `GAMESMAN_UNSUPPORTED` (`None`).
    #[inline]
    pub(super) fn optional(
        &self,
        function: &'static str,
        f: impl FnOnce(*mut CError) -> i64,
    ) -> ObjectResult<Option<i64>> {
        let mut err = ErrBuf::new();
        match self.raw_call(function, &mut err, f) {
            rc if rc >= 0 => Ok(Some(rc)),
            abi::UNSUPPORTED => Ok(None),
            rc => Err(self.status_error(rc, &mut err)),
        }
    }

    /// Whether the variant declares its fast paths canonical and free of duplicates.
    pub(super) fn fast_canonical(&self) -> bool {
        self.flags & abi::FLAG_FAST_PATHS_CANONICAL != 0
    }

    /// Whether the variant asks to be solved by its children (`GAMESMAN_FLAG_SOLVE_FORWARD`).
    pub(super) fn solve_forward(&self) -> bool {
        self.flags & abi::FLAG_SOLVE_FORWARD != 0
    }

    /// `scan_position`: `None` when NULL or `GAMESMAN_UNSUPPORTED`.
    pub(super) fn scan(&self, p: TierPosition) -> ObjectResult<Option<(Value, u32)>> {
        let Some(f) = self.table.scan_position else {
            return Ok(None);
        };
        let mut children = 0u32;
        // SAFETY: an optional function of the struct, called as the header says.
        let rc = self.optional("scan_position", |e: *mut CError| {
            i64::from(unsafe { f(self.game, to_c(p), &mut children, e) })
        })?;
        // The adapter refuses codes other than the four a module may return.
        Ok(rc.map(|v| (Value(u8::try_from(v).unwrap_or(u8::MAX)), children)))
    }

    /// `is_canonical`: `None` when NULL or `GAMESMAN_UNSUPPORTED`.
    pub(super) fn canonical_test(&self, p: TierPosition) -> ObjectResult<Option<bool>> {
        let Some(f) = self.table.is_canonical else {
            return Ok(None);
        };
        // SAFETY: an optional function of the struct, called as the header says.
        let rc = self.optional("is_canonical", |e: *mut CError| {
            i64::from(unsafe { f(self.game, to_c(p), e) })
        })?;
        Ok(rc.map(|r| r != 0))
    }

    /// `memory_budget`: what the module keeps of `bytes` (0 when NULL or
    /// `GAMESMAN_UNSUPPORTED`).
    pub(super) fn budget(&self, bytes: u64) -> ObjectResult<u64> {
        let Some(f) = self.table.memory_budget else {
            return Ok(0);
        };
        // SAFETY: an optional function of the struct, called as the header says.
        let rc = self.optional("memory_budget", |e: *mut CError| unsafe {
            f(self.game, bytes, e)
        })?;
        Ok(rc.map_or(0, |kept| kept as u64))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tier_position_has_the_c_layout() {
        use super::super::super::abi::CPosition;
        use gamesman_plugin_api::TierPosition;
        assert_eq!(
            std::mem::size_of::<TierPosition>(),
            std::mem::size_of::<CPosition>()
        );
        assert_eq!(std::mem::offset_of!(TierPosition, position), 8);
        assert_eq!(std::mem::offset_of!(CPosition, index), 8);
    }
}
