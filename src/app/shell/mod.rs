//! The window's shell: [`App`] holds its state by lifetime — [`Persisted`] (what the
//! user chose, saved), [`Session`] (the open runs and what was done with them),
//! [`UiScratch`] (panels shown, messages) and [`Jobs`] (loads and other background
//! jobs) — draws the panels, which read them and return [`AppCommand`]s, and applies
//! those in one place ([`App::run_command`]). It holds no session state of its own.

mod api;
mod jobs;
mod recording;
mod scratch;
mod screenshot;

pub use jobs::{Jobs, LiveOutcome, LoadOutcome};
pub use scratch::UiScratch;

use super::panels::{self, Model};
use super::session::{AppCommand, Effects, Session, ShellCommand};
use super::settings::Persisted;
use super::timeline::Command;
use super::work::{LoadSource, Spawner};
use eframe::egui;
use std::path::PathBuf;
use std::sync::Arc;

/// The whole window.
pub struct App {
    persisted: Persisted,
    session: Session,
    scratch: UiScratch,
    jobs: Jobs,
    ctx: egui::Context,
}

impl App {
    /// A window with no capture open.
    #[must_use]
    pub fn new(persisted: Persisted, ctx: &egui::Context) -> Self {
        let repaint_ctx = ctx.clone();
        let spawner = Spawner::threads(Arc::new(move || repaint_ctx.request_repaint()));
        Self {
            persisted,
            session: Session::new(spawner.clone()),
            scratch: UiScratch::default(),
            jobs: Jobs::new(spawner),
            ctx: ctx.clone(),
        }
    }

