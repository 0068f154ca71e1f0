//! The panels around the timeline: the settings bar, the figures of the run and of
//! the selection, the selected frame's details, and the keyboard help. Drawing only:
//! every change goes back to the app as an [`Action`].

use super::work::Marks;
use super::{theme, timeline};
use eframe::egui::{self, RichText};
use framescope_core::analysis::FrameTimeSource;
use framescope_core::analysis::vsync::VsyncSource;
use framescope_core::model::Trace;
use framescope_core::report::Run;
use framescope_core::report::Verdict;
use framescope_core::report::compare::Comparison;

pub use super::figure_text::{
    FIGURE_NAMES, FLOOR_HELP, TARGET_HELP, THRESHOLD_HELP, Unit, figure_help, figure_name, fixed,
    format_change, format_delta, format_value, verdict_text,
};

/// What the figures panel says for a figure a sampled log cannot give.
pub const NEEDS_FRAMES: &str = "needs per-frame data";

/// Target rates offered in the settings bar.
pub const TARGETS: [f64; 7] = [30.0, 60.0, 90.0, 120.0, 144.0, 165.0, 240.0];

/// Grid rows of a run's figures: the smoothness figures first, as prominent as the
/// average, then lows, stutters, latency.
#[must_use]
pub fn figure_rows(run: &Run) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    let ms = |v: f64| format!("{v:.3} ms");
    if let Some(s) = &run.summary {
        rows.push(("Average FPS", format!("{:.2}", s.avg_fps)));
    }
    // A sampled log (metrics.md §10) has averages over intervals, not frame times.
    let per_frame_only = |rows: &mut Vec<(&'static str, String)>, name: &'static str| {
        if run.sampled {
            rows.push((name, NEEDS_FRAMES.to_owned()));
        }
    };
    per_frame_only(&mut rows, "Pacing");
    if let Some(p) = &run.pacing {
        rows.push(("Steady FPS", p.steady_fps.to_string()));
        rows.push(("Mostly steady FPS", p.mostly_steady_fps.to_string()));
        rows.push(("Typical FPS", p.typical_fps.to_string()));
        rows.push(("Slow time at target", format!("{:.2} %", p.slow_time_fraction * 100.0)));
        rows.push(("Excess time at target", format!("{:.2} %", p.excess_time_fraction * 100.0)));
    }
    if let Some(s) = &run.summary {
        rows.push(("1% low FPS", format!("{:.2}", s.low_1pct_fps)));
        rows.push(("0.1% low FPS", format!("{:.2}", s.low_0_1pct_fps)));
        rows.push(("Min / max FPS", format!("{:.2} / {:.2}", s.min_fps, s.max_fps)));
    }
    if let Some(st) = &run.stutters {
        rows.push(("Stutters", format!("{} ({:.2} % of time)", st.count, st.time_fraction * 100.0)));
    }
    per_frame_only(&mut rows, "Stutters");
    if let Some(o) = &run.osc {
        let flag = if o.flag { "OSC — oscillating" } else { "no" };
        rows.push(("Oscillation", format!("{flag} ({} frames)", o.oscillating_frames)));
    }
    per_frame_only(&mut rows, "Oscillation");
    per_frame_only(&mut rows, "Frame health");
    if let Some(s) = &run.summary {
        for (name, v) in [
            ("p50 frame time", s.p50_ms),
            ("p90 frame time", s.p90_ms),
            ("p99 frame time", s.p99_ms),
            ("p99.9 frame time", s.p99_9_ms),
        ] {
            rows.push((name, ms(v)));
        }
    }
    if let Some(l) = &run.latency {
        let per_frame = |v: Option<f64>| if run.sampled { None } else { v };
        for (name, v) in [
            ("PC latency (PCL)", l.pcl_ms),
            ("MsPCLatency mean", l.pc_latency_column_mean_ms),
            ("Display latency mean", l.display_latency_mean_ms),
            ("Click to photon mean", l.click_to_photon_mean_ms),
            ("Render latency mean", if run.sampled { l.render_present_latency_mean_ms } else { None }),
            ("Render-present latency mean", per_frame(l.render_present_latency_mean_ms)),
            ("All input to photon mean", l.all_input_to_photon_mean_ms),
            ("Animation error mean |x|", l.animation_error_mean_abs_ms),
        ] {
            if let Some(v) = v {
                rows.push((name, ms(v)));
            }
        }
        if let (Some(lo), Some(hi)) = (l.pc_latency_min_ms, l.pc_latency_max_ms) {
            rows.push(("PC latency min / max", format!("{lo:.3} / {hi:.3} ms")));
        }
    }
    match &run.vsync {
        Some(v) if v.source == VsyncSource::User => {
            rows.push(("Refresh", format!("{:.2} Hz — set by you", v.refresh_hz)));
        }
        Some(v) => rows.push((
            "Refresh",
            format!("{:.2} Hz — detected (confidence {:.0} %)", v.refresh_hz, v.confidence * 100.0),
        )),
        None if !run.sampled => rows.push(("Refresh", "not detected".to_owned())),
        None => {}
    }
    rows.push((
        "Frames",
        match (run.samples, run.dropped_frames) {
            (Some(n), _) => format!("≈{} (estimated from {n} samples)", run.frames),
            (None, Some(d)) => format!("{} ({d} dropped)", run.frames),
            (None, None) => format!("{} (dropped unknown)", run.frames),
        },
    ));
    rows
}

