//! The rows of the figures panel's grid for one run (title and value, in the order the
//! panel shows them): the registry's figures with their units, grouped as the panel
//! groups them (smoothness first, then lows, latency, refresh and frames, efficiency),
//! and a sampled log's own tool figures. No egui: `figures.rs` draws them.

use crate::app::figure_text::{
    FRAME_HEALTH, OSCILLATION, PACING, REFRESH, RENDER_LATENCY, SAMPLED_LOWS, SHORT_RUN_LOWS,
};
use framescope_core::analysis::VsyncSource;
use framescope_core::figures::figure;
use framescope_core::report::Run;

/// What the figures panel says for a figure a sampled log cannot give.
pub const NEEDS_FRAMES: &str = "needs per-frame data";

/// A sampled log's own tool figures (`metrics.md` §10), beside framescope's lows.
const TOOL_ROWS: [&str; 5] = [
    "tool_figures.avg_fps",
    "tool_figures.low_1pct_fps",
    "tool_figures.low_0_1pct_fps",
    "tool_figures.min_fps",
    "tool_figures.max_fps",
];

/// Frames per joule, each with the mean power it divides by (`metrics.md` §15).
const EFFICIENCY_ROWS: [(&str, &str); 2] = [
    ("efficiency.fps_per_watt", "efficiency.power_mean_w"),
    ("efficiency.cpu_fps_per_watt", "efficiency.cpu_power_mean_w"),
];

/// The efficiency rows a run has: "0.305 FPS/W at 149.29 W".
fn efficiency_rows(run: &Run) -> Vec<(&'static str, String)> {
    let rows = EFFICIENCY_ROWS.iter().filter_map(|(per_watt, power)| {
        let (name, value) = figure_row(run, per_watt)?;
        Some((name, figure_row(run, power).map_or(value.clone(), |(_, w)| format!("{value} at {w}"))))
    });
    rows.collect()
}

/// A registry figure's row: its name and its value as the registry writes it; `None`
/// when the run lacks it.
fn figure_row(run: &Run, qualified: &str) -> Option<(&'static str, String)> {
    let f = figure(qualified)?;
    (f.value)(run).map(|v| (f.title, f.format(v)))
}

/// The rows of `figures` (`section.name`) the run has.
fn figure_rows_of(run: &Run, figures: &[&str]) -> Vec<(&'static str, String)> {
    figures.iter().filter_map(|q| figure_row(run, q)).collect()
}

/// A figure's value alone, "—" when the run lacks it.
pub(super) fn value_of(run: &Run, qualified: &str) -> String {
    figure_row(run, qualified).map_or_else(|| "—".to_owned(), |(_, v)| v)
}

/// A figure's registry name, for a row that writes more than its value.
fn title_of(qualified: &str) -> &'static str {
    figure(qualified).map_or("", |f| f.title)
}

