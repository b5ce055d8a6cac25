//! One opened variant of a C module as a `GameObject`: each method calls the
//! module's function through the struct, with a fresh error buffer, under the
//! module's lock unless it declares itself thread-safe, and turns error statuses into
//! `CallError`s carrying the module's message. NULL functions get the Rust trait's
//! defaults.
//!
//! This file must not check what the module returns beyond the C conventions (status
//! codes, counts, string lengths): the plugin adapter around it does the rest, exactly
//! as for Rust modules.

use super::abi::{self, CError, CModuleStruct, CPosition, CProperties, Game};
use super::exit::CallNote;
use super::{CModuleError, OpenError};
use gamesman_plugin_api::ffi::{CallError, CallErrorKind};
use gamesman_plugin_api::object::{
    position_to_text_by_index, text_to_move_by_name, text_to_position_by_index, GameObject,
    ObjectResult,
};
use gamesman_plugin_api::{List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value};
use std::ffi::{c_char, CStr, CString};
use std::mem::MaybeUninit;
use std::os::raw::c_int;
use std::sync::{Mutex, MutexGuard, PoisonError};

mod autogui;
mod fast;

/// A variant of a C module, opened by `new_game`; freed with `free_game` on drop.
pub struct CGame {
    table: CModuleStruct,
    game: Game,
    module: &'static str,
    props: Properties,
    /// The variant's `GAMESMAN_FLAG_*` (the module's, or its `properties`').
    flags: u64,
    /// Held around every call unless the module is thread-safe.
    lock: Option<Mutex<()>>,
    /// The variant's images from the module's sidecar, if any fit (`autogui`).
    images: Option<std::sync::Arc<crate::engine::load::sidecar::VariantImages>>,
}

// SAFETY: the module's functions are called under `lock` unless the module declares
// GAMESMAN_FLAG_THREAD_SAFE, in which case gamesman_plugin.h allows concurrent calls
// with the same game pointer from any thread.
unsafe impl Send for CGame {}
// SAFETY: as above.
unsafe impl Sync for CGame {}

/// The error buffer of one call, cleared before it (by `raw_call`).
struct ErrBuf(MaybeUninit<CError>);

impl ErrBuf {
    /// An uncleared buffer. Nothing is written here: a buffer written before it is
    /// returned would be copied (a kilobyte on every call into the module).
    #[inline(always)]
    fn new() -> ErrBuf {
        ErrBuf(MaybeUninit::uninit())
    }

    /// Makes the message the empty string; done right before each call.
    #[inline(always)]
    fn clear(&mut self) {
        // SAFETY: writes the first byte of the buffer, making it the empty string.
        unsafe { self.first().write(0) };
    }

    #[inline]
    fn ptr(&mut self) -> *mut CError {
        self.0.as_mut_ptr()
    }

    /// The message's first byte, without making a reference to the buffer.
    #[inline]
    fn first(&mut self) -> *mut c_char {
        // SAFETY: a field projection of the buffer's own pointer.
        unsafe { std::ptr::addr_of_mut!((*self.0.as_mut_ptr()).message).cast::<c_char>() }
    }

    /// The message the module wrote (terminated at the buffer's end if it forgot).
    fn message(&mut self) -> String {
        let first = self.first();
        // SAFETY: the buffer holds the empty string written before the call or the
        // NUL-terminated message the module wrote; forcing the last byte to NUL bounds
        // the read even if the module forgot the terminator.
        unsafe {
            first.add(abi::MESSAGE_CAPACITY - 1).write(0);
            let text = CStr::from_ptr(first).to_string_lossy();
            let text = text.trim();
            if text.is_empty() {
                "the module gave no message".to_string()
            } else {
                text.to_string()
            }
        }
    }
}

fn module_error(message: String) -> CallError {
    CallError {
        kind: CallErrorKind::MODULE_ERROR,
        message: message.into(),
    }
}

fn to_c(p: TierPosition) -> CPosition {
    CPosition {
        tier: p.tier.0,
        index: p.position,
    }
}

fn from_c(p: CPosition) -> TierPosition {
    TierPosition::new(Tier(p.tier), p.index)
}