/// Which frame-time source a run was analysed with, and why: `used` is the run's
/// `frame_time`, `asked` the user's choice, `generated` whether the run (or, when
/// `comparing`, any compared run) has generated frames.
#[must_use]
pub fn source_text(used: &str, asked: FrameTimeSource, generated: bool, comparing: bool) -> String {
    let why = match (asked, used, generated, comparing) {
        (FrameTimeSource::Presents | FrameTimeSource::Display, ..) => "set by you",
        (_, "display", _, false) => "auto — frame generation",
        (_, "display", _, true) => "auto — frame generation in a compared run",
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
    // Values wrap rather than run past the panel (which would widen it).
    let value_width = (ui.available_width() - 140.0).max(60.0);
    egui::Grid::new(id).num_columns(2).striped(true).max_col_width(value_width).show(ui, |ui| {
        for (name, value) in figure_rows(run) {
            let help = figure_help(name);
            let label = ui.label(name).on_hover_text(help);
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

/// Application, generated and displayed FPS of a run with generated frames, large,
/// each with a one-line explanation on hover.
fn frame_generation_ui(ui: &mut egui::Ui, run: &Run, id: &str) {
    let Some(kinds) = &run.frame_types else { return };
    let displayed = run.frame_time == "display";
    let share = |fps: Option<f64>| fps.map_or_else(|| "—".to_owned(), |f| format!("{f:.2}"));
    let rate = |s: Option<framescope_core::analysis::Summary>| {
        s.map_or_else(|| "—".to_owned(), |s| format!("{:.2}", s.avg_fps))
    };
    let rows = [
        (
            "Application FPS",
            share(kinds.application.fps),
            "Frames the game rendered itself per second of the run (input responds at this rate); \
             application + generated = the displayed FPS",
        ),
        (
            "Generated FPS",
            share(kinds.generated.fps),
            "Frames made by frame generation (XeSS-FG, DLSS-FG, AFMF) per second of the run",
        ),
        if displayed {
            (
                "Displayed FPS",
                rate(run.summary),
                "Every frame that reached the screen, rendered or generated: the average FPS of the display intervals",
            )
        } else {
            (
                "Presented FPS",
                rate(run.summary),
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

/// A comparison as a table: figure, baseline, other, delta, relative change and a
/// verdict — better or worse (`metrics.md` §9) coloured, changes within `band` (a
/// fraction) neutral as noise. The first row gives both runs' frame-time source
/// (`sources`). Figures neither run has are left out; a figure only one run has shows
/// "—" for the other.
pub fn comparison_table_ui(
    ui: &mut egui::Ui,
    comparison: &Comparison,
    sources: (&str, &str),
    band: f64,
    id: impl std::hash::Hash + std::fmt::Debug,
) {
    let neutral = ui.visuals().weak_text_color();
    egui::Grid::new(id).num_columns(6).striped(true).min_col_width(10.0).show(ui, |ui| {
        let headers = [
            ("Figure", "Hover a figure for what it means"),
            ("Baseline", "The baseline run's value"),
            ("Other", "This run's value"),
            ("Delta", "Other − baseline, in the figure's unit (percentage points for shares of time)"),
            ("Change", "Delta relative to the baseline"),
            ("", "better / worse than the baseline; noise: within the noise band"),
        ];
        for (header, help) in headers {
            ui.label(RichText::new(header).strong()).on_hover_text(help);
        }
        ui.end_row();
        // The frame-time source each run was analysed with (one for all, metrics.md §9).
        let name = ui.label("Frame-time source").on_hover_text(SOURCE_HELP);
        ui.label(sources.0).labelled_by(name.id);
        ui.label(sources.1).labelled_by(name.id);
        ui.end_row();
        for row in comparison.rows() {
            // Which tool's figures are listed is the caller's (`Comparison::with_convention`).
            if row.baseline.is_none() && row.other.is_none() {
                continue;
            }
            let (title, unit) = figure_name(&row.figure.qualified_name());
            let name = ui.label(&title).on_hover_text(figure_help(&title));
            let value = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format_value(v, unit));
            ui.label(value(row.baseline)).labelled_by(name.id);
            ui.label(value(row.other)).labelled_by(name.id);
            if let Some(e) = &row.entry {
                let v = Verdict::of_runs(e, row.figure.direction, band);
                let colour = match v {
                    Verdict::Better => theme::BETTER,
                    Verdict::Worse => theme::WORSE,
                    Verdict::Noise => neutral,
                    Verdict::Same | Verdict::Neutral => ui.visuals().text_color(),
                };
                ui.colored_label(colour, format_delta(e.delta, unit)).labelled_by(name.id);
                ui.colored_label(colour, format_change(e.relative)).labelled_by(name.id);
                let help = match v {
                    Verdict::Noise => format!("Within the ±{} % noise band", fixed(band * 100.0, 1)),
                    Verdict::Neutral => "Neither better nor worse: context".to_owned(),
                    _ => String::new(),
                };
                let cell = ui.colored_label(colour, verdict_text(v)).labelled_by(name.id);
                if !help.is_empty() {
                    cell.on_hover_text(help);
                }
            } else {
                ui.label("not comparable").labelled_by(name.id);
                ui.label("—").labelled_by(name.id);
                ui.label("—").labelled_by(name.id);
            }
            ui.end_row();
        }
    });
}

/// Every column of one frame, with its stutter and health verdicts when the figures
/// are ready.
pub fn frame_details_ui(ui: &mut egui::Ui, trace: &Trace, marks: Option<&Marks>, i: usize) {
    let f = &trace.frames;
    if i >= trace.len() {
        return;
    }
    let value_width = (ui.available_width() - 140.0).max(60.0);
    egui::Grid::new("frame_details").num_columns(2).striped(true).max_col_width(value_width).show(ui, |ui| {
        let mut row = |name: &str, value: String| {
            ui.add(egui::Label::new(name).wrap());
            ui.add(egui::Label::new(value).wrap());
            ui.end_row();
        };
        row(if f.is_sampled() { "Sample" } else { "Frame" }, i.to_string());
        row("File line", f.line[i].to_string());
        if let Some(m) = marks {
            let idx = i as u32;
            let stutter = m.stutters.binary_search(&idx).is_ok();
            row("Stutter", if stutter { "yes" } else { "no" }.into());
            // Runs are ascending and disjoint: the first run not ending before `idx`.
            let k = m.oscillating.partition_point(|&(_, b)| b < idx);
            let oscillating = m.oscillating.get(k).is_some_and(|&(a, _)| a <= idx);
            row(
                "Oscillating",
                if oscillating { "yes (a stutter here may be a false positive)" } else { "no" }.into(),
            );
            let spiked: Vec<&str> = m
                .spikes
                .iter()
                .filter(|(_, s)| s.binary_search(&idx).is_ok())
                .map(|(n, _)| n.as_str())
                .collect();
            let before: Vec<&str> = m
                .spikes
                .iter()
                .filter(|(_, s)| idx > 0 && s.binary_search(&(idx - 1)).is_ok())
                .map(|(n, _)| n.as_str())
                .collect();
            row("Spiked", if spiked.is_empty() { "—".into() } else { spiked.join(", ") });
            row("Spiked the frame before", if before.is_empty() { "—".into() } else { before.join(", ") });
        }
        row("Start", format!("{:.3} ms", f.start_ms[i]));
        row("Frame time", format!("{:.3} ms", f.frame_time_ms[i]));
        if f.is_sampled() {
            row(
                "Sample interval",
                format!("{:.3} ms ({:.2} FPS average)", f.span_ms(i), 1000.0 / f.frame_time_ms[i]),
            );
        }
        row(
            "Display",
            if f.display_ms[i].is_finite() { format!("{:.3} ms", f.display_ms[i]) } else { "—".into() },
        );
        row("Dropped", if f.dropped[i] { "yes" } else { "no" }.into());
        if let Some(m) = f.present_mode.get(i).and_then(|&m| trace.meta.present_modes.get(usize::from(m))) {
            row("Present mode", m.clone());
        }
        if let Some(t) = f.frame_type.get(i) {
            row("Frame type", t.name().into());
        }
        for c in &f.columns {
            let v = c.values.at(i);
            row(&c.name, if v.is_finite() { format!("{v}") } else { "—".into() });
        }
    });
}

/// How a legend entry's swatch is drawn.
#[derive(Clone, Copy)]
enum Swatch {
    /// A filled square.
    Fill(egui::Color32),
    /// A bar with a whisker and a mark above it, in these colours.
    Column(egui::Color32, egui::Color32),
    /// A horizontal line.
    HLine(egui::Color32),
    /// A vertical line.
    VLine(egui::Color32),
    /// A short tick from the bottom.
    Tick(egui::Color32),
}

fn swatch(ui: &mut egui::Ui, kind: Swatch) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    let p = ui.painter();
    let c = rect.center();
    match kind {
        Swatch::Fill(colour) => {
            p.rect_filled(rect.shrink(1.0), 1.0, colour);
        }
        Swatch::Column(bar, whisker) => {
            let x = c.x - 1.5;
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(x, c.y), egui::pos2(x + 3.0, rect.bottom())),
                0.0,
                bar,
            );
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(x + 1.0, rect.top() + 1.0), egui::pos2(x + 2.0, c.y)),
                0.0,
                theme::WHISKER,
            );
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(x, rect.top()), egui::pos2(x + 3.0, rect.top() + 2.0)),
                0.0,
                whisker,
            );
        }
        Swatch::HLine(colour) => {
            p.line_segment(
                [egui::pos2(rect.left(), c.y), egui::pos2(rect.right(), c.y)],
                egui::Stroke::new(1.5, colour),
            );
        }
        Swatch::VLine(colour) => {
            p.line_segment(
                [egui::pos2(c.x, rect.top()), egui::pos2(c.x, rect.bottom())],
                egui::Stroke::new(1.5, colour),
            );
        }
        Swatch::Tick(colour) => {
            p.rect_filled(
                egui::Rect::from_min_max(egui::pos2(c.x - 1.0, c.y), egui::pos2(c.x + 1.0, rect.bottom())),
                0.0,
                colour,
            );
        }
    }
}

/// What the timeline's colours and marks mean, as a wrapped strip of swatches, each
/// explained on hover; `generated` adds the generated-frame entry.
pub fn timeline_legend_ui(ui: &mut egui::Ui, generated: bool) {
    let entries: Vec<(Swatch, &str, &str)> = [
        (
            Swatch::Fill(theme::WITHIN_BUDGET),
            "within target (±0.5 %)",
            "A frame no slower than the target frame time, or at most 0.5 % slower: a 59.94 Hz \
             display's 16.68 ms counts as on target at 60 FPS. (The figures use the exact target.)",
        ),
        (Swatch::Fill(theme::OVER_BUDGET), "over target", "A frame slower than the target frame time (+0.5 %)."),
        (Swatch::Fill(theme::FAR_OVER_BUDGET), "over 2× target", "A frame slower than twice the target frame time."),
        (
            Swatch::Column(theme::WITHIN_BUDGET, theme::FAR_OVER_BUDGET),
            "bar: typical frame · whisker: slowest",
            "Zoomed out, a pixel column holds many frames: its bar is their typical (median) frame time, \
             coloured by the share of the column's time in frames within, over and far over the target; \
             the faint whisker and its mark reach the slowest frame. Zoom in on a whisker to find the frame.",
        ),
        (Swatch::HLine(theme::TARGET_LINE), "target", "The target frame time (1000 / target FPS)."),
        (Swatch::Tick(theme::DROPPED), "dropped", "Frames that never reached the screen (under the display intervals)."),
        (
            Swatch::Tick(theme::STUTTER),
            "stutter",
            "A frame more than the threshold and the floor slower than the median of the 19 frames around \
             it (Nsight's rule). Zoomed out, taller where more of a column's frames stutter.",
        ),
        (Swatch::Fill(theme::OSCILLATING), "oscillating", "Stretches where frame times swing between fast and slow (OSC); stutters inside them are drawn faint, as possible false positives."),
        (Swatch::Tick(theme::SPIKE), "health spike", "A per-frame action (CPU busy, GPU busy, time in Present(), …) that spiked on that frame, by the stutter rule."),
        (Swatch::VLine(theme::VSYNC), "VSYNC", "Vertical blanks of the display's refresh rate (detected, or set for the capture), drawn when far enough apart."),
    ]
    .into_iter()
    .collect();
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        ui.label(RichText::new("Legend").small().strong()).on_hover_text("Hover an entry, or a row's name, for what it means.");
        if generated {
            ui.add_space(6.0);
            swatch(ui, Swatch::Fill(theme::generated(theme::WITHIN_BUDGET)));
            ui.label(RichText::new("generated frame").small()).on_hover_text(
                "A frame made by frame generation (XeSS-FG, DLSS-FG, AFMF): the lighter variant of its colour, \
                 visible when zoomed in to single frames.",
            );
        }
        for (kind, text, help) in entries {
            ui.add_space(6.0);
            swatch(ui, kind);
            ui.label(RichText::new(text).small()).on_hover_text(help);
        }
    });
}

/// The keyboard and mouse help window.
pub fn help_ui(ctx: &egui::Context, open: &mut bool) {
    let centre = ctx.content_rect().center();
    let window = egui::Window::new("Keyboard and mouse").open(open).resizable(false);
    window.default_pos(centre - egui::vec2(200.0, 160.0)).show(ctx, |ui| {
        egui::Grid::new("help").num_columns(2).show(ui, |ui| {
            for (keys, action) in timeline::HELP {
                ui.label(RichText::new(keys).strong());
                ui.label(action);
                ui.end_row();
            }
        });
    });
}

#[cfg(test)]
mod tests {
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
