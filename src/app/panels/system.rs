//! System information in the window (issue 20): a run's "System" box in the figures
//! panel (what its capture says about GPU, CPU, driver, OS, comment…) and two runs'
//! side by side under their comparison — reviewers compare hardware. The facts are
//! `framescope_core::report::system`'s, as `framescope report` gives them.

use eframe::egui::{self, RichText};
use framescope_core::model::FileInfo;
use framescope_core::report::compare::Comparison;
use framescope_core::report::system::{facts, headline};

/// At most this many characters of a header's summary (a header does not wrap).
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
    let title =
        if head.is_empty() { "System".to_owned() } else { cut(&format!("System: {head}"), HEADER_CHARS) };
    egui::CollapsingHeader::new(title).id_salt((id, "system")).default_open(false).show(ui, |ui| {
        egui::Grid::new((id, "system_grid")).num_columns(2).striped(true).show(ui, |ui| {
            for (name, value) in &facts {
                let name = ui.label(RichText::new(name).weak());
                ui.add(egui::Label::new(value).wrap()).labelled_by(name.id);
                ui.end_row();
            }
        });
    });
}

/// The compared runs' system facts side by side (baseline, other), a fact that differs
/// in strong text; nothing when neither run states any.
pub fn system_comparison_ui(
    ui: &mut egui::Ui,
    comparison: &Comparison,
    id: impl std::hash::Hash + std::fmt::Debug + Copy,
) {
    let rows = comparison.system();
    if rows.is_empty() {
        return;
    }
    let differ = rows.iter().filter(|r| r.differs()).count();
    let title = match differ {
        0 => "System: the same".to_owned(),
        1 => "System: 1 fact differs".to_owned(),
        n => format!("System: {n} facts differ"),
    };
    egui::CollapsingHeader::new(title).id_salt((id, "system_cmp")).default_open(false).show(ui, |ui| {
        egui::Grid::new((id, "system_cmp_grid")).num_columns(3).striped(true).show(ui, |ui| {
            ui.label(RichText::new("fact").weak());
            ui.label(RichText::new("baseline").weak());
            ui.label(RichText::new("other").weak());
            ui.end_row();
            for row in rows {
                let side = |v: &Option<String>| {
                    let text = RichText::new(v.as_deref().unwrap_or("—"));
                    if row.differs() { text.strong() } else { text }
                };
                let name = ui.label(RichText::new(&row.name).weak());
                ui.add(egui::Label::new(side(&row.baseline)).wrap()).labelled_by(name.id);
                ui.add(egui::Label::new(side(&row.other)).wrap()).labelled_by(name.id);
                ui.end_row();
            }
        });
    });
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
