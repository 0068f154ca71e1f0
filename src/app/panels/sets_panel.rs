//! Sets of runs in the window (`metrics.md` §12): the grouping of the open runs into
//! sets (by the file name's prefix when they open, by a name typed for a run, or by
//! dragging a run onto another set), the set pinned as the baseline of a watched
//! folder's captures, and the comparison of sets — each set's runs with outliers
//! flagged (and put back on request), then each set against the baseline's set.

use super::sets_table::{outlier_help, sets_table_ui};
use super::{Model, set_colour};
use crate::app::session::{AppCommand, RunGroups, RunId, SetsCache};
use eframe::egui::{self, RichText};

/// The grouping of the open runs into sets: one frame per set, its runs listed under
/// it (drag a run onto another set, or onto "new set"; or type a set's name for a
/// run), and the set pinned as the baseline of a watched folder's captures.
pub fn sets_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let runs = m.session.runs();
    if runs.len() < 2 {
        return out;
    }
    let groups = m.session.all_groups();
    // Folded at first (the comparison stays in view); the title says how runs are grouped.
    let sets: Vec<String> = groups.iter().map(|(n, members)| format!("{n} ×{}", members.len())).collect();
    let listed = format!("Sets of runs: {}", sets.join(", "));
    // A header does not wrap: a long one would widen the panel's content, and every
    // label under it would stop wrapping at the panel's edge.
    let title = if groups.iter().all(|(_, members)| members.len() < 2) {
        // Runs that share no set are no "sets" (issue 20): say so.
        "Sets of runs: none, each run on its own".to_owned()
    } else if groups.len() == 1 {
        // One set of every run is no comparison of sets: the runs are compared one by one.
        format!("Sets of runs: one set of {} runs (compared run by run)", runs.len())
    } else if groups.len() <= 3 && listed.chars().count() <= 60 {
        listed
    } else {
        format!("Sets of runs: {} sets, {} runs in all", groups.len(), runs.len())
    };
    egui::CollapsingHeader::new(title).id_salt("sets").default_open(false).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Group by file name")
                .on_hover_text("Put runs whose file names differ only by a run number (run1, run2) in one set")
                .clicked()
            {
                out.push(AppCommand::GroupByFileName);
            }
            if ui.button("One set per run").on_hover_text("Compare runs one by one").clicked() {
                out.push(AppCommand::OneSetPerRun);
            }
        });
        ui.label(
            RichText::new(
                "Drag a run onto another set to move it. Sets of two runs or more are compared by their means, \
                 with a 95 % interval: a change inside the runs' noise is neither better nor worse.",
            )
            .small()
            .weak(),
        );
        for (k, (name, members)) in groups.iter().enumerate() {
            out.extend(set_group_ui(ui, m, k, name, members));
        }
        let frame = egui::Frame::group(ui.style()).inner_margin(4.0);
        let (_, dropped) = ui.dnd_drop_zone::<RunId, ()>(frame, |ui| {
            ui.set_min_width(ui.available_width());
            ui.label(RichText::new("drop a run here for a new set").small().weak());
        });
        if let Some(id) = dropped {
            out.push(AppCommand::MoveToSet(*id, m.session.fresh_set_name()));
        }
    });
    out
}

/// One set: its name, runs and pinned toggle, a place to drop runs onto.
fn set_group_ui(
    ui: &mut egui::Ui,
    m: &Model<'_>,
    k: usize,
    name: &str,
    members: &[RunId],
) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let frame = egui::Frame::group(ui.style()).inner_margin(4.0);
    let (_, dropped) = ui.dnd_drop_zone::<RunId, ()>(frame, |ui| {
        ui.set_min_width(ui.available_width());
        ui.horizontal(|ui| {
            ui.colored_label(set_colour(k), RichText::new(name).strong());
            ui.label(RichText::new(format!("{} runs", members.len())).small().weak());
            let pinned = m.session.pinned_set() == Some(name);
            let toggle = ui
                .selectable_label(pinned, "pinned baseline")
                .on_hover_text("Captures that arrive in the watched folder are compared against this set");
            if toggle.clicked() {
                out.push(AppCommand::PinSet((!pinned).then(|| name.to_owned())));
            }
        });
        for run in members.iter().filter_map(|&id| m.session.run(id)) {
            ui.horizontal(|ui| {
                let id = ui.make_persistent_id(("set_member", run.id));
                ui.dnd_drag_source(id, run.id, |ui| {
                    ui.label(RichText::new(format!(":: {}", run.label)).small())
                        .on_hover_text("Drag onto another set to move this run");
                });
                let mut set = run.set.clone();
                let field = egui::TextEdit::singleline(&mut set).desired_width(90.0);
                if ui.add(field).on_hover_text("This run's set: type a set's name to move it").changed() {
                    out.push(AppCommand::MoveToSet(run.id, set));
                }
            });
        }
    });
    if let Some(id) = dropped {
        out.push(AppCommand::MoveToSet(*id, name.to_owned()));
    }
    out
}

