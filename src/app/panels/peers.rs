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

use super::Model;
use crate::app::figure_text::{format_change, verdict_text};
use crate::app::peer_figures::tool_help;
use crate::app::session::AppCommand;
use eframe::egui::{self, RichText};
use framescope_core::model::Trace;
use framescope_core::report::Run;
use framescope_core::report::Verdict;
use framescope_core::report::compare::{self, FIGURES, Section};

/// The "As other tools report it" side panel for the shown run (not while comparing:
/// the comparison has its own "Figures" choice); a tool picked with `--convention`
/// starts alone open.
pub fn peers_panel_ui(ui: &mut egui::Ui, m: &Model<'_>) {
    super::scrolled(ui, |ui| {
        let Some(run) = m.session.selected_run() else {
            ui.label("Open a capture to see its figures as other tools report them.");
            return;
        };
        match run.analyzed() {
            Some(a) => peers_ui(ui, &a.run, run.shown_trace(), m.session.convention()),
            None => {
                ui.spinner();
            }
        }
    });
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
            "FrameView's summary: the mean of the MsPCLatency column (framescope's PC latency mean).",
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
    peers_intro_ui(ui, run);
    let value_width = (ui.available_width() - 150.0).max(60.0);
    for tool in Section::CONVENTIONS {
        let header = egui::CollapsingHeader::new(RichText::new(tool.title()).strong())
            .id_salt(("peer_tool", tool.name()))
            .default_open(focus.is_none_or(|f| f == tool))
            .show(ui, |ui| tool_figures_ui(ui, run, tool, value_width));
        header.header_response.on_hover_text(tool_help(tool));
    }
    ui.separator();
    telemetry_ui(ui, run, trace);
}

/// The panel's heading and what its figures are computed on (with a warning when the
/// run's frame times are display intervals, which the tools do not use).
fn peers_intro_ui(ui: &mut egui::Ui, run: &Run) {
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
}

/// One tool's figures for `run`, a name and value per row (the value column at most
/// `value_width` wide), or why the tool has none.
fn tool_figures_ui(ui: &mut egui::Ui, run: &Run, tool: Section, value_width: f32) {
    let figures: Vec<_> = FIGURES.iter().filter(|f| f.section == tool).collect();
    let values: Vec<Option<f64>> = figures.iter().map(|f| (f.value)(run)).collect();
    if values.iter().all(Option::is_none) {
        ui.label(RichText::new(missing_reason(run, tool)).weak().italics());
        return;
    }
    if run.sampled && tool == Section::MangoHud {
        ui.add(
            egui::Label::new(
                RichText::new("On the log's own frametime column, every row, as MangoHud's summary does.")
                    .small()
                    .weak(),
            )
            .wrap(),
        );
    }
    let grid =
        egui::Grid::new(("peer_grid", tool.name())).num_columns(2).striped(true).max_col_width(value_width);
    grid.show(ui, |ui| {
        for (f, v) in figures.iter().zip(&values) {
            let help = f.help;
            let label = ui.label(f.title).on_hover_text(help);
            let text = v.map_or_else(|| "—".to_owned(), |v| f.format(v));
            ui.label(RichText::new(text).strong()).labelled_by(label.id).on_hover_text(help);
            ui.end_row();
        }
        if tool == Section::MangoHud
            && let Some(own) = &run.tool_summary
        {
            mangohud_summary_rows(ui, own, &figures);
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
}

/// What MangoHud wrote in its own summary file beside the log (`tool_summary`), as it
/// wrote it, under the rows framescope computes its way: a heading row, then each of
/// MangoHud's figures by the registry's names.
fn mangohud_summary_rows(
    ui: &mut egui::Ui,
    own: &framescope_core::report::ToolSummary,
    figures: &[&framescope_core::figures::Figure],
) {
    let help = "As MangoHud wrote it in the summary file beside the log (one decimal): the tool's own \
                figures, not framescope's. The rows above reproduce them.";
    ui.label(RichText::new(format!("{}'s own summary", own.tool)).strong()).on_hover_text(help);
    ui.label(RichText::new(own.file.as_str()).small().weak()).on_hover_text(help);
    ui.end_row();
    for f in figures {
        let value = match f.name {
            "average_fps" => own.average_fps,
            "low_1pct_fps" => own.low_1pct_fps,
            "low_0_1pct_fps" => own.low_0_1pct_fps,
            "p97_fps" => own.p97_fps,
            _ => None,
        };
        let Some(v) = value else { continue };
        let label = ui.label(format!("{} (file)", f.title)).on_hover_text(help);
        ui.label(RichText::new(format!("{v:.1} FPS")).strong()).labelled_by(label.id).on_hover_text(help);
        ui.end_row();
    }
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
pub fn figures_choice_ui(ui: &mut egui::Ui, current: Option<Section>) -> Option<AppCommand> {
    let mut chosen = current;
    let convention = &mut chosen;
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
    (chosen != current).then_some(AppCommand::Convention(chosen))
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
