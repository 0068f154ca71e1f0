//! A sampled log (`metrics.md` §10) has no per-frame charts: the charts panel says why
//! instead of "No frames to chart.", and a per-frame capture keeps its charts. The NVIDIA
//! App's PC latency is called what its users call it, not by PresentMon's column name.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{compared, labelled, window};
use common::{framescope, real_traces, repo_file, report_json};
use egui_kittest::kittest::{NodeT as _, Queryable as _};

/// MSI Afterburner's log (bundled) is sampled every ~302 ms: the panel explains that its
/// charts need single frames and draws no percentile chart.
#[test]
fn a_sampled_log_says_why_it_has_no_charts() {
    let h = window(&[repo_file("sample-traces/HardwareMonitoring.hml")]);
    assert!(h.query_by_label("No per-frame charts").is_some(), "the note's title");
    assert!(h.query_by_label_contains("is a sampled log").is_some(), "the explanation");
    assert!(h.query_by_label("No frames to chart.").is_none());
    assert!(h.query_by_label("Frame time by percentile").is_none());
}

/// A FrameView capture (one row a frame) has its charts and no such note.
#[test]
fn a_per_frame_capture_keeps_its_charts() {
    let h = window(&[repo_file("sample-traces/FrameView_ds.exe_2021_06_04T224922_Log.csv")]);
    assert!(h.query_by_label("Frame time by percentile").is_some());
    assert!(h.query_by_label("No per-frame charts").is_none());
}

/// Issue 20: the NVIDIA App's log (column `PC Latency`) showed its mean as "MsPCLatency
/// mean", PresentMon's column name. The window and the table now say "PC latency mean"
/// for every tool, with the JSON's `latency.pc_latency_column_mean_ms` (54.366 ms on
/// this Marvel Rivals log: the column's mean over its 239 samples).
#[test]
fn the_nvidia_app_pc_latency_is_called_pc_latency() {
    let Some(dir) = real_traces() else { return };
    let path = dir.join("nvidia-app/MarvelRivals_NoDLSS_High_run2.csv");
    let (code, doc) = report_json([&path]);
    assert_eq!(code, 0);
    let mean = doc["runs"][0]["latency"]["pc_latency_column_mean_ms"].as_f64().unwrap();
    assert!((mean - 54.366).abs() < 5e-4, "{mean}");
    let h = window(std::slice::from_ref(&path));
    assert_eq!(labelled(&h, "PC latency mean"), [format!("{mean:.2} ms")]);
    assert!(h.query_by_label_contains("MsPCLatency").is_none(), "no PresentMon column name");
    let table = framescope(["report".as_ref(), path.as_os_str()]);
    assert!(table.stdout.contains(&format!("PC latency mean {mean:.2} ms")), "{}", table.stdout);
    assert!(!table.stdout.contains("MsPCLatency"), "{}", table.stdout);
}

/// Two sampled logs compared (the NVIDIA App's Marvel Rivals runs): the charts panel
/// says why it has no charts, as for one log, instead of "No frames to chart.".
#[test]
fn compared_sampled_logs_say_why_they_have_no_charts() {
    let Some(dir) = real_traces() else { return };
    let logs = ["MarvelRivals_NoDLSS_High_run2.csv", "MarvelRivals_DLSSQ_FrameGen_High.csv"];
    let h = compared(&logs.map(|f| dir.join("nvidia-app").join(f)));
    assert!(h.query_by_label("No per-frame charts").is_some());
    assert!(h.query_by_label_contains("Each compared capture is a sampled log").is_some());
    assert!(h.query_by_label("No frames to chart.").is_none());
}

/// A sampled log compared with a per-frame capture: the per-frame run is charted, and
/// the log is named as left out (bundled Afterburner log and FrameView capture).
#[test]
fn a_sampled_log_compared_with_frames_is_named_as_not_charted() {
    let files =
        ["sample-traces/FrameView_ds.exe_2021_06_04T224922_Log.csv", "sample-traces/HardwareMonitoring.hml"];
    let h = compared(&files.map(repo_file));
    assert!(h.query_by_label("Frame time by percentile").is_some());
    let note = h.query_by_label_contains("Not charted (sampled logs, no single frames)");
    let text = note.and_then(|n| n.accesskit_node().value()).unwrap_or_default();
    assert!(text.contains("HardwareMonitoring"), "{text}");
}
