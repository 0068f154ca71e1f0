//! Issue 21 in the window (egui_kittest): the "CPU · GPU" and animation-error timeline
//! rows appear for a PresentMon 2.x capture, the limiter stands beside the figures as
//! `framescope report` writes it, and a time selection gets its own limiter.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, labelled, settle, window};
use eframe::egui::{Event, Modifiers, PointerButton, Pos2, accesskit::Role};
use egui_kittest::kittest::Queryable as _;
use framescope::app::timeline::LABEL_WIDTH;
use std::fmt::Write as _;

/// 200 frames of 10 ms: the first 100 GPU-limited (GPU busy 9.5 of fc 10), the last 100
/// CPU-limited (CPU busy 9.5, GPU 4). Whole run: GPU 50 % · CPU 50 %; GPU busy
/// (100·9.5 + 100·4) / 2000 = 67.5 % → "68 %".
fn capture() -> std::path::PathBuf {
    let mut text = String::from(
        "Application,ProcessID,SwapChainAddress,MsBetweenPresents,MsBetweenDisplayChange,MsUntilDisplayed,\
         MsCPUBusy,MsCPUWait,MsGPUBusy,MsAnimationError\n",
    );
    for i in 0..200 {
        let (cpu, gpu) = if i < 100 { (5.0, 9.5) } else { (9.5, 4.0) };
        let e = if i % 3 == 0 { 1.5 } else { -0.5 };
        let _ = writeln!(text, "g.exe,1,0x1,10,10,2,{cpu},{},{gpu},{e}", 10.0 - cpu);
    }
    common::temp_file("window-limiter.csv", &text)
}

/// The whole titles the timeline's row labels show on hover, top to bottom.
fn row_titles(h: &mut Window) -> Vec<String> {
    let rect = h.get_by_label("Timeline").rect();
    let mut titles: Vec<String> = Vec::new();
    let mut y = rect.top() + 30.0;
    while y < rect.bottom() {
        h.hover_at(Pos2::new(rect.left() + 20.0, y));
        h.run_steps(3);
        let tips: Vec<String> = h.query_all_by_role(Role::Label).filter_map(|n| n.value()).collect();
        for t in tips.iter().filter(|t| t.contains('\n')) {
            let first = t.lines().next().unwrap_or("").to_owned();
            if !titles.contains(&first) {
                titles.push(first);
            }
        }
        y += 15.0;
    }
    h.hover_at(Pos2::new(1.0, 1.0));
    h.run_steps(2);
    titles
}

#[test]
fn cpu_gpu_and_animation_rows_and_the_limiter_beside_the_figures() {
    let file = capture();
    let mut h = window(std::slice::from_ref(&file));
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    // As the table writes it (tests/headless/limiter_cli.rs checks the table against the JSON).
    assert_eq!(
        labelled(&h, "Limited by"),
        ["GPU 50 % · CPU 50 % · neither 0 %  (GPU busy 68 % of frame time)"]
    );
    // CPU busy mean (100·5 + 100·9.5)/200 = 7.25; GPU (100·9.5 + 100·4)/200 = 6.75.
    assert_eq!(labelled(&h, "CPU / GPU busy mean"), ["7.250 / 6.750 ms"]);
    // |e| 1.5 on every third frame (67 of 200): over 1 ms 33.5 %.
    assert_eq!(labelled(&h, "Animation error over 1 ms"), ["33.5 %"]);
    let titles = row_titles(&mut h);
    assert!(titles.iter().any(|t| t.starts_with("CPU · GPU: what limits the frame rate")), "{titles:?}");
    assert!(titles.iter().any(|t| t.starts_with("Animation error")), "{titles:?}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_selection_has_its_own_limiter() {
    let file = capture();
    let mut h = window(std::slice::from_ref(&file));
    let rect = h.get_by_label("Timeline").rect();
    let left = rect.left() + LABEL_WIDTH;
    let view = app(&h).view();
    let width = rect.right() - left;
    // From 1.3 s to 1.9 s: CPU-limited frames only.
    let x = |ms: f64| view.x_of(ms, left, width);
    let (x0, x1, y) = (x(1300.0), x(1900.0), rect.top() + 80.0);
    let shift = Modifiers::SHIFT;
    let button = |pos, pressed| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: shift,
    };
    h.event(Event::ModifiersChanged(shift));
    h.event(Event::PointerMoved(Pos2::new(x0, y)));
    h.event(button(Pos2::new(x0, y), true));
    for k in 1..=10 {
        h.event(Event::PointerMoved(Pos2::new(x0 + (x1 - x0) * k as f32 / 10.0, y)));
    }
    h.event(button(Pos2::new(x1, y), false));
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.event(Event::PointerGone);
    settle(&mut h);
    assert!(app(&h).selection().is_some(), "a shift-drag selects a range");
    let limited = labelled(&h, "Limited by");
    assert_eq!(limited.len(), 2, "the run's and the selection's: {limited:?}");
    // The selection: CPU busy 9.5 of fc 10 and GPU busy 4 on every frame → GPU 40 %.
    assert_eq!(limited[1], "GPU 0 % · CPU 100 % · neither 0 %  (GPU busy 40 % of frame time)");
    let _ = std::fs::remove_file(&file);
}