/// What the module's flags and capacities say about a variant.
fn properties_of(flags: u64, max_moves: u32, max_undo: u32, max_tiers: u32) -> Properties {
    let d = Properties::default();
    let or = |v: u32, default: u32| if v == 0 { default } else { v };
    Properties {
        players: if flags & abi::FLAG_PUZZLE != 0 { 1 } else { 2 },
        is_tier_game: flags & abi::FLAG_TIERS != 0,
        supports_winby: flags & abi::FLAG_WINBY != 0,
        go_again: flags & abi::FLAG_GO_AGAIN != 0,
        has_symmetry: flags & abi::FLAG_SYMMETRY != 0,
        has_score: flags & abi::FLAG_SCORE != 0,
        max_moves: or(max_moves, d.max_moves),
        max_undo_moves: or(max_undo, d.max_undo_moves),
        max_tier_children: or(max_tiers, d.max_tier_children),
    }
}

/// The list functions that may answer `GAMESMAN_UNSUPPORTED` (`fast::optional` covers
/// the others that may).
const OPTIONAL_LISTS: [&str; 3] = ["generate_undo_moves_to_tier", "children", "parents"];

/// The first size tried for a text; longer texts are asked for again.
const TEXT_START: usize = 256;
/// The longest text a module may return (a position, a move, a board): a length past it
/// is the module's error, refused before anything that long is allocated.
pub const TEXT_MAX: usize = 1 << 20;

impl CGame {
    /// Opens `variant` with `new_game` and reads its properties.
    pub(super) fn open(
        table: CModuleStruct,
        module: &str,
        variant: &str,
    ) -> Result<CGame, OpenError> {
        let module: &'static str = Box::leak(module.to_string().into_boxed_str());
        let lock = (table.flags & abi::FLAG_THREAD_SAFE == 0).then(|| Mutex::new(()));
        let name = CString::new(variant)
            .map_err(|_| OpenError::Failed("the variant name holds a NUL byte".into()))?;
        let new_game = table.new_game.expect("checked at load");
        let mut err = ErrBuf::new();
        err.clear();
        let game = {
            let _note = CallNote::new(module, "new_game");
            // SAFETY: a REQUIRED function of the struct, called as the header says.
            unsafe { new_game(name.as_ptr(), err.ptr()) }
        };
        if game.is_null() {
            return Err(OpenError::Failed(format!(
                "new_game(\"{variant}\") failed: {}",
                err.message()
            )));
        }
        let mut out = CGame {
            table,
            game,
            module,
            props: properties_of(
                table.flags,
                table.max_moves,
                table.max_undo_moves,
                table.max_tier_children,
            ),
            flags: table.flags,
            lock,
            images: None,
        };
        if let Some(f) = table.properties {
            let mut p = CProperties::default();
            // SAFETY: an optional function of the struct, called as the header says.
            let rc = out.call("properties", |e| unsafe { f(game, &mut p, e) } as i64);
            rc.map_err(|e| OpenError::Failed(format!("properties failed: {}", e.message)))?;
            let missing = table.missing_for_flags(p.flags);
            if !missing.is_empty() {
                return Err(CModuleError::MissingFunctions { functions: missing }.into());
            }
            out.props = properties_of(p.flags, p.max_moves, p.max_undo_moves, p.max_tier_children);
            out.flags = p.flags;
        }
        Ok(out)
    }

    #[inline]
    fn guard(&self) -> Option<MutexGuard<'_, ()>> {
        self.lock
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Calls `f` with a fresh error buffer under the lock; a negative status becomes
    /// the module's error.
    #[inline]
    fn call(
        &self,
        function: &'static str,
        f: impl FnOnce(*mut CError) -> i64,
    ) -> ObjectResult<i64> {
        let mut err = ErrBuf::new();
        let rc = self.raw_call(function, &mut err, f);
        if rc >= 0 {
            return Ok(rc);
        }
        Err(self.status_error(rc, &mut err))
    }

    /// Calls `f` under the lock, noting the function for an `exit()` report.
    #[inline]
    fn raw_call(
        &self,
        function: &'static str,
        err: &mut ErrBuf,
        f: impl FnOnce(*mut CError) -> i64,
    ) -> i64 {
        let _lock = self.guard();
        let _note = CallNote::new(self.module, function);
        err.clear();
        f(err.ptr())
    }

    #[cold]
    fn status_error(&self, rc: i64, err: &mut ErrBuf) -> CallError {
        let message = err.message();
        if rc == abi::ERROR || rc == abi::REJECTED {
            module_error(message)
        } else {
            module_error(format!("returned the unknown status {rc} ({message})"))
        }
    }

