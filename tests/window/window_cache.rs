//! The timeline's column cache through the window (egui_kittest, the real [`App`]): a
//! run closed and another capture opened in its place (same index, same zoom, its trace
//! even in the memory the closed one's was freed from) never shows the closed run's
//! pixel columns (issue 17: the cache was keyed by memory addresses).
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, run_id, settle, window};
use eframe::egui::{Pos2, accesskit::Role};
use egui_kittest::kittest::Queryable as _;
use framescope::app::timeline::LABEL_WIDTH;
use framescope_core::model::Capture;
use std::fmt::Write as _;

/// 4000 frames of a PresentMon 2.4 capture: a frame of 4 ms, 1999 of `first_ms`, 1999
/// of `then_ms` and one of 4 ms. Both captures below last 16 s from the same first to
/// the same last frame, so the view that shows the whole run is the same for both, and
/// so is the time per pixel column.
fn capture(first_ms: f64, then_ms: f64) -> Capture {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents\n",
    );
    let mut t = 0.0;
    for i in 0..4000 {
        let ft = match i {
            0 | 3999 => 4.0,
            1..2000 => first_ms,
            _ => then_ms,
        };
        let _ = writeln!(csv, "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft}");
        t += ft / 1000.0;
    }
    let path = std::path::Path::new("cache.csv");
    framescope_core::ingest::load_bytes(path, csv.as_bytes(), framescope_core::ingest::LoadOptions::default())
        .expect("the capture loads")
}

/// Every label the window shows right now (tooltips included).
fn labels(h: &Window) -> Vec<String> {
    h.query_all_by_role(Role::Label).filter_map(|n| n.value()).collect()
}

/// The frame count and typical frame time the hover gives for the pixel column under
/// `pos` ("This pixel column, 8 frames: typical 6.00 ms, slowest 6.00 ms").
fn column_at(h: &mut Window, pos: Pos2) -> (usize, f64) {
    h.hover_at(pos);
    for _ in 0..40 {
        h.run_steps(1);
        if let Some(text) = labels(h).into_iter().find(|v| v.starts_with("This pixel column, ")) {
            let rest = &text["This pixel column, ".len()..];
            let n = rest.split(' ').next().unwrap().parse().unwrap();
            let typical = rest.split("typical ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
            h.hover_at(Pos2::new(1.0, 1.0));
            h.run_steps(2);
            return (n, typical);
        }
    }
    panic!("no pixel column under {pos:?}");
}

/// Opens `capture` as run 0 (in the memory of the trace closed last, when the
/// allocator gives it back) and returns the hovered column's frames and typical time,
/// with the time per pixel column.
fn open_and_read(h: &mut Window, mut capture: Capture) -> (usize, f64, f64) {
    // Free this capture's own list of traces before the caller closed the run before,
    // and allocate a new one now: the allocator hands out the list it freed last, the
    // closed run's, as it would for any capture of the same shape.
    let trace = capture.traces.pop().expect("one trace");
    if let Some(&first) = app(h).run_ids().first() {
        h.state_mut().as_mut().unwrap().close_run(first);
    }
    capture.traces = vec![trace];
    h.state_mut().as_mut().unwrap().open_capture("cache.csv", capture);
    settle(h);
    let rect = h.get_by_label("Timeline").rect();
    let left = rect.left() + LABEL_WIDTH;
    let run = run_id(h, 0);
    let ms_per_px = app(h).view_of(run).ms_per_px(rect.right() - left);
    // A column in the first quarter of the run (the first 2000 frames), on the frame row.
    let x = app(h).view_of(run).x_of(2000.0, left, rect.right() - left).round() + 0.5;
    let (n, typical) = column_at(h, Pos2::new(x, rect.top() + 60.0));
    (n, typical, ms_per_px)
}

/// `rounds` rounds of A (2 ms, then 6 ms frames) and B (6 ms, then 2 ms), each opened
/// as run 0 after the other was closed: the hovered column, 2 s in, holds frames of A's
/// first part or of B's, never the other capture's.
fn alternate(h: &mut Window, rounds: usize) {
    for round in 0..rounds {
        for (name, first_ms, then_ms) in [("A", 2.0, 6.0), ("B", 6.0, 2.0)] {
            let (n, typical, ms_per_px) = open_and_read(h, capture(first_ms, then_ms));
            assert!((typical - first_ms).abs() < 1e-9, "{name}, round {round}: typical {typical} ms");
            // A column of `ms_per_px` holds about ms_per_px / first_ms frames (one more or
            // two when frames straddle its edges): A's columns hold three times B's frames.
            let want = ms_per_px / first_ms;
            assert!(
                (n as f64) >= want - 1.0 && (n as f64) <= want + 2.0,
                "{name}, round {round}: {n} frames under a {ms_per_px:.2} ms column of {first_ms} ms frames"
            );
        }
    }
}

#[test]
fn a_closed_run_never_lends_its_columns_to_the_next() {
    let mut h = window(&[]);
    let first = run_id(&h, 0);
    h.state_mut().as_mut().unwrap().close_run(first);
    h.run_steps(2);
    alternate(&mut h, 3);
}

/// The same without figures: a trim for all runs longer than the captures leaves
/// nothing to analyse (an error in the list), and the timelines still draw every frame.
#[test]
fn a_closed_run_never_lends_its_columns_to_the_next_even_without_figures() {
    let mut h = window(&[]);
    let first = run_id(&h, 0);
    let app_mut = h.state_mut().as_mut().unwrap();
    app_mut.close_run(first);
    app_mut.set_trim_all(20.0, 0.0);
    h.run_steps(2);
    alternate(&mut h, 5);
    assert!(!app(&h).errors().is_empty(), "the trim leaves nothing: {:?}", app(&h).errors());
}
