//! Typed tables: named columns of one type each, what the runs table (a row per run,
//! `report --format parquet`) and the per-frame table (`framescope frames`) are made of
//! before they become CSV, Parquet or a DataFrame. A missing value is a null, never 0.
//!
//! A table is written a chunk of rows at a time ([`TableChunks`]): the per-frame table
//! of a long capture is never built whole (`pipeline::frames::FrameTable`).
//!
//! In CSV, a text cell a spreadsheet would read as a formula gets a leading `'`
//! ([`super::escape::formula`]); numbers are written as numbers.

use super::escape;
use std::fmt::Write as _;
use std::io::Write;

/// The cells of one column.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    /// Numbers; NaN is a null (the model's missing value).
    Float(Vec<f64>),
    /// Whole numbers.
    Int(Vec<Option<i64>>),
    /// True or false.
    Bool(Vec<Option<bool>>),
    /// Text.
    Text(Vec<Option<String>>),
    /// Text from a short list: each cell an index into `values`, or null. (Frame types
    /// and present modes repeat on every frame.)
    Labels {
        /// The distinct texts.
        values: Vec<String>,
        /// Each cell's text, by index.
        keys: Vec<Option<u32>>,
    },
}

impl Cells {
    /// Number of cells.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Self::Float(v) => v.len(),
            Self::Int(v) => v.len(),
            Self::Bool(v) => v.len(),
            Self::Text(v) => v.len(),
            Self::Labels { keys, .. } => keys.len(),
        }
    }

    /// True when the column has no cell.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// No cells, of the same kind.
    pub(crate) fn empty_like(&self) -> Self {
        match self {
            Self::Float(_) => Self::Float(Vec::new()),
            Self::Int(_) => Self::Int(Vec::new()),
            Self::Bool(_) => Self::Bool(Vec::new()),
            Self::Text(_) | Self::Labels { .. } => Self::Labels { values: Vec::new(), keys: Vec::new() },
        }
    }

    /// Appends `other`'s cells, or `rows` nulls when there is no `other` (or it is of
    /// another kind).
    fn append(&mut self, other: Option<&Cells>, rows: usize) {
        match (self, other) {
            (Self::Float(a), Some(Self::Float(b))) => a.extend_from_slice(b),
            (Self::Float(a), _) => a.resize(a.len() + rows, f64::NAN),
            (Self::Int(a), Some(Self::Int(b))) => a.extend_from_slice(b),
            (Self::Int(a), _) => a.resize(a.len() + rows, None),
            (Self::Bool(a), Some(Self::Bool(b))) => a.extend_from_slice(b),
            (Self::Bool(a), _) => a.resize(a.len() + rows, None),
            (Self::Labels { values, keys }, Some(other @ (Self::Labels { .. } | Self::Text(_)))) => {
                for row in 0..other.len() {
                    let text = other.text_opt(row);
                    keys.push(text.map(|s| label_key(values, s)));
                }
            }
            (Self::Labels { keys, .. }, _) => keys.resize(keys.len() + rows, None),
            (Self::Text(a), _) => a.resize(a.len() + rows, None),
        }
    }

    /// Cell `row` as text, `None` for a null.
    fn text_opt(&self, row: usize) -> Option<&str> {
        match self {
            Self::Text(v) => v.get(row).and_then(Option::as_deref),
            Self::Labels { values, keys } => {
                keys.get(row).copied().flatten().and_then(|k| values.get(k as usize)).map(String::as_str)
            }
            _ => None,
        }
    }

    /// Cell `row` as CSV text: empty for a null, `true`/`false`, numbers as Rust prints
    /// them (the shortest text that reads back to the same `f64`).
    #[must_use]
    pub fn text(&self, row: usize) -> String {
        match self {
            Self::Float(v) => v.get(row).filter(|x| !x.is_nan()).map(ToString::to_string),
            Self::Int(v) => v.get(row).copied().flatten().map(|x| x.to_string()),
            Self::Bool(v) => v.get(row).copied().flatten().map(|x| x.to_string()),
            Self::Text(v) => v.get(row).cloned().flatten(),
            Self::Labels { values, keys } => {
                keys.get(row).copied().flatten().and_then(|k| values.get(k as usize)).cloned()
            }
        }
        .unwrap_or_default()
    }
}

