//! The figures of the shown run and of its time selection (or, while comparing, the
//! comparison of runs or of sets), then the selected frame: the grid of figures, the
//! frame-generation split, and which frame-time source they were computed on.

use super::Model;
use super::figure_rows::{figure_rows, value_of};
use crate::app::figure_text::{SHORT_RUN_LOWS, SHORT_RUN_LOWS_HELP, figure_help};
use crate::app::session::{AppCommand, ShellCommand};
use eframe::egui::{self, RichText};
use framescope_core::analysis::FrameTimeSource;
use framescope_core::analysis::records_frame_types;
use framescope_core::figures::figure;
use framescope_core::report::Run;

/// Target rates offered in the settings bar.
pub const TARGETS: [f64; 7] = [30.0, 60.0, 90.0, 120.0, 144.0, 165.0, 240.0];

/// Which frame-time source a run was analysed with, and why: `used` is the run's
/// `frame_time`, `asked` the user's choice, `generated` whether the run (or, when
/// `comparing`, any compared run) has generated frames, `recorded` whether its format
/// (every compared run's) marks generated frames at all.
#[must_use]
pub fn source_text(
    used: &str,
    asked: FrameTimeSource,
    generated: bool,
    recorded: bool,
    comparing: bool,
) -> String {
    let why = match (asked, used, generated, comparing) {
        (FrameTimeSource::Presents | FrameTimeSource::Display, ..) => "set by you",
        (_, "display", _, false) => "auto — frame generation",
        (_, "display", _, true) => "auto — frame generation in a compared run",
        (_, _, false, false) if !recorded => "auto — frame generation: not recorded by this format",
        (_, _, false, true) if !recorded => {
            "auto — frame generation: not recorded by a compared run's format"
        }
        (_, _, false, _) => "auto — no generated frames",
        (_, _, true, false) => "auto — no display data",
        (_, _, true, true) => "auto — a compared run has no display data",
    };
    format!("{used} ({why})")
}

/// What the frame-time source means, for its tooltip.
pub const SOURCE_HELP: &str = "The interval every figure is computed on: presents = from one \
    Present() call to the next; display = from one frame reaching the screen to the next (what \
    the player sees, and what counts with frame generation). Auto picks display for captures with \
    generated frames. Compared runs always share one source.";

/// Draws a run's figures as a two-column grid with accessible labels; `source` says
/// which frame-time source they are computed on ([`source_text`]).
pub fn figures_ui(ui: &mut egui::Ui, run: &Run, id: &str, source: &str) {
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Frame time").on_hover_text(SOURCE_HELP);
        ui.label(RichText::new(source).strong()).labelled_by(label.id);
    });
    frame_generation_ui(ui, run, id);
    super::limiter::limiter_ui(ui, run, id);
    let rows = figure_rows(run);
    let (name_width, value_width) = column_widths(ui, rows.iter().map(|r| r.0));
    egui::Grid::new(id).num_columns(2).striped(true).max_col_width(value_width).show(ui, |ui| {
        for (name, value) in rows {
            let help = if name == SHORT_RUN_LOWS { SHORT_RUN_LOWS_HELP } else { figure_help(name) };
            // A name too long for its column is elided with "…" (egui shows it whole on hover).
            let label = ui
                .scope(|ui| {
                    ui.set_max_width(name_width);
                    ui.add(egui::Label::new(name).truncate())
                })
                .inner
                .on_hover_text(help);
            // Long values (the refresh rate's) wrap inside the panel.
            ui.add(egui::Label::new(RichText::new(value).strong()).wrap())
                .labelled_by(label.id)
                .on_hover_text(help);
            ui.end_row();
        }
    });
    if run.summary.is_none() {
        ui.label("no usable frame times");
    }
}

/// The widths of a two-column grid of `names` and values in `ui`: the names' column as
/// wide as the widest name but leaving the values at least 90 points, the values' the
/// rest — so that neither runs past the panel (values wrap, names are elided).
fn column_widths<'a>(ui: &egui::Ui, names: impl Iterator<Item = &'a str>) -> (f32, f32) {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let widest = names
        .map(|n| {
            ui.fonts_mut(|f| f.layout_no_wrap(n.to_owned(), font.clone(), egui::Color32::WHITE).size().x)
        })
        .fold(0.0, f32::max);
    let (room, gap) = (ui.available_width(), ui.spacing().item_spacing.x);
    let name = widest.min(room - gap - 90.0).max(60.0);
    (name, (room - name - gap).max(60.0))
}

