//! Which display intervals fit a candidate period, counted over the sorted distinct
//! intervals: the intervals within tolerance of `k · period` are one run of the sorted
//! values for each `k`, found by two binary searches, so a candidate costs a few
//! searches per multiple that holds intervals instead of a test of every distinct
//! interval (a capture of a few thousand frames has nearly as many distinct intervals
//! as frames: the batch's small captures spent a seventh of their time scoring).
//!
//! The runs are exactly the intervals [`super::fits`] accepts: `d − k·p` is monotone in
//! `d` (rounding is), so `|d − k·p| ≤ tol` holds on one run of the sorted values, and
//! any `d` in it rounds to `k` periods (`tol ≤ 0.054 · p`, far from a half period).
//! Intervals from [`RUN_LIMIT_MS`] on (where that margin is no longer certain in
//! floating point), zero, negative or not finite are tested one by one as before.

use super::{Distinct, fits, periods, tolerance_ms};

/// Intervals at or above this are tested one by one (no real display interval is
/// anywhere near: 10^9 ms is 11 days).
const RUN_LIMIT_MS: f64 = 1e9;

/// The distinct intervals sorted, with the running count of intervals up to each.
pub(super) struct SortedIntervals {
    /// Distinct intervals in `(0, RUN_LIMIT_MS)`, ascending.
    values: Vec<f64>,
    /// `prefix[i]`: intervals (with repeats) among `values[..i]`; one longer than `values`.
    prefix: Vec<u64>,
    /// Every other distinct interval with its count, tested one by one.
    rest: Vec<(f64, u32)>,
    /// All intervals, with repeats.
    pub(super) total: usize,
}

impl SortedIntervals {
    /// Sorts the distinct intervals of `distinct`.
    pub(super) fn of(distinct: &Distinct) -> Self {
        let (mut pairs, mut rest) = (Vec::with_capacity(distinct.values.len()), Vec::new());
        for (&d, &c) in distinct.values.iter().zip(&distinct.counts) {
            if d > 0.0 && d < RUN_LIMIT_MS { pairs.push((d, c)) } else { rest.push((d, c)) }
        }
        pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut prefix = Vec::with_capacity(pairs.len() + 1);
        prefix.push(0);
        let mut sum = 0u64;
        for &(_, c) in &pairs {
            sum += u64::from(c);
            prefix.push(sum);
        }
        Self { values: pairs.into_iter().map(|p| p.0).collect(), prefix, rest, total: distinct.total }
    }

    /// The runs of `values` (index ranges, ascending and disjoint) that fit `period`.
    fn runs(&self, period: f64) -> Vec<(usize, usize)> {
        let (tol, inv) = (tolerance_ms(period), 1.0 / period);
        let mut runs = Vec::new();
        let (mut start, mut last_k) = (0, 0.0);
        while let Some(&first) = self.values.get(start) {
            // The next multiple that may hold intervals: the first unvisited one's (the
            // ones between were passed over), and never the same one twice.
            let k = periods(first, period, inv).max(1.0).max(last_k + 1.0);
            let at = k * period;
            let rest = &self.values[start..];
            let lo = start + rest.partition_point(|&d| d - at < -tol);
            let hi = start + rest.partition_point(|&d| d - at <= tol);
            if hi > lo {
                runs.push((lo, hi));
            }
            (start, last_k) = (hi, k);
        }
        runs
    }

    /// Intervals (with repeats) in `runs`.
    fn count(&self, runs: &[(usize, usize)]) -> u64 {
        runs.iter().map(|&(lo, hi)| self.prefix[hi] - self.prefix[lo]).sum()
    }

    /// Intervals (with repeats) among those tested one by one that `keep` accepts.
    fn count_rest(&self, keep: impl Fn(f64) -> bool) -> u64 {
        self.rest.iter().filter(|&&(d, _)| keep(d)).map(|&(_, c)| u64::from(c)).sum()
    }

    /// Intervals (with repeats) that are a whole number (≥ 1) of `period`.
    pub(super) fn hits(&self, period: f64) -> u64 {
        self.count(&self.runs(period)) + self.count_rest(|d| fits(d, period))
    }

