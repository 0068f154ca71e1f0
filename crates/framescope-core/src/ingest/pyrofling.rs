//! pyrofling's latency-measurement layer (Themaister/pyrofling
//! `latency-measurement-layer`): a Vulkan layer on Linux that injects a synthetic input
//! (mouse or gamepad), watches a 128×128 region of the presented images for the change
//! it causes, and, through `VK_EXT_present_timing`, logs when that present was queued,
//! when its GPU work finished and when it completed on screen.
//!
//! Layout (`/tmp/latency-measurement-EXE-YYYY-MM-DD-HH-MM-SS.csv`; from the layer's
//! source and README, no public capture found):
//! * header `id,stimulus,queuepresent,queuedone,STAGE`, `STAGE` the present stage the
//!   last column measures: `FirstPixelVisible`, `FirstPixelOut`, `Dequeued` (Xwayland:
//!   the compositor took the image, not a flip), or `???`;
//! * one row per *measured input*, not per frame (about one every 0.5–2 s): `id` the
//!   `presentID` of the frame that showed the change (normally the count of presents),
//!   then four times in seconds (`%.6f`) since the swap chain was created;
//! * with `LATENCY_MEASUREMENT_DEBUG=1` the file also holds `DEBUG: …` lines: no rows
//!   (passed over and counted).
//!
//! framescope reads it as a sampled log (`metrics.md` §10): each row after the first
//! is a sample of the frame rate over the time since the row before, `Δid / Δt` with
//! `t` the present-complete time (what the layer's `analyze_run.py` takes as the average
//! frame time); the first row opens the clock. Its latency stages are per row, in ms:
//! input → `vkQueuePresentKHR`, present → GPU idle, GPU idle → present complete, and
//! their sum, input → present complete; the run's means are plain means over the rows
//! that are samples (one row, one measured input).

use super::builder::{SkipLog, SkipReason};
use super::table::{Head, each_row, meta_for, number};
use super::values::Cell;
use super::{LoadError, LoadErrorKind, Progress};
use crate::model::{Capture, Column, ColumnKind, FileInfo, Format, Frames, Lines, Trace, Warning};
use std::io::Read;
use std::path::Path;

/// The header's first four names.
pub const COLUMNS: [&str; 4] = ["id", "stimulus", "queuepresent", "queuedone"];

/// True for the layer's header: its four names first, a stage name fifth.
#[must_use]
pub fn sniff(lower: &[String]) -> bool {
    lower.len() >= 5 && lower.iter().zip(COLUMNS).all(|(h, c)| h == c) && !lower[4].is_empty()
}

/// One measured input: present id, then stimulus, queue present, queue done and
/// present complete in seconds.
#[derive(Clone, Copy)]
struct Measured {
    id: f64,
    t: [f64; 4],
    line: u64,
}

/// The row's numbers, or why it is no measurement.
fn measured(rec: &csv::ByteRecord, line: u64, comma: bool) -> Result<Measured, SkipReason> {
    if rec.len() < 5 {
        return Err(SkipReason::Truncated { fields: rec.len(), header: 5 });
    }
    let mut v = [0.0; 5];
    for (k, slot) in v.iter_mut().enumerate() {
        match rec.get(k).map(|c| number(c, comma)) {
            Some(Cell::Number(x)) if x.is_finite() => *slot = x,
            Some(Cell::Missing) | None => return Err(SkipReason::MissingFrameTime),
            _ => return Err(SkipReason::InvalidFrameTime),
        }
    }
    Ok(Measured { id: v[0], t: [v[1], v[2], v[3], v[4]], line })
}

