//! `framescope report --format csv` (issue 13): one line per run, one column per figure
//! named as the JSON keys joined with `.`, RFC 4180 quoting, rows in argument order,
//! folders walked for captures, a progress line only when asked for (or on a terminal).
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{framescope, real_traces, repo_file};
use framescope_core::report::BATCH_COLUMNS as COLUMNS;
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

fn csv_rows(text: &str) -> (Vec<String>, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().expect("header").iter().map(str::to_owned).collect();
    let rows = reader.records().map(|r| r.expect("a well-formed CSV record")).collect();
    (header, rows)
}

/// The cell a JSON run gives a column (the rules of `report::batch`).
fn expected_cell(run: &Value, column: &str) -> String {
    match column {
        "warnings" if run.get("error").is_none() => {
            return run["warnings"].as_array().unwrap().len().to_string();
        }
        "present_modes" if run.get("error").is_none() => {
            let modes: Vec<&str> =
                run["present_modes"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
            return modes.join("; ");
        }
        "health.spikes" => {
            return run["health"]["spikes"].as_object().map_or_else(String::new, |m| {
                let parts: Vec<String> =
                    m.iter().map(|(k, v)| format!("{k}={}", v.as_array().unwrap().len())).collect();
                parts.join("; ")
            });
        }
        _ => {}
    }
    match column.split('.').try_fold(run, |v, k| v.get(k)) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        Some(other) => panic!("{column} is not a scalar: {other}"),
    }
}

fn captures_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            captures_under(&p, out);
        } else if p.extension().and_then(|x| x.to_str()).is_some_and(|x| ["csv", "json", "hml"].contains(&x))
        {
            out.push(p);
        }
    }
}

/// Every capture in `../shared/real-traces`: one line per run (the folder walked), each
/// cell equal to the JSON report's value, the CSV read back by a CSV reader.
#[test]
fn every_real_capture_is_one_line_equal_to_the_json() {
    let Some(dir) = real_traces() else { return };
    let mut files = Vec::new();
    captures_under(&dir, &mut files);
    let csv_run =
        framescope([OsStr::new("report"), OsStr::new("--format"), OsStr::new("csv"), dir.as_os_str()]);
    let json_run = framescope([OsStr::new("report"), OsStr::new("--json"), dir.as_os_str()]);
    // FrameView's summary file is no per-frame log: exit 1, in both forms.
    assert_eq!(csv_run.code, json_run.code);
    let doc: Value = serde_json::from_str(&json_run.stdout).expect("JSON");
    let runs = doc["runs"].as_array().unwrap();
    let (header, rows) = csv_rows(&csv_run.stdout);
    assert_eq!(header, COLUMNS);
    assert_eq!(rows.len(), files.len(), "one line per capture file");
    assert_eq!(rows.len(), runs.len());
    for (row, run) in rows.iter().zip(runs) {
        assert_eq!(row.len(), COLUMNS.len());
        for (cell, column) in row.iter().zip(COLUMNS) {
            let want = expected_cell(run, column);
            // serde_json reads floats to within an ulp, not always exactly: compare
            // numbers as numbers.
            match (cell.parse::<f64>(), want.parse::<f64>()) {
                (Ok(a), Ok(b)) => {
                    assert!(common::close(a, b), "{} / {column}: {cell} vs {want}", run["file"]);
                }
                _ => assert_eq!(cell, want, "{} / {column}", run["file"]),
            }
        }
    }
    let failed =
        rows.iter().filter(|r| !r[COLUMNS.iter().position(|c| *c == "error.message").unwrap()].is_empty());
    assert_eq!(failed.count(), 1, "only the FrameView summary file fails");
    // Every key of every run's JSON is a column, or one of the documented exceptions.
    for run in runs {
        let mut keys = Vec::new();
        leaves(run, String::new(), &mut keys);
        for k in keys {
            // `system.` (issue 20): its names differ per capture, as telemetry's do.
            let left_out = [
                "stutters.frames",
                "health.",
                "telemetry.",
                "system.",
                "other_traces",
                "present_modes",
                "warnings",
            ];
            assert!(
                COLUMNS.contains(&k.as_str()) || left_out.iter().any(|l| k.starts_with(l)),
                "{k} of {} has no column",
                run["file"]
            );
        }
    }
}

