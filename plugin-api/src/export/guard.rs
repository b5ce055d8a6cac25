//! Running a game's code safely: every entry point goes through `guard`, which turns
//! a panic into a `CallError` naming the function (and the module function a batch
//! call was running), and `module_call!` notes which module function runs. This file
//! must not know any game call's meaning.

use crate::ffi::{CallError, CallErrorKind, CallResult};
use abi_stable::std_types::{RErr, ROk};
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    pub(super) static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The module function running on this thread, so a panic inside a batch call
    /// names it ("do_move") and not only the batch ("scan_batch").
    pub(super) static CURRENT: std::cell::Cell<&'static str> = const { std::cell::Cell::new("") };
}

/// Calls into the game object, noting which function runs, and returns early with
/// the error it reports.
macro_rules! module_call {
    ($name:literal, $call:expr) => {{
        CURRENT.with(|c| c.set($name));
        $call?
    }};
}

/// Installs a panic hook (in the plugin's own copy of std) that records where a panic
/// happened instead of printing it; the adapter turns it into a `CallError` message.
pub fn install_quiet_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let msg = panic_message(info.payload());
            let text = match info.location() {
                Some(l) => format!("{msg} (at {}:{})", l.file(), l.line()),
                None => msg,
            };
            LAST_PANIC.with(|c| *c.borrow_mut() = Some(text));
        }));
    });
}

pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

pub(super) fn err(kind: CallErrorKind, message: String) -> CallError {
    CallError {
        kind,
        message: message.into(),
    }
}

/// Runs `f`, turning a panic into a `CallError` that names `what`.
pub(super) fn guard<T>(what: &str, f: impl FnOnce() -> Result<T, CallError>) -> CallResult<T> {
    CURRENT.with(|c| c.set(""));
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => ROk(v),
        Ok(Err(mut e)) => {
            // A game object's own error inside a batch call: say which function.
            let inner = CURRENT.with(|c| c.get());
            if e.kind == CallErrorKind::MODULE_ERROR && !inner.is_empty() && inner != what {
                e.message = format!("{inner} failed: {}", e.message).into();
            }
            RErr(e)
        }
        Err(payload) => {
            let recorded = LAST_PANIC.with(|c| c.borrow_mut().take());
            let msg = recorded.unwrap_or_else(|| panic_message(payload.as_ref()));
            let inner = CURRENT.with(|c| c.get());
            // The host names the entry point (`what`); say the inner function only
            // when a batch call was running a different one.
            let text = if inner.is_empty() || inner == what {
                format!("panicked: {msg}")
            } else {
                format!("panicked in {inner}: {msg}")
            };
            RErr(err(CallErrorKind::PANIC, text))
        }
    }
}

pub(super) use module_call;
