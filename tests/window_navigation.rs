//! Stutter navigation driven through the window (egui_kittest, the real [`App`]): the
//! stutter list above the timeline lists the stutters and the slowest frames with
//! their durations, a click goes to a frame (view centred on it, frame selected), and
//! `]` / `[` and `N` / `Shift+N` step from stutter to stutter.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use common::ui::{Window, app, default_trace, settle, window};
use eframe::egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable as _;
use std::fmt::Write as _;
use std::path::PathBuf;

/// 300 frames of 10 ms with three slow ones: frame 80 (40 ms), 200 (30 ms) and 250
/// (60 ms). Each is more than 20 % and 4 ms above its rolling median (10 ms), so the
/// three are the stutters; the slowest frames are 250, 80, 200, then 10 ms frames from
/// the first on (ties: the earlier first).
fn capture() -> PathBuf {
    let mut csv = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,\
         PresentMode,FrameType,TimeInSeconds,MsBetweenPresents\n",
    );
    let mut t = 0.0;
    for i in 0..300 {
        let ft = match i {
            80 => 40.0,
            200 => 30.0,
            250 => 60.0,
            _ => 10.0,
        };
        let _ = writeln!(csv, "g.exe,7,0x1,DXGI,0,0,0,Hardware: Independent Flip,Application,{t:.6},{ft}");
        t += ft / 1000.0;
    }
    let path = std::env::temp_dir().join(format!("framescope-navigation-{}.csv", std::process::id()));
    std::fs::write(&path, csv).unwrap();
    path
}

/// The selected frame of run 0.
fn selected(h: &Window) -> Option<usize> {
    app(h).selected_frame().map(|(r, f)| {
        assert_eq!(r, 0);
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
