//! The trace model: what a loaded capture is, independent of the file it came from.
//!
//! A [`Capture`] is one input file; it holds one or more [`Trace`]s (a frame series of
//! one application, process and swap chain). Frame data is stored as columns (struct of
//! vectors) so that analysis scans one column at a time and memory stays near 8 bytes
//! per value. Every time is in milliseconds and every field name says so.
//!
//! Missing values (`NA`, empty cells, a dropped frame's display values) are stored as
//! `f64::NAN`; use [`is_present`] rather than comparing.
//!
//! This module has no UI dependency and never touches files.

mod column;
pub(crate) mod etl;
mod format;
mod invariants;
mod lines;
pub(crate) mod markers;
mod time_unit;
mod values;
mod warning;

pub use markers::{Marker, MarkerLog};

pub use column::{Column, ColumnKind, FrameType};
pub use format::Format;
pub use invariants::InvariantError;
pub use lines::Lines;
pub use time_unit::TimeUnit;
pub use values::{Values, ValuesBuilder, extend_grown, push_grown};
pub use warning::{Warning, WarningKind};

use std::path::PathBuf;

/// A [`Frames::join_id`] cell that held no id.
pub const MISSING_ID: u64 = u64::MAX;

/// True when a stored value is present (not the NaN that marks a missing value).
#[must_use]
pub fn is_present(value: f64) -> bool {
    !value.is_nan()
}

/// Percentile `p` (0..=1) of ascending `sorted` values by linear interpolation between
/// closest ranks, `h = (n − 1) · p` (numpy's default). NaN when empty.
#[must_use]
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    // `h ≥ 0`, so truncating is `floor` (without a libm call per window).
    let lo = h as usize;
    let frac = h - lo as f64;
    match sorted.get(lo + 1) {
        Some(&next) if frac > 0.0 => sorted[lo] + frac * (next - sorted[lo]),
        _ => sorted[lo],
    }
}

/// What was learned about the writer of a file and its layout.
#[derive(Debug, Clone, PartialEq)]
pub struct FileInfo {
    /// The path as the user gave it.
    pub path: PathBuf,
    /// The detected writer and layout.
    pub format: Format,
    /// A finer version label, e.g. `1.2–1.6` or `2.4+`, as far as the header tells.
    pub format_version: String,
    /// Key/value facts the file states about the system (`//Key=Value` lines,
    /// FrameView's GPU/CPU columns, OCAT's system-info columns), in file order.
    pub system: Vec<(String, String)>,
    /// False when the capture has no display data (e.g. PresentMon
    /// `--no_track_display`): whether a frame was dropped is then unknown.
    pub dropped_known: bool,
    /// The frame rate the capture says the game aimed at (Unreal `[targetframerate]`,
    /// the Unity recorder's `target_fps`), offered as the target; `None` for most
    /// formats.
    pub target_fps: Option<f64>,
}

/// One input file after loading: its traces in file order.
#[derive(Debug, Clone)]
pub struct Capture {
    /// The file and its format.
    pub info: FileInfo,
    /// Every trace of the file with at least one kept frame, in order of first row.
    pub traces: Vec<Trace>,
    /// Problems that belong to no single trace (e.g. a row too short to name its trace).
    pub warnings: Vec<Warning>,
}

impl Capture {
    /// Index of the default trace (`metrics.md` §1): the one with the most frames,
    /// ignoring `dwm.exe` when another trace exists; a tie goes to the first in file
    /// order. The frames of a sampled log's session are the frames its samples stand
    /// for (`W = Σ r·Δt`, §10), not its samples. `None` only when the capture has no
    /// trace.
    #[must_use]
    pub fn default_trace(&self) -> Option<usize> {
        let is_dwm = |t: &Trace| t.meta.application.eq_ignore_ascii_case("dwm.exe");
        let only_dwm = self.traces.iter().all(is_dwm);
        let frames = |t: &Trace| {
            let f = &t.frames;
            if t.is_sampled() {
                f.sample_ms.iter().zip(&f.frame_time_ms).map(|(dt, ft)| dt / ft).sum()
            } else {
                t.len() as f64
            }
        };
        let mut best: Option<(usize, f64)> = None;
        for (i, t) in self.traces.iter().enumerate() {
            if !only_dwm && is_dwm(t) {
                continue;
            }
            let n = frames(t);
            if best.is_none_or(|(_, m)| n > m) {
                best = Some((i, n));
            }
        }
        best.map(|b| b.0)
    }
}

