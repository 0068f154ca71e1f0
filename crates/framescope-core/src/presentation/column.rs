//! What a zoomed-out timeline column of frame times shows — one rule for the window's
//! timeline and the HTML page's (issue 40): the top of the row's axis, then per pixel
//! column a bar to its typical frame, a whisker to its slowest and a cap there,
//! coloured by where the slowest falls against the target. A slowest frame above the
//! axis puts its cap at the top of the row, never faded: a rare stutter in a
//! million-frame capture stays visible zoomed out; so does its mark on the stutter
//! strip ([`stutter_strength`]). (The page's script draws the
//! columns the page's Rust reduced with this rule: `html/timeline.js`.)

use crate::lod::{Budget, BudgetClass};

/// The top of a frame-time row's axis for a series whose 99th percentile is `p99_ms`:
/// p99 × 1.6, at least 1 ms — the body of the capture fills the row; slower frames
/// reach its top.
#[must_use]
pub fn body_scale_ms(p99_ms: f64) -> f64 {
    (p99_ms * 1.6).max(1.0)
}

/// One column as drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnShape {
    /// The bar: from 0 to this (ms): the column's typical frame, or its one frame.
    pub bar_ms: f64,
    /// The whisker from the bar's top to this (ms, at most the axis' top); `None` for
    /// a column of one frame, or whose slowest frame is its typical one.
    pub whisker_to_ms: Option<f64>,
    /// The cap: at the whisker's end, or at the top of the row when the slowest frame
    /// is above the axis; `None` for a column of one frame within the axis.
    pub cap: Option<Cap>,
}

/// A column's cap: where its slowest frame falls, and whether it is above the axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// The slowest frame against the target (far over twice the target: red).
    pub class: BudgetClass,
    /// The slowest frame is above the row's axis: the cap marks the top of the row.
    pub off_scale: bool,
}

/// The shape of a column of `frames` frames whose typical (median) frame is
/// `typical_ms` and slowest `max_ms`, against `budget`, on an axis up to `scale_ms`.
#[must_use]
pub fn column_shape(
    frames: usize,
    typical_ms: f64,
    max_ms: f64,
    budget: &Budget,
    scale_ms: f64,
) -> ColumnShape {
    let class = budget.class(max_ms);
    let off_scale = max_ms > scale_ms;
    if frames <= 1 || !typical_ms.is_finite() {
        let cap = off_scale.then_some(Cap { class, off_scale });
        return ColumnShape { bar_ms: max_ms, whisker_to_ms: None, cap };
    }
    let whisker_to_ms = (max_ms > typical_ms).then_some(max_ms.min(scale_ms));
    ColumnShape { bar_ms: typical_ms, whisker_to_ms, cap: Some(Cap { class, off_scale }) }
}

/// How strongly a pixel column with `count` stutters (at least one) marks them on the
/// stutter strip, 0..1: 0.55 for one, stronger by 0.15 per tenfold more — the same
/// however many frames the column holds, so one stutter among a million frames is as
/// plain as one among ten.
#[must_use]
pub fn stutter_strength(count: u32) -> f32 {
    (0.55 + 0.15 * f64::from(count.max(1)).log10()).min(1.0) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stutter_marks_a_column_plainly_whatever_its_frames() {
        assert!((stutter_strength(1) - 0.55).abs() < 1e-6);
        assert!((stutter_strength(10) - 0.70).abs() < 1e-6);
        assert!((stutter_strength(1000) - 1.0).abs() < 1e-6);
    }

    /// At 60 FPS the budget is 16.67 ms, over it from 16.75 ms, far over from 33.5 ms.
    /// A column of 997 frames of 10 ms and one of 40 ms on an axis to 25 ms: a bar to
    /// 10 ms, a whisker to the top (25 ms), and a far-over (red) cap at the top.
    #[test]
    fn a_rare_stutter_above_the_axis_caps_the_column_in_red() {
        let budget = Budget::of_fps(60.0);
        let shape = column_shape(998, 10.0, 40.0, &budget, 25.0);
        assert!((shape.bar_ms - 10.0).abs() < 1e-12);
        assert_eq!(shape.whisker_to_ms, Some(25.0));
        assert_eq!(shape.cap, Some(Cap { class: BudgetClass::FarOver, off_scale: true }));
        // Within the axis: the cap sits at the slowest frame, in its class.
        let low = column_shape(10, 10.0, 20.0, &budget, 25.0);
        assert_eq!(low.whisker_to_ms, Some(20.0));
        assert_eq!(low.cap, Some(Cap { class: BudgetClass::Over, off_scale: false }));
        // One frame: its bar; capped only above the axis.
        assert_eq!(column_shape(1, f64::NAN, 20.0, &budget, 25.0).cap, None);
        let one = column_shape(1, f64::NAN, 40.0, &budget, 25.0);
        assert!((one.bar_ms - 40.0).abs() < 1e-12);
        assert_eq!(one.cap.map(|c| c.off_scale), Some(true));
    }

    #[test]
    fn the_axis_tops_the_body_at_one_point_six_times_p99() {
        assert!((body_scale_ms(15.625) - 25.0).abs() < 1e-12);
        assert!((body_scale_ms(0.1) - 1.0).abs() < 1e-12);
    }
}
