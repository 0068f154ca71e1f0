//! [`Session::apply`]: the one place the session changes. It names every command
//! variant (no catch-all: a new command is a compile error until it is handled here),
//! each handled by a small function below; after every command the view is fitted
//! when what it shows changed, and the comparison's frame-time source and the sets'
//! comparisons follow.

use super::command::{AppCommand, Effects, Loaded};
use super::{OpenRun, RunId, Session, TimeView, TimelineCommand as Command, WhenLoaded};
use crate::app::settings::Persisted;
use crate::app::work::LoadId;
use framescope_core::analysis::Trim;
use framescope_core::presentation::{auto_sets, named_application};

impl Session {
    /// The set each open run would open in by its file name and application
    /// ([`auto_sets`]), in run order.
    fn auto_sets(&self) -> Vec<String> {
        let runs: Vec<(&str, Option<&str>)> =
            self.runs.iter().map(|r| (r.label.as_str(), named_application(&r.capture, r.trace()))).collect();
        auto_sets(&runs)
    }

    /// Applies `command` (a [`AppCommand::Shell`] is the shell's and does nothing
    /// here); a command that changes a setting the user keeps writes it to
    /// `persisted` and says so in the returned [`Effects`].
    pub fn apply(&mut self, command: AppCommand, persisted: &mut Persisted) -> Effects {
        let mut effects = Effects::default();
        match command {
            // Runs: opened, grown, closed, and what the user did with one.
            AppCommand::Opened(loaded) => effects.save_now = self.open(*loaded, persisted),
            AppCommand::Grew { name, capture } => self.grow(&name, *capture),
            AppCommand::FollowLive(on) => self.follow_live = on,
            AppCommand::Close(id) => self.close(id),
            AppCommand::Rename(id, label) => self.with_run(id, |r| r.label = label),
            AppCommand::ShowTrace { run, trace } => self.show_trace(run, trace),
            AppCommand::SelectRun(id) => self.show_run(id),
            AppCommand::MarkersLoaded { run, name, log } => {
                self.with_run(run, |r| r.attach_markers(name, *log));
            }
            AppCommand::RefreshRate(id, hz) => self.with_run(id, |r| r.refresh_hz = hz),
            AppCommand::Offset(id, ms) => self.with_run(id, |r| r.offset_ms = ms),
            // The timelines.
            AppCommand::Timeline { run, command } => {
                effects.settings_changed = self.apply_timeline(run, command, persisted);
            }
            AppCommand::CursorLeft => self.cursor_ms = None,
            // The comparison.
            AppCommand::Compare { on, baseline } => self.set_compare(on, baseline),
            AppCommand::CompareWhenLoaded { baseline, only_new } => {
                self.compare_when_loaded(baseline, only_new);
            }
            AppCommand::SetsOfLoads(sets) => self.sets_of_loads.extend(sets),
            AppCommand::LoadsFinished => self.loads_finished(),
            AppCommand::Baseline(id) => self.set_baseline(id),
            AppCommand::Compared(id, on) => self.with_run(id, |r| r.compared = on),
            AppCommand::SharedScale(on) => self.shared_scale = on,
            AppCommand::Convention(c) => self.convention = c,
            // Sets of runs.
            AppCommand::PinSet(set) => self.pinned_set = set,
            AppCommand::MoveToSet(id, set) => self.with_run(id, |r| set.trim().clone_into(&mut r.set)),
            AppCommand::GroupByFileName => self.group_by_file_name(),
            AppCommand::OneSetPerRun => self.runs.iter_mut().for_each(|r| r.set.clone_from(&r.label)),
            AppCommand::ToggleOutlier(id) => self.with_run(id, |r| r.keep_outlier = !r.keep_outlier),
            // Trims and the settings the user keeps.
            AppCommand::TrimAll { start_s, end_s } => {
                effects.settings_changed = set_trim_all(persisted, start_s, end_s);
            }
            AppCommand::RunTrim(id, trim) => {
                effects.settings_changed = self.set_run_trim(id, trim, persisted);
            }
            AppCommand::TargetFps(v) => effects.settings_changed = saved(persisted, |p| p.target_fps = v),
            AppCommand::StutterThreshold(v) => {
                effects.settings_changed = saved(persisted, |p| p.stutter_threshold = v);
            }
            AppCommand::StutterFloor(v) => {
                effects.settings_changed = saved(persisted, |p| p.stutter_floor_ms = v);
            }
            AppCommand::FrameTime(v) => effects.settings_changed = saved(persisted, |p| p.frame_time = v),
            AppCommand::NoiseBand(v) => effects.settings_changed = saved(persisted, |p| p.noise_band = v),
            AppCommand::OutlierLimit(v) => {
                effects.settings_changed = saved(persisted, |p| p.outlier_limit = v);
            }
            AppCommand::ExportDir(dir) => effects.settings_changed = saved(persisted, |p| p.export_dir = dir),
            AppCommand::RecordSettings { dir, mangohud, program } => {
                effects.settings_changed = saved(persisted, |p| p.remember_recording(dir, mangohud, program));
            }
            AppCommand::CompareView(v) => effects.settings_changed = saved(persisted, |p| p.compare_view = v),
            AppCommand::Rows { format, shown } => {
                let remember =
                    |p: &mut Persisted| crate::app::row_choice::remember(&mut p.row_choices, &format, shown);
                effects.settings_changed = saved(persisted, remember);
            }
            // The shell's own (loads, jobs, what the window shows).
            AppCommand::Shell(_) => {}
        }
        self.fit_if_needed();
        self.refresh_compare_source();
        self.refresh_sets_cache(persisted);
        effects
    }

