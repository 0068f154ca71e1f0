//! Ending a load: time scale, MangoHud fixups and which traces are kept.

use super::super::LoadOptions;
use super::super::builder::{MAX_TRACE_COLUMNS, TraceBuilder};
use super::super::error::{LoadError, LoadErrorKind};
use super::super::layout::{Layout, TimeUnit};
use super::super::sampled::sampled_warning;
use super::rows::RowReader;
use crate::model::{Capture, FileInfo, Warning};
use std::path::Path;

impl RowReader<'_> {
    pub(super) fn finish(
        mut self,
        info: FileInfo,
        opts: &LoadOptions,
        path: &Path,
    ) -> Result<Capture, LoadError> {
        let sampled = self.mangohud_fixups();
        let layout = self.layout;
        let mut mango = self.mango.take();
        let mut warnings = self.file_warnings;
        warnings.extend(self.file_skips.warnings());
        if self.traces_without_columns > 0 {
            warnings.push(Warning::file(format!(
                "the file has so many traces × columns that the optional columns (timings, telemetry) of \
                 its last {} traces were left out to stay within memory (at most {MAX_TRACE_COLUMNS} trace \
                 columns a file); their frame times are kept",
                self.traces_without_columns
            )));
        }
        let (ms_per_raw, unit_warning) = infer_time_scale(&self.builders, layout, opts);
        warnings.extend(unit_warning);
        let origin_raw =
            self.builders.iter().filter_map(TraceBuilder::first_raw_time).fold(f64::INFINITY, f64::min);
        let role = layout.time.map(|t| t.role);
        let origin_raw = if origin_raw.is_finite() { origin_raw } else { 0.0 };
        let mut traces = Vec::new();
        for builder in self.builders {
            let cell_warnings = if sampled { builder.cell_warnings(layout) } else { Vec::new() };
            let mut trace = builder.finish(layout, role, ms_per_raw, origin_raw);
            // A sampled MangoHud log (one trace: MangoHud names no process) is read
            // as samples; its per-frame reading only lends the telemetry.
            if sampled && let Some(rows) = mango.take() {
                let (mut sessions, notes) =
                    rows.sampled_traces(&trace, self.count, cell_warnings).map_err(|why| {
                        let line = warnings.iter().find_map(|w| w.line);
                        LoadError::new(path, line, LoadErrorKind::NoFrames(why))
                    })?;
                warnings.push(sampled_warning(
                    "MangoHud",
                    super::super::sampled::mean_interval(&sessions),
                    "fps",
                ));
                warnings.extend(notes);
                // Every session but the last is a run already; the last goes on below.
                let Some(last) = sessions.pop() else { continue };
                traces.extend(sessions);
                trace = last;
            }
            // A per-frame MangoHud log whose version summarises its rows by `fps`.
            if !sampled && let Some(rows) = &mango {
                rows.logged_fps(&trace.frames, 0, u64::MAX).store(&mut trace.frames);
            }
            if has_kept_frame(&trace) {
                traces.push(trace);
            } else {
                // Not a run (`metrics.md` §1: no frame time and no display interval
                // above 0, e.g. every cell 0): its skipped rows still tell the user
                // something.
                warnings.extend(trace.warnings);
            }
        }
        if traces.is_empty() {
            return Err(no_frames(path, self.count, &warnings));
        }
        start_at_zero(&mut traces);
        warnings.sort_by_key(|w| w.line);
        Ok(Capture { info, traces, warnings })
    }
}

/// The error for a file none of whose `rows` gave a run.
fn no_frames(path: &Path, rows: u64, warnings: &[Warning]) -> LoadError {
    let why = if rows == 0 {
        "the file has a header but no data rows".to_owned()
    } else {
        format!("none of its {rows} rows has a usable frame time (a frame time or display interval above 0)")
    };
    let line = warnings.first().and_then(|w| w.line);
    LoadError::new(path, line, LoadErrorKind::NoFrames(why))
}

/// Shifts every trace's start times so the file's first frame starts at 0.
fn start_at_zero(traces: &mut [crate::model::Trace]) {
    let shift =
        traces.iter().filter_map(|t| t.frames.start_ms.first().copied()).fold(f64::INFINITY, f64::min);
    if shift.is_finite() && shift != 0.0 {
        for t in traces {
            t.frames.start_ms.iter_mut().for_each(|s| *s -= shift);
        }
    }
}

