//! framescope's history of builds (issue 37, `cli-report.md` "History and CI outputs",
//! `metrics.md` §14): every run's registry figures, settings, system, capture identity
//! and frame-time [`Sketch`] stored per build and scene behind one [`Store`] trait
//! (SQLite first: [`sqlite::SqliteStore`]), and the regression rule ([`check`]).
//!
//! The core crate has no database dependency: this crate is the only one that links
//! SQLite. Nothing here reads captures; the command line hands [`NewRun`]s in.

pub mod changes;
pub mod check;
pub mod export;
mod ident;
pub mod page;
#[cfg(feature = "postgres")]
pub mod pgsql;
mod schema;
mod sketch;
pub mod sqlite;

pub use ident::{Time, TimeError, content_hash};
pub use sketch::{Histogram, PERCENTILES, Sketch};

use std::collections::BTreeMap;
use std::path::PathBuf;

/// What can go wrong with a history.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The file is not a SQLite database, or it is damaged.
    #[error(
        "{path}: not a framescope history: the file is not a SQLite database or is damaged ({detail}); it was left unchanged"
    )]
    NotADatabase {
        /// The file.
        path: PathBuf,
        /// SQLite's words.
        detail: String,
    },
    /// A new history file that cannot be created.
    #[error("{path}: cannot create the history: {detail}")]
    CannotCreate {
        /// The file.
        path: PathBuf,
        /// Why.
        detail: String,
    },
    /// A SQLite database of something else.
    #[error(
        "{path}: not a framescope history: a SQLite database of another application; it was left unchanged"
    )]
    Foreign {
        /// The file.
        path: PathBuf,
    },
    /// A history written by a newer framescope.
    #[error(
        "{path}: a history of schema version {found}, newer than this framescope reads (up to {supported}); update framescope"
    )]
    TooNew {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: u32,
        /// The newest this build reads.
        supported: u32,
    },
    /// `history check` / `export` of a file that does not exist.
    #[error("{path}: no such history (`framescope history add` creates one)")]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// A URL scheme this build has no storage for.
    #[error("{0}: this framescope was built without PostgreSQL support (cargo feature `postgres`)")]
    Unsupported(String),
    /// PostgreSQL refused (the connection, a statement).
    #[error("PostgreSQL history: {0}")]
    Postgres(String),
    /// A stored value that cannot be read back.
    #[error("the history holds a damaged value: {0}")]
    Damaged(String),
    /// SQLite refused a statement.
    #[error("history database error: {0}")]
    Sql(#[from] rusqlite::Error),
}

/// A run to store: its identity, place in the history, figures and sketch.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRun {
    /// Build, scene, commit, branch, time.
    pub place: Place,
    /// The capture as given on the command line.
    pub file: String,
    /// SHA-256 of the capture's bytes ([`content_hash`]).
    pub content_hash: String,
    /// Which trace of the file (`application` and process; one file may hold several).
    pub trace: String,
    /// The run's application.
    pub application: String,
    /// The capture format's name.
    pub format: String,
    /// Frames analysed.
    pub frames: u64,
    /// Every registry figure the run has, by `section.name`.
    pub figures: BTreeMap<String, f64>,
    /// The analysis settings (the report's `settings` object).
    pub settings: serde_json::Value,
    /// The system facts the capture recorded (`system` of the run).
    pub system: serde_json::Value,
    /// The frame-time sketch.
    pub sketch: Sketch,
}

/// Where a run sits in the history.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Place {
    /// The build's ID (`--build`).
    pub build: String,
    /// The scene (`--scene`, else the run's application).
    pub scene: String,
    /// `--commit`.
    pub commit: Option<String>,
    /// `--branch`.
    pub branch: Option<String>,
    /// `--time`.
    pub time: Option<Time>,
}

/// A run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRun {
    /// Its row (the order of addition).
    pub id: i64,
    /// When it was added (Unix seconds).
    pub added_unix: i64,
    /// The run as it was added.
    pub run: NewRun,
}

/// What adding a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// Stored as row `id`.
    Stored {
        /// Its row.
        id: i64,
    },
    /// The same capture (content hash and trace) is already stored, in `build`.
    AlreadyThere {
        /// The stored row.
        id: i64,
        /// The build it is stored in.
        build: String,
    },
}

/// A history's storage: one implementation per database, one code path above it.
pub trait Store {
    /// Adds runs in one transaction: all of them or none. A run whose capture (content
    /// hash and trace) is stored already is not added again.
    fn add(&mut self, runs: &[NewRun]) -> Result<Vec<Added>, HistoryError>;
    /// Every stored run, in the order of addition.
    fn runs(&mut self) -> Result<Vec<StoredRun>, HistoryError>;
    /// The database's own consistency check: the problems found (empty when sound).
    fn integrity(&mut self) -> Result<Vec<String>, HistoryError>;
    /// The schema version of the stored history.
    fn schema_version(&mut self) -> Result<u32, HistoryError>;
}

/// Whether [`open`] may create the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Create it when the file does not exist (or is empty): `history add`.
    Create,
    /// It must exist: `history check`, `history export`.
    Existing,
}

/// Opens the history `db` names: a SQLite file path, or a `postgres://` URL (with the
/// `postgres` feature).
pub fn open(db: &str, mode: OpenMode) -> Result<Box<dyn Store>, HistoryError> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        #[cfg(feature = "postgres")]
        return Ok(Box::new(pgsql::PgStore::open(db, mode)?));
        #[cfg(not(feature = "postgres"))]
        return Err(HistoryError::Unsupported(db.split('@').next_back().unwrap_or(db).to_owned()));
    }
    Ok(Box::new(sqlite::SqliteStore::open(std::path::Path::new(db), mode)?))
}
