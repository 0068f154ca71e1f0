//! The peer tools' figures as the window names them (issue 12, `metrics.md` §11):
//! CapFrameX's, FrameView's, PresentMon's and MangoHud's figures by `section.name`,
//! each with the tool's own name, its unit and its definition — one table for the
//! "As other tools report it" panel and the comparison's rows. No drawing.

use super::figure_text::Unit;
use framescope_core::report::compare::Section;

/// Each peer tool's figures as the window names them: `section.name` (as in the
/// report's `conventions`), the tool's own name for the figure, its unit, and its
/// definition (the words of `docs/figures.md` §2 and §10), which names the tool.
pub const PEER_FIGURES: &[(&str, &str, Unit, &str)] = &[
    (
        "capframex.average_fps",
        "Average",
        Unit::Fps,
        "CapFrameX: 1000 × frames ÷ total time (as framescope's average).",
    ),
    ("capframex.max_fps", "Max", Unit::Fps, "CapFrameX: 1000 ÷ the fastest frame time."),
    ("capframex.min_fps", "Min", Unit::Fps, "CapFrameX: 1000 ÷ the slowest frame time."),
    (
        "capframex.p99_fps",
        "P99",
        Unit::Fps,
        "CapFrameX: the R-8 quantile (MathNet) of the per-frame FPS values at 0.99 — the fast end of the run.",
    ),
    (
        "capframex.p95_fps",
        "P95",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.95.",
    ),
    (
        "capframex.median_fps",
        "Median",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.5.",
    ),
    ("capframex.p5_fps", "P5", Unit::Fps, "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.05."),
    (
        "capframex.p1_fps",
        "P1",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.01 — a percentile of FPS, one frame's rank, \
         not an average of the slow frames (framescope's nearest figure is 1000 ÷ its p99 frame time).",
    ),
    (
        "capframex.p0_2_fps",
        "P0.2",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.002.",
    ),
    (
        "capframex.p0_1_fps",
        "P0.1",
        Unit::Fps,
        "CapFrameX: the R-8 quantile of the per-frame FPS values at 0.001.",
    ),
    (
        "capframex.low_1pct_avg_fps",
        "1% low (average)",
        Unit::Fps,
        "CapFrameX's \"1% low average\": 1000 ÷ the mean of the frame times at or above their R-8 quantile at 0.99.",
    ),
    (
        "capframex.low_0_1pct_avg_fps",
        "0.1% low (average)",
        Unit::Fps,
        "CapFrameX's \"0.1% low average\": 1000 ÷ the mean of the frame times at or above their R-8 quantile at 0.999.",
    ),
    (
        "capframex.low_1pct_integral_fps",
        "1% low (integral)",
        Unit::Fps,
        "CapFrameX's \"1% low integral\" (MSI Afterburner's definition): frame times slowest first, summed until \
         they reach 1 % of the run's time; 1000 ÷ the frame time where they do.",
    ),
    (
        "capframex.low_0_1pct_integral_fps",
        "0.1% low (integral)",
        Unit::Fps,
        "CapFrameX's \"0.1% low integral\": slowest frames first until they reach 0.1 % of the run's time; 1000 ÷ \
         the frame time where they do.",
    ),
    (
        "capframex.stuttering_time_fraction",
        "Stuttering time",
        Unit::Fraction,
        "CapFrameX's stuttering: the share of the time in frames over 2.5 × the average of the round(sqrt(mean frame \
         time) × 10) frames ending at them — a different rule from framescope's stutters.",
    ),
    (
        "capframex.low_fps_time_fraction",
        "Low FPS time",
        Unit::Fraction,
        "CapFrameX: the share of the time in the frames that do not stutter (its rule) and run under 25 FPS.",
    ),
    ("frameview.average_fps", "Avg FPS", Unit::Fps, "FrameView's summary: 1000 × frames ÷ total time."),
    (
        "frameview.low_1pct_fps",
        "1% Low FPS",
        Unit::Fps,
        "FrameView's summary: 1000 × k ÷ the total time of the k slowest frames, k = floor(0.01 × frames) + 1 — one \
         frame more than framescope's 1% low.",
    ),
    (
        "frameview.low_0_1pct_fps",
        "0.1% Low FPS",
        Unit::Fps,
        "FrameView's summary: 1000 × k ÷ the total time of the k slowest frames, k = floor(0.001 × frames) + 1.",
    ),
    (
        "frameview.fps_10pct",
        "10% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.10 × frames) + 1)-th slowest frame time.",
    ),
    (
        "frameview.fps_5pct",
        "5% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.05 × frames) + 1)-th slowest frame time.",
    ),
    (
        "frameview.fps_1pct",
        "1% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.01 × frames) + 1)-th slowest frame time — one frame's rank, not an \
         average.",
    ),
    (
        "frameview.fps_0_1pct",
        "0.1% FPS",
        Unit::Fps,
        "FrameView's summary: 1000 ÷ the (floor(0.001 × frames) + 1)-th slowest frame time.",
    ),
    ("presentmon.average_fps", "Average FPS", Unit::Fps, "PresentMon's app: 1000 ÷ the mean frame time."),
    (
        "presentmon.p1_fps",
        "1st percentile FPS",
        Unit::Fps,
        "PresentMon's app: 1000 ÷ the 99th percentile frame time (linear interpolation, the same percentile as \
         framescope's p99).",
    ),
    (
        "presentmon.p5_fps",
        "5th percentile FPS",
        Unit::Fps,
        "PresentMon's app: 1000 ÷ the 95th percentile frame time (linear interpolation).",
    ),
    ("presentmon.min_fps", "Min FPS", Unit::Fps, "PresentMon's app: 1000 ÷ the slowest frame time."),
    ("presentmon.max_fps", "Max FPS", Unit::Fps, "PresentMon's app: 1000 ÷ the fastest frame time."),
    ("mangohud.average_fps", "Average FPS", Unit::Fps, "MangoHud's summary: 1000 ÷ the mean frame time."),
    (
        "mangohud.low_1pct_fps",
        "1% Min FPS",
        Unit::Fps,
        "MangoHud's summary (0.8): a single frame, not an average — 1000 ÷ d[trunc(0.01 × frames − 1)], d the \
         frame times slowest first.",
    ),
    (
        "mangohud.low_0_1pct_fps",
        "0.1% Min FPS",
        Unit::Fps,
        "MangoHud's summary (0.8): a single frame — 1000 ÷ d[trunc(0.001 × frames − 1)], d slowest first.",
    ),
    (
        "mangohud.p97_fps",
        "97% Percentile FPS",
        Unit::Fps,
        "MangoHud's summary (0.8): 1000 ÷ d[trunc(0.97 × frames − 1)], d slowest first — the fast end of the run.",
    ),
];

