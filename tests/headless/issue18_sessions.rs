//! Issue 18, part A: logging sessions of sampled logs (`metrics.md` §10) through the
//! real binary and the window. Every log here is built by hand; the figures are worked
//! out in the comments. (The other CLI tests of the issue are in `issue18_captures.rs`.)
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{close, framescope, report_json, temp_file};
use serde_json::Value;
use std::fmt::Write as _;

fn messages(run: &Value) -> Vec<String> {
    run["warnings"].as_array().unwrap().iter().map(|w| w["message"].as_str().unwrap().to_owned()).collect()
}

/// An MSI Afterburner log of three logging sessions appended to one file, as
/// Afterburner does (line types `80`, whole-second times):
/// * session 1, 12:00:00–12:00:10: 11 lines 1 s apart at 100 FPS. The first line opens
///   it; 10 samples of P = 10 s / 10 = 1000 ms: 10 · 100 · 1 = 1000 frames, 10 s,
///   avg 100 FPS.
/// * a 4-minute gap; session 2, 12:04:10–12:04:14: 9 lines polled every 0.5 s (times
///   repeat: :10 :10 :11 :11 … :14) at 60 FPS: P = 4 s / 8 = 500 ms, 8 samples,
///   8 · 60 · 0.5 = 240 frames, 4 s, avg 60.
/// * a 136 s gap; session 3, 12:06:30–12:06:36: 7 lines 1 s apart, 200 and 300 FPS in
///   turn from the second line: 6 samples, 3 · 200 + 3 · 300 = 1500 frames, 6 s, avg
///   1500 / 6 = 250 FPS, min 200, max 300.
///
/// The median positive step is 1 s, so both gaps (> 5 s) start a session. One period
/// over the whole file would be 396 s / 26 lines = 15.2 s a sample: 1 run of
/// (10·100 + 8·60 + 3·200 + 3·300)·15.23 ≈ 45 000 frames that is none of the games.
fn three_sessions() -> String {
    let mut s = String::from(
        "00, 01-06-2024 12:00:00, Hardware monitoring log v1.6\n\
         01, 01-06-2024 12:00:00, NVIDIA GeForce RTX 4070\n\
         02, 01-06-2024 12:00:00, GPU usage ,Framerate \n",
    );
    let mut line = |t: u32, fps: u32| {
        writeln!(s, "80, 01-06-2024 12:{:02}:{:02}, 50 ,{fps} ", t / 60, t % 60).unwrap();
    };
    (0..=10).for_each(|k| line(k, 100));
    (0..9).for_each(|k| line(250 + k / 2, 60));
    (0..7).for_each(|k| line(390 + k, if k % 2 == 1 { 200 } else { 300 }));
    s
}

