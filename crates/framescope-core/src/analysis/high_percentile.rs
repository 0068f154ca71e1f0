//! [`percentile_unsorted`]: a high percentile of values in any order, without sorting
//! a copy of them: only the values from the percentile's rank up are kept (a p99 of
//! 10 M frames keeps 100 000 values, not 10 M). Bit-identical to
//! [`percentile`](crate::model::percentile) of the values sorted with `f64::total_cmp`.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// An `f64` ordered by `total_cmp`.
#[derive(Clone, Copy)]
struct Total(f64);

impl PartialEq for Total {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0) == Ordering::Equal
    }
}

impl Eq for Total {}

impl PartialOrd for Total {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Total {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Percentile `p` (0..=1) of `values` as [`percentile`](crate::model::percentile) gives
/// it for the values sorted ascending by `f64::total_cmp`; NaN when there is none.
/// `values` is read twice (a count, then the values). Keeps the values from rank
/// `⌊(n − 1) · p⌋` up (a copy of all of them, sorted, when that is over a quarter).
#[must_use]
pub fn percentile_unsorted<I: Iterator<Item = f64> + Clone>(values: I, p: f64) -> f64 {
    let n = values.clone().count();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h as usize;
    let top = n - lo;
    if top > n / 4 {
        let mut sorted: Vec<f64> = Vec::with_capacity(n);
        sorted.extend(values);
        sorted.sort_unstable_by(f64::total_cmp);
        return crate::model::percentile(&sorted, p);
    }
    // The `top` largest values: the smallest of them is rank `lo`, the next `lo + 1`.
    let mut heap: BinaryHeap<Reverse<Total>> = BinaryHeap::with_capacity(top + 1);
    for v in values {
        if heap.len() < top {
            heap.push(Reverse(Total(v)));
        } else if heap.peek().is_some_and(|m| Total(v) > m.0) {
            heap.pop();
            heap.push(Reverse(Total(v)));
        }
    }
    let Some(Reverse(Total(at_lo))) = heap.pop() else { return f64::NAN };
    let frac = h - lo as f64;
    match heap.peek() {
        Some(&Reverse(Total(next))) if frac > 0.0 => at_lo + frac * (next - at_lo),
        _ => at_lo,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_the_percentile_of_the_sorted_values() {
        let mut x: u32 = 7;
        let values: Vec<f64> = (0..20_011)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if i % 101 == 0 { 6.5 } else { f64::from(x % 10_007) / 13.0 - 5.0 }
            })
            .collect();
        let mut sorted = values.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        for p in [0.99, 0.999, 0.95, 0.5, 0.1, 1.0, 0.0, 0.987_654] {
            let want = crate::model::percentile(&sorted, p);
            assert_eq!(percentile_unsorted(values.iter().copied(), p).to_bits(), want.to_bits(), "p {p}");
        }
        // Few values, repeated ones, none.
        for v in [vec![3.0], vec![2.0, 2.0, 2.0], vec![1.0, 4.0], vec![]] {
            let mut s = v.clone();
            s.sort_unstable_by(f64::total_cmp);
            let (got, want) =
                (percentile_unsorted(v.iter().copied(), 0.99), crate::model::percentile(&s, 0.99));
            assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()), "{v:?}");
        }
    }
}
