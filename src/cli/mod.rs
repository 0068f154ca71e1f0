//! The command line: arguments are parsed into raw form by clap, checked once into
//! typed settings, then handed to the library. Exit status: 0 success, 1 when a file
//! could not be read or held no frames (or `--strict` / `--max-skipped` failed it), 2
//! on bad arguments, 3 when `compare --fail-if-worse` finds a regression.
//!
//! Files are loaded in parallel across cores (`inputs`), analysed, and reported in
//! argument order; `report` streams each file's runs as soon as it and every file
//! before it are done.

mod comparing;
mod frames;
mod help;
mod inputs;
mod pipeline;

pub use framescope_core::pipeline::TraceSelector;
pub use inputs::{CAPTURE_EXTENSIONS, ProgressArg};

use crate::launch::{self, WindowOptions, no_display, no_window_message};

use clap::{Args, Parser, Subcommand, ValueEnum};
use framescope_core::analysis::{FrameTimeSource, Settings, Trim};
use framescope_core::ingest::{self, ColumnMapping, LoadOptions, MappedRole, TimeUnit};
use framescope_core::model::Warning;
use framescope_core::pipeline::{Job, Loaded, warn_marker_error};
use framescope_core::report::compare::{self, Gate, GateOutcome};
use framescope_core::report::{self, Report, Run, RunEntry};
use inputs::ProgressLine;
use pipeline::{Checks, RowCounts};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// framescope: analyse game frame-timing captures.
#[derive(Debug, Parser)]
#[command(
    name = "framescope",
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = FIGURES_HELP,
    after_long_help = help::FORMATS_AND_CAPTURE
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Captures to open in the window (without a display, use `framescope report`).
    files: Vec<PathBuf>,
    /// Save a PNG of the window once the captures are loaded and analysed, then exit
    /// (exit status 1 when a capture failed to load).
    #[arg(long, value_name = "PNG")]
    screenshot: Option<PathBuf>,
    /// A PCL Stats marker log to attach to the first capture opened in the window.
    #[arg(long, value_name = "MARKERS")]
    pcl: Option<PathBuf>,
    /// Compare the captures side by side in the window, the first as baseline (with no
    /// FILE: the bundled sample pair).
    #[arg(long)]
    compare: bool,
    /// A peer tool's figures in the window (capframex, frameview, presentmon or
    /// mangohud): with --compare the comparison shows that tool's figures instead of
    /// framescope's; otherwise the "As other tools report it" panel opens.
    #[arg(long, value_name = "TOOL", value_parser = convention)]
    convention: Option<compare::Section>,
    /// Leave out the first S seconds of every run opened in the window (the trim for
    /// all runs; a loading screen).
    #[arg(long = "trim-start", value_name = "S", value_parser = non_negative)]
    window_trim_start: Option<f64>,
    /// Leave out the last S seconds of every run opened in the window.
    #[arg(long = "trim-end", value_name = "S", value_parser = non_negative)]
    window_trim_end: Option<f64>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the figures of one or more captures: a table, JSON (--json) or one CSV line
    /// per run (--format csv).
    #[command(after_long_help = help::FORMATS_AND_CAPTURE, after_help = FIGURES_HELP)]
    Report(ReportArgs),
    /// Compare OTHER against BASELINE, or a set of runs against another (A1 A2 --vs B1
    /// B2), figure by figure; optionally fail (exit 3) when figures got worse
    /// (--fail-if-worse).
    #[command(after_long_help = help::COMPARE, after_help = FIGURES_HELP)]
    Compare(CompareArgs),
    /// Write the per-frame table of a capture (CSV or Parquet): times, frame and display
    /// intervals, dropped, frame type, the stutter/spike/oscillation flags, and every
    /// latency and telemetry column.
    #[command(after_help = FIGURES_HELP)]
    Frames(frames::FramesArgs),
}

/// Where the figures are defined, for `-h`.
const FIGURES_HELP: &str = "Every figure is defined in docs/figures.md of the framescope repository, with how \
it differs from the CapFrameX, FrameView, PresentMon and MangoHud figure of the same name. --help says how to \
record a capture with each tool.";

