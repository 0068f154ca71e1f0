//! [`Session::apply`]: the one place the session changes. Each group of commands has
//! its own function below; after every command the view is fitted when what it shows
//! changed, and the comparison's frame-time source and the sets' comparisons follow.

use super::command::{AppCommand, Effects, Loaded};
use super::{OpenRun, RunId, Session};
use crate::app::settings::Persisted;
use crate::app::timeline::{Command, TimeView};
use framescope_core::analysis::Trim;
use framescope_core::presentation::grouping::{auto_sets, named_application};

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
            AppCommand::Opened(loaded) => effects.save_now = self.open(*loaded, persisted),
            AppCommand::Timeline { run, command } => {
                if let Some(i) = self.index_of(run) {
                    effects.settings_changed = self.apply_timeline(i, command, persisted);
                }
            }
            AppCommand::CursorLeft => self.cursor_ms = None,
            AppCommand::Grew { name, capture } => self.grow(&name, *capture),
            AppCommand::FollowLive(on) => self.follow_live = on,
            c @ (AppCommand::TrimAll { .. }
            | AppCommand::RunTrim(..)
            | AppCommand::TargetFps(_)
            | AppCommand::StutterThreshold(_)
            | AppCommand::StutterFloor(_)
            | AppCommand::FrameTime(_)
            | AppCommand::NoiseBand(_)
            | AppCommand::OutlierLimit(_)
            | AppCommand::ExportDir(_)
            | AppCommand::Rows { .. }
            | AppCommand::CompareView(_)) => effects.settings_changed = self.apply_setting(c, persisted),
            c @ (AppCommand::Compare { .. }
            | AppCommand::CompareWhenLoaded { .. }
            | AppCommand::LoadsFinished
            | AppCommand::Baseline(_)
            | AppCommand::Compared(..)
            | AppCommand::SharedScale(_)
            | AppCommand::Convention(_)) => self.apply_compare(c),
            c @ (AppCommand::PinSet(_)
            | AppCommand::MoveToSet(..)
            | AppCommand::GroupByFileName
            | AppCommand::OneSetPerRun
            | AppCommand::ToggleOutlier(_)) => self.apply_sets(c),
            AppCommand::Shell(_) => {}
            c => self.apply_run(c),
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
        let Loaded { name, path, capture, from_watch } = loaded;
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
        self.selected = Some(id);
        if from_watch {
            self.compare_newest();
        }
        self.view_fitted = false;
        self.selection = None;
        self.selected_frame = None;
        path.is_some()
    }

    /// Commands about one run: close, rename, its trace, shown, markers, refresh rate,
    /// offset.
    fn apply_run(&mut self, command: AppCommand) {
        match command {
            AppCommand::Close(id) => self.close(id),
            AppCommand::Rename(id, label) => self.with_run(id, |r| r.label = label),
            AppCommand::ShowTrace { run, trace }
                if self.run(run).is_some_and(|r| trace < r.capture.traces.len()) =>
            {
                self.with_run(run, |r| r.set_trace(trace));
                self.show_run(run);
            }
            AppCommand::SelectRun(id) => self.show_run(id),
            AppCommand::MarkersLoaded { run, name, log } => {
                self.with_run(run, |r| r.attach_markers(name, *log));
            }
            AppCommand::RefreshRate(id, hz) => self.with_run(id, |r| r.refresh_hz = hz),
            AppCommand::Offset(id, ms) => self.with_run(id, |r| r.offset_ms = ms),
            _ => {}
        }
    }

    /// Changes run `id`, if it is open.
    fn with_run(&mut self, id: RunId, change: impl FnOnce(&mut OpenRun)) {
        if let Some(r) = self.runs.iter_mut().find(|r| r.id == id) {
            change(r);
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

    /// A command from run `i`'s timeline: its times are that run's own and become
    /// aligned times here, so every compared timeline follows. True when a dragged
    /// trim edge changed the trim for all runs (a saved setting).
    fn apply_timeline(&mut self, i: usize, command: Command, persisted: &mut Persisted) -> bool {
        let s = self.shift(i);
        match command {
            Command::View(v) => self.view = TimeView { start_ms: v.start_ms - s, span_ms: v.span_ms },
            // A drag released where it started selects nothing.
            Command::Select(range) => {
                self.selection = range.filter(|(a, b)| (b - a).abs() > 1e-9).map(|(a, b)| (a - s, b - s));
            }
            Command::SelectFrame(f) => self.selected_frame = f.map(|f| (self.runs[i].id, f)),
            Command::Cursor(t) => self.cursor_ms = Some(t - s),
            Command::Trim { start, at_ms } => return self.drag_trim(i, start, at_ms, persisted),
            Command::Row { track, action } => return self.edit_rows(i, track, action, persisted),
            Command::RowHeight { row, height } => return self.resize_row(i, row, height, persisted),
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

    /// A trim edge of run `i` dragged to `at_ms` (its own time): moves the run's own
    /// trim when it has one, else the trim for all runs (whole milliseconds; the two
    /// trims never meet). True when a saved setting changed.
    fn drag_trim(&mut self, i: usize, start: bool, at_ms: f64, persisted: &mut Persisted) -> bool {
        let r = &self.runs[i];
        let trace = r.shown_trace();
        let Some(&t0) = trace.frames.start_ms.first() else { return false };
        let span_s = Trim::span_s(trace);
        let mut trim = self.run_trim(i, persisted);
        let s = (at_ms - t0).round() / 1000.0;
        if start {
            trim.start_s = s.clamp(0.0, (span_s - trim.end_s - 0.001).max(0.0));
        } else {
            trim.end_s = (span_s - s).clamp(0.0, (span_s - trim.start_s - 0.001).max(0.0));
        }
        let command = if r.trim.is_some() {
            AppCommand::RunTrim(r.id, Some(trim))
        } else {
            AppCommand::TrimAll { start_s: trim.start_s, end_s: trim.end_s }
        };
        self.apply_setting(command, persisted)
    }

    /// Trims and the settings the user keeps; true when a saved setting changed.
    fn apply_setting(&mut self, command: AppCommand, persisted: &mut Persisted) -> bool {
        let before = persisted.clone();
        match command {
            AppCommand::TrimAll { start_s, end_s } => {
                persisted.trim_start_s = start_s.max(0.0);
                persisted.trim_end_s = end_s.max(0.0);
            }
            AppCommand::RunTrim(id, trim) => {
                self.with_run(id, |r| r.trim = trim);
                if let Some(path) = self.run(id).and_then(|r| r.path.as_ref()) {
                    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.clone());
                    persisted.set_run_trim(&absolute, trim.map(|t| (t.start_s, t.end_s)));
                }
            }
            AppCommand::TargetFps(v) => persisted.target_fps = v,
            AppCommand::StutterThreshold(v) => persisted.stutter_threshold = v,
            AppCommand::StutterFloor(v) => persisted.stutter_floor_ms = v,
            AppCommand::FrameTime(v) => persisted.frame_time = v,
            AppCommand::NoiseBand(v) => persisted.noise_band = v,
            AppCommand::OutlierLimit(v) => persisted.outlier_limit = v,
            AppCommand::ExportDir(dir) => persisted.export_dir = dir,
            AppCommand::CompareView(v) => persisted.compare_view = v,
            AppCommand::Rows { format, shown } => {
                crate::app::row_choice::remember(&mut persisted.row_choices, &format, shown);
            }
            _ => {}
        }
        *persisted != before
    }

    /// The comparison: on or off, its baseline and compared runs, shared scales, the
    /// figures' convention.
    // Takes the command like the other groups' functions do (it is not used again).
    #[allow(clippy::needless_pass_by_value)]
    fn apply_compare(&mut self, command: AppCommand) {
        match command {
            AppCommand::Compare { on, baseline } => {
                let place = baseline.and_then(|id| self.index_of(id)).unwrap_or_else(|| self.baseline());
                self.set_compare(on, place);
            }
            AppCommand::CompareWhenLoaded { baseline, only_new } => {
                if only_new {
                    for r in &mut self.runs {
                        r.compared = false;
                    }
                }
                self.compare_when_loaded = Some(baseline);
            }
            AppCommand::LoadsFinished => {
                if let Some(baseline) = self.compare_when_loaded.take() {
                    self.set_compare(true, baseline);
                }
            }
            AppCommand::Baseline(id) if self.run(id).is_some() => {
                self.baseline = Some(id);
                self.with_run(id, |r| r.compared = true);
            }
            AppCommand::Compared(id, on) => self.with_run(id, |r| r.compared = on),
            AppCommand::SharedScale(on) => self.shared_scale = on,
            AppCommand::Convention(c) => self.convention = c,
            _ => {}
        }
    }

    /// Sets of runs: the pinned set, moving runs between sets, outliers put back.
    fn apply_sets(&mut self, command: AppCommand) {
        match command {
            AppCommand::PinSet(set) => self.pinned_set = set,
            AppCommand::MoveToSet(id, set) => self.with_run(id, |r| set.trim().clone_into(&mut r.set)),
            AppCommand::GroupByFileName => {
                let sets = self.auto_sets();
                for (r, set) in self.runs.iter_mut().zip(sets) {
                    r.set = set;
                }
            }
            AppCommand::OneSetPerRun => {
                for r in &mut self.runs {
                    r.set.clone_from(&r.label);
                }
            }
            AppCommand::ToggleOutlier(id) => self.with_run(id, |r| r.keep_outlier = !r.keep_outlier),
            _ => {}
        }
    }
}
