//! Sampled logs (`metrics.md` §10): the NVIDIA App performance log and the MSI
//! Afterburner hardware-monitoring log (`formats.md` §8; MangoHud's sampled logs are in
//! `tests/mangohud.rs`). One row per polling interval, not per frame: each row with a
//! time ends the interval since the row before (the first only opens the log), and is
//! a *sample* of rate `r` over that interval `Δt` when it has a rate above 0. A sample
//! stands for `w = r·Δt/1000` frames of `1000/r` ms, and every figure weights it so.
//!
//! What this file checks:
//! * hand-built logs of each format, figures worked by hand in the comments: two
//!   samples of different Δt, a row without FPS and PID-0 rows ending intervals, a
//!   repeated timestamp, weighted percentiles and lows, Afterburner's polling period,
//!   the `Framerate` column first and `1000 / Frametime` only without one; with every
//!   quirk of the real files: the header's trailing comma, `N/A`, truncated rows, a
//!   spreadsheet's summary row, 1- and 2-digit line types, duplicate and space-padded
//!   names, CRLF, a byte-order mark;
//! * logs that are not usable fail with "not a capture" or "no frames", never a panic,
//!   also when cut at any byte;
//! * the six real logs through `framescope report --json`: the figures of their own
//!   columns read independently here (Death Stranding avg ≈ 147.64 where the row-wise
//!   harmonic mean was 144.20, Marvel Rivals FG ≈ 115.64, RE3 ≈ 112.55), the duration
//!   the span their samples cover, and `sampled: true` with the per-frame sections null.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::{close, real_traces, report_json};
use framescope_core::ingest::{LoadErrorKind, LoadOptions, load_bytes};
use framescope_core::model::{Capture, ColumnKind, Format};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn load(name: &str, text: &str) -> Capture {
    load_bytes(Path::new(name), text.as_bytes(), LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn all_messages(c: &Capture) -> String {
    let t = c.traces.iter().flat_map(|t| &t.warnings);
    c.warnings.iter().chain(t).map(|w| format!("{:?}: {}", w.line, w.message)).collect::<Vec<_>>().join("\n")
}

/// `values` equal `want`, NaN standing for a missing value.
fn same(values: &[f64], want: &[f64]) -> bool {
    values.len() == want.len()
        && values.iter().zip(want).all(|(a, b)| (a.is_nan() && b.is_nan()) || (a - b).abs() < 1e-9)
}

/// A file in a fresh folder under the system temp dir (removed when dropped).
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("framescope_sampled_{}_{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        Self(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The one run of `framescope report --json FILE`, with exit 0.
fn report_of(path: &Path) -> Value {
    let (code, doc) = report_json([path.as_os_str()]);
    assert_eq!(code, 0, "{doc}");
    doc["runs"][0].clone()
}

fn figure(run: &Value, section: &str, name: &str) -> f64 {
    run[section][name].as_f64().unwrap_or_else(|| panic!("{section}.{name} in {run}"))
}

/// A run of a sampled log: `sampled`, no per-frame section, no VSYNC grid.
fn assert_sampled_run(run: &Value) {
    assert_eq!(run["sampled"], Value::Bool(true), "{run}");
    assert_eq!(run["frame_time"], "presents");
    for section in ["pacing", "stutters", "osc", "health", "frame_types", "vsync"] {
        assert!(run[section].is_null(), "{section} should be null: {}", run[section]);
    }
    assert!(run["dropped_frames"].is_null(), "a sampled log does not say which frames were dropped");
}

// ---------------------------------------------------------------------------------
// NVIDIA App
// ---------------------------------------------------------------------------------

/// As the NVIDIA App writes it (trailing comma in the header, CRLF here), plus every
/// kind of row that is not a sample:
/// * line 2, t 0 s: opens the log (its 50 FPS are no sample: no interval before it);
/// * line 3, t 0.5 s, 100 FPS: Δt = 500 ms, w = 100·500/1000 = 50 frames of 10 ms;
/// * line 4, t 1.0 s, FPS N/A: no sample, but it ends the interval 0.5–1.0 s;
/// * line 5: truncated, no timestamp: not a row at all;
/// * line 6, t 2.0 s, 25 FPS: Δt = 1000 ms (from line 4, not line 3), w = 25 of 40 ms;
/// * line 7, t 2.0 s again: Δt = 0, no sample (its 80 FPS would set max_fps);
/// * lines 8–9, PID 0 after the game exited: no samples; line 10 a spreadsheet's
///   summary row without a timestamp: not a row.
///
/// W = 75 → frames 75; duration = 500 + 1000 = 1500 ms; avg = (100·500 + 25·1000) /
/// 1500 = 50 (the mean of the rows' 1000/FPS would say 40: 2000/50). min 25, max 100.
/// Weighted percentiles, ascending: 10 ms (running 50), 40 ms (75): p50 → 37.5 is
/// reached at 10 ms, p90 → 67.5 at 40 ms. 1 % low: K = 0.75 frames, all of the 40 ms
/// sample: 1000·0.75/(0.75·40) = 25. Render latency Δt-weighted: (4·500 + 6·1000) /
/// 1500 = 5.333…; PC latency: 0 is "none", so only line 6's 30 (mean, min, max 30).
/// Samples end at 500 and 2000 ms on the log's clock → start at 0 and 1000 ms. The
/// mean interval (500 + 1000)/2 = 750 ms.
const NVIDIA: &str = "Timestamp (Elapsed time in seconds),PID,FPS,FPS 1(%) Low,Render Latency(MSec),\
Average PC Latency(MSec),CPU Utilization(%),GPU1 Utilization(%),GPU2 Utilization(%),\r\n\
0.000,4242,50.000,40.000,5.000,20.000,10.000,90.000,N/A\r\n\
0.500,4242,100.000,80.000,4.000,0.000,N/A,91.000,N/A\r\n\
1.000,4242,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n\
,4242,60.0,50.0,4.1,21.0\r\n\
2.000,4242,25.000,20.000,6.000,30.000,12.000,95.000,N/A\r\n\
2.000,4242,80.000,70.000,6.000,30.000,12.000,95.000,N/A\r\n\
2.500,0,0.000,0.000,0.000,0.000,5.000,1.000,N/A\r\n\
3.000,0,0.000,0.000,0.000,0.000,4.000,0.000,N/A\r\n\
,,58.333,,,,,,\r\n";

#[test]
fn nvidia_app_log_with_every_quirk() {
    let c = load("MarvelRivals_run1.csv", NVIDIA);
    assert_eq!(c.info.format, Format::NvidiaApp);
    assert!(!c.info.dropped_known, "a sampled log does not say which frames were dropped");
    assert_eq!(c.traces.len(), 1, "a sampled log is one trace");
    let t = &c.traces[0];
    assert!(t.is_sampled());
    assert_eq!(t.meta.application, "MarvelRivals_run1", "the log does not name the game: the file does");
    assert_eq!(t.meta.process_id, Some(4242));
    assert!(same(&t.frames.frame_time_ms, &[10.0, 40.0]), "{:?}", t.frames.frame_time_ms);
    assert!(same(&t.frames.sample_ms, &[500.0, 1000.0]), "{:?}", t.frames.sample_ms);
    assert!(same(&t.frames.start_ms, &[0.0, 1000.0]), "{:?}", t.frames.start_ms);
    assert_eq!(t.frames.line, vec![3, 6]);
    assert_eq!(t.frames.dropped, vec![false; 2]);
    assert!(t.frames.display_ms.iter().all(|v| v.is_nan()));

    let pcl = t.column(ColumnKind::PcLatency).expect("Average PC Latency is a PC latency column");
    assert!(same(&pcl.values, &[f64::NAN, 30.0]), "0 = no latency: {:?}", pcl.values);
    let render = t.column_named("Render Latency(MSec)").expect("render latency kept");
    assert_eq!(render.kind, ColumnKind::RenderPresentLatency);
    assert!(same(&render.values, &[4.0, 6.0]));
    let cpu = t.column_named("CPU Utilization(%)").expect("telemetry kept");
    assert_eq!(cpu.kind, ColumnKind::Telemetry);
    assert!(same(&cpu.values, &[f64::NAN, 12.0]), "N/A is missing: {:?}", cpu.values);
    assert_eq!(t.column_named("FPS 1(%) Low").map(|c| c.kind), Some(ColumnKind::Telemetry));
    assert!(t.column_named("GPU2 Utilization(%)").is_none(), "an all-N/A column is left out");
    for gone in ["FPS", "PID", "Timestamp (Elapsed time in seconds)", ""] {
        assert!(t.column_named(gone).is_none(), "{gone:?} is no column");
    }

    let msgs = all_messages(&c);
    assert!(msgs.contains("None: The NVIDIA App wrote one row every ~750 ms, not one per frame"), "{msgs}");
    for (line, what) in [
        (4, "FPS is missing: not a sample; the row still ends the interval before it"),
        (5, "row has 6 fields, header has 9"),
        (7, "the time does not come after the row before"),
        (8, "PID is 0"),
        (9, "PID is 0"),
        (10, "row has no usable timestamp"),
    ] {
        assert!(msgs.contains(&format!("Some({line}): {what}")), "line {line} {what}: {msgs}");
    }
}

/// The same log through the binary: the weighted figures of its two samples (see
/// [`NVIDIA`]), in the JSON and in the readable table.
#[test]
fn nvidia_app_log_figures_through_the_cli() {
    let file = TempFile::new("nvidia.csv", NVIDIA);
    let run = report_of(&file.0);
    assert_eq!(run["format"], "nvidia-app");
    assert_sampled_run(&run);
    assert_eq!(run["process_id"], 4242);
    assert_eq!(run["samples"], 2);
    assert_eq!(run["frames"], 75);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 1500.0));
    assert!(close(figure(&run, "summary", "avg_fps"), 50.0));
    assert!(close(figure(&run, "summary", "min_fps"), 25.0));
    assert!(close(figure(&run, "summary", "max_fps"), 100.0));
    assert!(close(figure(&run, "summary", "p50_ms"), 10.0));
    assert!(close(figure(&run, "summary", "p90_ms"), 40.0));
    assert!(close(figure(&run, "summary", "low_1pct_fps"), 25.0));
    assert!(close(figure(&run, "latency", "pc_latency_column_mean_ms"), 30.0));
    assert!(close(figure(&run, "latency", "pc_latency_min_ms"), 30.0));
    assert!(close(figure(&run, "latency", "pc_latency_max_ms"), 30.0));
    assert!(close(figure(&run, "latency", "render_present_latency_mean_ms"), 8000.0 / 1500.0));
    for key in ["display_latency_mean_ms", "click_to_photon_mean_ms", "animation_error_mean_abs_ms"] {
        assert!(run["latency"][key].is_null(), "{key}");
    }

    let table = common::framescope(["report".as_ref(), file.0.as_os_str()]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stdout.contains("frames ≈75 (estimated from 2 samples)"), "{}", table.stdout);
    assert!(
        table.stdout.contains(
            "sampled log: figures from 2 samples; pacing, stutters, oscillation and frame health need \
             per-frame data"
        ),
        "{}",
        table.stdout
    );
}

/// An Excel re-save: no trailing comma in the header, LF, numbers re-formatted, a
/// byte-order mark, a row that lost its timestamp, and two processes.
/// * line 2, t 0.058 s: opens the log; line 3: no timestamp, not a row;
/// * line 4, t 0.57 s, 62.5 FPS: Δt 512 ms, w = 32;
/// * line 5, t 1.081 s, 80 FPS (PID 99): Δt 511 ms, w = 40.88; line 6: summary row.
///
/// W = 72.88 → 73 frames; duration 1023 ms; avg = (62.5·512 + 80·511)/1023 =
/// 72 880/1023 = 71.241… (the user's spreadsheet mean of every FPS cell would be
/// another number again). A PC latency that is always 0 is no column.
#[test]
fn nvidia_app_log_resaved_by_a_spreadsheet() {
    let text = "\u{feff}Timestamp (Elapsed time in seconds),PID,FPS,Average PC Latency(MSec)\n\
                0.058,23316,125,0\n\
                ,23316,153.649,0\n\
                0.57,23316,62.5,0\n\
                1.081,99,80,0\n\
                ,,147.6322666,\n";
    let c = load("ds.csv", text);
    let t = &c.traces[0];
    assert!(same(&t.frames.frame_time_ms, &[16.0, 12.5]));
    assert!(same(&t.frames.sample_ms, &[512.0, 511.0]), "{:?}", t.frames.sample_ms);
    assert_eq!(t.frames.line, vec![4, 5]);
    assert_eq!(t.meta.process_id, Some(23316), "the first process names the trace");
    assert!(t.column(ColumnKind::PcLatency).is_none(), "a PC latency that is always 0 is no column");
    let msgs = all_messages(&c);
    assert!(msgs.contains("several processes (PIDs 23316, 99)"), "{msgs}");
    assert!(msgs.contains("Some(3): row has no usable timestamp"), "{msgs}");
    assert!(msgs.contains("Some(6): row has no usable timestamp"), "{msgs}");
    let p = framescope_core::analysis::Prepared::new(t, framescope_core::analysis::FrameTimeSource::Auto);
    let (run, s) = (p.sampled.unwrap(), p.summary.unwrap());
    assert_eq!((run.samples, run.frames), (2, 73));
    assert!(close(run.duration_ms, 1023.0));
    assert!(close(s.avg_fps, 72_880.0 / 1023.0));
    assert!(p.figures(&framescope_core::analysis::Settings::default()).pacing.is_none());
}

#[test]
fn unusable_nvidia_app_logs_fail_clearly() {
    let header = "Timestamp (Elapsed time in seconds),PID,FPS,CPU Utilization(%),\n";
    let no_fps = "Timestamp (Elapsed time in seconds),PID,CPU Utilization(%),\n0.5,1,3\n";
    for (name, text, not_a_capture, words) in [
        ("no_fps.csv", no_fps.to_owned(), true, "no `FPS` column"),
        ("header_only.csv", header.to_owned(), false, "no data rows"),
        (
            "exited.csv",
            format!("{header}0.0,0,0.000,5\n0.5,0,0.000,6\n"),
            false,
            "none of its 2 timed rows is a sample",
        ),
        ("one_row.csv", format!("{header}0.0,7,60,5\n"), false, "only one row with a usable time"),
        ("no_time.csv", format!("{header},7,60,5\n,7,61,5\n"), false, "none of its 2 rows has a usable time"),
        ("stuck.csv", format!("{header}1.0,7,60,5\n1.0,7,61,5\n"), false, "none of its 2 timed rows"),
    ] {
        let err = load_bytes(Path::new(name), text.as_bytes(), LoadOptions::default()).expect_err(name);
        let kind_ok = if not_a_capture {
            matches!(err.kind, LoadErrorKind::NotACapture(_))
        } else {
            matches!(err.kind, LoadErrorKind::NoFrames(_))
        };
        assert!(kind_ok, "{name}: {:?}", err.kind);
        assert!(err.to_string().contains(words), "{name}: {err}");
    }
}

// ---------------------------------------------------------------------------------
// MSI Afterburner
// ---------------------------------------------------------------------------------

/// The `.hml` shape: 2-digit line types, space-padded names and values, a duplicate
/// `Framerate` (the first is the rate, the second left out), LF. Timed sample lines 6–11, 18:55:13 to
/// 18:55:16: polling period P = 3000 ms / (6 − 1) = 600 ms.
/// * line 6: opens the log; line 7 (2nd timed line): 100 FPS, ends 600 ms after line 6;
/// * line 8: Framerate N/A, line 10: Framerate 0: no samples (still polling instants);
/// * line 9 (4th timed line): 25 FPS, ends 3·600 = 1800 ms after line 6;
/// * line 11: truncated (4 fields, header 7), but timed: counts in P, no sample.
///
/// Samples: (100 FPS, Δt 600 → w 60, 10 ms), (25 FPS, Δt 600 → w 15, 40 ms): W = 75,
/// duration 1200 ms, avg = (100 + 25)/2 = 62.5 (equal intervals: the mean rate).
/// p50 → 37.5 reached at 10 ms; p90 → 67.5 at 40 ms; 1 % low: K = 0.75 of the 40 ms
/// sample → 25. Starts 600 − 600 = 0 and 1800 − 600 = 1200 ms.
const HML: &str = "00, 03-06-2021 18:55:13, Hardware monitoring log v1.6 \n\
01, 03-06-2021 18:55:13, NVIDIA GeForce RTX 2070 SUPER\n\
02, 03-06-2021 18:55:13, GPU temperature     ,Framerate           ,Frametime           ,Framerate           ,CPU usage           \n\
03, 03-06-2021 18:55:13, 0                   ,C                   ,0.000               ,100.000             ,10                  ,                    ,                    ,\n\
03, 03-06-2021 18:55:13, 1                   ,FPS                 ,0.000               ,200.000             ,10                  ,                    ,                    ,%.1f\n\
80, 03-06-2021 18:55:13, 60.000              ,50.000              ,20.000              ,51.000              ,10.000              \n\
80, 03-06-2021 18:55:13, 61.000              ,100.000             ,11.000              ,99.000              ,N/A                 \n\
80, 03-06-2021 18:55:14, 62.000              ,N/A                 ,N/A                 ,N/A                 ,12.000              \n\
80, 03-06-2021 18:55:15, 63.000              ,25.000              ,45.000              ,24.000              ,13.000              \n\
80, 03-06-2021 18:55:16, 63.000              ,0.000               ,0.000               ,0.000               ,11.000              \n\
80, 03-06-2021 18:55:16, 63.000              ,0.0\n";

#[test]
fn afterburner_hml_with_two_digit_line_types() {
    let c = load("HardwareMonitoring.hml", HML);
    assert_eq!(c.info.format, Format::Afterburner);
    assert_eq!(c.info.format_version, "Hardware monitoring log v1.6");
    assert_eq!(c.info.system, vec![("GPU".to_owned(), "NVIDIA GeForce RTX 2070 SUPER".to_owned())]);
    assert!(!c.info.dropped_known);
    let t = &c.traces[0];
    assert_eq!(t.meta.application, "HardwareMonitoring");
    assert_eq!(t.meta.process_id, None);
    assert!(same(&t.frames.frame_time_ms, &[10.0, 40.0]), "{:?}", t.frames.frame_time_ms);
    assert!(same(&t.frames.sample_ms, &[600.0, 600.0]), "{:?}", t.frames.sample_ms);
    assert!(same(&t.frames.start_ms, &[0.0, 1200.0]), "{:?}", t.frames.start_ms);
    assert_eq!(t.frames.line, vec![7, 9]);
    let names: Vec<&str> = t.frames.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["GPU temperature", "Frametime", "CPU usage"],
        "the first Framerate is the rate, a repeated one is left out; Frametime (one frame at the \
         polling instant) is telemetry"
    );
    assert!(t.frames.columns.iter().all(|c| c.kind == ColumnKind::Telemetry));
    let col = |n: &str| t.column_named(n).unwrap().values.clone();
    assert!(same(&col("Frametime"), &[11.0, 45.0]));
    assert!(t.column_named("Framerate (2)").is_none(), "the later duplicate is left out");
    assert!(same(&col("CPU usage"), &[f64::NAN, 13.0]), "N/A is missing");
    let msgs = all_messages(&c);
    assert!(msgs.contains("None: MSI Afterburner wrote one row every ~600 ms, not one per frame"), "{msgs}");
    assert!(msgs.contains("Some(8): Framerate is missing: not a sample"), "{msgs}");
    assert!(msgs.contains("Some(10): Framerate is 0 or less: not a sample"), "{msgs}");
    assert!(msgs.contains("Some(11): row has 4 fields, header has 7"), "{msgs}");

    let file = TempFile::new("HardwareMonitoring.hml", HML);
    let run = report_of(&file.0);
    assert_eq!(run["format"], "afterburner");
    assert_sampled_run(&run);
    assert_eq!(run["application"], "HardwareMonitoring");
    assert_eq!((run["frames"].as_u64(), run["samples"].as_u64()), (Some(75), Some(2)));
    assert!(close(run["duration_ms"].as_f64().unwrap(), 1200.0));
    assert!(close(figure(&run, "summary", "avg_fps"), 62.5));
    assert!(close(figure(&run, "summary", "p50_ms"), 10.0));
    assert!(close(figure(&run, "summary", "p90_ms"), 40.0));
    assert!(close(figure(&run, "summary", "low_1pct_fps"), 25.0));
    assert!(run["latency"].as_object().unwrap().values().all(Value::is_null), "no latency columns");
}

