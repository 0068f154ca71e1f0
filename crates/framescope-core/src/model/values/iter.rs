//! [`Values::iter`](super::Values::iter): the values decoded a block at a time into a
//! small buffer. One loop per block over the stored integers converts and divides
//! several values per instruction, where reading value by value pays a match on the
//! store, a bounds check and one division each.

use super::Values;
use super::store::{Store, decode};

/// Values decoded per block.
const BLOCK: usize = 64;

/// The iterator [`Values::iter`] returns.
#[derive(Clone)]
pub(super) struct Iter<'a> {
    values: &'a Values,
    /// The index of `buf[0]`.
    start: usize,
    /// Where the next value is in `buf`.
    at: usize,
    /// Values decoded into `buf`.
    filled: usize,
    buf: [f64; BLOCK],
}

impl<'a> Iter<'a> {
    pub(super) fn new(values: &'a Values) -> Self {
        Self { values, start: 0, at: 0, filled: 0, buf: [0.0; BLOCK] }
    }

    /// Decodes the block after the current one; false at the end.
    #[inline(never)]
    fn fill(&mut self) -> bool {
        let start = self.start + self.filled;
        let end = (start + BLOCK).min(self.values.len());
        if start >= end {
            return false;
        }
        decode_range(&self.values.store, start..end, &mut self.buf[..end - start]);
        (self.start, self.at, self.filled) = (start, 0, end - start);
        true
    }
}

impl Iterator for Iter<'_> {
    type Item = f64;

    #[inline]
    fn next(&mut self) -> Option<f64> {
        if self.at == self.filled && !self.fill() {
            return None;
        }
        let v = self.buf.get(self.at).copied();
        self.at += 1;
        v
    }

    /// Folds the rest of the buffer, then the remaining values with one loop per
    /// store (scaled values still decoded a block at a time).
    fn fold<B, F: FnMut(B, f64) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = self.buf[self.at..self.filled].iter().fold(init, |a, &v| f(a, v));
        let (from, n) = (self.start + self.filled, self.values.len());
        match &self.values.store {
            Store::Scaled(v) => {
                let mut buf = [0.0; BLOCK];
                for chunk in v[from.min(n)..].chunks(BLOCK) {
                    let buf = &mut buf[..chunk.len()];
                    decode_into(buf, chunk);
                    acc = buf.iter().fold(acc, |a, &v| f(a, v));
                }
                acc
            }
            Store::Dense(v) => v[from.min(n)..].iter().fold(acc, |a, &v| f(a, v)),
            Store::Missing(_) => (from..n).fold(acc, |a, _| f(a, f64::NAN)),
            Store::Constant(c, _) => (from..n).fold(acc, |a, _| f(a, *c)),
            Store::Ints(v) => (from..n).fold(acc, |a, i| f(a, v.at(i))),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.values.len().saturating_sub(self.start + self.at);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl Values {
    /// Appends the values at `range` to `out` (NaN past the end), decoding scaled
    /// values a block at a time as [`Values::iter`] does.
    pub fn extend_range(&self, range: std::ops::Range<usize>, out: &mut Vec<f64>) {
        let stored = range.start.min(self.len())..range.end.min(self.len());
        let at = out.len();
        out.resize(at + stored.len(), 0.0);
        decode_range(&self.store, stored, &mut out[at..]);
        out.resize(at + range.len(), f64::NAN);
    }
}

/// Decodes the values at `range` (stored ones) of `store` into `to` (as long).
#[inline]
fn decode_range(store: &Store, range: std::ops::Range<usize>, to: &mut [f64]) {
    match store {
        Store::Scaled(v) => decode_into(to, &v[range]),
        Store::Dense(v) => to.copy_from_slice(&v[range]),
        Store::Missing(_) => to.fill(f64::NAN),
        Store::Constant(c, _) => to.fill(*c),
        Store::Ints(v) => to.iter_mut().zip(range).for_each(|(b, i)| *b = v.at(i)),
    }
}

/// Decodes `from` into `to` (as long), in one loop the compiler turns into a few
/// conversions and divisions of two values each.
#[inline]
fn decode_into(to: &mut [f64], from: &[i32]) {
    to.iter_mut().zip(from).for_each(|(b, &m)| *b = decode(m));
}
