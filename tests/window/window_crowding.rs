//! Issue 40 at 1280×720 in the real window (egui_kittest): the left panel's text is
//! never cut by the panel's edge (it wraps, or is elided with "…" and shown whole on
//! hover).
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, labelled, tick_compare, window_of};
use eframe::egui::{self, accesskit::Role};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use framescope::app::Persisted;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The x where the left panel ends: the timeline's left edge.
fn panel_right(h: &Window) -> f32 {
    h.query_all_by_role_and_label(Role::Canvas, "Timeline").next().expect("a timeline").rect().left()
}

/// The labels left of `right` whose text runs past it: (text, right edge).
fn cut_labels(h: &Window, right: f32) -> Vec<(String, f32)> {
    let texts = [Role::Label, Role::Button, Role::CheckBox, Role::RadioButton];
    h.query_all_by(|n| texts.contains(&n.role()))
        .filter(|n| n.rect().top() > 56.0 && n.rect().left() < right - 4.0 && n.rect().right() > right + 0.5)
        .map(|n| {
            let node = n.accesskit_node();
            (node.value().or_else(|| node.label()).unwrap_or_default(), n.rect().right())
        })
        .collect()
}

/// A FrameView capture at 1280×720: no label of the left panel (the frame-time source
/// line, the figures, the System header, the run's name) runs past the panel's edge.
#[test]
fn at_1280_by_720_the_left_panel_cuts_no_text() {
    let Some(dir) = common::real_traces() else { return };
    let path = dir.join("frameview/FrameView_Cyberpunk2077_4K_Native+DLSSFG_2024_04_17T051708_Log.csv");
    let h = window_of(egui::vec2(1280.0, 720.0), Persisted::default(), &[path], |_| {});
    let right = panel_right(&h);
    let cut = cut_labels(&h, right);
    assert!(cut.is_empty(), "cut at {right}: {cut:?}");
}

/// A PresentMon capture of `n` frames of `ft` ms each, named `name`.
fn steady(name: &str, n: usize, ft: f64) -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents\n",
    );
    for i in 0..n {
        let t = i as f64 * ft / 1000.0;
        let _ = writeln!(csv, "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft}");
    }
    let path = std::env::temp_dir().join(format!("framescope-{name}-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

/// Six runs compared at 1280×720: one table holds every run against the baseline, a
/// column per run, all six in the panel. Steady runs of 10, 12.5, 20, 8, 16 and 25 ms
/// frames average 100, 80, 50, 125, 62.5 and 40 FPS: against the first, −20.0 %,
/// −50.0 %, +25.0 %, −37.5 % and −60.0 % (worked by hand).
#[test]
fn six_runs_compared_show_a_column_each_at_1280_by_720() {
    let files: Vec<PathBuf> = [10.0, 12.5, 20.0, 8.0, 16.0, 25.0]
        .iter()
        .enumerate()
        .map(|(k, ft)| steady(&format!("six-{k}"), 600, *ft))
        .collect();
    let mut h = window_of(egui::vec2(1280.0, 720.0), Persisted::default(), &files, |_| {});
    tick_compare(&mut h);
    for f in &files {
        std::fs::remove_file(f).unwrap();
    }
    let fps = labelled(&h, "Average FPS");
    assert_eq!(fps, ["100.00", "-20.0 %", "-50.0 %", "+25.0 %", "-37.5 %", "-60.0 %"]);
    let right = panel_right(&h);
    for k in 2..=6 {
        let header = h.get_by_label(&k.to_string()).rect();
        assert!(header.right() <= right, "run {k}'s column ends at {} past {right}", header.right());
    }
}

/// The y of the bottom edge of row `name` of timeline number `nth` (its resize handle).
fn row_edges(h: &Window, name: &str) -> Vec<f32> {
    let label = format!("Resize row {name}");
    h.query_all_by_role(Role::Splitter)
        .filter(|n| n.accesskit_node().label().is_some_and(|l| l.starts_with(&label)))
        .map(|n| n.rect().center().y)
        .collect()
}

/// Two FrameView runs compared at 1280×720: the second run's timeline starts in view
/// with its frame row whole (the runs share the height), and no squeezed row is less
/// than a line of its label high (the Stutters label is never cut into the Display row).
#[test]
fn at_1280_by_720_two_compared_runs_are_both_in_view() {
    let Some(dir) = common::real_traces() else { return };
    let files = [
        dir.join("frameview/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv"),
        dir.join("frameview/FrameView_AlanWake2_DLSSQuality_run2_2024_04_17T002622_Log.csv"),
    ];
    let mut h = window_of(egui::vec2(1280.0, 720.0), Persisted::default(), &files, |_| {});
    tick_compare(&mut h);
    let frame_rows = row_edges(&h, "Frame time");
    assert_eq!(frame_rows.len(), 2, "{frame_rows:?}");
    assert!(frame_rows[1] < 720.0, "the second run's frame row ends at {}, below the window", frame_rows[1]);
    for (display, stutters) in row_edges(&h, "Display").iter().zip(row_edges(&h, "Stutters")) {
        assert!(stutters - display >= 20.0, "the Stutters row is {} px high", stutters - display);
    }
}

/// With "As other tools report it" open at 1280×720 the charts panel steps aside: the
/// timeline keeps at least 500 px.
#[test]
fn at_1280_by_720_the_conventions_panel_leaves_the_timeline_wide() {
    let path = common::repo_file("sample-traces/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv");
    let mut h = window_of(egui::vec2(1280.0, 720.0), Persisted::default(), &[path], |_| {});
    h.get_all_by_label("As other tools report it")
        .find(|n| n.accesskit_node().role() != Role::Label)
        .expect("the toggle under the figures")
        .click_accesskit();
    common::ui::settle(&mut h);
    assert!(common::ui::app(&h).errors().is_empty());
    let heading =
        h.query_all_by_role(Role::Label).filter(|n| n.value().as_deref() == Some("As other tools report it"));
    assert_eq!(heading.count(), 1, "the panel is open");
    let timeline = h.get_by_label("Timeline").rect();
    assert!(timeline.width() >= 500.0, "the timeline is {} px wide", timeline.width());
}
