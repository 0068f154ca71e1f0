//! The `framescope report` document (`cli-report.md`): one JSON shape, also printed as
//! a readable table. Built from loaded captures and analysis; never reads files.

pub(crate) mod batch;
pub(crate) mod ci;
pub mod compare;
pub(crate) mod escape;
pub(crate) mod etl;
pub(crate) mod gate;
pub mod sets;
pub(crate) mod stats;
pub(crate) mod system;
mod table;
pub(crate) mod tabular;
pub(crate) mod verdict;

pub use batch::{COLUMNS as BATCH_COLUMNS, CsvSink, table as batch_table};
pub use ci::{CiCase, CiOutcome, CiReport, CiSuite, gate_report};
pub use escape::{Terminal, formula, lines, text};
pub use system::{SystemRow, facts, headline, side_by_side};
pub use tabular::{Cells, Table, TableChunks};

pub use compare::{CompareReport, Comparison, compare};
pub use stats::{Welch, t_cdf};
pub use table::{
    FEW_FRAMES, limiter_text, lows_note, sampled_lows_note, write_entry, write_settings, write_table,
    write_table_with,
};
pub use verdict::Verdict;

use crate::analysis::{
    Conventions, Efficiency, FrameTypes, Health, Latency, Oscillation, Pacing, PclLatency, Prepared,
    Settings, Stutters, Summary, Telemetry, ToolFigures, Vsync,
};
use crate::ingest::{LoadError, LoadErrorKind};
use crate::model::markers::MarkerLog;
use crate::model::{Capture, FileInfo, Trace, Warning, WarningKind};
use serde::Serialize;

/// Version of the JSON contract.
pub const SCHEMA: u32 = 1;

/// The rolling window of the stutter and oscillation rules, in frames.
pub const WINDOW_FRAMES: u32 = 19;

/// The whole document.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Contract version.
    pub schema: u32,
    /// The settings every figure was computed with.
    pub settings: SettingsJson,
    /// One entry per reported trace (or per failed file), in argument and file order.
    pub runs: Vec<RunEntry>,
}

/// Settings as the report prints them.
#[derive(Debug, Clone, Serialize)]
pub struct SettingsJson {
    /// Target rate.
    pub target_fps: f64,
    /// Relative stutter threshold.
    pub stutter_threshold: f64,
    /// Absolute stutter floor.
    pub stutter_floor_ms: f64,
    /// Rolling window size.
    pub window_frames: u32,
    /// `auto`, `presents` or `display`: what was asked (each run says what it used).
    pub frame_time: &'static str,
    /// Seconds left out at the start of every run.
    pub trim_start_s: f64,
    /// Seconds left out at the end of every run.
    pub trim_end_s: f64,
}

impl From<&Settings> for SettingsJson {
    fn from(s: &Settings) -> Self {
        Self {
            target_fps: s.target_fps,
            stutter_threshold: s.stutter_threshold,
            stutter_floor_ms: s.stutter_floor_ms,
            window_frames: WINDOW_FRAMES,
            frame_time: s.frame_time.name(),
            trim_start_s: 0.0,
            trim_end_s: 0.0,
        }
    }
}

impl SettingsJson {
    /// The settings with the trim every run was cut with (`metrics.md` §1).
    #[must_use]
    pub fn with_trim(self, trim: crate::analysis::Trim) -> Self {
        Self { trim_start_s: trim.start_s, trim_end_s: trim.end_s, ..self }
    }
}

/// A trace of the file that is not reported (another process or swap chain).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OtherTrace {
    /// Executable name.
    pub application: String,
    /// Process id.
    pub process_id: Option<u32>,
    /// Normalised swap-chain address.
    pub swap_chain: Option<String>,
    /// Kept frames (samples, for a sampled log).
    pub frames: usize,
}

impl OtherTrace {
    /// The other traces of a capture than `shown`, in file order.
    #[must_use]
    pub fn of(capture: &Capture, shown: &[usize]) -> Vec<Self> {
        capture
            .traces
            .iter()
            .enumerate()
            .filter(|(i, _)| !shown.contains(i))
            .map(|(_, t)| Self {
                application: t.meta.application.clone(),
                process_id: t.meta.process_id,
                swap_chain: t.meta.swap_chain.clone(),
                frames: t.len(),
            })
            .collect()
    }
}