    /// Like `call`, for text input: `GAMESMAN_REJECTED` is the user's error.
    fn call_input(
        &self,
        function: &'static str,
        f: impl FnOnce(*mut CError) -> i64,
    ) -> ObjectResult<Result<(), String>> {
        let mut err = ErrBuf::new();
        let rc = self.raw_call(function, &mut err, f);
        match rc {
            rc if rc >= 0 => Ok(Ok(())),
            abi::REJECTED => Ok(Err(err.message())),
            rc => Err(self.status_error(rc, &mut err)),
        }
    }

    /// A list function: the module writes into the list's spare room and returns the
    /// count; a count past the room is recorded as the list's overflow. Returns
    /// `false` when the module says `GAMESMAN_UNSUPPORTED` (only the optional list
    /// functions may).
    #[inline]
    fn fill<T>(
        &self,
        function: &'static str,
        list: &mut List<'_, T>,
        f: impl FnOnce(*mut T, u32, *mut CError) -> i64,
    ) -> ObjectResult<bool>
    where
        T: Copy,
    {
        let spare = list.spare_mut();
        let cap = u32::try_from(spare.len()).unwrap_or(u32::MAX);
        let ptr = spare.as_mut_ptr();
        let mut err = ErrBuf::new();
        let n = self.raw_call(function, &mut err, |e| f(ptr, cap, e));
        if n == abi::UNSUPPORTED && OPTIONAL_LISTS.contains(&function) {
            return Ok(false);
        }
        if n < 0 {
            return Err(self.status_error(n, &mut err));
        }
        list.advance(usize::try_from(n).unwrap_or(usize::MAX));
        Ok(true)
    }

    /// A text function, asked again with a larger buffer when the text did not fit.
    fn text(
        &self,
        function: &'static str,
        f: impl Fn(*mut c_char, u64, *mut CError) -> i64,
    ) -> ObjectResult<String> {
        let mut buf = vec![0u8; TEXT_START];
        for _ in 0..2 {
            let cap = buf.len();
            let ptr = buf.as_mut_ptr().cast::<c_char>();
            let n = self.call(function, |e| f(ptr, cap as u64, e))? as usize;
            if n < cap {
                buf.truncate(n);
                return Ok(String::from_utf8_lossy(&buf).into_owned());
            }
            if n > TEXT_MAX {
                return Err(module_error(format!(
                    "returned a text length of {n} bytes, more than any text a module may return ({TEXT_MAX} bytes)"
                )));
            }
            buf = vec![0u8; n.saturating_add(1)];
        }
        Err(module_error(
            "returned a longer text when asked again with room for the length it gave first".into(),
        ))
    }

    /// A function writing one position.
    #[inline]
    fn position(
        &self,
        function: &'static str,
        f: impl FnOnce(*mut CPosition, *mut CError) -> c_int,
    ) -> ObjectResult<TierPosition> {
        let mut out = CPosition::default();
        self.call(function, |e| i64::from(f(&mut out, e)))?;
        Ok(from_c(out))
    }

    /// A function writing one `i64`.
    fn int(
        &self,
        function: &'static str,
        f: impl FnOnce(*mut i64, *mut CError) -> c_int,
    ) -> ObjectResult<i64> {
        let mut out = 0i64;
        self.call(function, |e| i64::from(f(&mut out, e)))?;
        Ok(out)
    }
}

impl Drop for CGame {
    fn drop(&mut self) {
        if let Some(free) = self.table.free_game {
            let _lock = self.guard();
            let _note = CallNote::new(self.module, "free_game");
            // SAFETY: frees the game `new_game` returned, once.
            unsafe { free(self.game) };
        }
    }
}

/// Unwraps a REQUIRED function (checked non-NULL at load time).
macro_rules! required {
    ($self:ident . $f:ident) => {
        $self
            .table
            .$f
            .expect(concat!(stringify!($f), " is checked at load time"))
    };
}

// Every `unsafe` block below calls a function of the module's struct with the
// arguments gamesman_plugin.h documents: the game `new_game` returned, buffers valid
// for the capacity passed, and a fresh error buffer.
impl GameObject for CGame {
    fn properties(&self) -> Properties {
        self.props.clone()
    }

    fn turn_free(&self) -> bool {
        self.flags & abi::FLAG_TURN_FREE != 0
    }

    fn initial_position(&self) -> ObjectResult<TierPosition> {
        let f = required!(self.initial_position);
        self.position("initial_position", |out, e| unsafe { f(self.game, out, e) })
    }

