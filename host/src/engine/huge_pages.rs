//! Transparent huge pages for the solver's big arrays.
//!
//! A tier's arrays (records, counters, kept moves, the reverse graph) run to gigabytes
//! and are touched once each, soon after they are allocated. With 4 KiB pages every
//! first touch is a page fault: on the 5x5 Quixo's 15.6 M-position tiers about 800,000
//! of them, an eighth of the solve's time in the kernel. Where the system leaves huge
//! pages to the program's choice (`/sys/kernel/mm/transparent_hugepage/enabled` set to
//! `madvise`, Debian's default), a 2 MiB page is one fault instead of 512.
//!
//! `advise` asks for them on a block the global allocator just gave, when it is large.
//! It is advice only: the kernel may refuse, and nothing else changes. It must not
//! allocate (it runs inside the allocator) and never touches the block's bytes.

/// Blocks of at least this many bytes are advised (smaller ones cannot hold a whole
/// huge page after alignment, or are not worth a system call).
pub const THRESHOLD: usize = 8 << 20;

/// The huge page size on x86-64 and aarch64 with 4 KiB base pages.
const HUGE: usize = 2 << 20;

/// Asks the kernel to back the whole huge pages inside `[ptr, ptr + size)` with huge
/// pages (`madvise(MADV_HUGEPAGE)`), when `size` is at least `THRESHOLD`.
#[inline]
pub fn advise(ptr: *mut u8, size: usize) {
    if size < THRESHOLD || ptr.is_null() {
        return;
    }
    advise_range(ptr as usize, size);
}

#[cfg(target_os = "linux")]
#[cold]
fn advise_range(start: usize, size: usize) {
    let first = start.next_multiple_of(HUGE);
    let end = (start + size) & !(HUGE - 1);
    if end > first {
        // SAFETY: the range lies inside a block the allocator owns and just returned;
        // MADV_HUGEPAGE only changes how the kernel backs it, never its contents. A
        // failure (no transparent huge pages in this kernel) is ignored: it is advice.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_range(_start: usize, _size: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `AnonHugePages` kilobytes of the mapping of this process holding `addr`.
    fn huge_kb_at(addr: usize) -> Option<u64> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let head = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = head.split_once('-') {
                if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
                {
                    inside = (a..b).contains(&addr);
                    continue;
                }
            }
            if inside {
                if let Some(kb) = line.strip_prefix("AnonHugePages:") {
                    return kb.trim().trim_end_matches("kB").trim().parse().ok();
                }
            }
        }
        None
    }

    #[test]
    fn a_large_block_advised_is_backed_by_huge_pages_and_keeps_its_bytes() {
        let len = 4 * THRESHOLD;
        let mut v: Vec<u8> = Vec::with_capacity(len);
        advise(v.as_mut_ptr(), len);
        v.extend((0..len).map(|i| (i % 251) as u8));
        assert!(v.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        let chosen = mode.as_deref().unwrap_or("");
        if chosen.contains("[madvise]") || chosen.contains("[always]") {
            let kb = huge_kb_at(v.as_ptr() as usize + len / 2).expect("the block's mapping");
            // At least half the block's whole huge pages (the kernel may split a few).
            assert!(
                kb >= (len / 2 / 1024) as u64,
                "{kb} kB of huge pages in {chosen}"
            );
        }
    }

    #[test]
    fn small_and_null_blocks_are_left_alone() {
        let mut v = vec![1u8; 4096];
        advise(v.as_mut_ptr(), v.len());
        advise(std::ptr::null_mut(), 4 * THRESHOLD);
        assert!(v.iter().all(|&b| b == 1));
    }
}
