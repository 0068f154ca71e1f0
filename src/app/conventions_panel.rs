//! "As other tools report it" (issue 12, `metrics.md` §11) in the window: a panel
//! beside the figures with CapFrameX's, FrameView's, PresentMon's and MangoHud's
//! figures for the shown run, each computed that tool's way; the run's telemetry
//! (mean, min, max per column); the comparison's "Figures" selector, which puts one
//! tool's figures where framescope's summary is; and the telemetry rows under the
//! comparison table.
//!
//! Drawing only: every value is read from the run's analysis result
//! ([`Run::conventions`], [`Run::latency`], [`Run::telemetry`], computed on the
//! analysis worker), and the comparison's rows are `report::compare`'s, filtered the
//! way `framescope compare --convention TOOL` filters its table.

use super::App;
use super::panels::{Unit, format_change, format_value, verdict_text};
use eframe::egui::{self, RichText};
use framescope_core::model::Trace;
use framescope_core::report::Run;
use framescope_core::report::Verdict;
use framescope_core::report::compare::{self, FIGURES, Section};

/// Each peer tool's figures as the window names them: `section.name` (as in the
/// report's `conventions`), the tool's own name for the figure, its unit, and its
/// definition (the words of `docs/figures.md` §2 and §10), which names the tool.
pub const PEER_FIGURES: &[(&str, &str, Unit, &str)] = &[
    (
        "capframex.average_fps",
        "Average",
        Unit::Fps,
        "CapFrameX: 1000 × frames ÷ total time (as framescope's average).",
    ),
    ("capframex.max_fps", "Max", Unit::Fps, "CapFrameX: 1000 ÷ the fastest frame time."),
    ("capframex.min_fps", "Min", Unit::Fps, "CapFrameX: 1000 ÷ the slowest frame time."),
    (
        "capframex.p99_fps",
        "P99",
        Unit::Fps,
        "CapFrameX: the R-8 quantile (MathNet) of the per-frame FPS values at 0.99 — the fast end of the run.",
    ),
    (
        "capframex.p95_fps",
        "P95",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.95.",
    ),
    (
        "capframex.median_fps",
        "Median",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.5.",
    ),
    ("capframex.p5_fps", "P5", Unit::Fps, "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.05."),
    (
        "capframex.p1_fps",
        "P1",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.01 — a percentile of FPS, one frame's rank, \
         not an average of the slow frames (framescope's nearest figure is 1000 ÷ its p99 frame time).",
    ),
    (
        "capframex.p0_2_fps",
        "P0.2",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.002.",
    ),
    (
        "capframex.p0_1_fps",
        "P0.1",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.001.",
    ),
    (
        "capframex.low_1pct_avg_fps",
        "1% low (average)",
        Unit::Fps,
        "CapFrameX's \"1% low average\": 1000 ÷ the mean of the frame times at or above their R-8 quantile at 0.99.",
    ),
    (
        "capframex.low_0_1pct_avg_fps",
        "0.1% low (average)",
        Unit::Fps,
        "CapFrameX's \"0.1% low average\": 1000 ÷ the mean of the frame times at or above their R-8 quantile at 0.999.",
    ),
    (
        "capframex.low_1pct_integral_fps",
        "1% low (integral)",
        Unit::Fps,
        "CapFrameX's \"1% low integral\" (MSI Afterburner's definition): frame times slowest first, summed until \
         they reach 1 % of the run's time; 1000 ÷ the frame time where they do.",
    ),
    (
        "capframex.low_0_1pct_integral_fps",
        "0.1% low (integral)",
        Unit::Fps,
        "CapFrameX's \"0.1% low integral\": slowest frames first until they reach 0.1 % of the run's time; 1000 ÷ \
         the frame time where they do.",
    ),
    (
        "capframex.stuttering_time_fraction",
        "Stuttering time",
        Unit::Fraction,
        "CapFrameX's stuttering: the share of the time in frames over 2.5 × the average of the round(sqrt(mean frame \
         time) × 10) frames ending at them — a different rule from framescope's stutters.",
    ),
    (
        "capframex.low_fps_time_fraction",
        "Low FPS time",
        Unit::Fraction,
        "CapFrameX: the share of the time in the frames that do not stutter (its rule) and run under 25 FPS.",
    ),
    ("frameview.average_fps", "Avg FPS", Unit::Fps, "FrameView's summary: 1000 × frames ÷ total time."),
    (
        "frameview.low_1pct_fps",
        "1% Low FPS",
        Unit::Fps,
        "FrameView's summary: 1000 × k ÷ the total time of the k slowest frames, k = floor(0.01 × frames) + 1 — one \
         frame more than framescope's 1% low.",
    ),
    (
        "frameview.low_0_1pct_fps",
        "0.1% Low FPS",
        Unit::Fps,
        "FrameView's summary: 1000 × k ÷ the total time of the k slowest frames, k = floor(0.001 × frames) + 1.",
    ),
    (
        "frameview.fps_10pct",
        "10% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.10 × frames) + 1)-th slowest frame time.",
    ),
    (
        "frameview.fps_5pct",
        "5% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.05 × frames) + 1)-th slowest frame time.",
    ),
    (
        "frameview.fps_1pct",
        "1% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.01 × frames) + 1)-th slowest frame time — one frame's rank, not an \
         average.",
    ),
    (
        "frameview.fps_0_1pct",
        "0.1% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.001 × frames) + 1)-th slowest frame time.",
    ),
    ("presentmon.average_fps", "Average FPS", Unit::Fps, "PresentMon's app: 1000 ÷ the mean frame time."),
    (
        "presentmon.p1_fps",
        "1st percentile FPS",
        Unit::Fps,
        "PresentMon's app: 1000 ÷ the 99th percentile frame time (linear interpolation, the same percentile as \
         framescope's p99).",
    ),
    (
        "presentmon.p5_fps",
        "5th percentile FPS",
        Unit::Fps,
        "PresentMon's app: 1000 ÷ the 95th percentile frame time (linear interpolation).",
    ),
    ("presentmon.min_fps", "Min FPS", Unit::Fps, "PresentMon's app: 1000 ÷ the slowest frame time."),
    ("presentmon.max_fps", "Max FPS", Unit::Fps, "PresentMon's app: 1000 ÷ the fastest frame time."),
    ("mangohud.average_fps", "Average FPS", Unit::Fps, "MangoHud's summary: 1000 ÷ the mean frame time."),
    (
        "mangohud.low_1pct_fps",
        "1% Min FPS",
        Unit::Fps,
        "MangoHud's summary (0.8): a single frame, not an average — 1000 ÷ d[trunc(0.01 × frames − 1)], d the \
         frame times slowest first.",
    ),
    (
        "mangohud.low_0_1pct_fps",
        "0.1% Min FPS",
        Unit::Fps,
        "MangoHud's summary (0.8): a single frame — 1000 ÷ d[trunc(0.001 × frames − 1)], d slowest first.",
    ),
    (
        "mangohud.p97_fps",
        "97% Percentile FPS",
        Unit::Fps,
        "MangoHud's summary (0.8): 1000 ÷ d[trunc(0.97 × frames − 1)], d slowest first — the fast end of the run.",
    ),
];

