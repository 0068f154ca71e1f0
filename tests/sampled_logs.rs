//! Sampled logs: the NVIDIA App performance log and the MSI Afterburner
//! hardware-monitoring log (`formats.md` §8). One row per polling interval, not per
//! frame; each row is one sample whose frame time is `1000 / FPS` (NVIDIA App) or the
//! `Frametime` reading (Afterburner), ending at the row's timestamp.
//!
//! What this file checks:
//! * hand-built logs of each format, figures derived by hand in the comments, with
//!   every quirk of the real files: the header's trailing comma, `N/A`, PID 0 rows after
//!   the game exits, truncated rows, a spreadsheet's summary row, 1- and 2-digit line
//!   types, duplicate and space-padded names, CRLF, a byte-order mark;
//! * logs that are not usable fail with "not a capture" or "no frames", never a panic,
//!   also when cut at any byte;
//! * the six real logs load through `framescope report --json` with exit 0, and their
//!   frame count and average FPS are those of their own columns read independently here.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::{close, real_traces, report_json};
use framescope::ingest::{LoadErrorKind, LoadOptions, load_bytes};
use framescope::model::{Capture, ColumnKind, Format};
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

// ---------------------------------------------------------------------------------
// NVIDIA App
// ---------------------------------------------------------------------------------

/// As the NVIDIA App writes it (trailing comma in the header, CRLF here), plus every
/// kind of bad row:
/// * line 2: t 0 s, 50 FPS → 20 ms; line 3: t 0.5 s, 100 FPS → 10 ms (PC latency 0 =
///   none, CPU N/A); line 6: t 1.5 s, 25 FPS → 40 ms. Kept: n = 3, T = 70 ms;
/// * line 4: FPS N/A (skipped); line 5: truncated, 6 fields (skipped); lines 7–8: PID 0
///   after the game exited (skipped); line 9: a spreadsheet's summary row without a
///   timestamp (skipped).
///
/// avg_fps = 1000·3/70 = 42.857…; min 25, max 100; p50 = 20 ms. Starts t − ft:
/// −20, 490, 1460 → shifted so the earliest is 0: 0, 510, 1480. PC latency mean =
/// (20 + 30)/2 = 25. Samples every (1500 − 0)/(3 − 1) = 750 ms.
const NVIDIA: &str = "Timestamp (Elapsed time in seconds),PID,FPS,FPS 1(%) Low,Render Latency(MSec),\
Average PC Latency(MSec),CPU Utilization(%),GPU1 Utilization(%),GPU2 Utilization(%),\r\n\
0.000,4242,50.000,40.000,5.000,20.000,10.000,90.000,N/A\r\n\
0.500,4242,100.000,80.000,4.000,0.000,N/A,91.000,N/A\r\n\
1.000,4242,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n\
,4242,60.0,50.0,4.1,21.0\r\n\
1.500,4242,25.000,20.000,6.000,30.000,12.000,95.000,N/A\r\n\
2.000,0,0.000,0.000,0.000,0.000,5.000,1.000,N/A\r\n\
2.500,0,0.000,0.000,0.000,0.000,4.000,0.000,N/A\r\n\
,,58.333,,,,,,\r\n";

#[test]
fn nvidia_app_log_with_every_quirk() {
    let c = load("MarvelRivals_run1.csv", NVIDIA);
    assert_eq!(c.info.format, Format::NvidiaApp);
    assert!(!c.info.dropped_known, "a sampled log does not say which frames were dropped");
    assert_eq!(c.traces.len(), 1, "a sampled log is one trace");
    let t = &c.traces[0];
    assert_eq!(t.meta.application, "MarvelRivals_run1", "the log does not name the game: the file does");
    assert_eq!(t.meta.process_id, Some(4242));
    assert!(same(&t.frames.frame_time_ms, &[20.0, 10.0, 40.0]), "{:?}", t.frames.frame_time_ms);
    assert!(same(&t.frames.start_ms, &[0.0, 510.0, 1480.0]), "{:?}", t.frames.start_ms);
    assert_eq!(t.frames.line, vec![2, 3, 6]);
    assert_eq!(t.frames.dropped, vec![false; 3]);
    assert!(t.frames.display_ms.iter().all(|v| v.is_nan()));

    let pcl = t.column(ColumnKind::PcLatency).expect("Average PC Latency is a PC latency column");
    assert!(same(&pcl.values, &[20.0, f64::NAN, 30.0]), "0 = no latency: {:?}", pcl.values);
    let render = t.column_named("Render Latency(MSec)").expect("render latency kept");
    assert_eq!(render.kind, ColumnKind::Other);
    assert!(same(&render.values, &[5.0, 4.0, 6.0]));
    let cpu = t.column_named("CPU Utilization(%)").expect("telemetry kept");
    assert_eq!(cpu.kind, ColumnKind::Telemetry);
    assert!(same(&cpu.values, &[10.0, f64::NAN, 12.0]), "N/A is missing: {:?}", cpu.values);
    assert_eq!(t.column_named("FPS 1(%) Low").map(|c| c.kind), Some(ColumnKind::Telemetry));
    assert!(t.column_named("GPU2 Utilization(%)").is_none(), "an all-N/A column is left out");
    for gone in ["FPS", "PID", "Timestamp (Elapsed time in seconds)", ""] {
        assert!(t.column_named(gone).is_none(), "{gone:?} is no column");
    }

    let msgs = all_messages(&c);
    assert!(msgs.contains("None: The NVIDIA App wrote one row every ~750 ms, not one per frame"), "{msgs}");
    for (line, what) in [
        (4, "frame time is missing"),
        (5, "row has 6 fields, header has 9"),
        (7, "PID is 0"),
        (8, "PID is 0"),
        (9, "row has no usable timestamp"),
    ] {
        assert!(msgs.contains(&format!("Some({line}): {what}")), "line {line} {what}: {msgs}");
    }
}

