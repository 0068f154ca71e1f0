//! The command line's arguments as clap reads them (`report`, `compare` and the
//! options they share), and how they become the library's settings.

use super::parse::{
    column_spec, convention, extra_column, fraction, non_negative, positive, threshold, time_unit,
};
use super::pipeline::Checks;
use super::{ProgressArg, TraceSelector};
use clap::{Args, ValueEnum};
use framescope_core::analysis::{FrameTimeSource, Settings, Trim};
use framescope_core::ingest::{ColumnMapping, LoadOptions, MappedRole, TimeUnit};
use framescope_core::report::compare::{self, Gate};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct ReportArgs {
    #[command(flatten)]
    pub(super) analysis: AnalysisArgs,
    #[command(flatten)]
    pub(super) checks: CheckArgs,
    /// Also print each peer tool's own figures (CapFrameX, FrameView, PresentMon,
    /// MangoHud) in the table; the JSON always has them under `conventions`.
    #[arg(long)]
    pub(super) conventions: bool,
    /// Output: table (default), json (as --json), csv (one line per run, one column
    /// per figure named as the JSON keys joined with '.') or parquet (the csv's rows and
    /// columns, typed, written to --output).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(super) format: Option<FormatArg>,
    /// With --format parquet: the file to write.
    #[arg(short, long, value_name = "PATH")]
    pub(super) output: Option<PathBuf>,
    /// A progress line on stderr: auto (when stderr is a terminal and there is more
    /// than one file), always or never.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto)]
    pub(super) progress: ProgressArg,
    /// Follow one capture that is still being written (FILE, or `-` for standard
    /// input, e.g. `PresentMon --output_stdout | framescope report --follow -`): a line
    /// of running figures on stderr every second, then the final report of what was
    /// read once interrupted (Ctrl-C), at the end of standard input, or after
    /// --stop-after-idle.
    #[arg(long)]
    pub(super) follow: bool,
    /// With --follow: stop once the file has not grown for S seconds (default: never).
    #[arg(long, value_name = "S", value_parser = positive, requires = "follow")]
    pub(super) stop_after_idle: Option<f64>,
    /// Capture files; a folder is walked for *.csv, *.json, *.hml, Perfetto traces and
    /// Android dumps; `-` reads standard input.
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum FormatArg {
    Table,
    Json,
    Csv,
    Parquet,
}

#[derive(Debug, Args)]
pub(super) struct CompareArgs {
    #[command(flatten)]
    pub(super) analysis: AnalysisArgs,
    #[command(flatten)]
    pub(super) checks: CheckArgs,
    /// A PCL Stats marker log recorded with OTHER (--pcl goes with BASELINE).
    #[arg(long, value_name = "MARKERS")]
    pub(super) other_pcl: Option<PathBuf>,
    /// Regression gate: exit 3 when a listed figure got worse by more than its limit,
    /// e.g. avg_fps=3%,steady_fps=5%,p99_ms=5%,stutters.count=2
    ///
    /// SPEC is FIGURE=LIMIT[,FIGURE=LIMIT...] (the option may repeat). FIGURE is a name
    /// of the `comparison` JSON as section.name (summary.avg_fps, stutters.count), or the
    /// bare name when only one section has it (avg_fps). LIMIT `N%` is relative: the
    /// figure may get worse by at most N % of the baseline's value (with a baseline of
    /// 0, any worsening fails). A unit-less LIMIT `N` is absolute, in the figure's own
    /// unit (FPS, ms, frames, or a 0..1 fraction): stutters.count=2 allows two more
    /// stutters. "Worse" means lower FPS; higher frame times,
    /// latencies, stutters, slow/excess time, drops, oscillation; a change exactly at
    /// the limit passes. With sets (--vs), only a significant change (its 95 % interval
    /// excludes 0) can fail. A figure the other run (set) lacks fails too, unless
    /// --allow-missing; one only the baseline lacks is noted and passes. Regressions are
    /// printed to stderr and listed in the JSON as `regressions`. An unknown figure is a
    /// bad argument (exit 2).
    #[arg(long, value_name = "SPEC")]
    pub(super) fail_if_worse: Vec<Gate>,
    /// With --fail-if-worse: a gated figure the other run lacks passes (with a note)
    /// instead of failing the gate.
    #[arg(long)]
    pub(super) allow_missing: bool,
    /// In the table, show this peer tool's figures (as it computes them) where
    /// framescope's summary would be: capframex, frameview, presentmon or mangohud. The
    /// JSON always has every tool's under `comparison.conventions`.
    #[arg(long, value_name = "TOOL", value_parser = convention)]
    pub(super) convention: Option<compare::Section>,
    /// Sets: a run whose average FPS differs from its set's median by more than this
    /// fraction (0.05) or percentage (5%) is an outlier, left out of the set's figures.
    #[arg(long, value_name = "R", default_value = "0.05", value_parser = fraction)]
    pub(super) outlier_limit: f64,
    /// Two runs: a figure whose relative change is below this fraction (0.01) or
    /// percentage (1%) is noise — neither better nor worse (`better` null in the JSON,
    /// "noise" in the table), as the window's noise band (the same default). The gate
    /// keeps its own limits; sets are judged by their 95 % intervals instead.
    #[arg(long, value_name = "R", default_value = "0.01", value_parser = fraction)]
    pub(super) noise_band: f64,
    /// A progress line on stderr while the files load: auto, always or never.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto)]
    pub(super) progress: ProgressArg,
    /// BASELINE OTHER; or, with --vs, the baseline set A1 A2 … (files or folders).
    #[arg(required = true, value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// The other set B1 B2 … (docs/figures.md §12): compare set means with 95 % intervals.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub(super) vs: Vec<PathBuf>,
    /// With --fail-if-worse: the gate's verdict for CI (JUnit, GitHub, Markdown).
    #[command(flatten)]
    pub(super) ci: super::ci::CiArgs,
}

/// Options shared by `report` and `compare`.
#[derive(Debug, Args)]
pub(super) struct AnalysisArgs {
    /// Target rate for colouring and pacing figures.
    #[arg(long, default_value_t = 60.0, value_parser = positive)]
    pub(super) target_fps: f64,
    /// Relative stutter threshold: how far above its local median a frame must be,
    /// as a fraction (0.2) or a percentage (20%).
    #[arg(long, default_value_t = 0.2, value_parser = threshold)]
    pub(super) stutter_threshold: f64,
    /// Absolute stutter floor in milliseconds.
    #[arg(long, default_value_t = 4.0, value_parser = non_negative)]
    pub(super) stutter_floor_ms: f64,
    /// The display's refresh rate for VSYNC markers (detected when not given).
    #[arg(long, value_name = "HZ", value_parser = positive)]
    pub(super) refresh_hz: Option<f64>,
    /// Frame-time source: auto (display for traces with generated frames and display
    /// data, else presents), presents or display.
    #[arg(long, value_enum, default_value_t = SourceArg::Auto)]
    pub(super) frame_time: SourceArg,
    /// Which trace of a file: default | all | PID | APP | PID:SWAPCHAIN (APP matches
    /// the executable name in any case, with or without .exe).
    #[arg(long, default_value = "default")]
    pub(super) trace: TraceSelector,
    /// Leave out the first S seconds of every run (a loading screen): only frames that
    /// start at least S s after the run's first frame count (docs/figures.md §1).
    #[arg(long, value_name = "S", default_value_t = 0.0, value_parser = non_negative)]
    pub(super) trim_start: f64,
    /// Leave out the last S seconds of every run: only frames that end at least S s
    /// before the run's last frame ends count.
    #[arg(long, value_name = "S", default_value_t = 0.0, value_parser = non_negative)]
    pub(super) trim_end: f64,
    /// A PCL Stats marker log recorded with FILE (one FILE only).
    #[arg(long, value_name = "MARKERS")]
    pub(super) pcl: Option<PathBuf>,
    /// Frequency of QPC timestamps in Hz (default: 10000000; for captures, a clock that
    /// clearly runs at another rate is then measured, while a frequency given here is
    /// always used as given).
    #[arg(long = "qpc-frequency", value_name = "HZ", value_parser = positive)]
    pub(super) qpc_frequency_hz: Option<f64>,
    /// For a CSV of no known format (docs/figures.md §1): the column of frame times
    /// (frame-time=NAME) or of per-frame timestamps to difference (timestamp=NAME).
    /// Files of a known format ignore it, with a warning (one read as PresentMon only for a frame-time column name, without PresentMon's Application and ProcessID, is read with it).
    #[arg(long, value_name = "ROLE=NAME", value_parser = column_spec)]
    pub(super) column: Option<(MappedRole, String)>,
    /// With --column: a further column of the CSV and what it holds (gpu-time=NAME,
    /// cpu-time=NAME, pc-latency=NAME or telemetry=NAME; repeatable), read as the run's
    /// GPU busy, CPU busy, PC latency or telemetry column; a time column's unit is read
    /// from its name (`_us`, `(ns)`, … else ms).
    #[arg(long = "extra-column", value_name = "ROLE=NAME", value_parser = extra_column, requires = "column")]
    pub(super) extra_columns: Vec<framescope_core::ingest::ExtraColumn>,
    /// Unit of the --column column: s, ms, us or ns.
    #[arg(long, value_name = "UNIT", default_value = "ms", value_parser = time_unit)]
    pub(super) unit: TimeUnit,
    /// Print the JSON document instead of a table.
    #[arg(long)]
    pub(super) json: bool,
    /// Also write the document as one self-contained HTML page (figures, comparison,
    /// interactive timeline and charts; no network needed to open it).
    #[arg(long, value_name = "OUT.html")]
    pub(super) html: Option<PathBuf>,
}

/// Options that make a pipeline fail on doubtful input.
#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    /// Exit 1 when any run has a warning or any row of a file was skipped.
    #[arg(long)]
    pub(super) strict: bool,
    /// Exit 1 when a file had more than this fraction (0.05) or percentage (5%) of its
    /// rows skipped as malformed or without a usable frame time.
    #[arg(long, value_name = "R", value_parser = fraction)]
    pub(super) max_skipped: Option<f64>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum SourceArg {
    Auto,
    Presents,
    Display,
}

impl AnalysisArgs {
    /// The analysis settings the options give.
    pub(super) fn settings(&self) -> Settings {
        Settings {
            target_fps: self.target_fps,
            stutter_threshold: self.stutter_threshold,
            stutter_floor_ms: self.stutter_floor_ms,
            refresh_hz: self.refresh_hz,
            frame_time: match self.frame_time {
                SourceArg::Auto => FrameTimeSource::Auto,
                SourceArg::Presents => FrameTimeSource::Presents,
                SourceArg::Display => FrameTimeSource::Display,
            },
        }
    }

    /// The trim every run is cut with.
    pub(super) fn trim(&self) -> Trim {
        Trim { start_s: self.trim_start, end_s: self.trim_end }
    }

    /// How every file is read (QPC frequency, a generic CSV's column mapping).
    pub(super) fn load_options(&self) -> LoadOptions {
        LoadOptions {
            qpc_frequency_hz: self.qpc_frequency_hz,
            mapping: self.column.as_ref().map(|(role, column)| ColumnMapping {
                role: *role,
                column: column.clone(),
                unit: self.unit,
                extra: self.extra_columns.clone(),
            }),
            figures_only: false,
        }
    }
}

impl CheckArgs {
    /// The checks that fail a pipeline on doubtful input.
    pub(super) fn checks(&self) -> Checks {
        Checks { strict: self.strict, max_skipped: self.max_skipped }
    }
}
