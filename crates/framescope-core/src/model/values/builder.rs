//! [`ValuesBuilder`]: a column built one value at a time, in the most compact store
//! that holds every value so far.

use super::store::{Ints, MISSING_I32, Store, decode, encode};
use super::{Values, extend_grown, push_grown, reserve_grown};
use std::sync::OnceLock;

/// Builds [`Values`] one value at a time, in the most compact store that holds
/// every value pushed so far exactly.
#[derive(Debug, Clone, Default)]
pub struct ValuesBuilder {
    store: Store,
    /// While the store is a constant pushed by [`ValuesBuilder::push_scaled`]: its
    /// scaled integer (a repeat is then counted without decoding it).
    constant_scaled: Option<i32>,
}

impl ValuesBuilder {
    /// Adds one value (NaN: missing).
    #[inline]
    pub fn push(&mut self, v: f64) {
        match &mut self.store {
            Store::Missing(n) if v.is_nan() => *n += 1,
            Store::Missing(0) => self.store = Store::Constant(v, 1),
            Store::Constant(c, n) if c.to_bits() == v.to_bits() => *n += 1,
            Store::Scaled(s) => match encode(v) {
                Some(m) => push_grown(s, m),
                None => self.spill(v),
            },
            Store::Ints(ints) => {
                if !ints.push(v) {
                    self.spill(v);
                }
            }
            Store::Dense(d) => push_grown(d, v),
            Store::Missing(_) | Store::Constant(..) => self.spill(v),
        }
    }

    /// Adds a missing value, as [`ValuesBuilder::push`] of NaN does (inlined for the
    /// stores that take it as it is).
    #[inline]
    pub fn push_missing(&mut self) {
        match &mut self.store {
            Store::Missing(n) => *n += 1,
            Store::Scaled(s) => push_grown(s, MISSING_I32),
            _ => self.push(f64::NAN),
        }
    }

    /// Adds the value `m / 10⁴` given as its scaled integer (`|m|` at most 2·10⁹),
    /// exactly as [`ValuesBuilder::push`] of that value would: a scaled store takes
    /// `m` itself (the one integer that reads back as the value), a constant counts a
    /// repeat of the same `m`, anything else gets the value.
    #[inline]
    pub fn push_scaled(&mut self, m: i32) {
        match &mut self.store {
            Store::Scaled(s) => push_grown(s, m),
            Store::Constant(_, n) if self.constant_scaled == Some(m) => *n += 1,
            _ => {
                self.push(decode(m));
                self.constant_scaled = matches!(self.store, Store::Constant(..)).then_some(m);
            }
        }
    }

    /// True when every value so far is `m / 10⁴`, pushed as that scaled integer: a
    /// [`ValuesBuilder::push_scaled`] of `m` then only counts it.
    #[inline]
    #[must_use]
    pub fn repeats_scaled(&self, m: i32) -> bool {
        matches!(self.store, Store::Constant(..)) && self.constant_scaled == Some(m)
    }

    /// Counts the constant once more, as [`ValuesBuilder::push_scaled`] of the integer
    /// it was pushed as does; false (nothing added) when the values are not constant.
    #[inline]
    pub fn count_repeat(&mut self) -> bool {
        match &mut self.store {
            Store::Constant(_, n) if self.constant_scaled.is_some() => {
                *n += 1;
                true
            }
            _ => false,
        }
    }

    /// Adds every value of `values`.
    pub fn extend(&mut self, values: impl IntoIterator<Item = f64>) {
        for v in values {
            self.push(v);
        }
    }

    /// Adds every value of `other` (a column of the rows after these, built on its
    /// own), leaving the store that pushing them one by one would: a scaled store
    /// takes a scaled one whole, a missing or constant run by its count.
    pub fn append(&mut self, other: Self) {
        if self.is_empty() {
            *self = other;
            return;
        }
        // A run of one value (missing or a constant) as a scaled integer, when it is.
        let run = match other.store {
            Store::Missing(m) => Some((MISSING_I32, m)),
            Store::Constant(c, m) => encode(c).map(|x| (x, m)),
            _ => None,
        };
        match (&mut self.store, &other.store, run) {
            (Store::Missing(n), Store::Missing(m), _) => *n += m,
            (Store::Constant(c, n), Store::Constant(d, m), _) if c.to_bits() == d.to_bits() => {
                *n += m;
                self.constant_scaled = self.constant_scaled.or(other.constant_scaled);
            }
            (Store::Scaled(s), Store::Scaled(t), _) => extend_grown(s, t),
            (Store::Ints(_), Store::Ints(t), _) => {
                // Number by number as `push` would, without the trip through `f64`.
                for i in 0..t.offsets.len() {
                    let whole = t.whole_at(i);
                    let added = match &mut self.store {
                        Store::Ints(s) => s.push_whole(whole),
                        _ => false,
                    };
                    if !added {
                        self.push(t.at(i));
                    }
                }
            }
            (Store::Scaled(s), _, Some((x, m))) => {
                reserve_grown(s, m);
                s.extend(std::iter::repeat_n(x, m));
            }
            _ => (0..other.len()).for_each(|i| self.push(other.store.at(i))),
        }
    }

