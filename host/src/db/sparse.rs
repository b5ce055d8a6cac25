//! Reachable-only tier files (`solve --reachable`): the records of a tier's marked
//! positions only, with the marks that say which positions those are.
//!
//! Like a full tier file, a series of gzip members (`zcat` reads it whole):
//! 1. a header member whose text names the format version (`FORMAT_VERSION`, with the
//!    line `coverage: reachable-only`, so no reader takes it for a full tier), game,
//!    variant, tier, positions in the tier, positions stored, record layout, block
//!    sizes and CRC-32s of the records and of the marks; its gzip extra field `GT`
//!    gives the offset and length of the index;
//! 2. one member per block of `RECORD_BLOCK` records of marked positions, in position
//!    order (the full format's block layout: `u16` value and remoteness, then `i32`
//!    WinBy when the game has it);
//! 3. one member per block of `MARK_BLOCK` positions of the tier: a tag byte, then
//!    either the block's bitset or the gaps between its marked positions as LEB128
//!    varints, whichever is shorter;
//! 4. an index member: every member's file offset and, per mark block, how many marked
//!    positions lie before it (the rank directory).
//!
//! A lookup reads one mark block (to rank the position) and one record block. This file
//! must not interpret records beyond their layout.

use super::file::{corrupt, extra_field, find_extra, gunzip, gzip_member, io, FIRST_LINE};
use super::{DbError, DbResult, GameKey, ReachableTier, TierMeta};
use crate::marks::Marks;
use crate::record::{Record, TierRecords};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The version of the reachable-only tier file format.
pub const FORMAT_VERSION: u32 = 2;
/// The header line that marks a reachable-only tier file.
const COVERAGE_LINE: &str = "coverage: reachable-only";
/// Records per record block.
pub const RECORD_BLOCK: u64 = 1 << 15;
/// Positions per mark block.
pub const MARK_BLOCK: u64 = 1 << 18;
const INDEX_MAGIC: &[u8; 4] = b"GTRX";
/// Decompressed blocks kept per tier for lookups (of each kind).
const CACHED_BLOCKS: usize = 64;
const BITSET_TAG: u8 = 0;
const GAPS_TAG: u8 = 1;

/// What a reachable-only tier file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub format: u32,
    /// Game name.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// Tier number.
    pub tier: u64,
    /// Tier name.
    pub tier_name: String,
    /// Positions in the tier (marked or not).
    pub positions: u64,
    /// Marked positions, whose records the file holds.
    pub stored: u64,
    /// Whether records carry WinBy.
    pub winby: bool,
    /// Records per record block.
    pub block_positions: u64,
    /// Record blocks.
    pub blocks: u64,
    /// Positions per mark block.
    pub mark_positions: u64,
    /// Mark blocks.
    pub mark_blocks: u64,
    /// CRC-32 of all record bytes in block order.
    pub crc32: u32,
    /// CRC-32 of all mark block bytes in block order.
    pub marks_crc32: u32,
}

fn record_layout(winby: bool) -> &'static str {
    if winby {
        "value:3 remoteness:13 as u16 le; winby as i32 le"
    } else {
        "value:3 remoteness:13 as u16 le"
    }
}

impl Header {
    fn to_text(&self) -> String {
        format!(
            "{FIRST_LINE}\nformat: {}\n{COVERAGE_LINE}\ngame: {}\nvariant: {}\ntier: {}\ntier_name: {}\npositions: {}\nstored: {}\nrecord: {}\nblock_positions: {}\nblocks: {}\nmark_positions: {}\nmark_blocks: {}\ncrc32: {:08x}\nmarks_crc32: {:08x}\n",
            self.format,
            self.game,
            self.variant,
            self.tier,
            self.tier_name.replace('\n', " "),
            self.positions,
            self.stored,
            record_layout(self.winby),
            self.block_positions,
            self.blocks,
            self.mark_positions,
            self.mark_blocks,
            self.crc32,
            self.marks_crc32,
        )
    }

