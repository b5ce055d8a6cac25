//! The records of one block of a format-3 tier file, as one gzip member.
//!
//! A record is a symbol: its packed value and remoteness with its WinBy (when the
//! game has WinBy). The block's distinct symbols other than the all-zero one (the
//! record of every position the solver skips) form a table, most frequent first; a
//! mask says which records are not zero, and the nonzero records are written as
//! indices into the table. The member's bytes, once inflated, are:
//!
//! - a tag byte: `PLAIN` (the records laid out as in format 1: every packed `u16`,
//!   then every WinBy `i32`, little-endian; for blocks of many distinct symbols) or
//!   `CODED`, followed by
//! - varints: the number of nonzero records, the number of symbols, a byte of `flags`,
//!   then the length of each section below;
//! - sections: the table (per symbol a varint packed record, and a zigzag varint
//!   WinBy when the game has it); the mask, by records or, when both records of every
//!   pair `2k, 2k + 1` agree, by pairs (as run lengths or a bitmap, or absent when no
//!   record or every record is zero); then the symbols: either one byte per nonzero
//!   record (255 and a varint in a literal section for the rarer ones), optionally
//!   all even records first, or the `ranks` context coding.
//!
//! Every section ends its deflate block, so each has Huffman tables of its own. The
//! encoder tries each way of writing the symbols with quick deflate and keeps the
//! smallest, deflated again with more effort; encoding is deterministic. Decoding
//! checks the member's CRC and every count and index, so a damaged block is an error,
//! never a panic (records changed under a valid CRC are left to the tier's checksum).
//!
//! This file must not know about files, headers or tiers.

mod ranks;
mod wire;

use flate2::read::GzDecoder;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Read;
pub(crate) use wire::put_varint;
use wire::{put_bitmap, put_runs, read_bitmap, read_runs, Cursor};

/// The deflate level of blocks.
const LEVEL: u32 = 6;
/// The deflate level that chooses between ways of writing a block's symbols.
const TRIAL_LEVEL: u32 = 3;
const PLAIN: u8 = 0;
const CODED: u8 = 1;
/// `flags`: the mask is by pairs of records.
const PAIRS: u8 = 1;
/// `flags`: the mask is run lengths (else a bitmap; no mask section: none needed).
const RUNS: u8 = 2;
/// `flags`: symbol bytes of even records first, then odd ones.
const SPLIT: u8 = 4;
/// `flags`: symbols in the `ranks` coding (else bytes).
const RANKS: u8 = 8;
const KNOWN_FLAGS: u8 = PAIRS | RUNS | SPLIT | RANKS;
/// A symbol byte that says the symbol is in the literal section.
const ESCAPE: u8 = 255;

