//! The 19-frame rolling statistics (`metrics.md` §4–5): for every frame, the median
//! and quartiles of the window centred on it (9 before, itself, 9 after), cut to the
//! frames that exist at the edges. Computed once per series, in parallel.

use super::band::{Band, Keeping, Kept, SAMPLE_EVERY};
use super::summary::percentile;
use rayon::prelude::*;

mod full;

/// Frames on each side of the centre.
pub const HALF_WINDOW: usize = 9;

/// Per-frame window statistics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rolling {
    /// Median of each window (mean of the two middle values for an even count).
    pub median: Vec<f64>,
    /// First quartile (linear interpolation).
    pub q1: Vec<f64>,
    /// Third quartile (linear interpolation).
    pub q3: Vec<f64>,
}

impl Rolling {
    /// Computes the statistics of every window of `values` (all finite).
    #[must_use]
    pub fn of(values: &[f64]) -> Self {
        let stats = map_windows(values, |w| [percentile(w, 0.5), percentile(w, 0.25), percentile(w, 0.75)]);
        let mut out = Self {
            median: Vec::with_capacity(stats.len()),
            q1: Vec::with_capacity(stats.len()),
            q3: Vec::with_capacity(stats.len()),
        };
        for [m, a, b] in stats {
            out.median.push(m);
            out.q1.push(a);
            out.q3.push(b);
        }
        out
    }
}

#[cfg(test)]
/// The median of each window over `values`, leaving out missing (NaN) values; NaN
/// when a window has no present value.
#[must_use]
pub fn rolling_median_present(values: &[f64]) -> Vec<f64> {
    map_windows(values, |w| percentile(w, 0.5))
}

/// Frames per parallel chunk.
const CHUNK: usize = 1 << 15;

/// Calls `f` on the sorted present (non-NaN) values of the window centred on every
/// index, in order. The window slides: each step inserts and removes one value by
/// binary search instead of sorting 19 values again. Chunks run in parallel.
fn map_windows<T: Send>(values: &[f64], f: impl Fn(&[f64]) -> T + Sync) -> Vec<T> {
    let n = values.len();
    let chunks: Vec<Vec<T>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (first, last) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
            let mut out = Vec::with_capacity(last - first);
            windows(values, first, last, |_, w| out.push(f(w)));
            out
        })
        .collect();
    chunks.into_iter().flatten().collect()
}

/// Calls `f(i, window)` with the sorted present values of the window centred on every
/// index `i` in `first..last`, in order, sliding the window.
fn windows(values: &[f64], first: usize, last: usize, f: impl FnMut(usize, &[f64])) {
    windows_by(values.len(), |i| values[i], first, last, f);
}

/// [`windows`] over `n` values read through `value(i)` (no array of them needed).
pub(crate) fn windows_by(
    n: usize,
    value: impl Fn(usize) -> f64,
    first: usize,
    last: usize,
    mut f: impl FnMut(usize, &[f64]),
) {
    slide(n, value, first, last, |i, w| f(i, w.sorted()));
}

/// [`windows_by`], giving the sliding [`Window`] itself.
fn slide(
    n: usize,
    value: impl Fn(usize) -> f64,
    first: usize,
    last: usize,
    mut f: impl FnMut(usize, &Window),
) {
    let mut window = Window::default();
    let (mut lo, mut hi) = (first.saturating_sub(HALF_WINDOW), first.saturating_sub(HALF_WINDOW));
    for i in first..last {
        let (want_lo, want_hi) = (i.saturating_sub(HALF_WINDOW), (i + HALF_WINDOW + 1).min(n));
        // In the middle of the series one value leaves as one enters: one step.
        if want_lo == lo + 1 && want_hi == hi + 1 {
            window.replace(value(lo), value(hi));
            (lo, hi) = (want_lo, want_hi);
        }
        while hi < want_hi {
            window.insert(value(hi));
            hi += 1;
        }
        while lo < want_lo {
            window.remove(value(lo));
            lo += 1;
        }
        f(i, &window);
    }
}