    /// Opens a loaded capture as a run (with its saved trim), shown; one from the
    /// watched folder is compared against the pinned set. True when its file joined
    /// the recent files.
    fn open(&mut self, loaded: Loaded, persisted: &mut Persisted) -> bool {
        let Loaded { load, name, path, capture, from_watch } = loaded;
        let id = RunId(self.next_id);
        self.next_id += 1;
        let mut run = OpenRun::new(id, name, path.clone(), capture);
        if let Some(path) = &path {
            // Absolute, so that Open recent works from any folder.
            let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            persisted.remember(&absolute);
            run.trim = persisted.run_trim(&absolute).map(|(start_s, end_s)| Trim { start_s, end_s });
        }
        self.runs.push(run);
        // Its set among the open runs: apart from a same-named run of another game.
        if let (Some(set), Some(r)) = (self.auto_sets().pop(), self.runs.last_mut()) {
            r.set = set;
        }
        // The set asked for with its load (a build of a history).
        if let Some(k) = self.sets_of_loads.iter().position(|(l, _)| Some(*l) == load) {
            let (_, set) = self.sets_of_loads.swap_remove(k);
            if let Some(r) = self.runs.last_mut() {
                r.set = set;
            }
        }
        // The baseline of a comparison asked for with the loads, now that it has an id.
        if let Some(w) = &mut self.compare_when_loaded
            && load.is_some()
            && w.baseline == load
        {
            w.opened = Some(id);
        }
        self.selected = Some(id);
        if from_watch {
            self.compare_newest();
        }
        self.view_fitted = false;
        self.selection = None;
        self.selected_frame = None;
        path.is_some()
    }

    /// Changes run `id`, if it is open.
    fn with_run(&mut self, id: RunId, change: impl FnOnce(&mut OpenRun)) {
        if let Some(r) = self.runs.iter_mut().find(|r| r.id == id) {
            change(r);
        }
    }

    /// Shows trace `trace` of run `id` and that run (nothing when the run is not open
    /// or its capture has no such trace).
    fn show_trace(&mut self, id: RunId, trace: usize) {
        if self.run(id).is_some_and(|r| trace < r.capture.traces.len()) {
            self.with_run(id, |r| r.set_trace(trace));
            self.show_run(id);
        }
    }

    /// Shows run `id`'s figures: a new time selection and frame, a fitted view.
    fn show_run(&mut self, id: RunId) {
        if self.run(id).is_some() {
            self.selected = Some(id);
            self.view_fitted = false;
            self.selection = None;
            self.selected_frame = None;
        }
    }

    /// Closes run `id`: every other run keeps its id; a shown or baseline run hands
    /// its role to the run now at its place (or the last); its selected frame goes.
    fn close(&mut self, id: RunId) {
        let Some(i) = self.index_of(id) else { return };
        self.runs.remove(i);
        let successor = self.runs.get(i.min(self.runs.len().saturating_sub(1))).map(|r| r.id);
        if self.selected == Some(id) {
            self.selected = successor;
        }
        if self.baseline == Some(id) {
            self.baseline = successor;
        }
        self.selected_frame = self.selected_frame.filter(|(r, _)| *r != id);
        if self.runs.len() < 2 {
            self.compare = false;
        }
        self.view_fitted = false;
    }

