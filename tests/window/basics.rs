//! The window driven through its accessibility tree with egui_kittest: the real
//! [`App`] in a 1400×900 harness, found by label and operated with clicks, typing,
//! raw pointer and wheel events. Every figure is checked against `framescope report
//! --json` run on the same data, never against hard-coded numbers.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::ui::{Window, app, click_at, default_trace, frame_pos, labelled, run_id, settle, window};
use eframe::egui::{self, Event, Key, Modifiers, PointerButton, Pos2, accesskit::Role};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use framescope::app::{SAMPLE_NAME, timeline::LABEL_WIDTH};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The capture the window opens when given no file.
const SAMPLE: &str = "sample-traces/pm-1.x_GhostReconBreakpoint_dwm_firefox_multiproc_qpc.csv";

/// The values of the figure rows named `name`, in tree order (the run's figures
/// first, then the selection's).
fn figure(h: &Window, name: &str) -> Vec<String> {
    labelled(h, name)
}

/// The first run of `framescope report --json ARGS`.
fn cli(args: &[&str]) -> Value {
    let (code, doc) = common::report_json(args);
    assert_eq!(code, 0, "{doc}");
    doc["runs"][0].clone()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The text the window shows for a run's stutters.
fn stutters_text(run: &Value) -> String {
    let st = &run["stutters"];
    format!("{} ({:.2} % of time)", st["count"], f(&st["time_fraction"]) * 100.0)
}

/// A new file in the temp folder (unique per call: tests run in parallel).
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("framescope-window-{}-{k}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn the_sample_shows_the_cli_figures() {
    let h = window(&[]);
    assert_eq!(app(&h).run_names(), [SAMPLE_NAME]);
    assert!(app(&h).errors().is_empty(), "{:?}", app(&h).errors());
    let run = cli(&[&common::repo_file(SAMPLE).to_string_lossy()]);
    assert_eq!(figure(&h, "Average FPS"), [format!("{:.2}", f(&run["summary"]["avg_fps"]))]);
    assert_eq!(figure(&h, "Steady FPS"), [run["pacing"]["steady_fps"].to_string()]);
    assert_eq!(figure(&h, "Stutters"), [stutters_text(&run)]);
    assert_eq!(figure(&h, "Frames"), [format!("{} ({} dropped)", run["frames"], run["dropped_frames"])]);
    h.get_by_role_and_label(Role::Canvas, "Timeline");
}

#[test]
fn target_fps_and_stutter_threshold_change_the_figures() {
    let sample = common::repo_file(SAMPLE).to_string_lossy().into_owned();
    let mut h = window(&[]);
    let slow = |run: &Value| format!("{:.2} %", f(&run["pacing"]["slow_time_fraction"]) * 100.0);
    assert_eq!(figure(&h, "Slow time at target"), [slow(&cli(&[&sample]))]);

    // Pick 144 in the target combo box.
    h.get_by_role_and_label(Role::ComboBox, "Target FPS").click();
    h.run_steps(2);
    h.get_all_by_label("144").find(|n| n.accesskit_node().role() != Role::Label).expect("144 option").click();
    settle(&mut h);
    assert!((app(&h).persisted().target_fps - 144.0).abs() < 1e-9);
    let at_144 = cli(&[&sample, "--target-fps", "144"]);
    assert_eq!(figure(&h, "Slow time at target"), [slow(&at_144)]);
    assert_ne!(slow(&at_144), slow(&cli(&[&sample])), "144 FPS must change the slow time");

    // Type 50 into the stutter threshold (in %).
    h.get_by_role_and_label(Role::SpinButton, "Stutter threshold").click();
    h.run_steps(2);
    h.get_by_label("Stutter threshold").type_text("50");
    h.run_steps(1);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert!((app(&h).persisted().stutter_threshold - 0.5).abs() < 1e-9);
    let at_50 = cli(&[&sample, "--target-fps", "144", "--stutter-threshold", "0.5"]);
    assert_ne!(at_50["stutters"]["count"], at_144["stutters"]["count"], "pick a threshold that matters");
    assert_eq!(figure(&h, "Stutters"), [stutters_text(&at_50)]);
}

/// Writes the sample's header and the rows of the default trace's frames that start
/// in `[lo, hi)` ms: what `report` sees of a time selection.
fn selected_rows(lo: f64, hi: f64) -> PathBuf {
    let path = common::repo_file(SAMPLE);
    let bytes = std::fs::read(&path).unwrap();
    let opts = framescope_core::ingest::LoadOptions::default();
    let capture = framescope_core::ingest::load_bytes(&path, &bytes, opts).unwrap();
    let trace = &capture.traces[capture.default_trace().unwrap()];
    let text = String::from_utf8(bytes).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = format!("{}\n", lines[0]);
    let f = &trace.frames;
    for (i, &start) in f.start_ms.iter().enumerate() {
        if (lo..hi).contains(&start) {
            out.push_str(lines[f.line.get(i).unwrap_or_default() as usize - 1]);
            out.push('\n');
        }
    }
    temp_file("selection.csv", out.as_bytes())
}

#[test]
fn shift_drag_on_the_timeline_selects_a_range_with_its_own_figures() {
    let mut h = window(&[]);
    let whole = figure(&h, "Average FPS");
    let rect = h.get_by_label("Timeline").rect();
    let left = rect.left() + LABEL_WIDTH;
    let (x0, x1, y) =
        (left + 0.3 * (rect.right() - left), left + 0.6 * (rect.right() - left), rect.top() + 80.0);
    let view = app(&h).view();
    let width = rect.right() - left;
    let shift = Modifiers::SHIFT;
    h.event(Event::ModifiersChanged(shift));
    h.event(Event::PointerMoved(Pos2::new(x0, y)));
    let button = |pos, pressed| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: shift,
    };
    h.event(button(Pos2::new(x0, y), true));
    // The first move is past the 6 px drag threshold; the range must still start
    // where the button went down (a regression guard: it once started at the move).
    h.event(Event::PointerMoved(Pos2::new(x0 + 13.0, y)));
    for k in 1..=10 {
        h.event(Event::PointerMoved(Pos2::new(x0 + (x1 - x0) * k as f32 / 10.0, y)));
    }
    h.event(button(Pos2::new(x1, y), false));
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.event(Event::PointerGone);
    settle(&mut h);

    let (a, b) = app(&h).selection().expect("a shift-drag selects a time range");
    let (lo, hi) = (a.min(b), a.max(b));
    // The range starts at the press and ends at the release.
    let ms_per_px = view.ms_per_px(width);
    assert!(
        (lo - view.time_at(x0, left, width)).abs() <= ms_per_px,
        "{lo} vs x0: {} px",
        (lo - view.time_at(x0, left, width)) / ms_per_px
    );
    assert!((hi - view.time_at(x1, left, width)).abs() <= ms_per_px, "{hi} vs x1");
    assert_eq!(app(&h).view(), view, "a shift-drag must not pan");

    h.get_by_label("Selection");
    let avg = figure(&h, "Average FPS");
    assert_eq!(avg.len(), 2, "the run's and the selection's Average FPS: {avg:?}");
    assert_eq!(avg[0], whole[0]);
    assert!(avg[1].parse::<f64>().is_ok_and(f64::is_finite), "{avg:?}");
    let rows = selected_rows(lo, hi);
    let run = cli(&[&rows.to_string_lossy()]);
    std::fs::remove_file(&rows).unwrap();
    assert_eq!(avg[1], format!("{:.2}", f(&run["summary"]["avg_fps"])));
    assert_eq!(figure(&h, "Steady FPS")[1], run["pacing"]["steady_fps"].to_string());
    assert_eq!(figure(&h, "Frames")[1], format!("{} ({} dropped)", run["frames"], run["dropped_frames"]));
}

