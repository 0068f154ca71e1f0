//! [`ColumnCache`]: the frames under each pixel column of a view and each row's
//! per-column values, kept while the view pans and recomputed only for the columns
//! that come into view.

use super::window::{Window, rezoom_all};
use super::{BudgetShares, MedianIndex, SeriesIndex, counts, covered, estimate_columns};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::Range;
use std::time::Instant;

/// Traces with at least this many frames in view compute their columns in parallel
/// (when more than [`PARALLEL_COLUMNS`] are computed at once).
const PARALLEL_FRAMES: usize = 200_000;

/// See [`PARALLEL_FRAMES`].
const PARALLEL_COLUMNS: usize = 32;

/// A series' name in the [`ColumnCache`], given by the caller: its kind ("presents",
/// "telemetry", "stutters") and an index among the series of that kind. Never an
/// address: within one [`CacheKey`] a name always means the same values.
pub type SeriesKey = (&'static str, usize);

/// What the cache's contents depend on besides the columns' place: which data (ids
/// given by the caller, never addresses, so a freed and reused allocation or a closed
/// run never shows its old columns) and the columns' size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CacheKey {
    /// The run drawn: an id its owner never gives to another run.
    pub run: u64,
    /// The trace of that run.
    pub trace: usize,
    /// The analysis generation drawn: changes whenever the run's analysed figures and
    /// marks change.
    pub generation: u64,
    /// The time per column, ms.
    pub ms_per_column: f64,
    /// The track's width, points.
    pub width: f32,
}

/// One pixel column of a row: the typical and the slowest frame under it, and how much
/// of its time was over the budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnStat {
    /// The median value of the column's frames (NaN when none has a value).
    pub typical: f64,
    /// The frame with the largest value.
    pub max: Option<u32>,
    /// Its value (NaN when none): kept, so that drawing a column reads no frame (a
    /// long trace's values are far apart in memory).
    pub highest: f64,
    /// Frames under the column (with or without a value).
    pub frames: u32,
    /// Shares of the column's time in frames over the budget and over twice the budget,
    /// when the shares of the current budget are known.
    pub over: Option<(f32, f32)>,
}

/// The frames under each pixel column and each row's per-column values.
///
/// Columns sit on a global grid: column `g` covers `[g·dt, (g+1)·dt)` for the view's
/// time per column `dt`, and the timeline draws the `width` columns from
/// `g₀ = ⌊start / dt⌋` on, less than a pixel left of where the view starts. So while the
/// view only pans (same `dt`), a new frame reuses every column still in view and
/// computes only the few that came in; a frame where only the pointer moves computes
/// nothing. A new width, run, trace or analysis generation starts over.
///
/// A new zoom starts over too, unless the caller gave a deadline for the frame
/// ([`ColumnCache::set_deadline`]): then the frames under every column are found at
/// once (they are what the hover and the marks read), but a row's values are carried
/// over from the previous zoom's column under each new column's centre and computed
/// again in runs of columns until the deadline, the rest on the next frames
/// ([`ColumnCache::settled`] says when every value read this frame was exact). When
/// finding the frames under every column would cost more than [`ESTIMATE_OVER`] (a long
/// trace zoomed out), they are estimated from the previous zoom's columns instead
/// ([`estimate_columns`]), values computed from them are stale, and the next frame where
/// the view stays finds them ([`ColumnCache::estimated`]). Columns
/// that come into view at the edges (zooming out) carry the nearest old column's values
/// the same way; a column with no frame, or far beyond the previous zoom's columns, is
/// always computed. So a frame
/// costs the same however many frames a column holds, and a picture is exact again a
/// few frames after the zoom stops.
#[derive(Debug, Default)]
pub struct ColumnCache {
    key: Option<CacheKey>,
    /// The global index of the first column.
    origin: i64,
    /// The frames under each pixel column.
    pub columns: Vec<Range<usize>>,
    stats: HashMap<(SeriesKey, bool), Window<ColumnStat>>,
    typicals: HashMap<SeriesKey, Window<f64>>,
    counts: HashMap<SeriesKey, Window<u32>>,
    pairs: HashMap<SeriesKey, Window<Option<(f32, f32)>>>,
    scratch: Vec<f64>,
    /// Until when this frame may compute stale values; None: every value is exact.
    deadline: Option<Instant>,
    /// True when a window read this frame still holds a stale value.
    unsettled: bool,
    /// True when the last [`Self::prepare`] changed the columns.
    moved: bool,
    /// True when `columns` are estimates ([`estimate_columns`]): a zoom under a deadline
    /// on a trace where finding every column's frames costs more than
    /// [`ESTIMATE_OVER`].
    estimated: bool,
    /// What finding the frames under a column cost last time, ns (measured when a
    /// deadline is set).
    column_ns: Option<f64>,
}

/// A zoom under a deadline estimates the frames under its columns instead of finding
/// them ([`estimate_columns`]) when finding them is expected to take longer than this:
/// on a long trace zoomed out, every column's edge is a read of its own part of memory
/// (about 0.1 ms for a thousand columns at 10 million frames, a fifth of a UI frame),
/// while 10 thousand frames take a fraction of it. The next frame where the view stays
/// finds them.
pub const ESTIMATE_OVER: std::time::Duration = std::time::Duration::from_micros(30);

