//! System information in the window (issue 20): a run's "System" box in the figures
//! panel (what its capture says about GPU, CPU, driver, OS, comment…), and two runs' or
//! two sets' side by side at the top of their comparison (in view at 1280×720) —
//! reviewers compare hardware. The facts are
//! `framescope_core::report::system`'s, as `framescope report` gives them.

use eframe::egui::{self, RichText};
use framescope_core::model::FileInfo;
use framescope_core::report::compare::Comparison;
use framescope_core::report::{SystemRow, facts, headline, side_by_side};

/// At most this many characters of a header's summary (it wraps at the panel's
/// width, [`super::fit::wrapped_header`]).
const HEADER_CHARS: usize = 56;

/// `text` cut to `n` characters with an ellipsis.
fn cut(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(n.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// A folded "System" box whose header names the GPU and CPU, listing every fact the
/// capture states when opened; nothing when it states none.
pub fn system_box_ui(ui: &mut egui::Ui, info: &FileInfo, id: &str) {
    let facts = facts(info);
    if facts.is_empty() {
        return;
    }
    let head = headline(&facts);
    let whole = if head.is_empty() { "System".to_owned() } else { format!("System: {head}") };
    let title = super::fit::wrapped_header(ui, &cut(&whole, HEADER_CHARS));
    let shown =
        egui::CollapsingHeader::new(title).id_salt((id, "system")).default_open(false).show(ui, |ui| {
            egui::Grid::new((id, "system_grid")).num_columns(2).striped(true).show(ui, |ui| {
                for (name, value) in &facts {
                    let name = ui.label(RichText::new(name).weak());
                    ui.add(egui::Label::new(value).wrap()).labelled_by(name.id);
                    ui.end_row();
                }
            });
        });
    if whole.chars().count() > HEADER_CHARS {
        shown.header_response.on_hover_text(whole);
    }
}

/// The compared runs' system facts side by side (baseline, other), a fact that differs
/// marked `≠` and in strong text; nothing when neither run states any.
pub fn system_comparison_ui(
    ui: &mut egui::Ui,
    comparison: &Comparison,
    id: impl std::hash::Hash + std::fmt::Debug + Copy,
) {
    system_rows_ui(ui, comparison.system(), ("baseline", "other"), id);
}

/// Each compared set's system facts beside the baseline set's (each set's first run's:
/// the runs of a set come from one machine), under one folded header per set; nothing
/// when no run states any.
pub fn system_sets_ui(ui: &mut egui::Ui, sets: &[(&str, &FileInfo)]) {
    let Some((base_name, base)) = sets.first() else { return };
    let base_facts = facts(base);
    for (k, (name, info)) in sets.iter().enumerate().skip(1) {
        let rows = side_by_side(&base_facts, &facts(info));
        ui.push_id(("system_sets", k), |ui| system_rows_ui(ui, &rows, (base_name, name), ("sets", k)));
    }
}

/// A folded "System" header saying how many facts differ, over a grid of the facts
/// side by side (`columns` names the two sides); nothing without facts.
fn system_rows_ui(
    ui: &mut egui::Ui,
    rows: &[SystemRow],
    columns: (&str, &str),
    id: impl std::hash::Hash + std::fmt::Debug + Copy,
) {
    if rows.is_empty() {
        return;
    }
    let differ = rows.iter().filter(|r| r.differs()).count();
    let title = match differ {
        0 => "System: the same".to_owned(),
        1 => "System: 1 fact differs".to_owned(),
        n => format!("System: {n} facts differ"),
    };
    let header = egui::CollapsingHeader::new(title).id_salt((id, "system_cmp")).default_open(false);
    let response = header.show(ui, |ui| {
        egui::Grid::new((id, "system_cmp_grid")).num_columns(4).striped(true).show(ui, |ui| {
            ui.label(RichText::new("fact").weak());
            ui.label("");
            ui.label(RichText::new(cut(columns.0, 24)).weak());
            ui.label(RichText::new(cut(columns.1, 24)).weak());
            ui.end_row();
            for row in rows {
                let side = |v: &Option<String>| {
                    let text = RichText::new(v.as_deref().unwrap_or("—"));
                    if row.differs() { text.strong() } else { text }
                };
                let name = ui.label(RichText::new(&row.name).weak());
                ui.label(if row.differs() { "≠" } else { "" });
                ui.add(egui::Label::new(side(&row.baseline)).wrap()).labelled_by(name.id);
                ui.add(egui::Label::new(side(&row.other)).wrap()).labelled_by(name.id);
                ui.end_row();
            }
        });
    });
    response.header_response.on_hover_text(format!(
        "What the captures say about the machines ({} and {}), side by side; ≠ marks a fact that differs",
        columns.0, columns.1
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_cut_with_an_ellipsis() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcdef", 4), "abc…");
    }
}