#[test]
fn a_corrupt_file_shows_its_error_and_leaves_the_sample_open() {
    let mut h = window(&[]);
    let whole = figure(&h, "Average FPS");
    let mut garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    garbage[..4].copy_from_slice(&[0xff, 0xfe, 0x00, 0x81]);
    let path = temp_file("corrupt.csv", &garbage);
    let ctx = h.ctx.clone();
    h.state_mut().as_mut().unwrap().open_all(std::slice::from_ref(&path), &ctx);
    settle(&mut h);
    std::fs::remove_file(&path).unwrap();

    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let shown = h.get_by_label_contains(&name).accesskit_node().value().unwrap_or_default();
    assert_eq!(app(&h).errors(), [shown], "the error is shown as it is");
    h.get_by_label("Errors");
    assert_eq!(app(&h).run_names(), [SAMPLE_NAME]);
    assert_eq!(figure(&h, "Average FPS"), whole);
}

#[test]
fn the_wheel_zooms_around_the_cursor_and_home_resets() {
    let mut h = window(&[]);
    let fitted = app(&h).view();
    let rect = h.get_by_label("Timeline").rect();
    let left = rect.left() + LABEL_WIDTH;
    let pos = Pos2::new(left + 0.5 * (rect.right() - left), rect.top() + 80.0);
    let under = fitted.time_at(pos.x, left, rect.right() - left);
    h.hover_at(pos);
    h.run_steps(2);
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 120.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(10);
    let zoomed = app(&h).view();
    assert!(zoomed.span_ms < fitted.span_ms * 0.9, "wheel up zooms in: {fitted:?} -> {zoomed:?}");
    let still = zoomed.time_at(pos.x, left, rect.right() - left);
    assert!((still - under).abs() < 1e-6 * fitted.span_ms, "zoom keeps the time under the cursor");

    h.key_press(Key::Home);
    h.run_steps(2);
    assert_eq!(app(&h).view(), fitted, "Home shows the whole trace");
}