    fn parse(text: &str) -> Result<Header, String> {
        let mut lines = text.lines();
        if lines.next() != Some(FIRST_LINE) {
            return Err("not a gamesman tier database (first line)".into());
        }
        let map: HashMap<&str, &str> = lines.filter_map(|l| l.split_once(": ")).collect();
        let get = |k: &str| {
            map.get(k)
                .copied()
                .ok_or_else(|| format!("header lacks '{k}'"))
        };
        let num = |k: &str| -> Result<u64, String> {
            get(k)?
                .parse()
                .map_err(|_| format!("header field '{k}' is not a number"))
        };
        let crc = |k: &str| u32::from_str_radix(get(k)?, 16).map_err(|_| format!("bad {k}"));
        let record = get("record")?;
        let winby = if record == record_layout(true) {
            true
        } else if record == record_layout(false) {
            false
        } else {
            return Err(format!("unknown record layout '{record}'"));
        };
        Ok(Header {
            format: num("format")? as u32,
            game: get("game")?.to_string(),
            variant: get("variant")?.to_string(),
            tier: num("tier")?,
            tier_name: get("tier_name")?.to_string(),
            positions: num("positions")?,
            stored: num("stored")?,
            winby,
            block_positions: num("block_positions")?,
            blocks: num("blocks")?,
            mark_positions: num("mark_positions")?,
            mark_blocks: num("mark_blocks")?,
            crc32: crc("crc32")?,
            marks_crc32: crc("marks_crc32")?,
        })
    }

    fn record_bytes(&self) -> u64 {
        if self.winby {
            6
        } else {
            2
        }
    }

    /// Positions of the tier in mark block `j`.
    fn mark_block_len(&self, j: u64) -> u64 {
        (self.positions - j * self.mark_positions).min(self.mark_positions)
    }
}

