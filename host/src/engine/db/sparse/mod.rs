//! Reachable-only tier files (`solve --reachable`): the records of a tier's marked
//! positions only, with the marks that say which positions those are.
//!
//! Like a full tier file, a series of gzip members (`zcat` reads it whole):
//! 1. a header member whose text names the format version (`FORMAT_VERSION`, with the
//!    line `coverage: reachable-only`, so no reader takes it for a full tier), game,
//!    variant, tier, positions in the tier, positions stored, record layout, block
//!    sizes and CRC-32s of the records (as laid out in the full format 1, block by
//!    block) and of the marks; its gzip extra field `GT` gives the offset and length of
//!    the index;
//! 2. one member per block of `RECORD_BLOCK` records of marked positions, in position
//!    order, coded as the full format's blocks are (`file::codec`; format 2, still
//!    read, laid them out plainly: `u16` value and remoteness, then `i32` WinBy when
//!    the game has it, 32,768 per block);
//! 3. one member per block of `MARK_BLOCK` positions of the tier: a tag byte, then
//!    either the block's bitset or the gaps between its marked positions as LEB128
//!    varints, whichever is shorter;
//! 4. an index member: every member's file offset and, per mark block, how many marked
//!    positions lie before it (the rank directory).
//!
//! A lookup reads one mark block (to rank the position) and one record block. This
//! module writes the format; `reader` reads and checks it. Neither interprets records
//! beyond their layout.

mod reader;

pub use reader::{
    check_header, is_reachable_file, is_reachable_source, verify, verify_source, ReachableReader,
};

use super::file::codec;
use super::file::{
    combined_crc, extra_field, gzip_member, io, record_members, HeaderFields, HeaderText, Member,
};
use super::{DbResult, GameKey, TierMeta};
use crate::engine::marks::Marks;
use crate::engine::record::TierRecords;
use rayon::prelude::*;
use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

/// The version of the reachable-only tier file format written (coded record blocks).
pub const FORMAT_VERSION: u32 = 4;
/// The first version, whose record blocks are laid out plainly; still read.
pub const FORMAT_V2: u32 = 2;
/// The header line that marks a reachable-only tier file.
pub(super) const COVERAGE_LINE: &str = "coverage: reachable-only";
/// Records per record block.
pub const RECORD_BLOCK: u64 = super::file::BLOCK_POSITIONS;
/// Records per record block of format 2.
#[cfg(test)]
const V2_RECORD_BLOCK: u64 = 1 << 15;
/// Positions per mark block.
pub const MARK_BLOCK: u64 = 1 << 18;
pub(super) const INDEX_MAGIC: &[u8; 4] = b"GTRX";
const BITSET_TAG: u8 = 0;
const GAPS_TAG: u8 = 1;

/// What a reachable-only tier file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub format: u32,
    /// The module's numbering of positions (`index_version`; a `numbering:` line only
    /// when not 0, so older files, which lack it, read as 0).
    pub numbering: u32,
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

impl Header {
    fn to_text(&self) -> String {
        HeaderText::new(self.format)
            .line(COVERAGE_LINE)
            .identity(
                &self.game,
                &self.variant,
                self.numbering,
                self.tier,
                &self.tier_name,
            )
            .field("positions", self.positions)
            .field("stored", self.stored)
            .record(self.winby)
            .field("block_positions", self.block_positions)
            .field("blocks", self.blocks)
            .field("mark_positions", self.mark_positions)
            .field("mark_blocks", self.mark_blocks)
            .crc("crc32", self.crc32)
            .crc("marks_crc32", self.marks_crc32)
            .finish()
    }

    pub(super) fn parse(text: &str) -> Result<Header, String> {
        let f = HeaderFields::parse(text)?;
        Ok(Header {
            numbering: f.numbering()?,
            format: f.num("format")? as u32,
            game: f.get("game")?.to_string(),
            variant: f.get("variant")?.to_string(),
            tier: f.num("tier")?,
            tier_name: f.get("tier_name")?.to_string(),
            positions: f.num("positions")?,
            stored: f.num("stored")?,
            winby: f.winby()?,
            block_positions: f.num("block_positions")?,
            blocks: f.num("blocks")?,
            mark_positions: f.num("mark_positions")?,
            mark_blocks: f.num("mark_blocks")?,
            crc32: f.crc("crc32")?,
            marks_crc32: f.crc("marks_crc32")?,
        })
    }

    pub(super) fn record_bytes(&self) -> u64 {
        if self.winby {
            6
        } else {
            2
        }
    }

    /// Positions of the tier in mark block `j`.
    pub(super) fn mark_block_len(&self, j: u64) -> u64 {
        (self.positions - j * self.mark_positions).min(self.mark_positions)
    }
}

/// The raw bytes of a mark block of `len` positions whose marked offsets are `offsets`.
fn mark_block(len: u64, offsets: &[u32]) -> Vec<u8> {
    let mut gaps = vec![GAPS_TAG];
    let mut prev: Option<u64> = None;
    let bitset_len = 1 + len.div_ceil(8) as usize;
    for &o in offsets {
        let o = o as u64;
        let gap = prev.map_or(o, |p| o - p - 1);
        prev = Some(o);
        super::file::codec::put_varint(&mut gaps, gap);
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
pub(super) fn decode_marks(data: &[u8], len: u64, count: u64) -> Result<Vec<u32>, String> {
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
    let format = (FORMAT_VERSION, RECORD_BLOCK);
    encode_with(key, meta, marks, records, format, codec::encode)
}

/// `encode` in format 2, as hosts before format 4 wrote it.
#[cfg(test)]
pub(super) fn encode_v2(
    key: &GameKey,
    meta: &TierMeta,
    marks: &Marks,
    records: &TierRecords,
) -> Vec<u8> {
    encode_with(
        key,
        meta,
        marks,
        records,
        (FORMAT_V2, V2_RECORD_BLOCK),
        |v, w| gzip_member(&codec::layout(v, w), None),
    )
}

/// Encodes a file of `format` (version, records per block) whose record blocks
/// `member` writes.
fn encode_with(
    key: &GameKey,
    meta: &TierMeta,
    marks: &Marks,
    records: &TierRecords,
    (format, block): (u32, u64),
    member: impl Fn(&[u16], Option<&[i32]>) -> Vec<u8> + Sync,
) -> Vec<u8> {
    assert_eq!(marks.size(), meta.size, "marks of another tier");
    assert_eq!(marks.count(), records.len() as u64, "a record per mark");
    let blocks = (records.len() as u64).div_ceil(block);
    let mark_blocks = meta.size.div_ceil(MARK_BLOCK);
    // Marked positions before each mark block.
    let mut ranks = vec![0u64; mark_blocks as usize + 1];
    for p in marks.iter() {
        ranks[(p / MARK_BLOCK) as usize + 1] += 1;
    }
    for j in 1..ranks.len() {
        ranks[j] += ranks[j - 1];
    }
    let record_members = record_members(records, block, member);
    let mark_members: Vec<Member> = (0..mark_blocks)
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
    let header = Header {
        format,
        numbering: key.numbering,
        game: key.game.clone(),
        variant: key.variant.clone(),
        tier: meta.tier.0,
        tier_name: meta.name.clone(),
        positions: meta.size,
        stored: marks.count(),
        winby: records.winby.is_some(),
        block_positions: block,
        blocks,
        mark_positions: MARK_BLOCK,
        mark_blocks,
        crc32: combined_crc(&record_members),
        marks_crc32: combined_crc(&mark_members),
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
    index.extend_from_slice(&format.to_le_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;

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
