//! Issue 34, items 5 and 6: one bad timestamp cell never becomes the time base; a
//! PresentMon-family capture whose present intervals are all 0 falls back to its
//! display intervals under `--frame-time auto` (and fails under `presents`); the
//! follow of a truncated file restarts its idle clock; `--follow -` with a huge
//! unterminated line stays linear and bounded.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common::{self, TempDir, close, report_json};
use std::fmt::Write as _;

/// A FRAPS log of 1002 rows 16.5 ms apart whose row 501 (line 502) holds `0`: that row
/// is skipped with a warning naming line 502, and the next frame is measured from the
/// row before it (33 ms), never from the 0 (which gave 40 FPS, a 1 % low of 1 FPS and
/// 24.9 s). 1000 frames: 999 of 16.5 ms and one of 33 ms, T = 1001 · 16.5 ms.
#[test]
fn a_fraps_zero_cell_is_skipped_and_never_the_time_base() {
    let dir = TempDir::new("issue34_fraps_zero");
    let mut text = String::from("Frame, Time (ms)\n");
    for i in 0..1002_u32 {
        let t = if i == 500 { 0.0 } else { f64::from(i) * 16.5 };
        writeln!(text, "{}, {t:.3}", i + 1).unwrap();
    }
    let file = dir.file("game 2024-01-01 12-00-00-00 frametimes.csv", text.as_bytes());
    let (code, doc) = report_json([&file]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 1000);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 1001.0 * 16.5), "{}", run["duration_ms"]);
    let s = &run["summary"];
    assert!(close(s["avg_fps"].as_f64().unwrap(), 1000.0 * 1000.0 / (1001.0 * 16.5)), "{s}");
    // The 10 slowest frames: the 33 ms one and nine of 16.5 ms.
    assert!(close(s["low_1pct_fps"].as_f64().unwrap(), 1000.0 * 10.0 / (33.0 + 9.0 * 16.5)), "{s}");
    assert!(close(s["min_fps"].as_f64().unwrap(), 1000.0 / 33.0), "{s}");
    let warnings = run["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["line"], 502);
    assert!(warnings[0]["message"].as_str().unwrap().contains("goes back"), "{warnings:?}");
}

/// A `--column timestamp=` log whose line 5 goes back (40 → 30 ms): skipped with a
/// warning naming line 5, and the next frame is 60 − 40 ms, not 60 − 30.
#[test]
fn a_backwards_timestamp_is_skipped_warned_with_its_line_and_never_the_time_base() {
    let dir = TempDir::new("issue34_backwards");
    let file = dir.file("log.csv", b"stamp,gpu\n0,1\n20,2\n40,3\n30,4\n60,5\n80,6\n");
    let (code, doc) = report_json([file.as_os_str(), "--column".as_ref(), "timestamp=stamp".as_ref()]);
    assert_eq!(code, 0, "{doc}");
    let run = &doc["runs"][0];
    assert_eq!(run["frames"], 4);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 80.0));
    assert!(close(run["summary"]["p99_9_ms"].as_f64().unwrap(), 20.0), "{}", run["summary"]);
    assert!(close(run["summary"]["avg_fps"].as_f64().unwrap(), 50.0));
    let warnings = run["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["line"], 5);
    assert!(warnings[0]["message"].as_str().unwrap().contains("timestamp goes back"), "{warnings:?}");
    // The table says it too.
    let table = common::framescope([
        "report".as_ref(),
        "--column".as_ref(),
        "timestamp=stamp".as_ref(),
        file.as_os_str(),
    ]);
    assert!(table.stdout.contains("line 5: timestamp goes back"), "{}", table.stdout);
}
