//! The session: the open runs and everything the user did with them in this window —
//! selected run, time selection, selected frame, cursor, visible time range,
//! comparison (baseline, compared runs, the figures' convention), sets (pinned set)
//! and trims — with the work derived from them. egui-free: it never draws and never
//! names egui, so its logic is unit-tested without a window.
//!
//! The session changes only through [`Session::apply`] and an [`AppCommand`]: panels,
//! menus, the timeline and the background jobs read it and return commands, which the
//! window's shell applies in one place. The one other entry, [`Session::sync_work`],
//! keeps the derived work (level-of-detail tracks, figures, sets' comparisons) in step
//! with it and never changes what the user chose.
//!
//! Settings the user keeps between runs are not the session's: they stay in
//! [`Persisted`], which `apply` is given (a command that changes one, such as the
//! target, writes it there and says so in its [`Effects`]).
//!
//! Runs are named by their [`RunId`] in everything the session takes or gives, never
//! by their place in [`Session::runs`] (which changes when an earlier run closes);
//! places stay inside the session, where it keeps the runs in a list. The view state
//! it keeps ([`TimeView`]) and what a timeline asks of it ([`TimelineCommand`]) are its
//! own types (`view.rs`), which the timeline widget draws.

mod apply;
mod command;
mod compare;
mod live;
mod rows;
mod run;
mod sets;
#[cfg(test)]
mod tests;
mod view;

pub use command::{AppCommand, Effects, Loaded, RecordRequest, ShellCommand};
pub use run::{Failure, OpenRun, RunId, short_name};
pub use sets::{RunGroups, SetsCache};
pub use view::{TimeView, TimelineCommand};

use super::settings::Persisted;
use super::work::{LoadId, Spawner};
use framescope_core::analysis::{FrameTimeSource, Settings, Trim};
use framescope_core::report::compare::Section;

/// The open runs and what the user did with them (see the module's documentation).
// Independent toggles (comparing, view fitted, shared scale): not a state machine.
#[allow(clippy::struct_excessive_bools)]
pub struct Session {
    /// The open runs, in the order they opened (the first given is the first run).
    runs: Vec<OpenRun>,
    /// The id the next run gets.
    next_id: u64,
    /// The run whose figures are shown; `None` with no run open.
    selected: Option<RunId>,
    /// The visible time range, on the aligned axis (see [`OpenRun::shift_ms`]).
    view: TimeView,
    /// False until the view is fitted to what is shown (after a run opens or closes,
    /// the trace or the comparison changes).
    view_fitted: bool,
    /// The selected time range, on the aligned axis.
    selection: Option<(f64, f64)>,
    /// The selected frame: the run and the frame's index in its shown trace.
    selected_frame: Option<(RunId, usize)>,
    /// The linked cursor, on the aligned axis; cleared when the pointer leaves.
    cursor_ms: Option<f64>,
    /// Compare the open runs side by side.
    compare: bool,
    /// Turn comparing on once every load has finished (`--compare`, the sample pair).
    compare_when_loaded: Option<WhenLoaded>,
    /// The set each of these loads' runs goes in once it opens
    /// ([`AppCommand::SetsOfLoads`]: two builds of a history).
    sets_of_loads: Vec<(LoadId, String)>,
    /// The baseline run of the comparison; `None`: the first run.
    baseline: Option<RunId>,
    /// Compared runs share the frame rows' vertical scales.
    shared_scale: bool,
    /// The peer tool whose figures the comparison shows (`None`: framescope's own).
    convention: Option<Section>,
    /// The set captures arriving in the watched folder are compared against.
    pinned_set: Option<String>,
    /// Something the window should say once (the status line), taken by the shell.
    note: Option<String>,
    /// The frame-time source `auto` resolves to for the compared traces (`metrics.md`
    /// §9), kept until the set of compared traces changes.
    compare_source: Option<(Vec<(RunId, usize)>, FrameTimeSource)>,
    /// The comparisons of sets, kept while the runs' figures stay the same.
    sets_cache: Option<SetsCache>,
    /// Keep the newest frames of a growing run in view.
    follow_live: bool,
    /// Starts the background work.
    spawner: Spawner,
}

/// A comparison asked for once every load has finished
/// ([`AppCommand::CompareWhenLoaded`]).
#[derive(Debug, Clone, Copy)]
struct WhenLoaded {
    /// The load whose run is the baseline; `None`: the first open run.
    baseline: Option<LoadId>,
    /// That load's run, once it opened.
    opened: Option<RunId>,
}

