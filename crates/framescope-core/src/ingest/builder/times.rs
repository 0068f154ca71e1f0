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
        if raw.len() != ft.len() {
            // No time column (or a short one): NaN for every missing raw value.
            let old = std::mem::replace(&mut raw, vec![f64::NAN; ft.len()]);
            raw.iter_mut().zip(old).for_each(|(slot, v)| *slot = v);
        }
        let mut next = 0.0;
        let mut out_of_range: Option<(usize, u64)> = None;
        for (i, (r, &ft_i)) in raw.iter_mut().zip(ft).enumerate() {
            let mut s = self.start(i, *r, ft_i, next);
            if !s.is_finite() {
                note_out_of_range(&mut out_of_range, lines, i);
                s = next;
            }
            *r = s;
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

/// Counts a frame whose timestamp is out of range, keeping the first one's line.
#[cold]
fn note_out_of_range(out_of_range: &mut Option<(usize, u64)>, lines: &Lines, i: usize) {
    let (count, line) = out_of_range.unwrap_or((0, lines.get(i).unwrap_or(0)));
    *out_of_range = Some((count + 1, line));
}
