//! The NVIDIA App performance log (`metrics.md` §10, `formats.md` §8), hand-built with
//! every quirk of the real files: the header's trailing comma, `N/A`, truncated rows, a
//! repeated timestamp, PID-0 rows, a spreadsheet's summary row, CRLF; unusable logs
//! fail with "not a capture" or "no frames".
//!
//! A sampled log has one row per polling interval, not per frame: each row with a time
//! ends the interval since the row before (the first only opens the log), and is a
//! *sample* of rate `r` over that interval `Δt` when it has a rate above 0. A sample
//! stands for `w = r·Δt/1000` frames of `1000/r` ms, and every figure weights it so.
//! Figures are worked by hand in the comments; fixtures and helpers: `common::sampled`.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::close;
#[allow(clippy::wildcard_imports)]
use common::sampled::*;
use framescope_core::ingest::{LoadErrorKind, LoadOptions, load_bytes};
use framescope_core::model::{ColumnKind, Format};
use std::path::Path;

// ---------------------------------------------------------------------------------
// NVIDIA App
// ---------------------------------------------------------------------------------

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
    // No display data: no display list and no dropped flags (issue 34: 9 bytes a
    // frame that say nothing); read, a frame is not dropped and has no interval.
    assert!(t.frames.dropped.is_empty() && t.frames.display_ms.is_empty());
    assert!(!t.frames.is_dropped(1) && t.frames.display(1).is_nan());

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