#[derive(Debug, Args)]
struct ReportArgs {
    #[command(flatten)]
    analysis: AnalysisArgs,
    #[command(flatten)]
    checks: CheckArgs,
    /// Also print each peer tool's own figures (CapFrameX, FrameView, PresentMon,
    /// MangoHud) in the table; the JSON always has them under `conventions`.
    #[arg(long)]
    conventions: bool,
    /// Output: table (default), json (as --json), csv (one line per run, one column
    /// per figure named as the JSON keys joined with '.') or parquet (the csv's rows and
    /// columns, typed, written to --output).
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<FormatArg>,
    /// With --format parquet: the file to write.
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// A progress line on stderr: auto (when stderr is a terminal and there is more
    /// than one file), always or never.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto)]
    progress: ProgressArg,
    /// Capture files; a folder is walked for *.csv, *.json and *.hml files; `-` reads
    /// standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Table,
    Json,
    Csv,
    Parquet,
}

#[derive(Debug, Args)]
struct CompareArgs {
    #[command(flatten)]
    analysis: AnalysisArgs,
    #[command(flatten)]
    checks: CheckArgs,
    /// A PCL Stats marker log recorded with OTHER (--pcl goes with BASELINE).
    #[arg(long, value_name = "MARKERS")]
    other_pcl: Option<PathBuf>,
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
    fail_if_worse: Vec<Gate>,
    /// With --fail-if-worse: a gated figure the other run lacks passes (with a note)
    /// instead of failing the gate.
    #[arg(long)]
    allow_missing: bool,
    /// In the table, show this peer tool's figures (as it computes them) where
    /// framescope's summary would be: capframex, frameview, presentmon or mangohud. The
    /// JSON always has every tool's under `comparison.conventions`.
    #[arg(long, value_name = "TOOL", value_parser = convention)]
    convention: Option<compare::Section>,
    /// Sets: a run whose average FPS differs from its set's median by more than this
    /// fraction (0.05) or percentage (5%) is an outlier, left out of the set's figures.
    #[arg(long, value_name = "R", default_value = "0.05", value_parser = fraction)]
    outlier_limit: f64,
    /// A progress line on stderr while the files load: auto, always or never.
    #[arg(long, value_enum, default_value_t = ProgressArg::Auto)]
    progress: ProgressArg,
    /// BASELINE OTHER; or, with --vs, the baseline set A1 A2 … (files or folders).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The other set B1 B2 … (docs/figures.md §12): compare set means with 95 % intervals.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    vs: Vec<PathBuf>,
}

/// Options shared by `report` and `compare`.
#[derive(Debug, Args)]
struct AnalysisArgs {
    /// Target rate for colouring and pacing figures.
    #[arg(long, default_value_t = 60.0, value_parser = positive)]
    target_fps: f64,
    /// Relative stutter threshold: how far above its local median a frame must be,
    /// as a fraction (0.2) or a percentage (20%).
    #[arg(long, default_value_t = 0.2, value_parser = threshold)]
    stutter_threshold: f64,
    /// Absolute stutter floor in milliseconds.
    #[arg(long, default_value_t = 4.0, value_parser = non_negative)]
    stutter_floor_ms: f64,
    /// The display's refresh rate for VSYNC markers (detected when not given).
    #[arg(long, value_name = "HZ", value_parser = positive)]
    refresh_hz: Option<f64>,
    /// Frame-time source: auto (display for traces with generated frames and display
    /// data, else presents), presents or display.
    #[arg(long, value_enum, default_value_t = SourceArg::Auto)]
    frame_time: SourceArg,
    /// Which trace of a file: default | all | PID | APP | PID:SWAPCHAIN (APP matches
    /// the executable name in any case, with or without .exe).
    #[arg(long, default_value = "default")]
    trace: TraceSelector,
    /// Leave out the first S seconds of every run (a loading screen): only frames that
    /// start at least S s after the run's first frame count (docs/figures.md §1).
    #[arg(long, value_name = "S", default_value_t = 0.0, value_parser = non_negative)]
    trim_start: f64,
    /// Leave out the last S seconds of every run: only frames that end at least S s
    /// before the run's last frame ends count.
    #[arg(long, value_name = "S", default_value_t = 0.0, value_parser = non_negative)]
    trim_end: f64,
    /// A PCL Stats marker log recorded with FILE (one FILE only).
    #[arg(long, value_name = "MARKERS")]
    pcl: Option<PathBuf>,
    /// Frequency of QPC timestamps in Hz (default: 10000000; for captures, a clock that
    /// clearly runs at another rate is then measured, while a frequency given here is
    /// always used as given).
    #[arg(long = "qpc-frequency", value_name = "HZ", value_parser = positive)]
    qpc_frequency_hz: Option<f64>,
    /// For a CSV of no known format (docs/figures.md §1): the column of frame times
    /// (frame-time=NAME) or of per-frame timestamps to difference (timestamp=NAME).
    /// Files of a known format ignore it, with a warning (one read as PresentMon only for a frame-time column name, without PresentMon's Application and ProcessID, is read with it).
    #[arg(long, value_name = "ROLE=NAME", value_parser = column_spec)]
    column: Option<(MappedRole, String)>,
    /// Unit of the --column column: s, ms, us or ns.
    #[arg(long, value_name = "UNIT", default_value = "ms", value_parser = time_unit)]
    unit: TimeUnit,
    /// Print the JSON document instead of a table.
    #[arg(long)]
    json: bool,
}

