//! The readable form of a report, for a terminal.

use super::escape::text;
use super::{Report, Run, RunEntry, SettingsJson};
use crate::figures::{Section, figure};
use std::io::Write;

/// Writes the report as aligned text.
pub fn write_table(report: &Report, out: &mut impl Write) -> std::io::Result<()> {
    write_table_with(report, false, out)
}

/// [`write_table`], with each peer tool's own figures (`metrics.md` §11) when
/// `conventions` is true.
pub fn write_table_with(report: &Report, conventions: bool, out: &mut impl Write) -> std::io::Result<()> {
    write_settings(&report.settings, out)?;
    for entry in &report.runs {
        write_entry(entry, conventions, out)?;
    }
    Ok(())
}

/// The table's first line: the settings every run uses.
pub fn write_settings(s: &SettingsJson, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "settings: target {} FPS, stutter threshold {}, floor {} ms, frame time: {}{}",
        s.target_fps,
        s.stutter_threshold,
        s.stutter_floor_ms,
        s.frame_time,
        trim_note(s)
    )
}

/// One run (or failed file) of the table, after a blank line.
pub fn write_entry(entry: &RunEntry, conventions: bool, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out)?;
    match entry {
        RunEntry::Run(run) => {
            write_run(run, out)?;
            if conventions {
                write_conventions(run, out)?;
            }
            Ok(())
        }
        RunEntry::Failed(f) => writeln!(out, "{}\n  error: {}", text(&f.file), text(&f.error.message)),
        RunEntry::Etl(e) => super::etl::write_etl(e, out),
    }
}

/// `, trimmed: first 3 s, last 2 s` when runs are trimmed (`metrics.md` §1), else empty.
fn trim_note(s: &SettingsJson) -> String {
    let part = |which: &str, v: f64| (v > 0.0).then(|| format!("{which} {v} s"));
    let parts: Vec<String> =
        [part("first", s.trim_start_s), part("last", s.trim_end_s)].into_iter().flatten().collect();
    if parts.is_empty() { String::new() } else { format!(", trimmed: {} left out", parts.join(", ")) }
}

/// Says which other traces the file holds and how to see them.
fn write_other_traces(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    const LISTED: usize = 3;
    let n = r.other_traces.len();
    if n == 0 {
        return Ok(());
    }
    let list: Vec<String> = r
        .other_traces
        .iter()
        .take(LISTED)
        .map(|t| {
            let id = match (t.process_id, &t.swap_chain) {
                (Some(p), Some(sc)) => format!(" (PID {p}, {})", text(sc)),
                (Some(p), None) => format!(" (PID {p})"),
                _ => String::new(),
            };
            format!(
                "{}{id} {} {}",
                text(&t.application),
                t.frames,
                if r.sampled { "samples" } else { "frames" }
            )
        })
        .collect();
    let more = if n > LISTED { format!("; … {} more", n - LISTED) } else { String::new() };
    let traces = match (r.sampled, n) {
        (true, 1) => "logging session",
        (true, _) => "logging sessions",
        (false, 1) => "trace",
        (false, _) => "traces",
    };
    writeln!(out, "  the file also holds {n} other {traces}: {}{more}", list.join("; "))?;
    if r.sampled {
        return writeln!(out, "  (see every session with --trace all, or pick one with --trace 'session N')");
    }
    writeln!(out, "  (see every trace with --trace all, or pick one with --trace PID, APP or PID:SWAPCHAIN)")
}

/// Runs shorter than this take their 1 % and 0.1 % lows from a single frame (`k =
/// max(1, ⌊n/100⌋)`, `metrics.md` §2): more than 1 % of the run.
pub const FEW_FRAMES: usize = 100;

/// Said of a sampled log's lows (`metrics.md` §10): they are lows of the samples'
/// averages over their mean interval, not comparable with per-frame lows (the logging
/// tool's own, [`Run::tool_figures`], are per frame). `None` for a per-frame run.
#[must_use]
pub fn sampled_lows_note(r: &Run) -> Option<String> {
    let (samples, duration) = (r.samples.filter(|n| *n > 0)?, r.duration_ms?);
    let seconds = duration / samples as f64 / 1000.0;
    Some(format!(
        "the 1 % and 0.1 % lows here are lows of {}-second averages (one per sample), not comparable with \
         per-frame lows",
        crate::figures::fixed(seconds, if seconds < 10.0 { 2 } else { 1 })
    ))
}