fn leaves(v: &Value, prefix: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                leaves(x, if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, out);
            }
        }
        Value::Null => {}
        _ => out.push(prefix),
    }
}

/// A file name with a comma, quotes and a space, a failed file, and the argument order
/// kept whatever finishes first.
#[test]
fn quoting_order_and_failures() {
    let dir = std::env::temp_dir().join(format!("framescope-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sample = repo_file("sample-traces");
    let mut given: Vec<PathBuf> = Vec::new();
    let mut samples = Vec::new();
    captures_under(&sample, &mut samples);
    samples.sort();
    let src = samples.iter().find(|p| p.extension().is_some_and(|e| e == "csv")).expect("a sample CSV");
    // Windows forbids `"` in file names: there the name has a comma and a space only.
    let odd = dir.join(if cfg!(windows) { "run 1, final.csv" } else { "run 1, \"final\".csv" });
    std::fs::copy(src, &odd).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "not,a,capture\n1,2,3\n").unwrap();
    given.push(odd.clone());
    given.push(bad.clone());
    given.extend(samples.iter().rev().take(4).cloned());
    let mut args: Vec<&OsStr> = vec![OsStr::new("report"), OsStr::new("--format"), OsStr::new("csv")];
    args.extend(given.iter().map(|p| p.as_os_str()));
    let run = framescope(&args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    if cfg!(windows) {
        assert!(run.stdout.contains(&format!("\"{}\"", odd.display())), "a name with a comma is quoted");
    } else {
        assert!(run.stdout.contains("\"\"final\"\""), "quotes doubled inside a quoted field");
    }
    let (_, rows) = csv_rows(&run.stdout);
    let files: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    let want: Vec<String> = given.iter().map(|p| p.display().to_string()).collect();
    assert_eq!(files, want);
    let col = |name: &str| COLUMNS.iter().position(|c| *c == name).unwrap();
    assert!(rows[1][col("error.message")].contains("bad.csv"), "{:?}", &rows[1]);
    assert!(rows[1][col("summary.avg_fps")].is_empty());
    assert!(!rows[0][col("summary.avg_fps")].is_empty());
    assert!(run.stderr.contains("bad.csv"), "errors still go to stderr: {}", run.stderr);
    // --json and --format csv together contradict each other.
    let both = framescope([
        OsStr::new("report"),
        OsStr::new("--json"),
        OsStr::new("--format"),
        OsStr::new("csv"),
        odd.as_os_str(),
    ]);
    assert_eq!(both.code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// No progress line into a pipe unless asked for; with `--progress always`, one line
/// per finished file.
#[test]
fn progress_line_only_when_asked_or_on_a_terminal() {
    let sample = repo_file("sample-traces");
    let quiet =
        framescope([OsStr::new("report"), OsStr::new("--format"), OsStr::new("csv"), sample.as_os_str()]);
    assert!(!quiet.stderr.contains("files"), "{}", quiet.stderr);
    let loud = framescope([
        OsStr::new("report"),
        OsStr::new("--format"),
        OsStr::new("csv"),
        OsStr::new("--progress"),
        OsStr::new("always"),
        sample.as_os_str(),
    ]);
    let lines: Vec<&str> = loud.stderr.lines().filter(|l| l.starts_with("framescope: ")).collect();
    let (_, rows) = csv_rows(&loud.stdout);
    assert_eq!(lines.len(), rows.len(), "{}", loud.stderr);
    assert!(
        lines.last().unwrap().contains(&format!("{} of {} files", rows.len(), rows.len())),
        "{}",
        loud.stderr
    );
}