    /// Moves to the next store able to hold `v` as well, then adds it.
    #[cold]
    fn spill(&mut self, v: f64) {
        let (fill, n) = match &self.store {
            Store::Missing(n) => (f64::NAN, *n),
            Store::Constant(c, n) => (*c, *n),
            Store::Scaled(_) | Store::Ints(_) | Store::Dense(_) => (f64::NAN, 0),
        };
        self.store = match std::mem::take(&mut self.store) {
            Store::Missing(_) | Store::Constant(..) => {
                if let (Some(f), Some(m)) = (encode(fill), encode(v)) {
                    let mut s = Vec::with_capacity(n + 1);
                    s.resize(n, f);
                    s.push(m);
                    Store::Scaled(s)
                } else {
                    let mut ints = Ints::default();
                    if std::iter::repeat_n(fill, n).chain([v]).all(|x| ints.push(x)) {
                        Store::Ints(ints)
                    } else {
                        let mut d = Vec::with_capacity(n + 1);
                        d.resize(n, fill);
                        d.push(v);
                        Store::Dense(d)
                    }
                }
            }
            Store::Scaled(s) => {
                let mut d: Vec<f64> = Vec::with_capacity(s.len() + s.len() / 2 + 1);
                d.extend(s.iter().map(|&m| decode(m)));
                drop(s);
                d.push(v);
                Store::Dense(d)
            }
            Store::Ints(ints) => {
                let mut d: Vec<f64> = Vec::with_capacity(ints.offsets.len() + ints.offsets.len() / 2 + 1);
                d.extend((0..ints.offsets.len()).map(|i| ints.at(i)));
                drop(ints);
                d.push(v);
                Store::Dense(d)
            }
            Store::Dense(mut d) => {
                d.push(v);
                Store::Dense(d)
            }
        };
    }

    /// Number of values pushed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// True before the first push.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when some value pushed is present (not NaN).
    #[must_use]
    pub fn any_present(&self) -> bool {
        match &self.store {
            Store::Missing(_) => false,
            Store::Constant(c, _) => !c.is_nan(),
            Store::Scaled(v) => v.iter().any(|&m| m != MISSING_I32),
            Store::Ints(v) => v.offsets.iter().any(|&m| m != MISSING_I32),
            Store::Dense(v) => v.iter().any(|x| !x.is_nan()),
        }
    }

    /// Value `i` pushed so far (NaN out of range).
    #[must_use]
    pub fn at(&self, i: usize) -> f64 {
        self.store.at(i)
    }

    /// Multiplies every value by `factor`.
    pub fn scale(&mut self, factor: f64) {
        let values: Vec<f64> = self.iter().map(|v| v * factor).collect();
        let mut b = Self::default();
        b.extend(values);
        *self = b;
    }

