//! Resizing timeline rows through the window (egui_kittest, the real [`App`]): a drag
//! on a row's bottom edge (in the label column) makes the row taller by as much as the
//! pointer moved, the height is remembered for the capture's format, and a
//! double-click gives the row back the height the rows share.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, primary_button, window};
use eframe::egui::{self, Pos2, accesskit::Role};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use std::fmt::Write as _;
use std::path::PathBuf;

/// 200 frames of a PresentMon 2.4 GUI capture with three varying telemetry columns.
fn capture() -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents,GPUPower,GPUFrequency,CPUUtilization\n",
    );
    let mut t = 0.0;
    for i in 0..200 {
        let ft = 10.0 + f64::from(i % 5);
        let _ = writeln!(
            csv,
            "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft},{},{},{}",
            200 + i % 9,
            1800 + i % 13,
            40 + i % 7
        );
        t += ft / 1000.0;
    }
    let path = std::env::temp_dir().join(format!("framescope-resize-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

/// The y of the bottom edge of the row whose title starts with `name` (its resize
/// handle's middle).
fn edge_y(h: &Window, name: &str) -> f32 {
    let label = format!("Resize row {name}");
    let node = h
        .query_all_by_role(Role::Splitter)
        .find(|n| n.accesskit_node().label().is_some_and(|l| l.starts_with(&label)))
        .unwrap_or_else(|| panic!("no handle for {name}"));
    node.rect().center().y
}

/// The height of row `name`: from the bottom edge of the row `above` it to its own.
fn row_height(h: &Window, above: &str, name: &str) -> f32 {
    edge_y(h, name) - edge_y(h, above)
}

fn pointer(h: &mut Window, pos: Pos2, pressed: Option<bool>) {
    h.event(egui::Event::PointerMoved(pos));
    if let Some(pressed) = pressed {
        primary_button(h, pos, pressed);
    }
    h.run_steps(1);
}

fn heights(h: &Window) -> Vec<(String, u32)> {
    app(h)
        .persisted()
        .row_choices
        .first()
        .map_or_else(Vec::new, |c| c.heights.iter().map(|r| (r.row.clone(), r.px)).collect())
}

#[test]
fn a_dragged_row_edge_resizes_the_row_and_a_double_click_resets_it() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    std::fs::remove_file(&path).unwrap();
    let before = row_height(&h, "GPUPower", "GPUFrequency");
    let timeline = h.get_by_label("Timeline").rect();
    let at = Pos2::new(timeline.left() + 40.0, edge_y(&h, "GPUFrequency"));

    // Grab the edge under GPUFrequency and pull it down 40 points, in steps.
    pointer(&mut h, at, None);
    pointer(&mut h, at, Some(true));
    for dy in [10.0, 20.0, 30.0, 40.0] {
        pointer(&mut h, at + egui::vec2(0.0, dy), None);
    }
    pointer(&mut h, at + egui::vec2(0.0, 40.0), Some(false));
    h.run_steps(3);
    let after = row_height(&h, "GPUPower", "GPUFrequency");
    assert!((after - (before + 40.0)).abs() <= 1.0, "row {before} high became {after}, not {before} + 40");
    // Remembered for the capture's format, in whole points.
    assert_eq!(heights(&h), [("telemetry:GPUFrequency".to_owned(), (before + 40.0).round() as u32)]);
    // The other rows still share the rest: the timeline did not grow past the panel.
    let grown = h.get_by_label("Timeline").rect();
    assert!(grown.bottom() <= timeline.bottom() + 1.0, "{grown:?} ran past {timeline:?}");

    // A double-click on the edge: back to the shared height.
    let at = Pos2::new(timeline.left() + 40.0, edge_y(&h, "GPUFrequency"));
    // In one frame: the harness gives each queued event a frame a quarter second long.
    pointer(&mut h, at, None);
    for pressed in [true, false, true, false] {
        h.input_mut().events.push(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.run_steps(3);
    assert!(heights(&h).is_empty(), "{:?}", heights(&h));
    let reset = row_height(&h, "GPUPower", "GPUFrequency");
    assert!((reset - before).abs() <= 1.0, "reset to {reset}, shared height {before}");
}

/// At 1280×720 a FrameView capture's rows — frame, display, stutters, health, latency,
/// PC latency and four telemetry rows — are squeezed to share the panel: every row's
/// bottom edge is in the window, none below the fold.
#[test]
fn at_1280_by_720_every_row_is_in_view() {
    let Some(dir) = common::real_traces() else { return };
    let path = dir.join("frameview/FrameView_Cyberpunk2077_4K_Native+DLAA_2024_04_17T050843_Log.csv");
    let mut h = window(&[path]);
    h.set_size(egui::vec2(1280.0, 720.0));
    common::ui::settle(&mut h);
    let edges: Vec<(String, f32)> = h
        .query_all_by_role(Role::Splitter)
        .filter_map(|n| Some((n.accesskit_node().label()?, n.rect().center().y)))
        .filter(|(l, _)| l.starts_with("Resize row "))
        .collect();
    assert!(edges.len() >= 10, "{edges:?}");
    for (row, y) in &edges {
        assert!(*y <= 720.0, "{row} ends at {y}, below the window");
    }
}
