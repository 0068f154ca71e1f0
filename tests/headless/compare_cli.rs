//! `framescope compare BASELINE OTHER` end to end (`cli-report.md`, `metrics.md` §9,
//! issue 5): the comparison agrees with the two single reports (delta = other −
//! baseline, relative = delta / baseline), better/worse follows §9, and the
//! `--fail-if-worse` gate exits 3 on a regression, 0 within limits, 2 on a bad SPEC.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::temp_file as temp;

use common::{close, framescope, report_json};
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const PM1_HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed\n";

/// A PresentMon 1.x capture of 200 frames: `ft(i)` ms each, frame i dropped when
/// `dropped(i)`, displayed `until_displayed` ms after its present.
fn capture(ft: impl Fn(usize) -> f64, dropped: impl Fn(usize) -> bool, until_displayed: f64) -> String {
    let mut text = PM1_HEADER.to_owned();
    let mut t = 0.0;
    for i in 0..200 {
        let f = ft(i);
        t += f / 1000.0;
        let (d, shown, until) = if dropped(i) { (1, 0.0, 0.0) } else { (0, f, until_displayed) };
        writeln!(
            text,
            "game.exe,42,0x1,DXGI,0,0,0,Hardware: Independent Flip,{d},{t:.6},{f},{shown},0.5,2.0,{until}"
        )
        .unwrap();
    }
    text
}

/// Run A: steady 10 ms, nothing dropped, no stutter. Run B: 12.5 ms with a 40 ms spike
/// every 50 frames (4 stutters, slow time at 60 FPS) and every 40th frame dropped.
fn pair() -> (PathBuf, PathBuf) {
    let a = temp("a.csv", &capture(|_| 10.0, |_| false, 5.0));
    let b = temp("b.csv", &capture(|i| if i % 50 == 25 { 40.0 } else { 12.5 }, |i| i % 40 == 39, 6.0));
    (a, b)
}

/// Runs `framescope compare --json ARGS...`: the exit status, the document, stderr.
fn compare_json(args: &[&OsStr]) -> (i32, Value, String) {
    let mut all: Vec<OsString> = vec!["compare".into(), "--json".into()];
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let run = framescope(&all);
    let doc = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", run.stdout, run.stderr));
    (run.code, doc, run.stderr)
}

/// The single report's run of one file.
fn single(path: &Path) -> Value {
    let (code, doc) = report_json([path]);
    assert_eq!(code, 0, "{doc}");
    doc["runs"][0].clone()
}

/// A figure's value in a run: `run` figures sit at the top of the run object.
fn value(run: &Value, section: &str, name: &str) -> Value {
    if section == "run" { run[name].clone() } else { run[section][name].clone() }
}

/// Checks every listed figure of `comparison` against the two single reports.
fn check_against_reports(comparison: &Value, a: &Value, b: &Value, figures: &[(&str, &str)]) {
    for &(section, name) in figures {
        let entry = &comparison[section][name];
        let (va, vb) = (value(a, section, name), value(b, section, name));
        let (Some(va), Some(vb)) = (va.as_f64(), vb.as_f64()) else {
            assert!(entry.is_null(), "{section}.{name}: a side lacks it, entry must be null: {entry}");
            continue;
        };
        let f = |k: &str| entry[k].as_f64().unwrap_or_else(|| panic!("{section}.{name}.{k}: {entry}"));
        assert!(close(f("baseline"), va), "{section}.{name} baseline: {entry} vs {va}");
        assert!(close(f("other"), vb), "{section}.{name} other: {entry} vs {vb}");
        let delta = vb - va;
        assert!(close(f("delta"), delta), "{section}.{name} delta: {entry} vs {delta}");
        if va == 0.0 {
            assert!(
                entry["relative"].is_null(),
                "{section}.{name}: baseline 0, relative must be null: {entry}"
            );
        } else {
            assert!(close(f("relative"), delta / va), "{section}.{name} relative: {entry} vs {}", delta / va);
        }
        if delta == 0.0 {
            assert!(entry["better"].is_null(), "{section}.{name}: delta 0, better must be null: {entry}");
        }
    }
}

