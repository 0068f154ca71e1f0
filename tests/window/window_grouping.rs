//! Issue 20 in the real window (egui_kittest): runs open in a shared set only when they
//! are of one application and their names differ by a run number; unrelated files are
//! no "sets".
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{app, window};
use egui_kittest::kittest::Queryable as _;

/// A FRAPS log and a Unity Profiler export (names without a run number) are each on
/// their own: the sets header says so, and each run's set is its stem.
#[test]
fn unrelated_files_are_no_sets() {
    let files = [
        common::repo_file("sample-traces/generic-fraps-frametimes.csv"),
        common::repo_file("sample-traces/unity-profiler-counters-example.csv"),
    ];
    let h = window(&files);
    assert_eq!(app(&h).run_sets(), ["generic-fraps-frametimes", "unity-profiler-counters-example"]);
    assert!(h.query_by_label("Sets of runs: none, each run on its own").is_some());
}

/// Alan Wake 2 run1 and run2 (FrameView, one application, names differing by the run
/// number and the date) share a set; a FrameView capture of another game does not.
#[test]
fn runs_of_one_game_numbered_apart_share_a_set() {
    let Some(dir) = common::real_traces() else { return };
    let files = [
        dir.join("frameview/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv"),
        dir.join("frameview/FrameView_AlanWake2_DLSSQuality_run2_2024_04_17T002622_Log.csv"),
        dir.join("frameview/FrameView_RoboCop_30fpscap_Native4K_2024_04_13T193123_Log.csv"),
    ];
    let h = window(&files);
    let sets = app(&h).run_sets();
    assert_eq!(sets[0], "FrameView_AlanWake2_DLSSQuality");
    assert_eq!(sets[1], sets[0]);
    assert_eq!(sets[2], "FrameView_RoboCop_30fpscap_Native4K_2024_04_13T193123_Log");
}

/// Alan Wake 2 run1 and run2 alone are one set, compared one by one (one run a side):
/// the header says so instead of naming a set "×2" (issue 20).
#[test]
fn two_runs_of_one_set_compared_one_by_one_are_not_a_set_comparison() {
    let Some(dir) = common::real_traces() else { return };
    let files = [
        dir.join("frameview/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv"),
        dir.join("frameview/FrameView_AlanWake2_DLSSQuality_run2_2024_04_17T002622_Log.csv"),
    ];
    let h = window(&files);
    assert_eq!(app(&h).run_sets()[0], app(&h).run_sets()[1]);
    assert!(h.query_by_label("Sets of runs: one set of 2 runs (compared run by run)").is_some());
    assert!(h.query_by_label_contains("×2").is_none());
}