/// The comparison of sets: the outlier limit, each compared set's runs (average FPS,
/// outliers flagged and left out, with a button to put one back), then each set
/// against the baseline's set, figure by figure.
pub fn sets_comparison_ui(ui: &mut egui::Ui, m: &Model<'_>) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let limit = m.persisted.outlier_limit;
    let mut pct = limit * 100.0;
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Outlier limit ±").on_hover_text(outlier_help(limit));
        ui.add(egui::DragValue::new(&mut pct).range(0.0..=100.0).speed(0.1).max_decimals(1).suffix(" %"))
            .labelled_by(label.id)
            .on_hover_text(outlier_help(limit));
        ui.label(RichText::new("from the set's median average FPS").small().weak());
    });
    if (pct / 100.0 - limit).abs() > 1e-12 {
        out.push(AppCommand::OutlierLimit(pct / 100.0));
    }
    let groups = m.session.compared_groups();
    let Some(cache) = m.session.sets_cache().filter(|_| {
        groups.iter().all(|(_, members)| m.session.set_figures(members, m.persisted).len() == members.len())
    }) else {
        ui.spinner();
        return out;
    };
    // The sets' machines first, folded: in view without scrolling (issue 20).
    let firsts: Vec<(&str, &framescope_core::model::FileInfo)> = groups
        .iter()
        .filter_map(|(name, members)| Some((name.as_str(), &m.session.run(*members.first()?)?.capture.info)))
        .collect();
    super::system::system_sets_ui(ui, &firsts);
    for (k, (name, members)) in groups.iter().enumerate() {
        out.extend(set_runs_ui(ui, m, k, name, members));
    }
    ui.label(
        RichText::new(
            "Means of each set's runs; the bar is the 95 % interval of the difference (Welch). Better or worse \
             only when the interval excludes 0: otherwise the change is within the runs' noise.",
        )
        .small()
        .weak(),
    );
    comparisons_ui(ui, cache, &groups);
    out
}

/// A compared set's heading and runs: average FPS, outliers left out or put back.
fn set_runs_ui(ui: &mut egui::Ui, m: &Model<'_>, k: usize, name: &str, members: &[RunId]) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let limit = m.persisted.outlier_limit;
    let figures = m.session.set_figures(members, m.persisted);
    let (set, flagged) = m.session.set_of(members, &figures, limit);
    let role = if k == 0 { "baseline set" } else { "set" };
    let median = set.median_avg_fps.map_or_else(String::new, |v| format!(", median avg {v:.2} FPS"));
    let heading = format!("{name} — {role}: {} of {} runs used{median}", set.kept().count(), members.len());
    ui.colored_label(set_colour(k), RichText::new(heading).strong());
    for (j, &id) in members.iter().enumerate() {
        let Some(run) = m.session.run(id) else { continue };
        let avg = figures[j].summary.map_or_else(|| "—".to_owned(), |s| format!("{:.2}", s.avg_fps));
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("  {}: avg {avg} FPS", run.label)).small());
            let button = if set.outlier[j] {
                let text = RichText::new("outlier, left out").small();
                ui.colored_label(ui.visuals().warn_fg_color, text).on_hover_text(outlier_help(limit));
                ui.small_button("Put back").on_hover_text("Count this run in its set's figures")
            } else if flagged[j] {
                ui.label(RichText::new("outlier, put back by you").small().weak())
                    .on_hover_text(outlier_help(limit));
                ui.small_button("Leave out").on_hover_text("Leave this outlier out again")
            } else {
                return;
            };
            if button.clicked() {
                out.push(AppCommand::ToggleOutlier(run.id));
            }
        });
    }
    for w in &set.warnings {
        ui.label(RichText::new(&w.message).small().color(ui.visuals().warn_fg_color));
    }
    if members.len() < 2 {
        ui.label(RichText::new("one run: a set needs two runs to be compared").small().weak());
    }
    out
}

/// Each compared set against the baseline's set.
fn comparisons_ui(ui: &mut egui::Ui, cache: &SetsCache, groups: &RunGroups) {
    for (k, (name, _)) in groups.iter().enumerate().skip(1) {
        let Some(c) = cache.comparison(k) else { continue };
        ui.separator();
        ui.colored_label(set_colour(k), format!("{name} vs {} (baseline set)", groups[0].0));
        let means = |n: &str| c.row(n).and_then(|r| r.baseline.zip(r.other)).map(|(b, o)| (b.mean, o.mean));
        super::glance::glance_ui(ui, framescope_core::report::compare::Glance::from_lookup(means));
        egui::ScrollArea::horizontal().id_salt(("sets_scroll", k)).show(ui, |ui| {
            sets_table_ui(ui, c, ("sets_table", k));
        });
    }
}