/// The rolling statistics the figures read, kept compactly: each window's median; the
/// windows whose `Q3 / Q1` exceeds the oscillation ratio (only they can oscillate)
/// with what the floor is compared with ([`HighWindows`]); and the P90s of IQR and
/// ratio (which no setting changes). Written in place, chunk by chunk in parallel.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RollingStats {
    /// Median of each window.
    pub median: Vec<f64>,
    /// The windows with `Q3 / Q1 > OSC_RATIO`.
    pub high: HighWindows,
    /// P90 of the IQRs and of the ratios (`None` for an empty series).
    pub p90: Option<(f64, f64)>,
}

/// The windows that can oscillate (`Q3 / Q1 > OSC_RATIO`), as
/// [`super::Oscillation::from_stats`] reads them.
#[derive(Debug, Clone, PartialEq)]
pub enum HighWindows {
    /// Every such window, ascending, with its IQR (`Q3 − Q1`): what a floor set later
    /// needs (the window re-flags as the floor moves).
    Every {
        /// The windows, ascending.
        at: Vec<u32>,
        /// `Q3 − Q1` of each.
        iqr: Vec<f64>,
    },
    /// Only the windows that oscillate at `floor` (their IQR above it too), one bit a
    /// window (bit `i % 64` of word `i / 64`): what a report at one floor needs. A
    /// noisy series has a high window at nearly every frame, 12 bytes each in `Every`.
    AtFloor {
        /// The floor (ms) they were flagged at.
        floor: f64,
        /// The oscillating windows.
        bits: Vec<u64>,
    },
}

impl Default for HighWindows {
    fn default() -> Self {
        Self::Every { at: Vec::new(), iqr: Vec::new() }
    }
}

impl HighWindows {
    /// Calls `f` with every window that oscillates at `floor_ms`, ascending. `AtFloor`
    /// answers for the floor it was flagged at only.
    pub fn oscillating(&self, floor_ms: f64, mut f: impl FnMut(usize)) {
        match self {
            Self::Every { at, iqr } => {
                for (&k, &d) in at.iter().zip(iqr) {
                    if d > floor_ms {
                        f(k as usize);
                    }
                }
            }
            Self::AtFloor { bits, .. } => {
                for (w, &word) in bits.iter().enumerate() {
                    let mut rest = word;
                    while rest != 0 {
                        f(w * 64 + rest.trailing_zeros() as usize);
                        rest &= rest - 1;
                    }
                }
            }
        }
    }
}

/// What one chunk of windows keeps of its high windows.
enum HighPart {
    Every(Vec<u32>, Vec<f64>),
    AtFloor(Vec<u64>),
}

impl RollingStats {
    /// The statistics of every window of `values` (all finite), the high windows with
    /// their IQRs ([`HighWindows::Every`]).
    #[must_use]
    pub fn of(values: &[f64]) -> Self {
        Self::of_at(values, None)
    }