    /// What the panels read.
    fn model(&self) -> Model<'_> {
        Model { session: &self.session, persisted: &self.persisted, jobs: &self.jobs, scratch: &self.scratch }
    }

    /// Applies every command, in order.
    fn run_commands(&mut self, commands: Vec<AppCommand>) {
        for c in commands {
            self.run_command(c);
        }
    }

    /// Applies one command: the shell's own here, every other by the session.
    fn run_command(&mut self, command: AppCommand) {
        match command {
            AppCommand::Shell(c) => self.shell_command(c),
            AppCommand::Timeline { command: Command::ToggleHelp, .. } => {
                self.scratch.show_help = !self.scratch.show_help;
            }
            c => {
                let Effects { settings_changed, save_now } = self.session.apply(c, &mut self.persisted);
                self.scratch.settings_dirty |= settings_changed;
                if save_now {
                    self.save_settings();
                }
            }
        }
    }

    /// The shell's commands: loads and jobs, what is shown, messages.
    fn shell_command(&mut self, command: ShellCommand) {
        match command {
            ShellCommand::Open(source) => {
                self.jobs.open(source, None, &self.persisted);
            }
            ShellCommand::OpenSamplePair => self.open_sample_pair_now(),
            ShellCommand::OpenHistory(path) => match super::history_view::HistoryView::open(&path) {
                Ok(view) => self.scratch.history = Some(view),
                Err(e) => self.scratch.errors.push(e),
            },
            ShellCommand::OpenCompared(files) => self.open_compared_now(files),
            ShellCommand::OpenMapped { path, header, mapping } => {
                self.jobs.mapping_step = None;
                self.persisted.remember_mapping(&header, mapping.clone());
                self.save_settings();
                self.jobs.open(LoadSource::File(path), Some(mapping), &self.persisted);
            }
            ShellCommand::AttachMarkers(run, path) => {
                if self.session.run(run).is_some() {
                    self.jobs.attach_markers(run, path);
                }
            }
            ShellCommand::CancelLoad(id) => self.jobs.cancel_load(id),
            ShellCommand::WatchFolder(dir) => {
                if let Err(e) = self.watch_folder(&dir) {
                    self.scratch.errors.push(e);
                }
            }
            ShellCommand::StopWatching => self.stop_watching(),
            ShellCommand::Follow(path) => {
                if let Err(e) = self.jobs.follow(crate::app::work::live::LiveInput::File(path), false) {
                    self.scratch.errors.push(e);
                }
            }
            ShellCommand::StartRecording(request) => self.start_recording(*request),
            ShellCommand::StopRecording => {
                if let Some(r) = &self.jobs.recording {
                    r.stop();
                    self.scratch.status = Some("ending the recording…".into());
                }
            }
            ShellCommand::RecordHotkey(on) => self.jobs.hotkey.set(on, &self.ctx),
            ShellCommand::ListProcesses => self.jobs.list_processes(),
            ShellCommand::SaveLive { name, path } => self.save_live_now(&name, path),
            ShellCommand::ExportFrames { run, range, path, note } => {
                if let Some(r) = self.session.run(run) {
                    self.jobs.export_frames(Arc::clone(&r.capture), r.trace(), range, path, note);
                    self.scratch.status = Some("saving frames…".into());
                }
            }
            ShellCommand::ExportHtml { runs, path, note } => self.export_html(&runs, path, note),
            // Taken once a frame has drawn the header (title, runs, settings).
            ShellCommand::TimelinePng(path) => {
                self.scratch.png_header = true;
                self.scratch.png_pending = Some(path);
                self.ctx.request_repaint();
            }
            ShellCommand::ShowHelp(on) => self.scratch.show_help = on,
            ShellCommand::ShowRunsPanel(on) => self.scratch.show_runs_panel = on,
            ShellCommand::ShowChartsPanel(on) => self.scratch.show_charts_panel = on,
            ShellCommand::ShowPeersPanel(on) => self.show_peers_panel(on),
            ShellCommand::DismissError(k) => {
                if k < self.scratch.errors.len() {
                    self.scratch.errors.remove(k);
                }
            }
            ShellCommand::Status(text) => self.scratch.status = Some(text),
            ShellCommand::Error(text) => self.scratch.errors.push(text),
            ShellCommand::CancelMapping => {
                if let Some(step) = self.jobs.mapping_step.take() {
                    self.scratch.errors.push(format!("{}: {}", step.path.display(), step.unknown.message));
                }
            }
        }
    }

    /// Saves live capture `name` to `path`, never over an open capture.
    fn save_live_now(&mut self, name: &str, path: std::path::PathBuf) {
        let open =
            framescope_core::output::Inputs::new(self.session.runs().iter().filter_map(|r| r.path.clone()));
        if open.check("save", &path).is_err() {
            self.scratch.errors.push(format!(
                "{}: that is an open capture; framescope never writes over its inputs",
                path.display()
            ));
        } else if !self.jobs.save_live(name, path) {
            self.scratch.errors.push(format!("{name} is not a live capture"));
        }
    }

    /// Opens the synthetic A/B pair and compares them once both are loaded — the two of
    /// them only: captures already open stay open but leave the comparison.
    fn open_sample_pair_now(&mut self) {
        let loads: Vec<_> = super::PAIR
            .iter()
            .map(|&(name, bytes)| self.jobs.open(LoadSource::Embedded(name, bytes), None, &self.persisted))
            .collect();
        // Its first run is the baseline: named by its load (the run has no id yet).
        self.run_command(AppCommand::CompareWhenLoaded { baseline: loads.first().copied(), only_new: true });
    }

    /// Opens `files`, each in its set, and compares them once loaded, the first as
    /// baseline.
    fn open_compared_now(&mut self, files: Vec<(PathBuf, String)>) {
        let loads: Vec<_> = files
            .into_iter()
            .map(|(f, set)| (self.jobs.open(LoadSource::File(f), None, &self.persisted), set))
            .collect();
        let baseline = loads.first().map(|(l, _)| *l);
        self.run_command(AppCommand::SetsOfLoads(loads));
        self.run_command(AppCommand::CompareWhenLoaded { baseline, only_new: true });
    }

    /// Moves finished jobs into the session (or the error list) and keeps every run's
    /// background work in step with the settings.
    fn drain(&mut self) {
        self.jobs.take_processes();
        if let Some(result) = self.jobs.finished_export() {
            self.scratch.status = Some(saved_text(result));
        }
        for outcome in self.jobs.finished_loads() {
            match outcome {
                LoadOutcome::Loaded(loaded) => self.run_command(AppCommand::Opened(Box::new(loaded))),
                LoadOutcome::Cancelled(name) => {
                    self.scratch.status = Some(format!("loading {name} cancelled"));
                }
                LoadOutcome::NeedsMapping(step) => self.jobs.mapping_step = Some(step),
                LoadOutcome::Failed(e) => self.scratch.errors.push(e),
            }
        }
        let watch_errors = self.jobs.poll_watch();
        self.scratch.errors.extend(watch_errors);
        self.drain_recording();
        self.drain_live();
        self.place_recorded();
        if self.jobs.watch.is_some() || self.jobs.following() || self.jobs.recording.is_some() {
            // Keeps polling while nothing else repaints.
            self.ctx.request_repaint_after(super::watch::TICK);
        }
        if self.jobs.pending.is_empty() {
            self.run_command(AppCommand::LoadsFinished);
        }
        if let Some(first) = self.session.runs().first().map(|r| r.id)
            && let Some(path) = self.jobs.pending_markers.take()
        {
            // `--pcl` goes with the first capture given.
            self.jobs.attach_markers(first, path);
        }
        if let Some((run, name, result)) = self.jobs.finished_markers() {
            match result {
                Ok(log) => self.run_command(AppCommand::MarkersLoaded { run, name, log: Box::new(log) }),
                Err(e) => self.scratch.errors.push(e),
            }
        }
        let failures = self.session.sync_work(&self.persisted);
        for f in failures {
            push_error(&mut self.scratch, &f);
        }
        if !self.jobs.pending.is_empty() {
            self.ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    /// Opens and grows the live captures' runs.
    fn drain_live(&mut self) {
        for outcome in self.jobs.poll_live() {
            match outcome {
                LiveOutcome::Opened(loaded) => {
                    self.run_command(AppCommand::Opened(Box::new(loaded)));
                    if let Some(note) = self.session.take_note() {
                        self.scratch.status = Some(note);
                    }
                }
                LiveOutcome::Ended(name) => {
                    // Nothing more will come: the view stops following, and says why.
                    self.run_command(AppCommand::FollowLive(false));
                    self.scratch.status =
                        Some(format!("{name}: the input ended — the run is complete (Follow live is off)"));
                }
                LiveOutcome::Grew { name, capture } => self.run_command(AppCommand::Grew { name, capture }),
                LiveOutcome::Note(note) => self.scratch.status = Some(note),
                LiveOutcome::Saved(path) => {
                    self.scratch.status = Some(format!("saved the capture as read: {}", path.display()));
                }
                LiveOutcome::Failed(e) => self.scratch.errors.push(e),
            }
        }
    }

    /// Saves the settings now (unless saving is off), saying so when that fails.
    fn save_settings(&mut self) {
        if self.scratch.saving
            && self.scratch.screenshot_and_quit.is_none()
            && let Err(e) = self.persisted.save()
        {
            self.scratch.status = Some(format!("settings not saved: {e}"));
        }
    }

    /// Draws the whole window into `ui` (eframe's root, or a test harness).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.drain();
        self.take_dropped_files(&ctx);
        self.finish_screenshot(&ctx);
        self.escape_closes_windows(&ctx);
        let commands = egui::Panel::top("toolbar").show(ui, |ui| panels::toolbar_ui(ui, &self.model())).inner;
        self.run_commands(commands);
        let commands =
            egui::Panel::top("settings").show(ui, |ui| panels::settings_bar_ui(ui, &self.model())).inner;
        self.run_commands(commands);
        // The window's width (not the root Ui's, which a first sizing pass may shrink).
        let width = ui.ctx().content_rect().width().max(ui.available_width()).max(800.0);
        if self.scratch.show_runs_panel {
            self.side_panel(ui, width);
        }
        if self.scratch.show_peers_panel && !self.session.comparing() && !self.session.runs().is_empty() {
            panels::side_panel("peers", (width * 0.27).clamp(220.0, 420.0), (width * 0.4).max(200.0))
                .show(ui, |ui| panels::peers_panel_ui(ui, &self.model()));
        }
        if self.scratch.show_charts_panel {
            panels::charts_panel(width).show(ui, |ui| panels::charts_ui(ui, &self.model()));
        }
        let (commands, rect) =
            egui::CentralPanel::default().show(ui, |ui| panels::central_ui(ui, &self.model())).inner;
        self.scratch.timeline_rect = rect.or(self.scratch.timeline_rect);
        self.run_commands(commands);
        if self.scratch.png_header
            && let Some(path) = self.scratch.png_pending.take()
        {
            self.request_png(path, true);
        }
        let commands = panels::help_ui(&ctx, self.scratch.show_help);
        self.run_commands(commands);
        if let Some(view) = self.scratch.history.as_mut() {
            let (commands, open) = super::history_view::history_ui(&ctx, view);
            if !open {
                self.scratch.history = None;
            }
            self.run_commands(commands);
        }
        if let Some(step) = self.jobs.mapping_step.as_mut() {
            let commands = super::mapping::mapping_ui(&ctx, step);
            self.run_commands(commands);
        }
        if self.scratch.settings_dirty && !ctx.input(|i| i.pointer.any_down()) {
            self.scratch.settings_dirty = false;
            self.save_settings();
        }
    }

    /// Shows or hides the "As other tools report it" panel; in a window under 1600
    /// points wide, showing it hides the charts panel (and says so), so that the
    /// timeline keeps about half the window instead of a sliver.
    fn show_peers_panel(&mut self, on: bool) {
        self.scratch.show_peers_panel = on;
        if on && self.scratch.show_charts_panel && self.ctx.content_rect().width() < 1600.0 {
            self.scratch.show_charts_panel = false;
            self.scratch.status = Some(
                "charts panel hidden to keep the timeline wide (View › Charts panel shows it again)".into(),
            );
        }
    }

    /// Starts writing the HTML page of `runs` (those with figures) to `path`.
    fn export_html(
        &mut self,
        runs: &[crate::app::session::RunId],
        path: std::path::PathBuf,
        note: &'static str,
    ) {
        let pages: Vec<jobs::PageJob> = runs
            .iter()
            .filter_map(|&id| {
                let r = self.session.run(id)?;
                let a = r.analyzed()?;
                let (run, settings, trim) = (a.run.clone(), a.settings, a.trim);
                Some(jobs::PageJob { run, settings, trim, capture: Arc::clone(&r.capture), trace: r.trace() })
            })
            .collect();
        if pages.is_empty() {
            self.scratch.status = Some("no figures to export yet".into());
        } else {
            self.jobs.export_html(pages, path, note);
            self.scratch.status = Some("writing the HTML page…".into());
        }
    }

    /// Esc closes the open windows (the keyboard help, History, the typed path, Record)
    /// and goes no further; with none open it reaches the timeline (clears the selection).
    fn escape_closes_windows(&mut self, ctx: &egui::Context) {
        if !ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            return;
        }
        let mut closed = panels::close_windows(ctx);
        closed |= std::mem::take(&mut self.scratch.show_help);
        closed |= self.scratch.history.take().is_some();
        if closed {
            ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
        }
    }

    /// The runs and figures panel: each part's commands are applied before the next
    /// part draws, so the figures follow a run picked above them at once.
    fn side_panel(&mut self, ui: &mut egui::Ui, width: f32) {
        // Side panels start at a share of the window (a small window keeps room for the
        // timeline). Comparing starts the left one wider, for the comparison table.
        // The comparison table needs about 520 px for its verdicts ("better", "worse")
        // to show whole: a small window (1280 × 720) gives it that much.
        let (id, share, least, most) = match (self.session.comparing(), self.session.sets_mode()) {
            // The sets' table has an interval column more.
            (true, true) => ("runs_sets", 0.43, 200.0_f32, 640.0),
            (true, false) => ("runs_compare", 0.36, 520.0, 520.0),
            _ => ("runs", 0.23, 200.0, 460.0),
        };
        let default = (width * share).clamp(least.min(width * 0.42), most);
        panels::side_panel(id, default, (width * 0.5).max(200.0)).show(ui, |ui| {
            panels::scrolled(ui, |ui| {
                for part in panels::SIDE_PARTS {
                    let commands = part(ui, &self.model());
                    self.run_commands(commands);
                }
            });
        });
    }

    fn take_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        for path in dropped {
            self.jobs.open(LoadSource::File(path), None, &self.persisted);
        }
    }
}

/// Adds a failure to the error list once: an error already listed, or the same run's
/// earlier analysis failure (each trim or settings change would add another), is
/// replaced.
fn push_error(scratch: &mut UiScratch, f: &crate::app::session::Failure) {
    let text = f.to_string();
    let earlier = match f {
        crate::app::session::Failure::Analysis { run, .. } => {
            scratch.analysis_errors.insert(run.clone(), text.clone())
        }
        crate::app::session::Failure::Other(_) => None,
    };
    scratch.errors.retain(|old| *old != text && Some(old) != earlier.as_ref());
    scratch.errors.push(text);
}

/// A save's result for the status line.
pub(crate) fn saved_text(result: Result<String, String>) -> String {
    match result {
        Ok(p) => format!("saved {p}"),
        Err(e) => format!("not saved: {e}"),
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }
}
