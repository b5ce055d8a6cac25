//! `file:DIR`: one gzip file per tier under `DIR/<game>_<variant>_tierdb/`.
//!
//! A tier file is a series of gzip members, so `zcat` reads it whole:
//! 1. a header member whose text names the format version, game, variant, tier,
//!    number of positions, record layout, block size and a CRC-32 of all records; its
//!    gzip header carries an extra field `GT` with the offset and length of the index;
//! 2. one member per block of `BLOCK_POSITIONS` records (little-endian `u16` value and
//!    remoteness, then `i32` WinBy when the game has it);
//! 3. an index member with the file offset of every block.
//!
//! A lookup reads the header and index once, then decompresses only the block it needs
//! (and caches a few). Files are written under a temporary name, synced and renamed, so
//! a killed solve never leaves a half-written tier behind. Reachable-only tiers live in
//! the same directory under the same names, in their own format (`sparse`); this file
//! tells the two apart by their headers. It must not interpret records beyond their
//! layout.

use super::sparse::{self, ReachableReader};
use super::{
    Coverage, Database, DbError, DbResult, GameKey, ReachableTier, StoredTier, TierMeta, TierStatus,
};
use crate::marks::Marks;
use crate::record::{Record, TierRecords};
use flate2::read::GzDecoder;
use flate2::{Compression, GzBuilder};
use gamesman_plugin_api::{Tier, TierPosition};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The version of the tier file format.
pub const FORMAT_VERSION: u32 = 1;
/// Records per block (a block is decompressed whole for a lookup).
pub const BLOCK_POSITIONS: u64 = 1 << 15;
pub(super) const FIRST_LINE: &str = "gamesman tier database";
const INDEX_MAGIC: &[u8; 4] = b"GTIX";
const EXTRA_ID: [u8; 2] = *b"GT";
/// Blocks kept decompressed per tier for lookups.
const CACHED_BLOCKS: usize = 64;

/// A file database for one game and variant.
pub struct FileDb {
    dir: PathBuf,
    key: GameKey,
    readers: Mutex<HashMap<Tier, Opened>>,
}

/// An open tier file of either kind.
#[derive(Clone)]
enum Opened {
    Full(Arc<TierReader>),
    ReachableOnly(Arc<ReachableReader>),
}

/// What a tier file's header says.
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
    fn record_layout(winby: bool) -> &'static str {
        if winby {
            "value:3 remoteness:13 as u16 le; winby as i32 le"
        } else {
            "value:3 remoteness:13 as u16 le"
        }
    }

    fn to_text(&self) -> String {
        format!(
            "{FIRST_LINE}\nformat: {}\ngame: {}\nvariant: {}\ntier: {}\ntier_name: {}\npositions: {}\nrecord: {}\nblock_positions: {}\nblocks: {}\ncrc32: {:08x}\n",
            self.format,
            self.game,
            self.variant,
            self.tier,
            self.tier_name.replace('\n', " "),
            self.positions,
            Self::record_layout(self.winby),
            self.block_positions,
            self.blocks,
            self.crc32
        )
    }

    fn parse(text: &str) -> Result<Header, String> {
        let mut lines = text.lines();
        if lines.next() != Some(FIRST_LINE) {
            return Err("not a gamesman tier database (first line)".into());
        }
        let mut map = HashMap::new();
        for l in lines {
            if let Some((k, v)) = l.split_once(": ") {
                map.insert(k, v);
            }
        }
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
        let record = get("record")?;
        let winby = if record == Self::record_layout(true) {
            true
        } else if record == Self::record_layout(false) {
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
            winby,
            block_positions: num("block_positions")?,
            blocks: num("blocks")?,
            crc32: u32::from_str_radix(get("crc32")?, 16).map_err(|_| "bad crc32".to_string())?,
        })
    }

    fn record_bytes(&self) -> u64 {
        if self.winby {
            6
        } else {
            2
        }
    }
}

pub(super) fn io<'a>(
    op: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> DbError + 'a {
    move |source| DbError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