    /// Every value pushed so far.
    pub fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.len()).map(move |i| self.store.at(i))
    }

    /// The finished column, its storage trimmed to size.
    #[must_use]
    pub fn finish(self) -> Values {
        let store = match self.store {
            Store::Scaled(mut v) => {
                v.shrink_to_fit();
                Store::Scaled(v)
            }
            Store::Dense(mut v) => {
                v.shrink_to_fit();
                Store::Dense(v)
            }
            Store::Ints(mut v) => {
                v.offsets.shrink_to_fit();
                v.bases.shrink_to_fit();
                Store::Ints(v)
            }
            other => other,
        };
        Values { store, dense: OnceLock::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `push_scaled(m)` stores what `push(m / 10⁴)` stores, in every store: a
    /// constant, a scaled column, one that spills to whole numbers or to `f64`s.
    #[test]
    fn scaled_pushes_are_value_pushes() {
        let runs: [&[i32]; 4] = [&[5, 5, 5], &[5, 5, 166_669, -3], &[10_000, 20_000], &[7, 7, 7]];
        for (k, run) in runs.iter().enumerate() {
            let (mut a, mut b) = (ValuesBuilder::default(), ValuesBuilder::default());
            if k == 2 {
                // A whole-number store first: 3·10⁹ does not fit the scaled one.
                a.push(3e9);
                b.push(3e9);
            }
            for &m in *run {
                a.push_scaled(m);
                b.push(f64::from(m) / 1e4);
            }
            if k == 3 {
                a.push(0.25);
                b.push(0.25);
                a.push_scaled(7);
                b.push(7e-4);
            }
            let (a, b) = (a.finish(), b.finish());
            let bits = |v: &Values| v.iter().map(f64::to_bits).collect::<Vec<_>>();
            assert_eq!(bits(&a), bits(&b), "run {k}");
            assert_eq!(format!("{:?}", a.store), format!("{:?}", b.store), "run {k}");
        }
    }

    /// A column appended from pieces built on their own is the column built in one
    /// go, store and bits: every cut of runs that stay scaled, turn constant, missing,
    /// whole numbers or `f64`s, or pass from one store to another at a cut.
    #[test]
    fn appended_pieces_are_one_column() {
        let nan = f64::NAN;
        let runs: [&[f64]; 7] = [
            &[0.5, 0.5, 0.5, 0.5],
            &[nan, nan, 0.5, 0.25, nan, 0.75],
            &[nan, nan, nan],
            &[1.0, 1.0, nan, 3e9, 3e9 + 1.0],
            &[0.1, 0.2, 1.0 / 3.0, 0.4],
            &[7e-4, 7e-4, 7e-4, nan, nan],
            &[2.5, 2.5, 2.5, 2.5, 1e-9],
        ];
        for (k, run) in runs.iter().enumerate() {
            let mut whole = ValuesBuilder::default();
            whole.extend(run.iter().copied());
            for a in 0..=run.len() {
                for b in a..=run.len() {
                    let mut built = ValuesBuilder::default();
                    for piece in [&run[..a], &run[a..b], &run[b..]] {
                        let mut p = ValuesBuilder::default();
                        // Pieces of decimals are pushed as scaled integers, and missing
                        // values on their own, as the loader does.
                        for &v in piece {
                            match encode(v).filter(|&m| m != MISSING_I32) {
                                Some(m) if k == 5 => p.push_scaled(m),
                                None if v.is_nan() && k % 2 == 1 => p.push_missing(),
                                _ => p.push(v),
                            }
                        }
                        built.append(p);
                    }
                    let cut = format!("run {k} cut at {a}, {b}");
                    assert_eq!(format!("{:?}", built.store), format!("{:?}", whole.store), "{cut}");
                    let bits = |v: &ValuesBuilder| v.iter().map(f64::to_bits).collect::<Vec<_>>();
                    assert_eq!(bits(&built), bits(&whole), "{cut}");
                }
            }
        }
    }
    /// Whole numbers appended from pieces are the column pushed in one go: pieces
    /// across the 256-number blocks, missing numbers, and a number too far from its
    /// block's first (it does not fit: the column turns to `f64`s there).
    #[test]
    fn appended_whole_numbers_are_one_column() {
        // Missing numbers inside blocks and first in a block (its base is then the next).
        let qpc = |i: usize| if i % 7 == 3 || i % 256 < 2 { f64::NAN } else { 3e9 + (i * 1000) as f64 };
        let mut values: Vec<f64> = (0..700).map(qpc).collect();
        let far = values.clone().into_iter().chain([3e9 + 5e9, 3e9]).chain((0..300).map(qpc)).collect();
        for (k, run) in [std::mem::take(&mut values), far].iter().enumerate() {
            let mut whole = ValuesBuilder::default();
            whole.extend(run.iter().copied());
            // Every number reads back; whole numbers are kept as such until one does not
            // fit (the second run), then as `f64`s.
            let bits = |v: &ValuesBuilder| v.iter().map(f64::to_bits).collect::<Vec<_>>();
            assert_eq!(bits(&whole), run.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "run {k}");
            let kind = format!("{:?}", whole.store);
            assert!(kind.starts_with(if k == 0 { "Ints" } else { "Dense" }), "run {k}: {}", &kind[..20]);
            for a in [0, 1, 255, 256, 257, 500, 699, 700, 701, run.len()] {
                let a = a.min(run.len());
                let mut built = ValuesBuilder::default();
                for piece in [&run[..a], &run[a..]] {
                    let mut p = ValuesBuilder::default();
                    p.extend(piece.iter().copied());
                    built.append(p);
                }
                assert_eq!(format!("{:?}", built.store), format!("{:?}", whole.store), "run {k} cut at {a}");
                assert_eq!(bits(&built), bits(&whole), "run {k} cut at {a}");
            }
        }
    }
}
