//! An egui_kittest harness around the real [`App`], shared by the window tests.

use eframe::egui::{self, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use framescope::app::session::RunId;
use framescope::app::{App, Persisted};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The app is created after the harness so that it shares the harness's context.
pub type Window = Harness<'static, Option<App>>;

/// A 1400×900 window with `files` open (the bundled sample when empty), settled. The
/// user's config is never written.
pub fn window(files: &[PathBuf]) -> Window {
    window_of(egui::vec2(1400.0, 900.0), Persisted::default(), files, |_| {})
}

/// A window of `size` with `persisted` settings and `files` open, `before` done to the
/// app before its first frame, settled. The user's config is never written.
pub fn window_of(
    size: egui::Vec2,
    persisted: Persisted,
    files: &[PathBuf],
    before: impl FnOnce(&mut App),
) -> Window {
    let mut h = Harness::builder().with_size(size).build_ui_state(
        |ui, app: &mut Option<App>| {
            if let Some(app) = app {
                app.ui_root(ui);
            }
        },
        None,
    );
    let ctx = h.ctx.clone();
    let mut app = App::new(persisted, &ctx);
    app.set_saving(false);
    app.open_all(files, &ctx);
    before(&mut app);
    *h.state_mut() = Some(app);
    settle(&mut h);
    h
}

/// Ticks "Compare runs" and lets the window settle: the shown runs are compared.
pub fn tick_compare(h: &mut Window) {
    h.get_by_role_and_label(Role::CheckBox, "Compare runs").click();
    settle(h);
    assert!(app(h).comparing(), "ticking Compare runs compares");
}

/// A window with `files` open, compared by ticking "Compare runs" (the first file is
/// the baseline).
pub fn compared(files: &[PathBuf]) -> Window {
    let mut h = window(files);
    assert!(!app(&h).comparing());
    tick_compare(&mut h);
    h
}

/// The app inside the harness.
pub fn app(h: &Window) -> &App {
    h.state().as_ref().expect("app")
}

/// Replaces the text of the text field labelled `label`, as a user does.
pub fn type_text(h: &mut Window, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).click();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.get_by_role_and_label(Role::TextInput, label).type_text(text);
    h.run_steps(2);
}

/// Steps until loading and analysis are done (at least 3 frames: a settings change
/// starts its analysis in the next frame, and a grid's first frame is a sizing pass).
pub fn settle(h: &mut Window) {
    let start = Instant::now();
    let mut steps = 0;
    loop {
        h.run_steps(1);
        steps += 1;
        if steps >= 3 && app(h).is_idle() {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "not idle after 30 s: {}", app(h).idle_report());
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
}

/// The values labelled by `name`, in tree order: a figure's value labels (and a
/// comparison row's cells) are `labelled_by` the label that names them.
pub fn labelled(h: &Window, name: &str) -> Vec<String> {
    let owned = name.to_owned();
    h.query_all_by(move |n| {
        n.role() == Role::Label && n.labelled_by().any(|l| l.value().as_deref() == Some(owned.as_str()))
    })
    .filter_map(|n| n.accesskit_node().value())
    .collect()
}

/// A primary click at `pos`, as a user gives it: the pointer moves there, then the
/// button goes down and up.
pub fn click_at(h: &mut Window, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run_steps(1);
    for pressed in [true, false] {
        primary_button(h, pos, pressed);
    }
    h.run_steps(1);
}

/// The primary button going down (`pressed`) or up at `pos`.
pub fn primary_button(h: &mut Window, pos: egui::Pos2, pressed: bool) {
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    });
}

/// The id of the run at place `place` among the open runs (in the order they opened).
pub fn run_id(h: &Window, place: usize) -> RunId {
    *app(h).run_ids().get(place).expect("a run at that place")
}

/// The middle of a frame (`start_ms`, `frame_time_ms` on run `run`'s own time axis)
/// in the frame row of timeline number `timeline` (top first; compared runs stack one
/// timeline each, baseline first).
pub fn frame_pos(h: &Window, timeline: usize, run: RunId, start_ms: f64, frame_time_ms: f64) -> egui::Pos2 {
    let rect =
        h.query_all_by_role_and_label(Role::Canvas, "Timeline").nth(timeline).expect("that timeline").rect();
    let left = rect.left() + framescope::app::timeline::LABEL_WIDTH;
    let x = app(h).view_of(run).x_of(start_ms + frame_time_ms / 2.0, left, rect.right() - left);
    assert!(x > left && x < rect.right(), "frame at {start_ms} ms is not in view");
    // The frame row is the first row, under the ruler.
    egui::Pos2::new(x, rect.top() + 60.0)
}

/// The default trace of a capture file, loaded the way the window loads it.
pub fn default_trace(path: &std::path::Path) -> framescope_core::model::Trace {
    let bytes = std::fs::read(path).expect("read the capture");
    let capture =
        framescope_core::ingest::load_bytes(path, &bytes, framescope_core::ingest::LoadOptions::default())
            .expect("a readable capture");
    let i = capture.default_trace().expect("a default trace");
    capture.traces.into_iter().nth(i).expect("the default trace")
}