/// A named column.
#[derive(Debug, Clone, PartialEq)]
pub struct TableColumn {
    /// The header.
    pub name: String,
    /// The cells, one per row.
    pub cells: Cells,
}

/// Columns of equal length.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// The columns, in order.
    pub columns: Vec<TableColumn>,
}

impl Table {
    /// Number of rows (0 without columns).
    #[must_use]
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |c| c.cells.len())
    }

    /// Adds a column. A name already taken (compared without case: DuckDB and
    /// spreadsheets ignore it) gets ` (2)`, ` (3)`, … appended.
    pub fn push(&mut self, name: &str, cells: Cells) {
        let taken = |n: &str| self.columns.iter().any(|c| c.name.eq_ignore_ascii_case(n));
        let mut unique = name.to_owned();
        let mut k = 2;
        while taken(&unique) {
            unique = format!("{name} ({k})");
            k += 1;
        }
        self.columns.push(TableColumn { name: unique, cells });
    }

    /// The tables one under the other. Columns are matched by name (in order of first
    /// appearance); a table without one gets nulls there. A column's kind is taken from
    /// the first table that has it (cells of another kind become nulls).
    #[must_use]
    pub fn concat(tables: Vec<Table>) -> Table {
        if tables.len() == 1 {
            return tables.into_iter().next().unwrap_or_default();
        }
        let mut out = Table::default();
        for t in &tables {
            for c in &t.columns {
                if out.column(&c.name).is_none() {
                    out.columns.push(TableColumn { name: c.name.clone(), cells: c.cells.empty_like() });
                }
            }
        }
        for t in &tables {
            let rows = t.rows();
            for column in &mut out.columns {
                column.cells.append(t.column(&column.name), rows);
            }
        }
        out
    }

    /// The column named `name`, if any.
    #[must_use]
    pub fn column(&self, name: &str) -> Option<&Cells> {
        self.columns.iter().find(|c| c.name == name).map(|c| &c.cells)
    }

    /// Writes the table as CSV (RFC 4180 quoting, CRLF line ends as the runs CSV).
    pub fn write_csv(&self, out: impl Write) -> std::io::Result<()> {
        write_csv(self, out)
    }

    /// The columns (names and kinds) without their cells.
    #[must_use]
    pub fn without_rows(&self) -> Table {
        let columns =
            self.columns.iter().map(|c| TableColumn { name: c.name.clone(), cells: c.cells.empty_like() });
        Table { columns: columns.collect() }
    }

    /// This table's cells under the columns of `layout` (a table without rows): a
    /// column it lacks, or holds with cells of another kind, is nulls there (as
    /// [`Table::concat`] does). Text and labels are one kind.
    #[must_use]
    pub fn aligned(mut self, layout: &Table) -> Table {
        let rows = self.rows();
        let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (k, c) in self.columns.iter().enumerate() {
            index.entry(c.name.as_str()).or_insert(k);
        }
        let taken: Vec<Option<usize>> =
            layout.columns.iter().map(|c| index.get(c.name.as_str()).copied()).collect();
        let mut columns = Vec::with_capacity(layout.columns.len());
        for (want, at) in layout.columns.iter().zip(taken) {
            let cells =
                match at.map(|k| std::mem::replace(&mut self.columns[k].cells, Cells::Bool(Vec::new()))) {
                    Some(c) if same_kind(&want.cells, &c) => c,
                    _ => {
                        let mut nulls = want.cells.empty_like();
                        nulls.append(None, rows);
                        nulls
                    }
                };
            columns.push(TableColumn { name: want.name.clone(), cells });
        }
        Table { columns }
    }
}