/// `tool_summary`: what the capturing tool wrote in its own summary file, under the
/// keys of its `conventions` entry (`conventions.mangohud`), plus the tool and file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSummary {
    /// The tool (`MangoHud`).
    pub tool: &'static str,
    /// The summary file's name, beside the capture.
    pub file: String,
    /// "Average FPS".
    pub average_fps: Option<f64>,
    /// "1% Min FPS".
    pub low_1pct_fps: Option<f64>,
    /// "0.1% Min FPS".
    pub low_0_1pct_fps: Option<f64>,
    /// "97% Percentile FPS".
    pub p97_fps: Option<f64>,
}

impl ToolSummary {
    fn of(s: &crate::model::ToolSummary) -> Self {
        Self {
            tool: s.tool,
            file: s.file.clone(),
            average_fps: s.average_fps,
            low_1pct_fps: s.low_1pct_fps,
            low_0_1pct_fps: s.low_0_1pct_fps,
            p97_fps: s.p97_fps,
        }
    }
}

/// A reported trace, or a file that could not be reported.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RunEntry {
    /// A trace with its figures.
    Run(Box<Run>),
    /// A file that could not be read or held no frames.
    Failed(FailedRun),
    /// An ETW trace (`.etl`): what it holds and its PCL Stats markers (`etl.rs`).
    Etl(Box<etl::EtlRun>),
}

/// One trace's figures. Sections that cannot be computed are `null`, never 0.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    /// The path as given.
    pub file: String,
    /// Detected writer and layout.
    pub format: &'static str,
    /// Finer version label (an addition to the contract).
    pub format_version: String,
    /// Executable name.
    pub application: String,
    /// Process id.
    pub process_id: Option<u32>,
    /// Normalised swap-chain address.
    pub swap_chain: Option<String>,
    /// Graphics runtime (an addition to the contract).
    pub runtime: Option<String>,
    /// Present modes seen, in order (an addition to the contract).
    pub present_modes: Vec<String>,
    /// The frame-time source this run was analysed with (`presents` or `display`:
    /// what `auto` resolved to for its trace).
    pub frame_time: &'static str,
    /// True for a sampled log (`metrics.md` §10): figures from samples, `frames` an
    /// estimate, per-frame sections null.
    pub sampled: bool,
    /// Number of samples of a sampled log; `null` for a per-frame trace (an addition
    /// to the contract).
    pub samples: Option<usize>,
    /// Frames in the analysed series; for a sampled log the estimate `round(W)`.
    pub frames: usize,
    /// Frames of the trace that were never displayed.
    pub dropped_frames: Option<usize>,
    /// T: the sum of the analysed frame times; for a sampled log `Σ Δt`, the time its
    /// samples span.
    pub duration_ms: Option<f64>,
    /// Problems found while loading (file-level ones are repeated in every run of the file).
    pub warnings: Vec<Warning>,
    /// `metrics.md` §2.
    pub summary: Option<Summary>,
    /// `metrics.md` §3.
    pub pacing: Option<Pacing>,
    /// `metrics.md` §4.
    pub stutters: Option<Stutters>,
    /// `metrics.md` §5.
    pub osc: Option<Oscillation>,
    /// `metrics.md` §6.
    pub health: Option<Health>,
    /// `metrics.md` §7.
    pub latency: Option<Latency>,
    /// `metrics.md` §13: CPU-, GPU- or neither-limited time; null without the columns.
    pub limiter: Option<crate::analysis::Limiter>,
    /// `metrics.md` §8: the refresh grid (an addition to the contract).
    pub vsync: Option<Vsync>,
    /// Application and generated frames apart, when the capture marks generated
    /// frames (an addition to the contract).
    pub frame_types: Option<FrameTypes>,
    /// `metrics.md` §11: each popular tool's figures for this run.
    pub conventions: Option<Conventions>,
    /// `metrics.md` §15: frames per joule from the capture's power series; null without one.
    pub efficiency: Option<Efficiency>,
    /// `metrics.md` §10: the capturing tool's own figures in a sampled log (RTSS, NVIDIA
    /// App); null for per-frame captures and logs without them.
    pub tool_figures: Option<ToolFigures>,
    /// The capturing tool's own figures from the summary file it wrote beside the
    /// capture (MangoHud's `NAME_summary.csv`), as it wrote them — never framescope's
    /// (an addition to the contract; absent when there is no such file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_summary: Option<ToolSummary>,
    /// Every telemetry column's mean, min and max.
    pub telemetry: Telemetry,
    /// What the capture says about its system (GPU, CPU, driver, OS, comment…), name →
    /// text in file order (an addition to the contract: `{}` when it says nothing).
    #[serde(serialize_with = "system::serialize")]
    pub system: Vec<(String, String)>,
    /// The file's traces that are not reported (an addition to the contract; absent
    /// when there are none, or with `--trace all`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_traces: Vec<OtherTrace>,
}

