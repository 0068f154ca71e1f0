//! Errors that stop a file from loading.

use std::path::PathBuf;

/// Why a file could not be loaded. Its `Display` names the file (and the line, when
/// one line is to blame) and says what was expected.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {kind}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct LoadError {
    /// The file, as the user named it.
    pub path: PathBuf,
    /// 1-based line to blame, if any.
    pub line: Option<u64>,
    /// What went wrong.
    pub kind: LoadErrorKind,
}

/// The kinds of load failure.
#[derive(Debug, thiserror::Error)]
pub enum LoadErrorKind {
    /// The operating system refused to read the file.
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    /// The content is not a capture framescope can read.
    #[error("{0}")]
    NotACapture(String),
    /// A recognised capture format that framescope does not read yet.
    #[error("{0}")]
    Unsupported(String),
    /// The file is a capture but no row held a usable frame.
    #[error("no frames: {0}")]
    NoFrames(String),
    /// The user cancelled the load.
    #[error("loading was cancelled")]
    Cancelled,
    /// A CSV of no known format: the user has to name its frame-time column
    /// (`--column`, the window's *Map columns* step).
    #[error("{}", .0.message)]
    UnknownColumns(Box<UnknownColumns>),
}

/// What a CSV of no known format holds, for the user to map (`formats.md` §11).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnknownColumns {
    /// The message (names the columns, says how to map them).
    pub message: String,
    /// The header names, trimmed, in file order.
    pub columns: Vec<String>,
    /// True when cells use decimal commas (`;`-separated).
    pub decimal_comma: bool,
    /// The first rows' cells, per column (`samples[k]` are column `k`'s).
    pub samples: Vec<Vec<String>>,
}

impl LoadError {
    /// An error for a file, optionally at a line.
    #[must_use]
    pub fn new(path: impl Into<PathBuf>, line: Option<u64>, kind: LoadErrorKind) -> Self {
        Self { path: path.into(), line, kind }
    }
}