/// Application, generated and displayed FPS of a run with generated frames, large,
/// each with a one-line explanation on hover.
fn frame_generation_ui(ui: &mut egui::Ui, run: &Run, id: &str) {
    if run.frame_types.is_none() {
        return;
    }
    let displayed = run.frame_time == "display";
    let kind = |qualified: &str| {
        let (name, help) = figure(qualified).map_or(("", ""), |f| (f.title, f.help));
        (name, value_of(run, qualified), help)
    };
    let rows = [
        kind("frame_types.application_fps"),
        kind("frame_types.generated_fps"),
        if displayed {
            (
                "Displayed FPS",
                value_of(run, "summary.avg_fps"),
                "Every frame that reached the screen, rendered or generated: the average FPS of the display intervals",
            )
        } else {
            (
                "Presented FPS",
                value_of(run, "summary.avg_fps"),
                "Every frame presented, rendered or generated (pick the display source for what reached the screen)",
            )
        },
    ];
    ui.group(|ui| {
        ui.label(RichText::new("Frame generation").strong()).on_hover_text(
            "This capture marks generated frames: application and generated frames are counted apart",
        );
        egui::Grid::new((id, "frame_generation")).num_columns(2).show(ui, |ui| {
            for (name, value, help) in rows {
                let label = ui.label(name).on_hover_text(help);
                ui.label(RichText::new(value).strong().size(18.0)).labelled_by(label.id).on_hover_text(help);
                ui.end_row();
            }
        });
        let counted = if displayed { "displayed" } else { "presented" };
        ui.label(
            RichText::new(format!(
                "The figures below count every {counted} frame; the game responds at the application rate."
            ))
            .small()
            .weak(),
        );
    });
}

/// The figures part of the runs and figures panel: the shown run's figures and its
/// selection's, or the comparison while comparing; then the selected frame.
pub fn figures_panel_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    ui.separator();
    let mut out = Vec::new();
    if m.session.comparing() {
        if m.session.sets_mode() {
            ui.heading("Comparison of sets");
            if m.session.has_selection() {
                let note = "of the whole (trimmed) runs: sets do not use the selection";
                ui.label(RichText::new(note).small().weak());
            }
            out.extend(super::sets_panel::sets_comparison_ui(ui, m));
        } else {
            out.extend(super::comparison::comparison_ui(ui, m));
        }
    } else {
        out.extend(run_figures_ui(ui, m));
    }
    super::frame_details::selected_frame_ui(ui, m);
    out
}

/// The shown run's figures (with a note while new ones compute, or when they failed),
/// and its selection's.
fn run_figures_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let Some(run) = m.session.selected_run() else {
        ui.label("Open a capture: Open…, drop files on the window, or name them on the command line.");
        return out;
    };
    let (settings, trim) = (m.run_settings(run.id), m.run_trim(run.id));
    ui.heading(&run.shown_trace().meta.application);
    ui.label(format!("{} ({})", run.capture.info.format, run.capture.info.format_version));
    super::system::system_box_ui(ui, &run.capture.info, "figures");
    if let Some(markers) = run.markers_name() {
        ui.label(format!("PCL log: {markers}"));
    }
    out.extend(trim_note_ui(ui, trim, run.trim.is_some()));
    match run.analyzed() {
        Some(a) => {
            if run.failed(&settings, trim) {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    "No figures for these settings: see the error above",
                );
            } else if a.settings != settings || a.trim != trim {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("updating for the new settings…");
                });
            }
            figures_ui(
                ui,
                &a.run,
                "figures",
                &m.source_text(&a.run, a.run.frame_types.is_some(), records_frame_types(run.shown_trace())),
            );
            let mut peers = m.scratch.show_peers_panel;
            if ui
                .toggle_value(&mut peers, "As other tools report it")
                .on_hover_text(super::PEERS_HELP)
                .changed()
            {
                out.push(ShellCommand::ShowPeersPanel(peers).into());
            }
        }
        None if run.failed(&settings, trim) => {
            // The old figures are gone (they are not these settings'); the error says why.
            ui.colored_label(
                ui.visuals().error_fg_color,
                "No figures for these settings: see the error above",
            )
            .on_hover_text(
                "Nothing is left of this run for these settings: a trim that leaves no frame is undone in \
                     the settings bar or with the run's own trim",
            );
        }
        None => {
            ui.spinner();
        }
    }
    if let Some(range) = m.session.selection_of(run.id) {
        ui.separator();
        ui.heading("Selection");
        let (a, b) = (range.0.min(range.1) / 1000.0, range.0.max(range.1) / 1000.0);
        ui.label(format!("{a:.3} s – {b:.3} s"));
        match run.selection_run(&settings, trim, range) {
            Some(sel) => {
                let recorded = records_frame_types(run.shown_trace());
                figures_ui(
                    ui,
                    sel,
                    "selection_figures",
                    &m.source_text(sel, sel.frame_types.is_some(), recorded),
                );
            }
            None => {
                ui.spinner();
            }
        }
    }
    out
}