/// Reads a latency-measurement CSV whose head was read already.
pub(super) fn load<R: Read>(
    path: &Path,
    head: &Head,
    reader: R,
    progress: &Progress,
) -> Result<Capture, LoadError> {
    let (mut kept, mut skips, mut debug_lines) = (Vec::<Measured>::new(), SkipLog::default(), 0u64);
    each_row(path, head, reader, progress, |row, line| {
        let first = row.as_ref().ok().and_then(|rec| rec.get(0)).unwrap_or_default();
        if first.starts_with(b"DEBUG") || first.eq_ignore_ascii_case(b"id") {
            debug_lines += u64::from(first.starts_with(b"DEBUG"));
            return;
        }
        match row.and_then(|rec| measured(rec, line, head.decimal_comma())) {
            Ok(m) => kept.push(m),
            Err(reason) => skips.add(line, reason),
        }
    })?;
    let stage = head.header.get(4).cloned().unwrap_or_default();
    let mut trace = samples(path, &kept, &stage, &mut skips);
    if trace.frames.frame_time_ms.is_empty() {
        let first = skips.warnings().first().and_then(|w| w.line);
        let why =
            "fewer than two measured inputs with a later present-complete time and present id than the one \
                   before: no frame rate to sample"
                .to_owned();
        return Err(LoadError::new(path, first.or(Some(head.header_line)), LoadErrorKind::NoFrames(why)));
    }
    trace.warnings.extend(skips.warnings());
    let mut warnings = vec![super::sampled::sampled_warning(
        "pyrofling's latency-measurement layer",
        super::sampled::mean_interval(std::slice::from_ref(&trace)),
        "presents per second between two measured inputs",
    )];
    if debug_lines > 0 {
        warnings.push(Warning::note(format!("{debug_lines} DEBUG lines of the layer were passed over")));
    }
    let info = FileInfo {
        path: path.to_path_buf(),
        format: Format::Pyrofling,
        format_version: format!("latency measurement, present complete = {stage}"),
        system: vec![("present stage".to_owned(), stage)],
        dropped_known: false,
        target_fps: None,
    };
    Ok(Capture { info, traces: vec![trace], warnings })
}

/// The sampled trace of the measured inputs: a row is a sample when its present
/// complete time and present id are after the last sample's (the first row opens the
/// clock); the others are skipped.
fn samples(path: &Path, kept: &[Measured], stage: &str, skips: &mut SkipLog) -> Trace {
    let mut frames = Frames::default();
    let mut stages: [Vec<f64>; 4] = Default::default();
    let mut lines = Lines::default();
    let Some(first) = kept.first() else {
        return Trace { meta: meta_for(path), frames, warnings: Vec::new() };
    };
    let (t0, mut last) = (first.t[3], *first);
    for m in &kept[1..] {
        let (dt_ms, did) = ((m.t[3] - last.t[3]) * 1000.0, m.id - last.id);
        if !(dt_ms > 0.0 && did > 0.0) {
            skips.add(m.line, SkipReason::BackwardsTimestamp);
            continue;
        }
        frames.frame_time_ms.push(dt_ms / did);
        frames.sample_ms.push(dt_ms);
        frames.start_ms.push((last.t[3] - t0) * 1000.0);
        lines.push(m.line);
        let gap = |a: f64, b: f64| if b >= a { (b - a) * 1000.0 } else { f64::NAN };
        let parts = [gap(m.t[0], m.t[1]), gap(m.t[1], m.t[2]), gap(m.t[2], m.t[3]), gap(m.t[0], m.t[3])];
        for (s, v) in stages.iter_mut().zip(parts) {
            s.push(v);
        }
        last = *m;
    }
    frames.line = lines;
    let names = [
        ("Input to present (stimulus → queuepresent)".to_owned(), ColumnKind::InputToPresent),
        ("Present to GPU idle (queuepresent → queuedone)".to_owned(), ColumnKind::PresentToGpuIdle),
        (format!("GPU idle to display (queuedone → {stage})"), ColumnKind::GpuIdleToDisplay),
        (format!("Input to display (stimulus → {stage})"), ColumnKind::InputToDisplay),
    ];
    frames.columns = names
        .into_iter()
        .zip(stages)
        .map(|((name, kind), values)| Column { name, kind, values: values.into() })
        .collect();
    Trace { meta: meta_for(path), frames, warnings: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_the_layers() {
        let lower = |h: &str| h.split(',').map(str::to_ascii_lowercase).collect::<Vec<_>>();
        assert!(sniff(&lower("id,stimulus,queuepresent,queuedone,Dequeued")));
        assert!(sniff(&lower("id,stimulus,queuepresent,queuedone,FirstPixelOut")));
        assert!(!sniff(&lower("id,stimulus,queuepresent,queuedone")));
        assert!(!sniff(&lower("stimulus,id,queuepresent,queuedone,Dequeued")));
    }
}
