//! Sets of runs in the session (`metrics.md` §12): the compared runs grouped by their
//! sets ([`framescope_core::presentation::grouping`]), whether the comparison is one of
//! sets, each set's runs with outliers marked, and the sets' comparisons, kept while
//! the runs' figures, sets, put-back flags and the outlier limit stay the same (each
//! needs a t quantile per figure: computed once per change, not per frame).

use super::{RunId, Session};
use crate::app::settings::Persisted;
use framescope_core::presentation::{Groups, fresh_set_name, groups, is_sets_comparison};
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

/// Runs grouped into sets: each set's name and its runs, in the order grouped.
pub type RunGroups = Vec<(String, Vec<RunId>)>;

impl Session {
    /// The runs `order` grouped into sets by their places ([`groups`]: the
    /// first run's set first); runs not open are left out.
    fn groups_at(&self, order: &[RunId]) -> Groups {
        let places: Vec<usize> = order.iter().filter_map(|&id| self.index_of(id)).collect();
        groups(&places, |i| self.runs[i].set.as_str())
    }

    /// Groups of places as groups of runs.
    fn ids_of(&self, groups: Groups) -> RunGroups {
        groups
            .into_iter()
            .map(|(name, places)| (name, places.iter().map(|&i| self.runs[i].id).collect()))
            .collect()
    }

    /// The compared runs grouped into sets (the baseline's set first).
    #[must_use]
    pub fn compared_groups(&self) -> RunGroups {
        self.ids_of(self.groups_at(&self.shown()))
    }

    /// Every open run grouped into sets, in the order the runs opened.
    #[must_use]
    pub fn all_groups(&self) -> RunGroups {
        let all: Vec<RunId> = self.runs.iter().map(|r| r.id).collect();
        self.ids_of(self.groups_at(&all))
    }

    /// A name for a new set that no open run's set has: "set 1", "set 2", …
    #[must_use]
    pub fn fresh_set_name(&self) -> String {
        let all: Vec<RunId> = self.runs.iter().map(|r| r.id).collect();
        fresh_set_name(&self.groups_at(&all))
    }

    /// True when the comparison is of sets: the baseline's set and at least one other
    /// compared set have two runs or more. Otherwise runs are compared one by one.
    #[must_use]
    pub fn sets_mode(&self) -> bool {
        self.comparing() && is_sets_comparison(&self.groups_at(&self.shown()))
    }

    /// Which of the runs' colours compared run `id` at place `slot` takes: its set's in
    /// a comparison of sets (every run of a set in one colour), else its own.
    #[must_use]
    pub fn colour_index(&self, slot: usize, id: RunId) -> usize {
        if self.sets_mode() {
            let set = self.run(id).map(|r| r.set.as_str());
            self.compared_groups().iter().position(|(n, _)| Some(n.as_str()) == set).unwrap_or(0)
        } else {
            slot
        }
    }

    /// A set's runs `members` with its outliers marked (`figures`: theirs, in the same
    /// order), the runs the user put back kept; and which runs were flagged before that.
    #[must_use]
    pub fn set_of<'a>(&self, members: &[RunId], figures: &[&'a Run], limit: f64) -> (Set<'a>, Vec<bool>) {
        let mut set = Set::new(figures.to_vec(), limit);
        let flagged = set.outlier.clone();
        for (k, &id) in members.iter().enumerate() {
            if self.run(id).is_some_and(|r| r.keep_outlier)
                && let Some(outlier) = set.outlier.get_mut(k)
            {
                *outlier = false;
            }
        }
        (set, flagged)
    }

    /// The figures of the runs `members` (whole trimmed runs, current settings); fewer
    /// than `members` while some are computing.
    #[must_use]
    pub fn set_figures(&self, members: &[RunId], persisted: &Persisted) -> Vec<&Run> {
        members
            .iter()
            .filter_map(|&id| {
                self.run(id)?.current(&self.run_settings(id, persisted), self.run_trim(id, persisted))
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
            .flat_map(|(k, (_, m))| m.iter().map(move |&id| (id, k)))
            .filter_map(|(id, k)| self.run(id).map(|r| (id, r.generation(), r.keep_outlier, k)))
            .collect();
        let key = (runs, limit.to_bits());
        if self.sets_cache.as_ref().is_some_and(|c| c.key == key) {
            return;
        }
        let base = self.set_figures(&groups[0].1, persisted);
        let (a, _) = self.set_of(&groups[0].1, &base, limit);
        let comparisons = groups[1..]
            .iter()
            .map(|(_, m)| {
                let figures = self.set_figures(m, persisted);
                let (b, _) = self.set_of(m, &figures, limit);
                (m.len() > 1).then(|| sets::compare_sets(&a, &b))
            })
            .collect();
        self.sets_cache = Some(SetsCache { key, comparisons });
    }
}
