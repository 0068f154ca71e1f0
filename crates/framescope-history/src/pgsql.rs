//! The PostgreSQL store (`postgres://` URLs): the same tables and migrations as SQLite's
//! in a schema `framescope` of the database, for CI agents on many machines. Migrations
//! run under a transaction-scoped advisory lock; an addition is one transaction whose
//! inserts skip a capture stored already (`ON CONFLICT DO NOTHING`: two agents adding one
//! capture at once store it once).

use crate::schema::{PG_MIGRATIONS, VERSION};
use crate::{Added, HistoryError, NewRun, OpenMode, Place, Sketch, Store, StoredRun, Time};
use postgres::{Client, NoTls, Row, Transaction};
use std::collections::BTreeMap;

/// The advisory lock that serialises migrations ("FSHY").
const MIGRATION_LOCK: i64 = 0x4653_4859;

/// A history in PostgreSQL.
pub struct PgStore {
    client: Client,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PgStore")
    }
}

fn pg(e: &postgres::Error) -> HistoryError {
    HistoryError::Postgres(e.to_string())
}

/// The schema version stored, `None` without a history.
fn version(tx: &mut Transaction<'_>) -> Result<Option<u32>, HistoryError> {
    let exists: bool =
        tx.query_one("SELECT to_regclass('framescope.meta') IS NOT NULL", &[]).map_err(|e| pg(&e))?.get(0);
    if !exists {
        return Ok(None);
    }
    let row = tx
        .query_opt("SELECT value FROM framescope.meta WHERE key = 'schema_version'", &[])
        .map_err(|e| pg(&e))?;
    let text: Option<String> = row.map(|r| r.get(0));
    text.map(|t| t.parse().map_err(|_| HistoryError::Damaged(format!("schema version {t:?}")))).transpose()
}

impl PgStore {
    /// Connects to `url` and opens (with [`OpenMode::Create`], creates) its history.
    pub fn open(url: &str, mode: OpenMode) -> Result<Self, HistoryError> {
        let client = Client::connect(url, NoTls).map_err(|e| pg(&e))?;
        let mut store = Self { client };
        let mut tx = store.client.transaction().map_err(|e| pg(&e))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).map_err(|e| pg(&e))?;
        let found = version(&mut tx)?;
        match found {
            None if mode == OpenMode::Existing => {
                return Err(HistoryError::Postgres("the database holds no framescope history".into()));
            }
            Some(v) if v > VERSION => {
                return Err(HistoryError::Postgres(format!(
                    "a history of schema version {v}, newer than this framescope reads (up to {VERSION})"
                )));
            }
            _ => {}
        }
        let from = found.unwrap_or(0);
        if from == 0 {
            tx.batch_execute("CREATE SCHEMA IF NOT EXISTS framescope").map_err(|e| pg(&e))?;
        }
        for (k, sql) in PG_MIGRATIONS.iter().enumerate().skip(from as usize) {
            tx.batch_execute(sql).map_err(|e| pg(&e))?;
            tx.execute(
                "INSERT INTO framescope.meta (key, value) VALUES ('schema_version', $1)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&(k + 1).to_string()],
            )
            .map_err(|e| pg(&e))?;
        }
        tx.commit().map_err(|e| pg(&e))?;
        Ok(store)
    }
}

fn json(v: &impl serde::Serialize) -> Result<String, HistoryError> {
    serde_json::to_string(v).map_err(|e| HistoryError::Damaged(e.to_string()))
}

/// Inserts a run unless its capture is stored; what happened.
fn insert(tx: &mut Transaction<'_>, run: &NewRun, added: i64) -> Result<Added, HistoryError> {
    let p = &run.place;
    let frames = i64::try_from(run.frames).unwrap_or(i64::MAX);
    let inserted = tx
        .query_opt(
            "INSERT INTO framescope.runs (build, scene, commit_sha, branch, time_unix, added_unix, file,
                 content_hash, trace, application, format, frames, settings, system, sketch)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
             ON CONFLICT (content_hash, trace) DO NOTHING RETURNING id",
            &[
                &p.build,
                &p.scene,
                &p.commit,
                &p.branch,
                &p.time.map(|t| t.unix),
                &added,
                &run.file,
                &run.content_hash,
                &run.trace,
                &run.application,
                &run.format,
                &frames,
                &json(&run.settings)?,
                &json(&run.system)?,
                &json(&run.sketch)?,
            ],
        )
        .map_err(|e| pg(&e))?;
    let Some(row) = inserted else {
        let row = tx
            .query_one(
                "SELECT id, build FROM framescope.runs WHERE content_hash = $1 AND trace = $2",
                &[&run.content_hash, &run.trace],
            )
            .map_err(|e| pg(&e))?;
        return Ok(Added::AlreadyThere { id: row.get(0), build: row.get(1) });
    };
    let id: i64 = row.get(0);
    let fig = tx
        .prepare("INSERT INTO framescope.figures (run_id, figure, value) VALUES ($1, $2, $3)")
        .map_err(|e| pg(&e))?;
    for (name, value) in run.figures.iter().filter(|(_, v)| v.is_finite()) {
        tx.execute(&fig, &[&id, name, value]).map_err(|e| pg(&e))?;
    }
    Ok(Added::Stored { id })
}

