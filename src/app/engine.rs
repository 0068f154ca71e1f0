//! What a game engine's capture brings to the window (`formats.md` §7, §10): the
//! target frame rate it states, offered beside the target setting with one click, and
//! its labelled events, listed above the timeline (a click centres the view on one)
//! and drawn as markers on it (`timeline::events`).

use super::App;
use super::timeline::{Command, TimeView};
use eframe::egui;

/// Events listed above the timeline at most (all are drawn on it).
const LISTED_EVENTS: usize = 40;

/// Made-up engine captures built into the binary (`sample-traces/README.md`), so a new
/// user can see what framescope makes of them without recording one.
const EXAMPLES: [(&str, &str, &[u8]); 4] = [
    (
        "Unreal CSV profiler (5.x, events)",
        "example: unreal-csvprofile-5x-example.csv",
        include_bytes!("../../sample-traces/unreal-csvprofile-5x-example.csv"),
    ),
    (
        "Unreal CSV profiler (4.19)",
        "example: unreal-csvprofile-4.19-example.csv",
        include_bytes!("../../sample-traces/unreal-csvprofile-4.19-example.csv"),
    ),
    (
        "Unity recorder (FramescopeRecorder.cs)",
        "example: unity-recorder-example.csv",
        include_bytes!("../../sample-traces/unity-recorder-example.csv"),
    ),
    (
        "FRAPS frametimes",
        "example: generic-fraps-frametimes.csv",
        include_bytes!("../../sample-traces/generic-fraps-frametimes.csv"),
    ),
];

impl App {
    /// File › Open an engine example: the made-up engine captures built in.
    pub(super) fn engine_examples_menu(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("Open an engine example", |ui| {
            for (text, name, bytes) in EXAMPLES {
                if ui
                    .button(text)
                    .on_hover_text("A made-up capture (sample-traces/README.md), built into framescope")
                    .clicked()
                {
                    self.open(super::work::LoadSource::Embedded(name, bytes), ui.ctx());
                    ui.close();
                }
            }
        });
    }

    /// The capture's own target, when the shown capture states one and the target set
    /// is another: "Use the capture's target: 60 FPS".
    pub(super) fn capture_target_ui(&mut self, ui: &mut egui::Ui) {
        let Some(target) = self.runs.get(self.selected).and_then(|r| r.capture.info.target_fps) else {
            return;
        };
        if (target - self.persisted.target_fps).abs() < 1e-9 || !(1.0..=1000.0).contains(&target) {
            return;
        }
        let text = format!("Use the capture's target: {} FPS", super::timeline::fps_text(target));
        if ui
            .button(text)
            .on_hover_text(
                "The capture says which frame rate the game aimed at (Unreal's [targetframerate], the Unity \
                 recorder's target_fps): colour and pace against it",
            )
            .clicked()
        {
            self.persisted.target_fps = target;
        }
    }

    /// The shown runs' events as buttons above the timeline: a click centres the view
    /// on the event and selects its frame.
    pub(super) fn events_ui(&mut self, ui: &mut egui::Ui) {
        let mut command = None;
        for i in self.shown() {
            let run = &self.runs[i];
            let trace = &run.capture.traces[run.trace];
            let events = &trace.frames.events;
            if events.is_empty() {
                continue;
            }
            ui.horizontal_wrapped(|ui| {
                let label = if self.comparing() { format!("Events ({})", run.label) } else { "Events".to_owned() };
                ui.label(label).on_hover_text(
                    "What the engine logged during the capture (Unreal's EVENTS column): each is a dashed line \
                     on the timeline; click one to go there",
                );
                for e in events.iter().take(LISTED_EVENTS) {
                    let hint = format!("frame {} at {:.3} s", e.frame, e.time_ms / 1000.0);
                    if ui.small_button(&e.label).on_hover_text(hint).clicked() {
                        command = Some((i, e.time_ms, e.frame));
                    }
                }
                if events.len() > LISTED_EVENTS {
                    ui.label(format!("… {} more on the timeline", events.len() - LISTED_EVENTS));
                }
            });
        }
        if let Some((run, t, frame)) = command {
            // Keep the zoom when it shows less than the whole capture, else 2 s around it.
            let span = if self.view.span_ms > 0.0 && self.view.span_ms < 2000.0 {
                self.view.span_ms
            } else {
                2000.0
            };
            self.apply_from(run, Command::View(TimeView { start_ms: t - span / 2.0, span_ms: span }));
            self.apply_from(run, Command::SelectFrame(Some(frame)));
        }
    }
}
