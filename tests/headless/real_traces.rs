//! Every capture in `../shared/real-traces` loads through the real binary with the
//! traces, figures, latency and frame types that the independent oracles
//! (`tests/oracle/pm_oracle.py` for PresentMon-family CSVs, `tests/oracle/sampled_oracle.py`
//! for sampled logs and CapFrameX JSON, written from the spec alone) computed, under each
//! frame-time source (`presents`, `display`, `auto`).
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::path::Path;

use common::{close, real_traces, repo_file, report_json};
use framescope_core::analysis::{FrameTimeSource, Settings, Trim};
use framescope_core::ingest::{LoadOptions, Progress, load_file};
use framescope_core::pipeline::{self, Job, TraceSelector};
use serde_json::Value;

/// The frame-time sources every capture has a golden for.
const SOURCES: [&str; 3] = ["presents", "display", "auto"];

fn goldens() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let dir = repo_file("tests/golden");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("tests/golden").flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if Path::new(&name).extension().is_some_and(|x| x == "json") {
            let text = std::fs::read_to_string(e.path()).expect("golden");
            out.push((name, serde_json::from_str(&text).expect("golden JSON")));
        }
    }
    // 29 PresentMon-family captures x 3 sources from pm_oracle.py alone.
    assert!(out.len() >= 87, "expected the oracles' goldens, found {}", out.len());
    out
}

/// Both null, or both numbers within `close`.
fn same_number(got: &Value, want: &Value) -> bool {
    match (got.as_f64(), want.as_f64()) {
        (Some(a), Some(b)) => close(a, b),
        _ => got.is_null() && want.is_null(),
    }
}

/// A `summary` object (`metrics.md` §2, or §10 for sampled logs) against the oracle's:
/// null when the oracle says null, else the same keys, each value within `close`.
fn check_summary(ctx: &str, got: &Value, want: &Value) {
    if want.is_null() {
        assert!(got.is_null(), "{ctx}: should be null, got {got}");
        return;
    }
    let want = want.as_object().expect("summary object");
    let got = got.as_object().unwrap_or_else(|| panic!("{ctx}: missing, oracle says {want:?}"));
    assert_eq!(got.len(), want.len(), "{ctx}: keys");
    for (key, value) in want {
        let g = got.get(key).unwrap_or_else(|| panic!("{ctx}: no {key}"));
        assert!(same_number(g, value), "{ctx}.{key} = {g}, oracle says {value}");
    }
}

/// `latency` (cli-report.md): every key the oracle writes, null vs null, else `close`.
fn check_latency(ctx: &str, run: &Value, want: &Value) {
    let want = want["latency"].as_object().expect("latency object");
    let got = run["latency"].as_object().unwrap_or_else(|| panic!("{ctx}: latency missing"));
    for (key, value) in want {
        let g = got.get(key).unwrap_or_else(|| panic!("{ctx}: latency.{key} missing"));
        assert!(same_number(g, value), "{ctx}: latency.{key} = {g}, oracle says {value}");
    }
}

/// `frame_types`: null when the oracle says null; else for each kind the interval count
/// exactly and the summary of the intervals within `close`.
fn check_frame_types(ctx: &str, run: &Value, want: &Value) {
    let (got, want) = (&run["frame_types"], &want["frame_types"]);
    if want.is_null() {
        assert!(got.is_null(), "{ctx}: frame_types should be null, got {got}");
        return;
    }
    let want = want.as_object().expect("frame_types object");
    for (kind, w) in want {
        let g = &got[kind];
        assert!(g.is_object(), "{ctx}: frame_types.{kind} missing");
        assert_eq!(g["frames"], w["frames"], "{ctx}: frame_types.{kind}.frames");
        assert_eq!(g["count"], w["count"], "{ctx}: frame_types.{kind}.count");
        assert!(
            same_number(&g["fps"], &w["fps"]),
            "{ctx}: frame_types.{kind}.fps {} vs {}",
            g["fps"],
            w["fps"]
        );
        check_summary(&format!("{ctx}: frame_types.{kind}.summary"), &g["summary"], &w["summary"]);
    }
}

