//! Warnings: the non-fatal problems a load reports, and what each is about.

/// What a [`Warning`] is about, with the facts code needs (the message stays the
/// words for people; nothing decides by reading it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum WarningKind {
    /// Rows (lines, frames) of the capture that were not kept: how many, and the
    /// first lines when known.
    SkippedRows { count: u64, first_lines: Vec<u64> },
    /// Cells of a numeric column too large to be real (10⁶ ms or more): read as missing.
    OverflowCells { column: String, count: u64 },
    /// Cells of a numeric column that held text instead of a number: read as missing.
    InvalidCells { column: String, count: u64 },
    /// The log holds several logging sessions, each a run of its own.
    LoggingSessions { count: usize },
    /// A logging session with no usable sample: no run.
    EmptySession,
    /// The frame times alternate as generated frames do, but the capture does not
    /// record which frames were generated.
    FrameGenerationNotRecorded {
        /// The multiplier the present rhythm shows (×2, ×3, ×4), when it shows one.
        multiplier: Option<u32>,
    },
    /// The file is a sampled log: its rows are samples, not frames.
    SampledLog,
    /// No frame has a usable frame time of the chosen source.
    NoUsableFrameTime,
    /// A problem of the PCL marker log (its lines are no capture rows).
    MarkerLog,
    /// PC latency from markers: the capture has no PCLFrameId or AppFrameId column to
    /// join them on.
    NoFrameIdColumn,
    /// No `--column` was given and framescope guessed the time column (a game
    /// benchmark's running clock): which column, read in which unit.
    GuessedTimeColumn { column: String, unit: &'static str },
    /// Anything else: only its message says what.
    #[default]
    Other,
}

impl WarningKind {
    /// The stable snake_case name of the kind (`report --json`'s `kind`).
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::SkippedRows { .. } => "skipped_rows",
            Self::OverflowCells { .. } => "overflow_cells",
            Self::InvalidCells { .. } => "invalid_cells",
            Self::LoggingSessions { .. } => "logging_sessions",
            Self::EmptySession => "empty_session",
            Self::FrameGenerationNotRecorded { .. } => "frame_generation_not_recorded",
            Self::SampledLog => "sampled_log",
            Self::NoUsableFrameTime => "no_usable_frame_time",
            Self::MarkerLog => "marker_log",
            Self::NoFrameIdColumn => "no_frame_id_column",
            Self::GuessedTimeColumn { .. } => "guessed_time_column",
            Self::Other => "other",
        }
    }

    /// Capture rows this warning says were skipped (0 unless [`WarningKind::SkippedRows`]).
    #[must_use]
    pub fn skipped_rows(&self) -> u64 {
        match self {
            Self::SkippedRows { count, .. } => *count,
            _ => 0,
        }
    }
}

/// In a warning's JSON (flattened into it): `"kind"`, its name, then the kind's fields
/// (`count`, `first_lines`, `column`), as `cli-report.md` gives them.
impl serde::Serialize for WarningKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("kind", self.name())?;
        match self {
            Self::SkippedRows { count, first_lines } => {
                m.serialize_entry("count", count)?;
                m.serialize_entry("first_lines", first_lines)?;
            }
            Self::OverflowCells { column, count } | Self::InvalidCells { column, count } => {
                m.serialize_entry("column", column)?;
                m.serialize_entry("count", count)?;
            }
            Self::LoggingSessions { count } => m.serialize_entry("count", count)?,
            Self::GuessedTimeColumn { column, unit } => {
                m.serialize_entry("column", column)?;
                m.serialize_entry("unit", unit)?;
            }
            Self::FrameGenerationNotRecorded { multiplier } => m.serialize_entry("multiplier", multiplier)?,
            Self::EmptySession
            | Self::SampledLog
            | Self::NoUsableFrameTime
            | Self::MarkerLog
            | Self::NoFrameIdColumn
            | Self::Other => {}
        }
        m.end()
    }
}

/// A non-fatal problem found while reading a file: the load went on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Warning {
    /// 1-based line number in the file, when the problem belongs to one line.
    pub line: Option<u64>,
    /// What happened, in words a user can act on.
    pub message: String,
    /// True for a note on what the file is (a sampled log's rows are samples), which
    /// says how to read the figures but is no problem: `--strict` does not fail on it.
    #[serde(skip)]
    pub informational: bool,
    /// What the warning is about (`report --json` gives its name and fields).
    #[serde(flatten)]
    pub kind: WarningKind,
}

impl Warning {
    /// A warning about one line of the file.
    #[must_use]
    pub fn at(line: u64, message: impl Into<String>) -> Self {
        Self { line: Some(line), message: message.into(), informational: false, kind: WarningKind::Other }
    }

    /// A warning about the file as a whole.
    #[must_use]
    pub fn file(message: impl Into<String>) -> Self {
        Self { line: None, message: message.into(), informational: false, kind: WarningKind::Other }
    }

    /// A note about the file as a whole (see [`Warning::informational`]).
    #[must_use]
    pub fn note(message: impl Into<String>) -> Self {
        Self { line: None, message: message.into(), informational: true, kind: WarningKind::Other }
    }

    /// This warning, of kind `kind`.
    #[must_use]
    pub fn with_kind(self, kind: WarningKind) -> Self {
        Self { kind, ..self }
    }

    /// A warning at `line` that `count` rows were skipped (the first at `first_lines`).
    #[must_use]
    pub fn skipped(line: u64, message: impl Into<String>, count: u64, first_lines: Vec<u64>) -> Self {
        Self::at(line, message).with_kind(WarningKind::SkippedRows { count, first_lines })
    }
}
