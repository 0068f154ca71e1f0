//! Level of detail: the slowest frame of any range of frames in O(16 · levels), so a
//! timeline row costs O(pixel columns · log n) per UI frame whatever the trace length.
//! A spike is never averaged away: every pixel column shows its maximum.

use std::ops::Range;

/// Frames per block at each level step.
const FANOUT: usize = 16;

/// Arg-max pyramid over a value column (NaN counts as the smallest value).
#[derive(Debug, Clone, Default)]
pub struct MaxIndex {
    /// `levels[k][b]` is the index of the largest value in block `b` of size 16^(k+1).
    levels: Vec<Vec<u32>>,
}

fn better(values: &[f64], a: u32, b: u32) -> u32 {
    let (va, vb) = (values[a as usize], values[b as usize]);
    if vb > va || (va.is_nan() && !vb.is_nan()) { b } else { a }
}

impl MaxIndex {
    /// Builds the pyramid (O(n)).
    #[must_use]
    pub fn new(values: &[f64]) -> Self {
        let mut levels: Vec<Vec<u32>> = Vec::new();
        let mut below: Vec<u32> = (0..values.len() as u32).collect();
        while below.len() > 1 {
            let level: Vec<u32> = below
                .chunks(FANOUT)
                .map(|chunk| chunk.iter().copied().reduce(|a, b| better(values, a, b)).unwrap_or(0))
                .collect();
            below.clone_from(&level);
            levels.push(level);
        }
        Self { levels }
    }

    /// Index of the largest value in `range` (the first one on ties); `None` when the
    /// range is empty.
    #[must_use]
    pub fn argmax(&self, values: &[f64], range: Range<usize>) -> Option<usize> {
        let end = range.end.min(values.len());
        let mut i = range.start;
        let mut best: Option<u32> = None;
        let mut take = |candidate: u32| best = Some(best.map_or(candidate, |b| better(values, b, candidate)));
        while i < end {
            let mut size = 1;
            let mut level = None;
            for (k, _) in self.levels.iter().enumerate() {
                let block = size * FANOUT;
                if i.is_multiple_of(block) && i + block <= end {
                    size = block;
                    level = Some(k);
                } else {
                    break;
                }
            }
            match level {
                Some(k) => take(self.levels[k][i / size]),
                None => take(i as u32),
            }
            i += size;
        }
        best.map(|b| b as usize)
    }
}

/// The frames whose interval `[start, start + frame_time]` overlaps `[t0, t1)`, given
/// frames sorted by start.
#[must_use]
pub fn frames_in(start_ms: &[f64], frame_time_ms: &[f64], t0: f64, t1: f64) -> Range<usize> {
    let mut first = start_ms.partition_point(|&s| s < t0);
    if first > 0 && start_ms[first - 1] + frame_time_ms[first - 1] > t0 {
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
    fn frames_overlapping_a_time_range() {
        let start = [0.0, 10.0, 20.0, 30.0];
        let ft = [10.0, 10.0, 10.0, 10.0];
        assert_eq!(frames_in(&start, &ft, 15.0, 25.0), 1..3);
        assert_eq!(frames_in(&start, &ft, 10.0, 10.5), 1..2);
        assert_eq!(frames_in(&start, &ft, 45.0, 50.0), 4..4);
        assert_eq!(frames_in(&start, &ft, -5.0, 1.0), 0..1);
    }
}
