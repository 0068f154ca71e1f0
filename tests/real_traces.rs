//! Every PresentMon-family capture in `../shared/real-traces` loads through the real
//! binary with the traces and summary figures that the independent oracle
//! (`tests/oracle/pm_oracle.py`, written from the spec alone) computed.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::{close, real_traces, repo_file, report_json};
use serde_json::Value;

fn goldens() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let dir = repo_file("tests/golden");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("tests/golden").flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if std::path::Path::new(&name).extension().is_some_and(|x| x == "json") {
            let text = std::fs::read_to_string(e.path()).expect("golden");
            out.push((name, serde_json::from_str(&text).expect("golden JSON")));
        }
    }
    assert!(out.len() >= 50, "expected the oracle's goldens, found {}", out.len());
    out
}

fn check_run(golden_name: &str, run: &Value, want: &Value) {
    let ctx = format!("{golden_name} / {} {}", want["application"], want["process_id"]);
    for key in ["application", "process_id", "swap_chain", "frames", "dropped_frames"] {
        assert_eq!(run[key], want[key], "{ctx}: {key}");
    }
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let same_null = run["duration_ms"].is_null() && want["duration_ms"].is_null();
    assert!(
        same_null || close(f(&run["duration_ms"]), f(&want["duration_ms"])),
        "{ctx}: duration_ms {} vs {}",
        run["duration_ms"],
        want["duration_ms"]
    );
    if want["summary"].is_null() {
        for section in ["summary", "pacing", "stutters", "osc", "health"] {
            assert!(run[section].is_null(), "{ctx}: {section} should be null");
        }
        return;
    }
    check_sections(&ctx, run, want);
    let want_summary = want["summary"].as_object().expect("summary object");
    let got_summary = run["summary"].as_object().unwrap_or_else(|| panic!("{ctx}: summary missing"));
    assert_eq!(got_summary.len(), want_summary.len(), "{ctx}: summary keys");
    for (key, value) in want_summary {
        let got = f(&got_summary[key]);
        assert!(close(got, f(value)), "{ctx}: {key} = {got}, oracle says {value}");
    }
}

/// Pacing, stutters, oscillation and health (`metrics.md` §3–6) against the oracle:
/// integers, flags and index lists exactly, fractions to 1e-9.
fn check_sections(ctx: &str, run: &Value, want: &Value) {
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    for (section, exact, approx) in [
        (
            "pacing",
            &["steady_fps", "mostly_steady_fps", "typical_fps"][..],
            &["slow_time_fraction", "excess_time_fraction"][..],
        ),
        ("stutters", &["count", "frames"][..], &["time_fraction"][..]),
        ("osc", &["flag", "oscillating_frames"][..], &["p90_iqr_ms", "p90_iqr_ratio"][..]),
    ] {
        for key in exact {
            assert_eq!(run[section][key], want[section][key], "{ctx}: {section}.{key}");
        }
        for key in approx {
            let (got, exp) = (f(&run[section][key]), f(&want[section][key]));
            assert!(close(got, exp), "{ctx}: {section}.{key} = {got}, oracle says {exp}");
        }
    }
    assert_eq!(run["health"]["actions"], want["health"]["actions"], "{ctx}: health.actions");
    assert_eq!(run["health"]["spikes"], want["health"]["spikes"], "{ctx}: health.spikes");
}

#[test]
fn every_presentmon_family_capture_matches_the_oracle() {
    let Some(traces) = real_traces() else { return };
    let mut checked_runs = 0;
    for (name, golden) in goldens() {
        let file = traces.join(golden["file"].as_str().expect("file"));
        let source = golden["frame_time"].as_str().expect("frame_time");
        let (code, doc) = report_json([
            file.as_os_str(),
            "--trace".as_ref(),
            "all".as_ref(),
            "--frame-time".as_ref(),
            source.as_ref(),
        ]);
        assert_eq!(code, 0, "{name}: exit status");
        let runs = doc["runs"].as_array().expect("runs");
        let want = golden["traces"].as_array().expect("traces");
        assert_eq!(runs.len(), want.len(), "{name}: number of traces");
        for (run, want) in runs.iter().zip(want) {
            assert_eq!(run["format"], golden["format"], "{name}: format");
            check_run(&name, run, want);
            checked_runs += 1;
        }
        let (code, doc) = report_json([file.as_os_str(), "--frame-time".as_ref(), source.as_ref()]);
        assert_eq!(code, 0);
        let default = &want[golden["default_trace"].as_u64().expect("default") as usize];
        check_run(&format!("{name} (default trace)"), &doc["runs"][0], default);
    }
    assert!(checked_runs >= 200, "checked only {checked_runs} runs");
}
