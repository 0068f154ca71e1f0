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
mod tests {
    use super::*;
    use crate::lod::testdata::noisy;
    use crate::lod::{Budget, column_ranges};

    #[test]
    fn a_panned_cache_keeps_what_is_still_in_view() {
        let values = noisy(100_000);
        let start: Vec<f64> = values
            .iter()
            .scan(0.0, |t, v| {
                let s = *t;
                *t += if v.is_finite() { *v } else { 8.5 };
                Some(s)
            })
            .collect();
        let spans: Vec<f64> = values.iter().map(|v| if v.is_finite() { *v } else { 8.5 }).collect();
        let index = SeriesIndex::new(&values);
        let shares = BudgetShares::new(&values, Budget::of_fps(60.0));
        let marks: Vec<u32> = (0..100_000).step_by(37).collect();
        let dt = 700.0_f64;
        let key = CacheKey { run: 1, trace: 0, generation: 1, ms_per_column: dt, width: 300.0 };
        let make = |first: i64, n: usize| column_ranges(&start, &spans, first as f64 * dt, dt, n);
        let mut panned = ColumnCache::default();
        // Pan right, left past the start, and jump far away.
        for origin in [10, 14, 3, -5, 600, 598] {
            panned.prepare(key, origin, 300, make);
            let stats = panned.stats(("presents", 0), &index, &values, Some(&shares)).to_vec();
            let counted = panned.counts(("stutters", 0), &marks).to_vec();
            let mut fresh = ColumnCache::default();
            fresh.prepare(key, origin, 300, make);
            assert_eq!(panned.columns, fresh.columns, "columns at {origin}");
            // NaN typical values (columns before the first frame) compare by their bits.
            let bits = |v: &[ColumnStat]| -> Vec<String> {
                v.iter()
                    .map(|s| format!("{} {:?} {} {:?}", s.typical.to_bits(), s.max, s.frames, s.over))
                    .collect()
            };
            let want = bits(fresh.stats(("presents", 0), &index, &values, Some(&shares)));
            assert!(bits(&stats) == want, "stats at {origin}");
            assert_eq!(counted, fresh.counts(("stutters", 0), &marks), "marks at {origin}");
        }
    }

    /// A new zoom under a deadline already passed: the frames under every column are
    /// the new zoom's at once, a row's values the previous zoom's column's under each
    /// new column's centre (a column beyond the old ones computed);
    /// frames later, without the deadline, every value is the fresh cache's.
    #[test]
    fn a_new_zoom_under_a_deadline_is_refined_on_later_frames() {
        // 1000 frames of 1 ms then 3000 of 3 ms (10 s).
        let values: Vec<f64> = (0..4000).map(|i| if i < 1000 { 1.0 } else { 3.0 }).collect();
        let start: Vec<f64> = values.iter().scan(0.0, |t, v| Some(std::mem::replace(t, *t + v))).collect();
        let index = SeriesIndex::new(&values);
        let key = CacheKey { run: 1, trace: 0, generation: 1, ms_per_column: 40.0, width: 100.0 };
        let (start, spans) = (&start, &values);
        let make =
            |dt: f64| move |first: i64, n: usize| column_ranges(start, spans, first as f64 * dt, dt, n);
        let mut cache = ColumnCache::default();
        cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
        cache.prepare(key, 0, 101, make(40.0));
        let before = cache.stats(("presents", 0), &index, &values, None).to_vec();
        assert_eq!(before[15].frames, 40);
        assert!(cache.settled());
        // Zoom out ×1.5 (60 ms columns), no time left this frame.
        let wide = CacheKey { ms_per_column: 60.0, ..key };
        // A deadline already reached; finding the columns is cheap (as measured in a
        // release build; a debug build's may exceed `ESTIMATE_OVER`).
        cache.column_ns = Some(1.0);
        cache.set_deadline(Some(Instant::now()));
        cache.prepare(wide, 0, 101, make(60.0));
        let mut fresh = ColumnCache::default();
        fresh.prepare(wide, 0, 101, make(60.0));
        assert_eq!(cache.columns, fresh.columns, "the frames under each column are exact at once");
        let now = cache.stats(("presents", 0), &index, &values, None).to_vec();
        assert!(!cache.settled(), "carried-over values are left to refine");
        let want = fresh.stats(("presents", 0), &index, &values, None).to_vec();
        // Column 10 (600–660 ms) carries old column 15 (600–640 ms, 40 frames of 1 ms);
        // column 70 (4200–4260 ms, centre in old column 105, past the old columns'
        // 4040 ms but within 101/16 = 6 of them) carries the last old column, 100
        // (4000–4040 ms: 14 frames of 3 ms); column 72 (4320–4380 ms, centre in old
        // column 108) is too far and computed (20 frames of 3 ms and the one from
        // 4318 ms reaching into it).
        assert_eq!((now[10].frames, now[10].typical), (40, 1.0));
        assert_eq!(want[10].frames, 60);
        assert_eq!((now[70], now[70].frames), (before[100], 14));
        assert_eq!(want[70].frames, 21);
        assert_eq!((now[72], now[72].frames, now[72].highest), (want[72], 21, 3.0));
        // The next frames, without the deadline: every value is exact.
        cache.set_deadline(None);
        assert_eq!(cache.stats(("presents", 0), &index, &values, None), &want[..]);
        assert!(cache.settled());
    }