#[test]
fn every_input_widget_has_a_name() {
    let h = window(&[]);
    assert!(h.unnamed_widgets().is_empty(), "{:?}", h.unnamed_widgets());
}

#[test]
fn the_selected_rows_helper_keeps_whole_runs_whole() {
    // Guards the selection oracle: all rows of the default trace give the whole run.
    let rows = selected_rows(f64::NEG_INFINITY, f64::INFINITY);
    let run = cli(&[&rows.to_string_lossy()]);
    std::fs::remove_file(&rows).unwrap();
    let whole = cli(&[&common::repo_file(SAMPLE).to_string_lossy()]);
    assert_eq!(run["frames"], whole["frames"]);
    assert!(common::close(f(&run["summary"]["avg_fps"]), f(&whole["summary"]["avg_fps"])));
}

/// A file dropped on the window, as eframe hands it to egui.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn dropping_a_capture_on_the_window_opens_it() {
    let mut h = window(&[]);
    let dropped = common::repo_file("sample-traces/pm-1.x_FarCryNewDawn.csv");
    h.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(dropped.clone())));
    settle(&mut h);
    let names = app(&h).run_names();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[1], dropped.display().to_string());
    // The dropped capture is the one shown, with its own figures.
    let want = cli(&[&dropped.to_string_lossy()]);
    let avg = figure(&h, "Average FPS");
    assert_eq!(
        avg.first().map(String::as_str),
        Some(format!("{:.2}", f(&want["summary"]["avg_fps"])).as_str())
    );
}

#[test]
fn a_selected_frame_shows_its_columns_and_verdicts() {
    let mut h = window(&[]);
    let run = cli(&[&common::repo_file(SAMPLE).to_string_lossy()]);
    let stutter = run["stutters"]["frames"][0].as_u64().expect("the sample has stutters") as usize;
    // Click it on the timeline.
    let t = default_trace(&common::repo_file(SAMPLE));
    let pos = frame_pos(&h, 0, run_id(&h, 0), t.frames.start_ms[stutter], t.frames.frame_time_ms[stutter]);
    click_at(&mut h, pos);
    settle(&mut h);
    let grid_value = |name: &str| {
        // The details grid pairs a name label with its value label in the next cell.
        let nodes: Vec<String> =
            h.query_all_by_role(egui::accesskit::Role::Label).filter_map(|n| n.value()).collect();
        let at = nodes.iter().position(|v| v == name).unwrap_or_else(|| panic!("no {name} row"));
        nodes[at + 1].clone()
    };
    assert_eq!(grid_value("Frame"), stutter.to_string());
    assert_eq!(grid_value("Stutter"), "yes");
    assert!(h.query_by_label("MsUntilDisplayed").is_some(), "every column of the frame is listed");
}

