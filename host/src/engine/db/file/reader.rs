//! Reading a tier file of format 3 or 1: its header and index checked on opening,
//! blocks decoded on demand (a few kept for lookups), or every record at once with the
//! checksum verified. Anything that does not add up is reported as corruption, never
//! trusted.
//!
//! This file only reads; it must not write or decide what to do with a damaged file.

use super::codec::{self, Block};
use super::format::{Header, FORMAT_V1, FORMAT_VERSION, INDEX_MAGIC, MAX_BLOCK_POSITIONS};
use super::source::{open_file, read_head, Source};
use super::{corrupt, io};
use crate::engine::db::DbResult;
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
    cache: Mutex<HashMap<u64, Arc<Block>>>,
    /// Blocks the cache holds at most.
    cached_blocks: usize,
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
            cache: Mutex::new(HashMap::new()),
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
        if let Some(d) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&b) {
            return Ok(d.clone());
        }
        let d = Arc::new(self.read_block(b)?);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= self.cached_blocks {
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

    /// Every record, with the checksum verified.
    pub fn read_all(&self) -> DbResult<TierRecords> {
        let blocks: Vec<Block> = (0..self.header.blocks)
            .into_par_iter()
            .map(|b| self.read_block(b))
            .collect::<DbResult<_>>()?;
        let mut crc = crc32fast::Hasher::new();
        let n = self.header.positions as usize;
        let mut values = Vec::with_capacity(n);
        let mut winby = self.header.winby.then(|| Vec::with_capacity(n));
        for block in &blocks {
            codec::layout_crc(&mut crc, &block.values, block.winby.as_deref());
            values.extend_from_slice(&block.values);
            if let (Some(all), Some(w)) = (winby.as_mut(), &block.winby) {
                all.extend_from_slice(w);
            }
        }
        if crc.finalize() != self.header.crc32 {
            return Err(corrupt(&self.path, "checksum does not match the records"));
        }
        if values
            .iter()
            .any(|&v| crate::engine::record::value_of(v).0 > 4)
        {
            return Err(corrupt(&self.path, "a record has an invalid value code"));
        }
        Ok(TierRecords { values, winby })
    }
}
