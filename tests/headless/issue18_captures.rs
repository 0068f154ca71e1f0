//! Issue 18, part A, through the real binary: overflow cells (`metrics.md` §1), a
//! frame cap read as the display's refresh rate (§8), frame generation a format cannot
//! record, and FRAPS frame times re-saved by a German spreadsheet (logging sessions of
//! sampled logs, §10, are in `issue18_sessions.rs`). The captures are built by hand
//! (figures worked out in the comments) or real.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::{PM1_HEADER, close, framescope, report_json, temp_file};
use serde_json::Value;
use std::fmt::Write as _;

/// The unsigned underflow a real FrameView writer put in a cell.
const OVERFLOW: &str = "1844674407370950.750";

/// A PresentMon 1.x capture of `game.exe`: one row per `(frame time, display interval,
/// until displayed)`, presents at the running sum of the frame times (a row whose frame
/// time does not parse adds nothing).
fn pm1(rows: &[(&str, &str, &str)]) -> String {
    let mut s = format!("{PM1_HEADER}\n");
    let mut t = 1.0;
    for (ft, display, until) in rows {
        t += ft.parse::<f64>().ok().filter(|v| *v < 1e6).unwrap_or(0.0) / 1000.0;
        writeln!(
            s,
            "game.exe,100,0xAA,DXGI,1,0,0,Hardware: Independent Flip,0,{t:.6},{ft},{display},0.1,0.5,{until}"
        )
        .unwrap();
    }
    s
}

/// A run's JSON without what names the file, its warnings and where its time axis
/// starts (the VSYNC anchor).
fn figures(run: &Value) -> Value {
    let mut run = run.clone();
    let o = run.as_object_mut().unwrap();
    o.remove("file");
    o.remove("warnings");
    if let Some(v) = o.get_mut("vsync").and_then(Value::as_object_mut) {
        v.remove("anchor_ms");
    }
    run
}

fn messages(run: &Value) -> Vec<String> {
    run["warnings"].as_array().unwrap().iter().map(|w| w["message"].as_str().unwrap().to_owned()).collect()
}

/// Frame times of 2.5·10⁶ ms (42 minutes: no frame, although under the old bound of
/// 10⁹ ms) and 1.8·10¹⁵ ms are no frames: the run is the capture without those rows,
/// with a warning naming each line, and `--strict` fails on it.
#[test]
fn an_overflow_frame_time_is_a_skipped_row_with_a_warning() {
    let good =
        [("10.0", "10.0", "5.0"), ("20.0", "20.0", "5.0"), ("30.0", "30.0", "5.0"), ("40.0", "40.0", "5.0")];
    let with: Vec<_> =
        [good[0], good[1], ("2500000.000", "16.0", "5.0"), good[2], (OVERFLOW, "16.0", "5.0"), good[3]]
            .into();
    let overflow = temp_file("overflow.csv", &pm1(&with));
    let clean = temp_file("clean.csv", &pm1(&good));
    let (code, doc) = report_json([&overflow]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    // Kept: 10, 20, 30, 40 ms. T = 100 ms, avg 1000·4/100 = 40 FPS, min 1000/40 = 25,
    // max 1000/10 = 100.
    assert_eq!(run["frames"], 4);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 100.0), "{run}");
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 40.0), "{run}");
    assert!(close(run["summary"]["min_fps"].as_f64().unwrap(), 25.0), "{run}");
    assert!(close(run["summary"]["max_fps"].as_f64().unwrap(), 100.0), "{run}");
    let (_, without) = report_json([&clean]);
    assert_eq!(figures(run), figures(&without["runs"][0]));
    // The header is line 1, the overflow rows lines 4 and 6.
    let lines: Vec<&Value> = run["warnings"].as_array().unwrap().iter().map(|w| &w["line"]).collect();
    assert_eq!(lines, [4, 6], "{run}");
    assert!(messages(run).iter().all(|m| m.contains("frame time is implausible")), "{run}");
    assert!(without["runs"][0]["warnings"].as_array().unwrap().is_empty());
    assert_eq!(framescope(["report".as_ref(), "--strict".as_ref(), overflow.as_os_str()]).code, 1);
    assert_eq!(framescope(["report".as_ref(), "--strict".as_ref(), clean.as_os_str()]).code, 0);
}

