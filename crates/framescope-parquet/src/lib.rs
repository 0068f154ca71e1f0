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
/// groups of [`ROW_GROUP_ROWS`] rows, Snappy-compressed. The footer says float
/// statistics are in the type-defined order ([`type_defined_float_order`]), which every
/// reader knows.
pub fn write(table: &impl TableChunks, out: impl Write + Send) -> Result<(), ParquetError> {
    let schema = schema(&table.columns());
    let leaves = schema.fields().len();
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("framescope {}", env!("CARGO_PKG_VERSION")))
        .build();
    let sink = HoldTail { out, hold: false, tail: Vec::new() };
    let mut writer = ArrowWriter::try_new(sink, schema.clone(), Some(props))?;
    table.each_chunk(|chunk| {
        let arrays: Vec<ArrayRef> = chunk.columns.iter().map(|c| array(&c.cells)).collect();
        writer.write(&RecordBatch::try_new(schema.clone(), arrays)?)
    })?;
    writer.flush()?;
    // What is written from here on (the page indexes and the footer) is held back,
    // its column orders rewritten, then written out.
    writer.inner_mut().hold = true;
    let mut sink = writer.into_inner()?;
    type_defined_float_order(&mut sink.tail, leaves);
    sink.out.write_all(&sink.tail)?;
    sink.out.flush()?;
    Ok(())
}

/// A sink that passes bytes through until `hold` is set, then keeps them in `tail`.
struct HoldTail<W> {
    out: W,
    hold: bool,
    tail: Vec<u8>,
}

impl<W: Write> Write for HoldTail<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.hold {
            self.tail.extend_from_slice(buf);
            Ok(buf.len())
        } else {
            self.out.write(buf)
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.hold { Ok(()) } else { self.out.flush() }
    }
}

/// The Thrift compact bytes of the `ColumnOrder` union's variants (an empty struct in
/// field 1, 2 or 3, then the union's stop).
const TYPE_DEFINED_ORDER: u8 = 0x1C;
const IEEE_754_TOTAL_ORDER: u8 = 0x2C;
const INT96_TIMESTAMP_ORDER: u8 = 0x3C;

/// Rewrites, in the end of a Parquet file (`tail`: its footer and what precedes it),
/// each float column's `IEEE_754_TOTAL_ORDER` column order as `TYPE_DEFINED_ORDER`.
/// parquet-rs 60 writes the newer variant for every float column, and readers older
/// than it (polars before 1.43, among others) refuse the whole file ("ColumnOrder
/// union has no variant set", "Invalid thrift"). The tables' floats hold no NaN (a NaN
/// cell is written as a null), so both orders give the same minimum and maximum.
/// `column_orders` is the footer's last field (after `created_by`), a list of
/// `leaves` three-byte unions, rewritten byte for byte: nothing moves. Returns whether
/// the footer had that shape (else it is left as it is).
pub fn type_defined_float_order(tail: &mut [u8], leaves: usize) -> bool {
    let n = tail.len();
    if n < 8 || &tail[n - 4..] != b"PAR1" {
        return false;
    }
    let len = u32::from_le_bytes([tail[n - 8], tail[n - 7], tail[n - 6], tail[n - 5]]) as usize;
    let Some(start) = (n - 8).checked_sub(len) else { return false };
    let footer = &mut tail[start..n - 8];
    let f = footer.len();
    let Some(elements) = f.checked_sub(1 + 3 * leaves) else { return false };
    let mut header = vec![0x19];
    if leaves < 15 {
        header.push(((leaves as u8) << 4) | 0x0C);
    } else {
        header.push(0xFC);
        let mut v = leaves;
        while v >= 0x80 {
            header.push((v as u8 & 0x7F) | 0x80);
            v >>= 7;
        }
        header.push(v as u8);
    }
    let Some(at) = elements.checked_sub(header.len()) else { return false };
    let orders = [TYPE_DEFINED_ORDER, IEEE_754_TOTAL_ORDER, INT96_TIMESTAMP_ORDER];
    let shaped = footer[at..elements] == header[..]
        && footer[f - 1] == 0
        && footer[elements..f - 1].chunks(3).all(|u| orders.contains(&u[0]) && u[1] == 0 && u[2] == 0);
    if !shaped {
        return false;
    }
    for union in footer[elements..f - 1].chunks_mut(3) {
        if union[0] == IEEE_754_TOTAL_ORDER {
            union[0] = TYPE_DEFINED_ORDER;
        }
    }
    true
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
        // Every column's order is the type-defined one (readable before parquet-format
        // 2.11's IEEE 754 total order).
        let orders = reader.metadata().file_metadata().column_orders().unwrap().clone();
        assert_eq!(orders.len(), 5);
        assert!(
            orders.iter().all(|o| matches!(o, parquet::basic::ColumnOrder::TYPE_DEFINED_ORDER(_))),
            "{orders:?}"
        );
        let batch = record_batch(&t).unwrap();
        let types: Vec<String> = batch.schema().fields().iter().map(|f| f.data_type().to_string()).collect();
        assert_eq!(types, ["Float64", "Int64", "Boolean", "Utf8", "Utf8"]);
    }

    /// A wide table (a list header of more than one byte): every float column's order
    /// rewritten, the values read back.
    #[test]
    fn wide_tables_get_the_type_defined_order() {
        let mut t = Table::default();
        for k in 0..40 {
            t.push(&format!("c{k}"), Cells::Float(vec![f64::from(k), -0.5, f64::NAN]));
        }
        t.push("i", Cells::Int(vec![Some(1), None, Some(2)]));
        let bytes = to_bytes(&t).unwrap();
        let reader = SerializedFileReader::new(bytes::Bytes::from(bytes)).unwrap();
        let orders = reader.metadata().file_metadata().column_orders().unwrap();
        assert_eq!(orders.len(), 41);
        assert!(orders.iter().all(
            |o| *o == parquet::basic::ColumnOrder::TYPE_DEFINED_ORDER(parquet::basic::SortOrder::SIGNED)
        ));
        let first = reader.get_row_iter(None).unwrap().next().unwrap().unwrap().to_string();
        assert!(first.contains("c1: 1.0, c2: 2.0") && first.ends_with("i: 1}"), "{first}");
        // Not a Parquet file's end: left alone.
        let mut junk = b"abc".to_vec();
        assert!(!type_defined_float_order(&mut junk, 1));
    }
}