#[test]
fn a_selection_on_a_trace_that_starts_late_gets_its_figures() {
    // firefox.exe starts well after the file's first frame: its own time axis and the
    // window's aligned axis differ, and the selection must be looked up on the right one.
    let mut h = window(&[]);
    let path = common::repo_file(SAMPLE);
    let capture = framescope_core::ingest::load_bytes(
        &path,
        &std::fs::read(&path).unwrap(),
        framescope_core::ingest::LoadOptions::default(),
    )
    .unwrap();
    let ff = capture.traces.iter().position(|t| t.meta.application == "firefox.exe").unwrap();
    let starts = &capture.traces[ff].frames.start_ms;
    assert!(starts[0] > 100.0, "firefox starts late: {}", starts[0]);
    let (a, b) = (starts[10], starts[200]);
    let run = run_id(&h, 0);
    h.state_mut().as_mut().unwrap().show_trace(run, ff);
    settle(&mut h);
    h.state_mut().as_mut().unwrap().apply(framescope::app::timeline::Command::Select(Some((a, b))));
    settle(&mut h);
    assert_eq!(app(&h).selection(), Some((a, b)));
    let avg = figure(&h, "Average FPS");
    assert_eq!(avg.len(), 2, "the run's and the selection's figures: {avg:?}");
    // The selection's frames are those starting in [a, b): 190 of them.
    let frames = figure(&h, "Frames");
    assert!(frames[1].starts_with("190 "), "{frames:?}");
}

#[test]
fn hovering_a_row_label_shows_the_whole_label() {
    let mut h = window(&[]);
    let rect = h.get_by_label("Timeline").rect();
    // The first row (frame time) starts under the ruler; its label is two lines.
    h.hover_at(Pos2::new(rect.left() + 20.0, rect.top() + 60.0));
    h.run_steps(4);
    let tip = h
        .query_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .find(|v| v.starts_with("Frame time: "))
        .expect("the frame row's label on hover");
    let mut lines = tip.lines();
    assert_eq!(lines.next(), Some("Frame time: presents (target 16.67 ms)"));
    // Then what the bars, whiskers and colours mean.
    assert!(lines.next().is_some_and(|l| l.contains("typical") && l.contains("slowest")), "{tip}");
}

/// Naraka with XeSS frame generation (PresentMon 2.5 capture, 2.4+ layout).
const NARAKA: &str = "presentmon-2x/pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv";

/// The whole label of the timeline row under `y` (what hovering its label shows).
fn row_label_at(h: &mut Window, y_from_top: f32) -> String {
    let rect = h.get_by_label("Timeline").rect();
    h.hover_at(Pos2::new(rect.left() + 20.0, rect.top() + y_from_top));
    h.run_steps(4);
    let label = h
        .query_all_by_role(Role::Label)
        .filter_map(|n| n.value())
        .find(|v| v.starts_with("Frame time: "))
        .expect("the frame row's label");
    h.hover_at(Pos2::new(1.0, 1.0));
    h.run_steps(2);
    label
}

#[test]
fn a_capture_without_generated_frames_is_analysed_on_presents() {
    let mut h = window(&[]);
    assert_eq!(figure(&h, "Frame time"), ["presents (auto — frame generation: not recorded by this format)"]);
    assert!(figure(&h, "Application FPS").is_empty(), "no frame-generation split without generated frames");
    assert!(row_label_at(&mut h, 60.0).starts_with("Frame time: presents"));
}

#[test]
fn a_frame_generation_capture_opens_on_display_with_the_split() {
    let Some(dir) = common::real_traces() else { return };
    let path = dir.join(NARAKA);
    let mut h = window(std::slice::from_ref(&path));
    let run = cli(&[&path.to_string_lossy()]);
    assert_eq!(run["frame_time"], "display");
    assert_eq!(figure(&h, "Frame time"), ["display (auto — frame generation)"]);
    let rate = |v: &Value| format!("{:.2}", f(v));
    let kinds = &run["frame_types"];
    assert_eq!(figure(&h, "Application FPS"), [rate(&kinds["application"]["fps"])]);
    assert_eq!(figure(&h, "Generated FPS"), [rate(&kinds["generated"]["fps"])]);
    // Each kind's share of the rate: application + generated = displayed.
    let sum = f(&kinds["application"]["fps"]) + f(&kinds["generated"]["fps"]);
    assert!((sum - f(&run["summary"]["avg_fps"])).abs() < 1e-9, "{sum}");
    assert_eq!(figure(&h, "Displayed FPS"), [rate(&run["summary"]["avg_fps"])]);
    assert_eq!(figure(&h, "Average FPS"), [rate(&run["summary"]["avg_fps"])]);
    assert_eq!(figure(&h, "Stutters"), [stutters_text(&run)]);
    // The displayed rate is more than either kind alone, and the display series has
    // far fewer stutters than the interleaved present intervals.
    let presents = cli(&["--frame-time", "presents", &path.to_string_lossy()]);
    assert!(run["stutters"]["count"].as_u64() < presents["stutters"]["count"].as_u64().map(|c| c / 5));
    // The timeline's frame row draws what the figures use.
    assert!(row_label_at(&mut h, 60.0).starts_with("Frame time: display"));
}

