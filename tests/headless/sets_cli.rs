//! Sets of runs end to end (`metrics.md` §12, `cli-report.md`, issue 13):
//! `framescope compare A1 A2… --vs B1 B2…` with hand-built runs whose average FPS is
//! known exactly: set means and standard deviations, an outlier flagged and left out,
//! Welch's interval and degrees of freedom worked by hand, `better` only for a
//! significant change, and the gate: exit 0 on two sets of one build, 3 on a set that
//! is really slower. One file per side is the plain comparison, unchanged.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::runs::{run_at, set};
use common::{close, framescope};
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

fn dir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("framescope-sets-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `framescope compare --json ARGS`: exit status, document, stderr.
fn compare(args: &[&OsStr]) -> (i32, Value, String) {
    let mut all: Vec<OsString> = vec!["compare".into(), "--json".into()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let run = framescope(&all);
    let doc = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", run.stdout, run.stderr));
    (run.code, doc, run.stderr)
}

fn sets_args<'a>(a: &'a [PathBuf], b: &'a [PathBuf], extra: &[&'a str]) -> Vec<&'a OsStr> {
    let mut args: Vec<&OsStr> = a.iter().map(|p| p.as_os_str()).collect();
    args.push(OsStr::new("--vs"));
    args.extend(b.iter().map(|p| p.as_os_str()));
    args.extend(extra.iter().map(|s| OsStr::new(*s)));
    args
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Baseline A = 100, 102, 98 and 90 FPS; other B = 95, 97, 93.
///
/// A's median is (98 + 100) / 2 = 99: 90 is 9.09 % away (> 5 %), an outlier; the others
/// at most 3.03 %. Kept: mean 100, s² = (0 + 4 + 4) / 2 = 4, s = 2. B: median 95, no
/// outlier, mean 95, s² = 4.
/// delta = −5, relative −5 %; se = √(4/3 + 4/3) = √(8/3) = 1.632993;
/// ν = (8/3)² / ((4/3)²/2 + (4/3)²/2) = (64/9) / (16/9) = 4 exactly;
/// t(0.975, 4) = 2.776445 (tables), half-width 2.776445 · 1.632993 = 4.533916;
/// ci95 = [−9.533916, −0.466084]: excludes 0, significant, lower FPS is worse.
/// Frames: A kept 1000, 1020, 980 (mean 1000), B 950, 970, 930 (mean 950): the same
/// interval scaled by 10.
#[test]
fn sets_means_outliers_and_welch_interval_worked_by_hand() {
    let d = dir();
    let a = set(&d, "a", &[100, 102, 98, 90]);
    let b = set(&d, "b", &[95, 97, 93]);
    let (code, doc, stderr) = compare(&sets_args(&a, &b, &[]));
    assert_eq!(code, 0, "{stderr}");

    // Every run, baseline first, with its set and outlier flag, and its own figures.
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 7);
    let sets: Vec<&str> = runs.iter().map(|r| r["set"].as_str().unwrap()).collect();
    assert_eq!(sets, ["baseline", "baseline", "baseline", "baseline", "other", "other", "other"]);
    let outliers: Vec<bool> = runs.iter().map(|r| r["outlier"].as_bool().unwrap()).collect();
    assert_eq!(outliers, [false, false, false, true, false, false, false]);
    for (r, fps) in runs.iter().zip([100.0, 102.0, 98.0, 90.0, 95.0, 97.0, 93.0]) {
        assert!(close(num(&r["summary"]["avg_fps"]), fps), "{} {}", r["file"], r["summary"]["avg_fps"]);
    }

    // The `sets` object: runs used, given, outliers, median, mean and std per figure.
    let s = &doc["sets"];
    assert_eq!(s["outlier_limit"], 0.05);
    assert_eq!((s["baseline"]["runs"].as_u64(), s["baseline"]["given"].as_u64()), (Some(3), Some(4)));
    assert_eq!(s["baseline"]["outliers"][0], a[3].display().to_string());
    assert!(close(num(&s["baseline"]["median_avg_fps"]), 99.0));
    assert!(close(num(&s["baseline"]["mean"]["summary"]["avg_fps"]), 100.0));
    assert!(close(num(&s["baseline"]["std"]["summary"]["avg_fps"]), 2.0));
    assert!(close(num(&s["other"]["std"]["summary"]["avg_fps"]), 2.0));
    assert!(close(num(&s["baseline"]["std"]["run"]["frames"]), 20.0));
    assert_eq!(s["baseline"]["warnings"], serde_json::json!([]));

    // The comparison of the set means, with the interval worked above.
    let e = &doc["comparison"]["summary"]["avg_fps"];
    assert!(close(num(&e["baseline"]), 100.0) && close(num(&e["other"]), 95.0), "{e}");
    assert!(close(num(&e["delta"]), -5.0) && close(num(&e["relative"]), -0.05), "{e}");
    assert!((num(&e["df"]) - 4.0).abs() < 1e-9, "{e}");
    assert!((num(&e["ci95"][0]) + 9.533_916).abs() < 1e-5, "{e}");
    assert!((num(&e["ci95"][1]) + 0.466_084).abs() < 1e-5, "{e}");
    assert_eq!((e["significant"].as_bool(), e["better"].as_bool()), (Some(true), Some(false)));
    let f = &doc["comparison"]["run"]["frames"];
    assert!((num(&f["ci95"][0]) + 95.339_16).abs() < 1e-4, "{f}");
    assert!(f["better"].is_null(), "frames has no direction: {f}");
    // A figure every run lacks: null, as in a plain comparison.
    assert!(doc["comparison"]["latency"]["pcl_ms"].is_null());

    // --outlier-limit 10%: 90 stays in, mean (100 + 102 + 98 + 90) / 4 = 97.5.
    let (_, doc, _) = compare(&sets_args(&a, &b, &["--outlier-limit", "10%"]));
    assert!(close(num(&doc["comparison"]["summary"]["avg_fps"]["baseline"]), 97.5));
    assert_eq!(doc["runs"][3]["outlier"], false);
}

