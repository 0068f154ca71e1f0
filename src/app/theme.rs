//! Every colour the window uses, in one place.

use eframe::egui::Color32;

/// A frame within the target frame time.
pub const WITHIN_BUDGET: Color32 = Color32::from_rgb(72, 170, 110);
/// A frame over the target frame time.
pub const OVER_BUDGET: Color32 = Color32::from_rgb(230, 170, 50);
/// A frame over twice the target frame time.
pub const FAR_OVER_BUDGET: Color32 = Color32::from_rgb(225, 70, 60);
/// The target frame-time line.
pub const TARGET_LINE: Color32 = Color32::from_rgb(240, 200, 90);
/// Dropped-frame marks.
pub const DROPPED: Color32 = Color32::from_rgb(200, 80, 200);
/// Stutter marks.
pub const STUTTER: Color32 = Color32::from_rgb(235, 75, 65);
/// Stutter marks inside oscillating stretches: possible false positives (faint).
pub const STUTTER_IN_OSC: Color32 = Color32::from_rgb(140, 70, 80);
/// Behind legends drawn over the timeline.
pub const LEGEND_BACKGROUND: Color32 = Color32::from_rgba_unmultiplied_const(20, 20, 24, 210);
/// Oscillating stretches (translucent).
pub const OSCILLATING: Color32 = Color32::from_rgba_unmultiplied_const(120, 100, 220, 70);
/// Health spikes.
pub const SPIKE: Color32 = Color32::from_rgb(240, 150, 60);
/// VSYNC markers (translucent).
pub const VSYNC: Color32 = Color32::from_rgba_unmultiplied_const(110, 140, 190, 90);
/// The time selection (translucent).
pub const SELECTION: Color32 = Color32::from_rgba_unmultiplied_const(80, 140, 230, 45);
/// Trimmed parts of a run (left out of every figure), shaded over the timeline.
pub const TRIMMED: Color32 = Color32::from_rgba_unmultiplied_const(8, 8, 10, 170);
/// The edges of the trim (draggable).
pub const TRIM_EDGE: Color32 = Color32::from_rgb(235, 200, 120);
/// The selected frame.
pub const SELECTED_FRAME: Color32 = Color32::from_rgb(250, 250, 250);
/// Row backgrounds, alternating.
pub const ROW_BACKGROUND: [Color32; 2] = [Color32::from_rgb(24, 24, 28), Color32::from_rgb(30, 30, 35)];
/// Ruler and label text.
pub const TEXT: Color32 = Color32::from_rgb(200, 200, 205);
/// Ruler ticks and grid.
pub const GRID: Color32 = Color32::from_rgb(60, 60, 68);
/// Latency stages, in stacking order.
pub const STAGES: [Color32; 4] = [
    Color32::from_rgb(90, 150, 230),
    Color32::from_rgb(150, 110, 220),
    Color32::from_rgb(80, 190, 190),
    Color32::from_rgb(200, 200, 120),
];
/// The linked cursor across compared timelines.
pub const CURSOR: Color32 = Color32::from_rgba_unmultiplied_const(235, 235, 240, 150);
/// One colour per compared run, baseline first (none of them the charts' target
/// orange, so a run's curve never reads as the target line).
pub const RUNS: [Color32; 6] = [
    Color32::from_rgb(90, 160, 240),
    Color32::from_rgb(240, 110, 170),
    Color32::from_rgb(110, 200, 110),
    Color32::from_rgb(170, 130, 245),
    Color32::from_rgb(120, 220, 220),
    Color32::from_rgb(200, 200, 200),
];
/// A figure that got better than the baseline.
pub const BETTER: Color32 = Color32::from_rgb(90, 200, 110);
/// A figure that got worse than the baseline.
pub const WORSE: Color32 = Color32::from_rgb(235, 90, 80);
/// Telemetry lines.
pub const TELEMETRY: Color32 = Color32::from_rgb(120, 200, 140);

/// A zoomed-out column's whisker, from its typical frame up to its slowest (faint:
/// the mark at its end, in the slowest frame's colour, carries the verdict).
pub const WHISKER: Color32 = Color32::from_rgba_unmultiplied_const(200, 200, 210, 24);
/// The faint lines of the rows' vertical axes.
pub const AXIS_GRID: Color32 = Color32::from_rgb(44, 44, 52);
/// The values of the rows' vertical axes.
pub const AXIS_TEXT: Color32 = Color32::from_rgb(150, 150, 160);

/// The colour of a generated frame (frame generation) whose rendered frame would be
/// `colour`: the same hue, much lighter, so both kinds read against the target.
#[must_use]
pub fn generated(colour: Color32) -> Color32 {
    let mix = |c: u8| c + ((255 - u16::from(c)) * 11 / 20) as u8;
    Color32::from_rgb(mix(colour.r()), mix(colour.g()), mix(colour.b()))
}

// The distribution charts (`charts`) have a palette of their own.

/// Charts: a single run's frame times (percentile curve, histogram bars); in the
/// overlay, each run has its colour from [`RUNS`] instead.
pub const FRAME_COLOR: Color32 = Color32::from_rgb(90, 170, 255);
/// Charts: the user's target FPS and target frame time (the timeline marks it with
/// [`TARGET_LINE`]).
pub const TARGET_COLOR: Color32 = Color32::from_rgb(230, 160, 40);
/// Charts: a single run's slow-time curve S(F).
pub const SLOW_COLOR: Color32 = Color32::from_rgb(230, 90, 90);
/// Charts: a single run's excess-time curve E(F).
pub const EXCESS_COLOR: Color32 = Color32::from_rgb(170, 120, 235);
/// Charts: a single run's histogram bar of the frames past the last bin.
pub const OVERFLOW_COLOR: Color32 = Color32::from_rgb(235, 70, 150);
/// Charts: the SuperTuxKart limit guides on the pacing chart.
pub const GUIDE_COLOR: Color32 = Color32::from_gray(130);

/// CPU busy on the "CPU · GPU" row, and CPU-limited time in its band.
pub const CPU_BUSY: Color32 = Color32::from_rgb(80, 160, 245);
/// GPU busy on the "CPU · GPU" row, and GPU-limited time in its band.
pub const GPU_BUSY: Color32 = Color32::from_rgb(120, 200, 70);
/// Time limited by neither (both waited) in the "CPU · GPU" row's band.
pub const NEITHER_LIMITED: Color32 = Color32::from_rgb(150, 150, 160);
/// The frame's CPU interval behind the busy lines (faint).
pub const FRAME_INTERVAL: Color32 = Color32::from_rgba_unmultiplied_const(170, 170, 185, 60);
/// The animation-error row's values.
pub const ANIMATION_ERROR: Color32 = Color32::from_rgb(230, 130, 200);