impl ColumnCache {
    /// Makes sure the columns are the `count` from global column `origin` for `key`:
    /// `columns(first, n)` gives the frames under `n` columns from global column
    /// `first`. Keeps what it can (see the type's documentation).
    pub fn prepare(
        &mut self,
        key: CacheKey,
        origin: i64,
        count: usize,
        columns: impl Fn(i64, usize) -> Vec<Range<usize>>,
    ) {
        self.moved = self.key != Some(key) || origin != self.origin || count != self.columns.len();
        if self.key != Some(key) {
            let old = self.key.replace(key);
            let rezoom = old.filter(|o| {
                self.deadline.is_some() && CacheKey { ms_per_column: key.ms_per_column, ..*o } == key
            });
            let costly = self.column_ns.is_some_and(|ns| ns * count as f64 > ESTIMATE_OVER.as_nanos() as f64);
            let estimate = rezoom.filter(|_| costly).and_then(|o| {
                let old = (&self.columns[..], self.origin, o.ms_per_column);
                estimate_columns(old, (origin, key.ms_per_column, count), &columns)
            });
            self.estimated = estimate.is_some();
            self.columns = match estimate {
                Some(c) => c,
                None => self.find(origin, count, &columns),
            };
            if let Some(o) = rezoom {
                let empty: Vec<bool> = self.columns.iter().map(Range::is_empty).collect();
                let (old, new) = ((self.origin, count, o.ms_per_column), (origin, key.ms_per_column));
                rezoom_all(&mut self.stats, old, new, &empty);
                rezoom_all(&mut self.typicals, old, new, &empty);
                rezoom_all(&mut self.counts, old, new, &empty);
                rezoom_all(&mut self.pairs, old, new, &empty);
            } else {
                self.stats.clear();
                self.typicals.clear();
                self.counts.clear();
                self.pairs.clear();
            }
            self.origin = origin;
            return;
        }
        if origin == self.origin && count == self.columns.len() {
            if self.estimated {
                // The view stays: the frames under each column are found, and the
                // values computed from the estimates refined.
                self.columns = self.find(origin, count, &columns);
                self.estimated = false;
            }
            return;
        }
        // Ranges are not `Copy`; the window holds their ends instead.
        let old = std::mem::take(&mut self.columns);
        let mut ends = Window::exact(self.origin, old.iter().map(|r| (r.start, r.end)).collect());
        ends.slide(origin, count, true, |r| {
            columns(origin + r.start as i64, r.len()).into_iter().map(|c| (c.start, c.end)).collect()
        });
        self.columns = ends.into_values().into_iter().map(|(a, b)| a..b).collect();
        self.origin = origin;
    }

    /// The frames under `count` columns from global column `origin` (`columns`), and,
    /// under a deadline, what that cost per column.
    fn find(
        &mut self,
        origin: i64,
        count: usize,
        columns: impl Fn(i64, usize) -> Vec<Range<usize>>,
    ) -> Vec<Range<usize>> {
        let started = self.deadline.map(|_| Instant::now());
        let found = columns(origin, count);
        if let Some(t) = started {
            self.column_ns = Some(t.elapsed().as_nanos() as f64 / count.max(1) as f64);
        }
        found
    }