pub(super) fn corrupt(path: &Path, reason: impl Into<String>) -> DbError {
    DbError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// The uncompressed bytes of block `b`.
fn block_bytes(records: &TierRecords, b: u64) -> Vec<u8> {
    let start = (b * BLOCK_POSITIONS) as usize;
    let end = (start + BLOCK_POSITIONS as usize).min(records.len());
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

pub(super) fn gzip_member(data: &[u8], extra: Option<Vec<u8>>) -> Vec<u8> {
    let mut b = GzBuilder::new().mtime(0);
    if let Some(e) = extra {
        b = b.extra(e);
    }
    let mut enc = b.write(Vec::with_capacity(data.len() / 4 + 64), Compression::new(6));
    enc.write_all(data).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

pub(super) fn extra_field(index_offset: u64, index_len: u64) -> Vec<u8> {
    let mut e = Vec::with_capacity(20);
    e.extend_from_slice(&EXTRA_ID);
    e.extend_from_slice(&16u16.to_le_bytes());
    e.extend_from_slice(&index_offset.to_le_bytes());
    e.extend_from_slice(&index_len.to_le_bytes());
    e
}

/// Encodes a whole tier file in memory.
pub fn encode_tier(key: &GameKey, meta: &TierMeta, records: &TierRecords) -> Vec<u8> {
    let blocks = (records.len() as u64).div_ceil(BLOCK_POSITIONS);
    let members: Vec<(Vec<u8>, u32)> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let raw = block_bytes(records, b);
            let mut h = crc32fast::Hasher::new();
            h.update(&raw);
            (gzip_member(&raw, None), h.finalize())
        })
        .collect();
    // The CRC of the concatenation, combined from the blocks' CRCs.
    let mut crc = crc32fast::Hasher::new();
    for (b, (_, c)) in members.iter().enumerate() {
        let len = block_bytes_len(records, b as u64);
        let part = crc32fast::Hasher::new_with_initial_len(*c, len);
        crc.combine(&part);
    }
    let header = Header {
        format: FORMAT_VERSION,
        game: key.game.clone(),
        variant: key.variant.clone(),
        tier: meta.tier.0,
        tier_name: meta.name.clone(),
        positions: records.len() as u64,
        winby: records.winby.is_some(),
        block_positions: BLOCK_POSITIONS,
        blocks,
        crc32: crc.finalize(),
    };
    let text = header.to_text();
    // The header member's size does not depend on the extra field's contents.
    let header_len = gzip_member(text.as_bytes(), Some(extra_field(0, 0))).len() as u64;
    let mut offsets = Vec::with_capacity(members.len() + 1);
    let mut at = header_len;
    for (m, _) in &members {
        offsets.push(at);
        at += m.len() as u64;
    }
    offsets.push(at);
    let mut index = Vec::with_capacity(16 + offsets.len() * 8);
    index.extend_from_slice(INDEX_MAGIC);
    index.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
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
    let mut out = Vec::with_capacity((at + index_member.len() as u64) as usize);
    out.extend_from_slice(&head);
    for (m, _) in &members {
        out.extend_from_slice(m);
    }
    out.extend_from_slice(&index_member);
    out
}

fn block_bytes_len(records: &TierRecords, b: u64) -> u64 {
    let start = b * BLOCK_POSITIONS;
    let n = (records.len() as u64 - start).min(BLOCK_POSITIONS);
    n * if records.winby.is_some() { 6 } else { 2 }
}

pub(super) fn gunzip(path: &Path, data: &[u8], limit: u64) -> DbResult<Vec<u8>> {
    let mut out = Vec::new();
    GzDecoder::new(data)
        .take(limit + 1)
        .read_to_end(&mut out)
        .map_err(|e| corrupt(path, format!("a gzip member does not decompress: {e}")))?;
    if out.len() as u64 > limit {
        return Err(corrupt(
            path,
            "a gzip member is larger than its layout allows",
        ));
    }
    Ok(out)
}

/// An open tier file: header and index read, blocks read on demand.
pub struct TierReader {
    path: PathBuf,
    file: File,
    /// The header.
    pub header: Header,
    offsets: Vec<u64>,
    cache: Mutex<HashMap<u64, Arc<Vec<u8>>>>,
}

impl TierReader {
    /// Opens a tier file and checks its header and index (not its blocks).
    pub fn open(path: &Path) -> DbResult<TierReader> {
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
        let header = Header::parse(&text).map_err(|e| corrupt(path, e))?;
        if header.format != FORMAT_VERSION {
            return Err(corrupt(
                path,
                format!(
                    "format version {} (this host reads {FORMAT_VERSION})",
                    header.format
                ),
            ));
        }
        if header.block_positions == 0
            || header.blocks != header.positions.div_ceil(header.block_positions)
        {
            return Err(corrupt(
                path,
                "block count does not match the number of positions",
            ));
        }
        let mut index_raw = vec![0u8; index_len as usize];
        file.read_exact_at(&mut index_raw, index_offset)
            .map_err(io("reading", path))?;
        let index = gunzip(path, &index_raw, 16 + (header.blocks + 1) * 8)?;
        if index.len() as u64 != 16 + (header.blocks + 1) * 8 || &index[..4] != INDEX_MAGIC {
            return Err(corrupt(path, "index is malformed"));
        }
        let offsets: Vec<u64> = index[16..]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        if offsets.windows(2).any(|w| w[0] >= w[1]) || offsets.last() != Some(&index_offset) {
            return Err(corrupt(
                path,
                "index offsets are not increasing up to the index",
            ));
        }
        Ok(TierReader {
            path: path.to_path_buf(),
            file,
            header,
            offsets,
            cache: Mutex::new(HashMap::new()),
        })
    }

    fn block_len(&self, b: u64) -> u64 {
        let n = (self.header.positions - b * self.header.block_positions)
            .min(self.header.block_positions);
        n * self.header.record_bytes()
    }

    /// The uncompressed bytes of block `b`, checked for length (and by gzip's CRC).
    fn read_block(&self, b: u64) -> DbResult<Vec<u8>> {
        let (start, end) = (self.offsets[b as usize], self.offsets[b as usize + 1]);
        let mut raw = vec![0u8; (end - start) as usize];
        self.file
            .read_exact_at(&mut raw, start)
            .map_err(io("reading", &self.path))?;
        let expected = self.block_len(b);
        let data = gunzip(&self.path, &raw, expected)?;
        if data.len() as u64 != expected {
            return Err(corrupt(
                &self.path,
                format!("block {b} holds {} bytes, expected {expected}", data.len()),
            ));
        }
        Ok(data)
    }

    fn cached_block(&self, b: u64) -> DbResult<Arc<Vec<u8>>> {
        if let Some(d) = self.cache.lock().expect("block cache").get(&b) {
            return Ok(d.clone());
        }
        let d = Arc::new(self.read_block(b)?);
        let mut cache = self.cache.lock().expect("block cache");
        if cache.len() >= CACHED_BLOCKS {
            if let Some(&k) = cache.keys().next() {
                cache.remove(&k);
            }
        }
        cache.insert(b, d.clone());
        Ok(d)
    }

    /// One record.
    pub fn get(&self, i: u64) -> DbResult<Record> {
        let b = i / self.header.block_positions;
        let k = (i % self.header.block_positions) as usize;
        let data = self.cached_block(b)?;
        let n = (self.block_len(b) / self.header.record_bytes()) as usize;
        let packed = u16::from_le_bytes([data[2 * k], data[2 * k + 1]]);
        let winby = self.header.winby.then(|| {
            let o = 2 * n + 4 * k;
            i32::from_le_bytes(data[o..o + 4].try_into().expect("4 bytes"))
        });
        let r = crate::record::decode(packed, winby);
        if r.value.0 > 4 {
            return Err(corrupt(
                &self.path,
                format!("record {i} has value code {}", r.value.0),
            ));
        }
        Ok(r)
    }

    /// Every record, with the checksum verified.
    pub fn read_all(&self) -> DbResult<TierRecords> {
        let blocks: Vec<Vec<u8>> = (0..self.header.blocks)
            .into_par_iter()
            .map(|b| self.read_block(b))
            .collect::<DbResult<_>>()?;
        let mut crc = crc32fast::Hasher::new();
        let n = self.header.positions as usize;
        let mut values = Vec::with_capacity(n);
        let mut winby = self.header.winby.then(|| Vec::with_capacity(n));
        for data in &blocks {
            crc.update(data);
            let k = data.len() / self.header.record_bytes() as usize;
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
        if crc.finalize() != self.header.crc32 {
            return Err(corrupt(&self.path, "checksum does not match the records"));
        }
        if values.iter().any(|&v| crate::record::value_of(v).0 > 4) {
            return Err(corrupt(&self.path, "a record has an invalid value code"));
        }
        Ok(TierRecords { values, winby })
    }
}

pub(super) fn find_extra(extra: &[u8]) -> Option<(u64, u64)> {
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

impl FileDb {
    /// The database for `key` under the directory `root` (created when first written).
    pub fn open(root: PathBuf, key: GameKey) -> DbResult<FileDb> {
        let dir = root.join(format!("{}_{}_tierdb", key.game, key.variant));
        Ok(FileDb {
            dir,
            key,
            readers: Mutex::new(HashMap::new()),
        })
    }

    /// The directory holding the tier files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of a tier.
    pub fn tier_path(&self, tier: Tier) -> PathBuf {
        self.dir.join(format!("tier_{}.gz", tier.0))
    }

    fn check_header(&self, h: &Header, meta: &TierMeta) -> Result<(), String> {
        if h.game != self.key.game || h.variant != self.key.variant {
            return Err(format!(
                "it belongs to {} {}, not {} {}",
                h.game, h.variant, self.key.game, self.key.variant
            ));
        }
        if h.tier != meta.tier.0 || h.positions != meta.size {
            return Err(format!(
                "it holds tier {} with {} positions, expected tier {} with {}",
                h.tier, h.positions, meta.tier, meta.size
            ));
        }
        if h.winby != self.key.winby {
            return Err("its record layout (WinBy) does not match the game".into());
        }
        Ok(())
    }

    fn reader(&self, tier: Tier) -> DbResult<Option<Opened>> {
        if let Some(r) = self.readers.lock().expect("readers").get(&tier) {
            return Ok(Some(r.clone()));
        }
        let path = self.tier_path(tier);
        if !path.exists() {
            return Ok(None);
        }
        let r = if sparse::is_reachable_file(&path) {
            Opened::ReachableOnly(Arc::new(ReachableReader::open(&path)?))
        } else {
            Opened::Full(Arc::new(TierReader::open(&path)?))
        };
        let (game, variant, t) = match &r {
            Opened::Full(r) => (&r.header.game, &r.header.variant, r.header.tier),
            Opened::ReachableOnly(r) => (&r.header.game, &r.header.variant, r.header.tier),
        };
        if *game != self.key.game || *variant != self.key.variant || t != tier.0 {
            return Err(corrupt(
                &path,
                "it belongs to another game, variant or tier",
            ));
        }
        self.readers
            .lock()
            .expect("readers")
            .insert(tier, r.clone());
        Ok(Some(r))
    }

    /// Fails when the tier file at `path` is reachable-only: a full solve, or a reader
    /// of whole full tiers, must not take it for one of its own.
    fn require_full(&self, path: &Path) -> DbResult<()> {
        if sparse::is_reachable_file(path) {
            return Err(DbError::Coverage {
                what: format!("tier file {}", path.display()),
                found: Coverage::ReachableOnly,
                wanted: Coverage::Full,
            });
        }
        Ok(())
    }

    fn remove_temporaries_in_dir(&self) -> DbResult<usize> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Ok(0);
        };
        let mut n = 0;
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().ends_with(".tmp") {
                fs::remove_file(e.path()).map_err(io("removing", &e.path()))?;
                n += 1;
            }
        }
        Ok(n)
    }
}