    /// Intervals (with repeats) that fit `best` but not `period`.
    pub(super) fn against(&self, period: f64, best: f64) -> u64 {
        let (of_best, of_period) = (self.runs(best), self.runs(period));
        let both = self.count(&intersection(&of_best, &of_period));
        self.count(&of_best) - both + self.count_rest(|d| fits(d, best) && !fits(d, period))
    }
}

/// The index ranges in both lists of ascending, disjoint ranges.
fn intersection(a: &[(usize, usize)], b: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while let (Some(&(a_lo, a_hi)), Some(&(b_lo, b_hi))) = (a.get(i), b.get(j)) {
        let (lo, hi) = (a_lo.max(b_lo), a_hi.min(b_hi));
        if lo < hi {
            out.push((lo, hi));
        }
        if a_hi <= b_hi {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::CANDIDATE_HZ;
    use super::*;

    /// The counts over sorted runs equal testing every interval, for every candidate
    /// rate, on series that sit on, next to and between multiples (tolerance edges,
    /// half periods, repeats, zero, negative, NaN, infinite and huge intervals).
    #[test]
    fn runs_count_what_testing_each_interval_counts() {
        let mut x: u64 = 7;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for &hz in &CANDIDATE_HZ {
            let p = 1000.0 / hz;
            let tol = tolerance_ms(p);
            let mut intervals: Vec<f64> = (0..3000)
                .map(|i| {
                    let k = (next() % 12) as f64;
                    match i % 6 {
                        0 => (next() % 100_000) as f64 / 1000.0,
                        1 => k * p + tol,
                        2 => k * p - tol,
                        3 => (k + 0.5) * p,
                        4 => k * p + tol * (1.0 + 1e-15),
                        _ => ((next() % 40_000) as f64 / 10_000.0 + 6.5 * k).max(0.0),
                    }
                })
                .collect();
            intervals.extend([0.0, -3.0, f64::NAN, f64::INFINITY, 2e9 * p, 5e9, 1e300, p, p]);
            let distinct = Distinct::of(intervals.iter().copied());
            let sorted = SortedIntervals::of(&distinct);
            let each = |keep: &dyn Fn(f64) -> bool| -> u64 {
                distinct
                    .values
                    .iter()
                    .zip(&distinct.counts)
                    .filter(|(d, _)| keep(**d))
                    .map(|(_, c)| u64::from(*c))
                    .sum()
            };
            assert_eq!(sorted.hits(p), each(&|d| fits(d, p)), "{hz} Hz");
            for &other in &CANDIDATE_HZ {
                let q = 1000.0 / other;
                assert_eq!(
                    sorted.against(q, p),
                    each(&|d| fits(d, p) && !fits(d, q)),
                    "{other} against {hz} Hz"
                );
            }
        }
    }

    /// By hand: 60 Hz (16.667 ms, tolerance 0.5 ms) over 16.5, 16.6 ×2, 17.2, 25, 33.0,
    /// 33.4, 50.2: the runs are {16.5, 16.6} (3 intervals, 17.2 is 0.53 off), {33.0,
    /// 33.4} and {50.2}; 25 is 1.5 periods. 6 of 8 fit.
    #[test]
    fn runs_by_hand() {
        let intervals = [16.5, 16.6, 17.2, 25.0, 33.0, 33.4, 50.2, 16.6];
        let sorted = SortedIntervals::of(&Distinct::of(intervals.iter().copied()));
        let p = 1000.0 / 60.0;
        assert_eq!(sorted.runs(p), vec![(0, 2), (4, 6), (6, 7)]);
        assert_eq!(sorted.hits(p), 6);
        assert_eq!(sorted.total, 8);
        // 120 Hz (8.333 ms, tolerance 0.25 ms) also takes 25.0 (3 periods), but not
        // 33.0 (0.33 from 4 periods) nor 17.2: 6 fit 120 Hz, of which only 25.0 does
        // not fit 60 Hz.
        assert_eq!(sorted.hits(p / 2.0), 6);
        assert_eq!(sorted.against(p, p / 2.0), 1);
    }
}
