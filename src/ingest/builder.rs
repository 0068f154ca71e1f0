//! Accumulates the rows of one trace, then turns them into a [`Trace`].

use super::layout::{DroppedRule, FrameTimeRule, Layout, TimeRole, TimeUnit};
use super::records::Row;
use super::values::{Cell, parse_cell, parse_date_time_ms, parse_or_nan};
use crate::model::{Column, ColumnKind, FrameType, Frames, Trace, TraceMeta, Warning};

/// Why a row was not kept as a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkipReason {
    /// Fewer fields than the header asks for.
    Truncated { fields: usize, header: usize },
    /// More fields than the header has.
    TooLong { fields: usize, header: usize },
    /// The frame-time cell is empty or `NA`.
    MissingFrameTime,
    /// The frame-time cell is not a finite number.
    InvalidFrameTime,
    /// The frame time is 0 or negative.
    NonPositiveFrameTime,
    /// A generated frame (frame generation) with a frame time of 0: the 2.1–2.3
    /// layouts give generated frames no CPU time.
    GeneratedZeroFrameTime,
}

impl SkipReason {
    fn group(self) -> u8 {
        match self {
            Self::Truncated { .. } => 0,
            Self::TooLong { .. } => 1,
            Self::MissingFrameTime => 2,
            Self::InvalidFrameTime => 3,
            Self::NonPositiveFrameTime => 4,
            Self::GeneratedZeroFrameTime => 5,
        }
    }

    fn one(self) -> String {
        match self {
            Self::Truncated { fields, header } | Self::TooLong { fields, header } => {
                format!("row has {fields} fields, header has {header}; skipped")
            }
            Self::MissingFrameTime => "frame time is missing; row skipped".into(),
            Self::InvalidFrameTime => "frame time is not a number; row skipped".into(),
            Self::NonPositiveFrameTime => "frame time is 0 or negative; row skipped".into(),
            Self::GeneratedZeroFrameTime => {
                "generated frame (frame generation) with a frame time of 0; row skipped".into()
            }
        }
    }

    fn many(self, count: usize) -> String {
        match self {
            Self::Truncated { header, .. } => {
                format!("{count} rows have fewer fields than the header ({header}); skipped")
            }
            Self::TooLong { header, .. } => {
                format!("{count} rows have more fields than the header ({header}); skipped")
            }
            Self::MissingFrameTime => format!("{count} rows have no frame time; skipped"),
            Self::InvalidFrameTime => {
                format!("{count} rows have a frame time that is not a number; skipped")
            }
            Self::NonPositiveFrameTime => {
                format!("{count} rows have a frame time of 0 or less; skipped")
            }
            Self::GeneratedZeroFrameTime => format!(
                "{count} generated frames (frame generation) have a frame time of 0 in this layout \
                 and were skipped; use --frame-time display to count them"
            ),
        }
    }
}

/// Turns skipped rows into warnings: one per row when there are few of a kind, else
/// one per kind that counts them and lists where the first ones are.
pub fn skip_warnings(mut skipped: Vec<(u64, SkipReason)>) -> Vec<Warning> {
    const LIST: usize = 5;
    skipped.sort_by_key(|&(line, reason)| (reason.group(), line));
    let mut out = Vec::new();
    for group in skipped.chunk_by(|a, b| a.1.group() == b.1.group()) {
        if group.len() <= LIST {
            out.extend(group.iter().map(|&(line, r)| Warning::at(line, r.one())));
        } else {
            let lines: Vec<String> = group.iter().take(LIST).map(|(l, _)| l.to_string()).collect();
            let msg = format!("{} (lines {}, …)", group[0].1.many(group.len()), lines.join(", "));
            out.push(Warning::at(group[0].0, msg));
        }
    }
    out.sort_by_key(|w| w.line);
    out
}

/// Counts cells of a numeric column that held text instead of a number.
#[derive(Debug, Clone, Default)]
struct InvalidCells {
    count: usize,
    first_line: u64,
    first_text: String,
}

/// The rows of one trace so far.
#[derive(Debug)]
pub struct TraceBuilder {
    meta: TraceMeta,
    frames: Frames,
    raw_time: Vec<f64>,
    /// For each kept frame, its position among all rows of this trace (kept or
    /// skipped): time differences are only compared across adjacent rows.
    row_ordinal: Vec<u64>,
    rows_seen: u64,
    invalid: Vec<InvalidCells>,
    skipped: Vec<(u64, SkipReason)>,
}

