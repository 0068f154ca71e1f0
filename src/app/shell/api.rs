//! What code outside the window calls on [`App`] — the launcher, the benchmarks and
//! the window tests (`tests/window*.rs`): each a thin wrapper that reads the state or
//! applies the command a user's action would give. Runs are named by their [`RunId`],
//! as in the session ([`App::run_ids`] gives them in the order the runs opened).

use super::App;
use crate::app::session::{AppCommand, Loaded, RunId, ShellCommand, TimeView, TimelineCommand as Command};
use crate::app::settings::Persisted;
use crate::app::work::LoadSource;
use crate::app::work::live::LiveInput;
use eframe::egui;
use framescope_core::analysis::Trim;
use framescope_core::report::compare::Section;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

impl App {
    /// The open runs' ids, in the order the runs opened.
    #[must_use]
    pub fn run_ids(&self) -> Vec<RunId> {
        self.session.runs().iter().map(|r| r.id).collect()
    }

    /// Opens `files`, or the bundled sample when there are none.
    pub fn open_all(&mut self, files: &[PathBuf], ctx: &egui::Context) {
        if files.is_empty() {
            self.open(LoadSource::Embedded(crate::app::SAMPLE_NAME, crate::app::SAMPLE), ctx);
        }
        for f in files {
            if f.as_os_str() == "-" {
                // Standard input is a live capture (`PresentMon --output_stdout | framescope -`).
                if let Err(e) = self.jobs.follow(LiveInput::Stdin, false) {
                    self.scratch.errors.push(e);
                }
                continue;
            }
            self.open(LoadSource::File(f.clone()), ctx);
        }
    }

    /// Follows `files` as live captures (`--follow`) and watches `watch` (`--watch`);
    /// what fails to start is in the error list.
    pub fn follow_all(&mut self, files: &[PathBuf], watch: Option<&Path>) {
        for f in files {
            if let Err(e) = self.jobs.follow(LiveInput::File(f.clone()), false) {
                self.scratch.errors.push(e);
            }
        }
        if let Some(dir) = watch
            && let Err(e) = self.watch_folder(dir)
        {
            self.scratch.errors.push(e);
        }
    }

    /// Follows `input` as a live capture named `name`, as `framescope -` follows
    /// standard input: its run opens with the first rows and grows with the rest.
    pub fn follow_reader(&mut self, name: &str, input: Box<dyn std::io::Read + Send>) {
        if let Err(e) = self.jobs.follow(LiveInput::Reader(name.to_owned(), input), false) {
            self.scratch.errors.push(e);
        }
    }

    /// Opens the synthetic A/B pair and compares them once both are loaded — the two of
    /// them only: captures already open stay open but leave the comparison.
    pub fn open_sample_pair(&mut self, _ctx: &egui::Context) {
        self.run_command(ShellCommand::OpenSamplePair.into());
    }

    /// Shows the scenes and builds of a history (File › Open history…).
    pub fn open_history(&mut self, path: &std::path::Path) {
        self.run_command(ShellCommand::OpenHistory(path.to_owned()).into());
    }

    /// Starts loading a capture on a worker thread.
    pub fn open(&mut self, source: LoadSource, _ctx: &egui::Context) {
        self.run_command(ShellCommand::Open(source).into());
    }

    /// Opens a capture that is already loaded (benchmarks, tests, embedding).
    pub fn open_capture(&mut self, name: &str, capture: framescope_core::model::Capture) {
        let loaded = Loaded { load: None, name: name.to_owned(), path: None, capture, from_watch: false };
        self.run_command(AppCommand::Opened(Box::new(loaded)));
    }

    /// Compares the runs once every load has finished, the first as baseline
    /// (`--compare`).
    pub fn compare_when_loaded(&mut self) {
        self.run_command(AppCommand::CompareWhenLoaded { baseline: None, only_new: false });
    }