/// An overflow display interval (the real FrameView cell) is missing: under
/// `--frame-time display` that row is no frame of the display series; under `presents`
/// the frame stays. A warning names the column either way, and `--strict` fails.
#[test]
fn an_overflow_display_interval_is_missing_with_a_warning() {
    let rows = [
        ("16.0", "16.0", "5.0"),
        ("17.0", "17.0", "7.0"),
        ("15.0", OVERFLOW, "1844674407370940.5"),
        ("18.0", "18.0", "9.0"),
    ];
    let path = temp_file("display-overflow.csv", &pm1(&rows));
    let (code, doc) = report_json(["--frame-time".as_ref(), "display".as_ref(), path.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    // Display series 16, 17, 18 ms: T = 51 ms, avg 3000/51 FPS.
    assert_eq!(run["frame_time"], "display");
    assert_eq!(run["frames"], 3, "{run}");
    assert!(close(run["duration_ms"].as_f64().unwrap(), 51.0), "{run}");
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 3000.0 / 51.0), "{run}");
    // MsUntilDisplayed's overflow cell is missing too: mean of 5, 7, 9 = 7.
    assert!(close(run["latency"]["display_latency_mean_ms"].as_f64().unwrap(), 7.0), "{run}");
    let m = messages(run);
    assert!(
        m.iter().any(|m| m.starts_with("column MsBetweenDisplayChange: 1 value is implausible")),
        "{m:?}"
    );
    assert!(m.iter().any(|m| m.starts_with("column MsUntilDisplayed: 1 value is implausible")), "{m:?}");
    assert!(run["warnings"].as_array().unwrap().iter().all(|w| w["line"] == 4), "{run}");
    // Under presents every row is a frame: 16 + 17 + 15 + 18 = 66 ms.
    let (_, presents) = report_json(["--frame-time".as_ref(), "presents".as_ref(), path.as_os_str()]);
    assert_eq!(presents["runs"][0]["frames"], 4);
    assert!(close(presents["runs"][0]["duration_ms"].as_f64().unwrap(), 66.0));
    for source in ["display", "presents", "auto"] {
        let run = framescope(["report", "--strict", "--frame-time", source, path.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{source}: {}", run.stderr);
    }
}

/// A deterministic jitter in ±0.05 ms (a fixed-refresh display's measured intervals
/// jitter by a few hundredths of a ms).
fn jitter(i: u32) -> f64 {
    f64::from((i * 7919) % 101) / 1000.0 - 0.05
}

/// A capture whose frame times and display intervals are `intervals`.
fn displayed(intervals: &[f64]) -> String {
    let cells: Vec<(String, String, String)> =
        intervals.iter().map(|d| (format!("{d:.4}"), format!("{d:.4}"), "3.0".to_owned())).collect();
    let rows: Vec<(&str, &str, &str)> =
        cells.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect();
    pm1(&rows)
}

/// A steady 30 FPS cap on a 60 Hz display: every interval 33.3 ms (two 60 Hz periods)
/// with a little jitter. It was "30 Hz"; a frame cap is no refresh rate: 60 Hz.
#[test]
fn a_steady_30_fps_cap_on_a_60_hz_display_is_not_30_hz() {
    let p = 1000.0 / 60.0;
    let intervals: Vec<f64> = (0..900).map(|i| 2.0 * p + jitter(i)).collect();
    let path = temp_file("cap30.csv", &displayed(&intervals));
    let (code, doc) = report_json([&path]);
    assert_eq!(code, 0);
    let hz = doc["runs"][0]["vsync"]["refresh_hz"].as_f64().unwrap_or(0.0);
    assert!((hz - 60.0).abs() < 0.05, "{}", doc["runs"][0]["vsync"]);
}

/// The RoboCop capture (a 30 FPS driver cap under variable refresh) said "30.06 Hz,
/// confidence 80 %"; its intervals spread over 31.6–37 ms and include 16.09 and 25.00.
#[test]
fn robocop_has_no_refresh_rate() {
    let Some(dir) = common::real_traces() else { return };
    let path = dir.join("frameview/FrameView_RoboCop_30fpscap_Native4K_2024_04_13T193123_Log.csv");
    let (code, doc) = report_json([&path]);
    assert_eq!(code, 0);
    assert_eq!(doc["runs"][0]["frames"], 897);
    assert!(doc["runs"][0]["vsync"].is_null(), "{}", doc["runs"][0]["vsync"]);
}

/// Frames, duration (ms) and VSYNC grid (rate, confidence) of `path` trimmed by `a` s
/// at the start and `b` s at the end.
fn grid(path: &std::path::Path, a: f64, b: f64) -> (u64, f64, f64, f64) {
    let (code, doc) = report_json([
        "--trim-start".as_ref(),
        a.to_string().as_ref(),
        "--trim-end".as_ref(),
        b.to_string().as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    let v = &run["vsync"];
    let n = run["frames"].as_u64().unwrap();
    let d = run["duration_ms"].as_f64().unwrap();
    (n, d, v["refresh_hz"].as_f64().unwrap_or(0.0), v["confidence"].as_f64().unwrap_or(0.0))
}

/// A display series at 120 Hz (mostly one period, one in seven two, jitter) is
/// detected the same on the whole capture and on any part of 1000 frames or more,
/// hand-built and real (Ghost Recon Breakpoint, 4070 frames at 119.84 Hz).
#[test]
fn a_120_hz_series_is_detected_the_same_on_any_thousand_frames() {
    let p = 1000.0 / 119.84;
    let intervals: Vec<f64> = (0..3000).map(|i| if i % 7 == 0 { 2.0 * p } else { p } + jitter(i)).collect();
    let mut paths = vec![temp_file("vsync120.csv", &displayed(&intervals))];
    if let Some(dir) = common::real_traces() {
        paths.push(dir.join("presentmon-1x/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv"));
    }
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy();
        let (n, duration_ms, whole, confidence) = grid(path, 0.0, 0.0);
        assert!(
            n > 2500 && (whole - 119.84).abs() < 0.02 && confidence > 0.99,
            "{name}: {n} {whole} {confidence}"
        );
        // Parts of about 1050 frames (at the run's mean frame time): the first, the
        // last and four in between.
        let (seconds, part_s) = (duration_ms / 1000.0, 1050.0 * duration_ms / n as f64 / 1000.0);
        for k in 0..6 {
            let a = (seconds - part_s) * f64::from(k) / 5.0;
            let (n, _, hz, c) = grid(path, a, (seconds - part_s - a).max(0.0));
            assert!((1000..1100).contains(&n), "{name}: part {k}: {n} frames");
            assert!((hz - whole).abs() < 0.01 && c > 0.99, "{name}: part {k} ({n} frames): {hz} vs {whole}");
        }
    }
}

/// FRAPS frame times re-saved by a German spreadsheet: `;`, decimal commas, the two
/// FRAPS columns plus `Time (s)` and `Delta`, CRLF. Read as FRAPS: the running clock
/// 0, 16.5, 33.25, 58.25, 75 ms gives frames of 16.5, 16.75, 25, 16.75 ms — T = 75 ms,
/// avg 4000/75 = 53.33 FPS, min 1000/25 = 40, max 1000/16.5 = 60.61, p50 (h = 1.5 of
/// 16.5, 16.75, 16.75, 25) 16.75 ms — the figures of the same file as FRAPS writes it.
#[test]
fn fraps_resaved_by_a_german_spreadsheet_is_fraps() {
    let german = "Frame;Time (ms);Time (s);Delta\r\n1;0;0;\r\n2;16,5;0,0165;16,5\r\n3;33,25;0,03325;16,75\r\n\
                  4;58,25;0,05825;25\r\n5;75;0,075;16,75\r\n";
    let fraps = "Frame, Time (ms)\n1, 0.000\n2, 16.500\n3, 33.250\n4, 58.250\n5, 75.000\n";
    let (code, doc) = report_json([temp_file("frametimes-de.csv", german)]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["format_version"], "FRAPS frametimes");
    assert_eq!(run["frames"], 4);
    assert!(run["warnings"].as_array().unwrap().is_empty(), "{run}");
    let s = &run["summary"];
    for (key, want) in
        [("avg_fps", 4000.0 / 75.0), ("min_fps", 40.0), ("max_fps", 1000.0 / 16.5), ("p50_ms", 16.75)]
    {
        assert!(close(s[key].as_f64().unwrap(), want), "{key}: {s}");
    }
    assert!(close(run["duration_ms"].as_f64().unwrap(), 75.0));
    let (_, original) = report_json([temp_file("frametimes.csv", fraps)]);
    // The spreadsheet's columns are telemetry: Delta's mean (16.5 + 16.75 + 25 + 16.75) / 4.
    assert!(close(run["telemetry"]["Delta"]["mean"].as_f64().unwrap(), 18.75), "{run}");
    let strip = |r: &Value| {
        let mut r = figures(r);
        r.as_object_mut().unwrap().remove("application");
        r.as_object_mut().unwrap().remove("telemetry");
        r
    };
    assert_eq!(strip(run), strip(&original["runs"][0]));
}

/// A PresentMon 1.x capture (no `FrameType` column) of a frame-generated game: presents
/// alternate 1 ms and 15 ms (a generated frame right after each rendered one), the
/// display shows one every 8 ms. All 199 neighbouring pairs differ by more than 2×:
/// a warning says the capture looks frame-generated and points at the display source.
#[test]
fn alternating_presents_warn_of_unrecorded_frame_generation() {
    let rows: Vec<(String, String, String)> = (0..200)
        .map(|i| (if i % 2 == 0 { "1.0" } else { "15.0" }.to_owned(), "8.0".to_owned(), "20.0".to_owned()))
        .collect();
    let rows: Vec<(&str, &str, &str)> =
        rows.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect();
    let path = temp_file("fg-v1.csv", &pm1(&rows));
    let (code, doc) = report_json([&path]);
    assert_eq!(code, 0);
    let run = &doc["runs"][0];
    assert_eq!(run["frame_time"], "presents");
    let m = messages(run);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].starts_with(
            "the capture looks frame-generated: present intervals alternate short and long (100 %"
        ),
        "{}",
        m[0]
    );
    assert!(m[0].contains("--frame-time display"), "{}", m[0]);
    assert_eq!(framescope(["report", "--strict", path.to_str().unwrap()]).code, 1);
    // On the display intervals the figures are what the player sees: no warning.
    let (_, display) = report_json(["--frame-time".as_ref(), "display".as_ref(), path.as_os_str()]);
    assert!(messages(&display["runs"][0]).is_empty(), "{}", display["runs"][0]);
    assert!(close(display["runs"][0]["summary"]["avg_fps"].as_f64().unwrap(), 125.0));
    // Steady presents: no warning.
    let steady: Vec<(&str, &str, &str)> = (0..200).map(|_| ("8.0", "8.0", "20.0")).collect();
    let (_, doc) = report_json([temp_file("steady.csv", &pm1(&steady))]);
    assert!(messages(&doc["runs"][0]).is_empty());
}

/// A format with a `FrameType` column says itself which frames are generated: the
/// same alternation there is no guess to warn about.
#[test]
fn a_format_that_marks_generated_frames_gets_no_guess() {
    let mut s = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsUntilDisplayed\n",
    );
    let mut t = 1.0;
    for i in 0..200 {
        let ft = if i % 2 == 0 { 1.0 } else { 15.0 };
        t += ft / 1000.0;
        writeln!(s, "g.exe,1,0x1,DXGI,0,0,1,Hardware: Independent Flip,Application,{t:.6},{ft:.4},8.0,20.0")
            .unwrap();
    }
    let (code, doc) = report_json([temp_file("fg-v2.csv", &s)]);
    assert_eq!(code, 0);
    assert!(messages(&doc["runs"][0]).is_empty(), "{}", doc["runs"][0]);
}

