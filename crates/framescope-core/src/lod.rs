//! Level of detail: what a pixel column of a timeline row shows, whatever the number
//! of frames under it, in O(levels · 16) per column.
//!
//! A zoomed-out column summarises its frames: the *typical* frame (a median) is the
//! bar, the *slowest* a whisker with a mark (a spike is never averaged away), and the
//! share of the column's time spent in frames over the target budget colours it. Three
//! per-series structures make that cheap at every zoom:
//!
//! * [`MaxIndex`], a 16-ary arg-max pyramid: the slowest frame of any range;
//! * [`MedianIndex`], a 16-ary pyramid of block medians (a *remedian*, Rousseeuw &
//!   Bassett 1990): the median of a range is exact up to [`EXACT_MEDIAN`] frames, and
//!   beyond that the median of the medians of the whole blocks of the coarsest level
//!   that has at least [`MIN_BLOCKS`] of them inside the range — an approximation that
//!   leaves out the partial blocks at the range's edges (at most a third of its frames)
//!   and weighs blocks, not frames, so it is exact for a run of alike frames and a rare
//!   spike never moves it;
//! * [`BudgetShares`], prefix sums per block of [`SHARE_BLOCK`] frames of the time
//!   spent over the budget and over twice the budget: exact shares for any range (the
//!   partial blocks at its edges are read frame by frame). They depend on the target,
//!   so they are rebuilt (O(n), on the analysis worker) when it changes.

use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::Range;

/// Traces with at least this many frames in view compute their columns in parallel.
const PARALLEL_FRAMES: usize = 200_000;

/// Frames within this fraction of the target frame time count as on target when
/// colouring (a 60 Hz display's 16.68 ms intervals against a 60 FPS target's
/// 16.67 ms). The figures follow `metrics.md` to the letter; only colours use it.
pub const ON_TARGET_TOLERANCE: f64 = 0.005;

/// The target frame time and the two limits the colours use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// 1000 / target FPS.
    pub budget_ms: f64,
    /// Slower than this is over budget (the budget plus [`ON_TARGET_TOLERANCE`]).
    pub over_ms: f64,
    /// Slower than this is far over budget (twice `over_ms`).
    pub far_ms: f64,
}

/// Where a frame time falls against a [`Budget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Within the budget (and its tolerance).
    Within,
    /// Over it.
    Over,
    /// Over twice the budget.
    FarOver,
}

impl Budget {
    /// The budget of a target rate.
    #[must_use]
    pub fn of_fps(target_fps: f64) -> Self {
        let budget_ms = 1000.0 / target_fps;
        let over_ms = budget_ms * (1.0 + ON_TARGET_TOLERANCE);
        Self { budget_ms, over_ms, far_ms: 2.0 * over_ms }
    }

    /// Where `ms` falls.
    #[must_use]
    pub fn verdict(&self, ms: f64) -> Verdict {
        if ms > self.far_ms {
            Verdict::FarOver
        } else if ms > self.over_ms {
            Verdict::Over
        } else {
            Verdict::Within
        }
    }
}

/// A row's key in the [`ColumnCache`]: what the row draws (a small number per kind of
/// series, and an index for rows of one kind) and whether shares were given.
pub type RowKey = (u8, usize, bool);

/// What the cache's contents depend on besides the columns' place: trace, time per
/// column, width, analysis.
pub type CacheKey = (usize, u64, u32, usize);

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
/// nothing. A new zoom, width, trace or analysis starts over.
#[derive(Debug, Default)]
pub struct ColumnCache {
    key: Option<CacheKey>,
    /// The global index of the first column.
    origin: i64,
    /// The frames under each pixel column.
    pub columns: Vec<Range<usize>>,
    stats: HashMap<RowKey, Window<ColumnStat>>,
    typicals: HashMap<(u8, usize), Window<f64>>,
    counts: HashMap<(usize, usize), Window<u32>>,
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

