//! Sets of runs in the window (`metrics.md` §12): compared runs are grouped into sets
//! (by the file name's prefix when they open, by a name typed for a run, or by dragging
//! a run from one group to another), and two sets are compared by their means with
//! Welch's 95 % interval ([`framescope_core::report::sets`]: the statistics are the CLI's, never
//! computed twice), so a change inside the runs' noise is neither better nor worse.
//! Outliers are flagged and left out, and can be put back.

use super::runs::OpenRun;
use super::{App, panels, theme};
use eframe::egui::{self, RichText};
use framescope_core::presentation::grouping::prefix_key;
use framescope_core::report::sets::{self, Set, SetComparison, SetRow};
use framescope_core::report::{Run, Verdict};

/// The runs list's header when more than four runs are open, or sets of runs are
/// compared (folded at first: the sets and their comparison stay in view); true when
/// the runs are to be listed.
pub(super) fn runs_header_ui(ui: &mut egui::Ui, runs: usize, sets_compared: bool) -> bool {
    if runs <= 4 && !sets_compared {
        return true;
    }
    egui::CollapsingHeader::new(format!("Runs ({runs})"))
        .id_salt("runs_list")
        .default_open(false)
        .show(ui, |_| ())
        .body_returned
        .is_some()
}

/// Sets among the compared runs: their names and runs (indices into the open runs, in
/// comparison order), the baseline's set first.
pub type Groups = Vec<(String, Vec<usize>)>;

/// Groups `order` (run indices, baseline first) by their runs' sets.
#[must_use]
pub fn groups(runs: &[OpenRun], order: &[usize]) -> Groups {
    let mut out: Groups = Vec::new();
    for &i in order {
        let name = &runs[i].set;
        match out.iter_mut().find(|(n, _)| n == name) {
            Some((_, members)) => members.push(i),
            None => out.push((name.clone(), vec![i])),
        }
    }
    out
}

/// Cached set comparisons: for each compared set after the baseline's, its comparison
/// with the baseline set (`None` with fewer than two runs). Welch's interval needs a
/// t quantile per figure: computed once per change of the runs' figures, not per frame.
pub struct Cache {
    key: (Vec<(usize, bool, usize)>, u64),
    comparisons: Vec<Option<SetComparison>>,
}

/// A set's runs with its outliers marked, and the runs the user put back kept.
fn set_of<'a>(runs: &[OpenRun], members: &[usize], figures: &[&'a Run], limit: f64) -> (Set<'a>, Vec<bool>) {
    let mut set = Set::new(figures.to_vec(), limit);
    let flagged = set.outlier.clone();
    for (k, &i) in members.iter().enumerate() {
        if runs[i].keep_outlier {
            set.outlier[k] = false;
        }
    }
    (set, flagged)
}

impl App {
    /// The figures of the runs `members` (whole trimmed runs, current settings); fewer
    /// than `members` while some are computing.
    fn set_figures(&self, members: &[usize]) -> Vec<&Run> {
        members
            .iter()
            .filter_map(|&i| self.runs.get(i)?.current(&self.run_settings(i), self.run_trim(i)))
            .map(|a| &a.run)
            .collect()
    }

    /// The compared runs grouped into sets (baseline's set first).
    pub(super) fn compared_groups(&self) -> Groups {
        groups(&self.runs, &self.shown())
    }

    /// True when the comparison is of sets: the baseline's set and at least one other
    /// compared set have two runs or more. Otherwise runs are compared one by one.
    pub(super) fn sets_mode(&self) -> bool {
        if !self.comparing() {
            return false;
        }
        let g = self.compared_groups();
        g.len() > 1 && g[0].1.len() > 1 && g[1..].iter().any(|(_, m)| m.len() > 1)
    }