/// The same log through the binary: the figures of the three samples (see [`NVIDIA`]).
#[test]
fn nvidia_app_log_figures_through_the_cli() {
    let file = TempFile::new("nvidia.csv", NVIDIA);
    let run = report_of(&file.0);
    assert_eq!(run["format"], "nvidia-app");
    assert_eq!(run["process_id"], 4242);
    assert_eq!(run["frames"], 3);
    assert!(run["dropped_frames"].is_null());
    assert!(close(run["duration_ms"].as_f64().unwrap(), 70.0));
    assert!(close(figure(&run, "summary", "avg_fps"), 3000.0 / 70.0));
    assert!(close(figure(&run, "summary", "min_fps"), 25.0));
    assert!(close(figure(&run, "summary", "max_fps"), 100.0));
    assert!(close(figure(&run, "summary", "p50_ms"), 20.0));
    assert!(close(figure(&run, "latency", "pc_latency_column_mean_ms"), 25.0));
}

/// An Excel re-save: no trailing comma in the header, LF, numbers re-formatted, a byte-order
/// mark, a row that lost its timestamp, and two processes. Kept: 0.058 s 125 FPS (8 ms),
/// 0.57 s 62.5 FPS (16 ms), 1.081 s 80 FPS (12.5 ms, PID 99). n = 3, T = 36.5 ms,
/// avg = 3000/36.5 = 82.19…
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
    assert!(same(&t.frames.frame_time_ms, &[8.0, 16.0, 12.5]));
    assert_eq!(t.frames.line, vec![2, 4, 5]);
    assert_eq!(t.meta.process_id, Some(23316), "the first process names the trace");
    assert!(t.column(ColumnKind::PcLatency).is_none(), "a PC latency that is always 0 is no column");
    let msgs = all_messages(&c);
    assert!(msgs.contains("several processes (PIDs 23316, 99)"), "{msgs}");
    assert!(msgs.contains("Some(3): row has no usable timestamp"), "{msgs}");
    assert!(msgs.contains("Some(6): row has no usable timestamp"), "{msgs}");
    let s = framescope::analysis::Summary::of(&t.frames.frame_time_ms).unwrap();
    assert!(close(s.avg_fps, 3000.0 / 36.5));
}