    #[inline]
    fn primitive(&self, p: TierPosition) -> ObjectResult<Value> {
        let f = required!(self.primitive);
        let v = self.call("primitive", |e| {
            i64::from(unsafe { f(self.game, to_c(p), e) })
        })?;
        // The adapter refuses codes other than the four a module may return.
        Ok(Value(u8::try_from(v).unwrap_or(u8::MAX)))
    }

    #[inline]
    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) -> ObjectResult<()> {
        let f = required!(self.generate_moves);
        self.fill("generate_moves", moves, |buf, cap, e| unsafe {
            // `Move` is a transparent u64.
            f(self.game, to_c(p), buf.cast::<u64>(), cap, e)
        })
        .map(drop)
    }

    #[inline]
    fn do_move(&self, p: TierPosition, m: Move) -> ObjectResult<TierPosition> {
        let f = required!(self.do_move);
        self.position("do_move", |out, e| unsafe {
            f(self.game, to_c(p), m.0, out, e)
        })
    }

    #[inline]
    fn turn(&self, p: TierPosition) -> ObjectResult<Player> {
        let f = required!(self.turn);
        let t = self.call("turn", |e| i64::from(unsafe { f(self.game, to_c(p), e) }))?;
        // Refused here, so every path (the solver's batches too) sees the same error.
        match t {
            1 | 2 => Ok(Player(t as u8)),
            t => Err(module_error(format!(
                "returned player {t} for {p}; the players are 1 and 2"
            ))),
        }
    }

    fn board_to_text(&self, p: TierPosition) -> ObjectResult<String> {
        let f = required!(self.board_to_text);
        self.text("board_to_text", |buf, cap, e| unsafe {
            f(self.game, to_c(p), buf, cap, e)
        })
    }

    fn move_to_text(&self, p: TierPosition, m: Move) -> ObjectResult<String> {
        let f = required!(self.move_to_text);
        self.text("move_to_text", |buf, cap, e| unsafe {
            f(self.game, to_c(p), m.0, buf, cap, e)
        })
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> ObjectResult<Result<Move, String>> {
        let Some(f) = self.table.text_to_move else {
            return text_to_move_by_name(self, p, text);
        };
        let Ok(c) = CString::new(text) else {
            return Ok(Err("a move cannot hold a NUL byte".into()));
        };
        let mut m = 0u64;
        Ok(self
            .call_input("text_to_move", |e| {
                i64::from(unsafe { f(self.game, to_c(p), c.as_ptr(), &mut m, e) })
            })?
            .map(|()| Move(m)))
    }

    fn position_to_text(&self, p: TierPosition) -> ObjectResult<String> {
        let Some(f) = self.table.position_to_text else {
            return Ok(position_to_text_by_index(p));
        };
        self.text("position_to_text", |buf, cap, e| unsafe {
            f(self.game, to_c(p), buf, cap, e)
        })
    }

    fn text_to_position(&self, text: &str) -> ObjectResult<Result<TierPosition, String>> {
        let Some(f) = self.table.text_to_position else {
            return text_to_position_by_index(self, text);
        };
        let Ok(c) = CString::new(text) else {
            return Ok(Err("a position cannot hold a NUL byte".into()));
        };
        let mut out = CPosition::default();
        Ok(self
            .call_input("text_to_position", |e| {
                i64::from(unsafe { f(self.game, c.as_ptr(), &mut out, e) })
            })?
            .map(|()| from_c(out)))
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) -> ObjectResult<()> {
        let Some(f) = self.table.tier_children else {
            children.push(tier);
            return Ok(());
        };
        self.fill("tier_children", children, |buf, cap, e| unsafe {
            // `Tier` is a transparent u64.
            f(self.game, tier.0, buf.cast::<u64>(), cap, e)
        })
        .map(drop)
    }

    #[inline]
    fn tier_size(&self, tier: Tier) -> ObjectResult<u64> {
        let f = required!(self.tier_size);
        let mut size = 0u64;
        self.call("tier_size", |e| {
            i64::from(unsafe { f(self.game, tier.0, &mut size, e) })
        })?;
        Ok(size)
    }

    #[inline]
    fn is_legal(&self, p: TierPosition) -> ObjectResult<bool> {
        let Some(f) = self.table.is_legal else {
            return Ok(true);
        };
        let r = self.call("is_legal", |e| {
            i64::from(unsafe { f(self.game, to_c(p), e) })
        })?;
        Ok(r != 0)
    }

    #[inline]
    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) -> ObjectResult<()> {
        let Some(f) = self.table.generate_undo_moves_to_tier else {
            undo.mark_unsupported();
            return Ok(());
        };
        let given = self.fill("generate_undo_moves_to_tier", undo, |buf, cap, e| unsafe {
            // `UndoMove` is a transparent u64.
            f(self.game, to_c(p), tier.0, buf.cast::<u64>(), cap, e)
        })?;
        if !given {
            undo.mark_unsupported();
        }
        Ok(())
    }

    #[inline]
    fn undo_move(&self, p: TierPosition, u: UndoMove) -> ObjectResult<TierPosition> {
        let Some(f) = self.table.undo_move else {
            return Ok(p);
        };
        self.position("undo_move", |out, e| unsafe {
            f(self.game, to_c(p), u.0, out, e)
        })
    }

    fn tier_name(&self, tier: Tier) -> ObjectResult<String> {
        let Some(f) = self.table.tier_name else {
            return Ok(tier.0.to_string());
        };
        self.text("tier_name", |buf, cap, e| unsafe {
            f(self.game, tier.0, buf, cap, e)
        })
    }

    #[inline]
    fn children(&self, p: TierPosition, out: &mut List<'_, TierPosition>) -> ObjectResult<bool> {
        let Some(f) = self.table.children else {
            return Ok(false);
        };
        self.fill("children", out, |buf, cap, e| unsafe {
            // `TierPosition` is `#[repr(C)] {tier: u64, position: u64}`, as
            // gamesman_position.
            f(self.game, to_c(p), buf.cast::<CPosition>(), cap, e)
        })
    }

    #[inline]
    fn parents(
        &self,
        p: TierPosition,
        tier: Tier,
        out: &mut List<'_, TierPosition>,
    ) -> ObjectResult<bool> {
        let Some(f) = self.table.parents else {
            return Ok(false);
        };
        self.fill("parents", out, |buf, cap, e| unsafe {
            f(self.game, to_c(p), tier.0, buf.cast::<CPosition>(), cap, e)
        })
    }

    fn fast_paths_canonical(&self) -> bool {
        self.fast_canonical()
    }

    fn prefers_forward(&self) -> bool {
        self.solve_forward()
    }

    fn order_free(&self) -> bool {
        // Only a module that allows concurrent calls promises answers that do not
        // depend on their order (a Classic module's Primitive can read a hash context
        // the previous call left).
        self.lock.is_none()
    }

    #[inline]
    fn scan_position(&self, p: TierPosition) -> ObjectResult<Option<(Value, u32)>> {
        self.scan(p)
    }

    #[inline]
    fn is_canonical(&self, p: TierPosition) -> ObjectResult<Option<bool>> {
        self.canonical_test(p)
    }

    fn memory_budget(&self, bytes: u64) -> ObjectResult<u64> {
        self.budget(bytes)
    }

    fn win_by(&self, p: TierPosition) -> ObjectResult<i64> {
        let Some(f) = self.table.win_by else {
            return Ok(0);
        };
        self.int("win_by", |out, e| unsafe { f(self.game, to_c(p), out, e) })
    }

    #[inline]
    fn canonical_position(&self, p: TierPosition) -> ObjectResult<TierPosition> {
        let Some(f) = self.table.canonical_position else {
            return Ok(p);
        };
        self.position("canonical_position", |out, e| unsafe {
            f(self.game, to_c(p), out, e)
        })
    }

    fn score(&self, p: TierPosition) -> ObjectResult<i64> {
        let Some(f) = self.table.score else {
            return Ok(0);
        };
        self.int("score", |out, e| unsafe { f(self.game, to_c(p), out, e) })
    }

    fn autogui_board(&self) -> ObjectResult<Option<gamesman_plugin_api::autogui::Board>> {
        Ok(self.images.as_ref().map(|i| i.board.clone()))
    }

    fn autogui_position(&self, p: TierPosition) -> ObjectResult<Option<String>> {
        self.c_autogui_position(p)
    }

    fn autogui_move(&self, p: TierPosition, m: Move) -> ObjectResult<Option<String>> {
        let s = self.c_autogui_move(p, m)?;
        Ok(match &self.images {
            Some(images) => s.map(|s| images.serve_move(s)),
            None => s,
        })
    }

    fn image_autogui_data(&self) -> ObjectResult<Option<String>> {
        Ok(self.images.as_ref().map(|i| i.json.clone()))
    }
}