/// Said beside the 1 % and 0.1 % lows of a per-frame run of fewer than [`FEW_FRAMES`]
/// frames: they are one frame's rate, not an average over 1 % of the frames. `None`
/// otherwise (and for sampled logs, whose lows come from samples).
#[must_use]
pub fn lows_note(r: &Run) -> Option<&'static str> {
    (!r.sampled && r.summary.is_some() && r.frames < FEW_FRAMES)
        .then_some("one frame each, fewer than 100 frames")
}

fn write_run(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "{}  [{} {}]", text(&r.file), r.format, text(&r.format_version))?;
    let pid = r.process_id.map_or_else(String::new, |p| format!("  PID {p}"));
    let sc = r.swap_chain.as_deref().map_or_else(String::new, |s| format!("  swap chain {}", text(s)));
    let rt = r.runtime.as_deref().map_or_else(String::new, |s| format!("  {}", text(s)));
    writeln!(out, "  {}{pid}{sc}{rt}", text(&r.application))?;
    if !r.system.is_empty() {
        let facts: Vec<String> = r.system.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        writeln!(out, "  system: {}", text(&facts.join("; ")))?;
    }
    write_other_traces(r, out)?;
    if !r.present_modes.is_empty() {
        writeln!(out, "  present mode: {}", text(&r.present_modes.join(", ")))?;
    }
    let dropped = r.dropped_frames.map_or_else(|| "unknown".to_owned(), |d| d.to_string());
    let duration = r.duration_ms.map_or_else(|| "—".to_owned(), |d| format!("{:.3} s", d / 1000.0));
    let frames = match r.samples {
        Some(n) => format!("≈{} (estimated from {n} samples)", r.frames),
        None => r.frames.to_string(),
    };
    writeln!(out, "  frames {frames}  dropped {dropped}  duration {duration}  frame time: {}", r.frame_time)?;
    if let Some(t) = &r.frame_types {
        let fps = |k: &crate::analysis::framegen::KindFigures| {
            k.fps.map_or_else(|| "—".to_owned(), |f| format!("{f:.2}"))
        };
        let shown = r.summary.map_or_else(|| "—".to_owned(), |s| format!("{:.2}", s.avg_fps));
        writeln!(
            out,
            "  frame generation: application {} FPS   generated {} FPS   {} {shown} FPS",
            fps(&t.application),
            fps(&t.generated),
            if r.frame_time == "display" { "displayed" } else { "presented" },
        )?;
    }
    match &r.summary {
        Some(_) => {
            let note = lows_note(r).map_or_else(String::new, |n| format!("   (lows: {n})"));
            writeln!(out, "  FPS      {}{note}", padded(r, "summary", &FPS_LINE))?;
            writeln!(out, "  time ms  {}", padded(r, "summary", &TIME_LINE))?;
        }
        None => writeln!(out, "  no figures: no usable frame times")?,
    }
    if r.sampled {
        writeln!(
            out,
            "  sampled log: figures from {} samples; pacing, stutters, oscillation and frame health need \
             per-frame data",
            r.samples.unwrap_or(0)
        )?;
    }
    if let Some(note) = sampled_lows_note(r) {
        writeln!(out, "  {note}")?;
    }
    write_tool_figures(r, out)?;
    write_smoothness(r, out)?;
    write_limiter(r, out)?;
    write_efficiency(r, out)?;
    if !r.warnings.is_empty() {
        writeln!(out, "  warnings ({}):", r.warnings.len())?;
        for w in r.warnings.iter().take(10) {
            match w.line {
                Some(l) => writeln!(out, "    line {l}: {}", text(&w.message))?,
                None => writeln!(out, "    {}", text(&w.message))?,
            }
        }
        if r.warnings.len() > 10 {
            writeln!(out, "    … {} more (see --json)", r.warnings.len() - 10)?;
        }
    }
    Ok(())
}

