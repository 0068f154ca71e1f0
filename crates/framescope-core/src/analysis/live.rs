//! Figures of a capture that is still being written (`ingest::live`): running sums
//! extended by each update's new frames (their cost does not grow with the capture),
//! and a throttle for the exact figures (percentiles, 1 % lows, stutters), which are
//! recomputed over the whole capture at most at a rate that keeps their share of the
//! time small.

use std::time::{Duration, Instant};

/// Running sums over the frames of one trace, extended with each update.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Running {
    /// Frames seen.
    pub frames: usize,
    /// Sum of their frame times (ms).
    pub sum_ms: f64,
    /// The longest frame time (ms; 0 with no frame).
    pub max_ms: f64,
}

impl Running {
    /// Takes in the frames of `times` after those already seen (`times` is the
    /// trace's frame times so far, in order; only the new ones are read). A shorter
    /// `times` (the capture started over) starts the sums over.
    pub fn extend(&mut self, times: &[f64]) {
        if times.len() < self.frames {
            *self = Self::default();
        }
        for &t in &times[self.frames..] {
            self.sum_ms += t;
            self.max_ms = self.max_ms.max(t);
        }
        self.frames = times.len();
    }

    /// Frames per second over the frames seen (`frames / sum`), `None` with none.
    #[must_use]
    pub fn average_fps(&self) -> Option<f64> {
        (self.frames > 0 && self.sum_ms > 0.0).then(|| self.frames as f64 * 1000.0 / self.sum_ms)
    }
}

/// When to recompute the exact figures of a growing capture: at most every `period`,
/// and never more often than `share` of the time (a recomputation that took `c` waits
/// at least `c / share`), so their cost stays a bounded share however long the
/// capture grows.
#[derive(Debug, Clone, Copy)]
pub struct Throttle {
    period: Duration,
    share: f64,
    last: Option<(Instant, Duration)>,
}

impl Throttle {
    /// A throttle of `period` that lets recomputation take at most `share` (0–1) of
    /// the time.
    #[must_use]
    pub fn new(period: Duration, share: f64) -> Self {
        Self { period, share: share.clamp(0.01, 1.0), last: None }
    }

    /// True when a recomputation is due at `now`.
    #[must_use]
    pub fn due(&self, now: Instant) -> bool {
        self.last.is_none_or(|(at, cost)| {
            let wait = self.period.max(cost.div_f64(self.share));
            now.duration_since(at) >= wait
        })
    }

    /// Notes a recomputation that started at `at` and took `cost`.
    pub fn done(&mut self, at: Instant, cost: Duration) {
        self.last = Some((at, cost));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 10, 20, 30 ms: 3 frames in 60 ms, 50 FPS; then 40 ms: 4 frames in 100 ms, 40
    /// FPS, max 40. A shorter series starts over: 5 ms alone, 200 FPS.
    #[test]
    fn running_sums_extend_and_start_over() {
        let mut r = Running::default();
        r.extend(&[10.0, 20.0, 30.0]);
        assert_eq!(r.average_fps(), Some(50.0));
        r.extend(&[10.0, 20.0, 30.0, 40.0]);
        assert_eq!((r.frames, r.sum_ms, r.max_ms), (4, 100.0, 40.0));
        assert_eq!(r.average_fps(), Some(40.0));
        r.extend(&[5.0]);
        assert_eq!(r.average_fps(), Some(200.0));
        assert_eq!(Running::default().average_fps(), None);
    }

    /// Period 1 s, share 0.25: after a 1 s recomputation the next waits 4 s; after a
    /// 10 ms one, the period.
    #[test]
    fn the_throttle_keeps_a_share() {
        let t0 = Instant::now();
        let mut t = Throttle::new(Duration::from_secs(1), 0.25);
        assert!(t.due(t0));
        t.done(t0, Duration::from_secs(1));
        assert!(!t.due(t0 + Duration::from_secs(3)));
        assert!(t.due(t0 + Duration::from_secs(4)));
        t.done(t0, Duration::from_millis(10));
        assert!(!t.due(t0 + Duration::from_millis(999)));
        assert!(t.due(t0 + Duration::from_secs(1)));
    }
}