/// True when `a` and `b` hold cells of one kind (text and labels alike).
fn same_kind(a: &Cells, b: &Cells) -> bool {
    matches!(
        (a, b),
        (Cells::Float(_), Cells::Float(_))
            | (Cells::Int(_), Cells::Int(_))
            | (Cells::Bool(_), Cells::Bool(_))
            | (Cells::Text(_) | Cells::Labels { .. }, Cells::Text(_) | Cells::Labels { .. })
    )
}

/// A table handed over a chunk of rows at a time, so a long one never has to be built
/// whole: what the CSV and Parquet writers read.
pub trait TableChunks {
    /// The columns (names and kinds), without rows.
    fn columns(&self) -> Table;

    /// Calls `f` with the rows a chunk at a time, in order; every chunk has the columns
    /// of [`TableChunks::columns`], in order.
    fn each_chunk<E>(&self, f: impl FnMut(&Table) -> Result<(), E>) -> Result<(), E>;
}

impl TableChunks for Table {
    fn columns(&self) -> Table {
        self.without_rows()
    }

    fn each_chunk<E>(&self, mut f: impl FnMut(&Table) -> Result<(), E>) -> Result<(), E> {
        f(self)
    }
}

/// Writes a table as CSV, a chunk at a time (RFC 4180 quoting, CRLF line ends as the
/// runs CSV; a text cell, header names included, through [`escape::formula`]).
pub fn write_csv(table: &impl TableChunks, out: impl Write) -> std::io::Result<()> {
    let mut writer = CsvWriter::new(out, &table.columns())?;
    table.each_chunk(|chunk| writer.write(chunk))?;
    writer.finish()
}

/// A CSV being written: the header, then rows a chunk at a time.
pub struct CsvWriter<W: Write> {
    writer: csv::Writer<W>,
    /// The cell being written (one buffer for every cell).
    field: String,
}

impl<W: Write> CsvWriter<W> {
    /// Writes the header: the names of `columns`.
    pub fn new(out: W, columns: &Table) -> std::io::Result<Self> {
        let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(out);
        writer
            .write_record(columns.columns.iter().map(|c| escape::formula(&c.name).into_owned()))
            .map_err(io)?;
        Ok(Self { writer, field: String::new() })
    }

    /// Writes the rows of `chunk`.
    pub fn write(&mut self, chunk: &Table) -> std::io::Result<()> {
        for row in 0..chunk.rows() {
            for c in &chunk.columns {
                self.field.clear();
                cell_text(&c.cells, row, &mut self.field);
                self.writer.write_field(&self.field).map_err(io)?;
            }
            self.writer.write_record(None::<&[u8]>).map_err(io)?;
        }
        Ok(())
    }

