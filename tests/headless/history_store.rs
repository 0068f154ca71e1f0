//! The history database under stress (issue 37): 8 `history add` processes at once lose
//! no run; one killed with SIGKILL inside its transaction leaves the database
//! consistent and its runs absent; a damaged, foreign or non-database file gives a
//! clear error and is never modified; outputs never overwrite the database.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use super::history_gen::{capture, history};
use crate::common::TempDir;
use framescope_history::OpenMode;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn add_command(db: &Path, build: &str, files: &[PathBuf]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_framescope"));
    c.args(["history", "add"]).arg(db).args(["--build", build]).args(files);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn stored(db: &Path) -> Vec<framescope_history::StoredRun> {
    let mut store = framescope_history::open(db.to_str().unwrap(), OpenMode::Existing).expect("open");
    assert_eq!(store.integrity().expect("integrity"), Vec::<String>::new());
    store.runs().expect("runs")
}

#[test]
fn eight_concurrent_adds_lose_no_run() {
    let dir = TempDir::new("history-concurrent");
    let db = dir.0.join("h.db");
    let batches: Vec<Vec<PathBuf>> = (0..8)
        .map(|k| {
            (0..3)
                .map(|r| {
                    capture(&dir, &format!("c{k}-{r}.csv"), "game.exe", 1.0 + 0.01 * f64::from(k * 3 + r))
                })
                .collect()
        })
        .collect();
    let start = Instant::now();
    // All eight start before any is waited for, on a database that does not exist yet.
    let children: Vec<_> = batches
        .iter()
        .enumerate()
        .map(|(k, files)| add_command(&db, &format!("build-{k}"), files).spawn().expect("spawn"))
        .collect();
    for child in children {
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    eprintln!("8 concurrent history add (3 captures each): {:?}", start.elapsed());
    let runs = stored(&db);
    assert_eq!(runs.len(), 24);
    for k in 0..8 {
        assert_eq!(runs.iter().filter(|r| r.run.place.build == format!("build-{k}")).count(), 3);
    }
}

#[test]
fn an_add_killed_mid_transaction_leaves_the_history_consistent() {
    let dir = TempDir::new("history-sigkill");
    let db = dir.0.join("h.db");
    let first = capture(&dir, "first.csv", "game.exe", 1.0);
    assert!(add_command(&db, "1", &[first]).output().expect("add").status.success());
    let files: Vec<PathBuf> =
        (0..4).map(|r| capture(&dir, &format!("k{r}.csv"), "game.exe", 1.1 + 0.01 * f64::from(r))).collect();
    let marker = dir.0.join("holding");
    let mut child = add_command(&db, "2", &files)
        .env("FRAMESCOPE_TEST_HOLD_TRANSACTION", &marker)
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + Duration::from_mins(1);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the add never reached its transaction");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Its four runs are written, not committed: SIGKILL now.
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let runs = stored(&db);
    assert_eq!(runs.len(), 1, "the killed add's runs are absent");
    assert_eq!(runs[0].run.place.build, "1");
    // The history takes the same captures again.
    let out = add_command(&db, "2", &files).output().expect("add again");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).matches("added ").count(), 4);
    assert_eq!(stored(&db).len(), 5);
}

/// Every history command on `db` exits 1 with `words` in its message and leaves the
/// file's bytes (and its folder) as they were.
fn refused_untouched(dir: &TempDir, db: &Path, words: &str) {
    let before = std::fs::read(db).unwrap();
    let listing = || {
        let mut names: Vec<_> = std::fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let files_before = listing();
    let capture = dir.0.join("ok.csv");
    let csv = dir.0.join("out.csv");
    let d = db.as_os_str();
    for args in [
        vec!["add".as_ref(), d, "--build".as_ref(), "1".as_ref(), capture.as_os_str()],
        vec!["check".as_ref(), d],
        vec!["export".as_ref(), d, "--format".as_ref(), "csv".as_ref(), "-o".as_ref(), csv.as_os_str()],
    ] {
        let out = history(&args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(words), "{args:?}: {}", out.stderr);
        assert_eq!(std::fs::read(db).unwrap(), before, "{args:?} changed the file");
        assert_eq!(listing(), files_before, "{args:?} left files beside it");
    }
}

#[test]
fn damaged_foreign_and_non_database_files_are_refused_and_unchanged() {
    let dir = TempDir::new("history-bad-db");
    capture(&dir, "ok.csv", "game.exe", 1.0);
    let text = dir.file("notes.db", b"this is not a database\n");
    refused_untouched(&dir, &text, "not a framescope history");
    std::fs::remove_file(&text).unwrap();

    let foreign = dir.0.join("foreign.db");
    {
        let conn = rusqlite::Connection::open(&foreign).unwrap();
        conn.execute_batch("CREATE TABLE customers (name TEXT); INSERT INTO customers VALUES ('ada');")
            .unwrap();
    }
    refused_untouched(&dir, &foreign, "another application");
    std::fs::remove_file(&foreign).unwrap();

    // A real history cut in half.
    let db = dir.0.join("cut.db");
    let many: Vec<PathBuf> =
        (0..12).map(|k| capture(&dir, &format!("m{k}.csv"), "game.exe", 1.0 + 0.01 * f64::from(k))).collect();
    assert!(add_command(&db, "1", &many).output().unwrap().status.success());
    for f in &many {
        std::fs::remove_file(f).unwrap();
    }
    let bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() >= 8 * 4096, "{} bytes", bytes.len());
    std::fs::write(&db, &bytes[..bytes.len() / 2]).unwrap();
    refused_untouched(&dir, &db, "not a framescope history");
}

#[test]
fn outputs_never_overwrite_the_history() {
    let dir = TempDir::new("history-outputs");
    let db = dir.0.join("h.db");
    let a = capture(&dir, "a.csv", "game.exe", 1.0);
    assert!(add_command(&db, "1", std::slice::from_ref(&a)).output().unwrap().status.success());
    let before = std::fs::read(&db).unwrap();
    let d = db.as_os_str();
    for args in [
        vec!["check".as_ref(), d, "--junit".as_ref(), d],
        vec!["check".as_ref(), d, "--markdown".as_ref(), d],
        vec!["export".as_ref(), d, "--format".as_ref(), "csv".as_ref(), "-o".as_ref(), d],
        vec!["add".as_ref(), d, "--build".as_ref(), OsStr::new("2"), a.as_os_str(), d],
    ] {
        let out = history(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("input") || out.stderr.contains("DB"), "{}", out.stderr);
        assert_eq!(std::fs::read(&db).unwrap(), before);
    }
}

/// Two large captures in one add on two cores: loading must not run on rayon's workers
/// (a file's load blocks on its own rayon pipeline: this deadlocked).
#[test]
fn large_captures_in_one_add_do_not_deadlock() {
    let dir = TempDir::new("history-large");
    let files: Vec<PathBuf> = ["synthetic-run-a.csv", "synthetic-run-b.csv", "synthetic-run-a.csv"]
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let mut bytes =
                std::fs::read(crate::common::repo_file(&format!("sample-traces/{name}"))).unwrap();
            bytes.extend(std::iter::repeat_n(b'\n', k));
            dir.file(&format!("large-{k}.csv"), &bytes)
        })
        .collect();
    let mut child = add_command(&dir.0.join("h.db"), "1", &files).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_mins(1);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("history add of three large captures did not finish in a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(stored(&dir.0.join("h.db")).len(), 3);
}