/// Where each tool's figures come from, for the tool's heading.
pub fn tool_help(tool: Section) -> &'static str {
    match tool {
        Section::CapFrameX => {
            "CapFrameX's statistics (FrametimeStatisticProvider.cs), computed on the same frames"
        }
        Section::FrameView => {
            "NVIDIA FrameView's summary file (FrameView_Summary.csv), computed on the same frames; FrameView works on \
             present intervals"
        }
        Section::PresentMon => "Intel PresentMon's capture app, its statistics (StatisticsTracker.cpp)",
        Section::MangoHud => "MangoHud's summary file (src/logging.cpp, version 0.8)",
        _ => "",
    }
}

/// A peer figure's entry in [`PEER_FIGURES`] by `section.name`.
#[must_use]
pub fn peer(qualified: &str) -> Option<&'static (&'static str, &'static str, Unit, &'static str)> {
    PEER_FIGURES.iter().find(|(q, ..)| *q == qualified)
}

/// A peer figure's name in the comparison table, "FrameView: 1% Low FPS", and its unit;
/// `None` for framescope's own figures.
#[must_use]
pub fn table_name(qualified: &str) -> Option<(String, Unit)> {
    let &(q, name, unit, _) = peer(qualified)?;
    let section = q.split('.').next().and_then(Section::convention)?;
    Some((format!("{}: {name}", section.title()), unit))
}

/// The definition of a peer figure by its table name ("FrameView: 1% Low FPS"); ""
/// for any other name.
#[must_use]
pub fn help_by_table_name(title: &str) -> &'static str {
    PEER_FIGURES
        .iter()
        .find(|(q, ..)| table_name(q).is_some_and(|(t, _)| t == title))
        .map_or("", |&(.., help)| help)
}
