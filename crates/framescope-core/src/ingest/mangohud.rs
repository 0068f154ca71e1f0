//! MangoHud logs (`formats.md` §5), read row by row through the PresentMon-family
//! reader (`csv_capture.rs`, layout from `layout.rs`); what is MangoHud's own is here:
//! the unit of `frametime` (µs up to 0.6.8, ms from 0.6.9) and whether the log is
//! *sampled* (`metrics.md` §10).
//!
//! Since 0.6.9 MangoHud writes one row per frame by default, but a `log_interval`
//! (the default up to 0.6.x, and a common user setting) makes it write one row per
//! interval: the row's `fps` is then the average rate over the interval and
//! `frametime` one frame's time at that instant. A log is sampled when the median
//! step of its `elapsed` column (ns) is more than 1.5× its median frame time; its
//! rows then become samples of rate `fps` over the time since the row before, as the
//! other sampled logs (`sampled.rs`). A log that is not sampled stays per frame.

use super::builder::{SkipLog, SkipReason, TraceBuilder};
use super::layout::{FrameTimeRule, Layout, TimeUnit};
use super::records::Row;
use super::sampled::{Clock, Interval, MAX_TIME_MS, NotSample, Samples, frame_time_from_rate};
use super::sessions::SessionClock;
use super::values::{Cell, parse_cell};
use crate::model::{ColumnKind, Frames, MangoSummary, Trace, Warning};

/// A log is sampled when its median `elapsed` step is more than this many median
/// frame times (`metrics.md` §10).
const SAMPLED_RATIO: f64 = 1.5;

/// Columns MangoHud added after 0.6.9, when `frametime` became milliseconds.
const LATE_COLUMNS: [&str; 4] = ["swap_used", "process_rss", "cpu_power", "cpu_mhz"];

/// The timed rows of a MangoHud log, kept beside the per-frame trace until the end of
/// the file tells whether the log is sampled. About 30 bytes a row.
#[derive(Debug, Clone, Default)]
pub(super) struct MangoRows {
    elapsed_index: Option<usize>,
    fps_index: Option<usize>,
    frametime_column: bool,
    /// The header has a column added after 0.6.9.
    late_columns: bool,
    /// The version line of a `log_versioning` preamble.
    version: Option<(u32, u32, u32)>,
    line: Vec<u64>,
    elapsed_ns: Vec<f64>,
    /// The row's `fps` (NaN when missing or not a number, or the row is malformed).
    fps: Vec<f64>,
    /// The per-frame trace's frame the row became (`u32::MAX`: none).
    frame: Vec<u32>,
    malformed: Vec<bool>,
    /// Malformed rows of the trace (as the per-frame trace lists them).
    skips: SkipLog,
    /// What the version that wrote the log summarises ([`MangoRows::logged_fps`]).
    summary: MangoSummary,
}

/// A MangoHud log's rows as its summary takes them ([`MangoRows::logged_fps`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct LoggedRows {
    /// Which summary.
    pub summary: MangoSummary,
    /// Each row's `fps`.
    pub fps: Vec<f64>,
    /// Each row's `frametime` in ms (NaN: none).
    pub ft_ms: Vec<f64>,
    /// Each row's 1-based line.
    pub line: Vec<u64>,
}

impl LoggedRows {
    /// Puts the rows into `frames`.
    pub(super) fn store(self, frames: &mut Frames) {
        frames.mangohud_summary = self.summary;
        frames.logged_fps = self.fps;
        frames.logged_fps_ft_ms = self.ft_ms;
        frames.logged_fps_line = self.line;
    }
}

/// What the log turned out to be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Verdict {
    /// `frametime` is in microseconds (scaled to ms by the caller).
    pub micros: bool,
    /// The log is sampled.
    pub sampled: bool,
}

