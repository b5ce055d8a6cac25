//! The tier file format: the header's text, the blocks, the index, and encoding a
//! whole tier. A tier file is a series of gzip members, so `zcat` reads it whole:
//! 1. a header member whose text names the format version, game, variant, tier,
//!    number of positions, record layout, block size and a CRC-32 of all records (as
//!    laid out in format 1, block by block); its gzip header carries an extra field
//!    `GT` with the offset and length of the index;
//! 2. one member per block of records: in format 3 (written now), `BLOCK_POSITIONS`
//!    records coded as `codec` describes; in format 1 (still read), 32,768 records laid
//!    out plainly (little-endian `u16` value and remoteness, then `i32` WinBy when the
//!    game has it);
//! 3. an index member with the file offset of every block.
//!
//! This file only lays out bytes; it must not touch the file system or interpret
//! records beyond their layout.

use super::codec;
use super::header::{HeaderFields, HeaderText};
use crate::engine::db::{GameKey, TierMeta};
use crate::engine::record::TierRecords;
use flate2::{Compression, GzBuilder};
use rayon::prelude::*;
use std::io::Write;

/// The version of the tier file format written (blocks coded by `codec`).
pub const FORMAT_VERSION: u32 = 3;
/// The first version, whose blocks hold records laid out plainly; still read.
pub const FORMAT_V1: u32 = 1;
/// Records per block (a block is decoded whole for a lookup).
pub const BLOCK_POSITIONS: u64 = 1 << 19;
/// Records per block of format 1.
#[cfg(test)]
const V1_BLOCK_POSITIONS: u64 = 1 << 15;
/// The most records per block a reader accepts (a bound on what one block costs).
pub(super) const MAX_BLOCK_POSITIONS: u64 = 1 << 24;
pub(super) const INDEX_MAGIC: &[u8; 4] = b"GTIX";
pub(super) const EXTRA_ID: [u8; 2] = *b"GT";

/// What a tier file's header says.
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
    /// Number of positions.
    pub positions: u64,
    /// Whether records carry WinBy.
    pub winby: bool,
    /// Records per block.
    pub block_positions: u64,
    /// Number of blocks.
    pub blocks: u64,
    /// CRC-32 of all record bytes in block order.
    pub crc32: u32,
}

impl Header {
    fn to_text(&self) -> String {
        HeaderText::new(self.format)
            .identity(
                &self.game,
                &self.variant,
                self.numbering,
                self.tier,
                &self.tier_name,
            )
            .field("positions", self.positions)
            .record(self.winby)
            .field("block_positions", self.block_positions)
            .field("blocks", self.blocks)
            .crc("crc32", self.crc32)
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
            winby: f.winby()?,
            block_positions: f.num("block_positions")?,
            blocks: f.num("blocks")?,
            crc32: f.crc("crc32")?,
        })
    }

    pub(super) fn record_bytes(&self) -> u64 {
        if self.winby {
            6
        } else {
            2
        }
    }
}

