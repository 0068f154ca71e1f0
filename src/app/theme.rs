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
/// One colour per compared run, baseline first, distinct for eight runs with normal
/// vision and with protanopia or deuteranopia (the first six avoid the charts' target
/// orange, so a run's curve never reads as the target line).
pub const RUNS: [Color32; 8] = [
    // Okabe & Ito's colour-blind-safe palette (sky blue, vermillion, bluish green,
    // reddish purple, blue lightened for a dark background), light grey instead of its
    // black, then its orange and yellow last (near the target lines' colours).
    Color32::from_rgb(86, 180, 233),
    Color32::from_rgb(213, 94, 0),
    Color32::from_rgb(0, 158, 115),
    Color32::from_rgb(204, 121, 167),
    Color32::from_rgb(40, 120, 220),
    Color32::from_rgb(200, 200, 200),
    Color32::from_rgb(230, 159, 0),
    Color32::from_rgb(240, 228, 66),
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

#[cfg(test)]
mod tests {
    use super::RUNS;

    /// CIELAB of linear RGB `v` (D65).
    fn lab(v: [f64; 3]) -> [f64; 3] {
        let [r, g, b] = v.map(|x| x.clamp(0.0, 1.0));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
        let f = |t: f64| if t > 0.008_856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    /// The smallest CIE76 distance between two run colours as seen through `m`
    /// (Viénot, Brettel & Mollon 1999, in linear RGB).
    fn least_distance(m: [[f64; 3]; 3]) -> f64 {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.040_45 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        let seen: Vec<[f64; 3]> = RUNS
            .iter()
            .map(|c| {
                let v = [lin(c.r()), lin(c.g()), lin(c.b())];
                lab([0, 1, 2].map(|i| m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2]))
            })
            .collect();
        let mut least = f64::INFINITY;
        for (i, a) in seen.iter().enumerate() {
            for b in &seen[i + 1..] {
                least =
                    least.min(((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt());
            }
        }
        least
    }

    /// Eight runs stay apart (ΔE ≥ 15) for normal vision, protanopia and deuteranopia
    /// (the former palette's green and cyan, 3 and 5, were 2.5 apart for deuteranopes).
    #[test]
    fn run_colours_stay_apart_for_colour_blind_readers() {
        let normal = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let protan = [[0.112_38, 0.887_62, 0.0], [0.112_38, 0.887_62, 0.0], [0.004_01, -0.004_01, 1.0]];
        let deutan = [[0.292_75, 0.707_25, 0.0], [0.292_75, 0.707_25, 0.0], [-0.022_34, 0.022_34, 1.0]];
        assert!(RUNS.len() >= 8);
        for (name, m) in [("normal", normal), ("protanopia", protan), ("deuteranopia", deutan)] {
            let d = least_distance(m);
            assert!(d >= 15.0, "{name}: two run colours only {d:.1} apart");
        }
    }
}