/// A file that could not be reported.
#[derive(Debug, Clone, Serialize)]
pub struct FailedRun {
    /// The path as given.
    pub file: String,
    /// What went wrong.
    pub error: ErrorJson,
}

/// The error of a failed run.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorJson {
    /// The message, naming the file.
    pub message: String,
    /// The line to blame, if any.
    pub line: Option<u64>,
}

impl FailedRun {
    /// A failed run from a load error.
    #[must_use]
    pub fn from_load_error(file: &str, err: &LoadError) -> Self {
        Self { file: file.to_owned(), error: ErrorJson { message: err.to_string(), line: err.line } }
    }

    /// A failed run with a message of its own.
    #[must_use]
    pub fn new(file: &str, message: String) -> Self {
        Self { file: file.to_owned(), error: ErrorJson { message, line: None } }
    }
}

/// Builds the run of trace `index` of a capture, with PC latency from `markers` when
/// a PCL Stats marker log is given.
#[must_use]
pub fn run(
    file: &str,
    capture: &Capture,
    index: usize,
    settings: &Settings,
    markers: Option<&MarkerLog>,
) -> Run {
    run_trace(&RunSource::of(file, capture), &capture.traces[index], settings, markers)
}

/// The file a run is of, as its run names it: the name given, what wrote it (format,
/// system facts) and its file-level warnings.
#[derive(Debug, Clone, Copy)]
pub struct RunSource<'a> {
    /// The name of the run's `file`: the path as given.
    pub file: &'a str,
    /// Format and system facts.
    pub info: &'a FileInfo,
    /// File-level warnings (a selection of a trace has none of its own).
    pub warnings: &'a [Warning],
}

impl<'a> RunSource<'a> {
    /// The capture `capture` read from `file`.
    #[must_use]
    pub fn of(file: &'a str, capture: &'a Capture) -> Self {
        Self { file, info: &capture.info, warnings: &capture.warnings }
    }
}

/// Builds the run of one trace (or a slice of one, see [`Trace::slice`]) of a file.
#[must_use]
pub fn run_trace(
    source: &RunSource<'_>,
    trace: &Trace,
    settings: &Settings,
    markers: Option<&MarkerLog>,
) -> Run {
    let prepared = Prepared::for_settings(trace, settings);
    run_prepared(source, trace, settings, markers, &prepared)
}

/// [`run_trace`] with the settings-independent analysis already done (the window
/// keeps it to recompute figures when a threshold moves).
#[must_use]
pub fn run_prepared(
    source: &RunSource<'_>,
    trace: &Trace,
    settings: &Settings,
    markers: Option<&MarkerLog>,
    prepared: &Prepared,
) -> Run {
    let figures = prepared.figures(settings);
    let series = &prepared.series;
    // Every frame of the trace, dropped ones too (as FrameView's summary averages); a
    // sampled log weights each sample by its interval (metrics.md §10).
    let telemetry =
        crate::analysis::telemetry::of(trace, |i| trace.frames.sample_ms.get(i).copied().unwrap_or(1.0));
    let mut warnings = run_warnings(source.warnings, trace, prepared);
    let mut latency = prepared.latency;
    if let Some(log) = markers {
        warnings.extend(marker_latency(&mut latency, log, trace));
    }
    Run {
        file: source.file.to_owned(),
        format: source.info.format.name(),
        format_version: source.info.format_version.clone(),
        application: trace.meta.application.clone(),
        process_id: trace.meta.process_id,
        swap_chain: trace.meta.swap_chain.clone(),
        runtime: trace.meta.runtime.clone(),
        present_modes: trace.meta.present_modes.clone(),
        frame_time: prepared.source.name(),
        sampled: prepared.is_sampled(),
        samples: prepared.sampled.map(|s| s.samples),
        frames: prepared.sampled.map_or(series.len(), |s| s.frames),
        dropped_frames: source.info.dropped_known.then(|| trace.dropped_count()),
        duration_ms: match prepared.sampled {
            Some(s) => Some(s.duration_ms),
            None => (!series.is_empty() && !prepared.is_sampled()).then(|| series.total_ms()),
        },
        warnings,
        summary: prepared.summary,
        pacing: figures.pacing,
        stutters: figures.stutters,
        osc: figures.osc,
        health: figures.health,
        latency: Some(latency),
        limiter: prepared.limiter,
        // Sampled logs: no display times to detect a grid from, no frame types
        // (`metrics.md` §10).
        vsync: if prepared.is_sampled() { None } else { prepared.vsync(trace, settings.refresh_hz) },
        frame_types: if prepared.is_sampled() { None } else { prepared.frame_types },
        // A sampled log has none, but for a MangoHud log MangoHud's own summary figures
        // on its logged frame times (metrics.md §11).
        // A MangoHud 0.6.x log's summary is of its logged `fps` column instead.
        conventions: if prepared.is_sampled() {
            Conventions::mangohud_only(&trace.frames.logged_frame_time_ms, &trace.frames)
        } else {
            prepared.conventions.map(|c| c.with_frameview_power(&telemetry).with_logged_fps(&trace.frames))
        },
        efficiency: prepared.summary.and_then(|s| crate::analysis::efficiency::of(trace, series, s.avg_fps)),
        tool_figures: crate::analysis::tool_figures::of(trace),
        tool_summary: trace.frames.tool_summary.as_ref().map(ToolSummary::of),
        telemetry,
        system: system::facts(source.info),
        other_traces: Vec::new(),
    }
}