fn write_smoothness(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    if r.pacing.is_some() {
        let rates: Vec<String> = labelled(r, "pacing", &["steady_fps", "mostly_steady_fps", "typical_fps"])
            .map(|t| t + " FPS")
            .collect();
        let at_target: Vec<String> =
            labelled(r, "pacing", &["slow_time_fraction", "excess_time_fraction"]).collect();
        writeln!(out, "  pacing   {}   at target: {}", rates.join("   "), at_target.join("  "))?;
    }
    if r.stutters.is_some() {
        let osc = r.osc.as_ref().map_or(String::new(), |o| {
            format!(
                "   oscillation {} (P90 IQR {}, ratio {}; {} frames)",
                if o.flag { "YES" } else { "no" },
                value(r, "osc.p90_iqr_ms"),
                value(r, "osc.p90_iqr_ratio"),
                value(r, "osc.oscillating_frames")
            )
        });
        let (count, time) = (value(r, "stutters.count"), value(r, "stutters.time_fraction"));
        writeln!(out, "  stutters {count} ({time} of time){osc}")?;
    }
    if let Some(h) = &r.health {
        let spiking: Vec<String> =
            h.spikes.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| format!("{k} {}", v.len())).collect();
        if !spiking.is_empty() {
            writeln!(out, "  spikes   {}", spiking.join(", "))?;
        }
    }
    let parts: Vec<String> = LATENCY_LINE
        .iter()
        .filter_map(|name| {
            let f = figure(&format!("latency.{name}"))?;
            let label = if r.sampled && f.label == "render to present mean" {
                "render latency mean"
            } else {
                f.label
            };
            (f.value)(r).map(|v| format!("{label} {}", f.format(v)))
        })
        .collect();
    if !parts.is_empty() {
        writeln!(out, "  latency  {}", parts.join("   "))?;
    }
    Ok(())
}

/// The limiter in words (`metrics.md` §13), as the table and the window write it:
/// `GPU 78 % · CPU 15 % · neither 7 %  (GPU busy 91 % of frame time)`.
#[must_use]
pub fn limiter_text(l: &crate::analysis::Limiter) -> String {
    format!(
        "GPU {:.0} % · CPU {:.0} % · neither {:.0} %  (GPU busy {:.0} % of frame time)",
        l.gpu_time_fraction * 100.0,
        l.cpu_time_fraction * 100.0,
        l.neither_time_fraction * 100.0,
        l.gpu_busy_share * 100.0
    )
}

/// The limiter line and the animation-error line (`metrics.md` §13), when the run has them.
fn write_limiter(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    if let Some(l) = &r.limiter {
        writeln!(out, "  limiter  {}", limiter_text(l))?;
    }
    let error: Vec<String> = labelled(r, "latency", &ANIMATION_ERROR_LINE).collect();
    if error.len() == ANIMATION_ERROR_LINE.len() {
        writeln!(out, "  animation error  {} of frames", error.join("   "))?;
    }
    Ok(())
}

/// The logging tool's own per-frame figures of a sampled log (`metrics.md` §10).
fn write_tool_figures(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    let Some(t) = &r.tool_figures else { return Ok(()) };
    let cells: Vec<String> = labelled(r, "tool_figures", &TOOL_LINE).collect();
    let tool = if t.tool == "rtss" { "RTSS's benchmark" } else { "NVIDIA App" };
    writeln!(out, "  {tool}, per frame (its own figures): {}", cells.join("   "))
}

/// Frames per joule (`metrics.md` §15) and the power it divides by.
fn write_efficiency(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    let Some(e) = &r.efficiency else { return Ok(()) };
    let cells: Vec<String> = labelled(r, "efficiency", &EFFICIENCY_LINE).collect();
    let source =
        e.power_source.as_deref().map_or_else(String::new, |s| format!("   (GPU power: {})", text(s)));
    writeln!(out, "  efficiency  {}{source}", cells.join("   "))
}

/// One line per peer tool: its figures for the run, named as the tool names them.
fn write_conventions(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    if r.conventions.is_none() {
        return writeln!(
            out,
            "  as other tools report it: — (they define their figures on frames; a sampled log has none)"
        );
    }
    writeln!(out, "  as other tools report it (each tool's own definitions; see docs/figures.md):")?;
    for (tool, keys) in CONVENTION_LINES {
        let cells: Vec<String> = labelled(r, tool.name(), keys).collect();
        if !cells.is_empty() {
            writeln!(out, "    {:<11} {}", tool.title(), cells.join("  "))?;
        }
    }
    write_tool_summary(r, out)
}

