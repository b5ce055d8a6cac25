//! The byte-level pieces of a coded block: LEB128 varints, flags packed eight to a
//! byte, masks as run lengths or bitmaps, and deflate with a fresh Huffman table per
//! section. Every reader is checked: data that runs out or does not add up is an error,
//! never a panic.
//!
//! This file must not know what the numbers it reads and writes mean.

use super::CodecError;
use flate2::{Compress, Compression, FlushCompress, Status};

/// Appends `x` as a LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    loop {
        let byte = (x & 0x7f) as u8;
        x >>= 7;
        if x == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads bytes and varints from a section, checking every step.
pub(super) struct Cursor<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(data: &'a [u8]) -> Cursor<'a> {
        Cursor { data, at: 0 }
    }

    pub(super) fn byte(&mut self, what: &'static str) -> Result<u8, CodecError> {
        let b = *self.data.get(self.at).ok_or(CodecError::Truncated(what))?;
        self.at += 1;
        Ok(b)
    }

    pub(super) fn varint(&mut self, what: &'static str) -> Result<u64, CodecError> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(what)?;
            x |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        Err(CodecError::Malformed("a varint longer than 64 bits"))
    }

    /// The next `n` bytes.
    pub(super) fn take(&mut self, n: u64, what: &'static str) -> Result<&'a [u8], CodecError> {
        let n = usize::try_from(n).map_err(|_| CodecError::Truncated(what))?;
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or(CodecError::Truncated(what))?;
        let s = &self.data[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// Fails unless every byte was read.
    pub(super) fn finish(&self, what: &'static str) -> Result<(), CodecError> {
        if self.at == self.data.len() {
            Ok(())
        } else {
            Err(CodecError::Trailing(what))
        }
    }
}

/// Flags packed eight to a byte, first flag in the lowest bit.
#[derive(Default)]
pub(super) struct BitWriter {
    pub(super) bytes: Vec<u8>,
    len: usize,
}

impl BitWriter {
    #[inline]
    pub(super) fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if bit {
            *self.bytes.last_mut().expect("pushed above") |= 1 << (self.len % 8);
        }
        self.len += 1;
    }
}

/// Reads flags written by `BitWriter`.
pub(super) struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> BitReader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, at: 0 }
    }

    #[inline]
    pub(super) fn next(&mut self) -> Result<bool, CodecError> {
        let byte = *self
            .bytes
            .get(self.at / 8)
            .ok_or(CodecError::Truncated("flags"))?;
        let bit = byte >> (self.at % 8) & 1 == 1;
        self.at += 1;
        Ok(bit)
    }

    /// Fails when whole bytes were left unread.
    pub(super) fn finish(&self) -> Result<(), CodecError> {
        if self.at.div_ceil(8) == self.bytes.len() {
            Ok(())
        } else {
            Err(CodecError::Trailing("flags"))
        }
    }
}

/// A mask of `len` units (records or pairs of records) as run lengths: alternately
/// the length of a run of clear units and of set units, starting with clear ones (so
/// the first may be 0), each as bytes of 255 (add 255 and go on) ending with a byte
/// below 255.
pub(super) fn put_runs(out: &mut Vec<u8>, len: usize, set: impl Fn(usize) -> bool) {
    let (mut at, mut want) = (0, false);
    while at < len {
        let start = at;
        while at < len && set(at) == want {
            at += 1;
        }
        let mut n = at - start;
        while n >= 255 {
            out.push(255);
            n -= 255;
        }
        out.push(n as u8);
        want = !want;
    }
}

/// A mask as a bitmap, first unit in the lowest bit.
pub(super) fn put_bitmap(out: &mut Vec<u8>, len: usize, set: impl Fn(usize) -> bool) {
    let start = out.len();
    out.resize(start + len.div_ceil(8), 0);
    for u in (0..len).filter(|&u| set(u)) {
        out[start + u / 8] |= 1 << (u % 8);
    }
}

/// Calls `f` with every set unit of a run-length mask of `len` units, in order.
pub(super) fn read_runs(
    data: &[u8],
    len: usize,
    mut f: impl FnMut(usize),
) -> Result<(), CodecError> {
    let mut c = Cursor::new(data);
    let (mut at, mut set) = (0usize, false);
    while at < len {
        let mut n = 0usize;
        loop {
            let b = c.byte("mask runs")?;
            n += b as usize;
            if b < 255 {
                break;
            }
        }
        let end = at
            .checked_add(n)
            .filter(|&e| e <= len)
            .ok_or(CodecError::Malformed("a mask run past the block"))?;
        if set {
            (at..end).for_each(&mut f);
        }
        at = end;
        set = !set;
    }
    c.finish("mask runs")
}