/// Every real capture, every trace: only Naraka's `--v1_metrics` capture (XeSS-FG, no
/// `FrameType`; 83 % of neighbouring presents differ by 2× or more) looks
/// frame-generated. The FrameView DLSS-FG capture's presents are paced (20.5 ms apart)
/// and the NVIDIA App's FrameGen log is sampled: nothing to see there, and no false
/// alarm anywhere else.
#[test]
fn only_the_v1_metrics_xess_capture_looks_frame_generated() {
    let Some(dir) = common::real_traces() else { return };
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "csv" || x == "json" || x == "hml") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut flagged = Vec::new();
    for f in &files {
        let (_, doc) = report_json(["--trace".as_ref(), "all".as_ref(), f.as_os_str()]);
        for run in doc["runs"].as_array().unwrap() {
            if run["warnings"].as_array().is_some_and(|w| {
                w.iter().any(|w| w["message"].as_str().unwrap_or("").contains("looks frame-generated"))
            }) {
                // With `/` between folders on every platform.
                let name = f.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
                flagged.push(format!("{name} {}", run["application"].as_str().unwrap_or("")));
            }
        }
    }
    assert!(files.len() > 30, "{}", files.len());
    assert_eq!(
        flagged,
        ["presentmon-1x/pm-v2.5x_v1metrics_auxgold_test_case_10_Naraka.csv NarakaBladepoint.exe"]
    );
}
