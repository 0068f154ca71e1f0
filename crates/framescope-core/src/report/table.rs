//! The readable form of a report, for a terminal.

use super::escape::text;
use super::{Report, Run, RunEntry, SettingsJson};
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
        Some(m) => {
            let note = lows_note(r).map_or_else(String::new, |n| format!("   (lows: {n})"));
            writeln!(
                out,
                "  FPS      avg {:>8.2}   1% low {:>8.2}   0.1% low {:>8.2}   min {:>8.2}   max {:>8.2}{note}",
                m.avg_fps, m.low_1pct_fps, m.low_0_1pct_fps, m.min_fps, m.max_fps
            )?;
            writeln!(
                out,
                "  time ms  p50 {:>8.3}   p90 {:>8.3}   p95 {:>8.3}   p99 {:>8.3}   p99.9 {:>8.3}",
                m.p50_ms, m.p90_ms, m.p95_ms, m.p99_ms, m.p99_9_ms
            )?;
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
    write_smoothness(r, out)?;
    write_limiter(r, out)?;
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
    if let Some(p) = &r.pacing {
        writeln!(
            out,
            "  pacing   steady {} FPS   mostly steady {} FPS   typical {} FPS   at target: slow {:.2} %  excess {:.2} %",
            p.steady_fps,
            p.mostly_steady_fps,
            p.typical_fps,
            p.slow_time_fraction * 100.0,
            p.excess_time_fraction * 100.0
        )?;
    }
    if let Some(s) = &r.stutters {
        let osc = r.osc.as_ref().map_or(String::new(), |o| {
            format!(
                "   oscillation {} (P90 IQR {:.2} ms, ratio {:.2}; {} frames)",
                if o.flag { "YES" } else { "no" },
                o.p90_iqr_ms,
                o.p90_iqr_ratio,
                o.oscillating_frames
            )
        });
        writeln!(out, "  stutters {} ({:.2} % of time){osc}", s.count, s.time_fraction * 100.0)?;
    }
    if let Some(h) = &r.health {
        let spiking: Vec<String> =
            h.spikes.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| format!("{k} {}", v.len())).collect();
        if !spiking.is_empty() {
            writeln!(out, "  spikes   {}", spiking.join(", "))?;
        }
    }
    if let Some(l) = &r.latency {
        let parts: Vec<String> = [
            ("PC latency", l.pcl_ms),
            ("PC latency mean", l.pc_latency_column_mean_ms),
            ("min", l.pc_latency_min_ms),
            ("max", l.pc_latency_max_ms),
            ("present to display mean", l.display_latency_mean_ms),
            (
                if r.sampled { "render latency mean" } else { "render to present mean" },
                l.render_present_latency_mean_ms,
            ),
            ("click to photon mean", l.click_to_photon_mean_ms),
            ("input to photon mean", l.all_input_to_photon_mean_ms),
        ]
        .iter()
        .filter_map(|(name, v)| v.map(|v| format!("{name} {v:.2} ms")))
        .collect();
        if !parts.is_empty() {
            writeln!(out, "  latency  {}", parts.join("   "))?;
        }
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
    let Some(l) = &r.latency else { return Ok(()) };
    if let (Some(mean), Some(p99), Some(over)) =
        (l.animation_error_mean_abs_ms, l.animation_error_p99_abs_ms, l.animation_error_over_1ms_fraction)
    {
        writeln!(
            out,
            "  animation error  mean |e| {mean:.2} ms   p99 |e| {p99:.2} ms   over 1 ms {:.1} % of frames",
            over * 100.0
        )?;
    }
    Ok(())
}

/// One line per peer tool: its figures for the run, named as the tool names them.
fn write_conventions(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    let Some(c) = &r.conventions else {
        return writeln!(
            out,
            "  as other tools report it: — (they define their figures on frames; a sampled log has none)"
        );
    };
    writeln!(out, "  as other tools report it (each tool's own definitions; see docs/figures.md):")?;
    let f = |v: f64| format!("{v:.2}");
    if let Some(x) = &c.capframex {
        writeln!(
            out,
            "    CapFrameX   avg {}  P1 {}  P0.1 {}  1% low (avg) {}  0.1% low (avg) {}  1% low (integral) {}  stuttering {:.2} %",
            f(x.average_fps),
            f(x.p1_fps),
            f(x.p0_1_fps),
            f(x.low_1pct_avg_fps),
            f(x.low_0_1pct_avg_fps),
            f(x.low_1pct_integral_fps),
            x.stuttering_time_fraction * 100.0
        )?;
    }
    if let Some(x) = &c.frameview {
        // Three decimals, as FrameView's summary file prints them.
        let f3 = |v: f64| format!("{v:.3}");
        writeln!(
            out,
            "    FrameView   avg {}  1% low {}  0.1% low {}  10% FPS {}  5% FPS {}  1% FPS {}  0.1% FPS {}",
            f3(x.average_fps),
            f3(x.low_1pct_fps),
            f3(x.low_0_1pct_fps),
            f3(x.fps_10pct),
            f3(x.fps_5pct),
            f3(x.fps_1pct),
            f3(x.fps_0_1pct)
        )?;
    }
    if let Some(x) = &c.presentmon {
        writeln!(
            out,
            "    PresentMon  avg {}  1st percentile {}  5th percentile {}  min {}  max {}",
            f(x.average_fps),
            f(x.p1_fps),
            f(x.p5_fps),
            f(x.min_fps),
            f(x.max_fps)
        )?;
    }
    if let Some(x) = &c.mangohud {
        writeln!(
            out,
            "    MangoHud    avg {}  1% min {}  0.1% min {}  97% {}",
            f(x.average_fps),
            f(x.low_1pct_fps),
            f(x.low_0_1pct_fps),
            f(x.p97_fps)
        )?;
    }
    Ok(())
}
