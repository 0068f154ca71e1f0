//! Every compared run against the baseline in one table (issue 40): a column per run,
//! each cell the run's value and its change from the baseline, coloured better or
//! worse (`metrics.md` §9). Shown above the per-run detail when three or more runs
//! are compared.

use super::Model;
use crate::app::figure_text::{format_change, verdict_text};
use crate::app::theme;
use eframe::egui::{self, RichText};
use framescope_core::figures::{Figure, Unit};
use framescope_core::report::Verdict;
use framescope_core::report::compare::{Comparison, Row};

/// One compared run's column: its place among the shown runs, its name, and its
/// comparison with the baseline.
pub struct Column<'a> {
    /// The run's place among the shown runs (its colour and legend number).
    pub slot: usize,
    /// The run's name.
    pub label: &'a str,
    /// The run against the baseline, with the figures' convention applied.
    pub comparison: Comparison,
}

/// The table: a row per figure either side has, the baseline's values, then each
/// column's change (percentage points for shares of time), with its value when the
/// user ticks "values beside the changes".
pub fn columns_table_ui(
    ui: &mut egui::Ui,
    m: &Model<'_>,
    baseline: (&str, egui::Color32),
    columns: &[Column<'_>],
) {
    let figures = figures_of(columns);
    let band = m.persisted.noise_band;
    // Changes alone fit six runs in the panel at 1280×720; values on demand.
    let values_id = egui::Id::NULL.with("comparison_columns_values");
    let mut values = ui.data(|d| d.get_temp::<bool>(values_id)).unwrap_or(false);
    ui.checkbox(&mut values, "values beside the changes")
        .on_hover_text("Each run's value beside its change (a cell's hover always gives both)");
    ui.data_mut(|d| d.insert_temp(values_id, values));
    // Tight columns: six runs fit the panel at 1280×720.
    let grid = egui::Grid::new("comparison_columns").striped(true).min_col_width(10.0).spacing([5.0, 4.0]);
    grid.show(ui, |ui| {
        ui.label(RichText::new("Figure").strong()).on_hover_text("Hover a figure for what it means");
        ui.label(RichText::new("1 (base)").strong().color(baseline.1))
            .on_hover_text(format!("The baseline: {}", baseline.0));
        for c in columns {
            let colour = m.run_colour(c.slot, m.session.shown_runs()[c.slot].id);
            ui.label(RichText::new(format!("{}", c.slot + 1)).strong().color(colour))
                .on_hover_text(format!("{}: its change from the baseline", c.label));
        }
        ui.end_row();
        for f in figures {
            let rows: Vec<Option<&Row>> = columns.iter().map(|c| row_of(&c.comparison, f)).collect();
            // Names elided past 110 points (whole on hover): six runs fit at 1280×720.
            let name = ui
                .scope(|ui| {
                    ui.set_max_width(110.0);
                    ui.add(egui::Label::new(f.display_name()).truncate())
                })
                .inner
                .on_hover_text(f.help);
            let base = rows.iter().flatten().find_map(|r| r.baseline);
            ui.label(base.map_or_else(|| "—".to_owned(), |v| f.format(v))).labelled_by(name.id);
            for row in rows {
                cell_ui(ui, f, row, (band, values)).labelled_by(name.id);
            }
            ui.end_row();
        }
    });
}

/// The figures any column lists, in the first column's order.
fn figures_of(columns: &[Column<'_>]) -> Vec<&'static Figure> {
    let mut out: Vec<&'static Figure> = Vec::new();
    for c in columns {
        for r in c.comparison.rows() {
            let listed = r.baseline.is_some() || r.other.is_some();
            if listed && !out.iter().any(|f| std::ptr::eq(*f, r.figure)) {
                out.push(r.figure);
            }
        }
    }
    out
}

/// Figure `f`'s row of a comparison.
fn row_of<'c>(c: &'c Comparison, f: &Figure) -> Option<&'c Row> {
    c.rows().iter().find(|r| std::ptr::eq(r.figure, f))
}

/// One run's cell: its change ("−1.4 %"; with `values`, "67.23  −1.4 %") coloured by
/// its verdict (`band`: the noise band); value, delta and verdict on hover.
fn cell_ui(ui: &mut egui::Ui, f: &Figure, row: Option<&Row>, (band, values): (f64, bool)) -> egui::Response {
    let Some(row) = row else { return ui.label("—") };
    let value = row.other.map_or_else(|| "—".to_owned(), |v| f.format(v));
    let Some(e) = &row.entry else { return ui.label(value) };
    let v = Verdict::of_runs(e, f.direction, band);
    let colour = match v {
        Verdict::Better => theme::BETTER,
        Verdict::Worse => theme::WORSE,
        Verdict::Noise => ui.visuals().weak_text_color(),
        Verdict::Same | Verdict::Neutral => ui.visuals().text_color(),
    };
    // A share of time changes in percentage points; anything else in % of the baseline.
    let change = if f.unit == Unit::Fraction { f.format_delta(e.delta) } else { format_change(e.relative) };
    let text = if values { format!("{value}  {change}") } else { change };
    ui.label(RichText::new(text).color(colour).size(13.0)).on_hover_text(format!(
        "{value}: {} from the baseline ({}): {}",
        f.format_delta(e.delta),
        format_change(e.relative),
        verdict_text(v)
    ))
}
