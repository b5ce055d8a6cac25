//! A C module that calls `exit()` itself (not through the GamesmanClassic layer,
//! which turns `exit()` into an error status) would end the host silently, perhaps
//! with status 0 and half an answer. The host cannot return from `exit()`, but it can
//! make it loud: while a call into a C module runs, the thread notes which module and
//! function, and an `atexit` handler that finds such a note prints one error paragraph
//! and ends the process with a failure status.
//!
//! This file must not do anything else at exit (no flushing of databases: a solve's
//! finished tiers are already on disk).

use std::cell::Cell;
use std::os::raw::c_int;
use std::sync::Once;

extern "C" {
    fn atexit(callback: extern "C" fn()) -> c_int;
    fn _exit(status: c_int) -> !;
}

thread_local! {
    /// The module and function a call on this thread is running, if any.
    static IN_CALL: Cell<Option<(&'static str, &'static str)>> = const { Cell::new(None) };
}

/// Notes that this thread runs `function` of `module` until the guard is dropped.
pub struct CallNote {
    previous: Option<(&'static str, &'static str)>,
}

impl CallNote {
    /// Starts a note.
    #[inline]
    pub fn new(module: &'static str, function: &'static str) -> CallNote {
        CallNote {
            previous: IN_CALL.with(|c| c.replace(Some((module, function)))),
        }
    }
}

impl Drop for CallNote {
    #[inline]
    fn drop(&mut self) {
        IN_CALL.with(|c| c.set(self.previous));
    }
}

extern "C" fn report_exit_from_module() {
    let Ok(Some((module, function))) = IN_CALL.try_with(Cell::get) else {
        return;
    };
    eprintln!(
        "error: game module '{module}' called exit() in {function}, which ends the host. A C module reports errors by returning GAMESMAN_ERROR with a message (gamesman_fail); GamesmanClassic modules built with plugin-api/c/classic have exit() turned into such an error."
    );
    // SAFETY: ends the process at once, as the module asked, but with a failure status.
    unsafe { _exit(1) }
}

/// Registers the handler (once per process).
pub fn install_exit_report() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: registers a plain `extern "C"` function; if registration fails, an
        // exit from a module stays unreported, which is what happens without it.
        unsafe { atexit(report_exit_from_module) };
    });
}
