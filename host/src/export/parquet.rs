//! The Parquet writer of an export: one file of positions and, with moves, one of
//! moves, Snappy-compressed, in row groups of at most `ROW_GROUP` rows (the writer
//! buffers one row group per file, so memory stays bounded). Strings are dictionary
//! coded by the format where that pays (values, move values). The export's facts go
//! into the file's key-value metadata. This file writes columns; it must not choose
//! rows.

use super::{ExportError, ExportMeta, MoveRow, PositionRow, Sink};
use arrow_array::{
    ArrayRef, Int64Array, RecordBatch, StringArray, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rows per row group.
pub const ROW_GROUP: usize = 1 << 20;

/// The positions table's schema (`winby` only for WinBy games).
pub fn positions_schema(winby: bool) -> SchemaRef {
    let mut fields = vec![
        Field::new("tier", DataType::UInt64, false),
        Field::new("idx", DataType::UInt64, false),
        Field::new("position", DataType::Utf8, false),
        Field::new("turn", DataType::UInt8, false),
        Field::new("value", DataType::Utf8, false),
        Field::new("remoteness", DataType::UInt32, true),
    ];
    if winby {
        fields.push(Field::new("winby", DataType::Int64, true));
    }
    Arc::new(Schema::new(fields))
}

/// The moves table's schema (`winby` only for WinBy games).
pub fn moves_schema(winby: bool) -> SchemaRef {
    let mut fields = vec![
        Field::new("tier", DataType::UInt64, false),
        Field::new("idx", DataType::UInt64, false),
        Field::new("rank", DataType::UInt32, false),
        Field::new("move", DataType::Utf8, false),
        Field::new("child", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, false),
        Field::new("remoteness", DataType::UInt32, true),
    ];
    if winby {
        fields.push(Field::new("winby", DataType::Int64, true));
    }
    fields.push(Field::new("move_value", DataType::Utf8, false));
    Arc::new(Schema::new(fields))
}

struct Table {
    writer: ArrowWriter<File>,
    schema: SchemaRef,
    path: PathBuf,
}

impl Table {
    fn create(path: &Path, schema: SchemaRef, meta: &ExportMeta) -> Result<Table, ExportError> {
        let file = File::create(path).map_err(|e| ExportError::write(path, e))?;
        let kv = meta
            .pairs
            .iter()
            .map(|(k, v)| KeyValue::new(format!("gamesman.{k}"), v.clone()))
            .collect();
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .set_key_value_metadata(Some(kv))
            .build();
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(props))
            .map_err(|e| ExportError::write(path, e))?;
        Ok(Table {
            writer,
            schema,
            path: path.to_path_buf(),
        })
    }

    fn write(&mut self, columns: Vec<ArrayRef>) -> Result<(), ExportError> {
        let batch = RecordBatch::try_new(self.schema.clone(), columns)
            .map_err(|e| ExportError::write(&self.path, e))?;
        self.writer
            .write(&batch)
            .map_err(|e| ExportError::write(&self.path, e))
    }

    fn close(self) -> Result<(), ExportError> {
        let path = self.path;
        self.writer
            .close()
            .map(|_| ())
            .map_err(|e| ExportError::write(&path, e))
    }
}

/// Writes an export's Parquet files.
pub(super) struct ParquetSink {
    positions: Table,
    moves: Option<Table>,
    winby: bool,
}

impl ParquetSink {
    /// Creates the positions file at `path` and the moves file at `moves`.
    pub(super) fn create(
        path: &Path,
        moves: Option<&Path>,
        meta: &ExportMeta,
    ) -> Result<ParquetSink, ExportError> {
        Ok(ParquetSink {
            positions: Table::create(path, positions_schema(meta.winby), meta)?,
            moves: moves
                .map(|m| Table::create(m, moves_schema(meta.winby), meta))
                .transpose()?,
            winby: meta.winby,
        })
    }
}

fn strings<'a>(it: impl Iterator<Item = &'a str>) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(it))
}

impl Sink for ParquetSink {
    fn positions(&mut self, rows: &[PositionRow]) -> Result<(), ExportError> {
        if rows.is_empty() {
            return Ok(());
        }
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.tier))),
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.idx))),
            strings(rows.iter().map(|r| r.position.as_str())),
            Arc::new(UInt8Array::from_iter_values(rows.iter().map(|r| r.turn))),
            strings(rows.iter().map(|r| r.value)),
            Arc::new(UInt32Array::from_iter(rows.iter().map(|r| r.remoteness))),
        ];
        if self.winby {
            columns.push(Arc::new(Int64Array::from_iter(
                rows.iter().map(|r| r.winby),
            )));
        }
        self.positions.write(columns)
    }

    fn moves(&mut self, rows: &[MoveRow]) -> Result<(), ExportError> {
        let Some(table) = self.moves.as_mut() else {
            return Ok(());
        };
        if rows.is_empty() {
            return Ok(());
        }
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.tier))),
            Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.idx))),
            Arc::new(UInt32Array::from_iter_values(rows.iter().map(|r| r.rank))),
            strings(rows.iter().map(|r| r.mv.as_str())),
            strings(rows.iter().map(|r| r.child.as_str())),
            strings(rows.iter().map(|r| r.value)),
            Arc::new(UInt32Array::from_iter(rows.iter().map(|r| r.remoteness))),
        ];
        if self.winby {
            columns.push(Arc::new(Int64Array::from_iter(
                rows.iter().map(|r| r.winby),
            )));
        }
        columns.push(strings(rows.iter().map(|r| r.move_value)));
        table.write(columns)
    }

    fn finish(self: Box<Self>) -> Result<(), ExportError> {
        let this = *self;
        this.positions.close()?;
        if let Some(m) = this.moves {
            m.close()?;
        }
        Ok(())
    }
}