impl Session {
    /// A session with no run open; its background work starts with `spawner`.
    #[must_use]
    pub fn new(spawner: Spawner) -> Self {
        Self {
            runs: Vec::new(),
            next_id: 0,
            selected: None,
            view: TimeView::default(),
            view_fitted: false,
            selection: None,
            selected_frame: None,
            cursor_ms: None,
            compare: false,
            compare_when_loaded: None,
            sets_of_loads: Vec::new(),
            baseline: None,
            shared_scale: true,
            convention: None,
            pinned_set: None,
            note: None,
            compare_source: None,
            sets_cache: None,
            follow_live: true,
            spawner,
        }
    }

    /// The open runs, in the order they opened.
    #[must_use]
    pub fn runs(&self) -> &[OpenRun] {
        &self.runs
    }

    /// The place of run `id` among the open runs (private: the session's API names
    /// runs by id).
    fn index_of(&self, id: RunId) -> Option<usize> {
        self.runs.iter().position(|r| r.id == id)
    }

    /// Run `id`, if it is open.
    #[must_use]
    pub fn run(&self, id: RunId) -> Option<&OpenRun> {
        self.runs.iter().find(|r| r.id == id)
    }

    /// The first open run's id.
    fn first(&self) -> Option<RunId> {
        self.runs.first().map(|r| r.id)
    }

    /// `id` when that run is open.
    fn open_id(&self, id: Option<RunId>) -> Option<RunId> {
        id.filter(|&id| self.run(id).is_some())
    }

    /// The run whose figures are shown; `None` with no run open.
    #[must_use]
    pub fn selected(&self) -> Option<RunId> {
        self.open_id(self.selected).or_else(|| self.first())
    }

    /// The run whose figures are shown.
    #[must_use]
    pub fn selected_run(&self) -> Option<&OpenRun> {
        self.selected().and_then(|id| self.run(id))
    }

    /// The comparison's baseline run (the first run unless chosen); `None` with no run
    /// open.
    #[must_use]
    pub fn baseline(&self) -> Option<RunId> {
        self.open_id(self.baseline).or_else(|| self.first())
    }

    /// The Compare toggle as the user set it (comparing needs two compared runs too:
    /// [`Session::comparing`]).
    #[must_use]
    pub fn compare_toggle(&self) -> bool {
        self.compare
    }

    /// True when runs are compared side by side.
    #[must_use]
    pub fn comparing(&self) -> bool {
        self.compare && self.runs.iter().filter(|r| r.compared).count() > 1
    }

    /// The runs shown: every compared run when comparing, baseline first (then in the
    /// order they opened), else the selected one; none with no run open.
    #[must_use]
    pub fn shown(&self) -> Vec<RunId> {
        match self.baseline().filter(|_| self.comparing()) {
            Some(baseline) => std::iter::once(baseline)
                .chain(self.runs.iter().filter(|r| r.id != baseline && r.compared).map(|r| r.id))
                .collect(),
            None => self.selected().into_iter().collect(),
        }
    }

    /// The shown runs ([`Session::shown`]), as runs.
    #[must_use]
    pub fn shown_runs(&self) -> Vec<&OpenRun> {
        self.shown().into_iter().filter_map(|id| self.run(id)).collect()
    }

    /// The offset (ms) between run `id`'s own time and the aligned axis.
    #[must_use]
    pub fn shift(&self, id: RunId) -> f64 {
        self.run(id).map_or(0.0, OpenRun::shift_ms)
    }

    /// The visible time range, on the aligned axis.
    #[must_use]
    pub fn aligned_view(&self) -> TimeView {
        self.view
    }

    /// The visible time range on run `id`'s own time axis (compared runs share one
    /// aligned axis, each moved by its own shift).
    #[must_use]
    pub fn view_of(&self, id: RunId) -> TimeView {
        TimeView { start_ms: self.view.start_ms + self.shift(id), span_ms: self.view.span_ms }
    }

    /// True when there is a time selection.
    #[must_use]
    pub fn has_selection(&self) -> bool {
        self.selection.is_some()
    }

    /// The selected time range on run `id`'s own time axis, if any.
    #[must_use]
    pub fn selection_of(&self, id: RunId) -> Option<(f64, f64)> {
        let s = self.shift(id);
        self.selection.map(|(a, b)| (a + s, b + s))
    }

    /// The selected frame: its run and the frame's index in that run's shown trace.
    #[must_use]
    pub fn selected_frame(&self) -> Option<(RunId, usize)> {
        self.selected_frame.filter(|(id, _)| self.run(*id).is_some())
    }