const FIGURES: &[(&str, &str)] = &[
    ("run", "frames"),
    ("run", "duration_ms"),
    ("run", "dropped_frames"),
    ("summary", "avg_fps"),
    ("summary", "min_fps"),
    ("summary", "max_fps"),
    ("summary", "p50_ms"),
    ("summary", "p90_ms"),
    ("summary", "p99_ms"),
    ("summary", "p99_9_ms"),
    ("summary", "low_1pct_fps"),
    ("summary", "low_0_1pct_fps"),
    ("pacing", "steady_fps"),
    ("pacing", "mostly_steady_fps"),
    ("pacing", "typical_fps"),
    ("pacing", "slow_time_fraction"),
    ("pacing", "excess_time_fraction"),
    ("stutters", "count"),
    ("stutters", "time_fraction"),
    ("osc", "oscillating_frames"),
    ("latency", "display_latency_mean_ms"),
    ("latency", "pcl_ms"),
    ("latency", "click_to_photon_mean_ms"),
];

#[test]
fn compare_agrees_with_the_single_reports() {
    let (a, b) = pair();
    let (ra, rb) = (single(&a), single(&b));
    let (code, doc, stderr) = compare_json(&[a.as_os_str(), b.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
    // The runs are the single reports' runs, baseline first.
    assert_eq!(doc["runs"][0], ra);
    assert_eq!(doc["runs"][1], rb);
    assert!(doc.get("regressions").is_none(), "no gate, no regressions key");
    let c = &doc["comparison"];
    check_against_reports(c, &ra, &rb, FIGURES);

    // The fixture is what the checks below assume.
    assert!(value(&rb, "summary", "avg_fps").as_f64() < value(&ra, "summary", "avg_fps").as_f64());
    assert!(rb["stutters"]["count"].as_u64().unwrap() >= 4, "{rb}");
    assert_eq!(ra["stutters"]["count"].as_u64(), Some(0));
    assert_eq!(ra["dropped_frames"].as_u64(), Some(0));

    // metrics.md §9: lower FPS and higher times, stutters, drops are worse.
    for (section, name) in [
        ("summary", "avg_fps"),
        ("summary", "low_1pct_fps"),
        ("summary", "min_fps"),
        ("summary", "p99_ms"),
        ("summary", "p50_ms"),
        ("pacing", "slow_time_fraction"),
        ("stutters", "count"),
        ("stutters", "time_fraction"),
        ("run", "dropped_frames"),
        ("latency", "display_latency_mean_ms"),
    ] {
        assert_eq!(c[section][name]["better"], Value::Bool(false), "{section}.{name}: {}", c[section][name]);
    }
    // Baselines of 0 give a null relative change (but a direction).
    for (section, name) in
        [("stutters", "count"), ("run", "dropped_frames"), ("pacing", "slow_time_fraction")]
    {
        assert!(c[section][name]["relative"].is_null(), "{section}.{name}: {}", c[section][name]);
    }
    // Figures neither run has are null entries, never zeros.
    assert!(c["latency"]["pcl_ms"].is_null());
    // Frames and duration are context: never better or worse.
    assert!(c["run"]["frames"]["better"].is_null());
}

#[test]
fn compare_swapped_says_better_and_same_says_nothing() {
    let (a, b) = pair();
    let (_, doc, _) = compare_json(&[b.as_os_str(), a.as_os_str()]);
    let c = &doc["comparison"];
    check_against_reports(c, &single(&b), &single(&a), FIGURES);
    for (section, name) in [("summary", "avg_fps"), ("summary", "p99_ms"), ("stutters", "count")] {
        assert_eq!(c[section][name]["better"], Value::Bool(true), "{section}.{name}: {}", c[section][name]);
    }
    // A run against itself: every delta 0, every `better` null (telemetry means too).
    let (code, doc, _) = compare_json(&[a.as_os_str(), a.as_os_str()]);
    assert_eq!(code, 0);
    let c = &doc["comparison"];
    let tools = c["conventions"].as_object().unwrap().values();
    let sections = c.as_object().unwrap().iter().filter(|(k, _)| *k != "conventions").map(|(_, v)| v);
    for section in sections.chain(tools) {
        for (name, entry) in section.as_object().unwrap() {
            if !entry.is_null() {
                assert_eq!(entry["delta"].as_f64(), Some(0.0), "{name}: {entry}");
                assert!(entry["better"].is_null(), "{name}: {entry}");
            }
        }
    }
}

#[test]
fn compare_gate_exit_status() {
    let (a, b) = pair();
    let gate = |spec: &str| {
        let mut args = vec![a.as_os_str(), b.as_os_str()];
        args.extend([OsStr::new("--fail-if-worse"), spec.as_ref()]);
        compare_json(&args)
    };
    // avg_fps fell by about 20 %.
    let (code, doc, stderr) = gate("avg_fps=5%");
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("avg_fps"), "{stderr}");
    let regs = doc["regressions"].as_array().unwrap();
    assert_eq!(regs.len(), 1, "{doc}");
    assert_eq!(regs[0]["figure"], "summary.avg_fps");
    assert_eq!(regs[0]["limit"], "5%");
    let entry = &doc["comparison"]["summary"]["avg_fps"];
    assert_eq!(regs[0]["relative"], entry["relative"]);
    assert_eq!(regs[0]["baseline"], entry["baseline"]);
    assert_eq!(regs[0]["other"], entry["other"]);

    let (code, doc, stderr) = gate("avg_fps=50%");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(doc["regressions"], serde_json::json!([]));

    // Absolute limits: 0 → 4 stutters.
    assert_eq!(gate("stutters.count=2").0, 3);
    assert_eq!(gate("stutters.count=10").0, 0);
    // A percent limit on a baseline of 0: any worsening fails.
    assert_eq!(gate("stutters.count=1000%").0, 3);
    // Better figures never fail, however tight the limit.
    let mut args = vec![b.as_os_str(), a.as_os_str()];
    args.extend([OsStr::new("--fail-if-worse"), OsStr::new("avg_fps=0%,p99_ms=0")]);
    assert_eq!(compare_json(&args).0, 0);

    // A gated figure the other run lacks fails the gate (issue 13), unless --allow-missing.
    let (code, doc, stderr) = gate("pcl_ms=1%,avg_fps=50%");
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("latency.pcl_ms is missing in both runs"), "{stderr}");
    assert!(stderr.contains("--allow-missing"), "{stderr}");
    assert_eq!(doc["not_comparable"][0]["figure"], "latency.pcl_ms");
    assert_eq!(doc["not_comparable"][0]["fails"], true);
    let mut args = vec![a.as_os_str(), b.as_os_str(), OsStr::new("--allow-missing")];
    args.extend([OsStr::new("--fail-if-worse"), OsStr::new("pcl_ms=1%,avg_fps=50%")]);
    let (code, doc, stderr) = compare_json(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("latency.pcl_ms is not comparable"), "{stderr}");
    assert_eq!(doc["not_comparable"][0]["fails"], false);

    // Unknown figure: bad argument, listing the valid names.
    let run = framescope([
        OsStr::new("compare"),
        a.as_os_str(),
        b.as_os_str(),
        OsStr::new("--fail-if-worse"),
        OsStr::new("avg_fsp=5%"),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("avg_fsp") && run.stderr.contains("summary.avg_fps"), "{}", run.stderr);
}

#[test]
fn compare_failures_and_bad_arguments() {
    let (a, _) = pair();
    let missing = a.with_file_name("no-such-capture.csv");
    let (code, doc, _) = compare_json(&[a.as_os_str(), missing.as_os_str()]);
    assert_eq!(code, 1);
    assert!(doc["comparison"].is_null(), "{doc}");
    assert!(doc["runs"][0]["summary"].is_object());
    assert!(doc["runs"][1]["error"]["message"].is_string(), "{doc}");
    // The gate does not hide a failed file.
    let (code, _, _) = compare_json(&[
        missing.as_os_str(),
        a.as_os_str(),
        OsStr::new("--fail-if-worse"),
        OsStr::new("avg_fps=0%"),
    ]);
    assert_eq!(code, 1);

    let run = framescope([
        OsStr::new("compare"),
        OsStr::new("--trace"),
        OsStr::new("all"),
        a.as_os_str(),
        a.as_os_str(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(framescope([OsStr::new("compare"), a.as_os_str()]).code, 2);
}

#[test]
fn compare_table_names_figures_and_verdicts() {
    let (a, b) = pair();
    let run = framescope([OsStr::new("compare"), a.as_os_str(), b.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line =
        run.stdout.lines().find(|l| l.trim_start().starts_with("summary.avg_fps")).expect("avg_fps row");
    assert!(line.ends_with("worse") && line.contains('%'), "{line}");
}

#[test]
fn compare_real_apex_pair_agrees_with_reports() {
    let Some(dir) = common::real_traces() else { return };
    let dir = dir.join("presentmon-2x");
    let a = dir.join("pmcap-r5apex_dx12.exe-250709-222018.csv");
    let b = dir.join("pmcap-r5apex_dx12.exe-250709-222519.csv");
    let (ra, rb) = (single(&a), single(&b));
    let (code, doc, stderr) = compare_json(&[a.as_os_str(), b.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
    let c = &doc["comparison"];
    check_against_reports(c, &ra, &rb, FIGURES);
    // Run B is slower: lower average FPS and a higher p99 frame time are worse.
    assert_eq!(c["summary"]["avg_fps"]["better"], Value::Bool(false), "{}", c["summary"]["avg_fps"]);
    assert_eq!(c["summary"]["p99_ms"]["better"], Value::Bool(false), "{}", c["summary"]["p99_ms"]);
}

/// `comparison.telemetry`: every telemetry column either run has, its means compared
/// (as the single reports give them), neither better nor worse; null where one run
/// lacks the column. The table lists them after the figures.
#[test]
fn compare_has_the_telemetry_means() {
    let fv = common::repo_file("sample-traces/FrameView_ds.exe_2021_06_04T224922_Log.csv");
    let pm = common::repo_file("sample-traces/pm-1.x_FarCryNewDawn.csv");
    let report = single(&fv);
    let means = report["telemetry"].as_object().expect("telemetry in the report");
    assert!(!means.is_empty());
    let (code, doc, _) = compare_json(&[fv.as_os_str(), fv.as_os_str()]);
    assert_eq!(code, 0);
    let t = doc["comparison"]["telemetry"].as_object().expect("comparison.telemetry");
    assert_eq!(t.len(), means.len());
    for (column, stats) in means {
        let e = &t[column];
        assert_eq!(e["baseline"], stats["mean"], "{column}");
        assert_eq!(e["delta"].as_f64(), Some(0.0), "{column}");
        assert!(e["better"].is_null(), "{column}");
    }
    let (_, doc, _) = compare_json(&[fv.as_os_str(), pm.as_os_str()]);
    let t = doc["comparison"]["telemetry"].as_object().expect("comparison.telemetry");
    assert!(t.len() >= means.len() && t.values().all(Value::is_null), "one run lacks every column: {t:?}");
    let run = framescope([OsStr::new("compare"), fv.as_os_str(), fv.as_os_str()]);
    assert!(run.stdout.contains("telemetry means"), "{}", run.stdout);
    assert!(run.stdout.contains("telemetry.GPU0Clk(MHz)"), "{}", run.stdout);
}