/// Where each tool's figures come from, for the tool's heading.
fn tool_help(tool: Section) -> &'static str {
    match tool {
        Section::CapFrameX => {
            "CapFrameX's statistics (FrametimeStatisticProvider.cs), computed on the same frames"
        }
        Section::FrameView => {
            "NVIDIA FrameView's summary file (FrameView_Summary.csv), computed on the same frames; FrameView works on \
             present intervals"
        }
        Section::PresentMon => "Intel PresentMon's capture app, its statistics (StatisticsTracker.cpp)",
        Section::MangoHud => "MangoHud's summary file (src/logging.cpp, version 0.8)",
        _ => "",
    }
}

/// A peer figure's entry in [`PEER_FIGURES`] by `section.name`.
fn peer(qualified: &str) -> Option<&'static (&'static str, &'static str, Unit, &'static str)> {
    PEER_FIGURES.iter().find(|(q, ..)| *q == qualified)
}

/// A peer figure's name in the comparison table, "FrameView: 1% Low FPS", and its unit;
/// `None` for framescope's own figures.
#[must_use]
pub fn table_name(qualified: &str) -> Option<(String, Unit)> {
    let &(q, name, unit, _) = peer(qualified)?;
    let section = q.split('.').next().and_then(Section::convention)?;
    Some((format!("{}: {name}", section.title()), unit))
}