impl MangoRows {
    /// Prepares for a log with this layout, header and preamble version.
    pub(super) fn new(layout: &Layout, header: &[String], version: Option<(u32, u32, u32)>) -> Self {
        let elapsed_index = layout.time.filter(|t| t.unit == TimeUnit::Nanos).map(|t| t.index);
        let fps_index = match layout.frame_time {
            FrameTimeRule::FromFps(i) => Some(i),
            _ => layout.numeric.iter().find(|c| c.name.eq_ignore_ascii_case("fps")).map(|c| c.index),
        };
        let has = |name: &str| header.iter().any(|h| h.eq_ignore_ascii_case(name));
        let late_columns = LATE_COLUMNS.iter().any(|c| has(c));
        Self {
            elapsed_index,
            fps_index,
            frametime_column: matches!(layout.frame_time, FrameTimeRule::Column(_)),
            late_columns,
            version,
            summary: summary_rule(version, has),
            ..Self::default()
        }
    }

    /// Records a malformed row of the trace.
    pub(super) fn skip(&mut self, line: u64, reason: SkipReason) {
        self.skips.add(line, reason);
    }

    /// Records a data row when it has a usable `elapsed`: `frame` is the per-frame
    /// trace's frame it became, if any; a malformed row is no sample but still ends the
    /// interval before it.
    pub(super) fn note(&mut self, record: &Row, line: u64, frame: Option<usize>, malformed: bool) {
        let cell = |i: Option<usize>| i.map_or(Cell::Missing, |i| parse_cell(record.get(i).unwrap_or(b"")));
        let Cell::Number(ns) = cell(self.elapsed_index) else { return };
        if (ns * 1e-6).abs() > MAX_TIME_MS {
            return;
        }
        let fps = match cell(self.fps_index) {
            Cell::Number(v) if !malformed => v,
            _ => f64::NAN,
        };
        self.line.push(line);
        self.elapsed_ns.push(ns);
        self.fps.push(fps);
        self.frame.push(frame.and_then(|f| u32::try_from(f).ok()).unwrap_or(u32::MAX));
        self.malformed.push(malformed);
    }

    /// Decides the unit of `frametime` and whether the log is sampled, from the
    /// per-frame trace's frame times as read (`builder`).
    pub(super) fn verdict(&mut self, builder: &TraceBuilder) -> Verdict {
        let raw = builder.frame_times();
        let micros = self.frametime_column && self.frametime_micros(raw);
        let scale = if micros { 1e-3 } else { 1.0 };
        let frame_ms: Vec<f64> = raw.iter().map(|v| v * scale).collect();
        let steps_ms: Vec<f64> = self.elapsed_ns.windows(2).map(|w| (w[1] - w[0]) * 1e-6).collect();
        let (step, frame) = (median(&steps_ms), median(&frame_ms));
        let sampled = step.is_finite() && frame.is_finite() && step > SAMPLED_RATIO * frame;
        Verdict { micros, sampled }
    }

    /// What the log's summary is computed on when its version summarises its rows by
    /// `fps` (`metrics.md` §11, [`MangoSummary`]): the `fps` of every well-formed row
    /// with a number there, with its frame time in `pf` (the per-frame trace the rows
    /// were read into, in ms), in file order, on lines `after < line ≤ upto`; empty for
    /// a log whose summary is of the frame times.
    pub(super) fn logged_fps(&self, pf: &Frames, after: u64, upto: u64) -> LoggedRows {
        let mut out = LoggedRows { summary: self.summary, ..LoggedRows::default() };
        if self.summary == MangoSummary::FrameTimeRanks || self.fps_index.is_none() {
            out.summary = MangoSummary::FrameTimeRanks;
            return out;
        }
        for k in 0..self.line.len() {
            let (line, fps) = (self.line[k], self.fps[k]);
            if line <= after || line > upto || !fps.is_finite() {
                continue;
            }
            let ft = usize::try_from(self.frame[k]).ok().and_then(|f| pf.frame_time_ms.get(f));
            out.fps.push(fps);
            out.ft_ms.push(ft.copied().unwrap_or(f64::NAN));
            out.line.push(line);
        }
        out
    }