/// Options that make a pipeline fail on doubtful input.
#[derive(Debug, Args)]
struct CheckArgs {
    /// Exit 1 when any run has a warning or any row of a file was skipped.
    #[arg(long)]
    strict: bool,
    /// Exit 1 when a file had more than this fraction (0.05) or percentage (5%) of its
    /// rows skipped as malformed or without a usable frame time.
    #[arg(long, value_name = "R", value_parser = fraction)]
    max_skipped: Option<f64>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum SourceArg {
    Auto,
    Presents,
    Display,
}

fn parse_number(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("'{s}' is not a number"))?;
    if v.is_finite() { Ok(v) } else { Err(format!("'{s}' is not a finite number")) }
}

fn positive(s: &str) -> Result<f64, String> {
    let v = parse_number(s)?;
    if v > 0.0 { Ok(v) } else { Err(format!("must be greater than 0, got {s}")) }
}

fn convention(s: &str) -> Result<compare::Section, String> {
    compare::Section::convention(s)
        .ok_or_else(|| format!("'{s}' is not a peer tool; use capframex, frameview, presentmon or mangohud"))
}

/// A relative threshold: `0.2` or `20%`. A bare number of 1 or more is refused: it
/// reads like a percentage (`--stutter-threshold 50` would silently mean 5000 % and find
/// no stutters), and a threshold at or above 100 % is better written with `%`.
fn threshold(s: &str) -> Result<f64, String> {
    if let Some(pct) = s.trim().strip_suffix('%') {
        let v = non_negative(pct)?;
        return Ok(v / 100.0);
    }
    let v = non_negative(s)?;
    if v >= 1.0 {
        return Err(format!(
            "{s} is a fraction of 1 or more ({:.0} %); did you mean {s}%? Write 0.2 or 20% for 20 %, \
             or {:.0}% if you really mean {:.0} %",
            v * 100.0,
            v * 100.0,
            v * 100.0
        ));
    }
    Ok(v)
}

/// A fraction from 0 to 1: `0.05` or `5%`.
fn fraction(s: &str) -> Result<f64, String> {
    let v = match s.trim().strip_suffix('%') {
        Some(pct) => non_negative(pct)? / 100.0,
        None => non_negative(s)?,
    };
    if v <= 1.0 {
        Ok(v)
    } else {
        Err(format!("{s} is more than 1 (100 %); write a fraction such as 0.05 or 5%"))
    }
}

/// `frame-time=NAME` or `timestamp=NAME`.
fn column_spec(s: &str) -> Result<(MappedRole, String), String> {
    let Some((role, name)) = s.split_once('=') else {
        return Err(format!("'{s}': write frame-time=NAME or timestamp=NAME"));
    };
    let role = match role.trim().to_ascii_lowercase().as_str() {
        "frame-time" | "frametime" | "frame_time" => MappedRole::FrameTime,
        "timestamp" | "time" => MappedRole::Timestamp,
        other => {
            return Err(format!("'{other}' is not a column role; write frame-time=NAME or timestamp=NAME"));
        }
    };
    if name.trim().is_empty() {
        return Err(format!("'{s}' names no column"));
    }
    Ok((role, name.trim().to_owned()))
}

fn time_unit(s: &str) -> Result<TimeUnit, String> {
    TimeUnit::parse(s).ok_or_else(|| format!("'{s}' is not a unit; use s, ms, us or ns"))
}