impl TraceBuilder {
    /// An empty trace for a key.
    pub fn new(meta: TraceMeta, layout: &Layout) -> Self {
        let columns = layout
            .numeric
            .iter()
            .map(|c| Column { name: c.name.clone(), kind: c.kind, values: Vec::new() })
            .collect();
        Self {
            meta,
            frames: Frames { columns, ..Frames::default() },
            raw_time: Vec::new(),
            row_ordinal: Vec::new(),
            rows_seen: 0,
            invalid: vec![InvalidCells::default(); layout.numeric.len()],
            skipped: Vec::new(),
        }
    }

    /// Number of frames kept so far.
    pub fn len(&self) -> usize {
        self.frames.frame_time_ms.len()
    }

    /// Records a row that was not kept.
    pub fn skip(&mut self, line: u64, reason: SkipReason) {
        self.rows_seen += 1;
        self.skipped.push((line, reason));
    }

    /// Adds one row, or records why it was skipped.
    pub fn push(&mut self, record: &Row, layout: &Layout, line: u64) {
        let field = |i: usize| record.get(i).unwrap_or(b"");
        let frame_time = match layout.frame_time {
            FrameTimeRule::Column(i) => parse_cell(field(i)),
            FrameTimeRule::Sum(b, w) => match (parse_cell(field(b)), parse_cell(field(w))) {
                (Cell::Number(b), Cell::Number(w)) => Cell::Number(b + w),
                (Cell::Invalid, _) | (_, Cell::Invalid) => Cell::Invalid,
                _ => Cell::Missing,
            },
        };
        let generated = || {
            layout
                .frame_type
                .is_some_and(|i| FrameType::parse(&String::from_utf8_lossy(field(i))).is_generated())
        };
        let ft = match frame_time {
            Cell::Number(v) if v > 0.0 => v,
            Cell::Number(v) if v == 0.0 && generated() => {
                return self.skip(line, SkipReason::GeneratedZeroFrameTime);
            }
            Cell::Number(_) => return self.skip(line, SkipReason::NonPositiveFrameTime),
            Cell::Missing => return self.skip(line, SkipReason::MissingFrameTime),
            Cell::Invalid => return self.skip(line, SkipReason::InvalidFrameTime),
        };
        let dropped = match layout.dropped {
            DroppedRule::Column(i) => matches!(parse_cell(field(i)), Cell::Number(v) if v != 0.0),
            DroppedRule::MissingDisplay(i) => parse_cell(field(i)) == Cell::Missing,
            DroppedRule::ZeroDisplay(i) => parse_cell(field(i)) == Cell::Number(0.0),
            DroppedRule::Unknown => false,
        };
        self.row_ordinal.push(self.rows_seen);
        self.rows_seen += 1;
        let f = &mut self.frames;
        f.frame_time_ms.push(ft);
        f.dropped.push(dropped);
        f.line.push(line);
        let display = layout.display.map_or(f64::NAN, |i| parse_or_nan(field(i)));
        f.display_ms.push(if dropped { f64::NAN } else { display });
        if let Some(i) = layout.present_mode {
            let mode = String::from_utf8_lossy(super::values::trim(field(i)));
            let idx = self.meta.present_modes.iter().position(|m| *m == mode).unwrap_or_else(|| {
                if self.meta.present_modes.len() < usize::from(u16::MAX) {
                    self.meta.present_modes.push(mode.into_owned());
                }
                self.meta.present_modes.len() - 1
            });
            f.present_mode.push(u16::try_from(idx).unwrap_or(u16::MAX));
        }
        if let Some(i) = layout.frame_type {
            f.frame_type.push(FrameType::parse(&String::from_utf8_lossy(field(i))));
        }
        if self.meta.runtime.is_none()
            && let Some(i) = layout.runtime
        {
            let text = String::from_utf8_lossy(super::values::trim(field(i)));
            if !text.is_empty() {
                self.meta.runtime = Some(text.into_owned());
            }
        }
        if let Some(t) = layout.time {
            let raw = if t.unit == TimeUnit::DateTime {
                parse_date_time_ms(&String::from_utf8_lossy(field(t.index))).unwrap_or(f64::NAN)
            } else {
                parse_or_nan(field(t.index))
            };
            self.raw_time.push(raw);
        }
        for ((spec, column), invalid) in layout.numeric.iter().zip(&mut f.columns).zip(&mut self.invalid) {
            let value = match parse_cell(field(spec.index)) {
                Cell::Number(v) if !(dropped && spec.kind.is_display_value()) => v,
                Cell::Number(_) | Cell::Missing => f64::NAN,
                Cell::Invalid => {
                    if invalid.count == 0 {
                        invalid.first_line = line;
                        invalid.first_text =
                            String::from_utf8_lossy(field(spec.index)).chars().take(40).collect();
                    }
                    invalid.count += 1;
                    f64::NAN
                }
            };
            column.values.push(value);
        }
    }

