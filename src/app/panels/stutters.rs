//! The stutter list above the timeline (as Nsight and Tracy users expect): the shown
//! run's stutters and its slowest frames — time, duration, the actions that spiked —
//! each a button that goes there (centres the view on the frame and selects it), and
//! the keys `]` / `[` (or `N` / `Shift+N`) for the next / previous stutter.

use super::Model;
use crate::app::session::{AppCommand, TimeView, TimelineCommand as Command};
use crate::app::work::navigation::{self, Spot};
use eframe::egui::{self, Key};

/// What the keys do, for the list's hover and the help.
pub const KEYS_HELP: &str = "] or N: next stutter; [ or Shift+N: previous stutter (from the selected frame, else \
                             from the first); click a row to go there";

/// Rows of the list shown before it scrolls.
const LIST_HEIGHT: f32 = 92.0;

/// The list (collapsible, open by default) and the keys, for the run whose figures
/// are shown; nothing for a run without figures, a sampled log, or while comparing.
pub fn stutters_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let s = m.session;
    if s.comparing() {
        return Vec::new();
    }
    let Some(run) = s.selected_run() else { return Vec::new() };
    let Some(a) = run.analyzed() else { return Vec::new() };
    let marks = &a.marks;
    if marks.worst.is_empty() && marks.stutter_spots.is_empty() {
        return Vec::new();
    }
    let trace = run.shown_trace();
    let selected = s.selected_frame().filter(|(r, _)| *r == run.id).map(|(_, f)| f as u32);
    let span = s.aligned_view().span_ms;
    let go = |frame: u32| -> Vec<AppCommand> {
        let Some(&start) = trace.frames.start_ms.get(frame as usize) else { return Vec::new() };
        let view = TimeView::around(start, span);
        [Command::View(view), Command::SelectFrame(Some(frame as usize))]
            .into_iter()
            .map(|command| AppCommand::Timeline { run: run.id, command })
            .collect()
    };
    let mut out = Vec::new();
    if let Some(forward) = key_step(ui) {
        let stutters: Vec<u32> = marks.stutter_spots.iter().map(|x| x.frame).collect();
        if let Some(f) = navigation::step(&stutters, selected, forward) {
            out.extend(go(f));
        }
    }
    let title =
        format!("Stutters ({}) and the {} slowest frames", marks.stutter_spots.len(), marks.worst.len());
    let list = List { marks, trace, selected, go: &go };
    let header =
        egui::CollapsingHeader::new(title).id_salt("stutter_list").default_open(true).show(ui, |ui| {
            ui.columns(2, |cols| {
                list.ui(&mut cols[0], "stutter", &marks.stutter_spots, &mut out);
                list.ui(&mut cols[1], "slowest", &marks.worst, &mut out);
            });
        });
    header.header_response.on_hover_text(KEYS_HELP);
    out
}

/// `Some(true)` for next (`]`, `N`), `Some(false)` for previous (`[`, `Shift+N`), when
/// no text field has the keyboard.
fn key_step(ui: &egui::Ui) -> Option<bool> {
    if ui.ctx().egui_wants_keyboard_input() {
        return None;
    }
    ui.input(|i| {
        let n = i.key_pressed(Key::N);
        if i.key_pressed(Key::CloseBracket) || (n && !i.modifiers.shift) {
            Some(true)
        } else if i.key_pressed(Key::OpenBracket) || (n && i.modifiers.shift) {
            Some(false)
        } else {
            None
        }
    })
}

/// What each list reads.
struct List<'a> {
    marks: &'a crate::app::work::Marks,
    trace: &'a framescope_core::model::Trace,
    /// The selected frame of the run, highlighted.
    selected: Option<u32>,
    /// The commands that go to a frame.
    go: &'a dyn Fn(u32) -> Vec<AppCommand>,
}

