//! The distinct display intervals with how often each occurs, counted in one pass
//! through a small open-addressing table keyed by the intervals' bit patterns (a
//! million-frame capture holds a few thousand distinct intervals: the table stays in
//! the cache, and a look-up is one multiplication and, nearly always, one probe).

/// The distinct values of a series with how often each occurs: display intervals
/// repeat (PresentMon writes 4 decimals, displays tick at a fixed rate), so the
/// candidates are scored over a few thousand values instead of every interval (and
/// over runs of them once sorted: `fit`).
pub(super) struct Distinct {
    /// Each distinct value once (bit patterns), in order of first occurrence; or
    /// every value, each counted once, when nearly all are distinct.
    pub(super) values: Vec<f64>,
    /// How often each of `values` occurs.
    pub(super) counts: Vec<u32>,
    /// All values, with repeats.
    pub(super) total: usize,
}

/// Values looked at before deciding whether counting pays.
const PROBE: usize = 4096;

impl Distinct {
    /// Counts the values `intervals` yields (cloned once more for a second pass when
    /// nearly all of the first [`PROBE`] are distinct: each then counts once).
    pub(super) fn of<I: Iterator<Item = f64> + Clone>(intervals: I) -> Self {
        let mut table = Table::with_capacity(4 * PROBE);
        let (mut values, mut counts) = (Vec::new(), Vec::<u32>::new());
        let mut total = 0;
        for d in intervals.clone() {
            let slot = table.slot(d.to_bits(), values.len() as u32);
            if slot as usize == values.len() {
                values.push(d);
                counts.push(0);
                table.grow_if_full(values.len());
            }
            counts[slot as usize] += 1;
            total += 1;
            // Nearly all distinct: counting buys nothing; each interval counts once.
            if total == PROBE && values.len() > PROBE / 2 {
                let values: Vec<f64> = intervals.collect();
                let counts = vec![1; values.len()];
                return Self { total: values.len(), values, counts };
            }
        }
        Self { values, counts, total }
    }
}

/// Open addressing with linear probing over a power-of-two number of slots, kept at
/// most half full; `index` 0 marks an empty slot, else it is the value's position + 1.
struct Table {
    keys: Vec<u64>,
    index: Vec<u32>,
    /// `64 − log2(slots)`: the hash is the top bits of a multiplication.
    shift: u32,
}

impl Table {
    fn with_capacity(slots: usize) -> Self {
        let slots = slots.next_power_of_two().max(2);
        Self { keys: vec![0; slots], index: vec![0; slots], shift: 64 - slots.trailing_zeros() }
    }

    #[inline]
    fn home(&self, bits: u64) -> usize {
        (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The position of `bits` among the values; when absent it is entered as `next`
    /// (the caller appends it) and `next` is returned.
    #[inline]
    fn slot(&mut self, bits: u64, next: u32) -> u32 {
        let mask = self.keys.len() - 1;
        let mut h = self.home(bits);
        loop {
            match self.index[h] {
                0 => {
                    (self.keys[h], self.index[h]) = (bits, next + 1);
                    return next;
                }
                i if self.keys[h] == bits => return i - 1,
                _ => h = (h + 1) & mask,
            }
        }
    }

    /// Doubles the slots once `len` values fill half of them.
    fn grow_if_full(&mut self, len: usize) {
        if 2 * len <= self.keys.len() {
            return;
        }
        let old = std::mem::replace(self, Self::with_capacity(2 * self.keys.len()));
        for (&bits, &i) in old.keys.iter().zip(&old.index).filter(|(_, i)| **i != 0) {
            self.slot(bits, i - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: 16.6 ×3, 33.3 ×2, 8.3, -0.0 and 0.0 (two bit patterns), NaN ×2 (one
    /// pattern): 6 distinct values in order of first occurrence.
    #[test]
    fn counts_each_bit_pattern() {
        let v = [16.6, 33.3, 16.6, 8.3, -0.0, 0.0, f64::NAN, 33.3, 16.6, f64::NAN];
        let d = Distinct::of(v.iter().copied());
        let bits: Vec<u64> = d.values.iter().map(|x| x.to_bits()).collect();
        let want: Vec<u64> = [16.6, 33.3, 8.3, -0.0, 0.0, f64::NAN].iter().map(|x| x.to_bits()).collect();
        assert_eq!(bits, want);
        assert_eq!(d.counts, vec![3, 2, 1, 1, 1, 2]);
        assert_eq!(d.total, 10);
    }

    /// The table grows past its first size and still counts exactly: 40 000 distinct
    /// values after the first 4096 (of which only 100 are distinct), each seen 3 times.
    #[test]
    fn counts_exactly_after_growing() {
        let head = (0..PROBE).map(|i| (i % 100) as f64);
        let tail = (0..120_000).map(|i: i32| 1000.0 + f64::from(i % 40_000) * 0.0001);
        let d = Distinct::of(head.chain(tail));
        assert_eq!(d.values.len(), 40_100);
        assert_eq!(d.total, PROBE + 120_000);
        assert!(d.counts[..100].iter().all(|&c| c as usize == PROBE / 100 || c as usize == PROBE / 100 + 1));
        assert!(d.counts[100..].iter().all(|&c| c == 3));
        assert_eq!(d.counts.iter().map(|&c| c as usize).sum::<usize>(), d.total);
    }

    /// Nearly all distinct within the first 4096: every value counts once, repeats
    /// included.
    #[test]
    fn nearly_all_distinct_counts_each_once() {
        let v: Vec<f64> = (0..10_000).map(|i| f64::from(i % 5000)).collect();
        let d = Distinct::of(v.iter().copied());
        assert_eq!(d.values, v);
        assert!(d.counts.iter().all(|&c| c == 1));
        assert_eq!(d.total, 10_000);
    }
}