impl Database for FileDb {
    fn describe(&self) -> String {
        format!("file:{}", self.dir.display())
    }

    fn verify_tier(&self, meta: &TierMeta) -> DbResult<TierStatus> {
        let path = self.tier_path(meta.tier);
        if !path.exists() {
            return Ok(TierStatus::Missing);
        }
        self.require_full(&path)?;
        let check = || -> DbResult<Result<(), String>> {
            let r = TierReader::open(&path)?;
            if let Err(e) = self.check_header(&r.header, meta) {
                return Ok(Err(e));
            }
            r.read_all()?;
            Ok(Ok(()))
        };
        Ok(match check() {
            Ok(Ok(())) => TierStatus::Valid,
            Ok(Err(reason)) => TierStatus::Corrupt(reason),
            Err(DbError::Corrupt { reason, .. }) => TierStatus::Corrupt(reason),
            Err(e) => return Err(e),
        })
    }

    fn has_tier(&self, tier: Tier) -> DbResult<bool> {
        Ok(self.reader(tier)?.is_some())
    }

    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        let path = self.tier_path(meta.tier);
        self.require_full(&path)?;
        let r = TierReader::open(&path)?;
        self.check_header(&r.header, meta)
            .map_err(|e| corrupt(&path, e))?;
        Ok(Arc::new(r.read_all()?))
    }

    fn store_tier(&self, meta: &TierMeta, records: &TierRecords) -> DbResult<()> {
        fs::create_dir_all(&self.dir).map_err(io("creating", &self.dir))?;
        let bytes = encode_tier(&self.key, meta, records);
        let path = self.tier_path(meta.tier);
        let tmp = self.dir.join(format!(
            "tier_{}.gz.{}.tmp",
            meta.tier.0,
            std::process::id()
        ));
        {
            let mut f = File::create(&tmp).map_err(io("creating", &tmp))?;
            f.write_all(&bytes).map_err(io("writing", &tmp))?;
            f.sync_all().map_err(io("syncing", &tmp))?;
        }
        fs::rename(&tmp, &path).map_err(io("renaming into place", &path))?;
        if let Ok(d) = File::open(&self.dir) {
            let _ = d.sync_all();
        }
        self.readers.lock().expect("readers").remove(&meta.tier);
        Ok(())
    }

    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>> {
        match self.reader(p.tier)? {
            None => Ok(None),
            Some(Opened::Full(r)) => {
                if p.position >= r.header.positions {
                    return Err(DbError::OutOfRange(p, r.header.positions));
                }
                Ok(Some(r.get(p.position)?))
            }
            Some(Opened::ReachableOnly(r)) => {
                if p.position >= r.header.positions {
                    return Err(DbError::OutOfRange(p, r.header.positions));
                }
                // A position that cannot occur from the start has no record.
                Ok(Some(r.lookup(p.position)?.unwrap_or(Record::UNSOLVED)))
            }
        }
    }

    fn clear(&self) -> DbResult<()> {
        self.readers.lock().expect("readers").clear();
        if self.dir.exists() {
            for e in fs::read_dir(&self.dir)
                .map_err(io("listing", &self.dir))?
                .flatten()
            {
                let name = e.file_name().to_string_lossy().to_string();
                if name.starts_with("tier_") && (name.ends_with(".gz") || name.ends_with(".tmp")) {
                    fs::remove_file(e.path()).map_err(io("removing", &e.path()))?;
                }
            }
        }
        Ok(())
    }

    fn remove_temporaries(&self) -> DbResult<usize> {
        self.remove_temporaries_in_dir()
    }

    fn stored_tiers(&self) -> DbResult<Vec<Tier>> {
        let mut out = Vec::new();
        if let Ok(entries) = fs::read_dir(&self.dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if let Some(n) = name
                    .strip_prefix("tier_")
                    .and_then(|s| s.strip_suffix(".gz"))
                {
                    if let Ok(t) = n.parse() {
                        out.push(Tier(t));
                    }
                }
            }
        }
        out.sort();
        Ok(out)
    }

    fn stored_tier(&self, tier: Tier) -> DbResult<Option<StoredTier>> {
        Ok(self.reader(tier)?.map(|r| match r {
            Opened::Full(r) => StoredTier {
                coverage: Coverage::Full,
                positions: r.header.positions,
                held: r.header.positions,
            },
            Opened::ReachableOnly(r) => StoredTier {
                coverage: Coverage::ReachableOnly,
                positions: r.header.positions,
                held: r.header.stored,
            },
        }))
    }

    fn store_reachable_tier(
        &self,
        meta: &TierMeta,
        marks: &Marks,
        records: &TierRecords,
    ) -> DbResult<()> {
        let bytes = sparse::encode(&self.key, meta, marks, records);
        sparse::write_atomically(&self.tier_path(meta.tier), &bytes)?;
        self.readers.lock().expect("readers").remove(&meta.tier);
        Ok(())
    }

    fn verify_reachable_tier(&self, meta: &TierMeta, marks: &Marks) -> DbResult<TierStatus> {
        let path = self.tier_path(meta.tier);
        if !path.exists() {
            return Ok(TierStatus::Missing);
        }
        if !sparse::is_reachable_file(&path) && TierReader::open(&path).is_ok() {
            return Err(DbError::Coverage {
                what: format!("tier file {}", path.display()),
                found: Coverage::Full,
                wanted: Coverage::ReachableOnly,
            });
        }
        Ok(match sparse::verify(&path, &self.key, meta, marks)? {
            None => TierStatus::Valid,
            Some(reason) => TierStatus::Corrupt(reason),
        })
    }

    fn load_reachable_tier(&self, meta: &TierMeta) -> DbResult<ReachableTier> {
        let path = self.tier_path(meta.tier);
        match self.reader(meta.tier)? {
            Some(Opened::ReachableOnly(r)) => {
                sparse::check_header(&r.header, &self.key, meta).map_err(|e| corrupt(&path, e))?;
                r.read_all()
            }
            Some(Opened::Full(_)) => Err(DbError::Coverage {
                what: format!("tier file {}", path.display()),
                found: Coverage::Full,
                wanted: Coverage::ReachableOnly,
            }),
            None => Err(corrupt(&path, "not stored")),
        }
    }

    fn reachable(&self, p: TierPosition) -> DbResult<Option<bool>> {
        match self.reader(p.tier)? {
            Some(Opened::ReachableOnly(r)) => Ok(Some(r.rank(p.position)?.is_some())),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pack;
    use gamesman_plugin_api::Value;

    fn key(winby: bool) -> GameKey {
        GameKey {
            game: "g".into(),
            variant: "v".into(),
            winby,
        }
    }

    fn sample(n: usize, winby: bool) -> TierRecords {
        TierRecords {
            values: (0..n)
                .map(|i| pack(Value((i % 5) as u8), (i % 300) as u32))
                .collect(),
            winby: winby.then(|| (0..n).map(|i| (i as i32 % 41) - 20).collect()),
        }
    }

    #[test]
    fn round_trip_lookup_and_zcat_readable() {
        let dir = tempfile::tempdir().unwrap();
        for winby in [false, true] {
            let db = FileDb::open(dir.path().to_path_buf(), key(winby)).unwrap();
            let n = 3 * BLOCK_POSITIONS as usize + 17;
            let recs = sample(n, winby);
            let meta = TierMeta {
                tier: Tier(7),
                name: "seven".into(),
                size: n as u64,
            };
            db.store_tier(&meta, &recs).unwrap();
            assert_eq!(db.verify_tier(&meta).unwrap(), TierStatus::Valid);
            assert_eq!(*db.load_tier(&meta).unwrap(), recs);
            for i in [0u64, 1, 32767, 32768, 70000, n as u64 - 1] {
                let got = db.lookup(TierPosition::new(Tier(7), i)).unwrap().unwrap();
                assert_eq!(got, recs.get(i), "record {i}");
            }
            assert!(db.lookup(TierPosition::new(Tier(8), 0)).unwrap().is_none());
            // All members concatenated decompress with a multi-member reader (zcat).
            let bytes = fs::read(db.tier_path(Tier(7))).unwrap();
            let mut all = Vec::new();
            flate2::read::MultiGzDecoder::new(&bytes[..])
                .read_to_end(&mut all)
                .unwrap();
            assert!(all
                .starts_with(b"gamesman tier database\nformat: 1\ngame: g\nvariant: v\ntier: 7\n"));
            db.clear().unwrap();
        }
    }

    #[test]
    fn corruption_and_truncation_are_detected() {
        let dir = tempfile::tempdir().unwrap();
        let db = FileDb::open(dir.path().to_path_buf(), key(false)).unwrap();
        let n = 2 * BLOCK_POSITIONS as usize;
        let meta = TierMeta {
            tier: Tier(1),
            name: "one".into(),
            size: n as u64,
        };
        db.store_tier(&meta, &sample(n, false)).unwrap();
        let path = db.tier_path(Tier(1));
        let good = fs::read(&path).unwrap();
        // Flip a byte in the middle (inside a block).
        let mut bad = good.clone();
        let mid = bad.len() / 2;
        bad[mid] ^= 0x55;
        fs::write(&path, &bad).unwrap();
        assert!(matches!(
            db.verify_tier(&meta).unwrap(),
            TierStatus::Corrupt(_)
        ));
        // Truncate.
        fs::write(&path, &good[..good.len() - 10]).unwrap();
        assert!(matches!(
            db.verify_tier(&meta).unwrap(),
            TierStatus::Corrupt(_)
        ));
        fs::write(&path, &good[..5]).unwrap();
        assert!(matches!(
            db.verify_tier(&meta).unwrap(),
            TierStatus::Corrupt(_)
        ));
        // Wrong size expected.
        fs::write(&path, &good).unwrap();
        let other = TierMeta {
            size: 5,
            ..meta.clone()
        };
        assert!(matches!(
            db.verify_tier(&other).unwrap(),
            TierStatus::Corrupt(_)
        ));
        assert_eq!(db.verify_tier(&meta).unwrap(), TierStatus::Valid);
    }

    #[test]
    fn encoding_is_deterministic() {
        let recs = sample(100_000, true);
        let meta = TierMeta {
            tier: Tier(3),
            name: "t".into(),
            size: 100_000,
        };
        assert_eq!(
            encode_tier(&key(true), &meta, &recs),
            encode_tier(&key(true), &meta, &recs)
        );
    }
}