    /// A zoom under a deadline on a trace whose columns cost more than [`ESTIMATE_OVER`]
    /// to find: the frames under the columns are estimates (between the old columns'
    /// edges), values computed from them are stale, and the next frame where the view
    /// stays finds the columns; then every value is the fresh cache's.
    #[test]
    fn a_costly_zoom_estimates_its_columns_until_the_view_stays() {
        // 2000 frames of 1 ms, 2000 of 4 ms, then 2000 of 1 ms (12 s).
        let values: Vec<f64> = (0..6000).map(|i| if (2000..4000).contains(&i) { 4.0 } else { 1.0 }).collect();
        let start: Vec<f64> = values.iter().scan(0.0, |t, v| Some(std::mem::replace(t, *t + v))).collect();
        let index = SeriesIndex::new(&values);
        let marks: Vec<u32> = (0..6000).step_by(7).collect();
        let key = CacheKey { run: 1, trace: 0, generation: 1, ms_per_column: 100.0, width: 120.0 };
        let (start, spans) = (&start, &values);
        let make =
            |dt: f64| move |first: i64, n: usize| column_ranges(start, spans, first as f64 * dt, dt, n);
        let mut cache = ColumnCache::default();
        cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
        cache.prepare(key, 0, 121, make(100.0));
        let _ = cache.stats(("presents", 0), &index, &values, None);
        assert!(!cache.estimated() && cache.settled());
        // As if a column had cost 1 ms to find.
        cache.column_ns = Some(1e6);
        // Zoom in ×0.8 about 6 s: 80 ms columns from global column 15 (1200 ms).
        let zoomed = CacheKey { ms_per_column: 80.0, ..key };
        cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
        cache.prepare(zoomed, 15, 121, make(80.0));
        assert!(cache.estimated());
        let old_edges: Vec<usize> = (1..=121).map(|k| make(100.0)(0, 121)[k - 1].end).collect();
        let mut fresh = ColumnCache::default();
        fresh.prepare(zoomed, 15, 121, make(80.0));
        for (j, (got, want)) in cache.columns.iter().zip(&fresh.columns).enumerate() {
            // Each estimated end lies between the old edges around the new edge.
            let t = (15 + j + 1) as f64 * 80.0;
            let k = (t / 100.0).floor() as usize;
            let (lo, hi) = (old_edges[k - 1], old_edges[k]);
            assert!((lo..=hi).contains(&got.end), "column {j}: {got:?} not within {lo}..={hi}");
            assert!(got.end.abs_diff(want.end) <= 1, "column {j}: {got:?} against {want:?}");
            assert!(got.start <= got.end);
        }
        let stats = cache.stats(("presents", 0), &index, &values, None).to_vec();
        let counted = cache.counts(("stutters", 0), &marks).to_vec();
        assert!(!cache.settled(), "values from estimated columns are not exact");
        let want = fresh.stats(("presents", 0), &index, &values, None).to_vec();
        // Column 40 (4400–4480 ms) carries old column 44 (4400–4500 ms): 25 frames of 4 ms.
        assert_eq!((stats[40].frames, stats[40].typical), (25, 4.0));
        assert_eq!(want[40].frames, 20);
        let estimates = cache.columns.clone();
        // The view stays: the columns are found, and the values refined.
        cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
        cache.prepare(zoomed, 15, 121, make(80.0));
        assert!(!cache.estimated());
        assert_eq!(cache.columns, fresh.columns);
        assert_eq!(cache.stats(("presents", 0), &index, &values, None), &want[..]);
        assert_eq!(cache.counts(("stutters", 0), &marks), fresh.counts(("stutters", 0), &marks));
        assert_eq!(counted, counts(&estimates, &marks), "the marks were counted under the estimates");
        assert!(cache.settled());
        // Without a deadline nothing is estimated, however costly.
        cache.set_deadline(None);
        cache.prepare(key, 0, 121, make(100.0));
        assert!(!cache.estimated() && cache.settled());
    }

