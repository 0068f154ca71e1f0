//! The history in PostgreSQL (issue 37): with `FRAMESCOPE_TEST_POSTGRES` the URL of a
//! server's database (`.ci/postgres.sh start` prints one; `.ci/run` sets it and
//! `FRAMESCOPE_REQUIRE_POSTGRES=1`), each test creates a database of its own with psql.
//! The same captures give the same `history check` and `export` in PostgreSQL as in
//! SQLite (one code path above the storage); 8 `history add` processes at once lose no
//! run; an add killed inside its transaction leaves its runs absent.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use super::history_gen::{capture, history};
use crate::common::TempDir;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A new empty database's URL, or `None` (skipped) without a server.
fn database(name: &str) -> Option<String> {
    if cfg!(windows) {
        // The Windows build's tests run under Wine (.ci/windows.sh), which has no psql;
        // the PostgreSQL path is the same code, held to these tests on Linux.
        eprintln!("skipping: the PostgreSQL tests run on Linux (.ci/run), not under Wine");
        return None;
    }
    let Ok(url) = std::env::var("FRAMESCOPE_TEST_POSTGRES") else {
        assert!(
            std::env::var("FRAMESCOPE_REQUIRE_POSTGRES").as_deref() != Ok("1"),
            "FRAMESCOPE_REQUIRE_POSTGRES=1 but FRAMESCOPE_TEST_POSTGRES is not set (.ci/postgres.sh start DIR)"
        );
        eprintln!("skipping: no FRAMESCOPE_TEST_POSTGRES (.ci/postgres.sh start DIR prints one)");
        return None;
    };
    let db = format!("fs_{}_{name}", std::process::id());
    for sql in [format!("DROP DATABASE IF EXISTS {db}"), format!("CREATE DATABASE {db}")] {
        let out = Command::new("psql").arg(&url).args(["-q", "-c", &sql]).output().expect("psql");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
    Some(format!("{base}/{db}"))
}

fn add(db: &str, build: &str, files: &[PathBuf]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_framescope"));
    c.args(["history", "add", db, "--build", build])
        .args(files)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// The export without the `added` column (when each was added differs).
fn exported(db: &str, dir: &TempDir, name: &str) -> Vec<String> {
    let csv = dir.0.join(name);
    let out = history(&[
        "export".as_ref(),
        db.as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
        "-o".as_ref(),
        csv.as_os_str(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = std::fs::read_to_string(csv).unwrap();
    text.lines()
        .map(|l| {
            l.split(',').enumerate().filter(|(i, _)| *i != 5).map(|(_, c)| c).collect::<Vec<_>>().join(",")
        })
        .collect()
}

#[test]
fn postgres_and_sqlite_histories_agree() {
    let Some(url) = database("agree") else { return };
    let dir = TempDir::new("history-pg-agree");
    let sqlite = dir.0.join("h.db");
    let sqlite = sqlite.to_str().unwrap();
    for k in 1..=5 {
        let files = [
            capture(
                &dir,
                &format!("a{k}.csv"),
                "game.exe",
                if k == 5 { 1.1 } else { 1.0 + 0.001 * f64::from(k) },
            ),
            capture(&dir, &format!("b{k}.csv"), "game.exe", 1.0 + 0.002 * f64::from(k)),
        ];
        for db in [url.as_str(), sqlite] {
            let out = add(db, &format!("b{k}"), &files).output().unwrap();
            assert!(out.status.success(), "{db}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let again = add(&url, "b9", &[dir.0.join("a1.csv")]).output().unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("already in the history"));
    let check = |db: &str| history(&["check".as_ref(), db.as_ref(), "--json".as_ref()]);
    let (pg, lite) = (check(&url), check(sqlite));
    assert_eq!((pg.code, lite.code), (3, 3), "{}", pg.stderr);
    assert_eq!(pg.stdout, lite.stdout);
    assert_eq!(exported(&url, &dir, "pg.csv"), exported(sqlite, &dir, "sqlite.csv"));
}

#[test]
fn eight_concurrent_adds_to_postgres_lose_no_run() {
    let Some(url) = database("concurrent") else { return };
    let dir = TempDir::new("history-pg-concurrent");
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
    let children: Vec<_> = batches
        .iter()
        .enumerate()
        .map(|(k, f)| add(&url, &format!("build-{k}"), f).spawn().unwrap())
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    eprintln!("8 concurrent history add to PostgreSQL (3 captures each): {:?}", start.elapsed());
    let mut store = framescope_history::open(&url, framescope_history::OpenMode::Existing).unwrap();
    assert_eq!(store.runs().unwrap().len(), 24);
    assert!(store.integrity().unwrap().is_empty());
}

#[test]
fn an_add_killed_mid_transaction_leaves_postgres_consistent() {
    let Some(url) = database("sigkill") else { return };
    let dir = TempDir::new("history-pg-sigkill");
    assert!(
        add(&url, "1", &[capture(&dir, "first.csv", "game.exe", 1.0)]).output().unwrap().status.success()
    );
    let files: Vec<PathBuf> =
        (0..4).map(|r| capture(&dir, &format!("k{r}.csv"), "game.exe", 1.1 + 0.01 * f64::from(r))).collect();
    let marker = dir.0.join("holding");
    let mut child = add(&url, "2", &files).env("FRAMESCOPE_TEST_HOLD_TRANSACTION", &marker).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_mins(1);
    while !marker.exists() {
        assert!(Instant::now() < deadline, "the add never reached its transaction");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    let _ = child.wait();
    // The server rolls the transaction back once it sees the connection gone.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let out = add(&url, "2", &files).output().unwrap();
        if out.status.success() {
            assert_eq!(String::from_utf8_lossy(&out.stdout).matches("added ").count(), 4);
            break;
        }
        assert!(Instant::now() < deadline, "{}", String::from_utf8_lossy(&out.stderr));
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut store = framescope_history::open(&url, framescope_history::OpenMode::Existing).unwrap();
    assert_eq!(store.runs().unwrap().len(), 5);
    assert!(store.integrity().unwrap().is_empty());
}
