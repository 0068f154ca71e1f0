//! Live captures in the window (issue 19): a capture written into the watched folder
//! in chunks — with a pause longer than any timeout — is one run that grows, whose
//! final figures are `framescope report --json` of the finished file; a file truncated
//! and rewritten starts the same run over.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, window};
use eframe::egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use serde_json::Value;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A real PresentMon 1.x capture: 1171 frames of Far Cry New Dawn.
const CAPTURE: &str = "pm-1.x_FarCryNewDawn.csv";

/// The file in the shared real traces.
fn shared(name: &str) -> PathBuf {
    common::repo_file("../shared/real-traces/presentmon-1x").join(name)
}

/// A fresh folder in the temp folder.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("framescope-live-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Steps the window for `d`, noting the live run's frame counts (place 1).
fn step_for(h: &mut Window, d: Duration, seen: &mut Vec<usize>) {
    let until = Instant::now() + d;
    while Instant::now() < until {
        h.run_steps(1);
        if let Some(n) = app(h).run_ids().get(1).and_then(|&id| app(h).run_frame_count(id))
            && seen.last() != Some(&n)
        {
            seen.push(n);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Steps until the live run (place 1) has figures for `frames` frames.
fn figures_at(h: &mut Window, frames: u64) -> Value {
    let start = Instant::now();
    loop {
        h.run_steps(1);
        if let Some(run) = app(h).run_ids().get(1).and_then(|&id| app(h).run_figures(id))
            && run.frames as u64 == frames
        {
            // Through text, as the CLI's figures are read (serde_json reads some decimals
            // an ulp off: both sides take the same way).
            return serde_json::from_str(&serde_json::to_string(run).unwrap()).unwrap();
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no figures of {frames} frames: {}",
            app(h).idle_report()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The figures that must be the finished file's.
fn same_figures(window: &Value, cli: &Value) {
    for key in [
        "frames",
        "dropped_frames",
        "duration_ms",
        "summary",
        "pacing",
        "stutters",
        "osc",
        "health",
        "latency",
    ] {
        assert_eq!(window[key], cli[key], "{key}");
    }
}

/// Seven chunks cut in the middle of rows, a 2.5 s pause after the third (longer than
/// the old 0.4 s settle time and than every wait of the follower); exactly one run of
/// the file opens, it grows in between (the frame counts seen rise, first below the
/// whole), and its final figures are the finished file's. Then the file is truncated
/// and rewritten with its first half only: the same run starts over and ends with the
/// figures of that half.
#[test]
fn a_capture_written_in_chunks_into_a_watched_folder_is_one_run_that_grows() {
    let path = shared(CAPTURE);
    if !path.exists() {
        assert!(std::env::var_os("FRAMESCOPE_REQUIRE_SHARED").is_none(), "missing {}", path.display());
        return;
    }
    let bytes = std::fs::read(&path).unwrap();
    let dir = TempDir::new("watch-chunks");
    let mut h = window(&[]);
    common::ui::settle(&mut h);
    h.state_mut().as_mut().unwrap().watch_folder(&dir.0).unwrap();
    h.run_steps(1);
    let live = dir.0.join("farcry-live.csv");
    let mut f = std::fs::File::create(&live).unwrap();
    let mut seen = Vec::new();
    let cuts: Vec<usize> = (1..7).map(|k| bytes.len() * k / 7 + 13).chain([bytes.len()]).collect();
    let mut from = 0;
    for (k, &to) in cuts.iter().enumerate() {
        f.write_all(&bytes[from..to]).unwrap();
        f.flush().unwrap();
        from = to;
        let pause = if k == 2 { 2500 } else { 400 };
        step_for(&mut h, Duration::from_millis(pause), &mut seen);
    }
    drop(f);
    let (code, whole) = common::report_json([&path]);
    assert_eq!(code, 0);
    let whole = &whole["runs"][0];
    let figures = figures_at(&mut h, whole["frames"].as_u64().unwrap());
    assert_eq!(
        app(&h).run_names().iter().filter(|n| PathBuf::from(n) == live).count(),
        1,
        "{:?}",
        app(&h).run_names()
    );
    assert_eq!(app(&h).run_names().len(), 2, "the sample and the live run: {:?}", app(&h).run_names());
    eprintln!("frame counts seen while the file grew: {seen:?}");
    assert!(seen.len() >= 3, "grew in steps: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert!(seen[0] < whole["frames"].as_u64().unwrap() as usize, "{seen:?}");
    same_figures(&figures, whole);
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());

    // Truncated and rewritten with the first half of the rows: the same run starts over.
    let half = bytes[..bytes.len() / 2].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let half_file = dir.0.join("half.txt.part");
    std::fs::write(&half_file, &bytes[..half]).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&live)
        .unwrap()
        .write_all(&bytes[..half])
        .unwrap();
    let (code, halfway) = common::report_json([&half_file]);
    assert_eq!(code, 0);
    let halfway = &halfway["runs"][0];
    let figures = figures_at(&mut h, halfway["frames"].as_u64().unwrap());
    same_figures(&figures, halfway);
    assert_eq!(app(&h).run_names().len(), 2, "{:?}", app(&h).run_names());
}

/// Where no file dialog can appear: File › Path, typed, then Follow opens the capture
/// being written as a live run (its rows so far: the first 300); it grows to the whole
/// file once written; Save live run here refuses a hard link to the followed file, and
/// (a second path typed) writes the bytes read, which are the file's.
#[test]
fn a_typed_path_follows_a_capture_and_saves_it() {
    let path = shared(CAPTURE);
    if !path.exists() {
        return;
    }
    let bytes = std::fs::read(&path).unwrap();
    let dir = TempDir::new("typed");
    let live = dir.0.join("typed-live.csv");
    let end = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(300).unwrap().0 + 1;
    std::fs::write(&live, &bytes[..end]).unwrap();
    let mut h = window(&[]);
    common::ui::settle(&mut h);
    // Types `text` into File › Type a path… (replacing what is there) and clicks
    // `button` of that window.
    let type_path = |h: &mut Window, text: &str, button: &str| {
        if h.query_by_role_and_label(Role::TextInput, "Path").is_none() {
            h.get_by_label("File").click();
            h.run_steps(2);
            h.get_by_label("Type a path…").click();
            h.run_steps(2);
        }
        h.get_by_role_and_label(Role::TextInput, "Path").click();
        h.run_steps(1);
        h.key_press(eframe::egui::Key::End);
        for _ in 0..200 {
            h.key_press(eframe::egui::Key::Backspace);
        }
        h.get_by_role_and_label(Role::TextInput, "Path").type_text(text);
        h.run_steps(2);
        h.get_by_label(button).click();
        h.run_steps(2);
    };
    type_path(&mut h, &live.to_string_lossy(), "Follow");
    let figures = figures_at(&mut h, 300);
    assert_eq!(figures["frames"], 300);
    std::fs::write(&live, &bytes).unwrap();
    let (code, whole) = common::report_json([&path]);
    assert_eq!(code, 0);
    let figures = figures_at(&mut h, whole["runs"][0]["frames"].as_u64().unwrap());
    same_figures(&figures, &whole["runs"][0]);
    // Saving over the followed capture by another name (a hard link) is refused.
    let twin = dir.0.join("twin.csv");
    std::fs::hard_link(&live, &twin).unwrap();
    type_path(&mut h, &twin.to_string_lossy(), "Save live run here");
    h.run_steps(2);
    let errors = app(&h).errors();
    assert!(errors.iter().any(|e| e.contains("never writes over its inputs")), "{errors:?}");
    assert_eq!(std::fs::read(&live).unwrap(), bytes, "the followed capture is unchanged");
    let saved = dir.0.join("saved.csv.part");
    type_path(&mut h, &saved.to_string_lossy(), "Save live run here");
    let start = Instant::now();
    while std::fs::read(&saved).map_or(true, |b| b != bytes) {
        assert!(start.elapsed() < Duration::from_secs(10), "not saved: {:?}", app(&h).errors());
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 40: a live stream (as `framescope -` follows standard input) that ends: the
/// window says so, unticks "Follow live", and the run's frame count is in view at
/// 1280×720 ("complete: 300 frames" in the toolbar).
#[test]
fn when_the_stream_ends_the_window_says_so_and_stops_following() {
    let mut csv = String::from("Application,ProcessID,SwapChainAddress,MsBetweenPresents\n");
    for _ in 0..300 {
        csv.push_str("game.exe,1,0x1,10\n");
    }
    let mut h = common::ui::window_of(
        eframe::egui::vec2(1280.0, 720.0),
        framescope::app::Persisted::default(),
        &[],
        |app| app.follow_reader("<stdin>", Box::new(std::io::Cursor::new(csv.into_bytes()))),
    );
    let start = Instant::now();
    while !app(&h).status().is_some_and(|s| s.contains("the input ended")) {
        assert!(start.elapsed() < Duration::from_secs(20), "no end said: {:?}", app(&h).status());
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
    common::ui::settle(&mut h);
    assert!(app(&h).status().unwrap().starts_with("<stdin>: the input ended"));
    let follow = h.get_by_role_and_label(Role::CheckBox, "Follow live");
    assert_eq!(follow.accesskit_node().toggled(), Some(eframe::egui::accesskit::Toggled::False));
    let count = h.get_by_label("complete: 300 frames").rect();
    assert!(count.right() <= 1280.0 && count.bottom() <= 720.0, "{count:?}");
}
