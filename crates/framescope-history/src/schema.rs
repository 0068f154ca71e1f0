//! The history's tables, one migration per schema version. A history records its
//! version in `framescope_meta` (`schema_version`); opening an older one applies the
//! missing migrations in one transaction, a newer one is refused.

/// SQLite's `application_id` of a framescope history ("FSHY"): what tells our file from
/// another application's SQLite database.
pub(crate) const APPLICATION_ID: i64 = 0x4653_4859;

/// The migrations, oldest first: `MIGRATIONS[k]` takes a history from version `k` to
/// `k + 1`. Never edit one that has shipped; add the next.
pub(crate) const MIGRATIONS: [&str; 2] = [
    // 1: runs, their figures, the meta table.
    "CREATE TABLE framescope_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE runs (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         build TEXT NOT NULL,
         scene TEXT NOT NULL,
         commit_sha TEXT,
         branch TEXT,
         time_unix INTEGER,
         added_unix INTEGER NOT NULL,
         file TEXT NOT NULL,
         content_hash TEXT NOT NULL,
         trace TEXT NOT NULL,
         application TEXT NOT NULL,
         format TEXT NOT NULL,
         frames INTEGER NOT NULL,
         settings TEXT NOT NULL,
         system TEXT NOT NULL,
         UNIQUE (content_hash, trace)
     );
     CREATE TABLE figures (
         run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
         figure TEXT NOT NULL,
         value REAL NOT NULL,
         PRIMARY KEY (run_id, figure)
     ) WITHOUT ROWID;",
    // 2: each run's frame-time sketch (null for runs stored by version 1), and the
    // index `history check` reads scenes and builds by.
    "ALTER TABLE runs ADD COLUMN sketch TEXT;
     CREATE INDEX runs_scene_build ON runs (scene, build);",
];

/// The version this build writes and reads.
pub(crate) const VERSION: u32 = MIGRATIONS.len() as u32;

/// The same schema in PostgreSQL, in the schema `framescope` (a database may hold other
/// applications' tables): `PG_MIGRATIONS[k]` takes version k to k + 1, as [`MIGRATIONS`].
#[cfg(feature = "postgres")]
pub(crate) const PG_MIGRATIONS: [&str; 2] = [
    "CREATE TABLE framescope.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE framescope.runs (
         id BIGSERIAL PRIMARY KEY,
         build TEXT NOT NULL,
         scene TEXT NOT NULL,
         commit_sha TEXT,
         branch TEXT,
         time_unix BIGINT,
         added_unix BIGINT NOT NULL,
         file TEXT NOT NULL,
         content_hash TEXT NOT NULL,
         trace TEXT NOT NULL,
         application TEXT NOT NULL,
         format TEXT NOT NULL,
         frames BIGINT NOT NULL,
         settings TEXT NOT NULL,
         system TEXT NOT NULL,
         UNIQUE (content_hash, trace)
     );
     CREATE TABLE framescope.figures (
         run_id BIGINT NOT NULL REFERENCES framescope.runs(id) ON DELETE CASCADE,
         figure TEXT NOT NULL,
         value DOUBLE PRECISION NOT NULL,
         PRIMARY KEY (run_id, figure)
     );",
    "ALTER TABLE framescope.runs ADD COLUMN sketch TEXT;
     CREATE INDEX runs_scene_build ON framescope.runs (scene, build);",
];