/// The definition of a peer figure by its table name ("FrameView: 1% Low FPS"); ""
/// for any other name.
#[must_use]
pub fn help_by_table_name(title: &str) -> &'static str {
    PEER_FIGURES
        .iter()
        .find(|(q, ..)| table_name(q).is_some_and(|(t, _)| t == title))
        .map_or("", |&(.., help)| help)
}

/// A peer figure's value as the panel writes it: FPS with three decimals (as
/// FrameView prints them), shares of time in %.
fn panel_value(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Fps => format!("{v:.3}"),
        _ => format_value(v, unit),
    }
}

/// Why a tool has no figures for `run`, in a short sentence.
fn missing_reason(run: &Run, tool: Section) -> &'static str {
    match (run.sampled, tool) {
        (true, Section::MangoHud) => "not applicable: this sampled log is not MangoHud's",
        (true, _) => "not applicable: a sampled log holds averages over intervals, not single frames",
        (false, _) => "no usable frame times",
    }
}

/// FrameView's summary also prints latency: the same figures as framescope's `latency`
/// keys, under FrameView's names.
fn frameview_latency(run: &Run) -> Vec<(&'static str, f64, &'static str)> {
    let Some(l) = run.latency else { return Vec::new() };
    [
        (
            "AvgPCLatency",
            l.pc_latency_column_mean_ms,
            "FrameView's summary: the mean of the MsPCLatency column (framescope's MsPCLatency mean).",
        ),
        ("MinPCLatency", l.pc_latency_min_ms, "FrameView's summary: the smallest MsPCLatency cell above 0."),
        ("MaxPCLatency", l.pc_latency_max_ms, "FrameView's summary: the largest MsPCLatency cell."),
        (
            "RenderPresentLatency",
            if run.sampled { None } else { l.render_present_latency_mean_ms },
            "FrameView's summary: the mean of MsRenderPresentLatency (from Present() to the GPU finishing the frame).",
        ),
    ]
    .into_iter()
    .filter_map(|(name, v, help)| v.map(|v| (name, v, help)))
    .collect()
}

/// The "As other tools report it" panel for one run: each tool's figures under a
/// collapsible heading (only `focus`'s open at first when one is given), then the
/// run's telemetry (`trace` gives the columns' order).
pub fn peers_ui(ui: &mut egui::Ui, run: &Run, trace: &Trace, focus: Option<Section>) {
    ui.heading("As other tools report it");
    ui.add(
        egui::Label::new(
            RichText::new(format!(
                "Each tool's figures, computed its way on the frames framescope analyses ({} intervals). Hover a \
                 value for its definition; docs/figures.md compares them with framescope's.",
                run.frame_time
            ))
            .small()
            .weak(),
        )
        .wrap(),
    );
    if run.frame_time == "display" {
        ui.add(
            egui::Label::new(
                RichText::new(
                    "The tools compute on present intervals: pick \"presents\" in the settings bar to match \
                     their numbers.",
                )
                .small()
                .color(ui.visuals().warn_fg_color),
            )
            .wrap(),
        );
    }
    let value_width = (ui.available_width() - 150.0).max(60.0);
    for tool in Section::CONVENTIONS {
        let header = egui::CollapsingHeader::new(RichText::new(tool.title()).strong())
            .id_salt(("peer_tool", tool.name()))
            .default_open(focus.is_none_or(|f| f == tool))
            .show(ui, |ui| {
                let figures: Vec<_> = FIGURES.iter().filter(|f| f.section == tool).collect();
                let values: Vec<Option<f64>> = figures.iter().map(|f| (f.value)(run)).collect();
                if values.iter().all(Option::is_none) {
                    ui.label(RichText::new(missing_reason(run, tool)).weak().italics());
                    return;
                }
                if run.sampled && tool == Section::MangoHud {
                    ui.add(
                        egui::Label::new(
                            RichText::new(
                                "On the log's own frametime column, every row, as MangoHud's summary does.",
                            )
                            .small()
                            .weak(),
                        )
                        .wrap(),
                    );
                }
                egui::Grid::new(("peer_grid", tool.name()))
                    .num_columns(2)
                    .striped(true)
                    .max_col_width(value_width)
                    .show(ui, |ui| {
                        for (f, v) in figures.iter().zip(&values) {
                            let qualified = f.qualified_name();
                            let (name, unit, help) =
                                peer(&qualified).map_or((f.name, Unit::Ratio, ""), |&(_, n, u, h)| (n, u, h));
                            let label = ui.label(name).on_hover_text(help);
                            let text = v.map_or_else(|| "—".to_owned(), |v| panel_value(v, unit));
                            ui.label(RichText::new(text).strong()).labelled_by(label.id).on_hover_text(help);
                            ui.end_row();
                        }
                        if tool == Section::FrameView {
                            for (name, v, help) in frameview_latency(run) {
                                let label = ui.label(name).on_hover_text(help);
                                ui.label(RichText::new(format!("{v:.3} ms")).strong())
                                    .labelled_by(label.id)
                                    .on_hover_text(help);
                                ui.end_row();
                            }
                        }
                    });
            });
        header.header_response.on_hover_text(tool_help(tool));
    }
    ui.separator();
    telemetry_ui(ui, run, trace);
}