fn non_negative(s: &str) -> Result<f64, String> {
    let v = parse_number(s)?;
    if v >= 0.0 { Ok(v) } else { Err(format!("must be 0 or more, got {s}")) }
}

impl AnalysisArgs {
    fn settings(&self) -> Settings {
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

    fn trim(&self) -> Trim {
        Trim { start_s: self.trim_start, end_s: self.trim_end }
    }

    fn load_options(&self) -> LoadOptions {
        LoadOptions {
            qpc_frequency_hz: self.qpc_frequency_hz,
            mapping: self.column.as_ref().map(|(role, column)| ColumnMapping {
                role: *role,
                column: column.clone(),
                unit: self.unit,
            }),
        }
    }
}

impl CheckArgs {
    fn checks(&self) -> Checks {
        Checks { strict: self.strict, max_skipped: self.max_skipped }
    }
}

/// What the command line asks for: a command that has run (its exit status), or the
/// window, which `main.rs` opens (the CLI never imports the UI).
#[derive(Debug)]
pub enum Outcome {
    /// A command ran (or the arguments were refused): exit with this status.
    Exit(ExitCode),
    /// Open the window.
    Window(WindowOptions),
}

/// Runs the command line: a command's exit status, or the window to open.
#[must_use]
pub fn run() -> Outcome {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return Outcome::Exit(if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS });
        }
    };
    match cli.command {
        Some(Command::Report(args)) => Outcome::Exit(report_command(&args)),
        Some(Command::Compare(args)) => Outcome::Exit(comparing::compare_command(&args)),
        Some(Command::Frames(args)) => Outcome::Exit(frames::frames_command(&args)),
        None => {
            let reason = if cfg!(feature = "gui") { no_display() } else { Some(launch::HEADLESS.to_owned()) };
            if let Some(reason) = reason {
                eprintln!("{}", no_window_message(&reason, &cli.files));
                return Outcome::Exit(ExitCode::from(1));
            }
            Outcome::Window(WindowOptions {
                files: cli.files,
                screenshot: cli.screenshot,
                markers: cli.pcl,
                compare: cli.compare,
                convention: cli.convention,
                trim: (cli.window_trim_start.is_some() || cli.window_trim_end.is_some())
                    .then(|| (cli.window_trim_start.unwrap_or(0.0), cli.window_trim_end.unwrap_or(0.0))),
            })
        }
    }
}

/// What one file gave: its runs, and what to say on stderr.
struct FileResult {
    entries: Vec<RunEntry>,
    /// Load errors (also in the runs).
    errors: Vec<String>,
    /// `--strict` / `--max-skipped` failures.
    failures: Vec<String>,
    /// Notes that do not fail.
    notes: Vec<String>,
}

impl FileResult {
    fn of(loaded: &Loaded, entries: Vec<RunEntry>, errors: Vec<String>, checks: Checks) -> Self {
        let (failures, notes) = match loaded.name() {
            Some(name) => {
                let runs: Vec<&Run> = entries
                    .iter()
                    .filter_map(|e| match e {
                        RunEntry::Run(r) => Some(&**r),
                        RunEntry::Failed(_) => None,
                    })
                    .collect();
                let rows = loaded.capture().map(RowCounts::of).unwrap_or_default();
                checks.check(name, rows, &runs)
            }
            None => (Vec::new(), Vec::new()),
        };
        Self { entries, errors, failures, notes }
    }

    /// Prints to stderr: load errors when `echo_errors` (a table on a terminal already
    /// shows them), failures and notes always.
    fn print(&self, echo_errors: bool) {
        if echo_errors {
            for e in &self.errors {
                eprintln!("error: {e}");
            }
        }
        for f in &self.failures {
            eprintln!("error: {f}");
        }
        for n in &self.notes {
            eprintln!("warning: {n}");
        }
    }

    fn failed(&self) -> bool {
        !self.errors.is_empty() || !self.failures.is_empty()
    }
}

/// Load errors go to stderr, except when the table on a terminal already shows them
/// (both streams end up on one screen: the same error twice).
fn echo_errors(table: bool) -> bool {
    !(table && std::io::stdout().is_terminal())
}

