//! How the window names, writes and explains a figure: the table of names and units,
//! number formats, how a verdict ([`framescope_core::report::Verdict`]) is written, and
//! the one-sentence help of every figure and setting. No drawing.

use framescope_core::figures::FIGURES;
use framescope_core::report::Verdict;

pub use framescope_core::figures::fixed;

/// A relative change, "+1.2 %"; "—" when unknown.
#[must_use]
pub fn format_change(relative: Option<f64>) -> String {
    relative.map_or_else(
        || "—".to_owned(),
        |r| {
            let text = fixed(r * 100.0, 1);
            if text.starts_with('-') || text.parse::<f64>().is_ok_and(|x| x == 0.0) {
                format!("{text} %")
            } else {
                format!("+{text} %")
            }
        },
    )
}

/// How the window's tables write a verdict: the core's word, and "—" for a figure
/// with no better or worse.
#[must_use]
pub fn verdict_text(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Neutral => "—",
        v => v.as_str(),
    }
}

/// Rows of the figures panel that are not one registry figure: their names, and what
/// they mean.
pub const OSCILLATION: &str = "Oscillation";
/// A sampled log's render-present latency, as the NVIDIA App names it.
pub const RENDER_LATENCY: &str = "Render latency mean";
/// The display's refresh rate.
pub const REFRESH: &str = "Refresh";
/// The pacing figures, which a sampled log lacks.
pub const PACING: &str = "Pacing";
/// The frame-health row, which a sampled log lacks.
pub const FRAME_HEALTH: &str = "Frame health";

/// What each row that is not one registry figure means.
const ROW_HELP: &[(&str, &str)] = &[
    (
        SAMPLED_LOWS,
        "A sampled log has one average rate per sample, so its 1% and 0.1% lows are lows of those averages: always higher than lows of single frames. The logging tool's own lows (RTSS's benchmark, the NVIDIA App), when the log has them, are per frame.",
    ),
    (
        OSCILLATION,
        "OSC: frame times swinging between fast and slow, flagged when the 90th percentile of the 19-frame interquartile range is over the floor and of q3 / q1 over 1.2; stutters there may be false positives.",
    ),
    (RENDER_LATENCY, "The NVIDIA App's render latency, time-weighted over the samples."),
    (
        REFRESH,
        "The display's refresh rate: detected from the display intervals (with how sure the detection is), or set by you for this capture; it places the VSYNC markers.",
    ),
    (PACING, "Needs per-frame data: a sampled log holds averages over intervals, not frame times."),
    (FRAME_HEALTH, "Needs per-frame data: a sampled log holds averages over intervals, not frame times."),
];

/// What a figure or row means, in a sentence, by the name the window shows: a
/// registry figure's definition by its display name ("FrameView: 1% Low FPS") or
/// title, else a row's; "" for an unknown name.
#[must_use]
pub fn figure_help(name: &str) -> &'static str {
    let registry = FIGURES.iter().find(|f| f.display_name() == name).map(|f| f.help);
    registry.or_else(|| ROW_HELP.iter().find(|(n, _)| *n == name).map(|&(_, help)| help)).unwrap_or("")
}

/// The row beside a sampled log's lows (`report::sampled_lows_note`).
pub const SAMPLED_LOWS: &str = "Sampled lows";
/// The row beside the lows of a run of fewer than 100 frames (`report::lows_note`).
pub const SHORT_RUN_LOWS: &str = "1% and 0.1% lows";
/// What the note beside a short run's lows means, for its tooltip.
pub const SHORT_RUN_LOWS_HELP: &str = "The run has fewer than 100 frames, so its 1% and 0.1% lows are each \
    the rate of its single slowest frame (k = 1), not an average over 1 % or 0.1 % of its frames.";
/// What the target FPS is, for its tooltips.
pub const TARGET_HELP: &str = "The frame rate you want the game to hold. Frames slower than 1000 / target ms \
    are slow: the slow- and excess-time figures count them, and the timeline colours them (within 0.5 % \
    still counts as on target there). Pick \"display … Hz\" to judge a run against its display's refresh.";
/// What the stutter threshold is, for its tooltips.
pub const THRESHOLD_HELP: &str = "A frame is a stutter when it is slower than the median of the 19 frames \
    around it by more than this share of that median (and by more than the floor). Nsight Systems uses 20 %.";
/// What the stutter floor is, for its tooltips.
pub const FLOOR_HELP: &str = "A frame is a stutter only when it is also this many ms slower than the median \
    of the 19 frames around it, so tiny wobbles of fast frames do not count. Also the oscillation floor.";