    /// `frametime` is µs up to 0.6.8 and ms from 0.6.9: the version line says so when
    /// there is one; a column added after 0.6.9 means ms; else the unit that puts the
    /// median `frametime` nearer the median `1000 / fps` (ratio ≈ 1 → ms, ≈ 1000 → µs);
    /// without `fps`, µs when the median is above 1000.
    fn frametime_micros(&self, raw: &[f64]) -> bool {
        if let Some(v) = self.version {
            return v < (0, 6, 9);
        }
        if self.late_columns {
            return false;
        }
        let typical = median(raw);
        if !typical.is_finite() {
            return false;
        }
        let periods: Vec<f64> = self.fps.iter().filter(|&&r| r > 0.0).map(|r| 1000.0 / r).collect();
        let reference = median(&periods);
        if reference.is_finite() && reference > 0.0 {
            let decades = (typical / reference).log10();
            (decades - 3.0).abs() < decades.abs()
        } else {
            typical > 1000.0
        }
    }

    /// The sampled traces (`metrics.md` §10: one per logging session) and the notes
    /// about the sessions, from the per-frame trace `per_frame` the rows were also read
    /// into (its telemetry is each sample's), with `rows` data rows read; the error
    /// says why there is no sample.
    pub(super) fn sampled_traces(
        mut self,
        per_frame: &Trace,
        rows: u64,
        extra: Vec<Warning>,
    ) -> Result<(Vec<Trace>, Vec<Warning>), String> {
        let mut s = Samples::new("fps");
        s.rows = rows;
        s.skips = std::mem::take(&mut self.skips);
        let pf = &per_frame.frames;
        let logged =
            self.frametime_column.then(|| s.add_column("frametime".into(), ColumnKind::Telemetry, false));
        let columns: Vec<(usize, usize)> = pf
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.name.eq_ignore_ascii_case("fps"))
            .map(|(k, c)| (k, s.add_column(c.name.clone(), c.kind, false)))
            .collect();
        let mut clock = Clock::default();
        for k in 0..self.line.len() {
            let (line, ns) = (self.line[k], self.elapsed_ns[k]);
            let interval = clock.step(ns).map_or(Interval::Opens, |d| Interval::Closes(d * 1e-6));
            if self.malformed[k] {
                s.malformed_timed_row(line, ns * 1e-6);
                continue;
            }
            let fps = self.fps[k];
            let rate = if fps.is_nan() { Cell::Missing } else { Cell::Number(fps) };
            let frame_time = frame_time_from_rate(rate).map_err(NotSample::Rate);
            if !s.row(line, frame_time, interval, ns * 1e-6) {
                continue;
            }
            let Some(f) = usize::try_from(self.frame[k]).ok().filter(|&f| f < per_frame.len()) else {
                continue;
            };
            if let Some(c) = logged {
                s.set_value(c, pf.frame_time_ms[f]);
            }
            for &(from, to) in &columns {
                s.set_value(to, pf.columns[from].values.at(f));
            }
        }
        if let Some(why) = s.why_empty() {
            return Err(why);
        }
        let (mut traces, notes) =
            s.finish_sessions(per_frame.meta.clone(), extra, SessionClock::Elapsed, false);
        if traces.is_empty() {
            return Err("no logging session of the log has a sample".into());
        }
        // MangoHud's own summary figures: each session's logged frame times (0.6.x:
        // its logged `fps`), those of the rows after the previous session's last sample
        // up to its own last one.
        if self.frametime_column || self.summary != MangoSummary::FrameTimeRanks {
            let mut after = 0;
            let n = traces.len();
            for (k, t) in traces.iter_mut().enumerate() {
                let upto = if k + 1 == n { u64::MAX } else { t.frames.line.last().unwrap_or(after) };
                if self.frametime_column {
                    t.frames.logged_frame_time_ms = (pf.line.iter().zip(&pf.frame_time_ms))
                        .filter(|&(line, &ft)| line > after && line <= upto && ft > 0.0)
                        .map(|(_, &ft)| ft)
                        .collect();
                }
                self.logged_fps(pf, after, upto).store(&mut t.frames);
                after = upto;
            }
        }
        Ok((traces, notes))
    }
}