/// `limiter` (`metrics.md` §13) where the oracle writes one: null vs null, the class and
/// the count exactly, fractions and means to 1e-9.
fn check_limiter(ctx: &str, run: &Value, want: &Value) {
    let Some(want) = want.get("limiter") else { return };
    let got = &run["limiter"];
    if want.is_null() {
        assert!(got.is_null(), "{ctx}: limiter {got}, oracle says null");
        return;
    }
    for key in ["main", "classified_frames"] {
        assert_eq!(got[key], want[key], "{ctx}: limiter.{key}");
    }
    let keys = want.as_object().map_or(0, serde_json::Map::len);
    assert_eq!(got.as_object().map(serde_json::Map::len), Some(keys), "{ctx}: limiter keys");
    let floats = [
        "gpu_time_fraction",
        "cpu_time_fraction",
        "neither_time_fraction",
        "gpu_busy_mean_ms",
        "cpu_busy_mean_ms",
        "gpu_busy_share",
    ];
    for key in floats {
        assert!(
            same_number(&got[key], &want[key]),
            "{ctx}: limiter.{key} = {}, oracle says {}",
            got[key],
            want[key]
        );
    }
}

fn check_run(golden_name: &str, run: &Value, want: &Value, sampled: bool) {
    let ctx =
        format!("{golden_name} / {} {} {}", want["application"], want["process_id"], want["swap_chain"]);
    assert_eq!(run["frame_time"], want["frame_time"], "{ctx}: frame_time");
    assert_eq!(run["sampled"], Value::Bool(sampled), "{ctx}: sampled");
    let exact: &[&str] = if sampled {
        &["frames"]
    } else {
        &["application", "process_id", "swap_chain", "frames", "dropped_frames"]
    };
    for key in exact {
        assert_eq!(run[key], want[key], "{ctx}: {key}");
    }
    assert!(
        same_number(&run["duration_ms"], &want["duration_ms"]),
        "{ctx}: duration_ms {} vs {}",
        run["duration_ms"],
        want["duration_ms"]
    );
    check_latency(&ctx, run, want);
    check_limiter(&ctx, run, want);
    if sampled || want["summary"].is_null() {
        // Sampled logs (`metrics.md` §10) have no per-frame sections; an empty series
        // has none either.
        for section in ["pacing", "stutters", "osc", "health", "frame_types"] {
            assert!(run[section].is_null(), "{ctx}: {section} should be null");
        }
        check_summary(&format!("{ctx}: summary"), &run["summary"], &want["summary"]);
        return;
    }
    check_sections(&ctx, run, want);
    check_summary(&format!("{ctx}: summary"), &run["summary"], &want["summary"]);
    check_frame_types(&ctx, run, want);
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
fn every_capture_matches_the_oracle() {
    let Some(traces) = real_traces() else { return };
    let mut checked_runs = 0;
    for (name, golden) in goldens() {
        let file = traces.join(golden["file"].as_str().expect("file"));
        let source = golden["frame_time"].as_str().expect("frame_time");
        let sampled = golden["sampled"].as_bool().expect("sampled");
        let (code, doc) = report_json([
            file.as_os_str(),
            "--trace".as_ref(),
            "all".as_ref(),
            "--frame-time".as_ref(),
            source.as_ref(),
        ]);
        assert_eq!(code, 0, "{name}: exit status");
        assert_eq!(doc["settings"]["frame_time"].as_str(), Some(source), "{name}: settings.frame_time");
        let runs = doc["runs"].as_array().expect("runs");
        let want = golden["traces"].as_array().expect("traces");
        assert_eq!(runs.len(), want.len(), "{name}: number of traces");
        for (run, want) in runs.iter().zip(want) {
            assert_eq!(run["format"], golden["format"], "{name}: format");
            check_run(&name, run, want, sampled);
            checked_runs += 1;
        }
        let (code, doc) = report_json([file.as_os_str(), "--frame-time".as_ref(), source.as_ref()]);
        assert_eq!(code, 0, "{name} (default trace): exit status");
        let default = &want[golden["default_trace"].as_u64().expect("default") as usize];
        check_run(&format!("{name} (default trace)"), &doc["runs"][0], default, sampled);
    }
    assert!(checked_runs >= 300, "checked only {checked_runs} runs");
}

/// Every capture under `root` ([`collect_captures`]), sorted.
fn all_captures(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    collect_captures(root, root, &mut out);
    out.sort();
    out
}

/// Capture files under `dir` (paths relative to `root`, `/`-separated): everything but
/// the `etl/` folder (ETW traces, not frame logs), `SOURCES.md` files, FrameView
/// summaries (one row per capture, not a frame log) and hidden files.
fn collect_captures(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).expect("read a real-traces folder");
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            if !(dir == root && name == "etl") {
                collect_captures(root, &path, out);
            }
        } else if name != "SOURCES.md" && !name.starts_with("FrameView_Summary") {
            let rel = path.strip_prefix(root).expect("inside real-traces");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// No capture escapes the oracle comparison: each one has a golden per source
/// (`tests/golden/<file stem>.<source>.json`) that names it. A capture without goldens
/// fails here; write them with the oracles' `--write-goldens`.
#[test]
fn every_capture_has_goldens_for_every_source() {
    let Some(traces) = real_traces() else { return };
    let captures = all_captures(&traces);
    assert!(!captures.is_empty(), "no capture under {}", traces.display());
    let mut missing = Vec::new();
    for rel in &captures {
        let stem = Path::new(rel).file_stem().expect("file stem").to_string_lossy();
        for source in SOURCES {
            let name = format!("{stem}.{source}.json");
            let Ok(text) = std::fs::read_to_string(repo_file(&format!("tests/golden/{name}"))) else {
                missing.push(format!("{rel}: {name}"));
                continue;
            };
            let golden: Value = serde_json::from_str(&text).expect("golden JSON");
            assert_eq!(golden["file"].as_str(), Some(rel.as_str()), "{name}: file");
            assert_eq!(golden["frame_time"].as_str(), Some(source), "{name}: frame_time");
            assert!(golden["sampled"].is_boolean(), "{name}: sampled");
        }
    }
    assert!(
        missing.is_empty(),
        "{} golden(s) missing (python3 tests/oracle/pm_oracle.py --write-goldens, \
         python3 tests/oracle/sampled_oracle.py --write-goldens):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// One XeSS-FG capture saved in the default and the `--v2_metrics` layout: with
/// `DisplayedTime` shifted to the next displayed frame and the generated frames (written
/// with `FrameTime` 0 in the v2 layout) kept, both give the same display series, and
/// `auto` picks it (metrics.md §1). Before that fix the v2 run had 1239 frames at
/// 170.96 FPS and its stutters sat one displayed frame early.
#[test]
fn both_layouts_of_one_frame_generation_capture_give_one_display_series() {
    let Some(traces) = real_traces() else { return };
    let dir = traces.join("presentmon-2x");
    let run = |file: &str| {
        let (code, doc) = report_json([dir.join(file).as_os_str()]);
        assert_eq!(code, 0, "{file}");
        doc["runs"][0].clone()
    };
    let default = run("pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv");
    let v2 = run("pm-v2.5x_v2metrics_auxgold_test_case_10_Naraka_XeSS-FG.csv");
    for r in [&default, &v2] {
        assert_eq!(r["frame_time"], "display", "auto resolves to display for frame generation");
        assert_eq!(r["frames"], 3064);
        let fps = r["summary"]["avg_fps"].as_f64().expect("avg_fps");
        assert!((fps - 201.705).abs() < 0.001, "{fps}");
    }
    for key in ["frames", "duration_ms", "summary", "pacing", "stutters", "osc"] {
        assert_eq!(default[key], v2[key], "{key} differs between the layouts");
    }
    // Frame generation no longer paints most frames as stutters (presents: 909).
    assert!(default["stutters"]["count"].as_u64().expect("count") < 100);
}

/// Every value of an oracle object against the run's, recursively: numbers within
/// `close`, nulls as nulls, and the same keys.
fn check_tree(ctx: &str, got: &Value, want: &Value) {
    match want {
        Value::Object(w) => {
            let g = got.as_object().unwrap_or_else(|| panic!("{ctx}: expected an object, got {got}"));
            let (mut gk, mut wk): (Vec<&String>, Vec<&String>) = (g.keys().collect(), w.keys().collect());
            gk.sort();
            wk.sort();
            assert_eq!(gk, wk, "{ctx}: keys");
            for (k, v) in w {
                check_tree(&format!("{ctx}.{k}"), &g[k], v);
            }
        }
        Value::Number(_) | Value::Null => assert!(same_number(got, want), "{ctx}: {got}, oracle says {want}"),
        _ => assert_eq!(got, want, "{ctx}"),
    }
}

/// `conventions` (each peer tool's own figures, metrics.md §11) and `telemetry` of every
/// trace of every real capture, against the conventions oracle
/// (`tests/oracle/conventions_oracle.py`).
#[test]
fn every_capture_matches_the_conventions_oracle() {
    let Some(traces) = real_traces() else { return };
    let dir = repo_file("tests/golden/conventions");
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("tests/golden/conventions").flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    let mut checked = 0;
    for e in entries {
        let golden: Value =
            serde_json::from_str(&std::fs::read_to_string(e.path()).expect("golden")).expect("golden JSON");
        let name = e.file_name().to_string_lossy().into_owned();
        let file = traces.join(golden["file"].as_str().expect("file"));
        let source = golden["frame_time"].as_str().expect("frame_time");
        let (code, doc) = report_json([
            file.as_os_str(),
            "--trace".as_ref(),
            "all".as_ref(),
            "--frame-time".as_ref(),
            source.as_ref(),
        ]);
        assert_eq!(code, 0, "{name}");
        let runs = doc["runs"].as_array().expect("runs");
        let want = golden["traces"].as_array().expect("traces");
        assert_eq!(runs.len(), want.len(), "{name}: traces");
        for (run, w) in runs.iter().zip(want) {
            let ctx = format!("{name} / {} {}", w["application"], w["process_id"]);
            check_tree(&format!("{ctx}: conventions"), &run["conventions"], &w["conventions"]);
            check_tree(&format!("{ctx}: telemetry"), &run["telemetry"], &w["telemetry"]);
            checked += 1;
        }
    }
    assert!(checked >= 200, "checked only {checked} runs");
}

/// FrameView's own summary file of the Cyberpunk DLSS-FG capture, to the decimals
/// FrameView printed (`FrameView_Summary_…csv`): its conventions are reproduced on the
/// present intervals. (Its "1% FPS" 41.928 and "Max FPS" 69.714 round frame times the
/// log prints to 3 decimals, so they are not asserted; "CPU Temp" is not the log's
/// `CPU Package Temp(C)` column.)
#[test]
fn frameview_convention_equals_frameviews_own_summary() {
    let Some(traces) = real_traces() else { return };
    let file = traces.join("frameview/FrameView_Cyberpunk2077_4K_Native+DLSSFG_2024_04_17T051708_Log.csv");
    let (code, doc) = report_json([file.as_os_str()]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    let at3 = |v: &Value| format!("{:.3}", v.as_f64().unwrap_or(f64::NAN));
    let fv = &run["conventions"]["frameview"];
    for (key, printed) in [
        ("average_fps", "45.600"),
        ("low_1pct_fps", "35.667"),
        ("low_0_1pct_fps", "26.745"),
        ("fps_0_1pct", "27.030"),
        ("fps_5pct", "42.869"),
        ("fps_10pct", "43.388"),
    ] {
        assert_eq!(at3(&fv[key]), printed, "conventions.frameview.{key}");
    }
    let l = &run["latency"];
    assert_eq!(at3(&l["pc_latency_column_mean_ms"]), "95.220");
    assert_eq!(at3(&l["pc_latency_min_ms"]), "72.711");
    assert_eq!(at3(&l["pc_latency_max_ms"]), "138.938");
    assert_eq!(at3(&l["render_present_latency_mean_ms"]), "2.430");
    let t = &run["telemetry"];
    for (column, printed) in [
        ("GPU0Clk(MHz)", "2773.277"),
        ("GPU0MemClk(MHz)", "9001.000"),
        ("GPU0Util(%)", "89.020"),
        ("GPU0Temp(C)", "63.924"),
        ("CPUClk(MHz)", "4339.345"),
        ("CPUUtil(%)", "16.129"),
        ("CPU Package Power(W)", "43.721"),
    ] {
        assert_eq!(at3(&t[column]["mean"]), printed, "telemetry {column}");
    }
}

/// A load for figures only (what `framescope report` does) leaves out the columns no
/// figure reads (`Column::read_by_figures`) and reports every real capture exactly as a
/// full load does: every trace, under every frame-time source, byte for byte. Most
/// PresentMon-family captures do have such columns, so the comparison is not empty.
#[test]
fn figures_only_loads_report_the_same() {
    let Some(root) = real_traces() else { return };
    let files = all_captures(&root);
    let (mut compared, mut fewer_columns) = (0, 0);
    for rel in &files {
        let path = root.join(rel);
        let inputs = pipeline::expand(std::slice::from_ref(&path)).expect("expand");
        let job = |figures_only| Job {
            selector: TraceSelector::All,
            opts: LoadOptions { figures_only, ..LoadOptions::default() },
            trim: Trim::default(),
        };
        for frame_time in [FrameTimeSource::Auto, FrameTimeSource::Presents, FrameTimeSource::Display] {
            let settings = Settings { frame_time, ..Settings::default() };
            let doc = |figures_only| {
                serde_json::to_string(&pipeline::report(&inputs, &job(figures_only), &settings, 1))
                    .expect("json")
            };
            assert_eq!(doc(true), doc(false), "{rel} ({frame_time:?})");
        }
        let columns = |figures_only| {
            let opts = LoadOptions { figures_only, ..LoadOptions::default() };
            load_file(&path, opts, &Progress::default())
                .map_or(0, |c| c.traces.iter().map(|t| t.frames.columns.len()).sum::<usize>())
        };
        fewer_columns += usize::from(columns(true) < columns(false));
        compared += 1;
    }
    assert!(compared >= 35, "compared only {compared} captures");
    assert!(fewer_columns >= 15, "only {fewer_columns} captures had columns the figures do not read");
}