    /// Flushes what is written.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

/// Cell `row` as its CSV text ([`Cells::text`], a text cell through
/// [`escape::formula`]), written into `out`.
fn cell_text(cells: &Cells, row: usize, out: &mut String) {
    match cells {
        Cells::Float(v) => {
            if let Some(x) = v.get(row).filter(|x| !x.is_nan()) {
                let _ = write!(out, "{x}");
            }
        }
        Cells::Int(v) => {
            if let Some(x) = v.get(row).copied().flatten() {
                let _ = write!(out, "{x}");
            }
        }
        Cells::Bool(v) => {
            if let Some(x) = v.get(row).copied().flatten() {
                let _ = write!(out, "{x}");
            }
        }
        Cells::Text(_) | Cells::Labels { .. } => {
            if let Some(text) = cells.text_opt(row) {
                out.push_str(&escape::formula(text));
            }
        }
    }
}

fn io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

/// The index of `text` in `values`, added when new.
fn label_key(values: &mut Vec<String>, text: &str) -> u32 {
    if let Some(k) = values.iter().position(|v| v == text) {
        return k as u32;
    }
    values.push(text.to_owned());
    (values.len() - 1) as u32
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn nulls_are_empty_cells_and_names_stay_unique() {
        let mut t = Table::default();
        t.push("time_ms", Cells::Float(vec![0.5, f64::NAN]));
        t.push("Time_ms", Cells::Int(vec![Some(3), None]));
        t.push("ok", Cells::Bool(vec![None, Some(true)]));
        t.push("type", Cells::Labels { values: vec!["a, b".into()], keys: vec![Some(0), None] });
        assert_eq!(t.rows(), 2);
        assert_eq!(t.columns[1].name, "Time_ms (2)");
        let mut out = Vec::new();
        t.write_csv(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "time_ms,Time_ms (2),ok,type\r\n0.5,3,,\"a, b\"\r\n,,true,\r\n");
    }

    /// Text cells and header names a spreadsheet would read as formulas get a `'`;
    /// numbers, negative ones included, stay numbers.
    #[test]
    fn formula_text_is_quoted_and_numbers_are_not() {
        let mut t = Table::default();
        t.push("-2+3", Cells::Float(vec![-1.5, 2.0]));
        t.push("i", Cells::Int(vec![Some(-3), None]));
        t.push("app", Cells::Text(vec![Some("=cmd|' /C calc'!A0".into()), Some("game.exe".into())]));
        t.push(
            "mode",
            Cells::Labels { values: vec!["@x".into(), "ok".into()], keys: vec![Some(1), Some(0)] },
        );
        let mut out = Vec::new();
        t.write_csv(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "'-2+3,i,app,mode\r\n-1.5,-3,'=cmd|' /C calc'!A0,ok\r\n2,,game.exe,'@x\r\n");
    }

    /// A table written a chunk at a time is the same CSV as written whole; chunks with
    /// other columns are aligned to the layout (missing or other-kind columns: nulls).
    #[test]
    fn chunks_write_the_same_csv_and_align_by_name() {
        struct Two(Table, Table);
        impl TableChunks for Two {
            fn columns(&self) -> Table {
                Table::concat(vec![self.0.without_rows(), self.1.without_rows()])
            }
            fn each_chunk<E>(&self, mut f: impl FnMut(&Table) -> Result<(), E>) -> Result<(), E> {
                let layout = self.columns();
                f(&self.0.clone().aligned(&layout))?;
                f(&self.1.clone().aligned(&layout))
            }
        }
        let mut a = Table::default();
        a.push("x", Cells::Float(vec![1.0, 2.0]));
        a.push("mode", Cells::Labels { values: vec!["m".into()], keys: vec![Some(0), None] });
        let mut b = Table::default();
        b.push("mode", Cells::Text(vec![Some("n".into())]));
        b.push("x", Cells::Int(vec![Some(7)]));
        b.push("y", Cells::Bool(vec![Some(true)]));
        let two = Two(a.clone(), b.clone());
        let (mut chunked, mut whole) = (Vec::new(), Vec::new());
        write_csv(&two, &mut chunked).unwrap();
        Table::concat(vec![a, b]).write_csv(&mut whole).unwrap();
        assert_eq!(String::from_utf8(chunked).unwrap(), String::from_utf8(whole).unwrap());
    }

    /// Two runs' tables, the second without `ok` and with a new label and column.
    #[test]
    fn concat_matches_columns_by_name() {
        let mut a = Table::default();
        a.push("ok", Cells::Bool(vec![Some(true)]));
        a.push("type", Cells::Labels { values: vec!["x".into()], keys: vec![Some(0)] });
        let mut b = Table::default();
        b.push("type", Cells::Labels { values: vec!["y".into(), "x".into()], keys: vec![Some(0), Some(1)] });
        b.push("gpu", Cells::Float(vec![1.5, 2.5]));
        let t = Table::concat(vec![a, b]);
        assert_eq!(t.rows(), 3);
        assert_eq!(t.column("ok"), Some(&Cells::Bool(vec![Some(true), None, None])));
        let texts: Vec<String> = (0..3).map(|r| t.column("type").unwrap().text(r)).collect();
        assert_eq!(texts, ["x", "y", "x"]);
        assert_eq!(t.column("gpu").unwrap().text(0), "");
        assert_eq!(t.column("gpu").unwrap().text(2), "2.5");
    }
}
