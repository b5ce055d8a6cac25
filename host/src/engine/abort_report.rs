//! What the process says when it aborts in the middle of a solve.
//!
//! The solver's big arrays are reserved with `try_reserve`, so running out there is a
//! returned error naming the tier. Any other allocation that fails (the host's smaller
//! structures, or the module's own memory) ends a Rust process through `abort()`, and a
//! module may call `abort()` itself; neither can become a returned error. So:
//! - the solver notes the tiers it is working on (`WorkingOn`, one slot a tier solved);
//! - the host binaries' global allocator (`ReportingAllocator`) notes the size of an
//!   allocation that failed (`allocation_handled` forgets it when a `try_reserve`
//!   failure was turned into an error);
//! - a SIGABRT handler (`install`) that finds a tier noted prints one error paragraph
//!   naming the tiers. When the host's allocator saw the failure, the paragraph gives
//!   its size and the process ends with the solve's exit code (or the error as JSON);
//!   otherwise (a module's own allocation or its `abort()`, which the host cannot tell
//!   apart) the signal then ends the process as it would have, as the C-module crash
//!   report does. Tiers stored before stay stored, so the same command resumes.
//!   Outside a solve, SIGABRT does what it did.
//!
//! Everything the handler touches is an atomic or a stack buffer: this file must not
//! allocate, lock or format in the handler, and must not import the solver.

use crate::engine::huge_pages;
use crate::engine::signal_safe::{self, Text};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, AtomicUsize, Ordering};
use std::sync::Once;

/// How many tiers solved side by side can be noted at once (more are not named).
const SLOTS: usize = 16;
/// How many bytes of a tier's name are noted.
const NAME_BYTES: usize = 64;

/// One noted tier: its name's bytes, and their count (0 when the slot holds nothing).
struct Slot {
    busy: AtomicBool,
    len: AtomicUsize,
    name: [AtomicU8; NAME_BYTES],
}

static WORKING: [Slot; SLOTS] = [const {
    Slot {
        busy: AtomicBool::new(false),
        len: AtomicUsize::new(0),
        name: [const { AtomicU8::new(0) }; NAME_BYTES],
    }
}; SLOTS];

/// The size of the last allocation of the host's that failed and was not handled (0:
/// none).
static FAILED_BYTES: AtomicUsize = AtomicUsize::new(0);
/// The exit code the handler ends the process with.
static EXIT_CODE: AtomicI32 = AtomicI32::new(1);
/// Whether errors go to stdout as one JSON object (`--json`).
static AS_JSON: AtomicBool = AtomicBool::new(false);

/// Notes that this thread solves a tier until dropped.
pub struct WorkingOn(Option<usize>);

impl WorkingOn {
    /// Notes the tier called `name` (its first 64 bytes, cut at a character's start).
    pub fn tier(name: &str) -> WorkingOn {
        let mut end = name.len().min(NAME_BYTES);
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        for (k, slot) in WORKING.iter().enumerate() {
            if slot
                .busy
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                let bytes = &name.as_bytes()[..end];
                for (cell, &b) in slot.name.iter().zip(bytes) {
                    cell.store(b, Ordering::Relaxed);
                }
                slot.len.store(bytes.len(), Ordering::Release);
                return WorkingOn(Some(k));
            }
        }
        WorkingOn(None)
    }
}

impl Drop for WorkingOn {
    fn drop(&mut self) {
        if let Some(k) = self.0 {
            WORKING[k].len.store(0, Ordering::Release);
            WORKING[k].busy.store(false, Ordering::Release);
        }
    }
}

/// A failed allocation was turned into a returned error (a `try_reserve`): the process
/// goes on, so the handler must not report it later.
pub fn allocation_handled() {
    FAILED_BYTES.store(0, Ordering::Relaxed);
}

/// The system allocator, noting the size of an allocation that fails (for the report).
pub struct ReportingAllocator;

fn noted(p: *mut u8, size: usize) -> *mut u8 {
    // A large block gets huge pages where the system lets the program choose.
    huge_pages::advise(p, size);
    if p.is_null() {
        FAILED_BYTES.store(size.max(1), Ordering::Relaxed);
    }
    p
}