/// The run's telemetry columns (in the capture's order): mean, min and max.
pub fn telemetry_ui(ui: &mut egui::Ui, run: &Run, trace: &Trace) {
    let how = if run.sampled {
        "time-weighted over the samples"
    } else {
        "per frame, every frame of the run (dropped ones too), as FrameView's summary averages"
    };
    let header = egui::CollapsingHeader::new(
        RichText::new(format!("Telemetry ({} columns)", run.telemetry.len())).strong(),
    )
    .id_salt("telemetry_panel")
    .default_open(true)
    .show(ui, |ui| {
        if run.telemetry.is_empty() {
            ui.label(RichText::new("this capture has no telemetry columns").weak().italics());
            return;
        }
        // The capture's column order; a name the trace lacks (none should) last.
        let mut names: Vec<&str> = trace
            .frames
            .columns
            .iter()
            .map(|c| c.name.as_str())
            .filter(|n| run.telemetry.contains_key(*n))
            .collect();
        names.dedup();
        for name in run.telemetry.keys() {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        egui::Grid::new("telemetry_grid").num_columns(4).striped(true).show(ui, |ui| {
            for (header, help) in [
                ("Column", "As the capture's header names it"),
                ("Mean", how),
                ("Min", "The smallest value"),
                ("Max", "The largest value"),
            ] {
                ui.label(RichText::new(header).strong()).on_hover_text(help);
            }
            ui.end_row();
            for name in names {
                let Some(s) = run.telemetry.get(name) else { continue };
                let label = ui.label(name).on_hover_text(format!("{name}: mean {how}"));
                for v in [s.mean, s.min, s.max] {
                    ui.label(compare::number(v)).labelled_by(label.id);
                }
                ui.end_row();
            }
        });
    });
    header.header_response.on_hover_text(format!(
        "Each telemetry column's mean ({how}), min and max, as in the report's telemetry section"
    ));
}

/// A delta as [`compare::number`] writes it, "+" when above 0.
fn signed_number(v: f64) -> String {
    let text = compare::number(v);
    if v > 0.0 && text.parse::<f64>().is_ok_and(|x| x != 0.0) { format!("+{text}") } else { text }
}

/// The comparison's "Figures" choice: framescope's own, or a peer tool's.
pub fn figures_choice_ui(ui: &mut egui::Ui, convention: &mut Option<Section>) {
    let help = "Which tool's figures the table shows: framescope's own, or a peer tool's computed its way \
                (they stand where framescope's FPS and percentile figures are; pacing, stutters and latency \
                stay framescope's). The same as framescope compare --convention TOOL.";
    let text = |c: Option<Section>| c.map_or("framescope", Section::title);
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Figures").on_hover_text(help);
        egui::ComboBox::from_id_salt("comparison_convention")
            .selected_text(text(*convention))
            .show_ui(ui, |ui| {
                ui.selectable_value(convention, None, "framescope");
                for tool in Section::CONVENTIONS {
                    ui.selectable_value(convention, Some(tool), tool.title()).on_hover_text(tool_help(tool));
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(help);
    });
}

/// Under a comparison shown in a peer tool's figures, why the tool's rows are missing
/// when neither run has them (sampled logs).
pub fn convention_note_ui(ui: &mut egui::Ui, comparison: &compare::Comparison, convention: Option<Section>) {
    let Some(tool) = convention else { return };
    let any = comparison
        .rows()
        .iter()
        .any(|r| r.figure.section == tool && (r.baseline.is_some() || r.other.is_some()));
    if !any {
        ui.label(
            RichText::new(format!(
                "Neither run has {}'s figures: they are defined on single frames, and a sampled log has none.",
                tool.title()
            ))
            .weak()
            .italics(),
        );
    }
}

/// The telemetry columns of two compared runs, their means side by side: a table
/// under the comparison's, with its columns (no verdict: a clock or a power is
/// context, not better or worse).
pub fn telemetry_comparison_ui(
    ui: &mut egui::Ui,
    comparison: &compare::Comparison,
    id: impl std::hash::Hash + std::fmt::Debug + Copy,
) {
    let rows = comparison.telemetry();
    if rows.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("Telemetry means ({} columns)", rows.len()))
        .id_salt((id, "telemetry_header"))
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::horizontal()
                .id_salt((id, "telemetry_scroll"))
                .show(ui, |ui| telemetry_grid(ui, rows, id));
        });
}

