//! The typical frame of any range: a 16-ary pyramid of block medians ([`MedianIndex`],
//! a *remedian*), exact up to [`EXACT_MEDIAN`] frames.

use super::FANOUT;
use std::ops::Range;

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
        Self::from_fn(values.len(), |i| values[i])
    }

    /// Builds the pyramid of the `n` values `at(0)`, …, `at(n − 1)` (O(n)), for a
    /// column computed on the fly.
    #[must_use]
    pub fn from_fn(n: usize, at: impl Fn(usize) -> f64) -> Self {
        let mut levels: Vec<Vec<f32>> = Vec::new();
        let mut buf: Vec<f64> = Vec::with_capacity(FANOUT);
        let mut medians = |chunk: &mut dyn Iterator<Item = f64>| -> f32 {
            buf.clear();
            buf.extend(chunk.filter(|v| v.is_finite()));
            median_in_place(&mut buf) as f32
        };
        if n > 1 {
            let block = |start: usize| start..(start + FANOUT).min(n);
            levels.push((0..n).step_by(FANOUT).map(|s| medians(&mut block(s).map(&at))).collect());
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
        self.typical_by(values.len(), |i| values[i], range, scratch)
    }

    /// [`MedianIndex::typical`] over the `n` values `at(i)` the pyramid was built from
    /// ([`MedianIndex::from_fn`]).
    pub fn typical_by(
        &self,
        n: usize,
        at: impl Fn(usize) -> f64,
        range: Range<usize>,
        scratch: &mut Vec<f64>,
    ) -> f64 {
        let end = range.end.min(n);
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
            None => scratch.extend((start..end).map(at).filter(|v| v.is_finite())),
        }
        median_in_place(scratch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lod::testdata::noisy;

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
}
