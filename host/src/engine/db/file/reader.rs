//! Reading a tier file of format 3 or 1: its header and index checked on opening,
//! blocks decoded on demand (the least recently used evicted from a cache of bounded
//! size), block by block in order with the checksum verified at the end (never more
//! than a batch of blocks in memory), or every record at once. Anything that does not add up is reported as corruption, never
//! trusted.
//!
//! This file only reads; it must not write or decide what to do with a damaged file.

use super::codec::{self, Block};
use super::format::{Header, FORMAT_V1, FORMAT_VERSION, INDEX_MAGIC, MAX_BLOCK_POSITIONS};
use super::source::{open_file, read_head, Source};
use super::{corrupt, io};
use crate::engine::db::{DbResult, RecordSource};
use crate::engine::record::{Record, TierRecords};
use flate2::read::GzDecoder;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Records kept decoded per tier for lookups (in whole blocks, at least 4).
const CACHED_RECORDS: u64 = 1 << 22;

pub(crate) fn gunzip(path: &Path, data: &[u8], limit: u64) -> DbResult<Vec<u8>> {
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
    file: Arc<dyn Source>,
    /// The header.
    pub header: Header,
    offsets: Vec<u64>,
    cache: Mutex<Lru>,
    /// Blocks the cache holds at most.
    cached_blocks: usize,
}

/// Decoded blocks by number, each with the tick of its last use.
#[derive(Default)]
struct Lru {
    blocks: HashMap<u64, (Arc<Block>, u64)>,
    tick: u64,
    hits: u64,
    misses: u64,
}

impl TierReader {
    /// Opens a tier file and checks its header and index (not its blocks).
    pub fn open(path: &Path) -> DbResult<TierReader> {
        TierReader::open_source(path, Arc::new(open_file(path)?))
    }