/// Saved as `.csv`: 1-digit line types, CRLF, every line padded with commas, empty
/// names, a duplicate `Frametime` after them (left out: the first of a name wins).
/// Timed lines 5–7 over 2 s: P = 2000/2 = 1000 ms. Line 5 opens, line 6 has no rate,
/// line 7 (3rd timed line) is 40 FPS: w = 40 frames of 25 ms, duration 1000, avg 40;
/// it ends 2·1000 ms after line 5 and starts at 1000 → shifted to 0.
#[test]
fn afterburner_csv_with_one_digit_line_types_and_crlf() {
    let text = "0, 24-10-2025 16:56:05, Hardware monitoring log v1.6 ,,,,\r\n\
                1, 24-10-2025 16:56:05, Radeon RX 580 Series,,,,\r\n\
                2, 24-10-2025 16:56:05, Power               ,Framerate           ,Frametime           ,,Frametime           \r\n\
                3, 24-10-2025 16:56:05,0,,,300,10\r\n\
                80, 24-10-2025 16:56:05,142.515,50,20,,20.5\r\n\
                80, 24-10-2025 16:56:06,140.0,N/A                 ,0,,0\r\n\
                80, 24-10-2025 16:56:07,141.0,40,25,,25.5\r\n";
    let c = load("RE3_Windows.csv", text);
    assert_eq!(c.info.format, Format::Afterburner);
    assert_eq!(c.info.system, vec![("GPU".to_owned(), "Radeon RX 580 Series".to_owned())]);
    let t = &c.traces[0];
    assert!(same(&t.frames.frame_time_ms, &[25.0]));
    assert!(same(&t.frames.sample_ms, &[1000.0]));
    assert!(same(&t.frames.start_ms, &[0.0]), "{:?}", t.frames.start_ms);
    assert_eq!(t.frames.line, vec![7]);
    let names: Vec<&str> = t.frames.columns.iter().map(|c| c.name.as_str()).collect();
    // The repeated Frametime is left out: the first of a name wins, as in CSV captures.
    assert_eq!(names, ["Power", "Frametime"]);
    assert!(same(&t.column_named("Frametime").unwrap().values, &[25.0]));
    assert!(all_messages(&c).contains("Some(6): Framerate is missing"));
    let p = framescope_core::analysis::Prepared::new(t, framescope_core::analysis::FrameTimeSource::Display);
    assert_eq!(
        p.source,
        framescope_core::analysis::FrameTimeSource::Presents,
        "a sampled log has rates only"
    );
    let (run, s) = (p.sampled.unwrap(), p.summary.unwrap());
    assert_eq!(run.frames, 40);
    assert!(close(run.duration_ms, 1000.0) && close(s.avg_fps, 40.0));
}

