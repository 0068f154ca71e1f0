//! Issue 37's history of builds end to end: 14 builds of two scenes from generated runs
//! with known noise ([`history_gen`]), a 10 % step slowdown from build 9 in one scene and
//! a slow drift (0.1 % a build) in the other. `history check` flags exactly the stepped
//! build and the figures that moved (exit 3, each a change point), passes the builds
//! before it (exit 0) and never flags the drift; `history export` has every run; the
//! stored sketch redraws the percentile curve.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use super::history_gen::{NOISE, Rng, capture, history};
use crate::common::TempDir;
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

pub(super) const BUILDS: usize = 14;
/// The first slow build of scene alpha (1-based).
pub(super) const STEP_AT: usize = 9;
const STEP: f64 = 1.10;
const DRIFT: f64 = 0.001;

fn build_id(k: usize) -> String {
    format!("b{k:02}")
}

/// Writes the captures and adds every build (out of order: `--time` orders them).
pub(super) fn make_history(dir: &TempDir) -> PathBuf {
    let db = dir.0.join("history.db");
    let mut rng = Rng(2026);
    let mut order: Vec<usize> = (1..=BUILDS).collect();
    order.swap(2, 9);
    order.swap(5, 12);
    for k in order {
        let mut files = Vec::new();
        for run in 0..2 {
            let alpha = if k >= STEP_AT { STEP } else { 1.0 } * (1.0 + NOISE * rng.normal());
            let beta = (1.0 + DRIFT * k as f64) * (1.0 + NOISE * rng.normal());
            files.push(capture(dir, &format!("alpha-{k}-{run}.csv"), "alpha.exe", alpha));
            files.push(capture(dir, &format!("beta-{k}-{run}.csv"), "beta.exe", beta));
        }
        let id = build_id(k);
        let time = format!("2026-01-{k:02}T12:00:00Z");
        let mut args: Vec<&OsStr> = vec!["add".as_ref(), db.as_os_str(), "--build".as_ref(), id.as_ref()];
        args.extend(["--time", &time, "--commit", "c0ffee"].map(OsStr::new));
        args.extend(files.iter().map(|f| f.as_os_str()));
        let out = history(&args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_eq!(out.stdout.lines().filter(|l| l.starts_with("added ")).count(), 4, "{}", out.stdout);
    }
    db
}

fn check(db: &Path, build: &str) -> (i32, Value) {
    let out =
        history(&["check".as_ref(), db.as_os_str(), "--json".as_ref(), "--build".as_ref(), build.as_ref()]);
    let doc =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    (out.code, doc)
}

/// The figures of a scene with `verdict`.
fn with_verdict<'a>(doc: &'a Value, scene: &str, verdict: &str) -> Vec<&'a str> {
    let figs = doc["scenes"][scene].as_object().unwrap_or_else(|| panic!("no scene {scene}: {doc}"));
    figs.iter().filter(|(_, c)| c["verdict"] == verdict).map(|(k, _)| k.as_str()).collect()
}

#[test]
fn the_stepped_build_and_only_its_moved_figures_are_regressions() {
    let dir = TempDir::new("history-builds");
    let db = make_history(&dir);
    for k in 1..STEP_AT {
        let (code, doc) = check(&db, &build_id(k));
        assert_eq!(code, 0, "build {k}: {doc}");
        for scene in ["alpha.exe", "beta.exe"] {
            assert!(with_verdict(&doc, scene, "regression").is_empty(), "build {k} {scene}");
            let judged = with_verdict(&doc, scene, "not_judged").is_empty();
            assert_eq!(judged, k > 3, "build {k}: three earlier builds are needed");
        }
    }
    let (code, doc) = check(&db, &build_id(STEP_AT));
    assert_eq!(code, 3, "{doc}");
    let flagged = with_verdict(&doc, "alpha.exe", "regression");
    // The figures that moved: every time and rate, the peers' too; not the counts and
    // fractions a uniform slowdown leaves alone.
    for f in
        ["summary.avg_fps", "summary.p50_ms", "summary.p99_ms", "summary.low_1pct_fps", "pacing.steady_fps"]
    {
        assert!(flagged.contains(&f), "{f} not flagged: {flagged:?}");
    }
    for f in ["stutters.count", "stutters.time_fraction", "pacing.slow_time_fraction"] {
        assert!(!flagged.contains(&f), "{f} did not move but was flagged");
    }
    for f in &flagged {
        let c = &doc["scenes"]["alpha.exe"][f];
        let (v, m) = (c["value"].as_f64().unwrap(), c["median"].as_f64().unwrap());
        assert!(((v - m) / m).abs() > 0.05, "{f} flagged for a {:.2} % change", (v - m) / m * 100.0);
        assert_eq!(c["change_point"], true, "{f}: the step stays, so it is a change point");
    }
    assert!(with_verdict(&doc, "beta.exe", "regression").is_empty(), "the drift is no regression");
    // The drift stays below the rule in every build.
    for k in 4..=BUILDS {
        let (_, doc) = check(&db, &build_id(k));
        assert!(with_verdict(&doc, "beta.exe", "regression").is_empty(), "drift flagged at build {k}");
    }
    // The newest build is judged by default.
    let (_, newest) = check(&db, &build_id(BUILDS));
    let out = history(&["check".as_ref(), db.as_os_str(), "--json".as_ref()]);
    assert_eq!(serde_json::from_str::<Value>(&out.stdout).unwrap(), newest);
    exported_and_sketched(&dir, &db);
}

/// `history export` has every run with its figures; the sketch's p50 is the run's.
fn exported_and_sketched(dir: &TempDir, db: &Path) {
    let csv = dir.0.join("history.csv");
    let out = history(&[
        "export".as_ref(),
        db.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
        "-o".as_ref(),
        csv.as_os_str(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..8], ["build", "scene", "commit", "branch", "time", "added", "file", "content_hash"]);
    assert!(header.contains(&"summary.avg_fps"));
    assert_eq!(lines.count(), BUILDS * 4);
    let mut store =
        framescope_history::open(db.to_str().unwrap(), framescope_history::OpenMode::Existing).unwrap();
    for r in store.runs().unwrap() {
        let p50 = r.run.figures["summary.p50_ms"];
        assert!((r.run.sketch.at(50.0).unwrap() - p50).abs() < 1e-5, "sketch p50 vs {p50}");
        assert_eq!(r.run.sketch.frames, r.run.frames);
        assert_eq!(r.run.place.commit.as_deref(), Some("c0ffee"));
    }
    assert!(store.integrity().unwrap().is_empty());
}

#[test]
fn adding_a_capture_twice_is_a_no_op_that_says_so() {
    let dir = TempDir::new("history-twice");
    let db = dir.0.join("h.db");
    let a = capture(&dir, "a.csv", "game.exe", 1.0);
    let copy = dir.file("copy-of-a.csv", &std::fs::read(&a).unwrap());
    let add = |build: &str, f: &Path| {
        history(&["add".as_ref(), db.as_os_str(), "--build".as_ref(), build.as_ref(), f.as_os_str()])
    };
    assert_eq!(add("1", &a).code, 0);
    let again = add("2", &copy);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stdout.contains("already in the history") && again.stdout.contains("(build 1)"),
        "{}",
        again.stdout
    );
    let mut store =
        framescope_history::open(db.to_str().unwrap(), framescope_history::OpenMode::Existing).unwrap();
    assert_eq!(store.runs().unwrap().len(), 1);
}
