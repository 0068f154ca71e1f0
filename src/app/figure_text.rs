//! How the window names, writes and explains a figure: the table of names and units,
//! number formats, how a verdict ([`framescope_core::report::Verdict`]) is written, and
//! the one-sentence help of every figure and setting. No drawing.

use framescope_core::report::Verdict;

/// How a compared figure is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Frames per second, two decimals.
    Fps,
    /// A whole rate (Steady, Mostly steady, Typical FPS).
    WholeFps,
    /// Milliseconds.
    Ms,
    /// A duration given in ms, written in seconds.
    Seconds,
    /// A 0..1 fraction, written in % (its delta in percentage points).
    Fraction,
    /// A count, written whole.
    Count,
    /// A plain ratio.
    Ratio,
}

/// The comparison's figures by `section.name`: what the window calls them and how
/// their values are written. A figure missing here is shown under its JSON name.
pub const FIGURE_NAMES: &[(&str, &str, Unit)] = &[
    ("run.frames", "Frames", Unit::Count),
    ("run.duration_ms", "Duration", Unit::Seconds),
    ("run.dropped_frames", "Dropped frames", Unit::Count),
    ("summary.avg_fps", "Average FPS", Unit::Fps),
    ("summary.min_fps", "Min FPS", Unit::Fps),
    ("summary.max_fps", "Max FPS", Unit::Fps),
    ("summary.p50_ms", "p50 frame time", Unit::Ms),
    ("summary.p90_ms", "p90 frame time", Unit::Ms),
    ("summary.p95_ms", "p95 frame time", Unit::Ms),
    ("summary.p99_ms", "p99 frame time", Unit::Ms),
    ("summary.p99_9_ms", "p99.9 frame time", Unit::Ms),
    ("summary.low_1pct_fps", "1% low FPS", Unit::Fps),
    ("summary.low_0_1pct_fps", "0.1% low FPS", Unit::Fps),
    ("pacing.steady_fps", "Steady FPS", Unit::WholeFps),
    ("pacing.mostly_steady_fps", "Mostly steady FPS", Unit::WholeFps),
    ("pacing.typical_fps", "Typical FPS", Unit::WholeFps),
    ("pacing.slow_time_fraction", "Slow time at target", Unit::Fraction),
    ("pacing.excess_time_fraction", "Excess time at target", Unit::Fraction),
    ("stutters.count", "Stutters", Unit::Count),
    ("stutters.time_fraction", "Stutter time", Unit::Fraction),
    ("osc.oscillating_frames", "Oscillating frames", Unit::Count),
    ("osc.p90_iqr_ms", "OSC: P90 of the IQR", Unit::Ms),
    ("osc.p90_iqr_ratio", "OSC: P90 of q3 / q1", Unit::Ratio),
    ("latency.pcl_ms", "PC latency (PCL)", Unit::Ms),
    ("latency.i2fs_ms", "Input to frame start (I2FS)", Unit::Ms),
    ("latency.fs2p_ms", "Frame start to present (FS2P)", Unit::Ms),
    ("latency.p2d_ms", "Present to display (P2D)", Unit::Ms),
    ("latency.pc_latency_column_mean_ms", "PC latency mean", Unit::Ms),
    ("latency.display_latency_mean_ms", "Display latency mean", Unit::Ms),
    ("latency.click_to_photon_mean_ms", "Click to photon mean", Unit::Ms),
    ("latency.pc_latency_min_ms", "PC latency min", Unit::Ms),
    ("latency.pc_latency_max_ms", "PC latency max", Unit::Ms),
    ("latency.render_present_latency_mean_ms", "Render-present latency mean", Unit::Ms),
    ("latency.all_input_to_photon_mean_ms", "All input to photon mean", Unit::Ms),
    ("latency.animation_error_mean_abs_ms", "Animation error mean |x|", Unit::Ms),
    ("latency.animation_error_p99_abs_ms", "Animation error p99 |x|", Unit::Ms),
    ("latency.animation_error_over_1ms_fraction", "Animation error over 1 ms", Unit::Fraction),
    ("limiter.gpu_time_fraction", "GPU-limited time", Unit::Fraction),
    ("limiter.cpu_time_fraction", "CPU-limited time", Unit::Fraction),
    ("limiter.neither_time_fraction", "Neither-limited time", Unit::Fraction),
    ("limiter.gpu_busy_mean_ms", "GPU busy mean", Unit::Ms),
    ("limiter.cpu_busy_mean_ms", "CPU busy mean", Unit::Ms),
    ("limiter.gpu_busy_share", "GPU busy share of frame time", Unit::Fraction),
    ("frame_types.application_fps", "Application FPS", Unit::Fps),
    ("frame_types.generated_fps", "Generated FPS", Unit::Fps),
];