/// Without a `Framerate` column the rate is `1000 / Frametime`: 25 and 50 ms → 40 and
/// 20 FPS. Three timed lines over 2 s: P = 1000 ms; samples w = 40 and 20, W = 60,
/// avg = (40 + 20)/2 = 30, min 20, max 40.
#[test]
fn afterburner_without_framerate_uses_the_frametime() {
    let text = "00, 01-01-2024 00:00:00, Hardware monitoring log v1.6\n\
                02, 01-01-2024 00:00:00, GPU usage ,Frametime \n\
                80, 01-01-2024 00:00:00, 90 ,20 \n\
                80, 01-01-2024 00:00:01, 95 ,25 \n\
                80, 01-01-2024 00:00:02, 95 ,50 \n";
    let c = load("fr.hml", text);
    let t = &c.traces[0];
    assert!(same(&t.frames.frame_time_ms, &[25.0, 50.0]));
    assert!(t.column_named("Frametime").is_none(), "the rate's source is no column");
    let p = framescope_core::analysis::Prepared::new(t, framescope_core::analysis::FrameTimeSource::Auto);
    let (run, s) = (p.sampled.unwrap(), p.summary.unwrap());
    assert_eq!(run.frames, 60);
    assert!(close(s.avg_fps, 30.0) && close(s.min_fps, 20.0) && close(s.max_fps, 40.0));
    assert!(all_messages(&c).contains("1000 / Frametime: the log has no Framerate"), "{}", all_messages(&c));
}

