//! Issue 40 at 1280×720 in the real window (egui_kittest): the left panel's text is
//! never cut by the panel's edge (it wraps, or is elided with "…" and shown whole on
//! hover).
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, window_of};
use eframe::egui::{self, accesskit::Role};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use framescope::app::Persisted;

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