#[test]
fn unusable_nvidia_app_logs_fail_clearly() {
    let header = "Timestamp (Elapsed time in seconds),PID,FPS,CPU Utilization(%),\n";
    let no_fps = "Timestamp (Elapsed time in seconds),PID,CPU Utilization(%),\n0.5,1,3\n";
    let all_exited = format!("{header}0.0,0,0.000,5\n0.5,0,0.000,6\n");
    for (name, text, not_a_capture, words) in [
        ("no_fps.csv", no_fps.to_owned(), true, "no `FPS` column"),
        ("header_only.csv", header.to_owned(), false, "no data rows"),
        ("exited.csv", all_exited, false, "none of its 2 rows has a usable FPS"),
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
/// `Framerate`, LF.
/// * line 6: 18:55:13, 20 ms; line 7: 18:55:13 (the same second), 10 ms; line 9:
///   18:55:15, 40 ms. Kept: n = 3, T = 70 ms, avg = 1000·3/70 = 42.857…;
/// * line 8: Frametime N/A; line 10: Frametime 0; line 11: truncated — all skipped.
///
/// Samples sharing a second are spread across it: lines 6 and 7 end at 13.0 s and
/// 13.5 s, line 9 at 15.0 s. Starts: 12 980, 13 490, 14 960 ms → 0, 510, 1980.
/// Samples every (15 000 − 13 000)/2 = 1000 ms.
const HML: &str = "00, 03-06-2021 18:55:13, Hardware monitoring log v1.6 \n\
01, 03-06-2021 18:55:13, NVIDIA GeForce RTX 2070 SUPER\n\
02, 03-06-2021 18:55:13, GPU temperature     ,Framerate           ,Frametime           ,Framerate           ,CPU usage           \n\
03, 03-06-2021 18:55:13, 0                   ,C                   ,0.000               ,100.000             ,10                  ,                    ,                    ,\n\
03, 03-06-2021 18:55:13, 1                   ,FPS                 ,0.000               ,200.000             ,10                  ,                    ,                    ,%.1f\n\
80, 03-06-2021 18:55:13, 60.000              ,50.000              ,20.000              ,51.000              ,10.000              \n\
80, 03-06-2021 18:55:13, 61.000              ,100.000             ,10.000              ,99.000              ,N/A                 \n\
80, 03-06-2021 18:55:14, 62.000              ,N/A                 ,N/A                 ,N/A                 ,12.000              \n\
80, 03-06-2021 18:55:15, 63.000              ,25.000              ,40.000              ,24.000              ,                    \n\
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
    assert!(same(&t.frames.frame_time_ms, &[20.0, 10.0, 40.0]), "{:?}", t.frames.frame_time_ms);
    assert!(same(&t.frames.start_ms, &[0.0, 510.0, 1980.0]), "{:?}", t.frames.start_ms);
    assert_eq!(t.frames.line, vec![6, 7, 9]);
    let names: Vec<&str> = t.frames.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["GPU temperature", "Framerate", "Framerate (2)", "CPU usage"],
        "Frametime is the frame time"
    );
    assert!(t.frames.columns.iter().all(|c| c.kind == ColumnKind::Telemetry));
    let col = |n: &str| t.column_named(n).unwrap().values.clone();
    assert!(same(&col("Framerate"), &[50.0, 100.0, 25.0]));
    assert!(same(&col("Framerate (2)"), &[51.0, 99.0, 24.0]), "the later duplicate is its own column");
    assert!(same(&col("CPU usage"), &[10.0, f64::NAN, f64::NAN]), "N/A and empty are missing");
    let msgs = all_messages(&c);
    assert!(msgs.contains("None: MSI Afterburner wrote one row every ~1000 ms, not one per frame"), "{msgs}");
    assert!(msgs.contains("Some(8): frame time is missing"), "{msgs}");
    assert!(msgs.contains("Some(10): frame time is 0 or negative"), "{msgs}");
    assert!(msgs.contains("Some(11): row has 4 fields, header has 7"), "{msgs}");

    let file = TempFile::new("HardwareMonitoring.hml", HML);
    let run = report_of(&file.0);
    assert_eq!(run["format"], "afterburner");
    assert_eq!(run["application"], "HardwareMonitoring");
    assert_eq!(run["frames"], 3);
    assert!(run["dropped_frames"].is_null());
    assert!(close(figure(&run, "summary", "avg_fps"), 3000.0 / 70.0));
    assert!(close(figure(&run, "summary", "p50_ms"), 20.0));
}

/// Saved as `.csv`: 1-digit line types, CRLF, every line padded with commas, empty
/// names, a duplicate `Frametime` after them (kept as `Frametime (2)`).
/// Kept: line 5, 20 ms; line 7, 25 ms (line 6 has Frametime 0). n = 2, T = 45 ms,
/// avg = 2000/45 = 44.44…; one sample per second: starts 16:56:05 − 20 ms and
/// 16:56:07 − 25 ms → 0 and 1995 ms.
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
    assert!(same(&t.frames.frame_time_ms, &[20.0, 25.0]));
    assert!(same(&t.frames.start_ms, &[0.0, 1995.0]), "{:?}", t.frames.start_ms);
    assert_eq!(t.frames.line, vec![5, 7]);
    let names: Vec<&str> = t.frames.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Power", "Framerate", "Frametime (2)"]);
    assert!(same(&t.column_named("Frametime (2)").unwrap().values, &[20.5, 25.5]));
    let s = framescope::analysis::Summary::of(&t.frames.frame_time_ms).unwrap();
    assert!(close(s.avg_fps, 2000.0 / 45.0));
    assert!(all_messages(&c).contains("Some(6): frame time is 0 or negative"));
}