#[test]
fn unusable_afterburner_logs_fail_clearly() {
    let head = "00, 01-01-2024 00:00:00, Hardware monitoring log v1.6\n";
    for (name, text, words) in [
        ("no_samples.hml", format!("{head}02, 01-01-2024 00:00:00, Framerate\n"), "no sample lines"),
        (
            "no_frame_column.hml",
            format!("{head}02, 01-01-2024 00:00:00, GPU usage\n80, 01-01-2024 00:00:00, 50\n"),
            "no Framerate or Frametime column",
        ),
        (
            "no_time.hml",
            format!("{head}02, 01-01-2024 00:00:00, Frametime\n80, yesterday, 16.6\n"),
            "none of its 1 rows has a usable time",
        ),
        (
            "one_line.hml",
            format!("{head}02, 01-01-2024 00:00:00, Framerate\n80, 01-01-2024 00:00:00, 60\n"),
            "only one row with a usable time",
        ),
        (
            "one_second.hml",
            format!(
                "{head}02, 01-01-2024 00:00:00, Framerate\n80, 01-01-2024 00:00:00, 60\n\
                 80, 01-01-2024 00:00:00, 61\n"
            ),
            "do not advance in time",
        ),
    ] {
        let err = load_bytes(Path::new(name), text.as_bytes(), LoadOptions::default()).expect_err(name);
        assert!(matches!(err.kind, LoadErrorKind::NoFrames(_)), "{name}: {:?}", err.kind);
        assert!(err.to_string().contains(words), "{name}: {err}");
    }
    // A CSV that only starts with a 0 is not taken for an Afterburner log.
    let err =
        load_bytes(Path::new("zeros.csv"), b"0,1,2\n3,4,5\n", LoadOptions::default()).expect_err("zeros");
    assert!(matches!(err.kind, LoadErrorKind::NotACapture(_)), "{:?}", err.kind);
}