/// Says what is left out, above a run's figures.
/// The trim the figures are of, where the figures are: in the warning colour, with
/// where it comes from (the run's own, or the trim for all runs, remembered across
/// restarts) and, for the latter, a button that clears it — so figures that differ
/// from `framescope report FILE` say why.
fn trim_note_ui(ui: &mut egui::Ui, trim: framescope_core::analysis::Trim, own: bool) -> Option<AppCommand> {
    if trim.is_none() {
        return None;
    }
    let text = format!("Trimmed: the first {} s and the last {} s are left out", trim.start_s, trim.end_s);
    let whose = if own {
        "this run's own trim".to_owned()
    } else {
        format!(
            "the trim for all runs, remembered (framescope report --trim-start {} --trim-end {} gives these figures)",
            trim.start_s, trim.end_s
        )
    };
    let mut clear = false;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.add(egui::Label::new(RichText::new(text).color(ui.visuals().warn_fg_color)).wrap())
            .on_hover_text(super::settings_bar::TRIM_HELP);
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(whose).small());
            clear = !own && ui.small_button("No trim").on_hover_text("Clear the trim for all runs").clicked();
        });
    });
    clear.then_some(AppCommand::TrimAll { start_s: 0.0, end_s: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::super::figure_rows::NEEDS_FRAMES;
    use super::*;
    use framescope_core::analysis::Settings;
    use framescope_core::ingest::{LoadOptions, load_bytes};
    use std::path::Path;

    #[test]
    fn smoothness_rows_come_first_after_the_average() {
        let mut csv = String::from("Application,ProcessID,SwapChainAddress,MsBetweenPresents\n");
        for i in 0..50 {
            csv.push_str(if i == 25 { "g.exe,1,0x1,50\n" } else { "g.exe,1,0x1,10\n" });
        }
        let c = load_bytes(Path::new("r.csv"), csv.as_bytes(), LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let run = framescope_core::report::run("r.csv", &c, 0, &Settings::default(), None);
        let rows = figure_rows(&run);
        let names: Vec<&str> = rows.iter().map(|r| r.0).take(4).collect();
        assert_eq!(names, ["Average FPS", "Steady FPS", "Mostly steady FPS", "Typical FPS"]);
        assert!(rows.iter().any(|(n, v)| *n == "Stutters" && v.starts_with("1 ")));
        assert!(!rows.iter().any(|(_, v)| v == NEEDS_FRAMES));
        // 50 frames: the lows are the one 50 ms frame's rate (1000 / 50), and say so.
        let at = rows.iter().position(|r| r.0 == "1% low FPS").unwrap_or_default();
        assert_eq!(rows[at].1, "20.00");
        assert_eq!(rows[at + 2], (SHORT_RUN_LOWS, "one frame each, fewer than 100 frames".to_owned()));
    }

    /// Auto on presents says why: no generated frame in a format that marks them, or a
    /// format that cannot mark them (issue 18).
    #[test]
    fn the_source_says_when_the_format_cannot_record_frame_generation() {
        let auto = FrameTimeSource::Auto;
        assert_eq!(
            source_text("presents", auto, false, true, false),
            "presents (auto — no generated frames)"
        );
        assert_eq!(
            source_text("presents", auto, false, false, false),
            "presents (auto — frame generation: not recorded by this format)"
        );
        assert_eq!(
            source_text("presents", auto, false, false, true),
            "presents (auto — frame generation: not recorded by a compared run's format)"
        );
        assert_eq!(source_text("display", auto, true, true, false), "display (auto — frame generation)");
        assert_eq!(
            source_text("presents", FrameTimeSource::Presents, false, false, false),
            "presents (set by you)"
        );
    }

    /// A sampled log: two samples of 500 ms at 100 FPS and 1000 ms at 50 FPS (W = 100
    /// frames, avg = 100000 / 1500 = 66.67); the per-frame figures say why they are
    /// missing.
    #[test]
    fn a_sampled_log_says_what_needs_per_frame_data() {
        let log = "Timestamp (Elapsed time in seconds),PID,FPS\n0,1,70\n0.5,1,100\n1.5,1,50\n";
        let c = load_bytes(Path::new("s.csv"), log.as_bytes(), LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let run = framescope_core::report::run("s.csv", &c, 0, &Settings::default(), None);
        let rows = figure_rows(&run);
        let value = |name: &str| rows.iter().find(|r| r.0 == name).map(|r| r.1.clone()).unwrap_or_default();
        assert_eq!(value("Average FPS"), "66.67");
        for name in ["Pacing", "Stutters", "Oscillation", "Frame health"] {
            assert_eq!(value(name), NEEDS_FRAMES, "{name}");
        }
        assert_eq!(value("Frames"), "≈100 (estimated from 2 samples)");
    }
}
