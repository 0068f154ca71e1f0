//! The comparison of runs one by one (`metrics.md` §9): the noise band, the figures'
//! convention, the frame-time source they share, then per compared run a table of
//! every figure beside the baseline's — delta, relative change and a verdict — with
//! the peer tool's note and the telemetry means under it.

use super::Model;
use super::figures::SOURCE_HELP;
use crate::app::figure_text::{fixed, format_change, verdict_text};
use crate::app::session::AppCommand;
use crate::app::theme;
use eframe::egui::{self, RichText};
use framescope_core::analysis::records_frame_types;
use framescope_core::report::Verdict;
use framescope_core::report::compare::Comparison;

/// Every figure of every compared run beside the baseline's, with delta and relative
/// change, coloured better or worse (`metrics.md` §9).
pub fn comparison_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    ui.heading(if m.session.has_selection() { "Comparison of the selection" } else { "Comparison" });
    out.extend(noise_band_ui(ui, m.persisted.noise_band));
    out.extend(super::peers::figures_choice_ui(ui, m.session.convention()));
    ui.add(
        egui::Label::new(
            RichText::new(
                "One run per side: two runs of one scene often differ by a few %. Open several runs of each \
                 build (run1, run2, …) to compare sets, where only significant changes are coloured.",
            )
            .small()
            .weak(),
        )
        .wrap(),
    );
    let shown = m.session.shown_runs();
    let runs: Vec<Option<&framescope_core::report::Run>> = shown
        .iter()
        .map(|run| {
            let (settings, trim) = (m.run_settings(run.id), m.run_trim(run.id));
            match m.session.selection_of(run.id) {
                Some(range) => run.selection_run(&settings, trim, range),
                // Deltas only between figures of the same settings.
                None => run.current(&settings, trim).map(|a| &a.run),
            }
        })
        .collect();
    let Some(Some(baseline)) = runs.first() else {
        ui.spinner();
        return out;
    };
    source_line_ui(ui, m, &runs, baseline);
    let baseline_label = &shown[0].label;
    let convention = m.session.convention();
    // Three or more runs: every run against the baseline in one table, a column per
    // run; each run's full comparison folded under it.
    let many = shown.len() > 2;
    if many {
        let columns: Vec<super::compare_columns::Column<'_>> = (1..shown.len())
            .filter_map(|slot| {
                let other = (*runs.get(slot)?)?;
                let comparison =
                    framescope_core::report::compare::compare(baseline, other).with_convention(convention);
                Some(super::compare_columns::Column { slot, label: &shown[slot].label, comparison })
            })
            .collect();
        ui.label(RichText::new("Every compared run against the baseline").strong()).on_hover_text(
            "A column per run (numbered as in the legends): its value and its change from the baseline \
             (percentage points for shares of time); each run in detail below",
        );
        let base = (baseline_label.as_str(), m.run_colour(0, shown[0].id));
        egui::ScrollArea::horizontal().id_salt("comparison_columns_scroll").show(ui, |ui| {
            super::compare_columns::columns_table_ui(ui, m, base, &columns);
        });
    }
    for (slot, run) in shown.iter().enumerate().skip(1) {
        let title = format!("{} vs {baseline_label} (baseline)", run.label);
        let colour = m.run_colour(slot, run.id);
        let other = runs.get(slot).copied().flatten();
        if many {
            let header = RichText::new(format!("{}: {title}", slot + 1)).color(colour);
            egui::CollapsingHeader::new(header)
                .id_salt(("comparison_detail", run.id))
                .default_open(false)
                .show(ui, |ui| run_comparison_ui(ui, m, baseline, other, run.id));
        } else {
            ui.colored_label(colour, title);
            run_comparison_ui(ui, m, baseline, other, run.id);
        }
    }
    out
}

/// One compared run against the baseline: the machines, the glance line, the table,
/// the peer tool's note and the telemetry means (a spinner while it computes).
fn run_comparison_ui(
    ui: &mut egui::Ui,
    m: &Model<'_>,
    baseline: &framescope_core::report::Run,
    other: Option<&framescope_core::report::Run>,
    i: crate::app::session::RunId,
) {
    let Some(other) = other else {
        ui.spinner();
        return;
    };
    // framescope's figures, or a peer tool's where its summary would be (as
    // `framescope compare --convention TOOL`).
    let convention = m.session.convention();
    let comparison = framescope_core::report::compare::compare(baseline, other);
    // The machines first, folded: in view without scrolling (issue 20).
    super::system::system_comparison_ui(ui, &comparison, ("comparison_system", i));
    super::glance::glance_ui(ui, framescope_core::report::compare::Glance::of(&comparison));
    let comparison = comparison.with_convention(convention);
    let sources = (baseline.frame_time, other.frame_time);
    egui::ScrollArea::horizontal().id_salt(("comparison_scroll", i)).show(ui, |ui| {
        comparison_table_ui(ui, &comparison, sources, m.persisted.noise_band, ("comparison", i));
    });
    super::peers::convention_note_ui(ui, &comparison, convention);
    super::peers::telemetry_comparison_ui(ui, &comparison, ("comparison_telemetry", i));
}

/// The noise band: a change within it is neither better nor worse.
fn noise_band_ui(ui: &mut egui::Ui, band: f64) -> Option<AppCommand> {
    let mut pct = band * 100.0;
    ui.horizontal_wrapped(|ui| {
        let help = "Run-to-run noise: a figure that changed by no more than this share of the baseline's value is \
                    neither better nor worse (grey, \"noise\"). Two runs of the same scene often differ by about 1 %.";
        let label = ui.label("Noise band ±").on_hover_text(help);
        ui.add(egui::DragValue::new(&mut pct).range(0.0..=50.0).speed(0.1).max_decimals(1).suffix(" %"))
            .labelled_by(label.id)
            .on_hover_text(help);
        ui.label(RichText::new("changes within it are grey").small().weak());
    });
    ((pct / 100.0 - band).abs() > 1e-12).then_some(AppCommand::NoiseBand(pct / 100.0))
}

/// The one frame-time source of every compared run (`metrics.md` §9), or that they
/// still differ while new figures compute.
fn source_line_ui(
    ui: &mut egui::Ui,
    m: &Model<'_>,
    runs: &[Option<&framescope_core::report::Run>],
    baseline: &framescope_core::report::Run,
) {
    let generated = runs.iter().flatten().any(|r| r.frame_types.is_some());
    let recorded = m.session.shown_runs().iter().all(|r| records_frame_types(r.shown_trace()));
    let mut sources: Vec<&str> = runs.iter().flatten().map(|r| r.frame_time).collect();
    sources.dedup();
    let source = if sources.len() == 1 {
        m.source_text(baseline, generated, recorded)
    } else {
        format!("differs between runs ({}): updating…", sources.join(", "))
    };
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Frame time").on_hover_text(SOURCE_HELP);
        ui.label(RichText::new(source).strong()).labelled_by(label.id);
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
            let f = row.figure;
            let name = ui.label(f.display_name()).on_hover_text(f.help);
            let value = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| f.format(v));
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
                ui.colored_label(colour, f.format_delta(e.delta)).labelled_by(name.id);
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
