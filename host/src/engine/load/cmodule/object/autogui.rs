//! A C module's AutoGUI: its `position_to_autogui` / `move_to_autogui` strings (NULL,
//! or `GAMESMAN_UNSUPPORTED`: none) and the image data of its sidecar
//! (`load::sidecar`), attached to a variant when the strings of the positions near
//! its start fit the sidecar's board (every character with an image). The strings are checked against that board where they are
//! used (the server), exactly as a Rust module's; this file only calls and converts.

use super::{to_c, CGame};
use crate::engine::load::cmodule::abi;
use crate::engine::load::sidecar::{self, VariantImages};
use gamesman_plugin_api::object::{GameObject, ObjectResult};
use gamesman_plugin_api::{List, Move, TierPosition};
use std::sync::Arc;

impl CGame {
    /// An AutoGUI text function: `None` when the module says GAMESMAN_UNSUPPORTED.
    fn autogui_text(
        &self,
        function: &'static str,
        f: impl Fn(*mut std::ffi::c_char, u64, *mut abi::CError) -> i64,
    ) -> ObjectResult<Option<String>> {
        let unsupported = std::cell::Cell::new(false);
        let r = self.text(function, |buf, cap, e| {
            let n = f(buf, cap, e);
            if n == abi::UNSUPPORTED {
                unsupported.set(true);
                // Reported as the empty string (no AutoGUI).
                if cap > 0 {
                    // SAFETY: the buffer holds `cap` bytes.
                    unsafe { buf.write(0) };
                }
                return 0;
            }
            n
        });
        match r {
            _ if unsupported.get() => Ok(None),
            Ok(s) if s.is_empty() => Ok(None),
            Ok(s) => Ok(Some(s)),
            Err(e) => Err(e),
        }
    }

    /// `position_to_autogui(p)`; `None` when the module gives none.
    pub(super) fn c_autogui_position(&self, p: TierPosition) -> ObjectResult<Option<String>> {
        let Some(f) = self.table.position_to_autogui else {
            return Ok(None);
        };
        // SAFETY: an optional function of the struct, called as the header says.
        self.autogui_text("position_to_autogui", |buf, cap, e| unsafe {
            f(self.game, to_c(p), buf, cap, e)
        })
    }

    /// `move_to_autogui(p, m)`; `None` when the module gives none.
    pub(super) fn c_autogui_move(&self, p: TierPosition, m: Move) -> ObjectResult<Option<String>> {
        let Some(f) = self.table.move_to_autogui else {
            return Ok(None);
        };
        // SAFETY: as above.
        self.autogui_text("move_to_autogui", |buf, cap, e| unsafe {
            f(self.game, to_c(p), m.0, buf, cap, e)
        })
    }

    /// Attaches a variant's sidecar images when the module gives AutoGUI positions
    /// and the strings of the first `FIT_POSITIONS` positions reached from the start
    /// (breadth first, primitive ones not expanded) fit them (every character with an
    /// image, at most one per center); otherwise says why (naming the file) and the
    /// variant is served as text.
    pub(in crate::engine::load::cmodule) fn attach_images(&mut self, images: &VariantImages) {
        match self.fits(images) {
            Ok(()) => self.images = Some(Arc::new(images.clone())),
            Err(why) => log::warn!(
                "AutoGUI sidecar {}: at variants.{}: {why}; the variant is served without boards (as text)",
                images.path.display(),
                images.variant
            ),
        }
    }

    /// Whether the positions near the start draw with `images` (see `attach_images`).
    fn fits(&self, images: &VariantImages) -> Result<(), String> {
        let start = self.initial_position().map_err(|e| e.message.to_string())?;
        let mut seen = std::collections::HashSet::from([start]);
        let mut queue = std::collections::VecDeque::from([start]);
        let mut buf = vec![Move::default(); self.props.max_moves.max(1) as usize];
        while let Some(p) = queue.pop_front() {
            let failed = |e: gamesman_plugin_api::ffi::CallError| e.message.to_string();
            match self.c_autogui_position(p).map_err(failed)? {
                Some(s) => sidecar::check_position(images, &s)?,
                None if p == start => {
                    return Err(
                        "the module gives no AutoGUI positions (position_to_autogui)".into(),
                    )
                }
                None => return Err(format!("position_to_autogui gives nothing for {p}")),
            }
            if seen.len() >= FIT_POSITIONS
                || self.primitive(p).map_err(failed)? != gamesman_plugin_api::Value::UNDECIDED
            {
                continue;
            }
            let mut moves = List::new(&mut buf);
            self.generate_moves(p, &mut moves).map_err(failed)?;
            for &m in moves.as_slice() {
                let child = self.do_move(p, m).map_err(failed)?;
                if seen.len() < FIT_POSITIONS && seen.insert(child) {
                    queue.push_back(child);
                }
            }
        }
        Ok(())
    }
}

/// How many positions near the start a sidecar is checked against when it loads.
const FIT_POSITIONS: usize = 256;
