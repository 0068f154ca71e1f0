//! A kept row's optional numeric columns: each cell stored in its column, or, for a
//! column the load does not keep ([`NumericColumn::stored`]), only checked — the
//! same rules either way, so the warnings about a column's cells (implausible
//! durations, text) do not depend on whether it is kept.

use super::super::layout::{Layout, NumericColumn};
use super::super::overflow::{OverflowLog, plausible_duration};
use super::super::records::Fields;
use super::super::values::Cell;
use super::repeats::Repeat;
use super::{InvalidCells, TraceBuilder};
use crate::model::ValuesBuilder;

/// Where a numeric column's values go: its store, or (a column not kept) whether any
/// is a number.
trait Sink {
    /// Counts the constant once more; false when the values are not constant.
    fn count_repeat(&mut self) -> bool;
    /// Whether a cell read as `m / 10⁴` (just pushed) is to be kept as the repeated
    /// cell: a repeat of its bytes then adds nothing new ([`Sink::count_repeat`]).
    fn keep_repeat(&mut self, m: i32) -> bool;
    /// Adds a missing value.
    fn push_missing(&mut self);
    /// Adds `m / 10⁴`, given as its scaled integer.
    fn push_scaled(&mut self, m: i32);
    /// Adds a value (NaN: missing).
    fn push(&mut self, v: f64);
}

impl Sink for ValuesBuilder {
    #[inline]
    fn count_repeat(&mut self) -> bool {
        ValuesBuilder::count_repeat(self)
    }
    /// While every value is `m / 10⁴`, pushed as that scaled integer.
    #[inline]
    fn keep_repeat(&mut self, m: i32) -> bool {
        self.repeats_scaled(m)
    }
    #[inline]
    fn push_missing(&mut self) {
        ValuesBuilder::push_missing(self);
    }
    #[inline]
    fn push_scaled(&mut self, m: i32) {
        ValuesBuilder::push_scaled(self, m);
    }
    #[inline]
    fn push(&mut self, v: f64) {
        ValuesBuilder::push(self, v);
    }
}

/// A column not kept ([`NumericColumn::stored`]): whether some value is a number.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Seen {
    /// Some value is a number.
    pub(super) numbers: bool,
    /// A cell was kept as the repeated one: the first number read (a constant column's
    /// cells are then compared, not parsed; any other's are parsed).
    kept_one: bool,
}

impl Sink for Seen {
    /// The repeated cell is a number already seen: nothing to add.
    #[inline]
    fn count_repeat(&mut self) -> bool {
        true
    }
    #[inline]
    fn keep_repeat(&mut self, _m: i32) -> bool {
        !std::mem::replace(&mut self.kept_one, true)
    }
    #[inline]
    fn push_missing(&mut self) {}
    /// A scaled integer read from a cell is always a number.
    #[inline]
    fn push_scaled(&mut self, _m: i32) {
        self.numbers = true;
    }
    #[inline]
    fn push(&mut self, v: f64) {
        self.numbers |= !v.is_nan();
    }
}

/// The notes a column's cells may add to: implausible durations, text cells.
struct Notes<'a> {
    overflow: &'a mut OverflowLog,
    invalid: &'a mut Vec<(usize, InvalidCells)>,
}

impl TraceBuilder {
    /// Adds a kept row's optional numeric columns.
    pub(super) fn push_columns<F: Fields>(&mut self, record: &F, layout: &Layout, line: u64, dropped: bool) {
        let mut notes = Notes { overflow: &mut self.overflow, invalid: &mut self.invalid };
        let columns = self.columns.iter_mut().zip(&mut self.repeats).zip(&mut self.seen);
        for (k, (spec, ((column, repeat), seen))) in layout.numeric.iter().zip(columns).enumerate() {
            if spec.stored {
                add_cell(column, repeat, (k, spec), record, (dropped, line), &mut notes);
            } else {
                add_cell(seen, repeat, (k, spec), record, (dropped, line), &mut notes);
            }
        }
    }

    /// Whether numeric column `k` holds a number.
    pub(super) fn has_numbers(&self, k: usize, layout: &Layout) -> bool {
        match layout.numeric.get(k) {
            Some(spec) if !spec.stored => self.seen.get(k).is_some_and(|s| s.numbers),
            _ => self.columns.get(k).is_some_and(ValuesBuilder::any_present),
        }
    }
}

/// Adds the cell of numeric column `k` (`spec`) of a kept row (`dropped`, on `line`).
#[inline]
fn add_cell<S: Sink, F: Fields>(
    sink: &mut S,
    repeat: &mut Repeat,
    (k, spec): (usize, &NumericColumn),
    record: &F,
    (dropped, line): (bool, u64),
    notes: &mut Notes<'_>,
) {
    // The cell that made the column constant, again: counted, not parsed.
    if repeat.is_set() && record.get(spec.index).is_some_and(|c| repeat.matches(c)) && sink.count_repeat() {
        return;
    }
    repeat.clear();
    let cell = match record.scaled_or_cell(spec.index) {
        Ok(m) => {
            // The `Number` arms below on `v = m / 10⁴`: `v == 0` is `m == 0`, and a
            // scaled value (below 2·10⁵) is always a plausible duration.
            if (m == 0 && spec.kind.zero_means_none()) || (dropped && spec.kind.is_display_value()) {
                sink.push_missing();
            } else {
                sink.push_scaled(m);
                // A display value's cell stands for no value on a dropped row: only
                // other columns' cells are kept.
                if !spec.kind.is_display_value() && sink.keep_repeat(m) {
                    repeat.set(record.get(spec.index).unwrap_or(b""));
                }
            }
            return;
        }
        // `NA` cells (whole columns of them in PresentMon 2.x captures).
        Err(Cell::Missing) => {
            sink.push_missing();
            return;
        }
        Err(cell) => cell,
    };
    let value = match cell {
        Cell::Number(v) if v == 0.0 && spec.kind.zero_means_none() => f64::NAN,
        Cell::Number(v) if spec.kind.is_duration_ms() && !plausible_duration(v) => {
            notes.overflow.note(&spec.name, line, v);
            f64::NAN
        }
        Cell::Number(v) if !(dropped && spec.kind.is_display_value()) => v,
        Cell::Number(_) | Cell::Missing => f64::NAN,
        Cell::Invalid => {
            let at = if let Some(at) = notes.invalid.iter().position(|(c, _)| *c == k) {
                at
            } else {
                notes.invalid.push((k, InvalidCells::default()));
                notes.invalid.len() - 1
            };
            notes.invalid[at].1.note(line, record.get(spec.index).unwrap_or(b""));
            f64::NAN
        }
    };
    sink.push(value);
}