/// Who wrote a trace's frames: application, process and swap chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceMeta {
    /// Executable name as the capture writes it (`game.exe`), or a name derived from
    /// the file for formats that do not say.
    pub application: String,
    /// Process id, when the format records one.
    pub process_id: Option<u32>,
    /// Swap chain address, normalised to `0x` + upper-case hex without zero padding, so
    /// that the same swap chain compares equal across PresentMon versions.
    pub swap_chain: Option<String>,
    /// Graphics runtime (`DXGI`, `D3D9`, ...), from the first frame that states it.
    pub runtime: Option<String>,
    /// Distinct present modes in order of first appearance; [`Frames::present_mode`]
    /// indexes into this list.
    pub present_modes: Vec<String>,
}

impl TraceMeta {
    /// A trace of `application` that records no process, swap chain, runtime or
    /// present mode (an engine log's, a generic CSV's, a hand-built test trace's).
    #[must_use]
    pub fn named(application: impl Into<String>) -> Self {
        Self {
            application: application.into(),
            process_id: None,
            swap_chain: None,
            runtime: None,
            present_modes: Vec::new(),
        }
    }
}

/// The frame series of one trace, stored as columns of equal length.
///
/// Only kept frames are stored: rows whose present-to-present frame time was missing,
/// not finite or not positive were skipped during loading (`metrics.md` §1).
///
/// A *sampled* log (`metrics.md` §10: NVIDIA App, MSI Afterburner, MangoHud with a
/// `log_interval`) stores one entry per sample instead of per frame: its frame time is
/// `1000 / r` (the sample's average rate) and [`Frames::sample_ms`] holds the interval
/// `Δt` the sample stands for, so the entry occupies `start_ms ..= start_ms + Δt`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frames {
    /// Present-to-present interval (the classic frame time), always finite and ≥ 0: 0
    /// only for a displayed frame without a present interval (a generated frame of the
    /// 2.1–2.3 layouts), which the presents series leaves out. For a sample, `1000 / r`.
    pub frame_time_ms: Vec<f64>,
    /// Start of the frame's interval on the capture clock, in ms since the first
    /// timestamp of the file (so traces of one file share a time axis). The frame
    /// occupies `start_ms ..= start_ms + frame_time_ms` (a sample `start_ms ..=
    /// start_ms + sample_ms`; see [`Frames::span_ms`]).
    pub start_ms: Vec<f64>,
    /// Display interval (`MsBetweenDisplayChange`, 2.0–2.3 `DisplayedTime`); NaN when
    /// the frame was dropped. Empty when the capture has no display data (a FRAPS log,
    /// a PresentMon capture without display columns: 8 bytes a frame that would say
    /// nothing); read it with [`Frames::display`].
    pub display_ms: Vec<f64>,
    /// True when the frame was never displayed. Empty when the capture does not say
    /// (no display data, no `Dropped` column); read it with [`Frames::is_dropped`].
    pub dropped: Vec<bool>,
    /// Index into [`TraceMeta::present_modes`]; empty when the format has no modes.
    pub present_mode: Vec<u16>,
    /// Application or generated frame; empty when the capture has no `FrameType`.
    pub frame_type: Vec<FrameType>,
    /// 1-based line of the file each frame came from (stored compactly: [`Lines`]).
    pub line: Lines,
    /// The app's frame id that joins a frame to a PCL marker log (`PCLFrameId`, else
    /// `AppFrameId`), exact as an integer ([`MISSING_ID`] where the cell had none);
    /// empty when the capture has no such column.
    pub join_id: Vec<u64>,
    /// Every other numeric column of the capture, in header order.
    pub columns: Vec<Column>,
    /// Sampled logs only: each sample's interval `Δt` in ms (finite, > 0), the time
    /// since the row before it. Empty for a per-frame trace.
    pub sample_ms: Vec<f64>,
    /// A sampled MangoHud log's own `frametime` column in ms, every row with a value
    /// above 0 in file order (the row that opens the log too): what MangoHud's summary
    /// computes its figures on (`metrics.md` §11). Empty otherwise.
    pub logged_frame_time_ms: Vec<f64>,
    /// Which summary the MangoHud version that wrote the log computes
    /// ([`MangoSummary`]); [`MangoSummary::FrameTimeRanks`] for every other capture.
    pub mangohud_summary: MangoSummary,
    /// A MangoHud log's own `fps` column when its version summarises the rows by `fps`
    /// (every rule but [`MangoSummary::FrameTimeRanks`]): every row with a number
    /// there, in file order (the row that opens the log too), what that version's
    /// summary computes its figures on (`metrics.md` §11). Empty otherwise.
    pub logged_fps: Vec<f64>,
    /// The logged `frametime` (ms) of each row of [`Frames::logged_fps`] (NaN when the
    /// row has none).
    pub logged_fps_ft_ms: Vec<f64>,
    /// The 1-based line of each of [`Frames::logged_fps`] (a part of a per-frame log
    /// keeps the rows of its lines).
    pub logged_fps_line: Vec<u64>,
    /// The capturing tool's own figures for this trace from the summary file it wrote
    /// beside the capture (MangoHud's `NAME_summary.csv`), as it wrote them; `None`
    /// when there is none.
    pub tool_summary: Option<ToolSummary>,
    /// Labelled events the capture logs (Unreal's `EVENTS` column, `formats.md` §10),
    /// in frame order: each belongs to a kept frame. Empty for most formats.
    pub events: Vec<Event>,
    /// The display's refresh period the capture states (ms; Android SurfaceFlinger's
    /// first line, `metrics.md` §16): the VSYNC grid without detection. `None` for
    /// most formats.
    pub stated_period_ms: Option<f64>,
    /// The unit the file itself declares for a column (column name → unit: MSI
    /// Afterburner's `03` lines, CapFrameX's sensor types, MangoHud's known columns), in
    /// column order; empty when the file declares none (units are then guessed from the
    /// names, `presentation::axes`).
    pub units: Vec<(String, String)>,
}