    /// Two runs of the same length at the same zoom: the second run's columns, marks and
    /// statistics are its own as soon as its key differs by run or by generation alone.
    #[test]
    fn another_run_or_generation_starts_over() {
        // Run 1: 1000 frames of 2 ms; run 2: 1000 frames of 6 ms (marks every 10th).
        let (a, b) = (vec![2.0; 1000], vec![6.0; 1000]);
        let starts = |v: &[f64]| -> Vec<f64> { (0..v.len()).map(|i| v[..i].iter().sum()).collect() };
        let (sa, sb) = (starts(&a), starts(&b));
        let (ia, ib) = (SeriesIndex::new(&a), SeriesIndex::new(&b));
        let dt = 12.0;
        let key = CacheKey { run: 1, trace: 0, generation: 3, ms_per_column: dt, width: 100.0 };
        let mut cache = ColumnCache::default();
        cache.prepare(key, 0, 100, |first, n| column_ranges(&sa, &a, first as f64 * dt, dt, n));
        // 12 ms columns over 2 ms frames: the first holds frames 0 to 5 (starting at 0,
        // 2, …, 10 ms; frame 6 starts at 12 ms, in the next column).
        assert_eq!(cache.columns[0], 0..6);
        assert_eq!(cache.stats(("presents", 0), &ia, &a, None)[0].frames, 6);
        let marks: Vec<u32> = (0..1000).step_by(10).collect();
        assert_eq!(cache.counts(("stutters", 0), &marks)[0], 1);
        for other in [CacheKey { run: 2, ..key }, CacheKey { run: 2, generation: 4, ..key }] {
            cache.prepare(other, 0, 100, |first, n| column_ranges(&sb, &b, first as f64 * dt, dt, n));
            // 12 ms columns over 6 ms frames: frames 0 and 1; of marks at frames 1 and 2,
            // one is under it (the first run's columns would hold both).
            assert_eq!(cache.columns[0], 0..2, "{other:?}");
            let s = cache.stats(("presents", 0), &ib, &b, None)[0];
            assert_eq!((s.frames, s.typical), (2, 6.0), "{other:?}");
            assert_eq!(cache.counts(("stutters", 0), &[1, 2])[0], 1, "{other:?}");
        }
        assert_eq!(cache.key(), Some(CacheKey { run: 2, generation: 4, ..key }));
    }
}
