//! Issue 18, part A, through the real binary: overflow cells (`metrics.md` §1),
//! logging sessions of sampled logs (§10), a frame cap read as the display's refresh
//! rate (§8), frame generation a format cannot record, and FRAPS frame times re-saved
//! by a German spreadsheet. Every capture here is built by hand; the figures are worked
//! out in the comments.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

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
        writeln!(s, "game.exe,100,0xAA,DXGI,1,0,0,Hardware: Independent Flip,0,{t:.6},{ft},{display},0.1,0.5,{until}")
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
    let good = [("10.0", "10.0", "5.0"), ("20.0", "20.0", "5.0"), ("30.0", "30.0", "5.0"), ("40.0", "40.0", "5.0")];
    let with: Vec<_> =
        [good[0], good[1], ("2500000.000", "16.0", "5.0"), good[2], (OVERFLOW, "16.0", "5.0"), good[3]].into();
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
    assert!(m.iter().any(|m| m.starts_with("column MsBetweenDisplayChange: 1 value is implausible")), "{m:?}");
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