    /// The linked cursor on run `id`'s own time axis.
    #[must_use]
    pub fn cursor_of(&self, id: RunId) -> Option<f64> {
        self.cursor_ms.map(|t| t + self.shift(id))
    }

    /// True when compared runs share the frame rows' vertical scales.
    #[must_use]
    pub fn shared_scale(&self) -> bool {
        self.shared_scale
    }

    /// The peer tool whose figures the comparison shows (`None`: framescope's own).
    #[must_use]
    pub fn convention(&self) -> Option<Section> {
        self.convention
    }

    /// What the window should say once (the status line): taken, so it is said once.
    pub fn take_note(&mut self) -> Option<String> {
        self.note.take()
    }

    /// The set every capture arriving in the watched folder is compared against.
    #[must_use]
    pub fn pinned_set(&self) -> Option<&str> {
        self.pinned_set.as_deref()
    }

    /// The settings run `id` is analysed with: the user's, with the frame-time source
    /// of the comparison while comparing (one for every compared run, `metrics.md` §9)
    /// and the run's own refresh rate.
    #[must_use]
    pub fn run_settings(&self, id: RunId, persisted: &Persisted) -> Settings {
        let mut s = persisted.settings();
        if let Some(source) = self.comparison_source(persisted) {
            s.frame_time = source;
        }
        s.refresh_hz = self.run(id).and_then(|r| r.refresh_hz);
        s
    }

    /// The trim run `id` is analysed with: its own, else the one for all runs.
    #[must_use]
    pub fn run_trim(&self, id: RunId, persisted: &Persisted) -> Trim {
        self.run(id).and_then(|r| r.trim).unwrap_or_else(|| persisted.trim_for_all())
    }

    /// The refresh rates of the shown runs (set by the user, else detected), rounded to
    /// 0.01 Hz and deduplicated: the target presets "display 59.94 Hz".
    #[must_use]
    pub fn display_rates(&self) -> Vec<f64> {
        let mut rates: Vec<f64> = self
            .shown_runs()
            .into_iter()
            .filter_map(|r| {
                r.refresh_hz.or_else(|| r.analyzed().and_then(|a| a.run.vsync).map(|v| v.refresh_hz))
            })
            .map(|hz| (hz * 100.0).round() / 100.0)
            .filter(|hz| (1.0..=1000.0).contains(hz))
            .collect();
        rates.sort_by(f64::total_cmp);
        rates.dedup();
        rates
    }

    /// True when nothing the shown runs need is computing or stale.
    #[must_use]
    pub fn is_idle(&self, persisted: &Persisted) -> bool {
        let shown_current = self.shown_runs().into_iter().all(|r| {
            r.up_to_date(
                &self.run_settings(r.id, persisted),
                self.run_trim(r.id, persisted),
                self.selection_of(r.id),
            )
        });
        shown_current && self.runs.iter().all(|r| !r.busy())
    }

    /// What [`Session::is_idle`] waits for, in words (for test failure messages).
    #[must_use]
    pub fn idle_report(&self, persisted: &Persisted) -> String {
        let runs: Vec<String> = self
            .shown_runs()
            .into_iter()
            .map(|r| {
                let (settings, trim) = (self.run_settings(r.id, persisted), self.run_trim(r.id, persisted));
                let state = r.state_report(&settings, trim, self.selection_of(r.id));
                format!("run {} ({}): {state}", r.id.0, r.label)
            })
            .collect();
        runs.join("; ")
    }

    /// Collects finished background work of every run and starts what the shown runs
    /// need for the current settings, trims and selection; compares the sets again
    /// when their figures changed. Changes derived data only, never what the user
    /// chose. Returns the failures of background work, for the window's error list.
    pub fn sync_work(&mut self, persisted: &Persisted) -> Vec<Failure> {
        let mut failures = self.collect_work();
        self.refresh_compare_source();
        for id in self.shown() {
            let (settings, trim, local) =
                (self.run_settings(id, persisted), self.run_trim(id, persisted), self.selection_of(id));
            if let Some(i) = self.index_of(id) {
                self.runs[i].update(&settings, trim, local, &self.spawner);
            }
        }
        // Work that finished at once (an inline spawner) is taken in now too.
        failures.extend(self.collect_work());
        self.follow_growth();
        self.refresh_sets_cache(persisted);
        failures
    }

    /// Takes in every run's finished background work (shown or not: a run shown a
    /// moment ago may still have work in flight); the failures, in words.
    fn collect_work(&mut self) -> Vec<Failure> {
        let mut failures = Vec::new();
        for run in &mut self.runs {
            run.collect();
            failures.extend(run.take_failures());
        }
        failures
    }
}
