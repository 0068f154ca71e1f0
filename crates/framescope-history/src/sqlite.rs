//! The SQLite store: one file, WAL (readers never wait for the writer), a busy timeout
//! (several CI jobs adding at once wait their turn), every addition one transaction.
//! A file that is not a SQLite database, or is another application's, is refused
//! before anything is written to it.

use crate::schema::{APPLICATION_ID, MIGRATIONS, VERSION};
use crate::{Added, HistoryError, NewRun, OpenMode, Place, Sketch, Store, StoredRun, Time};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a writer waits for another's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_mins(2);

/// Testing hook: when set, [`Store::add`] creates this file once its rows are written
/// and then waits, inside the open transaction, for the test to kill the process.
const HOLD_ENV: &str = "FRAMESCOPE_TEST_HOLD_TRANSACTION";

/// A history in a SQLite file.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
}

/// What a file holds before it is opened for writing.
enum Found {
    /// Nothing: a new history.
    Empty,
    /// A history of this schema version.
    History(u32),
}

impl SqliteStore {
    /// Opens (with [`OpenMode::Create`], creates) the history in `path`.
    pub fn open(path: &Path, mode: OpenMode) -> Result<Self, HistoryError> {
        let exists = path.exists();
        if !exists && mode == OpenMode::Existing {
            return Err(HistoryError::Missing { path: path.to_owned() });
        }
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if !exists {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let conn = Connection::open_with_flags(path, flags).map_err(|e| {
            if exists {
                not_a_database(path, &e)
            } else {
                HistoryError::CannotCreate { path: path.to_owned(), detail: e.to_string() }
            }
        })?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        match inspect(&conn, path)? {
            Found::Empty if mode == OpenMode::Existing => {
                return Err(HistoryError::Missing { path: path.to_owned() });
            }
            Found::History(v) if v > VERSION => {
                return Err(HistoryError::TooNew { path: path.to_owned(), found: v, supported: VERSION });
            }
            Found::History(_) => {
                let problems = integrity(&conn, "quick_check").map_err(|e| not_a_database(path, &e))?;
                if let Some(first) = problems.first() {
                    return Err(HistoryError::NotADatabase {
                        path: path.to_owned(),
                        detail: format!("damaged: {first}"),
                    });
                }
            }
            Found::Empty => {}
        }
        // Ours (or new): only now is anything written.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Self { conn };
        store.migrate(path, VERSION)?;
        Ok(store)
    }

    /// Applies the migrations up to `target` in one transaction (another process may
    /// have done it meanwhile: the version is read again inside it).
    pub(crate) fn migrate(&mut self, path: &Path, target: u32) -> Result<(), HistoryError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let from = match inspect(&tx, path)? {
            Found::Empty => {
                tx.pragma_update(None, "application_id", APPLICATION_ID)?;
                0
            }
            Found::History(v) => v,
        };
        for (k, sql) in MIGRATIONS.iter().enumerate().take(target as usize).skip(from as usize) {
            tx.execute_batch(sql)?;
            tx.execute(
                "INSERT INTO framescope_meta (key, value) VALUES ('schema_version', ?1)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [(k + 1).to_string()],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    #[cfg(test)]
    pub(crate) fn connection(&self) -> &Connection {
        &self.conn
    }
}

fn not_a_database(path: &Path, e: &rusqlite::Error) -> HistoryError {
    HistoryError::NotADatabase { path: path.to_owned(), detail: e.to_string() }
}

/// Reads, without writing, what the file holds.
fn inspect(conn: &Connection, path: &Path) -> Result<Found, HistoryError> {
    let bad = |e: rusqlite::Error| not_a_database(path, &e);
    let app: i64 = conn.pragma_query_value(None, "application_id", |r| r.get(0)).map_err(bad)?;
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0)).map_err(bad)?;
    if app == 0 && tables == 0 {
        return Ok(Found::Empty);
    }
    if app != APPLICATION_ID {
        return Err(HistoryError::Foreign { path: path.to_owned() });
    }
    let version: Option<String> = conn
        .query_row("SELECT value FROM framescope_meta WHERE key = 'schema_version'", [], |r| r.get(0))
        .optional()
        .map_err(|_| HistoryError::Foreign { path: path.to_owned() })?;
    match version.map(|v| v.parse::<u32>()) {
        Some(Ok(v)) => Ok(Found::History(v)),
        None if tables == 0 => Ok(Found::Empty),
        _ => Err(HistoryError::Damaged(format!("{}: no readable schema version", path.display()))),
    }
}

/// SQLite's `integrity_check` or `quick_check`: the problems found (none when "ok").
fn integrity(conn: &Connection, pragma: &str) -> Result<Vec<String>, rusqlite::Error> {
    let mut q = conn.prepare(&format!("PRAGMA {pragma}"))?;
    let rows: Vec<String> = q.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
    Ok(rows.into_iter().filter(|r| r != "ok").collect())
}

pub(crate) fn now_unix() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

fn json(v: &impl serde::Serialize) -> Result<String, HistoryError> {
    serde_json::to_string(v).map_err(|e| HistoryError::Damaged(e.to_string()))
}

/// Inserts one run and its figures; its row.
fn insert(tx: &rusqlite::Transaction<'_>, run: &NewRun, added: i64) -> Result<i64, HistoryError> {
    let p = &run.place;
    tx.execute(
        "INSERT INTO runs (build, scene, commit_sha, branch, time_unix, added_unix, file, content_hash,
                           trace, application, format, frames, settings, system, sketch)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            p.build,
            p.scene,
            p.commit,
            p.branch,
            p.time.map(|t| t.unix),
            added,
            run.file,
            run.content_hash,
            run.trace,
            run.application,
            run.format,
            run.frames as i64,
            json(&run.settings)?,
            json(&run.system)?,
            json(&run.sketch)?,
        ],
    )?;
    let id = tx.last_insert_rowid();
    let mut fig = tx.prepare_cached("INSERT INTO figures (run_id, figure, value) VALUES (?1, ?2, ?3)")?;
    for (name, value) in run.figures.iter().filter(|(_, v)| v.is_finite()) {
        fig.execute(params![id, name, value])?;
    }
    Ok(id)
}