/// A run's warnings: the file's and the trace's (in line order), then what the
/// analysis found (no usable frame time, display intervals standing in for present
/// intervals, frame generation the capture does not record).
fn run_warnings(file_warnings: &[Warning], trace: &Trace, prepared: &Prepared) -> Vec<Warning> {
    let series = &prepared.series;
    let mut warnings: Vec<Warning> = file_warnings.iter().chain(&trace.warnings).cloned().collect();
    warnings.sort_by_key(|w| w.line);
    if series.is_empty() {
        let source = prepared.source.name();
        let message = format!("no frame has a usable {source} frame time; figures are not available");
        warnings.push(Warning::file(message).with_kind(WarningKind::NoUsableFrameTime));
    }
    if prepared.source == crate::analysis::FrameTimeSource::Display
        && !series.is_empty()
        && !crate::analysis::has_present_data(trace)
        && !crate::analysis::has_generated_frames(trace)
    {
        warnings.push(Warning::file(
            "no frame has a present interval (frame time 0 or missing on every row): the frame times are \
             the display intervals (--frame-time auto falls back to display; presents has no frames)",
        ));
    }
    if let Some(share) = prepared.alternation {
        let display = crate::analysis::has_display_data(trace);
        let mut message = crate::analysis::framegen::alternation_warning(share, display);
        let cadence = crate::analysis::framegen::cadence(&series.frame_time_ms);
        if let Some((n, share)) = cadence {
            message.push_str(&crate::analysis::framegen::cadence_words(n, share));
        }
        let kind = WarningKind::FrameGenerationNotRecorded { multiplier: cadence.map(|c| c.0) };
        warnings.push(Warning::file(message).with_kind(kind));
    }
    warnings
}

/// Sets the PC latency figures of `latency` from the PCL marker log `log`, and gives
/// the log's warnings and the join's, each marked as the marker log's.
fn marker_latency(latency: &mut Latency, log: &MarkerLog, trace: &Trace) -> Vec<Warning> {
    let pcl = PclLatency::of(log, trace);
    latency.pcl_ms = pcl.pcl_ms;
    latency.i2fs_ms = pcl.i2fs_mean_ms;
    latency.fs2p_ms = pcl.fs2p_mean_ms;
    latency.p2d_ms = pcl.p2d_mean_ms;
    let notes = log.warnings.iter().chain(&pcl.warnings);
    let marker_log = |w: &Warning| format!("PCL marker log: {}", w.message);
    notes.map(|w| Warning { message: marker_log(w), kind: WarningKind::MarkerLog, ..w.clone() }).collect()
}

/// True when a load error means "this file holds no frames" rather than "unreadable".
#[must_use]
pub fn is_no_frames(err: &LoadError) -> bool {
    matches!(err.kind, LoadErrorKind::NoFrames(_))
}