/// The capturing tool's own summary file, as it wrote it (one decimal, as MangoHud).
fn write_tool_summary(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    let Some(s) = &r.tool_summary else { return Ok(()) };
    let v = |x: Option<f64>| x.map_or_else(|| "—".to_owned(), |x| format!("{x:.1}"));
    writeln!(
        out,
        "  {}'s own summary ({}): 0.1% min {}  1% min {}  97% {}  average {} FPS",
        s.tool,
        s.file,
        v(s.low_0_1pct_fps),
        v(s.low_1pct_fps),
        v(s.p97_fps),
        v(s.average_fps)
    )
}

/// The figures of the FPS line (`summary.*`), in order.
const FPS_LINE: [&str; 5] = ["avg_fps", "low_1pct_fps", "low_0_1pct_fps", "min_fps", "max_fps"];
/// The figures of the frame-time line (`summary.*`), in order.
const TIME_LINE: [&str; 5] = ["p50_ms", "p90_ms", "p95_ms", "p99_ms", "p99_9_ms"];
/// The latency line's figures (`latency.*`), each written when the run has it.
const LATENCY_LINE: [&str; 13] = [
    "pcl_ms",
    "pc_latency_column_mean_ms",
    "pc_latency_min_ms",
    "pc_latency_max_ms",
    "display_latency_mean_ms",
    "render_present_latency_mean_ms",
    "click_to_photon_mean_ms",
    "all_input_to_photon_mean_ms",
    "input_to_display_mean_ms",
    "input_to_present_mean_ms",
    "present_to_gpu_idle_mean_ms",
    "gpu_idle_to_display_mean_ms",
    "animation_error_displayed_mean_abs_ms",
];
/// The efficiency line's figures (`efficiency.*`), each written when the run has it.
const EFFICIENCY_LINE: [&str; 4] = ["fps_per_watt", "power_mean_w", "cpu_fps_per_watt", "cpu_power_mean_w"];
/// The logging tool's line (`tool_figures.*`), each written when the log has it.
const TOOL_LINE: [&str; 5] = ["avg_fps", "low_1pct_fps", "low_0_1pct_fps", "min_fps", "max_fps"];
/// The animation-error line's figures (`latency.*`), written when the run has all.
const ANIMATION_ERROR_LINE: [&str; 3] =
    ["animation_error_mean_abs_ms", "animation_error_p99_abs_ms", "animation_error_over_1ms_fraction"];
/// Each peer tool's line: its figures the table lists, in order.
const CONVENTION_LINES: [(Section, &[&str]); 4] = [
    (
        Section::CapFrameX,
        &[
            "average_fps",
            "p1_fps",
            "p0_1_fps",
            "low_1pct_avg_fps",
            "low_0_1pct_avg_fps",
            "low_1pct_integral_fps",
            "stuttering_time_fraction",
        ],
    ),
    (
        Section::FrameView,
        &[
            "average_fps",
            "low_1pct_fps",
            "low_0_1pct_fps",
            "fps_10pct",
            "fps_5pct",
            "fps_1pct",
            "fps_0_1pct",
            "gpu_nv_power_w",
            "cpu_package_power_w",
            "perf_per_watt_pcat",
        ],
    ),
    (Section::PresentMon, &["average_fps", "p1_fps", "p5_fps", "min_fps", "max_fps"]),
    (Section::MangoHud, &["average_fps", "low_1pct_fps", "low_0_1pct_fps", "p97_fps"]),
];

/// `section.name`'s value as the registry writes it; "—" when the run lacks it.
fn value(r: &Run, qualified: &str) -> String {
    figure(qualified).and_then(|f| (f.value)(r).map(|v| f.format(v))).unwrap_or_else(|| "—".to_owned())
}

/// Each of `names` (in `section`) the run has, as "label value" (the registry's label,
/// decimals and unit).
fn labelled<'a>(r: &'a Run, section: &'a str, names: &'a [&str]) -> impl Iterator<Item = String> + 'a {
    names.iter().filter_map(move |name| {
        let f = figure(&format!("{section}.{name}"))?;
        (f.value)(r).map(|v| format!("{} {}", f.label, f.format(v)))
    })
}

/// The figures of a line of numbers (`summary.*`): "label number", the number right
/// aligned in 8 columns, three spaces apart.
fn padded(r: &Run, section: &str, names: &[&str]) -> String {
    let cells: Vec<String> = names
        .iter()
        .filter_map(|name| {
            let f = figure(&format!("{section}.{name}"))?;
            (f.value)(r).map(|v| format!("{} {:>8}", f.label, f.number(v)))
        })
        .collect();
    cells.join("   ")
}