    /// Opens the tier file `file` (named `path` in errors) and checks its header and
    /// index (not its blocks).
    pub fn open_source(path: &Path, file: Arc<dyn Source>) -> DbResult<TierReader> {
        let (text, index_offset, index_len) = read_head(path, file.as_ref())?;
        let header = Header::parse(&text).map_err(|e| corrupt(path, e))?;
        if header.format != FORMAT_VERSION && header.format != FORMAT_V1 {
            return Err(corrupt(
                path,
                format!(
                    "format version {} (this host reads {FORMAT_V1} and {FORMAT_VERSION})",
                    header.format
                ),
            ));
        }
        if header.block_positions == 0
            || header.block_positions > MAX_BLOCK_POSITIONS
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
            offsets,
            cache: Mutex::new(Lru::default()),
            cached_blocks: (CACHED_RECORDS / header.block_positions).max(4) as usize,
            header,
        })
    }

    /// The number of records in block `b`.
    fn block_records(&self, b: u64) -> usize {
        (self.header.positions - b * self.header.block_positions).min(self.header.block_positions)
            as usize
    }

    /// The records of block `b`, checked (by gzip's CRC, the block's layout and, in
    /// format 3, every count and index of its coding).
    fn read_block(&self, b: u64) -> DbResult<Block> {
        let (start, end) = (self.offsets[b as usize], self.offsets[b as usize + 1]);
        let mut raw = vec![0u8; (end - start) as usize];
        self.file
            .read_exact_at(&mut raw, start)
            .map_err(io("reading", &self.path))?;
        let n = self.block_records(b);
        let winby = self.header.winby;
        let block = if self.header.format == FORMAT_V1 {
            let expected = n as u64 * self.header.record_bytes();
            let data = gunzip(&self.path, &raw, expected)?;
            codec::from_layout(&data, n, winby)
        } else {
            codec::decode(&raw, n, winby)
        };
        block.map_err(|e| corrupt(&self.path, format!("block {b}: {e}")))
    }

    fn cached_block(&self, b: u64) -> DbResult<Arc<Block>> {
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache.tick += 1;
            let tick = cache.tick;
            if let Some((d, used)) = cache.blocks.get_mut(&b) {
                *used = tick;
                let d = d.clone();
                cache.hits += 1;
                return Ok(d);
            }
        }
        let d = Arc::new(self.read_block(b)?);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.misses += 1;
        while cache.blocks.len() >= self.cached_blocks {
            // The least recently used goes (a scan: the cache holds at most a few
            // thousand blocks, and a miss costs a block's decoding anyway).
            let Some(oldest) = cache
                .blocks
                .iter()
                .min_by_key(|(_, (_, t))| *t)
                .map(|(&k, _)| k)
            else {
                break;
            };
            cache.blocks.remove(&oldest);
        }
        let tick = cache.tick;
        cache.blocks.insert(b, (d.clone(), tick));
        Ok(d)
    }

    /// Bounds the block cache to about `bytes` of decoded records (at least 4 blocks).
    pub fn with_cache_bytes(mut self, bytes: u64) -> TierReader {
        let per_block = self.header.block_positions * self.header.record_bytes();
        self.cached_blocks = (bytes / per_block.max(1)).max(4) as usize;
        self
    }

    /// Lookups answered from the cache and blocks decoded for them, so far.
    pub fn cache_stats(&self) -> (u64, u64) {
        let c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        (c.hits, c.misses)
    }

    /// Number of positions.
    pub fn positions(&self) -> u64 {
        self.header.positions
    }

    /// One record.
    pub fn get(&self, i: u64) -> DbResult<Record> {
        let b = i / self.header.block_positions;
        let k = (i % self.header.block_positions) as usize;
        let block = self.cached_block(b)?;
        let r = crate::engine::record::decode(block.values[k], block.winby.as_ref().map(|w| w[k]));
        if r.value.0 > 4 {
            return Err(corrupt(
                &self.path,
                format!("record {i} has value code {}", r.value.0),
            ));
        }
        Ok(r)
    }

    /// Every block in order, decoded a batch at a time in parallel, passed to `visit`
    /// with the index of its first record; the checksum is verified once every block
    /// was read (a caller must not keep anything from a read that fails), every value
    /// code as each block is read.
    pub fn for_each_block(
        &self,
        visit: &mut dyn FnMut(u64, &Block) -> DbResult<()>,
    ) -> DbResult<()> {
        let batch = (rayon::current_num_threads() * 2).max(2) as u64;
        let mut crc = crc32fast::Hasher::new();
        // Reported after the checksum, as a whole read always did.
        let mut bad_code = false;
        let mut b = 0;
        while b < self.header.blocks {
            let end = (b + batch).min(self.header.blocks);
            let blocks: Vec<Block> = (b..end)
                .into_par_iter()
                .map(|k| self.read_block(k))
                .collect::<DbResult<_>>()?;
            for (k, block) in (b..end).zip(&blocks) {
                codec::layout_crc(&mut crc, &block.values, block.winby.as_deref());
                bad_code |= block
                    .values
                    .iter()
                    .any(|&v| crate::engine::record::value_of(v).0 > 4);
                if !bad_code {
                    visit(k * self.header.block_positions, block)?;
                }
            }
            b = end;
        }
        if crc.finalize() != self.header.crc32 {
            return Err(corrupt(&self.path, "checksum does not match the records"));
        }
        if bad_code {
            return Err(corrupt(&self.path, "a record has an invalid value code"));
        }
        Ok(())
    }

    /// Checks every block and the checksum without keeping the records.
    pub fn check(&self) -> DbResult<()> {
        self.for_each_block(&mut |_, _| Ok(()))
    }

    /// Every record, with the checksum verified.
    pub fn read_all(&self) -> DbResult<TierRecords> {
        let n = self.header.positions as usize;
        let mut values = Vec::with_capacity(n);
        let mut winby = self.header.winby.then(|| Vec::with_capacity(n));
        self.for_each_block(&mut |_, block| {
            values.extend_from_slice(&block.values);
            if let (Some(all), Some(w)) = (winby.as_mut(), &block.winby) {
                all.extend_from_slice(w);
            }
            Ok(())
        })?;
        Ok(TierRecords { values, winby })
    }
}

impl RecordSource for TierReader {
    fn positions(&self) -> u64 {
        self.header.positions
    }
    fn record(&self, i: u64) -> DbResult<Record> {
        self.get(i)
    }
}