/// Every prefix of the hand-built logs (a log cut at any byte) loads or fails with a
/// message naming the file; a loaded one keeps the model's invariants.
#[test]
fn logs_cut_at_any_byte_never_panic() {
    for (name, text) in [("n.csv", NVIDIA), ("h.hml", HML)] {
        for end in 0..=text.len() {
            let bytes = &text.as_bytes()[..end];
            match load_bytes(Path::new(name), bytes, LoadOptions::default()) {
                Ok(c) => {
                    let t = &c.traces[0];
                    let f = &t.frames;
                    let n = t.len();
                    assert!(n > 0 && f.start_ms.len() == n && f.line.len() == n && f.dropped.len() == n);
                    assert!(t.is_sampled() && f.sample_ms.len() == n);
                    assert!(f.frame_time_ms.iter().all(|v| v.is_finite() && *v > 0.0));
                    assert!(f.sample_ms.iter().all(|v| v.is_finite() && *v > 0.0));
                    assert!(f.start_ms.iter().all(|v| v.is_finite() && *v >= 0.0));
                    assert!(f.columns.iter().all(|col| col.values.len() == n));
                }
                Err(e) => assert!(e.to_string().starts_with(name), "{end}: {e}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// The real logs
// ---------------------------------------------------------------------------------

/// The samples of an NVIDIA App log, read independently: every line with a numeric
/// timestamp is a row; each row after the first closes the time since the row before;
/// it is a sample (rate `FPS`, that interval in ms) when its FPS and PID are above 0
/// and the interval is.
fn nvidia_samples(text: &str) -> Vec<(f64, f64)> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').map(str::trim).collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (time, pid, fps) = (at("Timestamp (Elapsed time in seconds)"), at("PID"), at("FPS"));
    let mut before: Option<f64> = None;
    let mut out = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let Some(t) = f.get(time).and_then(|c| c.trim().parse::<f64>().ok()) else { continue };
        let dt = before.map(|b| (t - b) * 1000.0);
        before = Some(t);
        let p: f64 = f.get(pid).and_then(|c| c.trim().parse().ok()).unwrap_or(0.0);
        let r: f64 = f.get(fps).and_then(|c| c.trim().parse().ok()).unwrap_or(0.0);
        if let Some(dt) = dt.filter(|&d| d > 0.0)
            && p > 0.0
            && r > 0.0
        {
            out.push((r, dt));
        }
    }
    out
}

/// The samples of an Afterburner log, read independently: every `80` line with a
/// date-time is a polling instant; P = (last − first) / (instants − 1); every instant
/// after the first with a first-`Framerate` value above 0 is a sample of interval P.
fn afterburner_samples(text: &str) -> Vec<(f64, f64)> {
    let mut rate_col = None;
    let mut instants: Vec<(f64, Option<f64>)> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        match f[0] {
            "2" | "02" => rate_col = f.iter().position(|n| *n == "Framerate"),
            "80" => {
                // dd-mm-yyyy HH:MM:SS: seconds within the log's day(s).
                let (date, clock) = f[1].split_once(' ').unwrap();
                let day: f64 = date[..2].parse().unwrap();
                let hms: Vec<f64> = clock.split(':').map(|x| x.parse().unwrap()).collect();
                let seconds = day * 86_400.0 + hms[0] * 3600.0 + hms[1] * 60.0 + hms[2];
                let rate = f.get(rate_col.unwrap()).and_then(|c| c.parse::<f64>().ok()).filter(|&r| r > 0.0);
                instants.push((seconds, rate));
            }
            _ => {}
        }
    }
    let period = (instants.last().unwrap().0 - instants[0].0) * 1000.0 / (instants.len() - 1) as f64;
    instants[1..].iter().filter_map(|&(_, r)| r.map(|r| (r, period))).collect()
}

#[test]
fn real_sampled_logs_match_their_own_columns() {
    let Some(dir) = real_traces() else { return };
    // (file, format, avg_fps to 0.01: the brief's figures from the oracle's goldens)
    let files = [
        ("nvidia-app/DeathStranding_High_DLSSQ_excel-edited.csv", "nvidia-app", Some(147.64)),
        ("nvidia-app/MarvelRivals_DLSSQ_FrameGen_High.csv", "nvidia-app", Some(115.64)),
        ("nvidia-app/MarvelRivals_NoDLSS_High_run2.csv", "nvidia-app", None),
        ("nvidia-app/StellarBlade_DLSS4_MediumSM_ShadersCompiled.csv", "nvidia-app", None),
        ("msi-afterburner/HardwareMonitoring.hml", "afterburner", Some(101.95)),
        ("msi-afterburner/RE3_Windows_afterburner.csv", "afterburner", Some(112.55)),
    ];
    for (rel, format, known_avg) in files {
        let path = dir.join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let samples = if format == "nvidia-app" { nvidia_samples(&text) } else { afterburner_samples(&text) };
        assert!(!samples.is_empty(), "{rel}");
        let duration: f64 = samples.iter().map(|s| s.1).sum();
        let weight: f64 = samples.iter().map(|(r, dt)| r * dt / 1000.0).sum();
        let want_avg = samples.iter().map(|(r, dt)| r * dt).sum::<f64>() / duration;
        let run = report_of(&path);
        assert_eq!(run["format"], format, "{rel}");
        assert_sampled_run(&run);
        assert_eq!(run["samples"].as_u64(), Some(samples.len() as u64), "{rel}");
        assert_eq!(run["frames"].as_u64(), Some(weight.round() as u64), "{rel}: frames = round(W)");
        let got_duration = run["duration_ms"].as_f64().unwrap();
        assert!(
            (got_duration - duration).abs() < 1e-6 * duration,
            "{rel}: duration {got_duration} vs {duration}"
        );
        let got = figure(&run, "summary", "avg_fps");
        assert!((got - want_avg).abs() < 1e-9 * want_avg, "{rel}: avg_fps {got} vs {want_avg}");
        if let Some(known) = known_avg {
            assert!((got - known).abs() < 0.01, "{rel}: avg_fps {got} vs {known}");
        }
        assert!(run["warnings"].to_string().contains("not one per frame"), "{rel}");
        eprintln!(
            "{rel}: {} samples, {} frames, {:.1} s, avg {got:.2} FPS",
            samples.len(),
            run["frames"],
            got_duration / 1000.0
        );
    }
}

/// Marvel Rivals FG has no row that ends an interval without being a sample (its two
/// repeated timestamps add no time), so its samples cover the whole log: the duration
/// is the last timestamp minus the first, 122.268 s — not the 2.4 s the rows' frame
/// times add up to. RE3's 804 samples cover 804 polling periods of 821 s / 820.
#[test]
fn real_sampled_durations_are_the_time_the_samples_span() {
    let Some(dir) = real_traces() else { return };
    let run = report_of(&dir.join("nvidia-app/MarvelRivals_DLSSQ_FrameGen_High.csv"));
    assert!((run["duration_ms"].as_f64().unwrap() - 122_268.0).abs() < 1e-6, "{}", run["duration_ms"]);
    let run = report_of(&dir.join("msi-afterburner/RE3_Windows_afterburner.csv"));
    assert_eq!(run["samples"], 804);
    assert!(close(run["duration_ms"].as_f64().unwrap(), 804.0 * 821_000.0 / 820.0), "{}", run["duration_ms"]);
}

/// `framescope compare` of two sampled logs: the summary and latency are compared, the
/// per-frame figures are null on both sides. Baseline [`NVIDIA`] (avg 50, PC latency
/// 30); other: t 0 opens, t 1 s at 100 FPS (PC latency 20): avg 100 → delta +50,
/// better; PC latency −10, better (lower); frames 75 → 100.
#[test]
fn compare_two_sampled_logs() {
    let a = TempFile::new("a.csv", NVIDIA);
    let b = TempFile::new(
        "b.csv",
        "Timestamp (Elapsed time in seconds),PID,FPS,Average PC Latency(MSec)\n0,1,90,25\n1,1,100,20\n",
    );
    let run = common::framescope(["compare".as_ref(), "--json".as_ref(), a.0.as_os_str(), b.0.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let c = &doc["comparison"];
    assert!(close(c["summary"]["avg_fps"]["delta"].as_f64().unwrap(), 50.0), "{c}");
    assert_eq!(c["summary"]["avg_fps"]["better"], Value::Bool(true));
    assert!(close(c["latency"]["pc_latency_column_mean_ms"]["delta"].as_f64().unwrap(), -10.0));
    assert_eq!(c["latency"]["pc_latency_column_mean_ms"]["better"], Value::Bool(true));
    assert!(close(c["run"]["frames"]["other"].as_f64().unwrap(), 100.0));
    for (section, name) in [("pacing", "steady_fps"), ("stutters", "count"), ("osc", "p90_iqr_ms")] {
        assert!(c[section][name].is_null(), "{section}.{name}: {}", c[section][name]);
    }
    for run in doc["runs"].as_array().unwrap() {
        assert_sampled_run(run);
    }
}
