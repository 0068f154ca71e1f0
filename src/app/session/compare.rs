//! The comparison in the session: turning it on (with its baseline), the one
//! frame-time source of every compared run (`metrics.md` §9), and the time axis the
//! compared runs share (fitting the view to them).

use super::{OpenRun, RunId, Session, TimeView};
use crate::app::settings::Persisted;
use framescope_core::analysis::FrameTimeSource;
use framescope_core::model::Trace;

impl Session {
    /// Compares the open runs side by side (those marked compared), run `baseline`
    /// first (`None`, or a run not open: the current baseline); ticking Compare with
    /// fewer than two compared runs compares them all.
    pub(super) fn set_compare(&mut self, on: bool, baseline: Option<RunId>) {
        let baseline = self.open_id(baseline).or_else(|| self.baseline());
        self.baseline = baseline;
        if let Some(r) = self.runs.iter_mut().find(|r| Some(r.id) == baseline) {
            r.compared = true;
        }
        if on && self.runs.iter().filter(|r| r.compared).count() < 2 {
            for r in &mut self.runs {
                r.compared = true;
            }
        }
        self.compare = on && self.runs.len() > 1;
        self.view_fitted = false;
    }

    /// The compared traces: (run, trace) of every shown run, baseline first.
    fn compared_traces(&self) -> Vec<(RunId, usize)> {
        self.shown_runs().into_iter().map(|r| (r.id, r.trace())).collect()
    }

    /// The one frame-time source of the comparison (`None` when not comparing): the
    /// user's, with `auto` resolved over every compared trace.
    #[must_use]
    pub fn comparison_source(&self, persisted: &Persisted) -> Option<FrameTimeSource> {
        if !self.comparing() {
            return None;
        }
        let asked = persisted.frame_time;
        if asked != FrameTimeSource::Auto {
            return Some(asked);
        }
        let key = self.compared_traces();
        match &self.compare_source {
            Some((k, source)) if *k == key => Some(*source),
            _ => Some(self.resolve_compared()),
        }
    }

    /// Resolves the comparison's `auto` source again when the compared traces changed
    /// (a look at every compared trace's frame types: done once per change, not per
    /// frame).
    pub(super) fn refresh_compare_source(&mut self) {
        if self.comparing() {
            let key = self.compared_traces();
            if self.compare_source.as_ref().is_none_or(|(k, _)| *k != key) {
                self.compare_source = Some((key, self.resolve_compared()));
            }
        }
    }

    /// `auto` resolved over the shown runs' traces.
    fn resolve_compared(&self) -> FrameTimeSource {
        let traces: Vec<&Trace> = self.shown_runs().into_iter().map(OpenRun::shown_trace).collect();
        FrameTimeSource::Auto.resolve_for(traces.iter().copied())
    }

    /// Shows every shown run whole, on the aligned axis.
    pub(super) fn fit_view(&mut self) {
        let mut range: Option<(f64, f64)> = None;
        for r in self.shown_runs() {
            let f = &r.shown_trace().frames;
            let s = r.shift_ms();
            let first = f.start_ms.first().copied().unwrap_or(0.0) - s;
            let end =
                f.start_ms.last().zip(f.spans_ms().last()).map_or(first + 1.0, |(a, span)| a + span) - s;
            range = Some(range.map_or((first, end), |(a, b)| (a.min(first), b.max(end))));
        }
        if let Some((a, b)) = range {
            self.view = TimeView::fit(a, b);
        }
    }

    /// Fits the view when something it showed changed (a run opened or closed, the
    /// trace or the comparison changed).
    pub(super) fn fit_if_needed(&mut self) {
        if !self.view_fitted && !self.runs.is_empty() {
            self.fit_view();
            self.view_fitted = true;
        }
    }

    /// The newest run (just arrived in the watched folder) against the pinned baseline
    /// set: that set and the newest run's set are compared, the others leave the
    /// comparison. Without a pinned set, against the run before it (the previous
    /// capture), and [`Session::take_note`] says so.
    pub(super) fn compare_newest(&mut self) {
        let Some(newest_set) = self.runs.last().map(|r| r.set.clone()) else { return };
        let Some(pinned) = self.pinned_set.clone() else {
            self.compare_with_previous();
            return;
        };
        let Some(first) = self.runs.iter().find(|r| r.set == pinned).map(|r| r.id) else { return };
        for r in &mut self.runs {
            r.compared = r.set == pinned || r.set == newest_set;
        }
        self.set_compare(true, Some(first));
    }

    /// The newest run against the one opened before it: both compared (the earlier as
    /// baseline), the others left out; a note says so and how to pin a baseline.
    fn compare_with_previous(&mut self) {
        let n = self.runs.len();
        if n < 2 {
            return;
        }
        let (before, newest) = (self.runs[n - 2].id, self.runs[n - 1].id);
        for r in &mut self.runs {
            r.compared = r.id == before || r.id == newest;
        }
        self.set_compare(true, Some(before));
        let name = |k: usize| super::short_name(&self.runs[k].name);
        self.note = Some(format!(
            "{} is compared with the capture before it, {} (no pinned baseline: pin a set's \"pinned baseline\" \
             to compare every new capture with it)",
            name(n - 1),
            name(n - 2)
        ));
    }
}