/// The raw bytes of record block `b` (the full format's layout).
fn record_block(records: &TierRecords, b: u64) -> Vec<u8> {
    let start = (b * RECORD_BLOCK) as usize;
    let end = (start + RECORD_BLOCK as usize).min(records.len());
    let mut out = Vec::with_capacity((end - start) * 6);
    for v in &records.values[start..end] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    if let Some(w) = &records.winby {
        for x in &w[start..end] {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

/// The raw bytes of a mark block of `len` positions whose marked offsets are `offsets`.
fn mark_block(len: u64, offsets: &[u32]) -> Vec<u8> {
    let mut gaps = vec![GAPS_TAG];
    let mut prev: Option<u64> = None;
    let bitset_len = 1 + len.div_ceil(8) as usize;
    for &o in offsets {
        let o = o as u64;
        let mut gap = prev.map_or(o, |p| o - p - 1);
        prev = Some(o);
        loop {
            let byte = (gap & 0x7f) as u8;
            gap >>= 7;
            if gap == 0 {
                gaps.push(byte);
                break;
            }
            gaps.push(byte | 0x80);
        }
        if gaps.len() >= bitset_len {
            break;
        }
    }
    if gaps.len() < bitset_len {
        return gaps;
    }
    let mut bits = vec![0u8; bitset_len];
    bits[0] = BITSET_TAG;
    for &o in offsets {
        bits[1 + (o / 8) as usize] |= 1 << (o % 8);
    }
    bits
}

/// The marked offsets of a mark block's raw bytes, checked to hold `count` increasing
/// offsets below `len`.
fn decode_marks(data: &[u8], len: u64, count: u64) -> Result<Vec<u32>, String> {
    let mut out = Vec::with_capacity(count as usize);
    match data.first() {
        Some(&BITSET_TAG) => {
            if data.len() as u64 != 1 + len.div_ceil(8) {
                return Err("a mark bitset has the wrong length".into());
            }
            for (i, &byte) in data[1..].iter().enumerate() {
                let mut b = byte;
                while b != 0 {
                    let o = i as u64 * 8 + b.trailing_zeros() as u64;
                    if o >= len {
                        return Err("a mark lies past its tier".into());
                    }
                    out.push(o as u32);
                    b &= b - 1;
                }
            }
        }
        Some(&GAPS_TAG) => {
            let (mut at, mut next) = (1usize, 0u64);
            while at < data.len() {
                let (mut gap, mut shift) = (0u64, 0u32);
                loop {
                    let byte = *data.get(at).ok_or("a mark gap is cut short")?;
                    at += 1;
                    if shift > 35 {
                        return Err("a mark gap is too long".into());
                    }
                    gap |= ((byte & 0x7f) as u64) << shift;
                    shift += 7;
                    if byte & 0x80 == 0 {
                        break;
                    }
                }
                let o = next + gap;
                if o >= len {
                    return Err("a mark lies past its tier".into());
                }
                out.push(o as u32);
                next = o + 1;
            }
        }
        _ => return Err("a mark block has an unknown encoding".into()),
    }
    if out.len() as u64 != count {
        return Err(format!(
            "a mark block holds {} positions, its index says {count}",
            out.len()
        ));
    }
    Ok(out)
}

/// Encodes a whole reachable-only tier file in memory: `records` holds the records of
/// the positions `marks` marks, in position order.
pub fn encode(key: &GameKey, meta: &TierMeta, marks: &Marks, records: &TierRecords) -> Vec<u8> {
    assert_eq!(marks.size(), meta.size, "marks of another tier");
    assert_eq!(marks.count(), records.len() as u64, "a record per mark");
    let blocks = (records.len() as u64).div_ceil(RECORD_BLOCK);
    let mark_blocks = meta.size.div_ceil(MARK_BLOCK);
    // Marked positions before each mark block.
    let mut ranks = vec![0u64; mark_blocks as usize + 1];
    for p in marks.iter() {
        ranks[(p / MARK_BLOCK) as usize + 1] += 1;
    }
    for j in 1..ranks.len() {
        ranks[j] += ranks[j - 1];
    }
    let record_members: Vec<(Vec<u8>, u32, u64)> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let raw = record_block(records, b);
            (
                gzip_member(&raw, None),
                crc32fast::hash(&raw),
                raw.len() as u64,
            )
        })
        .collect();
    let mark_members: Vec<(Vec<u8>, u32, u64)> = (0..mark_blocks)
        .into_par_iter()
        .map(|j| {
            let (lo, hi) = (ranks[j as usize], ranks[j as usize + 1]);
            let base = j * MARK_BLOCK;
            let len = (meta.size - base).min(MARK_BLOCK);
            let offsets: Vec<u32> = marks
                .iter_from(lo)
                .take((hi - lo) as usize)
                .map(|p| (p - base) as u32)
                .collect();
            let raw = mark_block(len, &offsets);
            (
                gzip_member(&raw, None),
                crc32fast::hash(&raw),
                raw.len() as u64,
            )
        })
        .collect();
    let combined = |members: &[(Vec<u8>, u32, u64)]| {
        let mut crc = crc32fast::Hasher::new();
        for (_, c, len) in members {
            crc.combine(&crc32fast::Hasher::new_with_initial_len(*c, *len));
        }
        crc.finalize()
    };
    let header = Header {
        format: FORMAT_VERSION,
        game: key.game.clone(),
        variant: key.variant.clone(),
        tier: meta.tier.0,
        tier_name: meta.name.clone(),
        positions: meta.size,
        stored: marks.count(),
        winby: records.winby.is_some(),
        block_positions: RECORD_BLOCK,
        blocks,
        mark_positions: MARK_BLOCK,
        mark_blocks,
        crc32: combined(&record_members),
        marks_crc32: combined(&mark_members),
    };
    let text = header.to_text();
    // The header member's size does not depend on the extra field's contents.
    let header_len = gzip_member(text.as_bytes(), Some(extra_field(0, 0))).len() as u64;
    let all = || record_members.iter().chain(&mark_members);
    let mut offsets = Vec::with_capacity(record_members.len() + mark_members.len() + 1);
    let mut at = header_len;
    for (m, _, _) in all() {
        offsets.push(at);
        at += m.len() as u64;
    }
    offsets.push(at);
    let mut index = Vec::with_capacity(24 + (offsets.len() + ranks.len()) * 8);
    index.extend_from_slice(INDEX_MAGIC);
    index.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    index.extend_from_slice(&blocks.to_le_bytes());
    index.extend_from_slice(&mark_blocks.to_le_bytes());
    for o in offsets.iter().chain(&ranks) {
        index.extend_from_slice(&o.to_le_bytes());
    }
    let index_member = gzip_member(&index, None);
    let head = gzip_member(
        text.as_bytes(),
        Some(extra_field(at, index_member.len() as u64)),
    );
    debug_assert_eq!(head.len() as u64, header_len);
    let mut out = Vec::with_capacity((at + index_member.len() as u64) as usize);
    out.extend_from_slice(&head);
    for (m, _, _) in all() {
        out.extend_from_slice(m);
    }
    out.extend_from_slice(&index_member);
    out
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, synced
/// and renamed, so a killed solve never leaves half a tier behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> DbResult<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io("creating", dir))?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!("{name}.{}.tmp", std::process::id()));
    {
        let mut f = File::create(&tmp).map_err(io("creating", &tmp))?;
        f.write_all(bytes).map_err(io("writing", &tmp))?;
        f.sync_all().map_err(io("syncing", &tmp))?;
    }
    fs::rename(&tmp, path).map_err(io("renaming into place", path))?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The header text of a tier file (either kind) and where its index lies.
fn read_head(path: &Path) -> DbResult<(File, String, u64, u64)> {
    let file = File::open(path).map_err(io("opening", path))?;
    let len = file.metadata().map_err(io("reading", path))?.len();
    let mut head = [0u8; 12];
    file.read_exact_at(&mut head, 0)
        .map_err(|_| corrupt(path, "shorter than a gzip header (truncated)"))?;
    if head[0] != 0x1f || head[1] != 0x8b || head[2] != 8 {
        return Err(corrupt(path, "not gzip data"));
    }
    if head[3] & 4 == 0 {
        return Err(corrupt(
            path,
            "gzip header lacks the tier database's extra field",
        ));
    }
    let xlen = u16::from_le_bytes([head[10], head[11]]) as usize;
    let mut extra = vec![0u8; xlen];
    file.read_exact_at(&mut extra, 12)
        .map_err(|_| corrupt(path, "truncated gzip header"))?;
    let (index_offset, index_len) =
        find_extra(&extra).ok_or_else(|| corrupt(path, "no GT extra field"))?;
    if index_offset.checked_add(index_len) != Some(len) {
        return Err(corrupt(
            path,
            format!(
                "file is {len} bytes but its index says {}",
                index_offset.saturating_add(index_len)
            ),
        ));
    }
    let mut head_member = vec![0u8; index_offset.min(1 << 16) as usize];
    file.read_exact_at(&mut head_member, 0)
        .map_err(io("reading", path))?;
    let text = gunzip(path, &head_member, 1 << 14)?;
    let text = String::from_utf8(text).map_err(|_| corrupt(path, "header is not text"))?;
    Ok((file, text, index_offset, index_len))
}

/// Whether the tier file at `path` is reachable-only (false for full tier files and
/// for files whose header cannot be read: the full reader reports what is wrong).
pub fn is_reachable_file(path: &Path) -> bool {
    read_head(path).is_ok_and(|(_, text, _, _)| text.lines().any(|l| l == COVERAGE_LINE))
}

/// An open reachable-only tier file: header and index read, blocks read on demand.
pub struct ReachableReader {
    path: PathBuf,
    file: File,
    /// The header.
    pub header: Header,
    /// File offsets of the record blocks, then the mark blocks, then the index.
    offsets: Vec<u64>,
    /// Marked positions before each mark block (and in all, last).
    ranks: Vec<u64>,
    records: Mutex<HashMap<u64, Arc<Vec<u8>>>>,
    marks: Mutex<HashMap<u64, Arc<Vec<u32>>>>,
}

/// Looks `key` up in a small cache of decoded blocks, filling it with `load`.
fn cached<T>(
    cache: &Mutex<HashMap<u64, Arc<T>>>,
    key: u64,
    load: impl FnOnce() -> DbResult<T>,
) -> DbResult<Arc<T>> {
    if let Some(d) = cache.lock().expect("block cache").get(&key) {
        return Ok(d.clone());
    }
    let d = Arc::new(load()?);
    let mut c = cache.lock().expect("block cache");
    if c.len() >= CACHED_BLOCKS {
        if let Some(&k) = c.keys().next() {
            c.remove(&k);
        }
    }
    c.insert(key, d.clone());
    Ok(d)
}

impl ReachableReader {
    /// Opens a reachable-only tier file and checks its header and index.
    pub fn open(path: &Path) -> DbResult<ReachableReader> {
        let (file, text, index_offset, index_len) = read_head(path)?;
        let header = Header::parse(&text).map_err(|e| corrupt(path, e))?;
        if header.format != FORMAT_VERSION {
            return Err(corrupt(
                path,
                format!(
                    "reachable-only format version {} (this host reads {FORMAT_VERSION})",
                    header.format
                ),
            ));
        }
        if header.block_positions == 0
            || header.mark_positions == 0
            || header.stored > header.positions
            || header.blocks != header.stored.div_ceil(header.block_positions)
            || header.mark_blocks != header.positions.div_ceil(header.mark_positions)
        {
            return Err(corrupt(
                path,
                "block counts do not match the numbers of positions",
            ));
        }
        let members = header.blocks + header.mark_blocks;
        let expected = 24 + (members + 1 + header.mark_blocks + 1) * 8;
        let mut raw = vec![0u8; index_len as usize];
        file.read_exact_at(&mut raw, index_offset)
            .map_err(io("reading", path))?;
        let index = gunzip(path, &raw, expected)?;
        if index.len() as u64 != expected || &index[..4] != INDEX_MAGIC {
            return Err(corrupt(path, "index is malformed"));
        }
        let numbers: Vec<u64> = index[24..]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let (offsets, ranks) = numbers.split_at(members as usize + 1);
        if offsets.windows(2).any(|w| w[0] >= w[1]) || offsets.last() != Some(&index_offset) {
            return Err(corrupt(
                path,
                "index offsets are not increasing up to the index",
            ));
        }
        let fits =
            |j: usize, w: &[u64]| w[0] <= w[1] && w[1] - w[0] <= header.mark_block_len(j as u64);
        if ranks.first() != Some(&0)
            || ranks.last() != Some(&header.stored)
            || !ranks.windows(2).enumerate().all(|(j, w)| fits(j, w))
        {
            return Err(corrupt(path, "the rank directory is inconsistent"));
        }
        Ok(ReachableReader {
            path: path.to_path_buf(),
            file,
            offsets: offsets.to_vec(),
            ranks: ranks.to_vec(),
            header,
            records: Mutex::new(HashMap::new()),
            marks: Mutex::new(HashMap::new()),
        })
    }

    /// The decompressed bytes of member `m` (record blocks first, then mark blocks).
    fn member(&self, m: u64, limit: u64) -> DbResult<Vec<u8>> {
        let (start, end) = (self.offsets[m as usize], self.offsets[m as usize + 1]);
        let mut raw = vec![0u8; (end - start) as usize];
        self.file
            .read_exact_at(&mut raw, start)
            .map_err(io("reading", &self.path))?;
        gunzip(&self.path, &raw, limit)
    }

    fn record_block_raw(&self, b: u64) -> DbResult<Vec<u8>> {
        let n =
            (self.header.stored - b * self.header.block_positions).min(self.header.block_positions);
        let expected = n * self.header.record_bytes();
        let data = self.member(b, expected)?;
        if data.len() as u64 != expected {
            return Err(corrupt(
                &self.path,
                format!(
                    "record block {b} holds {} bytes, expected {expected}",
                    data.len()
                ),
            ));
        }
        Ok(data)
    }

    fn mark_block_raw(&self, j: u64) -> DbResult<Vec<u8>> {
        let len = self.header.mark_block_len(j);
        // Gaps are chosen only when shorter than the bitset.
        self.member(self.header.blocks + j, 1 + len.div_ceil(8))
    }

    fn mark_offsets(&self, j: u64, raw: &[u8]) -> DbResult<Vec<u32>> {
        let count = self.ranks[j as usize + 1] - self.ranks[j as usize];
        decode_marks(raw, self.header.mark_block_len(j), count)
            .map_err(|e| corrupt(&self.path, format!("mark block {j}: {e}")))
    }

    /// The compact index of position `i` (its rank among the marked positions), or
    /// `None` when `i` is not marked.
    pub fn rank(&self, i: u64) -> DbResult<Option<u64>> {
        if i >= self.header.positions {
            return Ok(None);
        }
        let j = i / self.header.mark_positions;
        let before = self.ranks[j as usize];
        if self.ranks[j as usize + 1] == before {
            return Ok(None);
        }
        let offsets = cached(&self.marks, j, || {
            let raw = self.mark_block_raw(j)?;
            self.mark_offsets(j, &raw)
        })?;
        let o = (i % self.header.mark_positions) as u32;
        Ok(offsets.binary_search(&o).ok().map(|k| before + k as u64))
    }

    /// The record of position `i`, or `None` when `i` is not marked.
    pub fn lookup(&self, i: u64) -> DbResult<Option<Record>> {
        let Some(k) = self.rank(i)? else {
            return Ok(None);
        };
        let b = k / self.header.block_positions;
        let at = (k % self.header.block_positions) as usize;
        let data = cached(&self.records, b, || self.record_block_raw(b))?;
        let n = data.len() / self.header.record_bytes() as usize;
        let packed = u16::from_le_bytes([data[2 * at], data[2 * at + 1]]);
        let winby = self.header.winby.then(|| {
            let o = 2 * n + 4 * at;
            i32::from_le_bytes(data[o..o + 4].try_into().expect("4 bytes"))
        });
        let r = crate::record::decode(packed, winby);
        if r.value.0 > 4 {
            return Err(corrupt(
                &self.path,
                format!("the record of position {i} has value code {}", r.value.0),
            ));
        }
        Ok(Some(r))
    }

    /// The marks and every record, with both checksums verified.
    pub fn read_all(&self) -> DbResult<ReachableTier> {
        let h = &self.header;
        let blocks: Vec<Vec<u8>> = (0..h.blocks)
            .into_par_iter()
            .map(|b| self.record_block_raw(b))
            .collect::<DbResult<_>>()?;
        let mut crc = crc32fast::Hasher::new();
        let mut values = Vec::with_capacity(h.stored as usize);
        let mut winby = h.winby.then(|| Vec::with_capacity(h.stored as usize));
        for data in &blocks {
            crc.update(data);
            let k = data.len() / h.record_bytes() as usize;
            values.extend(
                data[..2 * k]
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]])),
            );
            if let Some(w) = winby.as_mut() {
                w.extend(
                    data[2 * k..]
                        .chunks_exact(4)
                        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes"))),
                );
            }
        }
        drop(blocks);
        if crc.finalize() != h.crc32 {
            return Err(corrupt(&self.path, "checksum does not match the records"));
        }
        if values.iter().any(|&v| crate::record::value_of(v).0 > 4) {
            return Err(corrupt(&self.path, "a record has an invalid value code"));
        }
        let marks: Vec<(Vec<u8>, Vec<u32>)> = (0..h.mark_blocks)
            .into_par_iter()
            .map(|j| {
                let raw = self.mark_block_raw(j)?;
                let offsets = self.mark_offsets(j, &raw)?;
                Ok((raw, offsets))
            })
            .collect::<DbResult<_>>()?;
        let mut crc = crc32fast::Hasher::new();
        let mut members = Vec::with_capacity(h.stored as usize);
        for (j, (raw, offsets)) in marks.iter().enumerate() {
            crc.update(raw);
            let base = j as u64 * h.mark_positions;
            members.extend(offsets.iter().map(|&o| base + o as u64));
        }
        if crc.finalize() != h.marks_crc32 {
            return Err(corrupt(&self.path, "checksum does not match the marks"));
        }
        Ok(ReachableTier {
            marks: Arc::new(Marks::from_sorted(h.positions, members)),
            records: Arc::new(TierRecords { values, winby }),
        })
    }
}