    /// [`RollingStats::of`]; with `floor`, only the windows that oscillate at that
    /// floor are kept ([`HighWindows::AtFloor`], for figures at that floor only). No
    /// array of every window's IQR and ratio is kept: a sample of windows (each sorted
    /// on its own) gives a band around each P90, and the one pass over the windows
    /// writes the medians in place, keeps the high windows and only the IQRs and
    /// ratios inside the bands, from which the P90s are selected (see `band.rs`).
    #[must_use]
    pub fn of_at(values: &[f64], floor: Option<f64>) -> Self {
        let n = values.len();
        let (iqr_band, ratio_band) = sample_bands(values);
        let mut median = vec![0.0; n];
        let parts: Vec<(HighPart, Kept, Kept)> = median
            .par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(c, m)| {
                let first = c * CHUNK;
                let mut high = match floor {
                    None => HighPart::Every(Vec::new(), Vec::new()),
                    // CHUNK is a multiple of 64: a chunk's windows fill words of their own.
                    Some(_) => HighPart::AtFloor(vec![0; m.len().div_ceil(64)]),
                };
                let (mut iqrs, mut ratios) = (Keeping::new(&iqr_band), Keeping::new(&ratio_band));
                slide(
                    values.len(),
                    |i| values[i],
                    first,
                    first + m.len(),
                    |i, w| {
                        let (q1, median, q3) = w.quartiles();
                        m[i - first] = median;
                        let (d, r) = (q3 - q1, q3 / q1);
                        if r > super::stutter::OSC_RATIO {
                            match &mut high {
                                HighPart::Every(at, iqr) => {
                                    at.push(i as u32);
                                    iqr.push(d);
                                }
                                HighPart::AtFloor(bits) => {
                                    if floor.is_some_and(|f| d > f) {
                                        let k = i - first;
                                        bits[k / 64] |= 1 << (k % 64);
                                    }
                                }
                            }
                        }
                        iqrs.add(d);
                        ratios.add(r);
                    },
                );
                (high, iqrs.finish(), ratios.finish())
            })
            .collect();
        let (mut iqrs, mut ratios) = (Kept::default(), Kept::default());
        let high = match floor {
            None => {
                let (mut at, mut iqr) = (Vec::new(), Vec::new());
                for (h, i, r) in parts {
                    if let HighPart::Every(a, d) = h {
                        at.extend(a);
                        iqr.extend(d);
                    }
                    iqrs.merge(i);
                    ratios.merge(r);
                }
                HighWindows::Every { at, iqr }
            }
            Some(floor) => {
                let mut bits = Vec::with_capacity(n.div_ceil(64));
                for (h, i, r) in parts {
                    if let HighPart::AtFloor(b) = h {
                        bits.extend(b);
                    }
                    iqrs.merge(i);
                    ratios.merge(r);
                }
                HighWindows::AtFloor { floor, bits }
            }
        };
        let p90 = (n > 0).then(|| p90s(values, iqrs, ratios));
        Self { median, high, p90 }
    }
}

/// `Q1`, median and `Q3` of a sorted window, as [`percentile`] at 0.25, 0.5 and 0.75
/// gives them. A full window (19 values) has them at fixed places: `h` = 4.5, 9 and
/// 13.5, so the same interpolation is written out without working out `h` three times.
#[inline]
fn quartiles(w: &[f64]) -> (f64, f64, f64) {
    match *w {
        [_, _, _, _, a, b, _, _, _, m, _, _, _, c, d, _, _, _, _] => full_quartiles([a, b], m, [c, d]),
        _ => (percentile(w, 0.25), percentile(w, 0.5), percentile(w, 0.75)),
    }
}

/// The quartiles of a full window from its places 4 and 5, 9, and 13 and 14 (`h` =
/// 4.5, 9 and 13.5): `Q1` and `Q3` halfway between their two places, as [`percentile`]
/// interpolates.
#[inline]
fn full_quartiles([a, b]: [f64; 2], m: f64, [c, d]: [f64; 2]) -> full::Quartiles {
    (a + 0.5 * (b - a), m, c + 0.5 * (d - c))
}

/// The P90s of the windows' IQR and ratio from what the pass kept; when a band
/// missed (a sample unlike the series), from every value, in a second pass.
fn p90s(values: &[f64], iqrs: Kept, ratios: Kept) -> (f64, f64) {
    let n = values.len();
    if let (Some(d), Some(r)) = (iqrs.p90(n), ratios.p90(n)) {
        return (d, r);
    }
    // One list at a time, written in place: 8 bytes a frame at most.
    let each = |f: fn(f64, f64) -> f64| {
        let mut all = vec![0.0; n];
        all.par_chunks_mut(CHUNK).enumerate().for_each(|(c, out)| {
            let first = c * CHUNK;
            windows(values, first, first + out.len(), |i, w| {
                out[i - first] = f(percentile(w, 0.25), percentile(w, 0.75));
            });
        });
        p90_of(all)
    };
    (each(|q1, q3| q3 - q1), each(|q1, q3| q3 / q1))
}

/// The bands around the P90s of the windows' IQR and ratio, from every
/// [`SAMPLE_EVERY`]-th window, each sorted on its own.
fn sample_bands(values: &[f64]) -> (Band, Band) {
    let n = values.len();
    let (iqrs, ratios): (Vec<f64>, Vec<f64>) = (0..n)
        .step_by(SAMPLE_EVERY)
        .map(|i| {
            let mut w = Window::default();
            let (lo, hi) = (i.saturating_sub(HALF_WINDOW), (i + HALF_WINDOW + 1).min(n));
            values[lo..hi].iter().for_each(|&v| w.insert(v));
            let (q1, q3) = (percentile(w.sorted(), 0.25), percentile(w.sorted(), 0.75));
            (q3 - q1, q3 / q1)
        })
        .unzip();
    (Band::around_p90(iqrs), Band::around_p90(ratios))
}