/// Why a block does not decode.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CodecError {
    /// The gzip member is damaged (deflate data or its CRC).
    #[error("a block does not decompress: {0}")]
    Inflate(String),
    /// Decompressed, it is larger than any block of its records.
    #[error("a block is larger than its records allow")]
    TooLarge,
    /// A part ends early.
    #[error("a block's {0} end early")]
    Truncated(&'static str),
    /// A part has bytes past its end.
    #[error("a block's {0} have bytes left over")]
    Trailing(&'static str),
    /// A tag or flag this host does not know.
    #[error("a block has an unknown encoding ({0:#x})")]
    Unknown(u8),
    /// Numbers that do not add up.
    #[error("a block is malformed: {0}")]
    Malformed(&'static str),
}

/// The records of one block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// Packed value and remoteness per record.
    pub values: Vec<u16>,
    /// WinBy per record, for games that support it.
    pub winby: Option<Vec<i32>>,
}

/// A record as one number: packed record in the low 16 bits, WinBy above.
#[inline]
fn symbol_key(values: &[u16], winby: Option<&[i32]>, i: usize) -> u64 {
    u64::from(values[i]) | winby.map_or(0, |w| u64::from(w[i] as u32) << 16)
}

/// A fast hash for symbol keys (multiplicative; keys are not adversarial here, and
/// only the table's order, not the map's, reaches the file).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ x >> 29).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// The largest decompressed size of a block of `n` records (a bound against
/// decompression bombs, far above what the encoder writes).
fn max_payload(n: usize) -> u64 {
    64 + 16 * n as u64
}

/// Encodes a block's records (`winby` as long as `values`, when the game has WinBy)
/// into one gzip member.
pub fn encode(values: &[u16], winby: Option<&[i32]>) -> Vec<u8> {
    let n = values.len();
    let key = |i: usize| symbol_key(values, winby, i);
    let nonzero: Vec<u32> = (0..n as u32).filter(|&i| key(i as usize) != 0).collect();
    let mut counts: KeyMap<u32> = KeyMap::default();
    for &i in &nonzero {
        *counts.entry(key(i as usize)).or_default() += 1;
    }
    if counts.len() > (n / 4).max(256) {
        return plain(values, winby);
    }
    let mut table: Vec<(u64, u32)> = counts.into_iter().collect();
    table.sort_unstable_by_key(|&(k, c)| (std::cmp::Reverse(c), k));
    let index: KeyMap<u32> = table
        .iter()
        .enumerate()
        .map(|(s, &(k, _))| (k, s as u32))
        .collect();
    let symbols: Vec<u32> = nonzero.iter().map(|&i| index[&key(i as usize)]).collect();
    let mut table_bytes = Vec::with_capacity(table.len() * 4);
    for &(k, _) in &table {
        put_varint(&mut table_bytes, k & 0xffff);
        if winby.is_some() {
            let w = (k >> 16) as u32 as i32;
            put_varint(&mut table_bytes, u64::from(((w << 1) ^ (w >> 31)) as u32));
        }
    }
    let (mask_flags, mask) = mask_section(n, &nonzero, |i| key(i) != 0);
    let head = |flags: u8, sections: &[&[u8]]| {
        let mut h = vec![CODED];
        put_varint(&mut h, nonzero.len() as u64);
        put_varint(&mut h, table.len() as u64);
        h.push(flags);
        for s in sections {
            put_varint(&mut h, s.len() as u64);
        }
        h
    };
    // Each way of writing the symbols: its flag and sections.
    let mut ways: Vec<(u8, Vec<Vec<u8>>)> = Vec::with_capacity(3);
    let (bytes, literals) = symbol_bytes(symbols.iter().copied());
    ways.push((0, vec![bytes, literals]));
    if nonzero.iter().any(|&i| i % 2 == 1) {
        let evens = nonzero.iter().zip(&symbols).filter(|(&i, _)| i % 2 == 0);
        let odds = nonzero.iter().zip(&symbols).filter(|(&i, _)| i % 2 == 1);
        let (bytes, literals) = symbol_bytes(evens.chain(odds).map(|(_, &s)| s));
        ways.push((SPLIT, vec![bytes, literals]));
    }
    let coded = ranks::encode(&symbols, table.len() as u32, |j| nonzero[j] as usize % 2);
    let mut streams = coded.flags;
    streams.extend([coded.rest, coded.literals]);
    ways.push((RANKS, streams));
    let member = |(flags, streams): &(u8, Vec<Vec<u8>>), level: u32| {
        let mut sections: Vec<&[u8]> = vec![&table_bytes, &mask];
        sections.extend(streams.iter().map(|s| &s[..]));
        let h = head(mask_flags | flags, &sections);
        sections.insert(0, &h);
        wire::gzip_sections(&sections, level)
    };
    // Each tried with quick deflate, the smallest deflated again with more effort.
    let (best, trial) = ways
        .iter()
        .map(|w| member(w, TRIAL_LEVEL))
        .enumerate()
        .min_by_key(|(_, m)| m.len())
        .expect("at least one way");
    let full = member(&ways[best], LEVEL);
    if full.len() <= trial.len() {
        full
    } else {
        trial
    }
}

/// A block laid out as in format 1, as a `PLAIN` member.
fn plain(values: &[u16], winby: Option<&[i32]>) -> Vec<u8> {
    wire::gzip_sections(&[&[PLAIN], &layout(values, winby)], LEVEL)
}

/// The records in the layout of format 1.
pub fn layout(values: &[u16], winby: Option<&[i32]>) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * if winby.is_some() { 6 } else { 2 });
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for w in winby.unwrap_or(&[]) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Feeds the records, in the layout of format 1, to a CRC-32 (the checksum a tier
/// file's header gives), a piece at a time.
pub fn layout_crc(crc: &mut crc32fast::Hasher, values: &[u16], winby: Option<&[i32]>) {
    let mut buf = [0u8; 4096];
    for chunk in values.chunks(buf.len() / 2) {
        for (b, v) in buf.chunks_exact_mut(2).zip(chunk) {
            b.copy_from_slice(&v.to_le_bytes());
        }
        crc.update(&buf[..2 * chunk.len()]);
    }
    for chunk in winby.unwrap_or(&[]).chunks(buf.len() / 4) {
        for (b, w) in buf.chunks_exact_mut(4).zip(chunk) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        crc.update(&buf[..4 * chunk.len()]);
    }
}

/// The mask's flags and section: by pairs when it can be, as run lengths or a bitmap,
/// whichever is shorter; empty when no record or every record is zero.
fn mask_section(n: usize, nonzero: &[u32], set: impl Fn(usize) -> bool) -> (u8, Vec<u8>) {
    if nonzero.is_empty() || nonzero.len() == n {
        return (0, Vec::new());
    }
    let pairs = n.is_multiple_of(2) && (0..n / 2).all(|k| set(2 * k) == set(2 * k + 1));
    let (flags, units, step) = if pairs { (PAIRS, n / 2, 2) } else { (0, n, 1) };
    let (mut runs, mut bits) = (Vec::new(), Vec::new());
    put_runs(&mut runs, units, |u| set(u * step));
    if runs.len() <= units.div_ceil(8) {
        return (flags | RUNS, runs);
    }
    put_bitmap(&mut bits, units, |u| set(u * step));
    (flags, bits)
}

/// Symbols as bytes, the rarer ones escaped to varints in a literal section.
fn symbol_bytes(symbols: impl Iterator<Item = u32>) -> (Vec<u8>, Vec<u8>) {
    let (mut bytes, mut literals) = (Vec::new(), Vec::new());
    for s in symbols {
        if s < u32::from(ESCAPE) {
            bytes.push(s as u8);
        } else {
            bytes.push(ESCAPE);
            put_varint(&mut literals, u64::from(s - u32::from(ESCAPE)));
        }
    }
    (bytes, literals)
}

/// Decodes a member written by `encode` for `n` records (with WinBy when `winby`).
pub fn decode(member: &[u8], n: usize, winby: bool) -> Result<Block, CodecError> {
    let limit = max_payload(n);
    let mut payload = Vec::new();
    GzDecoder::new(member)
        .take(limit + 1)
        .read_to_end(&mut payload)
        .map_err(|e| CodecError::Inflate(e.to_string()))?;
    if payload.len() as u64 > limit {
        return Err(CodecError::TooLarge);
    }
    let mut c = Cursor::new(&payload);
    match c.byte("tag")? {
        PLAIN => from_layout(c.take(payload.len() as u64 - 1, "records")?, n, winby),
        CODED => decode_coded(c, n, winby),
        tag => Err(CodecError::Unknown(tag)),
    }
}

/// `n` records in the layout of format 1 (with WinBy when `winby`).
pub fn from_layout(data: &[u8], n: usize, winby: bool) -> Result<Block, CodecError> {
    let record = if winby { 6 } else { 2 };
    if data.len() != n * record {
        return Err(CodecError::Malformed("records of the wrong length"));
    }
    let (v, w) = data.split_at(2 * n);
    Ok(Block {
        values: v
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect(),
        winby: winby.then(|| {
            w.chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        }),
    })
}

fn decode_coded(mut c: Cursor, n: usize, winby: bool) -> Result<Block, CodecError> {
    let m = c.varint("head")?;
    let k = c.varint("head")?;
    let flags = c.byte("head")?;
    if flags & !KNOWN_FLAGS != 0 {
        return Err(CodecError::Unknown(flags));
    }
    if m > n as u64 || k > m || (m > 0 && k == 0) {
        return Err(CodecError::Malformed("more symbols than records"));
    }
    let (m, k) = (m as usize, k as usize);
    let sections = if flags & RANKS != 0 {
        4 + ranks::LEVELS
    } else {
        4
    };
    let lens: Vec<u64> = (0..sections)
        .map(|_| c.varint("head"))
        .collect::<Result<_, _>>()?;
    let mut parts = Vec::with_capacity(sections);
    for &len in &lens {
        parts.push(c.take(len, "sections")?);
    }
    c.finish("sections")?;
    let table = read_table(parts[0], k, winby)?;
    let nonzero = read_mask(parts[1], flags, n, m)?;
    let mut block = Block {
        values: vec![0; n],
        winby: winby.then(|| vec![0; n]),
    };
    let mut put = |i: usize, s: u32| {
        let key = table[s as usize];
        block.values[i] = key as u16;
        if let Some(w) = block.winby.as_mut() {
            w[i] = (key >> 16) as u32 as i32;
        }
    };
    if flags & RANKS != 0 {
        let last = parts.len();
        let flags: [&[u8]; ranks::LEVELS] = std::array::from_fn(|l| parts[2 + l]);
        ranks::decode(
            &flags,
            parts[last - 2],
            parts[last - 1],
            m,
            k as u32,
            |j| nonzero[j] as usize % 2,
            |j, s| put(nonzero[j] as usize, s),
        )?;
    } else {
        let order: Box<dyn Iterator<Item = u32>> = if flags & SPLIT != 0 {
            let evens = nonzero.iter().copied().filter(|i| i % 2 == 0);
            Box::new(evens.chain(nonzero.iter().copied().filter(|i| i % 2 == 1)))
        } else {
            Box::new(nonzero.iter().copied())
        };
        let (bytes, mut literals) = (parts[2], Cursor::new(parts[3]));
        if bytes.len() != m {
            return Err(CodecError::Malformed("symbol bytes for another count"));
        }
        for (i, &b) in order.zip(bytes) {
            let s = match b {
                ESCAPE => literals.varint("literals")? + u64::from(ESCAPE),
                b => u64::from(b),
            };
            if s >= k as u64 {
                return Err(CodecError::Malformed("a symbol past the block's table"));
            }
            put(i as usize, s as u32);
        }
        literals.finish("literals")?;
    }
    Ok(block)
}

/// The symbol table: each symbol's key (as `symbol_key`), none of them zero.
fn read_table(data: &[u8], k: usize, winby: bool) -> Result<Vec<u64>, CodecError> {
    let mut c = Cursor::new(data);
    let mut table = Vec::with_capacity(k);
    for _ in 0..k {
        let v = c.varint("table")?;
        let w = if winby { c.varint("table")? } else { 0 };
        if v > 0xffff || w > 0xffff_ffff {
            return Err(CodecError::Malformed("a table entry out of range"));
        }
        let w = ((w as u32 >> 1) as i32) ^ -((w as u32 & 1) as i32);
        let key = v | u64::from(w as u32) << 16;
        if key == 0 {
            return Err(CodecError::Malformed("the zero record in the table"));
        }
        table.push(key);
    }
    c.finish("table")?;
    Ok(table)
}

/// The indices of the `m` nonzero records among `n`, in order.
fn read_mask(data: &[u8], flags: u8, n: usize, m: usize) -> Result<Vec<u32>, CodecError> {
    if m == 0 || m == n {
        if !data.is_empty() || flags & (PAIRS | RUNS) != 0 {
            return Err(CodecError::Malformed("a mask where none is needed"));
        }
        return Ok((0..m as u32).collect());
    }
    let pairs = flags & PAIRS != 0;
    if pairs && n % 2 == 1 {
        return Err(CodecError::Malformed("a mask by pairs of an odd block"));
    }
    let units = if pairs { n / 2 } else { n };
    let mut nonzero = Vec::with_capacity(m);
    let add = |u: usize| {
        if pairs {
            nonzero.extend_from_slice(&[2 * u as u32, 2 * u as u32 + 1]);
        } else {
            nonzero.push(u as u32);
        }
    };
    if flags & RUNS != 0 {
        read_runs(data, units, add)?;
    } else {
        read_bitmap(data, units, add)?;
    }
    if nonzero.len() != m {
        return Err(CodecError::Malformed("a mask of another count of records"));
    }
    Ok(nonzero)
}

#[cfg(test)]
mod tests;