/// What the MangoHud version that wrote a log summarises (`metrics.md` §11): from
/// its version line when it has one, else from the columns each version added
/// (`formats.md` §5: `swap_used` 0.7.0, `cpu_power` 0.8.0, `cpu_mhz` 0.8.2).
fn summary_rule(version: Option<(u32, u32, u32)>, has: impl Fn(&str) -> bool) -> MangoSummary {
    let version = version.unwrap_or(if has("cpu_mhz") {
        (0, 8, 2)
    } else if has("cpu_power") {
        (0, 8, 0)
    } else if has("swap_used") || has("process_rss") {
        (0, 7, 0)
    } else {
        (0, 6, 0)
    });
    match version {
        v if v < (0, 7, 0) => MangoSummary::LoggedFpsMeans,
        v if v < (0, 8, 0) => MangoSummary::SlowRowsFrameTimes,
        v if v < (0, 8, 2) => MangoSummary::LoggedFpsRanks,
        _ => MangoSummary::FrameTimeRanks,
    }
}

/// The median of the finite values (mean of the two middle ones for an even count);
/// NaN when there are none.
fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_unstable_by(f64::total_cmp);
    crate::model::percentile(&v, 0.5)
}

/// MangoHud's units for the columns it writes (its `logging.cpp`: loads in %, clocks in
/// MHz, temperatures in °C, power in W, memory in GiB, `frametime` in ms once read),
/// for the columns of `columns` that it knows.
#[must_use]
pub(crate) fn units(columns: &[crate::model::Column]) -> Vec<(String, String)> {
    const KNOWN: [(&str, &str); 16] = [
        ("fps", "FPS"),
        ("frametime", "ms"),
        ("cpu_load", "%"),
        ("gpu_load", "%"),
        ("cpu_temp", "°C"),
        ("gpu_temp", "°C"),
        ("gpu_core_clock", "MHz"),
        ("gpu_mem_clock", "MHz"),
        ("cpu_mhz", "MHz"),
        ("gpu_vram_used", "GB"),
        ("ram_used", "GB"),
        ("swap_used", "GB"),
        ("process_rss", "GB"),
        ("cpu_power", "W"),
        ("gpu_power", "W"),
        ("gpu_fan", "RPM"),
    ];
    columns
        .iter()
        .filter_map(|c| {
            let name = c.name.trim().to_ascii_lowercase();
            KNOWN.iter().find(|(k, _)| *k == name).map(|(_, u)| (c.name.clone(), (*u).to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_steps_and_frame_times() {
        assert!((median(&[3.0, 1.0, 2.0]) - 2.0).abs() < 1e-12);
        assert!((median(&[4.0, 1.0, 2.0, 3.0]) - 2.5).abs() < 1e-12);
        assert!((median(&[-5.0, 10.0, 10.0]) - 10.0).abs() < 1e-12, "steps back count too");
        assert!(median(&[f64::NAN]).is_nan());
    }

    /// The version line decides; without one, the newest column the header has.
    #[test]
    fn each_version_its_summary() {
        fn header(cols: &'static [&'static str]) -> impl Fn(&str) -> bool {
            move |n: &str| cols.contains(&n)
        }
        const V070: &[&str] = &["fps", "frametime", "swap_used", "process_rss", "elapsed"];
        const V080: &[&str] = &["fps", "frametime", "cpu_power", "swap_used", "elapsed"];
        const V082: &[&str] = &["fps", "frametime", "cpu_power", "swap_used", "cpu_mhz", "elapsed"];
        assert_eq!(
            summary_rule(None, header(&["fps", "frametime", "elapsed"])),
            MangoSummary::LoggedFpsMeans
        );
        assert_eq!(summary_rule(None, header(V070)), MangoSummary::SlowRowsFrameTimes);
        assert_eq!(summary_rule(None, header(V080)), MangoSummary::LoggedFpsRanks);
        assert_eq!(summary_rule(None, header(V082)), MangoSummary::FrameTimeRanks);
        assert_eq!(summary_rule(Some((0, 6, 9)), header(V082)), MangoSummary::LoggedFpsMeans);
        assert_eq!(summary_rule(Some((0, 7, 2)), header(V082)), MangoSummary::SlowRowsFrameTimes);
        assert_eq!(summary_rule(Some((0, 8, 1)), header(&[])), MangoSummary::LoggedFpsRanks);
        assert_eq!(summary_rule(Some((0, 9, 0)), header(&[])), MangoSummary::FrameTimeRanks);
    }
}
