//! A sampled log (`metrics.md` §10) has no per-frame charts: the charts panel says why
//! instead of "No frames to chart.", and a per-frame capture keeps its charts.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::repo_file;
use common::ui::window;
use egui_kittest::kittest::Queryable as _;

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