/// Calls `f` with every set unit of a bitmap mask of `len` units, in order.
pub(super) fn read_bitmap(
    data: &[u8],
    len: usize,
    mut f: impl FnMut(usize),
) -> Result<(), CodecError> {
    if data.len() != len.div_ceil(8) {
        return Err(CodecError::Malformed("a mask bitmap of the wrong length"));
    }
    for (i, &byte) in data.iter().enumerate() {
        let mut b = byte;
        while b != 0 {
            let u = i * 8 + b.trailing_zeros() as usize;
            if u >= len {
                return Err(CodecError::Malformed("a mask bit past the block"));
            }
            f(u);
            b &= b - 1;
        }
    }
    Ok(())
}

/// The sections deflated one after another into one gzip member (header without
/// name or time), each nonempty section ending its deflate block so the next gets
/// Huffman tables of its own (a partial flush: ten bits).
pub(super) fn gzip_sections(sections: &[&[u8]], level: u32) -> Vec<u8> {
    let total: usize = sections.iter().map(|s| s.len()).sum();
    let mut out = Vec::with_capacity(total / 2 + 64);
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
    let mut z = Compress::new(Compression::new(level), false);
    let mut crc = crc32fast::Hasher::new();
    let nonempty: Vec<&[u8]> = sections.iter().copied().filter(|s| !s.is_empty()).collect();
    for (i, s) in nonempty.iter().enumerate() {
        crc.update(s);
        let flush = if i + 1 == nonempty.len() {
            FlushCompress::None
        } else {
            FlushCompress::Partial
        };
        run(&mut z, s, &mut out, flush);
    }
    run(&mut z, &[], &mut out, FlushCompress::Finish);
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out
}

/// Feeds `input` to `z` with `flush`, growing `out` until all is consumed and flushed.
fn run(z: &mut Compress, mut input: &[u8], out: &mut Vec<u8>, flush: FlushCompress) {
    loop {
        if out.capacity() - out.len() < 256 {
            out.reserve(out.capacity().max(1024));
        }
        let before = z.total_in();
        let status = z
            .compress_vec(input, out, flush)
            .expect("deflate into memory");
        input = &input[(z.total_in() - before) as usize..];
        let done = match flush {
            FlushCompress::Finish => status == Status::StreamEnd,
            // Flushed once deflate leaves room in the output.
            _ => input.is_empty() && out.len() < out.capacity(),
        };
        if done {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn varints_and_cursor_round_trip_and_check_their_ends() {
        let mut out = Vec::new();
        for x in [0, 1, 127, 128, 300, u64::MAX] {
            put_varint(&mut out, x);
        }
        let mut c = Cursor::new(&out);
        for x in [0, 1, 127, 128, 300, u64::MAX] {
            assert_eq!(c.varint("x").unwrap(), x);
        }
        c.finish("x").unwrap();
        assert!(c.varint("x").is_err());
        assert!(Cursor::new(&[0xff; 11]).varint("x").is_err());
        assert!(Cursor::new(&[1, 2]).take(3, "x").is_err());
    }

    #[test]
    fn masks_round_trip_as_runs_and_bitmaps() {
        let masks: Vec<Vec<bool>> = vec![
            vec![],
            vec![true; 1000],
            vec![false; 1000],
            (0..777).map(|i| i % 3 == 0 || i > 700).collect(),
            (0..600).map(|i| (i / 300) % 2 == 1).collect(),
        ];
        for m in masks {
            let want: Vec<usize> = (0..m.len()).filter(|&u| m[u]).collect();
            let (mut runs, mut bits) = (Vec::new(), Vec::new());
            put_runs(&mut runs, m.len(), |u| m[u]);
            put_bitmap(&mut bits, m.len(), |u| m[u]);
            let mut got = Vec::new();
            read_runs(&runs, m.len(), |u| got.push(u)).unwrap();
            assert_eq!(got, want);
            got.clear();
            read_bitmap(&bits, m.len(), |u| got.push(u)).unwrap();
            assert_eq!(got, want);
            if !m.is_empty() {
                assert!(read_runs(&runs, m.len() - 1, |_| {}).is_err());
                assert!(read_runs(&runs[..runs.len() - 1], m.len(), |_| {}).is_err());
            }
        }
    }

    #[test]
    fn sections_make_one_standard_gzip_member() {
        let a = vec![7u8; 5000];
        let b: Vec<u8> = (0..3000u32).map(|i| (i * 31 % 251) as u8).collect();
        let member = gzip_sections(&[&a, &[], &b, &[1, 2, 3]], 6);
        let mut all = Vec::new();
        flate2::read::GzDecoder::new(&member[..])
            .read_to_end(&mut all)
            .unwrap();
        assert_eq!(all, [&a[..], &b[..], &[1, 2, 3]].concat());
        let empty = gzip_sections(&[], 6);
        all.clear();
        flate2::read::GzDecoder::new(&empty[..])
            .read_to_end(&mut all)
            .unwrap();
        assert!(all.is_empty());
    }
}