/// The testing hook of [`HOLD_ENV`].
pub(crate) fn hold_if_asked() {
    if let Some(marker) = std::env::var_os(HOLD_ENV) {
        let _ = std::fs::write(PathBuf::from(marker), b"holding");
        std::thread::sleep(Duration::from_mins(1));
    }
}

impl Store for SqliteStore {
    fn add(&mut self, runs: &[NewRun]) -> Result<Vec<Added>, HistoryError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let added = now_unix();
        let mut out = Vec::with_capacity(runs.len());
        for run in runs {
            let stored: Option<(i64, String)> = tx
                .query_row(
                    "SELECT id, build FROM runs WHERE content_hash = ?1 AND trace = ?2",
                    params![run.content_hash, run.trace],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            out.push(match stored {
                Some((id, build)) => Added::AlreadyThere { id, build },
                None => Added::Stored { id: insert(&tx, run, added)? },
            });
        }
        hold_if_asked();
        tx.commit()?;
        Ok(out)
    }

    fn runs(&mut self) -> Result<Vec<StoredRun>, HistoryError> {
        let tx = self.conn.transaction()?;
        let mut figures: BTreeMap<i64, BTreeMap<String, f64>> = BTreeMap::new();
        {
            let mut q = tx.prepare("SELECT run_id, figure, value FROM figures")?;
            let mut rows = q.query([])?;
            while let Some(r) = rows.next()? {
                figures.entry(r.get(0)?).or_default().insert(r.get(1)?, r.get(2)?);
            }
        }
        let mut q = tx.prepare(
            "SELECT id, added_unix, build, scene, commit_sha, branch, time_unix, file, content_hash, trace,
                    application, format, frames, settings, system, sketch FROM runs ORDER BY id",
        )?;
        let mut rows = q.query([])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            out.push(stored_run(r, figures.remove(&id).unwrap_or_default())?);
        }
        Ok(out)
    }

    fn integrity(&mut self) -> Result<Vec<String>, HistoryError> {
        let mut problems = integrity(&self.conn, "integrity_check")?;
        let mut q = self.conn.prepare("PRAGMA foreign_key_check")?;
        let orphans = q.query_map([], |r| r.get::<_, String>(0))?.count();
        if orphans > 0 {
            problems.push(format!("{orphans} rows refer to missing rows"));
        }
        Ok(problems)
    }

    fn schema_version(&mut self) -> Result<u32, HistoryError> {
        let v: String = self.conn.query_row(
            "SELECT value FROM framescope_meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )?;
        v.parse().map_err(|_| HistoryError::Damaged(format!("schema version {v:?}")))
    }
}

/// A `runs` row (columns as [`Store::runs`] selects them) with its figures.
fn stored_run(r: &rusqlite::Row<'_>, figures: BTreeMap<String, f64>) -> Result<StoredRun, HistoryError> {
    let parse = |text: String| -> Result<serde_json::Value, HistoryError> {
        serde_json::from_str(&text).map_err(|e| HistoryError::Damaged(e.to_string()))
    };
    let sketch: Option<String> = r.get(15)?;
    let sketch = match sketch {
        Some(s) => serde_json::from_str(&s).map_err(|e| HistoryError::Damaged(e.to_string()))?,
        None => Sketch::of(&[]),
    };
    let time: Option<i64> = r.get(6)?;
    let frames: i64 = r.get(12)?;
    Ok(StoredRun {
        id: r.get(0)?,
        added_unix: r.get(1)?,
        run: NewRun {
            place: Place {
                build: r.get(2)?,
                scene: r.get(3)?,
                commit: r.get(4)?,
                branch: r.get(5)?,
                time: time.map(|unix| Time { unix }),
            },
            file: r.get(7)?,
            content_hash: r.get(8)?,
            trace: r.get(9)?,
            application: r.get(10)?,
            format: r.get(11)?,
            frames: frames.max(0) as u64,
            figures,
            settings: parse(r.get(13)?)?,
            system: parse(r.get(14)?)?,
            sketch,
        },
    })
}

#[cfg(test)]
#[path = "sqlite_tests.rs"]
mod tests;
