//! The slowest frame of any range: a 16-ary arg-max pyramid ([`MaxIndex`]).

use super::FANOUT;
use std::ops::Range;

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
        Self::from_fn(values.len(), |i| values[i])
    }

    /// Builds the pyramid of the `n` values `at(0)`, …, `at(n − 1)` (O(n)), for a
    /// column computed on the fly (no copy of every value).
    #[must_use]
    pub fn from_fn(n: usize, at: impl Fn(usize) -> f64) -> Self {
        let mut levels: Vec<(Vec<u32>, Vec<f64>)> = Vec::new();
        if n <= 1 {
            return Self { levels };
        }
        // The first level straight from the column (no (index, value) copy of every
        // frame: 16 bytes a frame while it is built).
        let first = (0..n).step_by(FANOUT).map(|start| {
            let block = start..(start + FANOUT).min(n);
            block.map(|i| (i as u32, at(i))).reduce(better).unwrap_or((0, f64::NAN))
        });
        let mut below: Vec<(u32, f64)> = first.collect();
        loop {
            levels.push(below.iter().copied().unzip());
            if below.len() <= 1 {
                break;
            }
            below = below
                .chunks(FANOUT)
                .map(|chunk| chunk.iter().copied().reduce(better).unwrap_or((0, f64::NAN)))
                .collect();
        }
        Self { levels }
    }

    /// Index of the largest value in `range` (the first one on ties); `None` when the
    /// range is empty.
    #[must_use]
    pub fn argmax(&self, values: &[f64], range: Range<usize>) -> Option<usize> {
        self.argmax_by(values.len(), |i| values[i], range)
    }

    /// [`MaxIndex::argmax`] over the `n` values `at(i)` the pyramid was built from
    /// ([`MaxIndex::from_fn`]).
    #[must_use]
    pub fn argmax_by(&self, n: usize, at: impl Fn(usize) -> f64, range: Range<usize>) -> Option<usize> {
        let end = range.end.min(n);
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
                None => (i as u32, at(i)),
            };
            best = Some(best.map_or(candidate, |b| better(b, candidate)));
            i += size;
        }
        best.map(|b| b.0 as usize)
    }
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
        // On the fly, over −v: the smallest value's frame (NaN still the smallest).
        let low = MaxIndex::from_fn(values.len(), |i| -values[i]);
        for (a, b) in [(0, 5000), (15, 300), (256, 4096), (3, 4999)] {
            let scan = (a..b).reduce(|p, q| {
                if values[q] < values[p] || values[p].is_nan() && !values[q].is_nan() { q } else { p }
            });
            let got = low.argmax_by(values.len(), |i| -values[i], a..b);
            assert_eq!(got.map(|g| values[g].to_bits()), scan.map(|s| values[s].to_bits()), "{a}..{b}");
        }
    }

    /// The pyramid built from the column directly is the one built from an (index,
    /// value) copy of every frame (the old way), level for level, at sizes around the
    /// block edges.
    #[test]
    fn the_levels_are_those_of_the_index_value_copy() {
        for n in [0, 1, 2, 15, 16, 17, 255, 256, 257, 4097] {
            let values: Vec<f64> = (0..n)
                .map(|i| if i % 7 == 3 { f64::NAN } else { f64::from((i * 37 % 101) as u32) })
                .collect();
            let mut old: Vec<(Vec<u32>, Vec<f64>)> = Vec::new();
            let mut below: Vec<(u32, f64)> = values.iter().enumerate().map(|(i, &v)| (i as u32, v)).collect();
            while below.len() > 1 {
                let level: Vec<(u32, f64)> = below
                    .chunks(FANOUT)
                    .map(|c| c.iter().copied().reduce(better).unwrap_or((0, f64::NAN)))
                    .collect();
                old.push(level.iter().copied().unzip());
                below = level;
            }
            let new = MaxIndex::new(&values).levels;
            assert_eq!(new.len(), old.len(), "{n} frames");
            for (a, b) in new.iter().zip(&old) {
                assert_eq!(a.0, b.0, "{n} frames");
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a.1), bits(&b.1), "{n} frames");
            }
        }
    }
}