    /// A command from run `id`'s timeline (nothing when that run is not open): its
    /// times are that run's own and become aligned times here, so every compared
    /// timeline follows. True when a saved setting changed (a dragged trim edge, the
    /// rows shown or their heights).
    fn apply_timeline(&mut self, id: RunId, command: Command, persisted: &mut Persisted) -> bool {
        if self.run(id).is_none() {
            return false;
        }
        let s = self.shift(id);
        match command {
            Command::View(v) => self.view = TimeView { start_ms: v.start_ms - s, span_ms: v.span_ms },
            // A drag released where it started selects nothing.
            Command::Select(range) => {
                self.selection = range.filter(|(a, b)| (b - a).abs() > 1e-9).map(|(a, b)| (a - s, b - s));
            }
            Command::SelectFrame(f) => self.selected_frame = f.map(|f| (id, f)),
            Command::Cursor(t) => self.cursor_ms = Some(t - s),
            Command::Trim { start, at_ms } => return self.drag_trim(id, start, at_ms, persisted),
            Command::Row { track, action } => return self.edit_rows(id, track, action, persisted),
            Command::RowHeight { row, height } => return self.resize_row(id, row, height, persisted),
            Command::ResetView => self.fit_view(),
            Command::ZoomToSelection => {
                if let Some((a, b)) = self.selection {
                    self.view = TimeView::fit(a.min(b), a.max(b));
                }
            }
            // The shell's: the help is not the session's.
            Command::ToggleHelp => {}
        }
        false
    }

    /// A trim edge of run `id` dragged to `at_ms` (its own time): moves the run's own
    /// trim when it has one, else the trim for all runs (whole milliseconds; the two
    /// trims never meet). True when a saved setting changed.
    fn drag_trim(&mut self, id: RunId, start: bool, at_ms: f64, persisted: &mut Persisted) -> bool {
        let Some(r) = self.run(id) else { return false };
        let trace = r.shown_trace();
        let Some(&t0) = trace.frames.start_ms.first() else { return false };
        let span_s = Trim::span_s(trace);
        let mut trim = self.run_trim(id, persisted);
        let s = (at_ms - t0).round() / 1000.0;
        if start {
            trim.start_s = s.clamp(0.0, (span_s - trim.end_s - 0.001).max(0.0));
        } else {
            trim.end_s = (span_s - s).clamp(0.0, (span_s - trim.start_s - 0.001).max(0.0));
        }
        if r.trim.is_some() {
            self.set_run_trim(id, Some(trim), persisted)
        } else {
            set_trim_all(persisted, trim.start_s, trim.end_s)
        }
    }

    /// Gives run `id` a trim of its own (`None`: the trim for all runs again), saved by
    /// its path. True when a saved setting changed.
    fn set_run_trim(&mut self, id: RunId, trim: Option<Trim>, persisted: &mut Persisted) -> bool {
        self.with_run(id, |r| r.trim = trim);
        let Some(path) = self.run(id).and_then(|r| r.path.as_ref()) else { return false };
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        saved(persisted, |p| {
            p.set_run_trim(&absolute, trim.map(|t| (t.start_s, t.end_s)));
        })
    }

    /// Asks for a comparison once every load has finished, with the run load
    /// `baseline` opens as its baseline (`None`: the first run); with `only_new`, the
    /// runs open now leave the comparison.
    fn compare_when_loaded(&mut self, baseline: Option<LoadId>, only_new: bool) {
        if only_new {
            for r in &mut self.runs {
                r.compared = false;
            }
        }
        self.compare_when_loaded = Some(WhenLoaded { baseline, opened: None });
    }

    /// Every load asked for has finished: starts the comparison asked for with them,
    /// once. Its baseline is the run its load opened; the first run when none was named
    /// or that load failed.
    fn loads_finished(&mut self) {
        if let Some(w) = self.compare_when_loaded.take() {
            let baseline = w.opened.or_else(|| self.first());
            self.set_compare(true, baseline);
        }
    }

    /// Makes run `id` the baseline (and compared), if it is open.
    fn set_baseline(&mut self, id: RunId) {
        if self.run(id).is_some() {
            self.baseline = Some(id);
            self.with_run(id, |r| r.compared = true);
        }
    }

    /// Puts every run in the set its file name and application give it ([`auto_sets`]).
    fn group_by_file_name(&mut self) {
        let sets = self.auto_sets();
        for (r, set) in self.runs.iter_mut().zip(sets) {
            r.set = set;
        }
    }
}

/// Changes the settings the user keeps with `change`; true when they changed (to be
/// saved).
fn saved(persisted: &mut Persisted, change: impl FnOnce(&mut Persisted)) -> bool {
    let before = persisted.clone();
    change(persisted);
    *persisted != before
}

/// The trim of every run without its own (negative seconds are 0); true when it changed.
fn set_trim_all(persisted: &mut Persisted, start_s: f64, end_s: f64) -> bool {
    saved(persisted, |p| {
        p.trim_start_s = start_s.max(0.0);
        p.trim_end_s = end_s.max(0.0);
    })
}