/// The linear-interpolated P90 of `v` (as [`percentile`] of `v` sorted), from two
/// O(n) selections instead of a sort. `v` is reordered.
#[must_use]
pub fn p90_of(mut v: Vec<f64>) -> f64 {
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * 0.9;
    let lo = h.floor() as usize;
    let (_, &mut at, upper) = v.select_nth_unstable_by(lo, f64::total_cmp);
    let next = upper.iter().copied().min_by(f64::total_cmp);
    let frac = h - lo as f64;
    match next {
        Some(next) if frac > 0.0 => at + frac * (next - at),
        _ => at,
    }
}

/// The sorted present values of one window, in a fixed array: inserting and removing
/// shift at most 19 values in place (an insertion-sort step), with no allocation or
/// call per frame.
pub(crate) struct Window {
    /// One more than a window: a step inserts before it removes.
    values: [f64; 2 * HALF_WINDOW + 2],
    len: usize,
    /// The quartiles a full step worked out (`None` after any other change).
    quartiles: Option<full::Quartiles>,
}

impl Default for Window {
    fn default() -> Self {
        Self { values: [0.0; 2 * HALF_WINDOW + 2], len: 0, quartiles: None }
    }
}

impl Window {
    pub(crate) fn sorted(&self) -> &[f64] {
        &self.values[..self.len]
    }

    /// `Q1`, median and `Q3` of the window, as [`quartiles`] of [`Window::sorted`].
    #[inline]
    fn quartiles(&self) -> (f64, f64, f64) {
        self.quartiles.unwrap_or_else(|| quartiles(self.sorted()))
    }

    /// Inserts `v` after any equal values (NaN is left out).
    #[inline]
    pub(crate) fn insert(&mut self, v: f64) {
        self.quartiles = None;
        if v.is_nan() || self.len == self.values.len() {
            return;
        }
        let mut k = self.len;
        while k > 0 && self.values[k - 1] > v {
            self.values[k] = self.values[k - 1];
            k -= 1;
        }
        self.values[k] = v;
        self.len += 1;
    }

    /// Removes one value equal to `out` and inserts `inn`, as [`Window::insert`] then
    /// [`Window::remove`] would, in one shift of the values between their places. Only
    /// for two positive values (any other pair goes through insert and remove): equal
    /// positive values are the same bits, so the window ends up the same array whatever
    /// the order among equals.
    #[inline]
    pub(crate) fn replace(&mut self, out: f64, inn: f64) {
        let len = self.len;
        if len == full::FULL
            && out > 0.0
            && inn > 0.0
            && let Some(q) = full::step(&mut self.values, out, inn)
        {
            self.quartiles = Some(q);
            return;
        }
        self.quartiles = None;
        // `total_cmp` finds equal values by their bits: compare the bits themselves.
        let found = if out > 0.0 && inn > 0.0 {
            let bits = out.to_bits();
            self.sorted().iter().position(|&x| x.to_bits() == bits)
        } else {
            None
        };
        let Some(mut at) = found else {
            self.insert(inn);
            self.remove(out);
            return;
        };
        let v = &mut self.values;
        if inn > out {
            while at + 1 < len && v[at + 1] < inn {
                v[at] = v[at + 1];
                at += 1;
            }
        } else {
            while at > 0 && v[at - 1] > inn {
                v[at] = v[at - 1];
                at -= 1;
            }
        }
        v[at] = inn;
    }

    /// Removes one value equal to `v` (NaN is never there).
    #[inline]
    fn remove(&mut self, v: f64) {
        self.quartiles = None;
        if v.is_nan() {
            return;
        }
        let Some(at) = self.sorted().iter().position(|&x| x.total_cmp(&v).is_eq() || (x == 0.0 && v == 0.0))
        else {
            return;
        };
        self.values.copy_within(at + 1..self.len, at);
        self.len -= 1;
    }
}

#[cfg(test)]
mod tests;