    /// How many of `marks` (ascending frame indices) fall under each column ([`counts`],
    /// kept: a binary search per column in a long list of marks misses the CPU cache).
    pub fn counts(&mut self, marks: &[u32]) -> &[u32] {
        let (columns, origin) = (&self.columns, self.origin);
        let w = self.counts.entry((marks.as_ptr() as usize, marks.len())).or_insert((origin, Vec::new()));
        slide(w, origin, columns.len(), |r| counts(&columns[r], marks));
        &w.1
    }

    /// Every column's frames inside the `runs` ([`covered`], kept like [`Self::counts`]).
    pub fn covered(&mut self, runs: &[(u32, u32)], prefix: &[u64]) -> &[u32] {
        let (columns, origin) = (&self.columns, self.origin);
        let w = self.counts.entry((runs.as_ptr() as usize, usize::MAX)).or_insert((origin, Vec::new()));
        slide(w, origin, columns.len(), |r| covered(&columns[r], runs, prefix));
        &w.1
    }

    /// Every column's typical value of one series (a latency stage).
    pub fn typicals(&mut self, row: (u8, usize), index: &MedianIndex, values: &[f64]) -> &[f64] {
        let (columns, origin, scratch) = (&self.columns, self.origin, &mut self.scratch);
        let w = self.typicals.entry(row).or_insert((origin, Vec::new()));
        slide(w, origin, columns.len(), |r| {
            columns[r].iter().map(|c| index.typical(values, c.clone(), scratch)).collect()
        });
        &w.1
    }