/// What a MangoHud log's own summary (`NAME_summary.csv`) computes its figures on,
/// which changed with MangoHud's versions (`metrics.md` §11, `docs/decisions.md`).
/// Decided from the log's version line, else from its columns (`formats.md` §5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MangoSummary {
    /// 0.6.x and older (no `swap_used` column): the logged `fps`, every row; the lows
    /// are means of the lowest `⌈p·n⌉`.
    LoggedFpsMeans,
    /// 0.7.x (`swap_used` without `cpu_power`): the rows ordered by logged `fps`; the
    /// lows are `1000 /` the mean `frametime` of the first `⌈p·n⌉` of them.
    SlowRowsFrameTimes,
    /// 0.8.0–0.8.1 (`cpu_power` without `cpu_mhz`): the logged `fps` ascending, the
    /// value at `max(0, trunc(p·n − 1))`.
    LoggedFpsRanks,
    /// 0.8.2 and later, and every capture that is not a MangoHud log: the frame times.
    #[default]
    FrameTimeRanks,
}

/// What a capturing tool wrote in its own summary file beside a capture: its figures,
/// never framescope's (`NAME_summary.csv` beside a MangoHud log: `0.1% Min FPS`,
/// `1% Min FPS`, `97% Percentile FPS`, `Average FPS`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSummary {
    /// The tool that wrote it (`MangoHud`).
    pub tool: &'static str,
    /// The summary file's name (in the capture's folder).
    pub file: String,
    /// "0.1% Min FPS".
    pub low_0_1pct_fps: Option<f64>,
    /// "1% Min FPS".
    pub low_1pct_fps: Option<f64>,
    /// "97% Percentile FPS".
    pub p97_fps: Option<f64>,
    /// "Average FPS".
    pub average_fps: Option<f64>,
}

