//! Level of detail: the slowest frame of any range of frames in O(16 · levels), so a
//! timeline row costs O(pixel columns · log n) per UI frame whatever the trace length.
//! A spike is never averaged away: every pixel column shows its maximum.

use std::collections::HashMap;
use std::ops::Range;

/// What a timeline's column picks depend on: trace, view, width, analysis.
pub type CacheKey = (usize, u64, u64, u32, usize);

/// The frames under each pixel column and each row's pick per column, kept until the
/// view, the width, the trace or its analysis changes: a UI frame where only the
/// pointer moves costs one pass over the pixel columns.
#[derive(Debug, Default)]
pub struct ColumnCache {
    key: Option<CacheKey>,
    /// The frames under each pixel column.
    pub columns: Vec<Range<usize>>,
    picks: HashMap<(u8, usize), Vec<Option<u32>>>,
}

impl ColumnCache {
    /// Makes sure the columns are those of `key`, computing them with `columns` if not.
    pub fn prepare(&mut self, key: CacheKey, columns: impl FnOnce() -> Vec<Range<usize>>) {
        if self.key != Some(key) {
            self.key = Some(key);
            self.columns = columns();
            self.picks.clear();
        }
    }

    /// The slowest frame under each column for one row (`row` names it in the cache).
    pub fn picks(&mut self, row: (u8, usize), index: &MaxIndex, values: &[f64]) -> &[Option<u32>] {
        let columns = &self.columns;
        self.picks.entry(row).or_insert_with(|| {
            columns.iter().map(|r| index.argmax(values, r.clone()).map(|i| i as u32)).collect()
        })
    }
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
