//! [`ColumnCache`]: the frames under each pixel column of a view and each row's
//! per-column values, kept while the view pans and recomputed only for the columns
//! that come into view.

use super::{BudgetShares, MedianIndex, SeriesIndex, counts, covered};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::Range;

/// Traces with at least this many frames in view compute their columns in parallel.
const PARALLEL_FRAMES: usize = 200_000;

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
    /// Frames under the column (with or without a value).
    pub frames: u32,
    /// Shares of the column's time in frames over the budget and over twice the budget,
    /// when the shares of the current budget are known.
    pub over: Option<(f32, f32)>,
}

/// Per-row values for a window of columns, starting at global column `.0`.
type Window<T> = (i64, Vec<T>);

/// The frames under each pixel column and each row's per-column values.
///
/// Columns sit on a global grid: column `g` covers `[g·dt, (g+1)·dt)` for the view's
/// time per column `dt`, and the timeline draws the `width` columns from
/// `g₀ = ⌊start / dt⌋` on, less than a pixel left of where the view starts. So while the
/// view only pans (same `dt`), a new frame reuses every column still in view and
/// computes only the few that came in; a frame where only the pointer moves computes
/// nothing. A new zoom, width, run, trace or analysis generation starts over.
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
    scratch: Vec<f64>,
}

/// `window` moved to `count` columns from global column `origin`: the columns it
/// already has are kept, the others computed by `compute` (given a range of positions
/// in the new window, it returns their values in order).
fn slide<T: Copy>(
    window: &mut Window<T>,
    origin: i64,
    count: usize,
    mut compute: impl FnMut(Range<usize>) -> Vec<T>,
) {
    let (old_origin, old) = (window.0, &window.1);
    if old_origin == origin && old.len() == count {
        return;
    }
    let end = origin + count as i64;
    let (keep_from, keep_to) = (origin.max(old_origin), end.min(old_origin + old.len() as i64));
    let values = if keep_from < keep_to {
        let (a, b) = ((keep_from - origin) as usize, (keep_to - origin) as usize);
        let kept = &old[(keep_from - old_origin) as usize..(keep_to - old_origin) as usize];
        let mut v = compute(0..a);
        v.extend_from_slice(kept);
        v.extend(compute(b..count));
        v
    } else {
        compute(0..count)
    };
    *window = (origin, values);
}

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
        if self.key != Some(key) {
            self.key = Some(key);
            self.stats.clear();
            self.typicals.clear();
            self.counts.clear();
            self.columns = columns(origin, count);
            self.origin = origin;
            return;
        }
        if origin == self.origin && count == self.columns.len() {
            return;
        }
        let mut window = (self.origin, std::mem::take(&mut self.columns));
        // Ranges are not `Copy`; the window holds their ends instead.
        let mut ends: Window<(usize, usize)> =
            (window.0, window.1.iter().map(|r| (r.start, r.end)).collect());
        slide(&mut ends, origin, count, |r| {
            columns(origin + r.start as i64, r.len()).into_iter().map(|c| (c.start, c.end)).collect()
        });
        window.1 = ends.1.into_iter().map(|(a, b)| a..b).collect();
        self.columns = window.1;
        self.origin = origin;
    }

    /// The key the cache holds columns for.
    #[must_use]
    pub fn key(&self) -> Option<CacheKey> {
        self.key
    }

    /// How many of `marks` (ascending frame indices) fall under each column ([`counts`],
    /// kept: a binary search per column in a long list of marks misses the CPU cache).
    /// `series` names the marks (and the shaded runs of [`Self::covered`]).
    pub fn counts(&mut self, series: SeriesKey, marks: &[u32]) -> &[u32] {
        let (columns, origin) = (&self.columns, self.origin);
        let w = self.counts.entry(series).or_insert((origin, Vec::new()));
        slide(w, origin, columns.len(), |r| counts(&columns[r], marks));
        &w.1
    }

    /// Every column's frames inside the `runs` ([`covered`], kept like [`Self::counts`]).
    pub fn covered(&mut self, series: SeriesKey, runs: &[(u32, u32)], prefix: &[u64]) -> &[u32] {
        let (columns, origin) = (&self.columns, self.origin);
        let w = self.counts.entry(series).or_insert((origin, Vec::new()));
        slide(w, origin, columns.len(), |r| covered(&columns[r], runs, prefix));
        &w.1
    }

    /// Every column's typical value of one series (a latency stage).
    pub fn typicals(&mut self, series: SeriesKey, index: &MedianIndex, values: &[f64]) -> &[f64] {
        let (columns, origin, scratch) = (&self.columns, self.origin, &mut self.scratch);
        let w = self.typicals.entry(series).or_insert((origin, Vec::new()));
        slide(w, origin, columns.len(), |r| {
            columns[r].iter().map(|c| index.typical(values, c.clone(), scratch)).collect()
        });
        &w.1
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
        let (columns, origin) = (&self.columns, self.origin);
        let w = self.stats.entry((series, shared)).or_insert((origin, Vec::new()));
        let stat = |scratch: &mut Vec<f64>, r: &Range<usize>| ColumnStat {
            typical: index.median.typical_by(n, &at, r.clone(), scratch),
            max: index.max.argmax_by(n, &at, r.clone()).map(|i| i as u32),
            frames: r.len() as u32,
            over: over(r.clone()),
        };
        slide(w, origin, columns.len(), |part| {
            let part = &columns[part];
            // Zoomed out, a column is a few hundred pyramid reads: worth the other
            // cores when many columns of a long trace come into view at once.
            let in_view =
                part.last().map_or(0, |r| r.end).saturating_sub(part.first().map_or(0, |r| r.start));
            if in_view >= PARALLEL_FRAMES {
                part.par_iter().map_init(Vec::new, stat).collect()
            } else {
                let mut scratch = Vec::new();
                part.iter().map(|r| stat(&mut scratch, r)).collect()
            }
        });
        &w.1
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