/// A `runs` row with its figures.
fn stored_run(r: &Row, figures: BTreeMap<String, f64>) -> Result<StoredRun, HistoryError> {
    let parse = |text: String| -> Result<serde_json::Value, HistoryError> {
        serde_json::from_str(&text).map_err(|e| HistoryError::Damaged(e.to_string()))
    };
    let sketch: Option<String> = r.get(15);
    let sketch = match sketch {
        Some(s) => serde_json::from_str(&s).map_err(|e| HistoryError::Damaged(e.to_string()))?,
        None => Sketch::of(&[]),
    };
    let time: Option<i64> = r.get(6);
    let frames: i64 = r.get(12);
    Ok(StoredRun {
        id: r.get(0),
        added_unix: r.get(1),
        run: NewRun {
            place: Place {
                build: r.get(2),
                scene: r.get(3),
                commit: r.get(4),
                branch: r.get(5),
                time: time.map(|unix| Time { unix }),
            },
            file: r.get(7),
            content_hash: r.get(8),
            trace: r.get(9),
            application: r.get(10),
            format: r.get(11),
            frames: frames.max(0) as u64,
            figures,
            settings: parse(r.get(13))?,
            system: parse(r.get(14))?,
            sketch,
        },
    })
}

impl Store for PgStore {
    fn add(&mut self, runs: &[NewRun]) -> Result<Vec<Added>, HistoryError> {
        let added = crate::sqlite::now_unix();
        let mut tx = self.client.transaction().map_err(|e| pg(&e))?;
        let mut out = Vec::with_capacity(runs.len());
        for run in runs {
            out.push(insert(&mut tx, run, added)?);
        }
        crate::sqlite::hold_if_asked();
        tx.commit().map_err(|e| pg(&e))?;
        Ok(out)
    }

    fn runs(&mut self) -> Result<Vec<StoredRun>, HistoryError> {
        let mut tx = self.client.build_transaction().read_only(true).start().map_err(|e| pg(&e))?;
        let mut figures: BTreeMap<i64, BTreeMap<String, f64>> = BTreeMap::new();
        for r in tx.query("SELECT run_id, figure, value FROM framescope.figures", &[]).map_err(|e| pg(&e))? {
            figures.entry(r.get(0)).or_default().insert(r.get(1), r.get(2));
        }
        let rows = tx
            .query(
                "SELECT id, added_unix, build, scene, commit_sha, branch, time_unix, file, content_hash, trace,
                        application, format, frames, settings, system, sketch FROM framescope.runs ORDER BY id",
                &[],
            )
            .map_err(|e| pg(&e))?;
        let out = rows
            .iter()
            .map(|r| stored_run(r, figures.remove(&r.get::<_, i64>(0)).unwrap_or_default()))
            .collect();
        tx.commit().map_err(|e| pg(&e))?;
        out
    }

    fn integrity(&mut self) -> Result<Vec<String>, HistoryError> {
        // PostgreSQL keeps its own consistency; the foreign key is enforced. Count runs
        // without a figure row as a sign of a half-written run (there must be none).
        let row = self
            .client
            .query_one(
                "SELECT count(*) FROM framescope.runs r WHERE NOT EXISTS
                 (SELECT 1 FROM framescope.figures f WHERE f.run_id = r.id)",
                &[],
            )
            .map_err(|e| pg(&e))?;
        let n: i64 = row.get(0);
        Ok(if n == 0 { Vec::new() } else { vec![format!("{n} runs without figures")] })
    }

    fn schema_version(&mut self) -> Result<u32, HistoryError> {
        let mut tx = self.client.transaction().map_err(|e| pg(&e))?;
        let v = version(&mut tx)?;
        tx.commit().map_err(|e| pg(&e))?;
        v.ok_or_else(|| HistoryError::Damaged("no schema version".into()))
    }
}
