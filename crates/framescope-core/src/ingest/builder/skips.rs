//! Why rows were skipped and which cells were not numbers, gathered in bounded
//! memory and turned into warnings.

use super::MAX_TRACES;
use crate::model::{Warning, WarningKind};

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
    /// A `Dropped` cell other than 0 or 1: read as displayed.
    OddDropped,
    /// A frame time under 1 ns or of 10⁶ ms (17 minutes) or more: no real frame.
    ImplausibleFrameTime,
    /// The row is longer than a row may be (bytes or fields).
    Oversized,
    /// The ProcessID cell is not a number.
    BadProcessId,
    /// A malformed row whose trace has no good row before it.
    UnknownTrace,
    /// The file names more traces than framescope keeps.
    TooManyTraces,
    /// A timestamp column's value is before the last kept row's (`formats.md` §11).
    BackwardsTimestamp,
}

impl SkipReason {
    fn group(self) -> u8 {
        match self {
            Self::Truncated { .. } => 0,
            Self::TooLong { .. } => 1,
            Self::MissingFrameTime => 2,
            Self::InvalidFrameTime => 3,
            Self::NonPositiveFrameTime => 4,
            Self::OddDropped => 5,
            Self::ImplausibleFrameTime => 6,
            Self::Oversized => 7,
            Self::BadProcessId => 8,
            Self::UnknownTrace => 9,
            Self::TooManyTraces => 10,
            Self::BackwardsTimestamp => 11,
        }
    }

    /// `warning`, of the kind this reason gives: skipped rows (`count`, the first at
    /// `first_lines`), except a frame read as displayed, which was kept.
    fn kind(self, warning: Warning, count: u64, first_lines: Vec<u64>) -> Warning {
        match self {
            Self::OddDropped => warning,
            _ => warning.with_kind(WarningKind::SkippedRows { count, first_lines }),
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
            Self::OddDropped => "Dropped is neither 0 nor 1; the frame is read as displayed".into(),
            Self::ImplausibleFrameTime => {
                "frame time is implausible (under 1 ns, or 10⁶ ms or more); row skipped".into()
            }
            Self::Oversized => "row is too long to be a frame (over 1 MiB or 100 000 fields); skipped".into(),
            Self::BadProcessId => "ProcessID is not a number; row skipped".into(),
            Self::UnknownTrace => {
                "malformed row of a process/swap chain with no good row before it; skipped".into()
            }
            Self::TooManyTraces => format!("the file names more than {MAX_TRACES} traces; row skipped"),
            Self::BackwardsTimestamp => {
                "timestamp goes back (before the last kept row's); row skipped".into()
            }
        }
    }

    fn many(self, count: u64) -> String {
        match self {
            Self::Truncated { header, .. } => {
                format!("{count} rows have fewer fields than the header ({header}); skipped")
            }
            Self::TooLong { header, .. } => {
                format!("{count} rows have more fields than the header ({header}); skipped")
            }
            Self::MissingFrameTime => format!("{count} rows have no frame time; skipped"),
            Self::InvalidFrameTime => format!("{count} rows have a frame time that is not a number; skipped"),
            Self::NonPositiveFrameTime => format!("{count} rows have a frame time of 0 or less; skipped"),
            Self::OddDropped => {
                format!("{count} rows have a Dropped value that is neither 0 nor 1; read as displayed")
            }
            Self::ImplausibleFrameTime => {
                format!(
                    "{count} rows have an implausible frame time (under 1 ns, or 10⁶ ms or more); skipped"
                )
            }
            Self::Oversized => format!("{count} rows are too long to be frames; skipped"),
            Self::BadProcessId => format!("{count} rows have a ProcessID that is not a number; skipped"),
            Self::UnknownTrace => format!(
                "{count} malformed rows belong to a process/swap chain with no good row before them; skipped"
            ),
            Self::TooManyTraces => {
                format!("{count} rows name a trace beyond the first {MAX_TRACES} of the file; skipped")
            }
            Self::BackwardsTimestamp => {
                format!("{count} rows have a timestamp that goes back (before the last kept row's); skipped")
            }
        }
    }
}

/// Rows that were skipped, kept in bounded memory: per kind, how many and the first
/// few (line, reason) pairs.
#[derive(Debug, Clone, Default)]
pub struct SkipLog {
    groups: std::collections::BTreeMap<u8, (u64, Vec<(u64, SkipReason)>)>,
}

impl SkipLog {
    /// Rows listed per kind.
    const LIST: usize = 5;

    /// Records one skipped row.
    pub fn add(&mut self, line: u64, reason: SkipReason) {
        let (count, first) = self.groups.entry(reason.group()).or_default();
        *count += 1;
        if first.len() < Self::LIST {
            first.push((line, reason));
        }
    }

    /// True when no row was skipped.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Adds the skips of `later` (rows after these), as if they were added here.
    pub fn merge(&mut self, later: Self) {
        for (group, (count, first)) in later.groups {
            let (n, mine) = self.groups.entry(group).or_default();
            *n += count;
            let room = Self::LIST.saturating_sub(mine.len());
            mine.extend(first.into_iter().take(room));
        }
    }

    /// The warnings: one per row when there are few of a kind, else one per kind that
    /// counts them and lists where the first ones are.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        for (count, first) in self.groups.values() {
            if *count <= Self::LIST as u64 {
                out.extend(
                    first
                        .iter()
                        .map(|&(line, reason)| reason.kind(Warning::at(line, reason.one()), 1, vec![line])),
                );
            } else if let Some(&(line, reason)) = first.first() {
                let list: Vec<String> = first.iter().map(|(l, _)| l.to_string()).collect();
                let msg = format!("{} (lines {}, …)", reason.many(*count), list.join(", "));
                let lines = first.iter().map(|&(l, _)| l).collect();
                out.push(reason.kind(Warning::at(line, msg), *count, lines));
            }
        }
        out.sort_by_key(|w| w.line);
        out
    }
}

/// Counts cells of a numeric column that held text instead of a number.
#[derive(Debug, Clone, Default)]
pub(crate) struct InvalidCells {
    count: usize,
    first_line: u64,
    first_text: String,
}

impl InvalidCells {
    /// Counts one cell that is not a number, keeping the first one's line and text.
    pub(crate) fn note(&mut self, line: u64, cell: &[u8]) {
        if self.count == 0 {
            self.first_line = line;
            self.first_text = String::from_utf8_lossy(cell).chars().take(40).collect();
        }
        self.count += 1;
    }

    /// Adds the cells of `later` (rows after these), as if they were noted here.
    pub(crate) fn merge(&mut self, later: Self) {
        if self.count == 0 {
            *self = later;
        } else {
            self.count += later.count;
        }
    }

    /// The warning for column `name`, when it had such cells beside real numbers
    /// (a column of nothing but text is simply not numeric).
    pub(crate) fn warning(&self, name: &str, has_numbers: bool) -> Option<Warning> {
        (self.count > 0 && has_numbers).then(|| {
            let what = match self.count {
                1 => "1 value is not a number".to_owned(),
                n => format!("{n} values are not numbers"),
            };
            Warning::at(
                self.first_line,
                format!("column {name}: {what} (first: '{}'); read as missing", self.first_text),
            )
            .with_kind(WarningKind::InvalidCells { column: name.to_owned(), count: self.count as u64 })
        })
    }
}