#[test]
fn switching_the_frame_time_source_re_analyses() {
    let Some(dir) = common::real_traces() else { return };
    let path = dir.join(NARAKA);
    let name = path.to_string_lossy().into_owned();
    let mut h = window(std::slice::from_ref(&path));
    let avg = |run: &Value| format!("{:.2}", f(&run["summary"]["avg_fps"]));
    let display = cli(&[&name]);
    assert_eq!(figure(&h, "Average FPS"), [avg(&display)]);

    h.get_by_role_and_label(Role::RadioButton, "presents").click();
    settle(&mut h);
    let presents = cli(&["--frame-time", "presents", &name]);
    assert_eq!(figure(&h, "Frame time"), ["presents (set by you)"]);
    assert_eq!(figure(&h, "Average FPS"), [avg(&presents)]);
    assert_eq!(figure(&h, "Stutters"), [stutters_text(&presents)]);
    assert_ne!(stutters_text(&presents), stutters_text(&display));
    assert_eq!(figure(&h, "Presented FPS"), [avg(&presents)], "the third rate follows the source");
    assert!(row_label_at(&mut h, 60.0).starts_with("Frame time: presents"));

    h.get_by_role_and_label(Role::RadioButton, "auto").click();
    settle(&mut h);
    assert_eq!(figure(&h, "Frame time"), ["display (auto — frame generation)"]);
    assert_eq!(figure(&h, "Average FPS"), [avg(&display)]);
}

#[test]
fn a_refresh_rate_set_for_one_capture_stays_with_it() {
    let mut h = window(&[]);
    let sample = cli(&[&common::repo_file(SAMPLE).to_string_lossy()]);
    let detected = figure(&h, "Refresh");
    assert!(!detected.iter().any(|v| v.contains("set by you")), "{detected:?}");
    if let Some(hz) = sample["vsync"]["refresh_hz"].as_f64() {
        let confidence = f(&sample["vsync"]["confidence"]) * 100.0;
        assert_eq!(detected, [format!("{hz:.2} Hz — detected (confidence {confidence:.0} %)")]);
    }

    // Set 144 Hz for this capture: tick its checkbox, type the rate.
    h.get_by_role_and_label(Role::CheckBox, "Refresh rate").click();
    settle(&mut h);
    assert!(figure(&h, "Refresh")[0].ends_with(" Hz — set by you"), "{:?}", figure(&h, "Refresh"));
    h.get_by_role_and_label(Role::SpinButton, "Refresh rate").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::SpinButton, "Refresh rate").type_text("144");
    h.run_steps(1);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(figure(&h, "Refresh"), ["144.00 Hz — set by you"]);

    // The next capture opened has its own, detected rate.
    let far_cry = common::repo_file("sample-traces/pm-1.x_FarCryNewDawn.csv");
    let ctx = h.ctx.clone();
    h.state_mut().as_mut().unwrap().open_all(std::slice::from_ref(&far_cry), &ctx);
    settle(&mut h);
    let own = figure(&h, "Refresh");
    assert!(!own.iter().any(|v| v.contains("set by you")), "{own:?}");
    let want = cli(&[&far_cry.to_string_lossy()]);
    match want["vsync"]["refresh_hz"].as_f64() {
        Some(hz) => assert!(own[0].starts_with(&format!("{hz:.2} Hz — detected")), "{own:?}"),
        None => assert_eq!(own, ["not detected"]),
    }
    assert!(h.query_by_role_and_label(Role::SpinButton, "Refresh rate").is_none(), "no rate set here");

    // Back on the first capture, its own rate is still set.
    h.get_by_role_and_label(Role::RadioButton, SAMPLE_NAME).click();
    settle(&mut h);
    assert_eq!(figure(&h, "Refresh"), ["144.00 Hz — set by you"]);
}
