//! Two sets of runs compared, as a table (`metrics.md` §12): figure, the set means,
//! the relative change, the 95 % interval of the difference as a small bar around 0
//! with the verdict beside it, then the delta and the interval in numbers. The
//! statistics are [`framescope_core::report::sets`]'s (the CLI's), never computed twice.

use crate::app::figure_text::{format_change, verdict_text};
use crate::app::theme;
use eframe::egui::{self, RichText};
use framescope_core::report::Verdict;
use framescope_core::report::sets::{self, SetComparison, SetRow};

/// What the outlier limit does, for its tooltips.
pub fn outlier_help(limit: f64) -> String {
    format!(
        "A run whose average FPS is more than {} % from its set's median is left out of the set's figures \
         (metrics.md §12); a set keeps at least two runs.",
        framescope_core::report::compare::number(limit * 100.0)
    )
}

/// Two sets compared, as a table: figure, the set means, the relative change, the 95 %
/// interval of the difference as a small bar around 0 with the verdict beside it —
/// better or worse coloured only for a significant change; a change whose interval
/// includes 0 is "noise", in the neutral colour — then the delta and the interval in
/// numbers.
pub fn sets_table_ui(ui: &mut egui::Ui, c: &SetComparison, id: impl std::hash::Hash + std::fmt::Debug) {
    let neutral = ui.visuals().weak_text_color();
    egui::Grid::new(id).num_columns(6).striped(true).min_col_width(10.0).show(ui, |ui| {
        let headers = [
            ("Figure", "Hover a figure for what it means"),
            ("Baseline", "The baseline set's mean"),
            ("Other", "This set's mean"),
            ("Change", "The difference of the means relative to the baseline mean"),
            (
                "95 % interval",
                "Welch's 95 % confidence interval of the difference of the means: the bar is drawn around 0 (the \
                 tick), the dot is the difference",
            ),
            ("Delta [95 % interval]", "Other − baseline mean, and its 95 % interval in the figure's unit"),
        ];
        for (header, help) in headers {
            ui.label(RichText::new(header).strong()).on_hover_text(help);
        }
        ui.end_row();
        for row in c.rows() {
            if row.figure.section.is_convention() || row.missing() == Some("both") {
                continue;
            }
            let f = row.figure;
            let name = ui.label(f.display_name()).on_hover_text(f.help);
            let mean = |s: Option<sets::FigureStats>| s.map_or_else(|| "—".to_owned(), |s| f.format(s.mean));
            ui.label(mean(row.baseline)).labelled_by(name.id);
            ui.label(mean(row.other)).labelled_by(name.id);
            let Some(e) = row.entry else {
                ui.label("—").labelled_by(name.id);
                ui.label("not comparable").labelled_by(name.id);
                ui.label("—").labelled_by(name.id);
                ui.end_row();
                continue;
            };
            let verdict = row.verdict().unwrap_or(Verdict::Neutral);
            let colour = match verdict {
                Verdict::Better => theme::BETTER,
                Verdict::Worse => theme::WORSE,
                Verdict::Noise => neutral,
                Verdict::Same | Verdict::Neutral => ui.visuals().text_color(),
            };
            ui.colored_label(colour, format_change(e.relative)).labelled_by(name.id);
            // The verdict beside its bar, where the table is narrow.
            ui.horizontal(|ui| {
                interval_bar(ui, row, colour);
                let cell = ui.colored_label(colour, verdict_text(verdict)).labelled_by(name.id);
                if verdict == Verdict::Noise {
                    cell.on_hover_text("The 95 % interval includes 0: the change is within the runs' spread");
                }
            });
            let text = format!(
                "{} [{}, {}]",
                f.format_delta(e.delta),
                f.format_delta(e.ci95[0]),
                f.format_delta(e.ci95[1])
            );
            ui.colored_label(colour, RichText::new(text).small()).labelled_by(name.id);
            ui.end_row();
        }
    });
}

/// A small bar: the interval around 0 (the tick), the delta as a dot.
fn interval_bar(ui: &mut egui::Ui, row: &SetRow, colour: egui::Color32) {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(64.0, 12.0), egui::Sense::hover());
    let Some(e) = row.entry else { return };
    let span = e.ci95[0].abs().max(e.ci95[1].abs()).max(e.delta.abs());
    let scale = if span > 0.0 && span.is_finite() { f64::from(rect.width() / 2.0 - 3.0) / span } else { 0.0 };
    let x = |v: f64| rect.center().x + (v * scale) as f32;
    let p = ui.painter();
    p.line_segment(
        [egui::pos2(rect.center().x, rect.top()), egui::pos2(rect.center().x, rect.bottom())],
        egui::Stroke::new(1.0, ui.visuals().weak_text_color()),
    );
    let bar = egui::Rect::from_min_max(
        egui::pos2(x(e.ci95[0]).min(x(e.ci95[1]) - 1.0), rect.center().y - 2.5),
        egui::pos2(x(e.ci95[1]).max(x(e.ci95[0]) + 1.0), rect.center().y + 2.5),
    );
    p.rect_filled(bar, 1.0, colour.gamma_multiply(0.7));
    p.circle_filled(egui::pos2(x(e.delta), rect.center().y), 2.5, colour);
    response.on_hover_text(format!(
        "95 % interval of the difference: {} to {} (degrees of freedom {})",
        framescope_core::report::compare::number(e.ci95[0]),
        framescope_core::report::compare::number(e.ci95[1]),
        e.df.map_or_else(|| "—".to_owned(), |d| format!("{d:.1}"))
    ));
}
