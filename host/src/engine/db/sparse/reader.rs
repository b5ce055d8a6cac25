//! Reading reachable-only tier files of format 4 or 2 (the format is described in
//! `sparse`): the header and index at open, then single lookups (one mark block and one
//! record block, decoded and cached) or a whole tier with both checksums verified.
//! This file must not write files.

use super::super::file::codec::{self, Block};
use super::super::file::source::{open_file, read_head, Source};
use super::super::file::{corrupt, gunzip, io};
use super::{decode_marks, Header, COVERAGE_LINE, FORMAT_V2, FORMAT_VERSION, INDEX_MAGIC};
use crate::engine::db::{DbError, DbResult, GameKey, ReachableTier, TierMeta};
use crate::engine::marks::Marks;
use crate::engine::record::{Record, TierRecords};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Mark blocks kept decoded per tier for lookups.
const CACHED_MARK_BLOCKS: usize = 64;
/// Records kept decoded per tier for lookups (in whole blocks, at least 4).
const CACHED_RECORDS: u64 = 1 << 22;
/// The most records per block a reader accepts.
const MAX_BLOCK_POSITIONS: u64 = 1 << 24;

/// Whether the tier file at `path` is reachable-only (false for full tier files and
/// for files whose header cannot be read: the full reader reports what is wrong).
pub fn is_reachable_file(path: &Path) -> bool {
    open_file(path).is_ok_and(|f| is_reachable_source(path, &f))
}

/// Whether the tier file `file` (named `path`) is reachable-only, as `is_reachable_file`.
pub fn is_reachable_source(path: &Path, file: &dyn Source) -> bool {
    read_head(path, file).is_ok_and(|(text, _, _)| text.lines().any(|l| l == COVERAGE_LINE))
}

/// An open reachable-only tier file: header and index read, blocks read on demand.
pub struct ReachableReader {
    path: PathBuf,
    file: Arc<dyn Source>,
    /// The header.
    pub header: Header,
    /// File offsets of the record blocks, then the mark blocks, then the index.
    offsets: Vec<u64>,
    /// Marked positions before each mark block (and in all, last).
    ranks: Vec<u64>,
    records: Mutex<HashMap<u64, Arc<Block>>>,
    marks: Mutex<HashMap<u64, Arc<Vec<u32>>>>,
    /// Record blocks the cache holds at most.
    cached_blocks: usize,
}

