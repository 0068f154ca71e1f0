// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::float_cmp)]

use super::*;
use crate::schema::MIGRATIONS;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fs-history-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("history.db")
}

pub(crate) fn run(build: &str, hash: &str, fps: f64) -> NewRun {
    NewRun {
        place: Place { build: build.into(), scene: "scene".into(), ..Place::default() },
        file: format!("{hash}.csv"),
        content_hash: hash.into(),
        trace: "game.exe 7".into(),
        application: "game.exe".into(),
        format: "PresentMon".into(),
        frames: 100,
        figures: [("summary.avg_fps".to_owned(), fps)].into_iter().collect(),
        settings: serde_json::json!({ "target_fps": 60.0 }),
        system: serde_json::json!([]),
        sketch: Sketch::of(&[10.0, 20.0]),
    }
}

#[test]
fn runs_round_trip_and_the_same_capture_is_added_once() {
    let path = temp("round-trip");
    let mut store = SqliteStore::open(&path, OpenMode::Create).expect("create");
    assert_eq!(store.schema_version().expect("version"), VERSION);
    let mut a = run("b1", "aa", 60.0);
    a.place.time = Some(Time { unix: 1_700_000_000 });
    a.place.commit = Some("abc".into());
    let added = store.add(&[a.clone(), run("b1", "bb", 61.0)]).expect("add");
    assert!(matches!(added[..], [Added::Stored { .. }, Added::Stored { .. }]));
    let again = store.add(&[run("b2", "aa", 1.0)]).expect("add again");
    assert!(matches!(&again[..], [Added::AlreadyThere { build, .. }] if build == "b1"));
    let runs = store.runs().expect("runs");
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].run, a);
    // A new connection reads the same.
    drop(store);
    let mut store = SqliteStore::open(&path, OpenMode::Existing).expect("reopen");
    assert_eq!(store.runs().expect("runs").len(), 2);
}

#[test]
fn a_version_1_history_is_migrated_and_keeps_its_runs() {
    let path = temp("migrate");
    {
        let conn = Connection::open(&path).expect("open");
        conn.pragma_update(None, "application_id", APPLICATION_ID).expect("id");
        conn.execute_batch(MIGRATIONS[0]).expect("v1");
        conn.execute_batch(
            "INSERT INTO framescope_meta VALUES ('schema_version', '1');
             INSERT INTO runs (build, scene, added_unix, file, content_hash, trace, application, format,
                               frames, settings, system)
             VALUES ('old', 's', 1, 'a.csv', 'h', 't', 'game.exe', 'PresentMon', 10, '{}', '[]');
             INSERT INTO figures VALUES (1, 'summary.avg_fps', 59.5);",
        )
        .expect("v1 rows");
    }
    let mut store = SqliteStore::open(&path, OpenMode::Existing).expect("migrate");
    assert_eq!(store.schema_version().expect("version"), 2);
    let runs = store.runs().expect("runs");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].run.place.build, "old");
    assert_eq!(runs[0].run.figures["summary.avg_fps"], 59.5);
    assert_eq!(runs[0].run.sketch.frames, 0, "schema 1 had no sketch");
    let index: i64 = store
        .connection()
        .query_row("SELECT count(*) FROM sqlite_master WHERE name = 'runs_scene_build'", [], |r| r.get(0))
        .expect("index");
    assert_eq!(index, 1);
    // A second add works on the migrated file.
    store.add(&[run("new", "h2", 60.0)]).expect("add");
}

#[test]
fn newer_foreign_and_non_databases_are_refused_untouched() {
    let path = temp("newer");
    drop(SqliteStore::open(&path, OpenMode::Create).expect("create"));
    {
        let conn = Connection::open(&path).expect("open");
        conn.execute("UPDATE framescope_meta SET value = '99' WHERE key = 'schema_version'", [])
            .expect("bump");
    }
    let err = SqliteStore::open(&path, OpenMode::Create).expect_err("newer");
    assert!(matches!(err, HistoryError::TooNew { found: 99, supported: 2, .. }), "{err}");

    let foreign = temp("foreign");
    {
        let conn = Connection::open(&foreign).expect("open");
        conn.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);").expect("foreign");
    }
    let before = std::fs::read(&foreign).expect("read");
    let err = SqliteStore::open(&foreign, OpenMode::Create).expect_err("foreign");
    assert!(matches!(err, HistoryError::Foreign { .. }), "{err}");
    assert_eq!(std::fs::read(&foreign).expect("read"), before);

    let text = temp("text");
    std::fs::write(&text, "frame,time\n1,2\n".repeat(100)).expect("write");
    let before = std::fs::read(&text).expect("read");
    let err = SqliteStore::open(&text, OpenMode::Create).expect_err("text");
    assert!(matches!(err, HistoryError::NotADatabase { .. }), "{err}");
    assert!(err.to_string().contains("left unchanged"), "{err}");
    assert_eq!(std::fs::read(&text).expect("read"), before);

    let nowhere = temp("nowhere").join("no-such-folder").join("h.db");
    let err = SqliteStore::open(&nowhere, OpenMode::Create).expect_err("no folder");
    assert!(matches!(err, HistoryError::CannotCreate { .. }), "{err}");

    let missing = temp("missing");
    let err = SqliteStore::open(&missing, OpenMode::Existing).expect_err("missing");
    assert!(matches!(err, HistoryError::Missing { .. }), "{err}");
    assert!(!missing.exists());
}