/// [`telemetry_comparison_ui`]'s table.
fn telemetry_grid(
    ui: &mut egui::Ui,
    rows: &[compare::TelemetryRow],
    id: impl std::hash::Hash + std::fmt::Debug + Copy,
) {
    egui::Grid::new((id, "telemetry")).num_columns(6).striped(true).min_col_width(10.0).show(ui, |ui| {
        for (header, help) in [
            ("Column", "A telemetry column, as the capture's header names it"),
            ("Baseline", "The baseline run's mean"),
            ("Other", "This run's mean"),
            ("Delta", "Other − baseline"),
            ("Change", "Delta relative to the baseline"),
            ("", "Telemetry is context: neither better nor worse"),
        ] {
            ui.label(RichText::new(header).strong()).on_hover_text(help);
        }
        ui.end_row();
        for row in rows {
            let range = |s: Option<framescope_core::analysis::TelemetryStats>| {
                s.map_or_else(String::new, |s| {
                    format!("{}: min {}, max {}", row.column, compare::number(s.min), compare::number(s.max))
                })
            };
            let name = ui.label(&row.column).on_hover_text(
                "The mean over the run (per frame; time-weighted for a sampled log), with min and max on \
                         each value",
            );
            for side in [row.baseline, row.other] {
                let text = side.map_or_else(|| "—".to_owned(), |s| compare::number(s.mean));
                let cell = ui.label(text).labelled_by(name.id);
                if side.is_some() {
                    cell.on_hover_text(range(side));
                }
            }
            if let Some(e) = row.entry {
                ui.label(signed_number(e.delta)).labelled_by(name.id);
                ui.label(format_change(e.relative)).labelled_by(name.id);
                ui.label(verdict_text(Verdict::Neutral)).labelled_by(name.id);
            } else {
                ui.label("not comparable").labelled_by(name.id);
                ui.label("—").labelled_by(name.id);
                ui.label("—").labelled_by(name.id);
            }
            ui.end_row();
        }
    });
}

impl App {
    /// The "As other tools report it" side panel for the shown run (not while
    /// comparing: the comparison has its own "Figures" choice); a tool picked with
    /// `--convention` starts alone open.
    pub(super) fn peers_panel_ui(&self, ui: &mut egui::Ui) {
        let width = ui.available_width();
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            ui.set_max_width(width);
            let Some(run) = self.runs.get(self.selected) else {
                ui.label("Open a capture to see its figures as other tools report them.");
                return;
            };
            match run.analyzed() {
                Some(a) => peers_ui(ui, &a.run, &run.capture.traces[run.trace], self.convention),
                None => {
                    ui.spinner();
                }
            }
        });
    }
}