    /// Starts a frame: until `deadline` the cache may compute values carried over from
    /// the previous zoom; after it, only those it must (see the type's documentation).
    /// `None` (the default): every value read is exact.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.unsettled = false;
    }

    /// True when every value read since [`Self::set_deadline`] was exact: else the
    /// caller draws another frame to refine the rest.
    #[must_use]
    pub fn settled(&self) -> bool {
        !self.unsettled && !self.estimated
    }

    /// True when the frames under each column are estimates, not found (a zoom on a long
    /// trace, see [`ESTIMATE_OVER`]): exact again in the next frame where the view stays.
    #[must_use]
    pub fn estimated(&self) -> bool {
        self.estimated
    }

    /// True when the last [`Self::prepare`] kept the columns as they were (the view
    /// did not move): a frame that may refine longer.
    #[must_use]
    pub fn still(&self) -> bool {
        !self.moved
    }

    /// The global index of the first column (column `c` covers
    /// `[(origin + c)·dt, (origin + c + 1)·dt)`).
    #[must_use]
    pub fn origin(&self) -> i64 {
        self.origin
    }

    /// The key the cache holds columns for.
    #[must_use]
    pub fn key(&self) -> Option<CacheKey> {
        self.key
    }

    /// `window` of `map` (named `name`) moved to the cache's columns and refined:
    /// `compute(columns)` gives the values of some of them.
    fn window<'m, K: Copy + Eq + std::hash::Hash, T: Copy>(
        map: &'m mut HashMap<K, Window<T>>,
        name: K,
        (origin, columns, deadline, unsettled): (i64, &[Range<usize>], Option<Instant>, &mut bool),
        exact: bool,
        compute: impl Fn(&[Range<usize>]) -> Vec<T>,
    ) -> &'m [T] {
        let w = map.entry(name).or_insert_with(|| Window::empty(origin));
        w.slide(origin, columns.len(), exact, |r| compute(&columns[r]));
        if !w.refine(deadline, exact, |r| compute(&columns[r])) {
            *unsettled = true;
        }
        w.values()
    }

    /// How many of `marks` (ascending frame indices) fall under each column ([`counts`],
    /// kept: a binary search per column in a long list of marks misses the CPU cache).
    /// `series` names the marks (and the shaded runs of [`Self::covered`]).
    pub fn counts(&mut self, series: SeriesKey, marks: &[u32]) -> &[u32] {
        let at = (self.origin, &self.columns[..], self.deadline, &mut self.unsettled);
        Self::window(&mut self.counts, series, at, !self.estimated, |c| counts(c, marks))
    }

    /// Every column's frames inside the `runs` ([`covered`], kept like [`Self::counts`]).
    pub fn covered(&mut self, series: SeriesKey, runs: &[(u32, u32)], prefix: &[u64]) -> &[u32] {
        let at = (self.origin, &self.columns[..], self.deadline, &mut self.unsettled);
        Self::window(&mut self.counts, series, at, !self.estimated, |c| covered(c, runs, prefix))
    }

    /// Every column's pair of values `of(frames)` (shares of a column's time, say),
    /// kept like the others under the name `series`.
    pub fn pairs(
        &mut self,
        series: SeriesKey,
        of: impl Fn(Range<usize>) -> Option<(f32, f32)>,
    ) -> &[Option<(f32, f32)>] {
        let at = (self.origin, &self.columns[..], self.deadline, &mut self.unsettled);
        Self::window(&mut self.pairs, series, at, !self.estimated, |c| {
            c.iter().map(|r| of(r.clone())).collect()
        })
    }

    /// Every column's typical value of one series (a latency stage).
    pub fn typicals(&mut self, series: SeriesKey, index: &MedianIndex, values: &[f64]) -> &[f64] {
        let at = (self.origin, &self.columns[..], self.deadline, &mut self.unsettled);
        let scratch = std::cell::RefCell::new(std::mem::take(&mut self.scratch));
        let compute = |c: &[Range<usize>]| -> Vec<f64> {
            let mut s = scratch.borrow_mut();
            c.iter().map(|r| index.typical(values, r.clone(), &mut s)).collect()
        };
        Self::window(&mut self.typicals, series, at, !self.estimated, compute);
        self.scratch = scratch.into_inner();
        self.typicals[&series].values()
    }

    /// Every column's statistics of one series (`series` names it in the cache; with
    /// and without `shares` are kept apart).
    pub fn stats(
        &mut self,
        series: SeriesKey,
        index: &SeriesIndex,
        values: &[f64],
        shares: Option<&BudgetShares>,
    ) -> &[ColumnStat] {
        let over = |r: Range<usize>| shares.and_then(|s| s.share(values, r));
        self.stats_of(series, shares.is_some(), index, (values.len(), |i| values[i]), over)
    }

    /// [`ColumnCache::stats`] of the `n` values `at(i)` of a column computed on the fly
    /// (its index built by [`SeriesIndex::from_fn`]), without shares.
    pub fn stats_by(
        &mut self,
        series: SeriesKey,
        index: &SeriesIndex,
        n: usize,
        at: impl Fn(usize) -> f64 + Sync,
    ) -> &[ColumnStat] {
        self.stats_of(series, false, index, (n, at), |_| None)
    }

    /// Every column's statistics of the `n` values `at(i)`, with `over` each column's
    /// time over the budget.
    fn stats_of(
        &mut self,
        series: SeriesKey,
        shared: bool,
        index: &SeriesIndex,
        (n, at): (usize, impl Fn(usize) -> f64 + Sync),
        over: impl Fn(Range<usize>) -> Option<(f32, f32)> + Sync,
    ) -> &[ColumnStat] {
        let stat = |scratch: &mut Vec<f64>, r: &Range<usize>| {
            let max = index.max.argmax_by(n, &at, r.clone());
            ColumnStat {
                typical: index.median.typical_by(n, &at, r.clone(), scratch),
                max: max.map(|i| i as u32),
                highest: max.map_or(f64::NAN, &at),
                frames: r.len() as u32,
                over: over(r.clone()),
            }
        };
        let compute = |part: &[Range<usize>]| -> Vec<ColumnStat> {
            // Zoomed out, a column is a few hundred pyramid reads: worth the other
            // cores when many columns of a long trace come into view at once.
            let in_view =
                part.last().map_or(0, |r| r.end).saturating_sub(part.first().map_or(0, |r| r.start));
            if in_view >= PARALLEL_FRAMES && part.len() > PARALLEL_COLUMNS {
                part.par_iter().map_init(Vec::new, stat).collect()
            } else {
                let mut scratch = Vec::new();
                part.iter().map(|r| stat(&mut scratch, r)).collect()
            }
        };
        let at = (self.origin, &self.columns[..], self.deadline, &mut self.unsettled);
        Self::window(&mut self.stats, (series, shared), at, !self.estimated, compute)
    }
}

#[cfg(test)]
mod tests;