pub(crate) fn gzip_member(data: &[u8], extra: Option<Vec<u8>>) -> Vec<u8> {
    let mut b = GzBuilder::new().mtime(0);
    if let Some(e) = extra {
        b = b.extra(e);
    }
    let mut enc = b.write(Vec::with_capacity(data.len() / 4 + 64), Compression::new(6));
    enc.write_all(data).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

pub(crate) fn extra_field(index_offset: u64, index_len: u64) -> Vec<u8> {
    let mut e = Vec::with_capacity(20);
    e.extend_from_slice(&EXTRA_ID);
    e.extend_from_slice(&16u16.to_le_bytes());
    e.extend_from_slice(&index_offset.to_le_bytes());
    e.extend_from_slice(&index_len.to_le_bytes());
    e
}

/// Encodes a whole tier file in memory, in the current format.
pub fn encode_tier(key: &GameKey, meta: &TierMeta, records: &TierRecords) -> Vec<u8> {
    encode_with(
        key,
        meta,
        records,
        FORMAT_VERSION,
        BLOCK_POSITIONS,
        codec::encode,
    )
}

/// Encodes a whole tier file in format 1, as hosts before format 3 wrote it.
#[cfg(test)]
pub(crate) fn encode_tier_v1(key: &GameKey, meta: &TierMeta, records: &TierRecords) -> Vec<u8> {
    encode_with(key, meta, records, FORMAT_V1, V1_BLOCK_POSITIONS, |v, w| {
        gzip_member(&codec::layout(v, w), None)
    })
}

/// A block's gzip member, the CRC-32 of its records as laid out in format 1, and the
/// length of that layout.
pub(crate) type Member = (Vec<u8>, u32, u64);

/// Every block of `block` records of `records`, encoded in parallel by `member`, with
/// the CRC-32 and length of its records as laid out in format 1 (what the header's
/// tier checksum covers, whatever the coding).
pub(crate) fn record_members(
    records: &TierRecords,
    block: u64,
    member: impl Fn(&[u16], Option<&[i32]>) -> Vec<u8> + Sync,
) -> Vec<Member> {
    let blocks = (records.len() as u64).div_ceil(block);
    (0..blocks)
        .into_par_iter()
        .map(|b| {
            let start = (b * block) as usize;
            let end = (start + block as usize).min(records.len());
            let values = &records.values[start..end];
            let winby = records.winby.as_ref().map(|w| &w[start..end]);
            block_member(values, winby, &member)
        })
        .collect()
}

/// One block's member written by `member`, with the CRC-32 and length of its records
/// as laid out in format 1.
pub(crate) fn block_member(
    values: &[u16],
    winby: Option<&[i32]>,
    member: impl Fn(&[u16], Option<&[i32]>) -> Vec<u8>,
) -> Member {
    let mut h = crc32fast::Hasher::new();
    codec::layout_crc(&mut h, values, winby);
    let len = values.len() as u64 * if winby.is_some() { 6 } else { 2 };
    (member(values, winby), h.finalize(), len)
}

/// The CRC-32 of the concatenation of `members`' checked bytes, combined from theirs.
pub(crate) fn combined_crc(members: &[Member]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    for (_, c, len) in members {
        crc.combine(&crc32fast::Hasher::new_with_initial_len(*c, *len));
    }
    crc.finalize()
}

/// Encodes a tier file of `format`, whose blocks of `block` records `member` writes.
fn encode_with(
    key: &GameKey,
    meta: &TierMeta,
    records: &TierRecords,
    format: u32,
    block: u64,
    member: impl Fn(&[u16], Option<&[i32]>) -> Vec<u8> + Sync,
) -> Vec<u8> {
    let members = record_members(records, block, member);
    let sums: Vec<(u64, u32, u64)> = members
        .iter()
        .map(|(m, c, l)| (m.len() as u64, *c, *l))
        .collect();
    let shape = Shape {
        positions: records.len() as u64,
        winby: records.winby.is_some(),
        format,
        block,
    };
    let (head, index) = frame(key, meta, &shape, &sums);
    let body: usize = members.iter().map(|(m, _, _)| m.len()).sum();
    let mut out = Vec::with_capacity(head.len() + body + index.len());
    out.extend_from_slice(&head);
    for (m, _, _) in &members {
        out.extend_from_slice(m);
    }
    out.extend_from_slice(&index);
    out
}

/// What a tier file holds, for `frame`.
pub(crate) struct Shape {
    /// Records.
    pub positions: u64,
    /// Whether they have WinBy.
    pub winby: bool,
    /// The format version.
    pub format: u32,
    /// Records per block.
    pub block: u64,
}

/// The header member and the index member of a tier file whose block members have
/// the (member length, CRC-32 of the layout, layout length) of `members`, in order:
/// the file is the header, the members, the index.
pub(crate) fn frame(
    key: &GameKey,
    meta: &TierMeta,
    shape: &Shape,
    members: &[(u64, u32, u64)],
) -> (Vec<u8>, Vec<u8>) {
    let mut crc = crc32fast::Hasher::new();
    for (_, c, len) in members {
        crc.combine(&crc32fast::Hasher::new_with_initial_len(*c, *len));
    }
    let header = Header {
        format: shape.format,
        numbering: key.numbering,
        game: key.game.clone(),
        variant: key.variant.clone(),
        tier: meta.tier.0,
        tier_name: meta.name.clone(),
        positions: shape.positions,
        winby: shape.winby,
        block_positions: shape.block,
        blocks: members.len() as u64,
        crc32: crc.finalize(),
    };
    let text = header.to_text();
    // The header member's size does not depend on the extra field's contents.
    let header_len = gzip_member(text.as_bytes(), Some(extra_field(0, 0))).len() as u64;
    let mut offsets = Vec::with_capacity(members.len() + 1);
    let mut at = header_len;
    for (len, _, _) in members {
        offsets.push(at);
        at += len;
    }
    offsets.push(at);
    let blocks = members.len() as u64;
    let mut index = Vec::with_capacity(16 + offsets.len() * 8);
    index.extend_from_slice(INDEX_MAGIC);
    index.extend_from_slice(&shape.format.to_le_bytes());
    index.extend_from_slice(&blocks.to_le_bytes());
    for o in &offsets {
        index.extend_from_slice(&o.to_le_bytes());
    }
    let index_member = gzip_member(&index, None);
    let head = gzip_member(
        text.as_bytes(),
        Some(extra_field(at, index_member.len() as u64)),
    );
    debug_assert_eq!(head.len() as u64, header_len);
    (head, index_member)
}

pub(crate) fn find_extra(extra: &[u8]) -> Option<(u64, u64)> {
    let mut at = 0;
    while at + 4 <= extra.len() {
        let id = [extra[at], extra[at + 1]];
        let len = u16::from_le_bytes([extra[at + 2], extra[at + 3]]) as usize;
        let body = extra.get(at + 4..at + 4 + len)?;
        if id == EXTRA_ID && len == 16 {
            let o = u64::from_le_bytes(body[..8].try_into().ok()?);
            let l = u64::from_le_bytes(body[8..].try_into().ok()?);
            return Some((o, l));
        }
        at += 4 + len;
    }
    None
}