// SAFETY: every call is passed to `System` unchanged; a null result is noted, and a
// large block advised (`huge_pages::advise`, which neither allocates nor writes).
unsafe impl GlobalAlloc for ReportingAllocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        noted(System.alloc(layout), layout.size())
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        noted(System.alloc_zeroed(layout), layout.size())
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        noted(System.realloc(ptr, layout, new_size), new_size)
    }
}

/// The action SIGABRT had before ours.
static mut PREVIOUS: Option<libc::sigaction> = None;

/// Installs the SIGABRT report (once per process): it ends the process with
/// `exit_code`, the error as one JSON object on stdout when `as_json`.
pub fn install(exit_code: i32, as_json: bool) {
    EXIT_CODE.store(exit_code, Ordering::Relaxed);
    AS_JSON.store(as_json, Ordering::Relaxed);
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: installs `on_abort`, which only reads atomics, fills stack buffers and
        // calls write(2), sigaction, raise and exit_group (all async-signal-safe).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_abort as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGABRT, &action, &mut previous) == 0 {
                PREVIOUS = Some(previous);
            }
        }
    });
}

/// The error paragraph (without `error: `) for the tiers noted, or `None` when no tier
/// is being solved.
fn message(failed: usize) -> Option<Text> {
    let mut names = Text::new();
    let mut count = 0;
    for slot in &WORKING {
        let len = slot.len.load(Ordering::Acquire);
        if len == 0 {
            continue;
        }
        if count > 0 {
            names.put(b", ");
        }
        for cell in &slot.name[..len.min(NAME_BYTES)] {
            names.put(&[cell.load(Ordering::Relaxed)]);
        }
        count += 1;
    }
    if count == 0 {
        return None;
    }
    let mut text = Text::new();
    if failed > 0 {
        text.put(b"out of memory while solving ");
    } else {
        text.put(b"the process aborted while solving ");
    }
    text.put(if count == 1 { b"tier " } else { b"tiers " });
    text.put(names.bytes());
    if failed > 0 {
        text.put(b": an allocation of ");
        text.put_number(failed);
        text.put(b" bytes failed outside the arrays the memory plan counts (the host's smaller structures, or the module's own memory). ");
    } else {
        text.put(b": an allocation in the module failed (the process then printed `memory allocation of N bytes failed` before this), or the module or the host called abort(). ");
    }
    text.put(b"The tiers stored before it are kept: run the same command again to resume. For memory, give the process more (the address-space limit, `ulimit -v`) or lower --memory-limit, which leaves the module and the host more room.");
    Some(text)
}

extern "C" fn on_abort(sig: libc::c_int, _info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    let failed = FAILED_BYTES.load(Ordering::Relaxed);
    match message(failed) {
        // Not the host's allocation: say where, and let the signal end the process.
        Some(text) if failed == 0 => write_paragraph(&text),
        Some(text) => end_with_code(&text),
        None => {}
    }
    // SAFETY: puts back the previous action and raises the signal again, so abort()
    // ends the process as it would have without us.
    unsafe {
        signal_safe::restore(sig, std::ptr::addr_of!(PREVIOUS).read().as_ref());
        libc::raise(sig);
    }
}

/// Writes `text` on stderr as the usual error paragraph (`error: ...`).
fn write_paragraph(text: &Text) {
    let mut out = Text::new();
    out.put(b"error: ");
    out.put(text.bytes());
    out.put(b"\n");
    out.write_to(2);
}

/// Prints `text` as the error (JSON on stdout with `--json`) and ends the process with
/// the solve's exit code.
fn end_with_code(text: &Text) {
    let code = EXIT_CODE.load(Ordering::Relaxed);
    let mut out = Text::new();
    if AS_JSON.load(Ordering::Relaxed) {
        out.put(b"{\"error\": \"");
        out.put_json(text.bytes());
        out.put(b"\", \"kind\": \"solve\", \"exit_code\": ");
        out.put_number(code.max(0) as usize);
        out.put(b"}\n");
        out.write_to(1);
    } else {
        write_paragraph(text);
    }
    // SAFETY: ends the process at once with the solve's exit code, as `_exit` does;
    // no destructor may run after an abort.
    unsafe { libc::syscall(libc::SYS_exit_group, code as libc::c_long) };
}