    /// Every column's statistics for one row (`row` names it in the cache).
    pub fn stats(
        &mut self,
        row: (u8, usize),
        index: &SeriesIndex,
        values: &[f64],
        shares: Option<&BudgetShares>,
    ) -> &[ColumnStat] {
        let (columns, origin) = (&self.columns, self.origin);
        let w = self.stats.entry((row.0, row.1, shares.is_some())).or_insert((origin, Vec::new()));
        let stat = |scratch: &mut Vec<f64>, r: &Range<usize>| ColumnStat {
            typical: index.median.typical(values, r.clone(), scratch),
            max: index.max.argmax(values, r.clone()).map(|i| i as u32),
            frames: r.len() as u32,
            over: shares.and_then(|s| s.share(values, r.clone())),
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

/// The two pyramids of one series: slowest and typical value of any range.
#[derive(Debug, Clone, Default)]
pub struct SeriesIndex {
    /// The slowest frame of a range.
    pub max: MaxIndex,
    /// The typical (median) value of a range.
    pub median: MedianIndex,
}

impl SeriesIndex {
    /// Builds both pyramids (O(n)).
    #[must_use]
    pub fn new(values: &[f64]) -> Self {
        Self { max: MaxIndex::new(values), median: MedianIndex::new(values) }
    }
}

/// A range up to this many frames gets its exact median.
pub const EXACT_MEDIAN: usize = 64;
/// A longer range takes the medians of at least this many whole blocks.
pub const MIN_BLOCKS: usize = 4;

/// The median of the finite values in `buf` (the mean of the two middle ones for an
/// even count; NaN when there are none). Reorders `buf`.
fn median_in_place(buf: &mut [f64]) -> f64 {
    let n = buf.len();
    if n == 0 {
        return f64::NAN;
    }
    let (below, &mut mid, _) = buf.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        return mid;
    }
    let lower = below.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    f64::midpoint(lower, mid)
}

/// Pyramid of block medians: `levels[k]` holds the median of each block of 16^(k+1)
/// frames (level 0 over the frames, each level above over the medians below it), as
/// f32 (a colour and a bar height need no more), NaN for a block without values.
#[derive(Debug, Clone, Default)]
pub struct MedianIndex {
    levels: Vec<Vec<f32>>,
}

impl MedianIndex {
    /// Builds the pyramid (O(n)).
    #[must_use]
    pub fn new(values: &[f64]) -> Self {
        let mut levels: Vec<Vec<f32>> = Vec::new();
        let mut buf: Vec<f64> = Vec::with_capacity(FANOUT);
        let mut medians = |chunk: &mut dyn Iterator<Item = f64>| -> f32 {
            buf.clear();
            buf.extend(chunk.filter(|v| v.is_finite()));
            median_in_place(&mut buf) as f32
        };
        if values.len() > 1 {
            levels.push(values.chunks(FANOUT).map(|c| medians(&mut c.iter().copied())).collect());
        }
        while let Some(below) = levels.last().filter(|l| l.len() > 1) {
            let level: Vec<f32> =
                below.chunks(FANOUT).map(|c| medians(&mut c.iter().map(|&v| f64::from(v)))).collect();
            levels.push(level);
        }
        Self { levels }
    }

    /// The typical value of `values[range]`: exact up to [`EXACT_MEDIAN`] frames (and
    /// whenever no level has [`MIN_BLOCKS`] whole blocks inside), else the median of
    /// the whole blocks' medians at the coarsest level that has that many. NaN when no
    /// frame has a value. `scratch` is reused between calls.
    pub fn typical(&self, values: &[f64], range: Range<usize>, scratch: &mut Vec<f64>) -> f64 {
        let end = range.end.min(values.len());
        let start = range.start.min(end);
        scratch.clear();
        let mut chosen = None;
        if end - start > EXACT_MEDIAN {
            let mut size = FANOUT;
            for level in &self.levels {
                let (first, last) = (start.div_ceil(size), end / size);
                if last < first + MIN_BLOCKS {
                    break;
                }
                chosen = Some((level, first, last));
                size *= FANOUT;
            }
        }
        match chosen {
            Some((level, first, last)) => {
                scratch.extend(level[first..last].iter().filter(|v| v.is_finite()).map(|&v| f64::from(v)));
            }
            None => scratch.extend(values[start..end].iter().copied().filter(|v| v.is_finite())),
        }
        median_in_place(scratch)
    }
}

/// Frames per block of [`BudgetShares`].
pub const SHARE_BLOCK: usize = 32;

/// Time over the budget, per range of frames: prefix sums per block of
/// [`SHARE_BLOCK`] frames of (time, time in frames over budget, time in frames over
/// twice the budget), 0.75 bytes a frame.
#[derive(Debug, Clone)]
pub struct BudgetShares {
    /// The budget the sums are of.
    pub budget: Budget,
    prefix: Vec<[f64; 3]>,
}

impl BudgetShares {
    /// The sums of `values` against `budget` (O(n)).
    #[must_use]
    pub fn new(values: &[f64], budget: Budget) -> Self {
        let mut prefix = Vec::with_capacity(values.len() / SHARE_BLOCK + 2);
        let mut acc = [0.0; 3];
        prefix.push(acc);
        for block in values.chunks(SHARE_BLOCK) {
            let part = sums(block, budget);
            for (a, p) in acc.iter_mut().zip(part) {
                *a += p;
            }
            prefix.push(acc);
        }
        Self { budget, prefix }
    }

    /// (time, over, far over) of `values[range]`.
    #[must_use]
    pub fn sums(&self, values: &[f64], range: Range<usize>) -> [f64; 3] {
        let end = range.end.min(values.len());
        let start = range.start.min(end);
        let (first, last) = (start.div_ceil(SHARE_BLOCK), end / SHARE_BLOCK);
        if last <= first {
            return sums(&values[start..end], self.budget);
        }
        let head = sums(&values[start..first * SHARE_BLOCK], self.budget);
        let tail = sums(&values[last * SHARE_BLOCK..end], self.budget);
        let (a, b) = (self.prefix[first], self.prefix[last]);
        std::array::from_fn(|k| b[k] - a[k] + head[k] + tail[k])
    }

    /// The shares of `values[range]`'s time over the budget and over twice the budget;
    /// `None` when the range holds no time.
    #[must_use]
    pub fn share(&self, values: &[f64], range: Range<usize>) -> Option<(f32, f32)> {
        let [time, over, far] = self.sums(values, range);
        (time > 0.0).then(|| ((over / time).clamp(0.0, 1.0) as f32, (far / time).clamp(0.0, 1.0) as f32))
    }
}

/// (time, over, far over) of a few frames; values that are not positive numbers count
/// nowhere.
fn sums(values: &[f64], budget: Budget) -> [f64; 3] {
    let mut s = [0.0; 3];
    for &v in values {
        if v > 0.0 && v.is_finite() {
            s[0] += v;
            if v > budget.over_ms {
                s[1] += v;
                if v > budget.far_ms {
                    s[2] += v;
                }
            }
        }
    }
    s
}

/// How many of `marks` (ascending frame indices) fall under each column.
#[must_use]
pub fn counts(columns: &[Range<usize>], marks: &[u32]) -> Vec<u32> {
    // Column starts never go back, so each search gallops on from the last one: the
    // marks between two columns are read once, in order, instead of a binary search
    // over the whole list per column (which misses the CPU cache on long lists).
    let mut from = 0;
    columns
        .iter()
        .map(|r| {
            from = gallop_marks(marks, from, r.start);
            (gallop_marks(marks, from, r.end) - from) as u32
        })
        .collect()
}

/// The number of `marks` below `x`, searching from `from` (which must not be past it).
fn gallop_marks(marks: &[u32], from: usize, x: usize) -> usize {
    let below = |k: usize| (marks[k] as usize) < x;
    let n = marks.len();
    let mut step = 1;
    let mut lo = from;
    while lo + step <= n && below(lo + step - 1) {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(n);
    lo + marks[lo..hi].partition_point(|&i| (i as usize) < x)
}

/// How many frames of each column lie in the ascending, disjoint `[first, last]`
/// `runs`; `prefix[j]` is the number of frames in `runs[..j]`.
#[must_use]
pub fn covered(columns: &[Range<usize>], runs: &[(u32, u32)], prefix: &[u64]) -> Vec<u32> {
    // Frames of the runs before frame `x` (exclusive).
    let upto = |x: usize| -> u64 {
        let j = runs.partition_point(|&(a, _)| (a as usize) < x);
        let mut n = prefix.get(j).copied().unwrap_or(0);
        if j > 0 {
            let (a, b) = runs[j - 1];
            // Run j-1 starts before x; take back what lies at or after x.
            let len = u64::from(b - a) + 1;
            let inside = (x as u64).saturating_sub(u64::from(a)).min(len);
            n = n - len + inside;
        }
        n
    };
    columns.iter().map(|r| (upto(r.end) - upto(r.start)) as u32).collect()
}

/// The number of frames in `runs[..j]`, for every j (`runs.len() + 1` entries).
#[must_use]
pub fn run_prefix(runs: &[(u32, u32)]) -> Vec<u64> {
    let mut acc = 0;
    let mut out = Vec::with_capacity(runs.len() + 1);
    out.push(0);
    for &(a, b) in runs {
        acc += u64::from(b.saturating_sub(a)) + 1;
        out.push(acc);
    }
    out
}

/// Frames per block at each level step.
const FANOUT: usize = 16;

/// Arg-max pyramid over a value column (NaN counts as the smallest value). Each
/// level keeps its blocks' maximum values beside their indices, so a query reads a
/// few contiguous entries instead of jumping around the column.
#[derive(Debug, Clone, Default)]
pub struct MaxIndex {
    /// `levels[k]` covers blocks of 16^(k+1) frames: (index of the maximum, maximum).
    levels: Vec<(Vec<u32>, Vec<f64>)>,
}

/// The larger of two (index, value) pairs; the first on ties, NaN the smallest.
fn better(a: (u32, f64), b: (u32, f64)) -> (u32, f64) {
    if b.1 > a.1 || (a.1.is_nan() && !b.1.is_nan()) { b } else { a }
}

impl MaxIndex {
    /// Builds the pyramid (O(n)).
    #[must_use]
    pub fn new(values: &[f64]) -> Self {
        let mut levels: Vec<(Vec<u32>, Vec<f64>)> = Vec::new();
        let mut below: Vec<(u32, f64)> = values.iter().enumerate().map(|(i, &v)| (i as u32, v)).collect();
        while below.len() > 1 {
            let level: Vec<(u32, f64)> = below
                .chunks(FANOUT)
                .map(|chunk| chunk.iter().copied().reduce(better).unwrap_or((0, f64::NAN)))
                .collect();
            levels.push(level.iter().copied().unzip());
            below = level;
        }
        Self { levels }
    }

    /// Index of the largest value in `range` (the first one on ties); `None` when the
    /// range is empty.
    #[must_use]
    pub fn argmax(&self, values: &[f64], range: Range<usize>) -> Option<usize> {
        let end = range.end.min(values.len());
        let mut i = range.start;
        let mut best: Option<(u32, f64)> = None;
        while i < end {
            let mut size = 1;
            let mut level = None;
            for k in 0..self.levels.len() {
                let block = size * FANOUT;
                if i.is_multiple_of(block) && i + block <= end {
                    size = block;
                    level = Some(k);
                } else {
                    break;
                }
            }
            let candidate = match level {
                Some(k) => (self.levels[k].0[i / size], self.levels[k].1[i / size]),
                None => (i as u32, values[i]),
            };
            best = Some(best.map_or(candidate, |b| better(b, candidate)));
            i += size;
        }
        best.map(|b| b.0 as usize)
    }
}

/// For each of `count` consecutive columns of width `dt` from `t0`, the frames under
/// it — one galloping search per column from where the previous one ended, so the
/// cost grows with the log of the frames between columns, not of the trace. Frame `i`
/// covers `start_ms[i] ..= start_ms[i] + span_ms[i]` ([`Frames::spans_ms`]: a sample
/// of a sampled log is as wide as its interval).
///
/// [`Frames::spans_ms`]: crate::model::Frames::spans_ms
#[must_use]
pub fn column_ranges(start_ms: &[f64], span_ms: &[f64], t0: f64, dt: f64, count: usize) -> Vec<Range<usize>> {
    let n = start_ms.len();
    let mut out = Vec::with_capacity(count);
    let mut first = frames_in(start_ms, span_ms, t0, t0).start;
    for c in 0..count {
        let t1 = t0 + dt * (c + 1) as f64;
        let last = gallop(start_ms, first, t1);
        out.push(first..last.max(first));
        // The next column starts with the last frame that began here if it reaches on.
        first = if last > 0 && last <= n && start_ms[last - 1] + span_ms[last - 1] > t1 {
            last - 1
        } else {
            last
        };
    }
    out
}

/// The first index at or after `from` whose start is not below `t`.
fn gallop(start_ms: &[f64], from: usize, t: f64) -> usize {
    let n = start_ms.len();
    let mut step = 1;
    let mut hi = from;
    while hi < n && start_ms[hi] < t {
        hi = from + step;
        step *= 2;
    }
    let lo = from + step / 4;
    let hi = hi.min(n);
    let lo = lo.min(hi);
    lo + start_ms[lo..hi].partition_point(|&s| s < t)
}

/// The frames whose interval `[start, start + span]` overlaps `[t0, t1)`, given
/// frames sorted by start.
#[must_use]
pub fn frames_in(start_ms: &[f64], span_ms: &[f64], t0: f64, t1: f64) -> Range<usize> {
    let mut first = start_ms.partition_point(|&s| s < t0);
    if first > 0 && start_ms[first - 1] + span_ms[first - 1] > t0 {
        first -= 1;
    }
    let last = start_ms.partition_point(|&s| s < t1);
    first..last.max(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_matches_a_scan_on_every_range() {
        let mut x: u32 = 99;
        let values: Vec<f64> = (0..5000)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if i % 97 == 0 { f64::NAN } else { f64::from(x % 1000) }
            })
            .collect();
        let index = MaxIndex::new(&values);
        for (a, b) in
            [(0, 5000), (0, 1), (17, 18), (15, 300), (256, 4096), (4095, 4097), (1000, 1000), (3, 4999)]
        {
            let scan = (a..b).reduce(|p, q| {
                if values[q] > values[p] || values[p].is_nan() && !values[q].is_nan() { q } else { p }
            });
            let got = index.argmax(&values, a..b);
            assert_eq!(got.map(|g| values[g].to_bits()), scan.map(|s| values[s].to_bits()), "{a}..{b}");
        }
        assert_eq!(MaxIndex::new(&[]).argmax(&[], 0..0), None);
    }

    /// A median by sorting, the way the spec defines it.
    fn sorted_median(values: &[f64]) -> f64 {
        let mut v: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        v.sort_unstable_by(f64::total_cmp);
        let n = v.len();
        if n == 0 {
            f64::NAN
        } else if n % 2 == 1 {
            v[n / 2]
        } else {
            f64::midpoint(v[n / 2 - 1], v[n / 2])
        }
    }

    /// ~118 FPS frames (8.2–8.8 ms) with a 40 ms stutter every 500 frames and a NaN
    /// every 97.
    fn noisy(n: usize) -> Vec<f64> {
        let mut x: u32 = 7;
        (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if i % 500 == 250 {
                    40.0
                } else if i % 97 == 3 {
                    f64::NAN
                } else {
                    8.2 + f64::from(x % 600) / 1000.0
                }
            })
            .collect()
    }

    #[test]
    fn typical_is_exact_for_short_ranges_and_close_for_long_ones() {
        let values = noisy(300_000);
        let index = MedianIndex::new(&values);
        let mut scratch = Vec::new();
        for (a, b) in [(0, 1), (5, 6), (0, 17), (100, 164), (1000, 1001)] {
            let got = index.typical(&values, a..b, &mut scratch);
            let want = sorted_median(&values[a..b]);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{a}..{b}: {got} vs {want}"
            );
        }
        // Long ranges: within 0.05 ms of the exact median of 8.2–8.8 ms frames, and the
        // stutters (0.2 %) never move it.
        for (a, b) in [(0, 300_000), (123, 4567), (10_000, 10_500), (77, 200_000), (250, 251 + 64 * 16)] {
            let got = index.typical(&values, a..b, &mut scratch);
            let want = sorted_median(&values[a..b]);
            assert!((got - want).abs() < 0.05, "{a}..{b}: {got} vs {want}");
        }
        assert!(index.typical(&[], 0..0, &mut scratch).is_nan());
        assert!(MedianIndex::new(&[f64::NAN; 40]).typical(&[f64::NAN; 40], 0..40, &mut scratch).is_nan());
        assert!((MedianIndex::new(&[3.0]).typical(&[3.0], 0..1, &mut scratch) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn budget_shares_match_a_scan() {
        let values = noisy(20_000);
        let budget = Budget::of_fps(118.0);
        let shares = BudgetShares::new(&values, budget);
        for (a, b) in
            [(0, 20_000), (0, 1), (31, 33), (250, 251), (100, 5000), (19_990, 20_000), (64, 128), (5, 5)]
        {
            let (mut t, mut o, mut f) = (0.0, 0.0, 0.0);
            for &v in &values[a..b] {
                if v.is_finite() {
                    t += v;
                    if v > budget.over_ms {
                        o += v;
                    }
                    if v > budget.far_ms {
                        f += v;
                    }
                }
            }
            let got = shares.sums(&values, a..b);
            for (g, w) in got.iter().zip([t, o, f]) {
                assert!((g - w).abs() < 1e-6 * w.max(1.0), "{a}..{b}: {got:?} vs {t} {o} {f}");
            }
        }
        // At 60 FPS only the 40 ms stutters are over (and far over) the budget.
        let at_60 = BudgetShares::new(&values, Budget::of_fps(60.0));
        let (over, far) = at_60.share(&values, 0..20_000).unwrap_or_default();
        assert!((0.005..0.02).contains(&over) && (over - far).abs() < 1e-9, "{over} {far}");
        assert_eq!(at_60.share(&values, 3..4), None, "a NaN frame holds no time");
    }

    #[test]
    fn marks_and_runs_are_counted_per_column() {
        let columns = [0..10, 9..20, 20..20, 20..35];
        assert_eq!(counts(&columns, &[0, 9, 15, 34, 40]), [2, 2, 0, 1]);
        // Against one binary search per column, on many columns and marks.
        let marks: Vec<u32> = (0..50_000u32).filter(|i| i % 7 == 0 || i % 61 == 3).collect();
        let many: Vec<Range<usize>> =
            (0..3000_usize).map(|c| (c * 17).saturating_sub(1)..c * 17 + 17).collect();
        let before = |x: usize| marks.partition_point(|&i| (i as usize) < x);
        let want: Vec<u32> = many.iter().map(|r| (before(r.end) - before(r.start)) as u32).collect();
        assert_eq!(counts(&many, &marks), want);
        assert_eq!(counts(&many, &[]), vec![0; 3000]);
        let runs = [(3, 5), (9, 12), (30, 40)];
        let prefix = run_prefix(&runs);
        assert_eq!(prefix, [0, 3, 7, 18]);
        // 0..10: 3,4,5,9; 9..20: 9..=12; 20..35: 30..=34.
        assert_eq!(covered(&columns, &runs, &prefix), [4, 4, 0, 5]);
        let whole = std::slice::from_ref(&(0..100_usize));
        assert_eq!(covered(whole, &[], &run_prefix(&[])), [0]);
    }

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
        let key = (1, dt.to_bits(), 300, 0);
        let make = |first: i64, n: usize| column_ranges(&start, &spans, first as f64 * dt, dt, n);
        let mut panned = ColumnCache::default();
        // Pan right, left past the start, and jump far away.
        for origin in [10, 14, 3, -5, 600, 598] {
            panned.prepare(key, origin, 300, make);
            let stats = panned.stats((0, 0), &index, &values, Some(&shares)).to_vec();
            let counted = panned.counts(&marks).to_vec();
            let mut fresh = ColumnCache::default();
            fresh.prepare(key, origin, 300, make);
            assert_eq!(panned.columns, fresh.columns, "columns at {origin}");
            // NaN typical values (columns before the first frame) compare by their bits.
            let bits = |v: &[ColumnStat]| -> Vec<String> {
                v.iter()
                    .map(|s| format!("{} {:?} {} {:?}", s.typical.to_bits(), s.max, s.frames, s.over))
                    .collect()
            };
            let want = bits(fresh.stats((0, 0), &index, &values, Some(&shares)));
            assert!(bits(&stats) == want, "stats at {origin}");
            assert_eq!(counted, fresh.counts(&marks), "marks at {origin}");
        }
    }

    #[test]
    fn column_ranges_match_one_search_per_column() {
        let start: Vec<f64> = (0..10_000).map(|i| f64::from(i) * 1.5).collect();
        let ft = vec![1.5; 10_000];
        for (t0, dt, count) in
            [(0.0, 0.7, 300), (-10.0, 40.0, 500), (100.0, 0.01, 200), (14_000.0, 10.0, 200)]
        {
            let got = column_ranges(&start, &ft, t0, dt, count);
            for (c, r) in got.iter().enumerate() {
                let a = t0 + dt * c as f64;
                let want = frames_in(&start, &ft, a, a + dt);
                assert_eq!(*r, want, "column {c} of {t0}/{dt}");
            }
        }
    }

    #[test]
    fn frames_overlapping_a_time_range() {
        let start = [0.0, 10.0, 20.0, 30.0];
        let ft = [10.0, 10.0, 10.0, 10.0];
        assert_eq!(frames_in(&start, &ft, 15.0, 25.0), 1..3);
        assert_eq!(frames_in(&start, &ft, 10.0, 10.5), 1..2);
        assert_eq!(frames_in(&start, &ft, 45.0, 50.0), 4..4);
        assert_eq!(frames_in(&start, &ft, -5.0, 1.0), 0..1);
    }
}
