//! The visible time range: two numbers, start and span, in f64 milliseconds. Zoom
//! keeps the time under the cursor fixed; every change goes through these methods.

/// The smallest span the view zooms in to (10 µs).
const MIN_SPAN_MS: f64 = 0.01;

/// What part of the time axis is visible.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeView {
    /// Time at the left edge, ms.
    pub start_ms: f64,
    /// Visible span, ms.
    pub span_ms: f64,
}

impl Default for TimeView {
    fn default() -> Self {
        Self { start_ms: 0.0, span_ms: 1000.0 }
    }
}

impl TimeView {
    /// The view that shows `[start, end]` whole.
    #[must_use]
    pub fn fit(start_ms: f64, end_ms: f64) -> Self {
        let span = (end_ms - start_ms).clamp(MIN_SPAN_MS, 1e12);
        let start_ms = if start_ms.is_finite() { start_ms } else { 0.0 };
        Self { start_ms: start_ms - span * 0.01, span_ms: span * 1.02 }
    }

    /// Time at horizontal position `x` of a track `[left, left + width]`.
    #[must_use]
    pub fn time_at(&self, x: f32, left: f32, width: f32) -> f64 {
        self.start_ms + f64::from(x - left) / f64::from(width.max(1.0)) * self.span_ms
    }

    /// Horizontal position of time `t` on a track `[left, left + width]`.
    #[must_use]
    pub fn x_of(&self, t_ms: f64, left: f32, width: f32) -> f32 {
        left + ((t_ms - self.start_ms) / self.span_ms * f64::from(width)) as f32
    }

    /// Milliseconds per pixel on a track of `width`.
    #[must_use]
    pub fn ms_per_px(&self, width: f32) -> f64 {
        self.span_ms / f64::from(width.max(1.0))
    }

    /// Zooms by `factor` (< 1 zooms in) keeping `around_ms` where it is.
    pub fn zoom(&mut self, factor: f64, around_ms: f64) {
        let factor = if factor.is_finite() && factor > 0.0 { factor } else { 1.0 };
        let span = (self.span_ms * factor).clamp(MIN_SPAN_MS, 1e12);
        let frac = (around_ms - self.start_ms) / self.span_ms;
        self.start_ms = around_ms - frac * span;
        self.span_ms = span;
    }

    /// Moves the view by `delta_ms`.
    pub fn pan(&mut self, delta_ms: f64) {
        if delta_ms.is_finite() {
            self.start_ms += delta_ms;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut v = TimeView { start_ms: 0.0, span_ms: 1000.0 };
        let before = v.x_of(250.0, 0.0, 500.0);
        v.zoom(0.5, 250.0);
        assert!((v.x_of(250.0, 0.0, 500.0) - before).abs() < 1e-3);
        assert!((v.span_ms - 500.0).abs() < 1e-9);
        v.zoom(1e-9, 250.0);
        assert!(v.span_ms >= MIN_SPAN_MS);
        assert!((v.time_at(125.0, 0.0, 500.0) - (v.start_ms + v.span_ms / 4.0)).abs() < 1e-9);
    }
}
