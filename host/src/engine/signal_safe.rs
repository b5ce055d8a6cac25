//! What the host's signal and exit handlers share (the C-module crash report, the
//! abort report): a message built in a fixed stack buffer, and the previous signal
//! action put back so the signal ends the process as it would have.
//!
//! Everything here runs inside a signal handler or at `_exit`: it must not allocate,
//! lock or format, and calls only async-signal-safe functions (write, sigaction,
//! signal, raise).

/// A message filled in place, in a fixed buffer (as much as fits).
pub struct Text {
    buf: [u8; 2048],
    at: usize,
}

impl Text {
    /// An empty message.
    pub fn new() -> Text {
        Text {
            buf: [0; 2048],
            at: 0,
        }
    }

    /// The bytes so far.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.at]
    }

    /// Appends `text` (as much as fits).
    pub fn put(&mut self, text: &[u8]) {
        let n = text.len().min(self.buf.len() - self.at);
        self.buf[self.at..self.at + n].copy_from_slice(&text[..n]);
        self.at += n;
    }

    /// Appends `text` as the inside of a JSON string (control bytes become spaces).
    pub fn put_json(&mut self, text: &[u8]) {
        for &b in text {
            match b {
                b'"' => self.put(b"\\\""),
                b'\\' => self.put(b"\\\\"),
                0..=0x1f => self.put(b" "),
                _ => self.put(&[b]),
            }
        }
    }

    /// Appends `n` in decimal.
    pub fn put_number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut k = digits.len();
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.put(&digits[k..]);
    }

    /// Writes the message on file descriptor `fd` (1 or 2).
    pub fn write_to(&self, fd: libc::c_int) {
        // SAFETY: write(2) of our own buffer; async-signal-safe.
        unsafe { libc::write(fd, self.buf.as_ptr().cast(), self.at) };
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::new()
    }
}

/// Puts back `previous` as `sig`'s action (the default action when there is none or
/// it cannot be put back).
///
/// # Safety
/// Changes the process's signal disposition; call it from the handler being undone.
pub unsafe fn restore(sig: libc::c_int, previous: Option<&libc::sigaction>) {
    let restored = previous.is_some_and(|p| libc::sigaction(sig, p, std::ptr::null_mut()) == 0);
    if !restored {
        libc::signal(sig, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_fills_in_place_and_stops_at_its_end() {
        let mut t = Text::new();
        t.put(b"tier ");
        t.put_number(0);
        t.put(b" ");
        t.put_number(18_446_744_073_709_551_615);
        t.put(b" ");
        t.put_json(b"a\"b\\c\nd");
        assert_eq!(t.bytes(), b"tier 0 18446744073709551615 a\\\"b\\\\c d");
        for _ in 0..300 {
            t.put(b"0123456789");
        }
        assert_eq!(t.bytes().len(), 2048);
    }
}