/// A labelled moment of a capture (an engine's event: a map load, a checkpoint).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The kept frame it belongs to (index into the trace's frames).
    pub frame: usize,
    /// Where it is on the capture's time axis: the start of that frame, in ms.
    pub time_ms: f64,
    /// The text the capture gives (`Category/Text` or `Text`).
    pub label: String,
}

impl Frames {
    /// Frees the room the per-frame columns reserved for further frames (a long
    /// column grows by a quarter at a time, [`push_grown`]): what a loader does once
    /// its last frame is in.
    pub fn shrink_to_fit(&mut self) {
        self.frame_time_ms.shrink_to_fit();
        self.start_ms.shrink_to_fit();
        self.display_ms.shrink_to_fit();
        self.dropped.shrink_to_fit();
        self.present_mode.shrink_to_fit();
        self.frame_type.shrink_to_fit();
        self.line.shrink_to_fit();
        self.join_id.shrink_to_fit();
        self.sample_ms.shrink_to_fit();
    }

    /// The display interval of frame `i` (NaN when it has none: dropped, no display
    /// data, out of range).
    #[must_use]
    #[inline]
    pub fn display(&self, i: usize) -> f64 {
        self.display_ms.get(i).copied().unwrap_or(f64::NAN)
    }

    /// True when frame `i` was never displayed (false when the capture does not say).
    #[must_use]
    #[inline]
    pub fn is_dropped(&self, i: usize) -> bool {
        self.dropped.get(i).copied().unwrap_or(false)
    }

    /// True when the entries are samples of a sampled log (`metrics.md` §10).
    #[must_use]
    pub fn is_sampled(&self) -> bool {
        !self.sample_ms.is_empty()
    }

    /// How much time entry `i` covers on the time axis: a sample's interval `Δt`, else
    /// the frame time (0 for a displayed frame without a present interval). 0 when `i`
    /// is out of range.
    #[must_use]
    pub fn span_ms(&self, i: usize) -> f64 {
        self.spans_ms().get(i).copied().unwrap_or(0.0)
    }

    /// [`Frames::span_ms`] of every entry: `sample_ms` for a sampled log, else
    /// `frame_time_ms`.
    #[must_use]
    pub fn spans_ms(&self) -> &[f64] {
        if self.is_sampled() { &self.sample_ms } else { &self.frame_time_ms }
    }
}

/// One frame series: one application, process and swap chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// Who presented these frames.
    pub meta: TraceMeta,
    /// The frame columns.
    pub frames: Frames,
    /// Problems found on this trace's rows.
    pub warnings: Vec<Warning>,
}

impl Trace {
    /// True for a sampled log (`metrics.md` §10): entries are samples, not frames.
    #[must_use]
    pub fn is_sampled(&self) -> bool {
        self.frames.is_sampled()
    }

    /// Number of kept frames (samples, for a sampled log).
    #[must_use]
    pub fn len(&self) -> usize {
        self.frames.frame_time_ms.len()
    }

