//! framescope's typed tables ([`Table`]: the runs table of `report --format parquet`,
//! the per-frame table of `framescope frames`) as Apache Arrow record batches and
//! Parquet files, readable by polars, pandas/pyarrow and DuckDB with the values the
//! JSON report has. Floats are `Float64` (a NaN cell, the model's missing value, is a
//! null), whole numbers `Int64`, booleans `Boolean`, text `Utf8`; every column is
//! nullable. Files are Snappy-compressed.

use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use framescope_core::report::{Cells, Table, TableChunks};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use std::io::Write;
use std::sync::Arc;

/// The Arrow array of a column's cells.
#[must_use]
pub fn array(cells: &Cells) -> ArrayRef {
    match cells {
        Cells::Float(v) => Arc::new(v.iter().map(|x| (!x.is_nan()).then_some(*x)).collect::<Float64Array>()),
        Cells::Int(v) => Arc::new(v.iter().copied().collect::<Int64Array>()),
        Cells::Bool(v) => Arc::new(v.iter().copied().collect::<BooleanArray>()),
        Cells::Text(v) => Arc::new(v.iter().map(Option::as_deref).collect::<StringArray>()),
        Cells::Labels { values, keys } => Arc::new(
            keys.iter()
                .map(|k| k.and_then(|k| values.get(k as usize)).map(String::as_str))
                .collect::<StringArray>(),
        ),
    }
}

/// The Arrow type of a column's cells.
#[must_use]
pub fn data_type(cells: &Cells) -> DataType {
    match cells {
        Cells::Float(_) => DataType::Float64,
        Cells::Int(_) => DataType::Int64,
        Cells::Bool(_) => DataType::Boolean,
        Cells::Text(_) | Cells::Labels { .. } => DataType::Utf8,
    }
}

/// Rows in a row group: what the writer holds encoded (compressed) before it writes
/// them out, about 26 bytes a row for a FRAPS log's frames table. Smaller groups would
/// hold less but make the file larger (a group's dictionaries start afresh: 64 Ki-row
/// groups made a 10M-frame table 40 % larger); the chunks handed to the writer are
/// smaller ([`TableChunks`]).
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// The Arrow schema of a table's columns, in order, every field nullable.
fn schema(table: &Table) -> Arc<Schema> {
    let fields: Vec<Field> =
        table.columns.iter().map(|c| Field::new(&c.name, data_type(&c.cells), true)).collect();
    Arc::new(Schema::new(fields))
}

/// The table as one Arrow record batch, columns in order, every field nullable.
pub fn record_batch(table: &Table) -> Result<RecordBatch, ArrowError> {
    let arrays: Vec<ArrayRef> = table.columns.iter().map(|c| array(&c.cells)).collect();
    RecordBatch::try_new(schema(table), arrays)
}

/// Writes the table as a Parquet file, a chunk at a time ([`TableChunks`]: a
/// [`Table`], or the per-frame table of `framescope_core::pipeline::frames`), in row
/// groups of [`ROW_GROUP_ROWS`] rows, Snappy-compressed.
pub fn write(table: &impl TableChunks, out: impl Write + Send) -> Result<(), ParquetError> {
    let schema = schema(&table.columns());
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("framescope {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = ArrowWriter::try_new(out, schema.clone(), Some(props))?;
    table.each_chunk(|chunk| {
        let arrays: Vec<ArrayRef> = chunk.columns.iter().map(|c| array(&c.cells)).collect();
        writer.write(&RecordBatch::try_new(schema.clone(), arrays)?)
    })?;
    writer.close()?;
    Ok(())
}

/// The table as the bytes of a Parquet file.
pub fn to_bytes(table: &impl TableChunks) -> Result<Vec<u8>, ParquetError> {
    let mut out = Vec::new();
    write(table, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    /// A table handed over a row a chunk.
    struct RowChunks(Table);
    impl TableChunks for RowChunks {
        fn columns(&self) -> Table {
            self.0.without_rows()
        }
        fn each_chunk<E>(&self, mut f: impl FnMut(&Table) -> Result<(), E>) -> Result<(), E> {
            for r in 0..self.0.rows() {
                let mut one = Table::default();
                for c in &self.0.columns {
                    let cells = match &c.cells {
                        Cells::Float(v) => Cells::Float(vec![v[r]]),
                        Cells::Int(v) => Cells::Int(vec![v[r]]),
                        Cells::Bool(v) => Cells::Bool(vec![v[r]]),
                        Cells::Text(v) => Cells::Text(vec![v[r].clone()]),
                        Cells::Labels { values, keys } => {
                            Cells::Labels { values: values.clone(), keys: vec![keys[r]] }
                        }
                    };
                    one.push(&c.name, cells);
                }
                f(&one)?;
            }
            Ok(())
        }
    }

    /// Two rows of every kind read back from the file's bytes with their types and
    /// nulls.
    #[test]
    fn every_kind_round_trips() {
        let mut t = Table::default();
        t.push("f", Cells::Float(vec![1.25, f64::NAN]));
        t.push("i", Cells::Int(vec![None, Some(-3)]));
        t.push("b", Cells::Bool(vec![Some(true), None]));
        t.push("s", Cells::Text(vec![Some("a, b".into()), None]));
        t.push("l", Cells::Labels { values: vec!["x".into()], keys: vec![None, Some(0)] });
        let bytes = to_bytes(&t).unwrap();
        let reader = SerializedFileReader::new(bytes::Bytes::from(bytes)).unwrap();
        assert_eq!(reader.metadata().file_metadata().num_rows(), 2);
        let rows: Vec<String> = reader.get_row_iter(None).unwrap().map(|r| r.unwrap().to_string()).collect();
        assert_eq!(
            rows,
            [
                "{f: 1.25, i: null, b: true, s: \"a, b\", l: null}",
                "{f: null, i: -3, b: null, s: null, l: \"x\"}"
            ]
        );
        // Written a row a chunk: the same rows.
        let chunked = to_bytes(&RowChunks(t.clone())).unwrap();
        let reader = SerializedFileReader::new(bytes::Bytes::from(chunked)).unwrap();
        let again: Vec<String> = reader.get_row_iter(None).unwrap().map(|r| r.unwrap().to_string()).collect();
        assert_eq!(again, rows);
        let batch = record_batch(&t).unwrap();
        let types: Vec<String> = batch.schema().fields().iter().map(|f| f.data_type().to_string()).collect();
        assert_eq!(types, ["Float64", "Int64", "Boolean", "Utf8", "Utf8"]);
    }
}