#[test]
fn sets_gate_passes_on_one_build_and_fails_on_a_slower_one() {
    let d = dir();
    let a = set(&d, "a", &[100, 102, 98]);
    let same = set(&d, "same", &[101, 99, 100]);
    let slower = set(&d, "slow", &[95, 97, 93]);
    let gate = ["--fail-if-worse", "avg_fps=3%"];

    // Single runs of one build: 102 → 98 is −3.9 %, a false alarm.
    let (code, _, _) = compare(&[a[1].as_os_str(), a[2].as_os_str(), gate[0].as_ref(), gate[1].as_ref()]);
    assert_eq!(code, 3);
    // The two sets of that build: means 100 and 100, noise, exit 0.
    let (code, doc, stderr) = compare(&sets_args(&a, &same, &gate));
    assert_eq!(code, 0, "{stderr}");
    let e = &doc["comparison"]["summary"]["avg_fps"];
    assert_eq!((e["significant"].as_bool(), e["better"].is_null()), (Some(false), true), "{e}");
    assert_eq!(doc["regressions"], serde_json::json!([]));
    // Really slower (−5 %, significant, beyond 3 %): exit 3.
    let (code, doc, stderr) = compare(&sets_args(&a, &slower, &gate));
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(doc["regressions"][0]["figure"], "summary.avg_fps");
    assert!(stderr.contains("regression: summary.avg_fps"), "{stderr}");
    // A limit the significant change stays within: exit 0.
    assert_eq!(compare(&sets_args(&a, &slower, &["--fail-if-worse", "avg_fps=6%"])).0, 0);

    // Beyond the limit but within the noise: A against 104, 90, 100 (mean 98, −2 %, s² = 52).
    let noisy = set(&d, "noisy", &[104, 90, 100]);
    let (code, doc, stderr) =
        compare(&sets_args(&a, &noisy, &["--fail-if-worse", "avg_fps=1%", "--outlier-limit", "0.2"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(doc["within_noise"][0]["figure"], "summary.avg_fps");
    assert!(stderr.contains("not significant"), "{stderr}");

    // The table says noise and worse.
    let mut args: Vec<&OsStr> = vec![OsStr::new("compare")];
    args.extend(sets_args(&a, &slower, &[]));
    let run = framescope(&args);
    let line = run.stdout.lines().find(|l| l.trim_start().starts_with("summary.avg_fps")).unwrap();
    assert!(line.ends_with("worse") && line.contains('['), "{line}");
    let mut args: Vec<&OsStr> = vec![OsStr::new("compare")];
    args.extend(sets_args(&a, &same, &[]));
    let run = framescope(&args);
    let line = run.stdout.lines().find(|l| l.trim_start().starts_with("summary.avg_fps")).unwrap();
    assert!(line.ends_with("noise"), "{line}");
}

#[test]
fn one_file_per_side_is_the_plain_comparison() {
    let d = dir();
    let (a, b) = (run_at(&d, "a.csv", 100), run_at(&d, "b.csv", 90));
    let (code, plain, _) = compare(&[a.as_os_str(), b.as_os_str()]);
    assert_eq!(code, 0);
    let (code, vs, _) = compare(&[a.as_os_str(), OsStr::new("--vs"), b.as_os_str()]);
    assert_eq!(code, 0);
    assert_eq!(plain, vs);
    assert!(plain.get("sets").is_none() && plain["runs"][0].get("set").is_none());
    assert!(plain["comparison"]["summary"]["avg_fps"].get("ci95").is_none());
}

#[test]
fn sets_bad_arguments_and_failed_files() {
    let d = dir();
    let a = set(&d, "a", &[100, 101]);
    // One run against a set: a set is two or more runs.
    let run = framescope([
        OsStr::new("compare"),
        a[0].as_os_str(),
        OsStr::new("--vs"),
        a[0].as_os_str(),
        a[1].as_os_str(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("two or more runs"), "{}", run.stderr);
    // Three files without --vs.
    let run = framescope([OsStr::new("compare"), a[0].as_os_str(), a[1].as_os_str(), a[0].as_os_str()]);
    assert_eq!(run.code, 2);
    // PCL logs belong to single runs.
    let mut args: Vec<&OsStr> = vec![OsStr::new("compare"), OsStr::new("--pcl"), a[0].as_os_str()];
    args.extend(sets_args(&a, &a, &[]));
    assert_eq!(framescope(&args).code, 2);
    // A file that fails: exit 1, no comparison, the other runs still listed.
    let missing = d.join("missing.csv");
    let (code, doc, _) = compare(&sets_args(&a, &[a[0].clone(), missing], &[]));
    assert_eq!(code, 1);
    assert!(doc["comparison"].is_null() && doc["sets"].is_null(), "{doc}");
    assert_eq!(doc["runs"][3]["set"], "other");
    assert!(doc["runs"][3]["error"]["message"].is_string());
    // Folders are sets too.
    let (ad, bd) = (d.join("build_a"), d.join("build_b"));
    std::fs::create_dir_all(&ad).unwrap();
    std::fs::create_dir_all(&bd).unwrap();
    set(&ad, "r", &[100, 102, 98]);
    set(&bd, "r", &[95, 97, 93]);
    let (code, doc, _) = compare(&[ad.as_os_str(), OsStr::new("--vs"), bd.as_os_str()]);
    assert_eq!(code, 0);
    assert_eq!(doc["runs"].as_array().unwrap().len(), 6);
    assert_eq!(doc["comparison"]["summary"]["avg_fps"]["significant"], true);
}

/// Two runs 100 and 120 FPS: median 110, each 9.1 % away. Leaving both out would leave
/// no set: none is left out, and the set says so.
#[test]
fn a_set_keeps_two_runs_and_warns() {
    let d = dir();
    let a = set(&d, "a", &[100, 120]);
    let b = set(&d, "b", &[110, 111]);
    let (code, doc, stderr) = compare(&sets_args(&a, &b, &[]));
    assert_eq!(code, 0);
    assert_eq!(doc["runs"][0]["outlier"], false);
    assert_eq!(doc["runs"][1]["outlier"], false);
    let w = doc["sets"]["baseline"]["warnings"][0]["message"].as_str().unwrap();
    assert!(w.contains("none is left out"), "{w}");
    assert!(stderr.contains("none is left out"), "{stderr}");
}

/// The two Alan Wake 2 runs against themselves: every change is 0 and none is better
/// or worse, and a tight gate passes.
#[test]
fn real_alan_wake_runs_against_themselves_are_noise() {
    let Some(dir) = common::real_traces() else { return };
    let dir = dir.join("frameview");
    let runs: Vec<PathBuf> = ["run1", "run2"]
        .iter()
        .map(|r| {
            std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().contains(&format!("AlanWake2_DLSSQuality_{r}")))
                .unwrap()
        })
        .collect();
    let (code, doc, stderr) =
        compare(&sets_args(&runs, &runs, &["--fail-if-worse", "avg_fps=0%,steady_fps=0%,p99_ms=0%"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(doc.get("warnings").is_none(), "{}", doc["warnings"]);
    let mut compared = 0;
    for section in ["summary", "pacing", "stutters"] {
        for (name, e) in doc["comparison"][section].as_object().unwrap() {
            if e.is_null() {
                continue;
            }
            assert_eq!(e["delta"].as_f64(), Some(0.0), "{name}");
            assert!(e["better"].is_null() && e["significant"] == false, "{name}: {e}");
            compared += 1;
        }
    }
    // Every figure of the three sections: 10 summary, 5 pacing, 2 stutter figures.
    assert_eq!(compared, 17, "figures compared");
}
