//! Stutter navigation driven through the window (egui_kittest, the real [`App`]): the
//! stutter list above the timeline lists the stutters and the slowest frames with
//! their durations, a click goes to a frame (view centred on it, frame selected), and
//! `]` / `[` and `N` / `Shift+N` step from stutter to stutter.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, default_trace, run_id, settle, window};
use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use std::fmt::Write as _;
use std::path::PathBuf;

/// 300 frames of 10 ms with three slow ones: frame 80 (40 ms), 200 (30 ms) and 250
/// (60 ms). Each is more than 20 % and 4 ms above its rolling median (10 ms), so the
/// three are the stutters; the slowest frames are 250, 80, 200, then 10 ms frames from
/// the first on (ties: the earlier first).
fn capture() -> PathBuf {
    capture_with("navigation", 300, |i| match i {
        80 => 40.0,
        200 => 30.0,
        250 => 60.0,
        _ => 10.0,
    })
}

/// `n` frames, frame `i` taking `ft(i)` ms.
fn capture_with(name: &str, n: usize, ft: impl Fn(usize) -> f64) -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents\n",
    );
    let mut t = 0.0;
    for i in 0..n {
        let ft = ft(i);
        let _ = writeln!(csv, "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft}");
        t += ft / 1000.0;
    }
    let path = std::env::temp_dir().join(format!("framescope-{name}-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

/// The selected frame of run 0.
fn selected(h: &Window) -> Option<usize> {
    app(h).selected_frame().map(|(r, f)| {
        assert_eq!(r, run_id(h, 0));
        f
    })
}

fn press(h: &mut Window, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    h.run_steps(2);
}

#[test]
fn the_stutter_list_goes_to_frames_and_the_keys_step_between_stutters() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    let trace = default_trace(&path);
    std::fs::remove_file(&path).unwrap();
    let start = |i: usize| trace.frames.start_ms[i];

    h.get_by_label("Stutters (3) and the 10 slowest frames");
    // Each row: time, duration in the analysed series, frame.
    let row = |i: usize, ms: &str| format!("{:.3} s  {ms} ms  frame {i}", start(i) / 1000.0);
    for (i, ms) in [(80, "40.0"), (200, "30.0"), (250, "60.0")] {
        // Listed once as a stutter and once among the slowest frames.
        assert_eq!(h.query_all_by_label(&row(i, ms)).count(), 2, "{}", row(i, ms));
    }
    // Then the slowest 10 ms frames, earliest first: frames 0 … 6.
    h.get_by_label(&row(0, "10.0"));
    assert!(h.query_by_label(&row(7, "10.0")).is_none(), "only ten slowest frames");

    // A click on the slowest frame goes there: selected, the view centred on it.
    let label = row(250, "60.0");
    h.query_all_by_label(&label).nth(1).unwrap().click();
    h.run_steps(2);
    assert_eq!(selected(&h), Some(250));
    let v = app(&h).view();
    assert!((v.start_ms + v.span_ms / 2.0 - start(250)).abs() < 1e-6, "centred: {v:?}");
    assert!(v.span_ms <= 2000.0, "zoomed in to 2 s at most: {v:?}");
    // The details strip above the timeline says what it is, without scrolling.
    let strip = h.get_by_label_contains("frame time 60.00 ms (presents, analysed)").value().unwrap();
    assert!(
        strip.starts_with(&format!("250 (line {})", trace.frames.line.get(250).unwrap_or_default())),
        "{strip}"
    );
    assert!(strip.ends_with("· stutter"), "{strip}");
    assert!(h.get_by_label("Selected frame").rect().bottom() < h.get_by_label("Timeline").rect().top());

    // ] after the last stutter stays; [ and Shift+N go back, N and ] forward.
    press(&mut h, Modifiers::NONE, Key::CloseBracket);
    assert_eq!(selected(&h), Some(250));
    press(&mut h, Modifiers::NONE, Key::OpenBracket);
    assert_eq!(selected(&h), Some(200));
    press(&mut h, Modifiers::SHIFT, Key::N);
    assert_eq!(selected(&h), Some(80));
    press(&mut h, Modifiers::NONE, Key::N);
    assert_eq!(selected(&h), Some(200));
    let v = app(&h).view();
    assert!((v.start_ms + v.span_ms / 2.0 - start(200)).abs() < 1e-6, "centred on 200: {v:?}");
    settle(&mut h);
}

/// 4000 frames of 10 ms, every 20th (from frame 10) 40 ms: 200 stutters (each 30 ms
/// above the rolling median of 10 ms). Only the rows in sight are laid out: the first
/// stutter's row is there, the 150th's is not (it was, one text per row, before).
#[test]
fn only_the_stutter_rows_in_sight_are_laid_out() {
    let path = capture_with("many-stutters", 4000, |i| if i % 20 == 10 { 40.0 } else { 10.0 });
    let mut h = window(std::slice::from_ref(&path));
    let trace = default_trace(&path);
    std::fs::remove_file(&path).unwrap();
    let row = |i: usize| format!("{:.3} s  40.0 ms  frame {i}", trace.frames.start_ms[i] / 1000.0);
    h.get_by_label("Stutters (200) and the 10 slowest frames");
    // Frame 10 is the first stutter and the slowest frame's (ties: the earlier first).
    assert_eq!(h.query_all_by_label(&row(10)).count(), 2);
    assert!(h.query_by_label(&row(150 * 20 + 10)).is_none(), "the 151st stutter is out of sight");
    // The keys still reach every stutter: [ from none selected goes to the first.
    press(&mut h, Modifiers::NONE, Key::CloseBracket);
    assert_eq!(selected(&h), Some(10));
    settle(&mut h);
}

/// Issue 40: `]` scrolls the stutter list to the stutter it selects and highlights it
/// there — the 12th of 200 stutters, far below the list's first rows, is laid out,
/// selected and inside the list's box.
#[test]
fn the_keys_scroll_the_stutter_list_to_the_selected_stutter() {
    let path = capture_with("scroll-stutters", 4000, |i| if i % 20 == 10 { 40.0 } else { 10.0 });
    let mut h = window(std::slice::from_ref(&path));
    let trace = default_trace(&path);
    std::fs::remove_file(&path).unwrap();
    let row = |i: usize| format!("{:.3} s  40.0 ms  frame {i}", trace.frames.start_ms[i] / 1000.0);
    assert!(h.query_by_label(&row(230)).is_none(), "the 12th stutter starts out of sight");
    for _ in 0..12 {
        press(&mut h, Modifiers::NONE, Key::CloseBracket);
    }
    h.run_steps(3);
    assert_eq!(selected(&h), Some(230));
    let heading = h.get_by_label("Stutters (in time order)").rect();
    let label = row(230);
    let node = h.get_by_label(&label);
    let on = node.accesskit_node().toggled();
    assert_eq!(on, Some(eframe::egui::accesskit::Toggled::True), "highlighted in the stutter list");
    let r = node.rect();
    assert!(r.top() >= heading.bottom() && r.bottom() <= heading.bottom() + 100.0, "{r:?} under {heading:?}");
}

/// Issue 40: Esc closes the keyboard help (and keeps the selected frame); with no
/// window open, Esc clears the selected frame.
#[test]
fn escape_closes_the_help_first_then_clears_the_selection() {
    let path = capture();
    let mut h = window(std::slice::from_ref(&path));
    std::fs::remove_file(&path).unwrap();
    // H and Esc reach the timeline under the pointer.
    let timeline = h.get_by_label("Timeline").rect();
    h.hover_at(timeline.center());
    press(&mut h, Modifiers::NONE, Key::CloseBracket);
    assert_eq!(selected(&h), Some(80));
    press(&mut h, Modifiers::NONE, Key::H);
    assert!(h.query_by_label("Keyboard and mouse").is_some(), "H opens the help");
    press(&mut h, Modifiers::NONE, Key::Escape);
    assert!(h.query_by_label("Keyboard and mouse").is_none(), "Esc closes the help");
    assert_eq!(selected(&h), Some(80), "the Esc that closed a window clears nothing");
    press(&mut h, Modifiers::NONE, Key::Escape);
    assert_eq!(selected(&h), None);
}