/// Checks that a reachable-only file's header fits the game and tier it is read for.
pub fn check_header(h: &Header, key: &GameKey, meta: &TierMeta) -> Result<(), String> {
    if h.game != key.game || h.variant != key.variant {
        return Err(format!(
            "it belongs to {} {}, not {} {}",
            h.game, h.variant, key.game, key.variant
        ));
    }
    if h.tier != meta.tier.0 || h.positions != meta.size {
        return Err(format!(
            "it holds tier {} with {} positions, expected tier {} with {}",
            h.tier, h.positions, meta.tier, meta.size
        ));
    }
    if h.winby != key.winby {
        return Err("its record layout (WinBy) does not match the game".into());
    }
    Ok(())
}

/// Why a stored tier is unusable, or `None` when it holds exactly `marks` with valid
/// records; `Err` only for I/O failures.
pub fn verify(
    path: &Path,
    key: &GameKey,
    meta: &TierMeta,
    marks: &Marks,
) -> DbResult<Option<String>> {
    let check = || -> DbResult<Option<String>> {
        let r = ReachableReader::open(path)?;
        if let Err(e) = check_header(&r.header, key, meta) {
            return Ok(Some(e));
        }
        if r.header.stored != marks.count() {
            return Ok(Some(format!(
                "it holds {} positions reachable from the start, but {} are reachable now",
                r.header.stored,
                marks.count()
            )));
        }
        if *r.read_all()?.marks != *marks {
            return Ok(Some(
                "its positions differ from those reachable from the start now".into(),
            ));
        }
        Ok(None)
    };
    match check() {
        Err(DbError::Corrupt { reason, .. }) => Ok(Some(reason)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pack;
    use gamesman_plugin_api::{Tier, Value};

    fn key(winby: bool) -> GameKey {
        GameKey {
            game: "g".into(),
            variant: "v".into(),
            winby,
        }
    }

    fn sample(size: u64, every: u64, winby: bool) -> (Marks, TierRecords, TierMeta) {
        let members: Vec<u64> = (0..size).filter(|i| (i * 7919) % every == 0).collect();
        let n = members.len();
        let records = TierRecords {
            values: (0..n)
                .map(|i| pack(Value((1 + i % 4) as u8), (i % 300) as u32))
                .collect(),
            winby: winby.then(|| (0..n).map(|i| (i as i32 % 41) - 20).collect()),
        };
        let meta = TierMeta {
            tier: Tier(4),
            name: "four".into(),
            size,
        };
        (Marks::from_sorted(size, members), records, meta)
    }

    #[test]
    fn round_trip_lookups_and_zcat_readable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tier_4.gz");
        // Sparse (gap-coded marks), dense (bitsets), several blocks of both, empty.
        for (size, every, winby) in [
            (3 * MARK_BLOCK + 17, 37, true),
            (MARK_BLOCK + 5, 2, false),
            (40_000, 1, true),
            (1000, 1_000_000, false),
            (0, 1, false),
        ] {
            let (marks, records, meta) = sample(size, every, winby);
            write_atomically(&path, &encode(&key(winby), &meta, &marks, &records)).unwrap();
            assert!(is_reachable_file(&path));
            assert_eq!(verify(&path, &key(winby), &meta, &marks).unwrap(), None);
            let r = ReachableReader::open(&path).unwrap();
            assert_eq!(r.header.stored, marks.count());
            let all = r.read_all().unwrap();
            assert_eq!(*all.marks, marks);
            assert_eq!(*all.records, records);
            for i in (0..size).step_by(97).chain(size.saturating_sub(3)..size) {
                let want = marks.rank(i).map(|k| records.get(k));
                assert_eq!(r.lookup(i).unwrap(), want, "position {i} of {size}");
            }
            assert_eq!(r.lookup(size).unwrap(), None);
            let bytes = fs::read(&path).unwrap();
            let mut text = Vec::new();
            std::io::Read::read_to_end(
                &mut flate2::read::MultiGzDecoder::new(&bytes[..]),
                &mut text,
            )
            .unwrap();
            assert!(text.starts_with(
                b"gamesman tier database\nformat: 2\ncoverage: reachable-only\ngame: g\n"
            ));
        }
    }

    #[test]
    fn damage_and_other_marks_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tier_4.gz");
        let (marks, records, meta) = sample(2 * MARK_BLOCK, 3, false);
        let good = encode(&key(false), &meta, &marks, &records);
        fs::write(&path, &good).unwrap();
        // Other marks of the same count: the file is not the one wanted now.
        let other = Marks::from_sorted(
            marks.size(),
            marks.iter().map(|p| if p == 0 { 1 } else { p }).collect(),
        );
        assert_eq!(other.count(), marks.count());
        assert!(verify(&path, &key(false), &meta, &other)
            .unwrap()
            .unwrap()
            .contains("differ"));
        assert!(verify(&path, &key(true), &meta, &marks).unwrap().is_some());
        // A flipped byte anywhere after the header, or a cut, is found.
        for at in [good.len() / 3, good.len() / 2, good.len() - 30] {
            let mut bad = good.clone();
            bad[at] ^= 0x55;
            fs::write(&path, &bad).unwrap();
            assert!(
                verify(&path, &key(false), &meta, &marks).unwrap().is_some(),
                "flip at {at}"
            );
        }
        fs::write(&path, &good[..good.len() - 7]).unwrap();
        assert!(verify(&path, &key(false), &meta, &marks).unwrap().is_some());
        fs::write(&path, &good).unwrap();
        assert_eq!(verify(&path, &key(false), &meta, &marks).unwrap(), None);
    }

    #[test]
    fn mark_blocks_take_the_shorter_encoding() {
        let sparse = mark_block(MARK_BLOCK, &[5, 1000, 200_000]);
        assert_eq!(sparse[0], GAPS_TAG);
        assert_eq!(
            decode_marks(&sparse, MARK_BLOCK, 3).unwrap(),
            [5, 1000, 200_000]
        );
        let evens: Vec<u32> = (0..64).step_by(2).collect();
        let dense = mark_block(64, &evens);
        assert_eq!(dense[0], BITSET_TAG);
        assert_eq!(dense.len(), 9);
        assert_eq!(decode_marks(&dense, 64, 32).unwrap().len(), 32);
        assert!(decode_marks(&dense, 64, 31).is_err());
    }
}