#[test]
fn an_afterburner_log_of_three_sessions_gives_three_runs() {
    let path = temp_file("HardwareMonitoring.hml", &three_sessions());
    let (code, doc) = report_json(["--trace".as_ref(), "all".as_ref(), path.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let runs = doc["runs"].as_array().unwrap();
    let want = [
        ("session 1 (12:00:00)", 10, 1000, 10_000.0, 100.0, 100.0, 100.0),
        ("session 2 (12:04:10)", 8, 240, 4_000.0, 60.0, 60.0, 60.0),
        ("session 3 (12:06:30)", 6, 1500, 6_000.0, 250.0, 200.0, 300.0),
    ];
    assert_eq!(runs.len(), 3);
    for (run, (name, samples, frames, duration, avg, min, max)) in runs.iter().zip(want) {
        assert_eq!(run["application"], name);
        assert_eq!(run["sampled"], true);
        assert_eq!(run["samples"], samples, "{name}");
        assert_eq!(run["frames"], frames, "{name}");
        assert!(close(run["duration_ms"].as_f64().unwrap(), duration), "{name}: {}", run["duration_ms"]);
        let s = &run["summary"];
        assert!(close(s["avg_fps"].as_f64().unwrap(), avg), "{name}: {s}");
        assert!(
            close(s["min_fps"].as_f64().unwrap(), min) && close(s["max_fps"].as_f64().unwrap(), max),
            "{s}"
        );
        let m = messages(run);
        assert!(m.iter().any(|m| m.starts_with("the log holds 3 logging sessions")), "{m:?}");
        assert!(m.iter().any(|m| m.contains("gaps of 4 min 0 s, 2 min 16 s")), "{m:?}");
    }
    // By default the session with the most frames (3: 1500), the others named.
    let (_, doc) = report_json([&path]);
    let run = &doc["runs"][0];
    assert_eq!(run["application"], "session 3 (12:06:30)");
    let others: Vec<(&str, u64)> = run["other_traces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["application"].as_str().unwrap(), t["frames"].as_u64().unwrap()))
        .collect();
    assert_eq!(others, [("session 1 (12:00:00)", 10), ("session 2 (12:04:10)", 8)]);
    let table = framescope(["report".as_ref(), path.as_os_str()]);
    assert!(
        table.stdout.contains(
            "the file also holds 2 other logging sessions: session 1 (12:00:00) 10 samples; session 2 (12:04:10) 8 samples"
        ),
        "{}",
        table.stdout
    );
    // One picked by name; the sessions note is no problem for --strict.
    let (_, doc) = report_json(["--trace".as_ref(), "session 2".as_ref(), path.as_os_str()]);
    assert_eq!(doc["runs"][0]["frames"], 240);
    assert_eq!(framescope(["report".as_ref(), "--strict".as_ref(), path.as_os_str()]).code, 0);
}

/// An NVIDIA App log (elapsed seconds) of two sessions: rows every 0.5 s from 0 to
/// 2.0 s at 100 FPS (4 samples: 2 s, 200 frames), then from 62.0 to 63.0 s at 50 FPS
/// (the 60 s step is a gap: 2 samples, 1 s, 50 frames). Named by their start after the
/// log's first row.
#[test]
fn an_nvidia_app_log_of_two_sessions() {
    let mut s = String::from("Timestamp (Elapsed time in seconds),PID,FPS,\n");
    for t in [0.0, 0.5, 1.0, 1.5, 2.0] {
        writeln!(s, "{t},42,100").unwrap();
    }
    for t in [62.0, 62.5, 63.0] {
        writeln!(s, "{t},43,50").unwrap();
    }
    let (code, doc) = report_json(["--trace".as_ref(), "all".as_ref(), temp_file("nv.csv", &s).as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let got: Vec<(&str, u64, f64)> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["application"].as_str().unwrap(),
                r["frames"].as_u64().unwrap(),
                r["duration_ms"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [("session 1 (at 0.0 s)", 200, 2000.0), ("session 2 (at 62.0 s)", 50, 1000.0)]);
}

/// A MangoHud log written with a 100 ms `log_interval`, two sessions: `elapsed` 0.1 …
/// 1.0 s at 250 FPS (10 rows: 9 samples of 100 ms, 9 · 25 = 225 frames), then 60 s
/// later 61.0 … 61.5 s at 100 FPS (6 rows: 5 samples, 5 · 10 = 50 frames). MangoHud's
/// own figures (`conventions.mangohud`) are each session's: its logged frame times.
#[test]
fn a_sampled_mangohud_log_of_two_sessions() {
    let mut text = String::from(
        "v1\n0.8.2\n---------------------SYSTEM INFO---------------------\n\
         os,cpu,gpu,ram,kernel,driver,cpuscheduler\nCachyOS,9800X3D,RX 9070 XT,65438132,6.17,,performance\n\
         --------------------FRAME METRICS--------------------\nfps,frametime,gpu_load,elapsed\n",
    );
    for k in 1..=10u64 {
        writeln!(text, "250,4,80,{}", k * 100_000_000).unwrap();
    }
    for k in 0..6u64 {
        writeln!(text, "100,10,90,{}", 61_000_000_000 + k * 100_000_000).unwrap();
    }
    let (code, doc) =
        report_json(["--trace".as_ref(), "all".as_ref(), temp_file("mango.csv", &text).as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let runs = doc["runs"].as_array().unwrap();
    let got: Vec<(&str, u64, u64)> = runs
        .iter()
        .map(|r| {
            (
                r["application"].as_str().unwrap(),
                r["samples"].as_u64().unwrap(),
                r["frames"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [("session 1 (at 0.0 s)", 9, 225), ("session 2 (at 60.9 s)", 5, 50)]);
    assert!(close(runs[0]["conventions"]["mangohud"]["average_fps"].as_f64().unwrap(), 250.0), "{}", runs[0]);
    assert!(close(runs[1]["conventions"]["mangohud"]["average_fps"].as_f64().unwrap(), 100.0), "{}", runs[1]);
}

/// The window lists a log's sessions as it lists a capture's traces: the Trace box
/// shows the default session (3, most frames) and offers the others; picking session 1
/// shows its figures (10 samples, ≈1000 frames, 100 FPS).
#[test]
fn the_window_lists_the_sessions_of_a_log() {
    use common::ui::{labelled, settle, window};
    use egui_kittest::kittest::Queryable as _;
    let path = temp_file("HardwareMonitoring.hml", &three_sessions());
    let mut h = window(std::slice::from_ref(&path));
    let combo = eframe::egui::accesskit::Role::ComboBox;
    let shown = |h: &common::ui::Window| h.get_by_role_and_label(combo, "Trace").value().unwrap_or_default();
    assert_eq!(shown(&h), "session 3 (12:06:30) — 6 samples");
    assert_eq!(labelled(&h, "Frames"), ["≈1500 (estimated from 6 samples)"]);
    h.get_by_role_and_label(combo, "Trace").click();
    h.run_steps(2);
    for option in ["session 1 (12:00:00) — 10 samples", "session 2 (12:04:10) — 8 samples"] {
        assert!(h.query_by_label(option).is_some(), "{option} offered");
    }
    h.get_by_label("session 1 (12:00:00) — 10 samples").click();
    settle(&mut h);
    assert_eq!(shown(&h), "session 1 (12:00:00) — 10 samples");
    assert_eq!(labelled(&h, "Frames"), ["≈1000 (estimated from 10 samples)"]);
    assert_eq!(labelled(&h, "Average FPS"), ["100.00"]);
}