fn report_command(args: &ReportArgs) -> ExitCode {
    let a = &args.analysis;
    let format = match (args.format, a.json) {
        (Some(FormatArg::Table | FormatArg::Csv | FormatArg::Parquet), true) => {
            eprintln!("error: --json and --format table|csv|parquet contradict each other; give one");
            return ExitCode::from(2);
        }
        (Some(f), _) => f,
        (None, true) => FormatArg::Json,
        (None, false) => FormatArg::Table,
    };
    if (format == FormatArg::Parquet) != args.output.is_some() {
        eprintln!(
            "error: --format parquet writes to a file given with --output PATH (and --output goes with it only)"
        );
        return ExitCode::from(2);
    }
    let inputs = match inputs::expand(&args.files) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if a.pcl.is_some() && inputs.len() != 1 {
        eprintln!("error: --pcl goes with exactly one FILE");
        return ExitCode::from(2);
    }
    let settings = a.settings();
    let job = Job { selector: a.trace.clone(), opts: a.load_options(), trim: a.trim() };
    let (markers, marker_error) = load_markers(a.pcl.as_deref(), job.opts.qpc_hz());
    let settings_json = job.settings_json(&settings);
    let echo = echo_errors(format == FormatArg::Table);
    let checks = args.checks.checks();
    let progress = ProgressLine::new(args.progress, inputs.len());

    let mut out = std::io::stdout().lock();
    let mut written: std::io::Result<()> = Ok(());
    let mut csv_sink = None;
    match format {
        FormatArg::Csv => match report::batch::CsvSink::new(std::io::stdout().lock()) {
            Ok(sink) => csv_sink = Some(sink),
            Err(e) => written = Err(e),
        },
        FormatArg::Table => written = report::write_settings(&settings_json, &mut out),
        FormatArg::Json | FormatArg::Parquet => {}
    }
    let mut all_runs = Vec::new();
    let (mut failed, mut failed_files) = (marker_error.is_some(), 0);
    inputs::for_each_ordered(
        &inputs,
        |input| {
            let loaded = job.load(input);
            let (mut entries, errors) = loaded.runs(&settings, markers.as_ref());
            warn_marker_error(&mut entries, marker_error.as_deref());
            FileResult::of(&loaded, entries, errors, checks)
        },
        |_, result, finished| {
            progress.clear();
            result.print(echo);
            if result.failed() {
                failed = true;
                failed_files += 1;
            }
            // The file's output is written (and flushed) before the progress line comes
            // back, so on a terminal the two never share a line.
            if written.is_ok() {
                written = match (&mut csv_sink, format) {
                    (Some(sink), _) => sink.write(&result.entries),
                    (None, FormatArg::Table) => result
                        .entries
                        .iter()
                        .try_for_each(|e| report::write_entry(e, args.conventions, &mut out))
                        .and_then(|()| out.flush()),
                    _ => {
                        all_runs.extend(result.entries);
                        Ok(())
                    }
                };
            }
            progress.update(finished, failed_files);
        },
    );
    progress.finish();
    drop(csv_sink);
    if format == FormatArg::Json && written.is_ok() {
        let report = Report { schema: report::SCHEMA, settings: settings_json, runs: all_runs };
        written = write_json(&report, &mut out);
    } else if let (FormatArg::Parquet, Some(path), Ok(())) = (format, &args.output, &written)
        && let Err(e) = frames::write_parquet(&report::batch::table(&all_runs), path)
    {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    finish(written, failed, false)
}

fn write_json(doc: &impl serde::Serialize, out: &mut impl Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, doc).map_err(std::io::Error::from).and_then(|()| writeln!(out))
}

/// The exit status once output is written: 1 when writing failed (other than a closed
/// pipe) or a file failed, 3 when the gate failed, else 0.
fn finish(written: std::io::Result<()>, failed: bool, gate_failed: bool) -> ExitCode {
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write the report: {e}");
        return ExitCode::from(1);
    }
    if failed {
        ExitCode::from(1)
    } else if gate_failed {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// Loads a PCL marker log when one is given; the message when it cannot be read.
fn load_markers(
    path: Option<&std::path::Path>,
    qpc_frequency_hz: f64,
) -> (Option<ingest::pcl::MarkerLog>, Option<String>) {
    match path.map(|p| ingest::pcl::load_marker_log(p, qpc_frequency_hz)) {
        None => (None, None),
        Some(Ok(log)) => (Some(log), None),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            (None, Some(e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions() {
        assert_eq!(fraction("5%"), Ok(0.05));
        assert_eq!(fraction("0.1"), Ok(0.1));
        assert!(fraction("2").is_err() && fraction("-1").is_err());
    }
}