    /// True when nothing is loading or computing (tests wait for this).
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.jobs.is_idle() && self.session.is_idle(&self.persisted)
    }

    /// What [`App::is_idle`] is waiting for, in words (for test failure messages).
    #[must_use]
    pub fn idle_report(&self) -> String {
        format!("{}, {}", self.jobs.idle_report(), self.session.idle_report(&self.persisted))
    }

    /// The baseline run's name, when comparing.
    #[must_use]
    pub fn baseline_name(&self) -> Option<&str> {
        let s = &self.session;
        s.baseline().filter(|_| s.comparing()).and_then(|id| s.run(id)).map(|r| r.name.as_str())
    }

    /// Shows trace `trace` of run `run` (what the trace picker does).
    pub fn show_trace(&mut self, run: RunId, trace: usize) {
        self.run_command(AppCommand::ShowTrace { run, trace });
    }

    /// Closes run `id` (what its close button does).
    pub fn close_run(&mut self, id: RunId) {
        self.run_command(AppCommand::Close(id));
    }

    /// Reads a PCL Stats marker log on a worker thread and attaches it to the shown
    /// capture.
    pub fn attach_marker_log(&mut self, path: PathBuf) {
        if let Some(run) = self.session.selected_run().map(|r| r.id) {
            self.run_command(ShellCommand::AttachMarkers(run, path).into());
        }
    }

    /// A PCL marker log to attach to the first capture once it is open (`--pcl`).
    pub fn attach_marker_log_to_first(&mut self, path: PathBuf) {
        self.jobs.pending_markers = Some(path);
    }

    /// Turns saving settings and recent files to the user's config folder on or off
    /// (tests and `--screenshot` leave it off).
    pub fn set_saving(&mut self, on: bool) {
        self.scratch.saving = on;
    }

    /// `--screenshot`: save a PNG of the window at `path` once everything is loaded,
    /// then close; `failed` is set when a capture failed to load.
    pub fn screenshot_and_quit(&mut self, path: PathBuf, failed: Arc<Mutex<bool>>) {
        self.scratch.saving = false;
        self.scratch.screenshot_and_quit = Some((path, failed));
    }

    /// Shows a peer tool's figures: the comparison's, and the "As other tools report
    /// it" panel (`--convention`).
    pub fn show_convention(&mut self, tool: Section) {
        self.run_command(AppCommand::Convention(Some(tool)));
        self.run_command(ShellCommand::ShowPeersPanel(true).into());
    }

    /// The visible time range, on the shown trace's own time axis (the aligned axis
    /// with no run open).
    #[must_use]
    pub fn view(&self) -> TimeView {
        self.session.selected().map_or_else(|| self.session.aligned_view(), |id| self.session.view_of(id))
    }

    /// The visible time range on run `run`'s own time axis (compared runs share one
    /// aligned axis, each moved by its own shift).
    #[must_use]
    pub fn view_of(&self, run: RunId) -> TimeView {
        self.session.view_of(run)
    }

    /// The selected time range on the shown trace's own time axis, if any.
    #[must_use]
    pub fn selection(&self) -> Option<(f64, f64)> {
        self.session.selected().and_then(|id| self.session.selection_of(id))
    }

    /// The selected frame: its run and the frame's index in that run's shown trace.
    #[must_use]
    pub fn selected_frame(&self) -> Option<(RunId, usize)> {
        self.session.selected_frame()
    }

    /// The charts panel's selection curve: frame time at percentile `p` (%) of the
    /// shown run's time selection, once its charts are computed.
    #[must_use]
    pub fn selection_chart_percentile(&self, p: f64) -> Option<f64> {
        let run = self.session.selected_run()?;
        let range = self.session.selection_of(run.id)?;
        let settings = self.session.run_settings(run.id, &self.persisted);
        run.selection_charts(&settings, self.session.run_trim(run.id, &self.persisted), range)?
            .percentile_at(p)
    }

    /// Saves the timeline as a PNG at `path` (as Export › Timeline PNG does once the
    /// file is chosen): the picture has a header with the runs and the settings.
    pub fn export_timeline_png(&mut self, path: PathBuf) {
        self.run_command(ShellCommand::TimelinePng(path).into());
    }

    /// Compares the open runs side by side (those marked compared), run `baseline`
    /// first (`None`: the current baseline).
    pub fn set_compare(&mut self, on: bool, baseline: Option<RunId>) {
        self.run_command(AppCommand::Compare { on, baseline });
    }

    /// True when runs are compared side by side.
    #[must_use]
    pub fn comparing(&self) -> bool {
        self.session.comparing()
    }

    /// Names of the open captures.
    #[must_use]
    pub fn run_names(&self) -> Vec<String> {
        self.session.runs().iter().map(|r| r.name.clone()).collect()
    }

    /// What the window calls each open run (the file name, or the name the user gave).
    #[must_use]
    pub fn run_labels(&self) -> Vec<String> {
        self.session.runs().iter().map(|r| r.label.clone()).collect()
    }

    /// Each open run's set.
    #[must_use]
    pub fn run_sets(&self) -> Vec<String> {
        self.session.runs().iter().map(|r| r.set.clone()).collect()
    }

    /// Puts run `id` in the set called `name`.
    pub fn set_run_set(&mut self, id: RunId, name: &str) {
        self.run_command(AppCommand::MoveToSet(id, name.to_owned()));
    }

    /// Groups every open run by its file name's prefix.
    pub fn group_by_prefix(&mut self) {
        self.run_command(AppCommand::GroupByFileName);
    }

    /// The columns of the CSV waiting in the *Map columns* step, if one is.
    #[must_use]
    pub fn mapping_columns(&self) -> Option<&[String]> {
        self.jobs.mapping_step.as_ref().map(|s| s.unknown.columns.as_slice())
    }

    /// True while a recording (File › Record…) is under way.
    #[must_use]
    pub fn recording(&self) -> bool {
        self.jobs.recording.is_some()
    }

    /// The Record window's global hotkey: `off`, `on` or `unavailable: why`.
    #[must_use]
    pub fn record_hotkey(&self) -> String {
        match self.jobs.hotkey.state() {
            crate::app::hotkey::HotkeyState::Off => "off".into(),
            crate::app::hotkey::HotkeyState::On => "on".into(),
            crate::app::hotkey::HotkeyState::Unavailable(why) => format!("unavailable: {why}"),
        }
    }

    /// A press of the global hotkey, as the key makes it (where there is no X server).
    pub fn press_record_hotkey(&self) {
        self.jobs.hotkey.press();
    }

    /// The status line's text (what was saved, what is under way), if any.
    #[must_use]
    pub fn status(&self) -> Option<&str> {
        self.scratch.status.as_deref()
    }

    /// Error messages shown in the window.
    #[must_use]
    pub fn errors(&self) -> &[String] {
        &self.scratch.errors
    }

    /// The settings the user chose.
    #[must_use]
    pub fn persisted(&self) -> &Persisted {
        &self.persisted
    }

    /// The trim run `id` is analysed with: its own, else the one for all runs.
    #[must_use]
    pub fn run_trim(&self, id: RunId) -> Trim {
        self.session.run_trim(id, &self.persisted)
    }

    /// Sets the trim of every run without its own (seconds at the start and end).
    pub fn set_trim_all(&mut self, start_s: f64, end_s: f64) {
        self.run_command(AppCommand::TrimAll { start_s, end_s });
    }

    /// Gives run `id` a trim of its own (`None`: the trim for all runs again), saved
    /// with the capture's path.
    pub fn set_run_trim(&mut self, id: RunId, trim: Option<Trim>) {
        self.run_command(AppCommand::RunTrim(id, trim));
    }

    /// Applies a timeline command given on the shown trace's own time axis.
    pub fn apply(&mut self, command: Command) {
        if let Some(run) = self.session.selected_run().map(|r| r.id) {
            self.run_command(AppCommand::Timeline { run, command });
        } else if command == Command::ToggleHelp {
            self.scratch.show_help = !self.scratch.show_help;
        }
    }

    /// The figures shown for run `id` (for the capture it holds now: a growing run's
    /// older figures are not returned), if computed.
    #[must_use]
    pub fn run_figures(&self, id: RunId) -> Option<&framescope_core::report::Run> {
        let run = self.session.run(id)?;
        let (settings, trim) =
            (self.session.run_settings(id, &self.persisted), self.session.run_trim(id, &self.persisted));
        run.up_to_date(&settings, trim, None).then(|| run.analyzed().map(|a| &a.run)).flatten()
    }

    /// The frames of the shown trace of run `id` (as loaded so far, for a live
    /// capture).
    #[must_use]
    pub fn run_frame_count(&self, id: RunId) -> Option<usize> {
        self.session.run(id).map(|r| r.shown_trace().frames.frame_time_ms.len())
    }

    /// Starts watching `dir` (and remembers it): captures written into it from now on
    /// open once complete; those already there are left alone.
    pub fn watch_folder(&mut self, dir: &Path) -> Result<(), String> {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        self.jobs.watch_folder(&dir)?;
        self.scratch.status = Some(format!("watching {} for new captures", dir.display()));
        if self.persisted.watch_dir != dir {
            self.persisted.watch_dir = dir;
            self.scratch.settings_dirty = true;
        }
        Ok(())
    }

    /// Stops watching (the folder stays remembered for Watch folder… next time).
    pub fn stop_watching(&mut self) {
        if let Some(w) = self.jobs.watch.take() {
            self.scratch.status = Some(format!("stopped watching {}", w.dir.display()));
        }
    }

    /// The watched folder, if any.
    #[must_use]
    pub fn watched(&self) -> Option<&Path> {
        self.jobs.watch.as_ref().map(|w| w.dir.as_path())
    }
}
