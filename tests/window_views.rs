//! The charts and views driven through the window (egui_kittest, the real [`App`]):
//! the charts follow a time selection (the whole capture drawn faintly beside it).
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::ui::{Window, app, default_trace, settle, window};
use eframe::egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::kittest::Queryable as _;
use std::fmt::Write as _;
use std::path::PathBuf;

/// 300 frames of 10 ms but frame 80 (40 ms) and frame 250 (60 ms).
fn capture() -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents\n",
    );
    let mut t = 0.0;
    for i in 0..300 {
        let ft = match i {
            80 => 40.0,
            250 => 60.0,
            _ => 10.0,
        };
        let _ = writeln!(csv, "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft}");
        t += ft / 1000.0;
    }
    let path = std::env::temp_dir().join(format!("framescope-views-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

/// A drag on the timeline's ruler from time `a` to `b` (ms): selects that range.
fn drag_on_ruler(h: &mut Window, a: f64, b: f64) {
    let rect = h.get_by_label("Timeline").rect();
    let left = rect.left() + framescope::app::timeline::LABEL_WIDTH;
    let view = app(h).view();
    let x = |t: f64| view.x_of(t, left, rect.right() - left);
    let y = rect.top() + 8.0;
    let (from, to) = (Pos2::new(x(a), y), Pos2::new(x(b), y));
    h.hover_at(from);
    h.run_steps(1);
    let button = |pos, pressed| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    h.event(button(from, true));
    h.run_steps(1);
    for k in 1..=8 {
        let f = k as f32 / 8.0;
        h.hover_at(from + (to - from) * f);
        h.run_steps(1);
    }
    h.event(button(to, false));
    h.run_steps(2);
}

#[test]
fn the_charts_follow_a_time_selection() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    let trace = default_trace(&path);
    std::fs::remove_file(&path).unwrap();
    let note = "The time selection's frames; faint: the whole capture";
    assert!(h.query_by_label(note).is_none(), "no selection yet");
    assert_eq!(app(&h).selection_chart_percentile(100.0), None);

    // Select from the start of frame 70 to that of frame 100: frames 70 … 99, the
    // 40 ms frame 80 the slowest (the whole capture's is 60 ms): P100 = 40 ms, P50 = 10.
    let start = |i: usize| trace.frames.start_ms[i];
    drag_on_ruler(&mut h, start(70) + 0.5, start(100) - 0.5);
    settle(&mut h);
    assert!(app(&h).selection().is_some(), "a selection");
    h.get_by_label(note);
    let p100 = app(&h).selection_chart_percentile(100.0).expect("the selection's curve");
    assert!((p100 - 40.0).abs() < 1e-9, "{p100}");
    let p50 = app(&h).selection_chart_percentile(50.0).unwrap();
    assert!((p50 - 10.0).abs() < 1e-9, "{p50}");

    // Esc (the pointer over the timeline) clears it: the whole capture's charts again.
    h.key_press(eframe::egui::Key::Escape);
    h.run_steps(3);
    assert_eq!(app(&h).selection(), None);
    assert!(h.query_by_label(note).is_none());
}
