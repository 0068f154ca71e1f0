//! The MSI Afterburner hardware-monitoring log (`metrics.md` §10, `formats.md` §8),
//! hand-built: 1- and 2-digit line types, duplicate and space-padded names, the
//! polling period, the `Framerate` column first and `1000 / Frametime` only without
//! one, CRLF, a byte-order mark; unusable logs fail clearly, also when cut at any byte
//! (the NVIDIA App log too).
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
use serde_json::Value;
use std::path::Path;

// ---------------------------------------------------------------------------------
// MSI Afterburner
// ---------------------------------------------------------------------------------

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
                    assert!(n > 0 && f.start_ms.len() == n && f.line.len() == n);
                    // No display data: no display list, no dropped flags.
                    assert!(f.dropped.is_empty() && f.display_ms.is_empty());
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