/// Grid rows of a run's figures: the smoothness figures first, as prominent as the
/// average, then lows, stutters, latency. Every figure's name, unit and decimals are
/// the registry's (`framescope_core::figures`).
#[must_use]
pub fn figure_rows(run: &Run) -> Vec<(&'static str, String)> {
    let mut rows = figure_rows_of(run, &["summary.avg_fps"]);
    // A sampled log (metrics.md §10) has averages over intervals, not frame times.
    let per_frame_only = |rows: &mut Vec<(&'static str, String)>, name: &'static str| {
        if run.sampled {
            rows.push((name, NEEDS_FRAMES.to_owned()));
        }
    };
    per_frame_only(&mut rows, PACING);
    rows.extend(figure_rows_of(
        run,
        &[
            "pacing.steady_fps",
            "pacing.mostly_steady_fps",
            "pacing.typical_fps",
            "pacing.slow_time_fraction",
            "pacing.excess_time_fraction",
            "summary.low_1pct_fps",
            "summary.low_0_1pct_fps",
        ],
    ));
    if let Some(note) = framescope_core::report::lows_note(run) {
        rows.push((SHORT_RUN_LOWS, note.to_owned()));
    }
    // A sampled log's lows are lows of averages; its logging tool's own are per frame
    // (metrics.md §10).
    if let Some(note) = framescope_core::report::sampled_lows_note(run) {
        rows.push((SAMPLED_LOWS, note));
    }
    rows.extend(figure_rows_of(run, &TOOL_ROWS));
    rows.extend(figure_rows_of(run, &["summary.min_fps", "summary.max_fps"]));
    if run.stutters.is_some() {
        let time = value_of(run, "stutters.time_fraction");
        rows.push((
            title_of("stutters.count"),
            format!("{} ({time} of time)", value_of(run, "stutters.count")),
        ));
    }
    per_frame_only(&mut rows, title_of("stutters.count"));
    if let Some(o) = &run.osc {
        let flag = if o.flag { "OSC — oscillating" } else { "no" };
        rows.push((OSCILLATION, format!("{flag} ({} frames)", value_of(run, "osc.oscillating_frames"))));
    }
    per_frame_only(&mut rows, OSCILLATION);
    per_frame_only(&mut rows, FRAME_HEALTH);
    rows.extend(figure_rows_of(
        run,
        &["summary.p50_ms", "summary.p90_ms", "summary.p95_ms", "summary.p99_ms", "summary.p99_9_ms"],
    ));
    rows.extend(latency_rows(run));
    rows.extend(efficiency_rows(run));
    rows.extend(refresh_and_frames_rows(run));
    rows
}

/// The latency figures a run has (a sampled log's render-present latency is the
/// NVIDIA App's render latency, [`RENDER_LATENCY`]).
fn latency_rows(run: &Run) -> Vec<(&'static str, String)> {
    let mut rows = figure_rows_of(
        run,
        &["latency.pcl_ms", "latency.pc_latency_column_mean_ms", "latency.display_latency_mean_ms"],
    );
    rows.extend(figure_rows_of(
        run,
        &["latency.click_to_photon_mean_ms", "latency.render_present_latency_mean_ms"],
    ));
    if run.sampled {
        for row in &mut rows {
            if row.0 == title_of("latency.render_present_latency_mean_ms") {
                row.0 = RENDER_LATENCY;
            }
        }
    }
    rows.extend(figure_rows_of(
        run,
        &[
            "latency.all_input_to_photon_mean_ms",
            "latency.input_to_display_mean_ms",
            "latency.input_to_present_mean_ms",
            "latency.present_to_gpu_idle_mean_ms",
            "latency.gpu_idle_to_display_mean_ms",
            "latency.animation_error_mean_abs_ms",
            "latency.animation_error_p99_abs_ms",
            "latency.animation_error_over_1ms_fraction",
            "latency.animation_error_displayed_mean_abs_ms",
            "latency.pc_latency_min_ms",
            "latency.pc_latency_max_ms",
        ],
    ));
    rows
}

/// The refresh rate (set by the user, detected, or not) and the frame count.
fn refresh_and_frames_rows(run: &Run) -> Vec<(&'static str, String)> {
    let mut rows = Vec::new();
    match &run.vsync {
        Some(v) if v.source == VsyncSource::User => {
            rows.push((REFRESH, format!("{:.2} Hz — set by you", v.refresh_hz)));
        }
        Some(v) if v.source == VsyncSource::Capture => {
            rows.push((REFRESH, format!("{:.2} Hz — stated by the capture", v.refresh_hz)));
        }
        Some(v) => rows.push((
            REFRESH,
            format!("{:.2} Hz — detected (confidence {:.0} %)", v.refresh_hz, v.confidence * 100.0),
        )),
        None if !run.sampled => rows.push((REFRESH, "not detected".to_owned())),
        None => {}
    }
    let frames = value_of(run, "run.frames");
    rows.push((
        title_of("run.frames"),
        match (run.samples, run.dropped_frames) {
            (Some(n), _) => format!("≈{frames} (estimated from {n} samples)"),
            (None, Some(_)) => format!("{frames} ({} dropped)", value_of(run, "run.dropped_frames")),
            (None, None) => format!("{frames} (dropped unknown)"),
        },
    ));
    rows
}