impl List<'_> {
    /// One list: a button per spot (time, duration, spiked actions); the selected
    /// frame's is highlighted.
    fn ui(&self, ui: &mut egui::Ui, kind: &str, spots: &[Spot], out: &mut Vec<AppCommand>) {
        let heading = if kind == "stutter" { "Stutters (in time order)" } else { "Slowest frames" };
        ui.label(egui::RichText::new(heading).strong()).on_hover_text(KEYS_HELP);
        if spots.is_empty() {
            ui.label("none");
            return;
        }
        // Only the rows in sight are laid out (a long capture has thousands of
        // stutters: a text per row costs tens of MB at 10M frames). A small button is
        // as high as its text.
        let row_height = ui.text_style_height(&egui::TextStyle::Button);
        let mut area = egui::ScrollArea::vertical().id_salt(kind).max_height(LIST_HEIGHT);
        if let Some(offset) = self.scroll_to(ui, kind, spots, row_height + ui.spacing().item_spacing.y) {
            area = area.vertical_scroll_offset(offset);
        }
        area.show_rows(ui, row_height, spots.len(), |ui, rows| {
            for spot in spots.get(rows).unwrap_or_default() {
                self.row(ui, spot, out);
            }
        });
    }

    /// The scroll offset that brings the selected frame's row to the middle of the
    /// list, when the selection changed since the list last drew (`]`, `[`, a click
    /// on the timeline) and the frame is in the list; else `None` (the user's scroll
    /// stays).
    fn scroll_to(&self, ui: &egui::Ui, kind: &str, spots: &[Spot], row: f32) -> Option<f32> {
        let id = egui::Id::NULL.with(("stutter_list_followed", kind));
        let before = ui.data_mut(|d| {
            let before = d.get_temp::<Option<u32>>(id).flatten();
            d.insert_temp(id, self.selected);
            before
        });
        let frame = self.selected.filter(|f| before != Some(*f))?;
        let at = spots.iter().position(|s| s.frame == frame)?;
        Some((at as f32 * row - (LIST_HEIGHT - row) / 2.0).max(0.0))
    }

    /// One row: the spot's button, its hover naming what spiked; a click goes there.
    fn row(&self, ui: &mut egui::Ui, spot: &Spot, out: &mut Vec<AppCommand>) {
        let text = spot_text(spot, self.marks, self.trace);
        let on = self.selected == Some(spot.frame);
        let button = ui.add(egui::Button::selectable(on, text).small().truncate());
        let button = button.on_hover_ui(|ui| {
            let spiked = navigation::spiked(&self.marks.spikes, spot.frame).join(", ");
            ui.label(format!("Spiked: {}", if spiked.is_empty() { "—" } else { &spiked }));
        });
        if button.clicked() {
            out.extend((self.go)(spot.frame));
        }
    }
}

/// "12.345 s  48.2 ms  frame 812  MsGPUActive": where, how long, which frame, what
/// spiked.
#[must_use]
pub fn spot_text(
    spot: &Spot,
    marks: &crate::app::work::Marks,
    trace: &framescope_core::model::Trace,
) -> String {
    let at = trace.frames.start_ms.get(spot.frame as usize).copied().unwrap_or(f64::NAN);
    let spiked = navigation::spiked(&marks.spikes, spot.frame);
    let actions = match spiked.len() {
        0 => String::new(),
        1 | 2 => format!("  {}", spiked.join(", ")),
        n => format!("  {}, {} +{}", spiked[0], spiked[1], n - 2),
    };
    format!("{}  {:.1} ms  frame {}{actions}", clock(at), spot.ms, spot.frame)
}

/// A time as seconds (`12.345 s`), or as a clock from a minute on (`1:37:13.921`).
#[must_use]
pub fn clock(t_ms: f64) -> String {
    let s = t_ms / 1000.0;
    if s.is_nan() || s < 60.0 {
        return format!("{s:.3} s");
    }
    let whole = s.floor() as u64;
    let ms = ((s - s.floor()) * 1000.0).round().min(999.0) as u64;
    let (h, m, sec) = (whole / 3600, whole / 60 % 60, whole % 60);
    if h > 0 { format!("{h}:{m:02}:{sec:02}.{ms:03}") } else { format!("{m}:{sec:02}.{ms:03}") }
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_times_read_as_a_clock() {
        assert_eq!(super::clock(12_345.0), "12.345 s");
        assert_eq!(super::clock(5_833_921.0), "1:37:13.921");
        assert_eq!(super::clock(61_005.0), "1:01.005");
    }
}
