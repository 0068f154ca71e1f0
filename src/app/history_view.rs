//! File › Open history… (issue 37): a small window with the scenes and builds of a
//! history (`framescope history add`); picking two builds opens the runs of the scene
//! in each, compared, the first build's first run as baseline. The history is read by
//! `framescope-history` (the window never opens the database itself); the runs are the
//! captures at the paths the history stored.

use super::session::{AppCommand, ShellCommand};
use eframe::egui;
use framescope_history::check::build_order;
use framescope_history::{OpenMode, StoredRun};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A history shown in its window.
#[derive(Debug, Clone)]
pub struct HistoryView {
    /// The file.
    pub path: PathBuf,
    runs: Vec<StoredRun>,
    /// Builds in history order.
    builds: Vec<String>,
    scenes: Vec<String>,
    /// The scene, baseline build and other build picked (indices).
    pub scene: usize,
    /// The baseline build.
    pub baseline: usize,
    /// The build compared with it.
    pub other: usize,
}

impl HistoryView {
    /// Reads the history in `path`; the message when it cannot be read.
    pub fn open(path: &Path) -> Result<Self, String> {
        let db = path.to_string_lossy();
        let runs = framescope_history::open(&db, OpenMode::Existing)
            .and_then(|mut s| s.runs())
            .map_err(|e| e.to_string())?;
        if runs.is_empty() {
            return Err(format!("{}: the history holds no run yet", path.display()));
        }
        let builds = build_order(&runs);
        let scenes: BTreeSet<String> = runs.iter().map(|r| r.run.place.scene.clone()).collect();
        let other = builds.len().saturating_sub(1);
        Ok(Self {
            path: path.to_owned(),
            runs,
            baseline: other.saturating_sub(1),
            other,
            builds,
            scenes: scenes.into_iter().collect(),
            scene: 0,
        })
    }

    /// The runs of the picked scene in `build`.
    fn runs_of(&self, build: usize) -> Vec<&StoredRun> {
        let (Some(b), Some(s)) = (self.builds.get(build), self.scenes.get(self.scene)) else {
            return Vec::new();
        };
        self.runs.iter().filter(|r| &r.run.place.build == b && &r.run.place.scene == s).collect()
    }

    /// The captures to open, each with its set (`build ID`): the baseline build's runs of
    /// the scene, then the other build's; or what is missing.
    pub fn files(&self) -> Result<Vec<(PathBuf, String)>, String> {
        let mut files = Vec::new();
        for b in [self.baseline, self.other] {
            let runs = self.runs_of(b);
            if runs.is_empty() {
                return Err(format!("build {} has no run of this scene", self.builds[b]));
            }
            let set = format!("build {}", self.builds[b]);
            files.extend(runs.iter().map(|r| (PathBuf::from(&r.run.file), set.clone())));
        }
        match files.iter().map(|(f, _)| f).find(|f| !f.is_file()) {
            Some(missing) => {
                Err(format!("{} is no longer where the history says it was added from", missing.display()))
            }
            None => Ok(files),
        }
    }
}

/// A build's line: its ID, commit, time and runs of the scene.
fn build_label(view: &HistoryView, b: usize) -> String {
    let runs = view.runs_of(b);
    let first = runs.first().map(|r| &r.run.place);
    let mut text = view.builds[b].clone();
    if let Some(c) = first.and_then(|p| p.commit.as_deref()) {
        let _ = write!(text, " · {}", c.chars().take(10).collect::<String>());
    }
    if let Some(t) = first.and_then(|p| p.time) {
        let _ = write!(text, " · {t}");
    }
    let _ = write!(text, " · {} run{}", runs.len(), if runs.len() == 1 { "" } else { "s" });
    text
}

fn build_combo(ui: &mut egui::Ui, label: &str, view: &HistoryView, pick: &mut usize) {
    egui::ComboBox::from_label(label).selected_text(build_label(view, *pick)).show_ui(ui, |ui| {
        for b in (0..view.builds.len()).rev() {
            ui.selectable_value(pick, b, build_label(view, b));
        }
    });
}

/// The history window: its commands, and whether it stays open.
pub fn history_ui(ctx: &egui::Context, view: &mut HistoryView) -> (Vec<AppCommand>, bool) {
    let mut out = Vec::new();
    let mut open = true;
    let mut close = false;
    egui::Window::new("History").open(&mut open).collapsible(false).show(ctx, |ui| {
        ui.label(format!(
            "{} — {} runs of {} builds",
            view.path.display(),
            view.runs.len(),
            view.builds.len()
        ));
        let scene = view.scenes.get(view.scene).cloned().unwrap_or_default();
        egui::ComboBox::from_label("Scene").selected_text(scene).show_ui(ui, |ui| {
            for (i, s) in view.scenes.iter().enumerate() {
                ui.selectable_value(&mut view.scene, i, s);
            }
        });
        let (mut a, mut b) = (view.baseline, view.other);
        build_combo(ui, "Baseline build", view, &mut a);
        build_combo(ui, "Compared build", view, &mut b);
        (view.baseline, view.other) = (a, b);
        if ui.button("Compare the two builds").clicked() {
            match view.files() {
                Ok(files) => {
                    out.push(ShellCommand::OpenCompared(files).into());
                    close = true;
                }
                Err(why) => out.push(ShellCommand::Status(why).into()),
            }
        }
    });
    (out, open && !close)
}