/// A figure's name and unit in the comparison table (a peer tool's figures as
/// "FrameView: 1% Low FPS").
#[must_use]
pub fn figure_name(qualified: &str) -> (String, Unit) {
    FIGURE_NAMES.iter().find(|(q, _, _)| *q == qualified).map_or_else(
        || super::peer_figures::table_name(qualified).unwrap_or_else(|| (qualified.to_owned(), Unit::Ratio)),
        |&(_, name, unit)| (name.to_owned(), unit),
    )
}

/// `v` with `decimals` decimals, never "-0.00".
pub fn fixed(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.parse::<f64>().is_ok_and(|x| x == 0.0) => rest.to_owned(),
        _ => text,
    }
}

/// A compared value as the table writes it.
#[must_use]
pub fn format_value(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Fps | Unit::Ratio => fixed(v, 2),
        Unit::WholeFps | Unit::Count => fixed(v, 0),
        Unit::Ms => format!("{} ms", fixed(v, 2)),
        Unit::Seconds => format!("{} s", fixed(v / 1000.0, 2)),
        Unit::Fraction => format!("{} %", fixed(v * 100.0, 2)),
    }
}

/// A delta as the table writes it: signed when not zero; a fraction's in percentage
/// points.
#[must_use]
pub fn format_delta(v: f64, unit: Unit) -> String {
    let text = match unit {
        Unit::Fraction => format!("{} pp", fixed(v * 100.0, 2)),
        _ => format_value(v, unit),
    };
    let zero = text.split(' ').next().and_then(|n| n.parse::<f64>().ok()).is_some_and(|n| n == 0.0);
    if v > 0.0 && !zero { format!("+{text}") } else { text }
}

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

