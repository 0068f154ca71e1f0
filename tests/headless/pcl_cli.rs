//! `framescope report CAPTURE --pcl MARKERS` end to end: a hand-built PresentMon 2.4
//! capture with `PCLFrameId` and a plain PCL marker CSV from the same "session".
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::temp_file as temp;

use common::{close, report_json};
use std::fmt::Write as _;

const CAPTURE: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,TimeInMs,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilDisplayed,MsPCLatency,PCLFrameId
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,10.0,10.0,NA,0.5,NA,NA,100
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,20.0,10.0,20.0,0.5,8.0,30.0,101
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,30.0,10.0,10.0,0.5,6.0,32.0,102
game.exe,10,0x1,DXGI,0,0,0,Composed: Flip,40.0,10.0,10.0,0.5,7.0,NA,103
";

/// Markers in ns. Frame 100 (dropped) starts at 2 ms, 101 at 12, 102 at 22, 103 at 32;
/// each presents 3 ms after it starts. Input A at 1 ms is tagged on frame 100 (ping at
/// 2 ms), which was dropped: I2FS runs to frame 101's start, 12 − 1 = 11 ms. Input B at
/// 20 ms is tagged on frame 102: 22 − 20 = 2 ms. Mean I2FS = 6.5 ms.
/// FS2P over displayed frames 101, 102, 103 = 3 ms each. P2D = (8 + 6 + 7) / 3 = 7 ms.
/// PCL = 6.5 + 3 + 7 = 16.5 ms. The capture's own MsPCLatency mean is (30 + 32) / 2 = 31.
const MARKERS: &str = "timestamp_ns,event,marker_id,frame_id
1000000,PCLStatsInput,,
2000000,PCLStatsEvent,0,100
2000000,PCLStatsEvent,8,100
5000000,PCLStatsEvent,4,100
12000000,PCLStatsEvent,0,101
15000000,PCLStatsEvent,4,101
20000000,PCLStatsInput,,
22000000,PCLStatsEvent,0,102
22000000,PCLStatsEvent,8,102
25000000,PCLStatsEvent,4,102
32000000,PCLStatsEvent,0,103
35000000,PCLStatsEvent,4,103
";

#[test]
fn pcl_marker_log_fills_the_latency_section() {
    let capture = temp("capture.csv", CAPTURE);
    let markers = temp("markers.csv", MARKERS);
    let (code, doc) = report_json([capture.as_os_str(), "--pcl".as_ref(), markers.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    let lat = &doc["runs"][0]["latency"];
    let f = |k: &str| lat[k].as_f64().unwrap_or(f64::NAN);
    assert!(close(f("i2fs_ms"), 6.5), "{lat}");
    assert!(close(f("fs2p_ms"), 3.0), "{lat}");
    assert!(close(f("p2d_ms"), 7.0), "{lat}");
    assert!(close(f("pcl_ms"), 16.5), "{lat}");
    assert!(close(f("pc_latency_column_mean_ms"), 31.0), "{lat}");
    // Without --pcl the marker figures are null, never 0.
    let (_, doc) = report_json([capture.as_os_str()]);
    assert!(doc["runs"][0]["latency"]["pcl_ms"].is_null());
    assert!(doc["runs"][0]["latency"]["i2fs_ms"].is_null());
}

#[test]
fn pcl_needs_exactly_one_capture_and_a_readable_log() {
    let capture = temp("capture2.csv", CAPTURE);
    let run = common::framescope([
        "report".as_ref(),
        "--pcl".as_ref(),
        capture.as_os_str(),
        capture.as_os_str(),
        capture.as_os_str(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let junk = temp("junk.txt", "hello\nworld\n");
    let (code, doc) = report_json([capture.as_os_str(), "--pcl".as_ref(), junk.as_os_str()]);
    assert_eq!(code, 1);
    assert_eq!(doc["runs"][0]["frames"], 4, "the capture is still reported");
}

/// Damaged marker logs (both kinds) paired with their capture: each one is either read
/// (its figures finite or null) or refused with a message naming the log, never a panic.
#[test]
fn mangled_marker_logs_never_panic() {
    use common::mangle::{XorShift, mangle};
    use framescope_core::analysis::Settings;
    use framescope_core::ingest::parse_marker_log;
    const PER_LOG: u64 = 60;
    let capture_path = common::repo_file("sample-traces/synthetic-pcl-capture.csv");
    let capture = framescope_core::ingest::load_file(
        &capture_path,
        framescope_core::ingest::LoadOptions::default(),
        &framescope_core::ingest::Progress::default(),
    )
    .expect("the synthetic capture loads");
    let plain = std::fs::read(common::repo_file("sample-traces/synthetic-pcl-markers.csv")).expect("markers");
    // The same markers as a Display Commander log (which has no input pings):
    // `Timestamp(ms), MarkerID, MarkerName, FrameID, TimestampNS`.
    let mut commander = String::from(
        "# PCLStats Event Log\n# Format: Timestamp(ms), MarkerID, MarkerName, FrameID, TimestampNS\n#\n",
    );
    for line in String::from_utf8_lossy(&plain).lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if let (Ok(ns), "PCLStatsEvent") = (f[0].parse::<u64>(), f[1]) {
            let _ = writeln!(commander, "{:.6}, {}, MARKER, {}, {ns}", ns as f64 / 1e6, f[2], f[3]);
        }
    }
    let mut tried = 0;
    let mut read = 0;
    let mut failures = Vec::new();
    for (k, original) in [plain, commander.into_bytes()].iter().enumerate() {
        for seed in 0..PER_LOG {
            let mut rng = XorShift::new(seed * 104_729 + k as u64 + 1);
            let (bytes, what) = mangle(original, &mut rng);
            tried += 1;
            let lines: Vec<String> = String::from_utf8_lossy(&bytes).lines().map(str::to_owned).collect();
            let path = std::path::Path::new("markers.log");
            let result = std::panic::catch_unwind(|| {
                parse_marker_log(path, &lines, 10_000_000.0).map(|log| {
                    let run =
                        framescope_core::report::run("c.csv", &capture, 0, &Settings::default(), Some(&log));
                    run.latency.map(|l| [l.i2fs_ms, l.fs2p_ms, l.p2d_ms, l.pcl_ms])
                })
            });
            match result {
                Err(_) => failures.push(format!("log {k} seed {seed} ({what}): panicked")),
                Ok(Ok(figures)) => {
                    read += 1;
                    let bad = figures.iter().flatten().flatten().any(|v| !v.is_finite());
                    if bad {
                        failures
                            .push(format!("log {k} seed {seed} ({what}): a non-finite figure {figures:?}"));
                    }
                }
                Ok(Err(e)) if !e.to_string().starts_with("markers.log") => {
                    failures.push(format!("log {k} seed {seed} ({what}): error does not name the log: {e}"));
                }
                Ok(Err(_)) => {}
            }
        }
    }
    eprintln!("{tried} mangled marker logs, {read} read");
    assert!(read > tried / 2, "most damaged logs should still be read: {read} of {tried}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
