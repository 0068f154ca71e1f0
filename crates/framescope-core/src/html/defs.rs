//! What the page calls each compared figure (`report::compare::FIGURES`, by
//! `section.name`), how it writes its value (the readable table's decimals,
//! `report/table.rs`), and a one-sentence definition for the hover (from
//! `docs/figures.md`).

/// How a figure's value is written in a run's column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A count, whole.
    Count,
    /// A duration in ms, written in seconds with 3 decimals.
    Seconds,
    /// Two decimals (FPS, latencies, ratios).
    Two,
    /// Three decimals (frame-time percentiles; FrameView's figures).
    Three,
    /// A whole rate.
    Whole,
    /// A 0..1 fraction, in % with 2 decimals.
    Percent,
}

impl Style {
    /// `v` as the readable table writes it (never "-0").
    #[must_use]
    pub fn format(self, v: f64) -> String {
        let v = v + 0.0;
        match self {
            Self::Count | Self::Whole => format!("{v:.0}"),
            Self::Seconds => format!("{:.3} s", v / 1000.0),
            Self::Two => format!("{v:.2}"),
            Self::Three => format!("{v:.3}"),
            Self::Percent => format!("{:.2} %", v * 100.0),
        }
    }
}

/// One figure: `section.name`, name for people, style, definition.
pub type Def = (&'static str, &'static str, Style, &'static str);

use Style::{Count, Percent, Seconds, Three, Two, Whole};

const LOW: &str = "The average FPS of the ⌊p·n⌋ + 1 slowest frames: 1000 · k / their total time.";
const CFX_Q: &str = "The R-8 quantile of per-frame FPS (1000 / frame time) at the level in the name, as CapFrameX computes it.";

/// Every compared figure's name, style and definition.
pub const DEFS: &[Def] = &[
    ("run.frames", "Frames", Count, "n, the frames of the analysed series (an estimate for a sampled log)."),
    ("run.duration_ms", "Duration", Seconds, "T, the sum of the analysed frame times."),
    ("run.dropped_frames", "Dropped frames", Count, "Frames that never reached the screen."),
    (
        "summary.avg_fps",
        "Average FPS",
        Two,
        "1000 · n / T: frames per second of wall time (time-weighted, not the mean of per-frame FPS).",
    ),
    (
        "summary.low_1pct_fps",
        "1% low FPS",
        Two,
        "The average FPS of the slowest 1 % of frames: 1000 · k / Σ(k slowest frame times), k = max(1, ⌊n/100⌋).",
    ),
    (
        "summary.low_0_1pct_fps",
        "0.1% low FPS",
        Two,
        "The same over the slowest 0.1 % of frames, k = max(1, ⌊n/1000⌋).",
    ),
    ("summary.min_fps", "Min FPS", Two, "1000 / the slowest frame time."),
    ("summary.max_fps", "Max FPS", Two, "1000 / the fastest frame time."),
    (
        "summary.p50_ms",
        "p50 frame time (ms)",
        Three,
        "The median frame time (linear interpolation between closest ranks).",
    ),
    (
        "summary.p90_ms",
        "p90 frame time (ms)",
        Three,
        "90 % of frames are at most this long (linear percentile).",
    ),
    (
        "summary.p95_ms",
        "p95 frame time (ms)",
        Three,
        "95 % of frames are at most this long (linear percentile).",
    ),
    (
        "summary.p99_ms",
        "p99 frame time (ms)",
        Three,
        "99 % of frames are at most this long (linear percentile).",
    ),
    (
        "summary.p99_9_ms",
        "p99.9 frame time (ms)",
        Three,
        "99.9 % of frames are at most this long (linear percentile).",
    ),
    (
        "pacing.steady_fps",
        "Steady FPS",
        Whole,
        "The highest rate F with under 1 % of the time in frames slower than 1000/F ms and under 0.1 % excess time (SuperTuxKart).",
    ),
    (
        "pacing.mostly_steady_fps",
        "Mostly steady FPS",
        Whole,
        "The highest rate F with slow time under 12 % and excess time under 2 % (SuperTuxKart).",
    ),
    (
        "pacing.typical_fps",
        "Typical FPS",
        Whole,
        "The highest rate F with slow time under 50 % and excess time under 10 %: the rate held about half the time.",
    ),
    (
        "pacing.slow_time_fraction",
        "Slow time at target",
        Percent,
        "The share of the run's time spent in frames slower than the target frame time.",
    ),
    (
        "pacing.excess_time_fraction",
        "Excess time at target",
        Percent,
        "The share of the run's time by which frames overran the target frame time.",
    ),
    (
        "stutters.count",
        "Stutters",
        Count,
        "Frames more than the floor (4 ms) and the threshold (20 %) above the median of the 19 frames around them (Nsight Systems' rule).",
    ),
    ("stutters.time_fraction", "Stutter time", Percent, "The stutter frames' time over T."),
    (
        "osc.oscillating_frames",
        "Oscillating frames",
        Count,
        "Frames whose 19-frame window has an IQR above the floor and q3/q1 above 1.2 (alternating fast and slow frames).",
    ),
    (
        "osc.p90_iqr_ms",
        "OSC: P90 of the IQR (ms)",
        Two,
        "The 90th percentile over frames of their 19-frame window's q3 − q1.",
    ),
    (
        "osc.p90_iqr_ratio",
        "OSC: P90 of q3/q1",
        Two,
        "The 90th percentile over frames of their 19-frame window's q3 / q1.",
    ),
    (
        "latency.pcl_ms",
        "PC latency (ms)",
        Two,
        "NVIDIA PC Latency from a PCL Stats marker log: mean(I2FS) + mean(FS2P) + mean(P2D).",
    ),
    (
        "latency.i2fs_ms",
        "Input to frame start (ms)",
        Two,
        "Mean time from a latency ping's input to its frame's simulation start.",
    ),
    (
        "latency.fs2p_ms",
        "Frame start to present (ms)",
        Two,
        "Mean time from simulation start to present, over displayed frames.",
    ),
    (
        "latency.p2d_ms",
        "Present to display (ms)",
        Two,
        "Mean MsUntilDisplayed of the frames joined to the marker log.",
    ),
    (
        "latency.pc_latency_column_mean_ms",
        "PC latency mean (ms)",
        Two,
        "The mean of the capture's own PC latency column (PresentMon's and FrameView's MsPCLatency, the NVIDIA App's PC Latency).",
    ),
    (
        "latency.display_latency_mean_ms",
        "Display latency mean (ms)",
        Two,
        "Present to display over displayed application frames.",
    ),
    (
        "latency.click_to_photon_mean_ms",
        "Click to photon mean (ms)",
        Two,
        "Mean ClickToPhotonLatency over frames with a click.",
    ),
    ("latency.pc_latency_min_ms", "PC latency min (ms)", Two, "The smallest PC latency cell above 0."),
    ("latency.pc_latency_max_ms", "PC latency max (ms)", Two, "The largest PC latency cell."),
    (
        "latency.render_present_latency_mean_ms",
        "Render-present latency mean (ms)",
        Two,
        "Mean MsRenderPresentLatency: present to GPU done (a sampled log's render latency).",
    ),
    (
        "latency.all_input_to_photon_mean_ms",
        "All input to photon mean (ms)",
        Two,
        "Mean AllInputToPhotonLatency over cells above 0.",
    ),
    (
        "latency.animation_error_mean_abs_ms",
        "Animation error mean |x| (ms)",
        Two,
        "Mean absolute MsAnimationError over plausible cells.",
    ),
    (
        "latency.animation_error_p99_abs_ms",
        "Animation error p99 |x| (ms)",
        Two,
        "The 99th percentile of |MsAnimationError|: how far the shown motion strays from the simulation.",
    ),
    (
        "latency.animation_error_over_1ms_fraction",
        "Animation error over 1 ms",
        Percent,
        "Share of the frames whose |MsAnimationError| is above 1 ms.",
    ),
    (
        "limiter.gpu_time_fraction",
        "GPU-limited time",
        Percent,
        "Time in frames whose GPU busy reaches 90 % of the frame's CPU interval (busy + wait).",
    ),
    (
        "limiter.cpu_time_fraction",
        "CPU-limited time",
        Percent,
        "Time in frames that are not GPU-limited and whose CPU busy reaches 90 % of the frame.",
    ),
    (
        "limiter.neither_time_fraction",
        "Neither-limited time",
        Percent,
        "Time in frames where both CPU and GPU waited: a frame cap, VSYNC, the display or a stall.",
    ),
    ("limiter.gpu_busy_mean_ms", "GPU busy mean (ms)", Two, "Mean GPU busy over the classified frames."),
    ("limiter.cpu_busy_mean_ms", "CPU busy mean (ms)", Two, "Mean CPU busy over the classified frames."),
    (
        "limiter.gpu_busy_share",
        "GPU busy share",
        Two,
        "Σ GPU busy / Σ frame CPU interval: how much of the frame time the GPU worked.",
    ),
    (
        "frame_types.application_fps",
        "Application FPS",
        Two,
        "The rendered (application) frames' share of the run's rate: 1000 · count / T.",
    ),
    (
        "frame_types.generated_fps",
        "Generated FPS",
        Two,
        "The generated frames' share of the run's rate: 1000 · count / T.",
    ),
    ("capframex.average_fps", "CapFrameX average", Two, "1000 · n / T."),
    ("capframex.min_fps", "CapFrameX min", Two, "1000 / the slowest frame."),
    ("capframex.max_fps", "CapFrameX max", Two, "1000 / the fastest frame."),
    ("capframex.p99_fps", "CapFrameX P99", Two, CFX_Q),
    ("capframex.p95_fps", "CapFrameX P95", Two, CFX_Q),
    ("capframex.median_fps", "CapFrameX median", Two, CFX_Q),
    ("capframex.p5_fps", "CapFrameX P5", Two, CFX_Q),
    ("capframex.p1_fps", "CapFrameX P1", Two, CFX_Q),
    ("capframex.p0_2_fps", "CapFrameX P0.2", Two, CFX_Q),
    ("capframex.p0_1_fps", "CapFrameX P0.1", Two, CFX_Q),
    (
        "capframex.low_1pct_avg_fps",
        "CapFrameX 1% low average",
        Two,
        "1000 / the mean of the frame times at or above their R-8 0.99 quantile.",
    ),
    (
        "capframex.low_0_1pct_avg_fps",
        "CapFrameX 0.1% low average",
        Two,
        "1000 / the mean of the frame times at or above their R-8 0.999 quantile.",
    ),
    (
        "capframex.low_1pct_integral_fps",
        "CapFrameX 1% low integral",
        Two,
        "Slowest frames first until they add up to 1 % of the time; 1000 / the frame where they do (MSI Afterburner's).",
    ),
    (
        "capframex.low_0_1pct_integral_fps",
        "CapFrameX 0.1% low integral",
        Two,
        "The same until 0.1 % of the time.",
    ),
    (
        "capframex.stuttering_time_fraction",
        "CapFrameX stuttering",
        Percent,
        "Time in frames longer than 2.5 × the moving average of the frames before them.",
    ),
    (
        "capframex.low_fps_time_fraction",
        "CapFrameX low FPS time",
        Percent,
        "Time in frames that do not stutter and run below 25 FPS.",
    ),
    ("frameview.average_fps", "FrameView average", Three, "1000 · n / T."),
    ("frameview.low_1pct_fps", "FrameView 1% low", Three, LOW),
    ("frameview.low_0_1pct_fps", "FrameView 0.1% low", Three, LOW),
    ("frameview.fps_10pct", "FrameView 10% FPS", Three, "1000 / the (⌊0.1·n⌋ + 1)-th slowest frame."),
    ("frameview.fps_5pct", "FrameView 5% FPS", Three, "1000 / the (⌊0.05·n⌋ + 1)-th slowest frame."),
    ("frameview.fps_1pct", "FrameView 1% FPS", Three, "1000 / the (⌊0.01·n⌋ + 1)-th slowest frame."),
    ("frameview.fps_0_1pct", "FrameView 0.1% FPS", Three, "1000 / the (⌊0.001·n⌋ + 1)-th slowest frame."),
    ("presentmon.average_fps", "PresentMon average", Two, "1000 / the mean frame time."),
    ("presentmon.p1_fps", "PresentMon 1st percentile", Two, "1000 / the 99th percentile frame time."),
    ("presentmon.p5_fps", "PresentMon 5th percentile", Two, "1000 / the 95th percentile frame time."),
    ("presentmon.min_fps", "PresentMon min", Two, "1000 / the slowest frame."),
    ("presentmon.max_fps", "PresentMon max", Two, "1000 / the fastest frame."),
    ("mangohud.average_fps", "MangoHud average", Two, "1000 / the mean frame time."),
    (
        "mangohud.low_1pct_fps",
        "MangoHud 1% min",
        Two,
        "A single frame: 1000 / the frame at 1 % of the frames sorted slowest first.",
    ),
    (
        "mangohud.low_0_1pct_fps",
        "MangoHud 0.1% min",
        Two,
        "A single frame: 1000 / the frame at 0.1 % of the frames sorted slowest first.",
    ),
    (
        "mangohud.p97_fps",
        "MangoHud 97% percentile",
        Two,
        "1000 / the frame at 97 % of the frames sorted slowest first (the fast end).",
    ),
];

/// The definition of figure `section.name`; its qualified name with the `Two` style
/// and no definition when the table lacks it.
#[must_use]
pub fn def(qualified: &str) -> (&'static str, Style, &'static str) {
    DEFS.iter().find(|d| d.0 == qualified).map_or(("", Style::Two, ""), |d| (d.1, d.2, d.3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::FIGURES;

    #[test]
    fn every_compared_figure_has_a_name_and_a_definition() {
        for f in FIGURES {
            let (name, _, text) = def(&f.qualified_name());
            assert!(!name.is_empty() && !text.is_empty(), "{}", f.qualified_name());
        }
        assert_eq!(DEFS.len(), FIGURES.len(), "a definition of no figure");
    }

    #[test]
    fn styles_write_the_readable_tables_decimals() {
        assert_eq!(Style::Two.format(144.234_9), "144.23");
        assert_eq!(Style::Three.format(6.933_33), "6.933");
        assert_eq!(Style::Seconds.format(12_345.6), "12.346 s");
        assert_eq!(Style::Percent.format(0.012_34), "1.23 %");
        assert_eq!(Style::Whole.format(83.0), "83");
        assert_eq!(Style::Count.format(-0.0), "0");
    }
}
