//! Frame start times from a trace's time column (or, without one, the running sum
//! of its frame times), when a trace is finished.

use super::super::layout::TimeRole;
use crate::model::Lines;

/// How a trace's raw time values become milliseconds.
pub(super) struct Clock {
    /// What the time column marks (none: no time column).
    pub(super) role: Option<TimeRole>,
    pub(super) ms_per_raw: f64,
    /// The raw value of time 0.
    pub(super) origin_raw: f64,
    /// How far before the previous frame's end a start may be and still be that end
    /// (the time column's step: rounding, not time going back).
    pub(super) rounding_ms: f64,
}

impl Clock {
    /// The start time of every frame (`ft`: frame times), from `raw` (the raw time
    /// values, one per frame, or none), and the count and first line (`lines`) of the
    /// frames whose timestamp was out of range (placed right after the frame before).
    /// The starts are written over `raw` when it holds one value per frame (its
    /// memory is not needed again).
    pub(super) fn start_times(
        &self,
        ft: &[f64],
        mut raw: Vec<f64>,
        lines: &Lines,
    ) -> (Vec<f64>, Option<(usize, u64)>) {
        let in_place = raw.len() == ft.len();
        let old =
            if in_place { Vec::new() } else { std::mem::replace(&mut raw, Vec::with_capacity(ft.len())) };
        let mut next = 0.0;
        let mut out_of_range: Option<(usize, u64)> = None;
        for (i, &ft_i) in ft.iter().enumerate() {
            let r = if in_place { raw[i] } else { old.get(i).copied().unwrap_or(f64::NAN) };
            let s = self.start(i, r, ft_i, next);
            let s = if s.is_finite() {
                s
            } else {
                let (count, line) = out_of_range.unwrap_or((0, lines.get(i).unwrap_or(0)));
                out_of_range = Some((count + 1, line));
                next
            };
            if in_place {
                raw[i] = s;
            } else {
                raw.push(s);
            }
            next = s + ft_i;
        }
        (raw, out_of_range)
    }

    /// Frame `i`'s start from its raw time `raw` and frame time `ft_i`, the previous
    /// frame ending at `next`.
    #[inline]
    fn start(&self, i: usize, raw: f64, ft_i: f64, next: f64) -> f64 {
        match self.role {
            // A frame without a present interval (ft 0) occupies no time of its own:
            // it sits where the previous frame ends, so starts never go back.
            Some(_) if ft_i == 0.0 && i > 0 => next,
            Some(role) if raw.is_finite() => {
                let t = (raw - self.origin_raw) * self.ms_per_raw;
                let s = if role == TimeRole::Present { t - ft_i } else { t };
                if i > 0 && s < next && s >= next - self.rounding_ms { next } else { s }
            }
            _ => next,
        }
    }
}