/// Looks `key` up in a small cache of at most `cap` decoded blocks, filling it with
/// `load`.
fn cached<T>(
    cache: &Mutex<HashMap<u64, Arc<T>>>,
    cap: usize,
    key: u64,
    load: impl FnOnce() -> DbResult<T>,
) -> DbResult<Arc<T>> {
    if let Some(d) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(d.clone());
    }
    let d = Arc::new(load()?);
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if c.len() >= cap {
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
        ReachableReader::open_source(path, Arc::new(open_file(path)?))
    }

    /// Opens the reachable-only tier file `file` (named `path` in errors) and checks
    /// its header and index.
    pub fn open_source(path: &Path, file: Arc<dyn Source>) -> DbResult<ReachableReader> {
        let (text, index_offset, index_len) = read_head(path, file.as_ref())?;
        let header = Header::parse(&text).map_err(|e| corrupt(path, e))?;
        if header.format != FORMAT_VERSION && header.format != FORMAT_V2 {
            return Err(corrupt(
                path,
                format!(
                    "reachable-only format version {} (this host reads {FORMAT_V2} and {FORMAT_VERSION})",
                    header.format
                ),
            ));
        }
        if header.block_positions == 0
            || header.block_positions > MAX_BLOCK_POSITIONS
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
            records: Mutex::new(HashMap::new()),
            marks: Mutex::new(HashMap::new()),
            cached_blocks: (CACHED_RECORDS / header.block_positions).max(4) as usize,
            header,
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

    /// The records of record block `b`, checked as the full format's blocks are.
    fn record_block(&self, b: u64) -> DbResult<Block> {
        let h = &self.header;
        let n = (h.stored - b * h.block_positions).min(h.block_positions) as usize;
        let block = if h.format == FORMAT_V2 {
            let data = self.member(b, n as u64 * h.record_bytes())?;
            codec::from_layout(&data, n, h.winby)
        } else {
            let (start, end) = (self.offsets[b as usize], self.offsets[b as usize + 1]);
            let mut raw = vec![0u8; (end - start) as usize];
            self.file
                .read_exact_at(&mut raw, start)
                .map_err(io("reading", &self.path))?;
            codec::decode(&raw, n, h.winby)
        };
        block.map_err(|e| corrupt(&self.path, format!("record block {b}: {e}")))
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
        let offsets = cached(&self.marks, CACHED_MARK_BLOCKS, j, || {
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
        let block = cached(&self.records, self.cached_blocks, b, || {
            self.record_block(b)
        })?;
        let packed = block.values[at];
        let winby = block.winby.as_ref().map(|w| w[at]);
        let r = crate::engine::record::decode(packed, winby);
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
        let blocks: Vec<Block> = (0..h.blocks)
            .into_par_iter()
            .map(|b| self.record_block(b))
            .collect::<DbResult<_>>()?;
        let mut crc = crc32fast::Hasher::new();
        let mut values = Vec::with_capacity(h.stored as usize);
        let mut winby = h.winby.then(|| Vec::with_capacity(h.stored as usize));
        for block in &blocks {
            codec::layout_crc(&mut crc, &block.values, block.winby.as_deref());
            values.extend_from_slice(&block.values);
            if let (Some(all), Some(w)) = (winby.as_mut(), &block.winby) {
                all.extend_from_slice(w);
            }
        }
        drop(blocks);
        if crc.finalize() != h.crc32 {
            return Err(corrupt(&self.path, "checksum does not match the records"));
        }
        if values
            .iter()
            .any(|&v| crate::engine::record::value_of(v).0 > 4)
        {
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
    crate::engine::db::file::numbering_matches(h.numbering, key.numbering)
}

/// Why a stored tier is unusable, or `None` when it holds exactly `marks` with valid
/// records; `Err` only for I/O failures.
pub fn verify(
    path: &Path,
    key: &GameKey,
    meta: &TierMeta,
    marks: &Marks,
) -> DbResult<Option<String>> {
    verify_source(path, Arc::new(open_file(path)?), key, meta, marks)
}

/// `verify` of the tier file `file` (named `path`).
pub fn verify_source(
    path: &Path,
    file: Arc<dyn Source>,
    key: &GameKey,
    meta: &TierMeta,
    marks: &Marks,
) -> DbResult<Option<String>> {
    let check = || -> DbResult<Option<String>> {
        let r = ReachableReader::open_source(path, file)?;
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
    use super::super::{encode, encode_v2, write_atomically, MARK_BLOCK};
    use super::*;
    use crate::engine::record::pack;
    use gamesman_plugin_api::{Tier, Value};
    use std::fs;

    fn key(winby: bool) -> GameKey {
        GameKey {
            game: "g".into(),
            variant: "v".into(),
            winby,
            numbering: 0,
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
                b"gamesman tier database\nformat: 4\ncoverage: reachable-only\ngame: g\n"
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
    fn format_2_files_written_by_older_hosts_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tier_4.gz");
        for (size, every, winby) in [(MARK_BLOCK + 5, 3, true), (70_000, 1, false)] {
            let (marks, records, meta) = sample(size, every, winby);
            let old = encode_v2(&key(winby), &meta, &marks, &records);
            write_atomically(&path, &old).unwrap();
            assert!(is_reachable_file(&path));
            assert_eq!(verify(&path, &key(winby), &meta, &marks).unwrap(), None);
            let r = ReachableReader::open(&path).unwrap();
            assert_eq!(r.header.format, FORMAT_V2);
            assert_eq!(*r.read_all().unwrap().records, records);
            for i in (0..size).step_by(101) {
                let want = marks.rank(i).map(|k| records.get(k));
                assert_eq!(r.lookup(i).unwrap(), want, "position {i} of {size}");
            }
            let mut bad = old.clone();
            let mid = bad.len() / 2;
            bad[mid..mid + 4].iter_mut().for_each(|b| *b ^= 0xff);
            fs::write(&path, &bad).unwrap();
            assert!(verify(&path, &key(winby), &meta, &marks).unwrap().is_some());
        }
    }
}