impl RowReader<'_> {
    /// MangoHud: the application is the file name before the date; `frametime` is in
    /// µs up to 0.6.8 and in ms after; a log written with a `log_interval` is sampled
    /// (`mangohud.rs`). Returns true for a sampled log.
    fn mangohud_fixups(&mut self) -> bool {
        let Some(mango) = &mut self.mango else { return false };
        let app = mangohud_application(&self.file_stem);
        let mut sampled = false;
        for b in &mut self.builders {
            b.set_application(app.clone());
            let verdict = mango.verdict(b);
            if verdict.micros {
                b.scale_frame_times(1e-3);
            }
            sampled |= verdict.sampled;
        }
        sampled
    }
}

/// `glxgears_2021-06-03_21-32-02` → `glxgears`: MangoHud names its logs
/// `<program>_YYYY-MM-DD_HH-MM-SS.csv`.
fn mangohud_application(stem: &str) -> String {
    let parts: Vec<&str> = stem.rsplitn(3, '_').collect();
    let dated = parts.len() == 3
        && parts[0].len() == 8
        && parts[1].len() == 10
        && parts[0].chars().chain(parts[1].chars()).all(|c| c.is_ascii_digit() || c == '-');
    if dated { parts[2].to_owned() } else { stem.to_owned() }
}

/// Decides how many milliseconds one raw unit of the time column is. The declared
/// unit is trusted when the time column advances in step with the frame times;
/// otherwise the unit that does is used (PresentMon's `--qpc_time_ms` writes ms under
/// a `TimeInSeconds` header; a QPC clock may not run at the assumed frequency).
fn infer_time_scale(
    builders: &[TraceBuilder],
    layout: &Layout,
    opts: &LoadOptions,
) -> (f64, Option<Warning>) {
    let Some(time) = layout.time else {
        return (1.0, None);
    };
    if time.unit == TimeUnit::Nanos {
        // MangoHud's `elapsed`: no writer mislabels it, and a sampled log does not
        // advance with its frame times by design.
        return (1e-6, None);
    }
    let declared = match time.unit {
        TimeUnit::Qpc => 1000.0 / opts.qpc_hz(),
        unit => unit.to_ms(),
    };
    let Some(biggest) = builders.iter().max_by_key(|b| b.len()) else {
        return (declared, None);
    };
    let (raw, ms) = biggest.time_pairs(time.role);
    if !(raw > 0.0 && ms > 0.0) {
        return (declared, None);
    }
    let measured = ms / raw;
    let close = |a: f64, b: f64| (a / b).ln().abs() < 1.2_f64.ln();
    if close(measured, declared) {
        return (declared, None);
    }
    if time.unit == TimeUnit::Qpc {
        let hz = 1000.0 / measured;
        if let Some(given) = opts.qpc_frequency_hz {
            // The user's frequency wins; the measurement is only reported.
            let msg = format!(
                "the QPC time column advances at about {hz:.0} ticks per second against the frame times, \
                 not the {given:.0} you set with --qpc-frequency; timestamps use your {given:.0}"
            );
            return (declared, Some(Warning::file(msg)));
        }
        let msg = format!(
            "the QPC time column advances at about {hz:.0} ticks per second, not the assumed {:.0}; \
             timestamps use the measured rate (set --qpc-frequency to override)",
            opts.qpc_hz()
        );
        return (measured, Some(Warning::file(msg)));
    }
    for candidate in [1000.0, 1.0, 1e-3, 1e-6] {
        if close(measured, candidate) {
            return (candidate, None);
        }
    }
    let msg = "the time column does not advance with the frame times; frame start times \
               on the timeline may be off"
        .to_owned();
    (declared, Some(Warning::file(msg)))
}

/// True when the trace holds a frame of either series: a frame time or a display
/// interval above 0 (a row of zeros is kept as a frame without a present interval, for
/// the display series, and may be all a trace has).
fn has_kept_frame(trace: &crate::model::Trace) -> bool {
    let f = &trace.frames;
    f.frame_time_ms.iter().any(|&v| v > 0.0) || f.display_ms.iter().any(|&v| v > 0.0)
}