    /// Pairs of (raw time difference, matching frame-time sum) for unit inference.
    pub fn time_pairs(&self, role: TimeRole) -> (f64, f64) {
        let (ft, t) = (&self.frames.frame_time_ms, &self.raw_time);
        let mut raw = 0.0;
        let mut ms = 0.0;
        for i in 1..t.len().min(ft.len()) {
            let d = t[i] - t[i - 1];
            if d.is_finite() && self.row_ordinal[i] == self.row_ordinal[i - 1] + 1 {
                raw += d;
                ms += if role == TimeRole::Present { ft[i] } else { ft[i - 1] };
            }
        }
        (raw, ms)
    }

    /// The first raw time value that is a number.
    pub fn first_raw_time(&self) -> Option<f64> {
        self.raw_time.iter().copied().find(|v| v.is_finite())
    }

    /// Finishes the trace: start times from the time column (scaled by `ms_per_raw`,
    /// relative to `origin_raw`) or, without one, from the running sum of frame times.
    pub fn finish(mut self, role: Option<TimeRole>, ms_per_raw: f64, origin_raw: f64) -> Trace {
        let ft = &self.frames.frame_time_ms;
        let mut start = Vec::with_capacity(ft.len());
        let mut next = 0.0;
        let mut out_of_range: Option<(usize, u64)> = None;
        for (i, &ft_i) in ft.iter().enumerate() {
            let raw = self.raw_time.get(i).copied().unwrap_or(f64::NAN);
            let s = match role {
                Some(role) if raw.is_finite() => {
                    let t = (raw - origin_raw) * ms_per_raw;
                    if role == TimeRole::Present { t - ft_i } else { t }
                }
                _ => next,
            };
            let s = if s.is_finite() {
                s
            } else {
                let (count, line) = out_of_range.unwrap_or((0, self.frames.line[i]));
                out_of_range = Some((count + 1, line));
                next
            };
            start.push(s);
            next = s + ft_i;
        }
        self.frames.start_ms = start;
        let mut warnings = skip_warnings(std::mem::take(&mut self.skipped));
        if let Some((count, line)) = out_of_range {
            warnings.push(Warning::at(
                line,
                format!("{count} timestamps are out of range; those frames are placed right after the frame before"),
            ));
        }
        let mut kept = Vec::new();
        for (column, invalid) in std::mem::take(&mut self.frames.columns).into_iter().zip(self.invalid) {
            let has_numbers = column.values.iter().any(|v| !v.is_nan());
            if invalid.count > 0 && has_numbers {
                warnings.push(Warning::at(
                    invalid.first_line,
                    format!(
                        "column {}: {} values are not numbers (first: '{}'); read as missing",
                        column.name, invalid.count, invalid.first_text
                    ),
                ));
            }
            let known = !matches!(column.kind, ColumnKind::Other | ColumnKind::Telemetry);
            if has_numbers || known {
                kept.push(column);
            }
        }
        self.frames.columns = kept;
        Trace { meta: self.meta, frames: self.frames, warnings }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_skips_are_listed_one_by_one_many_are_counted() {
        let few = vec![(9, SkipReason::Truncated { fields: 6, header: 21 })];
        assert_eq!(skip_warnings(few), vec![Warning::at(9, "row has 6 fields, header has 21; skipped")]);
        let many: Vec<_> = (10..17).map(|l| (l, SkipReason::NonPositiveFrameTime)).collect();
        let w = skip_warnings(many);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].line, Some(10));
        assert_eq!(
            w[0].message,
            "7 rows have a frame time of 0 or less; skipped (lines 10, 11, 12, 13, 14, …)"
        );
    }
}