    /// The colour of compared run `i` at place `slot`: its set's in a comparison of
    /// sets (every run of a set in one colour), else its own.
    pub(super) fn run_colour(&self, slot: usize, i: usize) -> egui::Color32 {
        let k = if self.sets_mode() {
            let set = self.runs.get(i).map(|r| r.set.as_str());
            self.compared_groups().iter().position(|(n, _)| Some(n.as_str()) == set).unwrap_or(0)
        } else {
            slot
        };
        theme::RUNS[k % theme::RUNS.len()]
    }

    /// Each open run's set.
    #[must_use]
    pub fn run_sets(&self) -> Vec<String> {
        self.runs.iter().map(|r| r.set.clone()).collect()
    }

    /// Puts run `i` in the set called `name`.
    pub fn set_run_set(&mut self, i: usize, name: &str) {
        if let Some(r) = self.runs.get_mut(i) {
            name.trim().clone_into(&mut r.set);
        }
    }

    /// Groups every open run by its file name's prefix (`prefix_key`).
    pub fn group_by_prefix(&mut self) {
        for r in &mut self.runs {
            r.set = prefix_key(&r.label);
        }
    }

    /// The grouping of the open runs into sets: one frame per set, its runs listed
    /// under it (drag a run onto another set, or onto "new set"; or type a set's name
    /// for a run), and the set pinned as the baseline of a watched folder's captures.
    pub(super) fn sets_ui(&mut self, ui: &mut egui::Ui) {
        if self.runs.len() < 2 {
            return;
        }
        let all: Vec<usize> = (0..self.runs.len()).collect();
        let groups = groups(&self.runs, &all);
        // Folded at first (the comparison stays in view); the title says how runs are grouped.
        let sets: Vec<String> = groups.iter().map(|(n, m)| format!("{n} ×{}", m.len())).collect();
        let listed = format!("Sets of runs: {}", sets.join(", "));
        // A header does not wrap: a long one would widen the panel's content, and every
        // label under it would stop wrapping at the panel's edge.
        let title = if groups.len() <= 3 && listed.chars().count() <= 60 {
            listed
        } else {
            let runs: usize = groups.iter().map(|(_, m)| m.len()).sum();
            format!("Sets of runs: {} sets, {runs} runs in all", groups.len())
        };
        let header = egui::CollapsingHeader::new(title).id_salt("sets").default_open(false);
        header.show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button("Group by file name")
                    .on_hover_text("Put runs whose file names differ only by a run number (run1, run2) in one set")
                    .clicked()
                {
                    self.group_by_prefix();
                }
                if ui.button("One set per run").on_hover_text("Compare runs one by one").clicked() {
                    for r in &mut self.runs {
                        r.set.clone_from(&r.label);
                    }
                }
            });
            ui.label(
                RichText::new(
                    "Drag a run onto another set to move it. Sets of two runs or more are compared by their \
                     means, with a 95 % interval: a change inside the runs' noise is neither better nor worse.",
                )
                .small()
                .weak(),
            );
            let mut moved: Option<(usize, String)> = None;
            let mut pin: Option<Option<String>> = None;
            for (k, (name, members)) in groups.iter().enumerate() {
                let colour = theme::RUNS[k % theme::RUNS.len()];
                let frame = egui::Frame::group(ui.style()).inner_margin(4.0);
                let (_, dropped) = ui.dnd_drop_zone::<usize, ()>(frame, |ui| {
                    ui.set_min_width(ui.available_width());
                    ui.horizontal(|ui| {
                        ui.colored_label(colour, RichText::new(name).strong());
                        ui.label(RichText::new(format!("{} runs", members.len())).small().weak());
                        let pinned = self.pinned_set.as_deref() == Some(name.as_str());
                        let toggle = ui.selectable_label(pinned, "pinned baseline").on_hover_text(
                            "Captures that arrive in the watched folder are compared against this set",
                        );
                        if toggle.clicked() {
                            pin = Some((!pinned).then(|| name.clone()));
                        }
                    });
                    for &i in members {
                        let run = &mut self.runs[i];
                        ui.horizontal(|ui| {
                            let id = ui.make_persistent_id(("set_member", run.id));
                            ui.dnd_drag_source(id, i, |ui| {
                                ui.label(RichText::new(format!(":: {}", run.label)).small())
                                    .on_hover_text("Drag onto another set to move this run");
                            });
                            let mut set = run.set.clone();
                            let field = egui::TextEdit::singleline(&mut set).desired_width(90.0);
                            let edit = ui.add(field).on_hover_text("This run's set: type a set's name to move it");
                            if edit.changed() {
                                moved = Some((i, set));
                            }
                        });
                    }
                });
                if let Some(i) = dropped {
                    moved = Some((*i, name.clone()));
                }
            }
            let frame = egui::Frame::group(ui.style()).inner_margin(4.0);
            let (_, dropped) = ui.dnd_drop_zone::<usize, ()>(frame, |ui| {
                ui.set_min_width(ui.available_width());
                ui.label(RichText::new("drop a run here for a new set").small().weak());
            });
            if let Some(i) = dropped {
                let fresh = (1..=groups.len() + 1).map(|n| format!("set {n}")).find(|n| !groups.iter().any(|(g, _)| g == n));
                moved = fresh.map(|n| (*i, n));
            }
            if let Some((i, name)) = moved {
                self.set_run_set(i, &name);
            }
            if let Some(p) = pin {
                self.pinned_set = p;
            }
        });
    }

    /// Compares the sets again when a run's figures, set or put-back flag changed.
    fn refresh_sets_cache(&mut self, groups: &Groups) {
        let limit = self.persisted.outlier_limit;
        let runs: Vec<(usize, bool, usize)> = groups
            .iter()
            .enumerate()
            .flat_map(|(k, (_, m))| m.iter().map(move |&i| (i, k)))
            .map(|(i, k)| {
                let a = self.runs[i].analyzed().map_or(0, |a| std::ptr::from_ref(a) as usize);
                (a, self.runs[i].keep_outlier, k)
            })
            .collect();
        let key = (runs, limit.to_bits());
        if self.sets_cache.as_ref().is_none_or(|c| c.key != key) {
            let base = self.set_figures(&groups[0].1);
            let (a, _) = set_of(&self.runs, &groups[0].1, &base, limit);
            let comparisons = groups[1..]
                .iter()
                .map(|(_, m)| {
                    let runs = self.set_figures(m);
                    let (b, _) = set_of(&self.runs, m, &runs, limit);
                    (m.len() > 1).then(|| sets::compare_sets(&a, &b))
                })
                .collect();
            self.sets_cache = Some(Cache { key, comparisons });
        }
    }

    /// The comparison of sets: each compared set's runs (average FPS, outliers flagged
    /// and left out, with a button to put one back), then each set against the
    /// baseline's set, figure by figure.
    pub(super) fn sets_comparison_ui(&mut self, ui: &mut egui::Ui) {
        let mut pct = self.persisted.outlier_limit * 100.0;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Outlier limit ±").on_hover_text(outlier_help(self.persisted.outlier_limit));
            ui.add(egui::DragValue::new(&mut pct).range(0.0..=100.0).speed(0.1).max_decimals(1).suffix(" %"))
                .labelled_by(label.id)
                .on_hover_text(outlier_help(self.persisted.outlier_limit));
            ui.label(RichText::new("from the set's median average FPS").small().weak());
        });
        if (pct / 100.0 - self.persisted.outlier_limit).abs() > 1e-12 {
            self.persisted.outlier_limit = pct / 100.0;
            self.settings_dirty = true;
        }
        let limit = self.persisted.outlier_limit;
        let groups = self.compared_groups();
        if groups.iter().any(|(_, m)| self.set_figures(m).len() != m.len()) {
            ui.spinner();
            return;
        }
        self.refresh_sets_cache(&groups);
        let mut toggle: Option<usize> = None;
        for (k, (name, members)) in groups.iter().enumerate() {
            let runs = self.set_figures(members);
            let (set, flagged) = set_of(&self.runs, members, &runs, self.persisted.outlier_limit);
            let colour = theme::RUNS[k % theme::RUNS.len()];
            let role = if k == 0 { "baseline set" } else { "set" };
            let median = set.median_avg_fps.map_or_else(String::new, |m| format!(", median avg {m:.2} FPS"));
            ui.colored_label(
                colour,
                RichText::new(format!(
                    "{name} — {role}: {} of {} runs used{median}",
                    set.kept().count(),
                    members.len()
                ))
                .strong(),
            );
            for (j, &i) in members.iter().enumerate() {
                let run = &self.runs[i];
                let avg = runs[j].summary.map_or_else(|| "—".to_owned(), |s| format!("{:.2}", s.avg_fps));
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("  {}: avg {avg} FPS", run.label)).small());
                    if set.outlier[j] {
                        ui.colored_label(
                            ui.visuals().warn_fg_color,
                            RichText::new("outlier, left out").small(),
                        )
                        .on_hover_text(outlier_help(limit));
                        if ui
                            .small_button("Put back")
                            .on_hover_text("Count this run in its set's figures")
                            .clicked()
                        {
                            toggle = Some(i);
                        }
                    } else if flagged[j] {
                        ui.label(RichText::new("outlier, put back by you").small().weak())
                            .on_hover_text(outlier_help(limit));
                        if ui
                            .small_button("Leave out")
                            .on_hover_text("Leave this outlier out again")
                            .clicked()
                        {
                            toggle = Some(i);
                        }
                    }
                });
            }
            for w in &set.warnings {
                ui.label(RichText::new(&w.message).small().color(ui.visuals().warn_fg_color));
            }
            if members.len() < 2 {
                ui.label(RichText::new("one run: a set needs two runs to be compared").small().weak());
            }
        }
        if let Some(i) = toggle
            && let Some(r) = self.runs.get_mut(i)
        {
            r.keep_outlier = !r.keep_outlier;
        }
        ui.label(
            RichText::new(
                "Means of each set's runs; the bar is the 95 % interval of the difference (Welch). Better or \
                 worse only when the interval excludes 0: otherwise the change is within the runs' noise.",
            )
            .small()
            .weak(),
        );
        let Some(cache) = &self.sets_cache else { return };
        for (k, (name, _)) in groups.iter().enumerate().skip(1) {
            let colour = theme::RUNS[k % theme::RUNS.len()];
            let Some(Some(c)) = cache.comparisons.get(k - 1) else { continue };
            ui.separator();
            ui.colored_label(colour, format!("{name} vs {} (baseline set)", groups[0].0));
            egui::ScrollArea::horizontal().id_salt(("sets_scroll", k)).show(ui, |ui| {
                sets_table_ui(ui, c, ("sets_table", k));
            });
        }
    }
}

fn outlier_help(limit: f64) -> String {
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
            let (title, unit) = panels::figure_name(&row.figure.qualified_name());
            let name = ui.label(&title).on_hover_text(panels::figure_help(&title));
            let mean = |s: Option<sets::FigureStats>| {
                s.map_or_else(|| "—".to_owned(), |s| panels::format_value(s.mean, unit))
            };
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
            ui.colored_label(colour, panels::format_change(e.relative)).labelled_by(name.id);
            // The verdict beside its bar, where the table is narrow.
            ui.horizontal(|ui| {
                interval_bar(ui, row, colour);
                let cell = ui.colored_label(colour, panels::verdict_text(verdict)).labelled_by(name.id);
                if verdict == Verdict::Noise {
                    cell.on_hover_text("The 95 % interval includes 0: the change is within the runs' spread");
                }
            });
            let text = format!(
                "{} [{}, {}]",
                panels::format_delta(e.delta, unit),
                panels::format_delta(e.ci95[0], unit),
                panels::format_delta(e.ci95[1], unit)
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
