//! The readable form of a report, for a terminal.

use super::{Report, Run, RunEntry};
use std::io::Write;

/// Writes the report as aligned text.
pub fn write_table(report: &Report, out: &mut impl Write) -> std::io::Result<()> {
    let s = &report.settings;
    writeln!(
        out,
        "settings: target {} FPS, stutter threshold {}, floor {} ms, frame time: {}",
        s.target_fps, s.stutter_threshold, s.stutter_floor_ms, s.frame_time
    )?;
    for entry in &report.runs {
        writeln!(out)?;
        match entry {
            RunEntry::Run(run) => write_run(run, out)?,
            RunEntry::Failed(f) => writeln!(out, "{}\n  error: {}", f.file, f.error.message)?,
        }
    }
    Ok(())
}

fn write_run(r: &Run, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "{}  [{} {}]", r.file, r.format, r.format_version)?;
    let pid = r
        .process_id
        .map_or_else(String::new, |p| format!("  PID {p}"));
    let sc = r
        .swap_chain
        .as_deref()
        .map_or_else(String::new, |s| format!("  swap chain {s}"));
    let rt = r
        .runtime
        .as_deref()
        .map_or_else(String::new, |s| format!("  {s}"));
    writeln!(out, "  {}{pid}{sc}{rt}", r.application)?;
    if !r.present_modes.is_empty() {
        writeln!(out, "  present mode: {}", r.present_modes.join(", "))?;
    }
    writeln!(
        out,
        "  frames {}  dropped {}  duration {:.3} s",
        r.frames,
        r.dropped_frames,
        r.duration_ms / 1000.0
    )?;
    match &r.summary {
        Some(m) => {
            writeln!(
                out,
                "  FPS      avg {:>8.2}   1% low {:>8.2}   0.1% low {:>8.2}   min {:>8.2}   max {:>8.2}",
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
    if !r.warnings.is_empty() {
        writeln!(out, "  warnings ({}):", r.warnings.len())?;
        for w in r.warnings.iter().take(10) {
            match w.line {
                Some(l) => writeln!(out, "    line {l}: {}", w.message)?,
                None => writeln!(out, "    {}", w.message)?,
            }
        }
        if r.warnings.len() > 10 {
            writeln!(out, "    … {} more (see --json)", r.warnings.len() - 10)?;
        }
    }
    Ok(())
}
