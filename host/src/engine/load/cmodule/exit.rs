//! A C module that calls `exit()` itself (not through the GamesmanClassic layer,
//! which turns `exit()` into an error status) would end the host silently, perhaps
//! with status 0 and half an answer. The host cannot return from `exit()`, but it can
//! make it loud: while a call into a C module runs, the thread notes which module and
//! function, and an `atexit` handler that finds such a note prints one error paragraph
//! and ends the process with a failure status.
//!
//! `_exit()` skips `atexit` handlers, so the host binary defines `_exit` itself and
//! exports it (`host/build.rs`): the dynamic linker binds a module's `_exit` to it, and
//! it reports a call from inside a module the same way before ending the process with
//! `exit_group` (what libc's `_exit` does). A crash in a module call (SIGSEGV, SIGBUS,
//! SIGILL, SIGFPE, SIGABRT from `abort()`) prints a line naming the module and the
//! function from a signal handler, which then puts back the previous handler so the
//! signal ends the process as it would have (never with status 0).
//!
//! This file must not do anything else at exit (no flushing of databases: a solve's
//! finished tiers are already on disk).

use crate::engine::signal_safe::{self, Text};
use std::cell::Cell;
use std::os::raw::c_int;
use std::sync::Once;

extern "C" {
    fn atexit(callback: extern "C" fn()) -> c_int;
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
    // Reported once: the `_exit` below is ours, and must not report it again.
    let _ = IN_CALL.try_with(|c| c.set(None));
    // SAFETY: ends the process at once, as the module asked, but with a failure status.
    unsafe { _exit(1) }
}

/// Registers the handlers (once per process).
pub fn install_exit_report() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: registers a plain `extern "C"` function; if registration fails, an
        // exit from a module stays unreported, which is what happens without it.
        unsafe { atexit(report_exit_from_module) };
        for sig in CRASH_SIGNALS {
            // SAFETY: installs `report_crash`, which only reads a thread-local Cell,
            // formats into a stack buffer, writes to stderr and restores the previous
            // action (all async-signal-safe).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = report_crash as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, &action, &mut previous) == 0 {
                    PREVIOUS[slot(sig)] = previous;
                }
            }
        }
        // Keeps the exported `_exit` in the binary.
        std::hint::black_box(_exit as unsafe extern "C" fn(c_int) -> !);
    });
}

/// The signals a crashing module call raises.
const CRASH_SIGNALS: [c_int; 5] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
];

/// The actions that were in place before ours, by `slot`.
static mut PREVIOUS: [libc::sigaction; 5] = unsafe { std::mem::zeroed() };

fn slot(sig: c_int) -> usize {
    CRASH_SIGNALS.iter().position(|&s| s == sig).unwrap_or(0)
}

/// The start of the error paragraph about a call into a module: `error: game module
/// 'MODULE' WHAT FUNCTION`.
fn about_call(module: &str, what: &[u8], function: &str) -> Text {
    let mut text = Text::new();
    text.put(b"error: game module '");
    text.put(module.as_bytes());
    text.put(b"' ");
    text.put(what);
    text.put(function.as_bytes());
    text
}

extern "C" fn report_crash(sig: c_int, _info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    if let Ok(Some((module, function))) = IN_CALL.try_with(Cell::get) {
        let name: &[u8] = match sig {
            libc::SIGSEGV => b"SIGSEGV, a bad memory access",
            libc::SIGBUS => b"SIGBUS, a bad memory access",
            libc::SIGILL => b"SIGILL, an illegal instruction",
            libc::SIGFPE => b"SIGFPE, an arithmetic fault such as a division by zero",
            _ => b"SIGABRT: it called abort() or failed an assert()",
        };
        let mut text = about_call(module, b"crashed in ", function);
        text.put(b" (");
        text.put(name);
        text.put(b"); the host stops. The module's code is at fault: run it under a debugger, or check it with `host --plugin FILE info`.\n");
        text.write_to(2);
    }
    // SAFETY: puts back the action that was in place before ours; the signal, raised
    // again by the faulting instruction or by abort(), then does what it did before.
    unsafe {
        // SIGFPE returns to the faulting instruction only to fault again: it is raised
        // below with the default action.
        let previous = std::ptr::addr_of!(PREVIOUS[slot(sig)]).read();
        signal_safe::restore(sig, (sig != libc::SIGFPE).then_some(&previous));
        if sig == libc::SIGABRT || sig == libc::SIGFPE {
            libc::raise(sig);
        }
    }
}

/// `_exit` for the whole process, bound by the dynamic linker in place of libc's for
/// every module (the host exports it): reports a call from inside a module, then ends
/// the process as libc's `_exit` does.
///
/// # Safety
/// Ends the process; never returns.
#[no_mangle]
pub unsafe extern "C" fn _exit(status: c_int) -> ! {
    let mut status = status;
    if let Ok(Some((module, function))) = IN_CALL.try_with(Cell::get) {
        let mut text = about_call(module, b"called _exit() in ", function);
        text.put(b", which ends the host. A C module reports errors by returning GAMESMAN_ERROR with a message (gamesman_fail).\n");
        text.write_to(2);
        status = 1;
    }
    libc::syscall(libc::SYS_exit_group, status as libc::c_long);
    loop {
        libc::syscall(libc::SYS_exit, status as libc::c_long);
    }
}