/// Without a Frametime column the frame time is 1000 / Framerate: 50 and 25 FPS →
/// 20 and 40 ms, avg = 2000/60 = 33.33…
#[test]
fn afterburner_without_frametime_uses_the_framerate() {
    let text = "00, 01-01-2024 00:00:00, Hardware monitoring log v1.6\n\
                02, 01-01-2024 00:00:00, GPU usage ,Framerate \n\
                80, 01-01-2024 00:00:00, 90 ,50 \n\
                80, 01-01-2024 00:00:01, 95 ,25 \n";
    let c = load("fr.hml", text);
    let t = &c.traces[0];
    assert!(same(&t.frames.frame_time_ms, &[20.0, 40.0]));
    assert!(t.column_named("Framerate").is_none(), "the frame-time source is no column");
    let s = framescope::analysis::Summary::of(&t.frames.frame_time_ms).unwrap();
    assert!(close(s.avg_fps, 2000.0 / 60.0));
    assert!(all_messages(&c).contains("1000 / the Framerate reading"));
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
            "none of its 1 rows",
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
                    assert!(f.frame_time_ms.iter().all(|v| v.is_finite() && *v > 0.0));
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

/// Frame times of an NVIDIA App log's usable rows, read independently: a row is usable
/// when it has the header's fields, a numeric timestamp, a PID other than 0 and an FPS
/// above 0; its frame time is 1000 / FPS.
fn nvidia_frame_times(text: &str) -> Vec<f64> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').map(str::trim).collect();
    let width = header.iter().filter(|h| !h.is_empty()).count();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (time, pid, fps) = (at("Timestamp (Elapsed time in seconds)"), at("PID"), at("FPS"));
    let mut out = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < width || f[time].trim().parse::<f64>().is_err() {
            continue;
        }
        let p: f64 = f[pid].trim().parse().unwrap_or(0.0);
        let r: f64 = f[fps].trim().parse().unwrap_or(0.0);
        if p > 0.0 && r > 0.0 {
            out.push(1000.0 / r);
        }
    }
    out
}

/// Frame times of an Afterburner log, read independently: the first `Frametime` of the
/// `2`/`02` line, on every `80` line with all the header's fields and a value above 0.
fn afterburner_frame_times(text: &str) -> Vec<f64> {
    let mut col = None;
    let mut width = 0;
    let mut out = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        match f[0] {
            "2" | "02" => {
                col = f.iter().position(|n| *n == "Frametime");
                width = f.len();
            }
            "80" if f.len() >= width => {
                let ft: f64 = f[col.unwrap()].parse().unwrap_or(0.0);
                if ft > 0.0 {
                    out.push(ft);
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn real_sampled_logs_match_their_own_columns() {
    let Some(dir) = real_traces() else { return };
    // Usable rows per file (counted below, listed here for the reader): 27 450, 242,
    // 241, 5384 (NVIDIA App); 2454, 805 (Afterburner).
    let files = [
        ("nvidia-app/DeathStranding_High_DLSSQ_excel-edited.csv", "nvidia-app"),
        ("nvidia-app/MarvelRivals_DLSSQ_FrameGen_High.csv", "nvidia-app"),
        ("nvidia-app/MarvelRivals_NoDLSS_High_run2.csv", "nvidia-app"),
        ("nvidia-app/StellarBlade_DLSS4_MediumSM_ShadersCompiled.csv", "nvidia-app"),
        ("msi-afterburner/HardwareMonitoring.hml", "afterburner"),
        ("msi-afterburner/RE3_Windows_afterburner.csv", "afterburner"),
    ];
    for (rel, format) in files {
        let path = dir.join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let ft =
            if format == "nvidia-app" { nvidia_frame_times(&text) } else { afterburner_frame_times(&text) };
        assert!(!ft.is_empty(), "{rel}");
        let want_avg = 1000.0 * ft.len() as f64 / ft.iter().sum::<f64>();
        let run = report_of(&path);
        assert_eq!(run["format"], format, "{rel}");
        assert_eq!(run["frames"].as_u64(), Some(ft.len() as u64), "{rel}");
        let got = figure(&run, "summary", "avg_fps");
        assert!(close(got, want_avg), "{rel}: avg_fps {got} vs {want_avg}");
        assert!(run["dropped_frames"].is_null(), "{rel}");
        assert!(run["warnings"].to_string().contains("not one per frame"), "{rel}");
        eprintln!("{rel}: {} samples, avg {got:.2} FPS", ft.len());
    }
}
