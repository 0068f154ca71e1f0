//! [`Window`]: one row's values over a window of the timeline's columns, what each
//! value is (exact, carried over from the previous zoom, missing), and how a window
//! slides with a pan, is carried to a new zoom and is refined under a deadline. The
//! [`ColumnCache`](super::ColumnCache) keeps one per row.

use std::collections::HashMap;
use std::ops::Range;
use std::time::Instant;

/// What a value of a [`Window`] is: computed for its column, carried over from the
/// previous zoom's column at its centre (to compute again when there is time), or not
/// known yet (computed before the window is read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    Exact,
    Stale,
    Missing,
}

/// Per-row values for a window of columns, starting at global column `origin`, and
/// what each value is.
#[derive(Debug)]
pub(super) struct Window<T> {
    origin: i64,
    values: Vec<T>,
    states: Vec<State>,
    /// How many values are not exact.
    inexact: usize,
}

impl<T: Copy> Window<T> {
    /// A window of exact `values` from global column `origin`.
    pub(super) fn exact(origin: i64, values: Vec<T>) -> Self {
        Self { origin, states: vec![State::Exact; values.len()], values, inexact: 0 }
    }

    /// The values, one per column.
    pub(super) fn values(&self) -> &[T] {
        &self.values
    }

    /// The values, one per column, taken.
    pub(super) fn into_values(self) -> Vec<T> {
        self.values
    }

    pub(super) fn empty(origin: i64) -> Self {
        Self { origin, values: Vec::new(), states: Vec::new(), inexact: 0 }
    }

    /// This window moved to `count` columns from global column `origin`: the columns
    /// it already has are kept (with their states), the others computed by `compute`
    /// (given a range of positions in the new window, it returns their values in order),
    /// exact when the columns' frames are (`exact`), else stale.
    pub(super) fn slide(
        &mut self,
        origin: i64,
        count: usize,
        exact: bool,
        mut compute: impl FnMut(Range<usize>) -> Vec<T>,
    ) {
        let fresh = if exact { State::Exact } else { State::Stale };
        let (old_origin, old_len) = (self.origin, self.values.len());
        if old_origin == origin && old_len == count {
            return;
        }
        let end = origin + count as i64;
        let (keep_from, keep_to) = (origin.max(old_origin), end.min(old_origin + old_len as i64));
        let (values, states) = if keep_from < keep_to {
            let (a, b) = ((keep_from - origin) as usize, (keep_to - origin) as usize);
            let kept = (keep_from - old_origin) as usize..(keep_to - old_origin) as usize;
            let mut v = compute(0..a);
            v.extend_from_slice(&self.values[kept.clone()]);
            v.extend(compute(b..count));
            let mut s = vec![fresh; a];
            s.extend_from_slice(&self.states[kept]);
            s.resize(count, fresh);
            (v, s)
        } else {
            (compute(0..count), vec![fresh; count])
        };
        self.inexact = states.iter().filter(|s| **s != State::Exact).count();
        (self.origin, self.values, self.states) = (origin, values, states);
    }

    /// Computes every missing value, then stale ones (a run of at most
    /// [`REFINE_CHUNK`] columns at a time) until `deadline`, if any, has passed.
    /// While the columns' frames are estimates (not `exact`), missing values are
    /// computed from them but stay stale, and stale ones are left for a frame with
    /// exact columns. True when every value is exact.
    pub(super) fn refine(
        &mut self,
        deadline: Option<Instant>,
        exact: bool,
        mut compute: impl FnMut(Range<usize>) -> Vec<T>,
    ) -> bool {
        for wanted in [State::Missing, State::Stale] {
            let mut at = 0;
            while self.inexact > 0 && at < self.states.len() {
                if wanted == State::Stale && (!exact || deadline.is_some_and(|d| Instant::now() >= d)) {
                    return false;
                }
                let Some(first) = self.states[at..].iter().position(|s| *s == wanted).map(|k| at + k) else {
                    break;
                };
                let chunk = if wanted == State::Missing { usize::MAX } else { REFINE_CHUNK };
                let last = self.states[first..]
                    .iter()
                    .take(chunk)
                    .position(|s| *s != wanted)
                    .map_or(first.saturating_add(chunk).min(self.states.len()), |k| first + k);
                let values = compute(first..last);
                self.values[first..last].copy_from_slice(&values);
                if exact {
                    self.states[first..last].fill(State::Exact);
                    self.inexact -= last - first;
                } else {
                    self.states[first..last].fill(State::Stale);
                }
                at = last;
            }
        }
        self.inexact == 0
    }

    /// This window on a new zoom's `count` columns from global column `origin`, each
    /// column `dt` ms wide: a column takes the value of the old column (of width
    /// `old_dt`) under its centre, stale; one that came into view at an edge (zooming
    /// out) takes the nearest old column's, stale too, if it is within
    /// [`CARRY_BEYOND`] of the old columns; a column is missing when it is farther or
    /// holds no frame (`empty`). None when the window was not on the old grid.
    pub(super) fn rezoom(
        &self,
        old: (i64, usize, f64),
        (origin, dt): (i64, f64),
        empty: &[bool],
    ) -> Option<Self> {
        let (old_origin, old_count, old_dt) = old;
        if self.origin != old_origin || self.values.len() != old_count || self.values.is_empty() {
            return None;
        }
        let reach = (old_count / CARRY_BEYOND) as f64;
        let mut values = Vec::with_capacity(empty.len());
        let mut states = Vec::with_capacity(empty.len());
        for (j, &none) in empty.iter().enumerate() {
            let centre = (origin as f64 + j as f64 + 0.5) * dt;
            let k = (centre / old_dt).floor() - old_origin as f64;
            let near = k >= -reach && k < old_count as f64 + reach;
            let under = (near && !none).then(|| k.clamp(0.0, (old_count - 1) as f64) as usize);
            values.push(self.values[under.unwrap_or(0)]);
            states.push(if under.is_some() { State::Stale } else { State::Missing });
        }
        Some(Self { origin, inexact: states.len(), values, states })
    }
}

/// A new zoom's columns that came into view beyond the old ones carry the nearest old
/// column's values when they lie within the old count over this many columns of them
/// (a zoom step's edges); farther ones (a jump) are computed at once.
const CARRY_BEYOND: usize = 16;

/// Columns a window computes at once while refining under a deadline: on a long trace
/// zoomed out a column is a few hundred reads far apart, so a run overshoots the
/// deadline by up to a few tens of µs.
const REFINE_CHUNK: usize = 8;

/// Every window of `map` on the new zoom ([`Window::rezoom`]), those not on the old
/// grid dropped.
pub(super) fn rezoom_all<K: Copy + Eq + std::hash::Hash, T: Copy>(
    map: &mut HashMap<K, Window<T>>,
    old: (i64, usize, f64),
    new: (i64, f64),
    empty: &[bool],
) {
    let moved: HashMap<K, Window<T>> =
        map.iter().filter_map(|(k, w)| w.rezoom(old, new, empty).map(|w| (*k, w))).collect();
    *map = moved;
}
