//! Where a tier file's bytes come from: a local file, bytes in memory, or (in `net`)
//! byte ranges fetched over HTTP. The readers read tier files only through `Source`,
//! so every kind of storage is checked by the same code. `read_head` reads the part
//! both tier file kinds share: the gzip header's extra field and the header text.
//!
//! This file reads bytes; it must not interpret records.

use super::format::find_extra;
use super::reader::gunzip;
use super::{corrupt, io};
use crate::engine::db::DbResult;
use std::fs::File;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

/// Random access to the bytes of one tier file.
pub trait Source: Send + Sync {
    /// The file's length in bytes.
    fn byte_len(&self) -> std::io::Result<u64>;
    /// Fills `buf` from `offset`; an error when the file is shorter.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()>;
}

impl Source for File {
    fn byte_len(&self) -> std::io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        FileExt::read_exact_at(self, buf, offset)
    }
}

/// A whole tier file in memory (fetched, and checked before it is kept).
pub struct Bytes(pub Vec<u8>);

impl Source for Bytes {
    fn byte_len(&self) -> std::io::Result<u64> {
        Ok(self.0.len() as u64)
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match start
            .checked_add(buf.len())
            .and_then(|end| self.0.get(start..end))
        {
            Some(bytes) => {
                buf.copy_from_slice(bytes);
                Ok(())
            }
            None => Err(std::io::ErrorKind::UnexpectedEof.into()),
        }
    }
}

/// Opens the local file at `path` as a source: a regular file only (followed if a
/// symbolic link), opened without blocking, so a FIFO, device or socket in a tier
/// file's place is refused at once instead of waited on for ever.
pub fn open_file(path: &Path) -> DbResult<File> {
    open_regular(path).map_err(io("opening", path))
}

/// Opens `path` for reading without blocking (`O_NONBLOCK`: opening a FIFO with no
/// writer returns at once) and fails unless it is a regular file. Every reader of
/// tier files opens them through here.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    match crate::engine::db::keyfile::kind_of(kind) {
        None => Ok(file),
        Some(what) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("it is {what}, not a regular file: a tier file must be a regular file"),
        )),
    }
}

/// A read error: the file's fault (`reason`) when it ended early, else the I/O error
/// itself (a network failure is not a truncated file).
fn short<'a>(
    path: &'a Path,
    reason: &'static str,
) -> impl FnOnce(std::io::Error) -> crate::engine::db::DbError + 'a {
    move |e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            corrupt(path, reason)
        } else {
            io("reading", path)(e)
        }
    }
}

/// The header text of a tier file (either kind) and where its index lies (offset,
/// length), checked against the file's length. `path` names the file in errors.
pub fn read_head(path: &Path, file: &dyn Source) -> DbResult<(String, u64, u64)> {
    let len = file.byte_len().map_err(io("reading", path))?;
    let mut head = [0u8; 12];
    file.read_exact_at(&mut head, 0)
        .map_err(short(path, "shorter than a gzip header (truncated)"))?;
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
        .map_err(short(path, "truncated gzip header"))?;
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
    Ok((text, index_offset, index_len))
}