    /// True when the trace holds no frame.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.frames.frame_time_ms.is_empty()
    }

    /// Number of frames that were never displayed.
    #[must_use]
    pub fn dropped_count(&self) -> usize {
        self.frames.dropped.iter().filter(|&&d| d).count()
    }

    /// The first column of a kind, if the capture has one.
    #[must_use]
    pub fn column(&self, kind: ColumnKind) -> Option<&Column> {
        self.frames.columns.iter().find(|c| c.kind == kind)
    }

    /// A column by its header name, matched case-insensitively.
    #[must_use]
    pub fn column_named(&self, name: &str) -> Option<&Column> {
        self.frames.columns.iter().find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The frames in `range` (clamped to the trace) as a trace of their own, with the
    /// same metadata: what a time selection reports on.
    #[must_use]
    pub fn slice(&self, range: std::ops::Range<usize>) -> Trace {
        let end = range.end.min(self.len());
        let r = range.start.min(end)..end;
        let f = &self.frames;
        let part = |v: &[f64]| v.get(r.clone()).map(<[f64]>::to_vec).unwrap_or_default();
        let frames = Frames {
            frame_time_ms: part(&f.frame_time_ms),
            start_ms: part(&f.start_ms),
            display_ms: part(&f.display_ms),
            dropped: f.dropped.get(r.clone()).map(<[bool]>::to_vec).unwrap_or_default(),
            present_mode: f.present_mode.get(r.clone()).map(<[u16]>::to_vec).unwrap_or_default(),
            frame_type: f.frame_type.get(r.clone()).map(<[FrameType]>::to_vec).unwrap_or_default(),
            line: f.line.slice(r.clone()),
            join_id: f.join_id.get(r.clone()).map(<[u64]>::to_vec).unwrap_or_default(),
            columns: f
                .columns
                .iter()
                .map(|c| Column { name: c.name.clone(), kind: c.kind, values: c.values.slice(r.clone()) })
                .collect(),
            sample_ms: part(&f.sample_ms),
            // The log's own summary convention belongs to the whole log, not a slice;
            // a part of a per-frame MangoHud 0.6.x log keeps the logged `fps` of its
            // lines (its frames), which that version's summary would take.
            logged_frame_time_ms: Vec::new(),
            mangohud_summary: f.mangohud_summary,
            logged_fps: logged_part(f, &f.logged_fps, r.clone()),
            logged_fps_ft_ms: logged_part(f, &f.logged_fps_ft_ms, r.clone()),
            logged_fps_line: logged_part(f, &f.logged_fps_line, r.clone()),
            tool_summary: None,
            events: f
                .events
                .iter()
                .filter(|e| r.contains(&e.frame))
                .map(|e| Event { frame: e.frame - r.start, ..e.clone() })
                .collect(),
            stated_period_ms: f.stated_period_ms,
            units: f.units.clone(),
        };
        Trace { meta: self.meta.clone(), frames, warnings: Vec::new() }
    }

    /// Makes start times usable for the timeline: finite and in time order. A trace
    /// whose timestamps go back by more than a millisecond (files joined together, a
    /// damaged clock, a sampled log's clock set back) or are not finite is laid out
    /// entry after entry ([`Frames::span_ms`]) from its first start; the warning names
    /// the line.
    pub fn ensure_time_order(&mut self) {
        let f = &mut self.frames;
        let bad = f
            .start_ms
            .iter()
            .position(|s| !s.is_finite())
            .or_else(|| f.start_ms.windows(2).position(|w| w[1] < w[0] - 1.0).map(|k| k + 1));
        let Some(k) = bad else { return };
        let mut t = f.start_ms.first().copied().filter(|s| s.is_finite()).unwrap_or(0.0);
        let spans = if f.sample_ms.is_empty() { &f.frame_time_ms } else { &f.sample_ms };
        for (s, span) in f.start_ms.iter_mut().zip(spans) {
            *s = t;
            t += span;
        }
        for e in &mut f.events {
            e.time_ms = f.start_ms.get(e.frame).copied().unwrap_or(e.time_ms);
        }
        let message = "timestamps go back in time (or are not numbers) here; frames are placed one after \
                       another on the timeline";
        self.warnings.push(f.line.get(k).map_or_else(|| Warning::file(message), |l| Warning::at(l, message)));
    }

    /// A one-line label: `app (PID 1234, 0xABC)`.
    #[must_use]
    pub fn label(&self) -> String {
        let app = &self.meta.application;
        match (&self.meta.process_id, &self.meta.swap_chain) {
            (Some(pid), Some(sc)) => format!("{app} (PID {pid}, {sc})"),
            (Some(pid), None) => format!("{app} (PID {pid})"),
            _ => app.clone(),
        }
    }
}

/// The values of `logged` (one per row of [`Frames::logged_fps_line`]) on the lines of
/// the frames `r` of a per-frame trace; none for a sampled one.
fn logged_part<T: Copy>(f: &Frames, logged: &[T], r: std::ops::Range<usize>) -> Vec<T> {
    let lines = f.line.slice(r);
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else { return Vec::new() };
    if !f.sample_ms.is_empty() || logged.len() != f.logged_fps_line.len() {
        return Vec::new();
    }
    (f.logged_fps_line.iter().zip(logged))
        .filter(|&(&line, _)| (first..=last).contains(&line))
        .map(|(_, &v)| v)
        .collect()
}

#[cfg(test)]
mod tests;