/// What each figure means, in a sentence, by the name the window gives it.
const FIGURE_HELP: &[(&str, &str)] = &[
    (
        "Average FPS",
        "Frames per second over the whole run: frames ÷ total time (time-weighted, not the mean of per-frame FPS).",
    ),
    (
        "Steady FPS",
        "The highest rate the run holds almost all the time: under 1 % of its time in frames slower than that rate's budget and under 0.1 % excess time (SuperTuxKart's benchmark).",
    ),
    (
        "Mostly steady FPS",
        "The highest rate with under 12 % of the time in frames slower than its budget and under 2 % excess time (SuperTuxKart).",
    ),
    (
        "Typical FPS",
        "The highest rate with under 50 % of the time in frames slower than its budget and under 10 % excess time: the rate the run holds about half of the time (SuperTuxKart).",
    ),
    (
        "Slow time at target",
        "The share of the run's time spent in frames slower than the target frame time (1000 / target FPS).",
    ),
    ("Excess time at target", "The share of the run's time by which frames overran the target frame time."),
    (
        "1% low FPS",
        "The average FPS of the slowest 1 % of frames: 1000 × k ÷ their total time, k = 1 % of the frames (not the 99th percentile).",
    ),
    (
        "0.1% low FPS",
        "The average FPS of the slowest 0.1 % of frames: 1000 × k ÷ their total time, k = 0.1 % of the frames.",
    ),
    ("Min / max FPS", "1000 ÷ the slowest and 1000 ÷ the fastest single frame time."),
    ("Min FPS", "1000 ÷ the slowest single frame time."),
    ("Max FPS", "1000 ÷ the fastest single frame time."),
    (
        "Stutters",
        "Frames slower than the median of the 19 frames around them by more than both the threshold and the floor (Nsight Systems' rule); with the share of the time they take.",
    ),
    ("Stutter time", "The share of the run's time spent in stutter frames."),
    (
        "Oscillation",
        "OSC: frame times swinging between fast and slow, flagged when the 90th percentile of the 19-frame interquartile range is over the floor and of q3 / q1 over 1.2; stutters there may be false positives.",
    ),
    (
        "Oscillating frames",
        "Frames whose 19-frame interquartile range is over the floor and whose q3 / q1 ratio is over 1.2.",
    ),
    (
        "OSC: P90 of the IQR",
        "The 90th percentile of the 19-frame interquartile range of frame times (OSC needs it over the floor).",
    ),
    (
        "OSC: P90 of q3 / q1",
        "The 90th percentile of the 19-frame q3 / q1 ratio of frame times (OSC needs it over 1.2).",
    ),
    ("p50 frame time", "Half of the frames are faster than this (the median frame time)."),
    ("p90 frame time", "90 % of the frames are faster than this."),
    ("p95 frame time", "95 % of the frames are faster than this."),
    (
        "p99 frame time",
        "99 % of the frames are faster than this (1000 ÷ it is what some tools call the 1 % FPS).",
    ),
    ("p99.9 frame time", "99.9 % of the frames are faster than this."),
    (
        "PC latency (PCL)",
        "NVIDIA PC latency from the attached marker log: input to frame start + frame start to present + present to display, each averaged.",
    ),
    (
        "Input to frame start (I2FS)",
        "From an input to the start of the frame that used it (PCL Stats), averaged.",
    ),
    (
        "Frame start to present (FS2P)",
        "From a frame's simulation start to its Present() call (PCL Stats), averaged over displayed frames.",
    ),
    (
        "Present to display (P2D)",
        "From Present() to the frame reaching the screen, averaged over displayed frames.",
    ),
    (
        "PC latency mean",
        "The mean of the capture's own PC latency column (PresentMon's and FrameView's MsPCLatency, the NVIDIA App's PC Latency): PC latency as the capture tool measured it.",
    ),
    (
        "Display latency mean",
        "The mean time from a frame's start to it reaching the screen, over displayed frames.",
    ),
    (
        "Click to photon mean",
        "The mean time from a mouse click to the frame that shows it reaching the screen.",
    ),
    ("Render latency mean", "The NVIDIA App's render latency, time-weighted over the samples."),
    (
        "Render-present latency mean",
        "The mean MsRenderPresentLatency: from Present() to the GPU finishing the frame (FrameView's RenderPresentLatency).",
    ),
    (
        "All input to photon mean",
        "The mean time from any input (mouse or keyboard) to the frame that shows it reaching the screen.",
    ),
    (
        "Animation error mean |x|",
        "The mean size of MsAnimationError: how far a frame's animation time is from when it is shown (cells of a million ms or more are garbage and left out).",
    ),
    (
        "Animation error p99 |x|",
        "99 % of the frames' animation errors are smaller than this (PresentMon 2.x; Gamers Nexus charts it).",
    ),
    ("Animation error over 1 ms", "The share of frames whose animation error is above 1 ms either way."),
    (
        "GPU-limited time",
        "Share of frame time in frames whose GPU busy reaches 90 % of the frame's CPU busy + wait.",
    ),
    (
        "CPU-limited time",
        "Share of frame time in frames that are not GPU-limited and whose CPU busy reaches 90 % of it.",
    ),
    (
        "Neither-limited time",
        "Share of frame time in frames where CPU and GPU both waited: a frame cap, VSYNC or the display.",
    ),
    ("GPU busy mean", "The mean GPU busy time over the classified frames."),
    ("CPU busy mean", "The mean CPU busy time over the classified frames."),
    (
        "GPU busy share of frame time",
        "Σ GPU busy / Σ frame time (CPU busy + wait): Intel's GPU Busy against the frame time.",
    ),
    (
        "PC latency min / max",
        "The smallest and largest PC latency cells above 0 (FrameView's MinPCLatency and MaxPCLatency).",
    ),
    (
        "PC latency min",
        "The smallest and largest PC latency cells above 0 (FrameView's MinPCLatency and MaxPCLatency).",
    ),
    (
        "PC latency max",
        "The smallest and largest PC latency cells above 0 (FrameView's MinPCLatency and MaxPCLatency).",
    ),
    (
        "Refresh",
        "The display's refresh rate: detected from the display intervals (with how sure the detection is), or set by you for this capture; it places the VSYNC markers.",
    ),
    ("Frames", "The frames of the analysed series, and how many never reached the screen (dropped)."),
    ("Dropped frames", "Frames that never reached the screen."),
    ("Duration", "The sum of the analysed frame times."),
    (
        "Application FPS",
        "Frames the game rendered itself per second of the run; the game responds at this rate.",
    ),
    ("Generated FPS", "Frames made by frame generation per second of the run."),
    ("Pacing", "Needs per-frame data: a sampled log holds averages over intervals, not frame times."),
    ("Frame health", "Needs per-frame data: a sampled log holds averages over intervals, not frame times."),
];

/// What a figure means, in a sentence, by the name the window gives it (a peer
/// tool's figure by its table name, "FrameView: 1% Low FPS"); "" for an unknown name.
#[must_use]
pub fn figure_help(name: &str) -> &'static str {
    FIGURE_HELP
        .iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| super::peer_figures::help_by_table_name(name), |&(_, help)| help)
}

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
