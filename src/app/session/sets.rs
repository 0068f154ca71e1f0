//! Sets of runs in the session (`metrics.md` §12): the compared runs grouped by their
//! sets ([`framescope_core::presentation::grouping`]), whether the comparison is one of
//! sets, each set's runs with outliers marked, and the sets' comparisons, kept while
//! the runs' figures, sets, put-back flags and the outlier limit stay the same (each
//! needs a t quantile per figure: computed once per change, not per frame).

use super::{OpenRun, RunId, Session};
use crate::app::settings::Persisted;
use framescope_core::presentation::grouping::{self, Groups};
use framescope_core::report::Run;
use framescope_core::report::sets::{self, Set, SetComparison};

/// Cached set comparisons: for each compared set after the baseline's, its comparison
/// with the baseline set (`None` with fewer than two runs).
pub struct SetsCache {
    /// Per compared run: its id, the generation of its figures, its put-back flag and
    /// its group; and the outlier limit's bits.
    key: (Vec<(RunId, u64, bool, usize)>, u64),
    comparisons: Vec<Option<SetComparison>>,
}

impl SetsCache {
    /// The comparison of compared set `k` (1 = the first after the baseline's) with
    /// the baseline set.
    #[must_use]
    pub fn comparison(&self, k: usize) -> Option<&SetComparison> {
        k.checked_sub(1).and_then(|k| self.comparisons.get(k)).and_then(Option::as_ref)
    }
}

/// A set's runs with its outliers marked, the runs the user put back kept; and which
/// runs were flagged before that.
#[must_use]
pub fn set_of<'a>(
    runs: &[OpenRun],
    members: &[usize],
    figures: &[&'a Run],
    limit: f64,
) -> (Set<'a>, Vec<bool>) {
    let mut set = Set::new(figures.to_vec(), limit);
    let flagged = set.outlier.clone();
    for (k, &i) in members.iter().enumerate() {
        if runs[i].keep_outlier {
            set.outlier[k] = false;
        }
    }
    (set, flagged)
}

impl Session {
    /// The compared runs grouped into sets (places; the baseline's set first).
    #[must_use]
    pub fn compared_groups(&self) -> Groups {
        grouping::groups(&self.shown(), |i| self.runs[i].set.as_str())
    }

    /// Every open run grouped into sets, in the order the runs opened.
    #[must_use]
    pub fn all_groups(&self) -> Groups {
        let all: Vec<usize> = (0..self.runs.len()).collect();
        grouping::groups(&all, |i| self.runs[i].set.as_str())
    }

    /// True when the comparison is of sets: the baseline's set and at least one other
    /// compared set have two runs or more. Otherwise runs are compared one by one.
    #[must_use]
    pub fn sets_mode(&self) -> bool {
        self.comparing() && grouping::is_sets_comparison(&self.compared_groups())
    }

    /// Which of the runs' colours compared run `i` at place `slot` takes: its set's in
    /// a comparison of sets (every run of a set in one colour), else its own.
    #[must_use]
    pub fn colour_index(&self, slot: usize, i: usize) -> usize {
        if self.sets_mode() {
            let set = self.runs.get(i).map(|r| r.set.as_str());
            self.compared_groups().iter().position(|(n, _)| Some(n.as_str()) == set).unwrap_or(0)
        } else {
            slot
        }
    }

    /// The figures of the runs `members` (whole trimmed runs, current settings); fewer
    /// than `members` while some are computing.
    #[must_use]
    pub fn set_figures(&self, members: &[usize], persisted: &Persisted) -> Vec<&Run> {
        members
            .iter()
            .filter_map(|&i| {
                self.runs.get(i)?.current(&self.run_settings(i, persisted), self.run_trim(i, persisted))
            })
            .map(|a| &a.run)
            .collect()
    }

    /// The cached comparisons of the compared sets, once every run's figures are in.
    #[must_use]
    pub fn sets_cache(&self) -> Option<&SetsCache> {
        self.sets_cache.as_ref()
    }

    /// Compares the sets again when a run's figures, set or put-back flag, or the
    /// outlier limit changed (only while sets are compared and every figure is in).
    pub(super) fn refresh_sets_cache(&mut self, persisted: &Persisted) {
        if !self.sets_mode() {
            return;
        }
        let groups = self.compared_groups();
        if groups.iter().any(|(_, m)| self.set_figures(m, persisted).len() != m.len()) {
            return;
        }
        let limit = persisted.outlier_limit;
        let runs: Vec<(RunId, u64, bool, usize)> = groups
            .iter()
            .enumerate()
            .flat_map(|(k, (_, m))| m.iter().map(move |&i| (i, k)))
            .map(|(i, k)| {
                let r = &self.runs[i];
                (r.id, r.generation(), r.keep_outlier, k)
            })
            .collect();
        let key = (runs, limit.to_bits());
        if self.sets_cache.as_ref().is_some_and(|c| c.key == key) {
            return;
        }
        let base = self.set_figures(&groups[0].1, persisted);
        let (a, _) = set_of(&self.runs, &groups[0].1, &base, limit);
        let comparisons = groups[1..]
            .iter()
            .map(|(_, m)| {
                let figures = self.set_figures(m, persisted);
                let (b, _) = set_of(&self.runs, m, &figures, limit);
                (m.len() > 1).then(|| sets::compare_sets(&a, &b))
            })
            .collect();
        self.sets_cache = Some(SetsCache { key, comparisons });
    }
}
