//! The command line: arguments are parsed into raw form by clap, checked once into
//! typed settings, then handed to the library. Exit status: 0 success, 1 when a file
//! could not be read or held no frames, 2 on bad arguments, 3 when `compare
//! --fail-if-worse` finds a regression.

mod selector;

pub use selector::TraceSelector;

use crate::analysis::{FrameTimeSource, Settings};
use crate::ingest::{self, LoadOptions, Progress};
use crate::model::Warning;
use crate::report::compare::{self, CompareReport, Gate};
use crate::report::{self, FailedRun, Report, RunEntry, SettingsJson};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// framescope: analyse game frame-timing captures.
#[derive(Debug, Parser)]
#[command(name = "framescope", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Captures to open in the window.
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
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the figures of one or more captures (a table, or JSON with --json).
    #[command(after_help = FIGURES_HELP)]
    Report(ReportArgs),
    /// Compare OTHER against BASELINE figure by figure (a table, or JSON with --json);
    /// optionally fail (exit 3) when figures got worse (--fail-if-worse).
    #[command(after_help = FIGURES_HELP)]
    Compare(CompareArgs),
}

/// Where the figures are defined, for `--help`.
const FIGURES_HELP: &str = "Every figure is defined in docs/figures.md of the framescope repository, with how \
it differs from the CapFrameX, FrameView, PresentMon and MangoHud figure of the same name.";

#[derive(Debug, Args)]
struct ReportArgs {
    #[command(flatten)]
    analysis: AnalysisArgs,
    /// Also print each peer tool's own figures (CapFrameX, FrameView, PresentMon,
    /// MangoHud) in the table; the JSON always has them under `conventions`.
    #[arg(long)]
    conventions: bool,
    /// Capture files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Debug, Args)]
struct CompareArgs {
    #[command(flatten)]
    analysis: AnalysisArgs,
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
    /// the limit passes. A figure missing on either side is reported as not comparable
    /// and does not fail the gate. Regressions are printed to stderr and listed in the
    /// JSON as `regressions`. An unknown figure is a bad argument (exit 2).
    #[arg(long, value_name = "SPEC")]
    fail_if_worse: Vec<Gate>,
    /// In the table, show this peer tool's figures (as it computes them) where
    /// framescope's summary would be: capframex, frameview, presentmon or mangohud. The
    /// JSON always has every tool's under `comparison.conventions`.
    #[arg(long, value_name = "TOOL", value_parser = convention)]
    convention: Option<compare::Section>,
    /// The reference capture.
    baseline: PathBuf,
    /// The capture compared against it.
    other: PathBuf,
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
    /// Which trace of a file: default | all | PID | APP | PID:SWAPCHAIN.
    #[arg(long, default_value = "default")]
    trace: TraceSelector,
    /// A PCL Stats marker log recorded with FILE (one FILE only).
    #[arg(long, value_name = "MARKERS")]
    pcl: Option<PathBuf>,
    /// Frequency of QPC timestamps in Hz (default: 10000000; for captures, a clock that
    /// clearly runs at another rate is then measured, while a frequency given here is
    /// always used as given).
    #[arg(long = "qpc-frequency", value_name = "HZ", value_parser = positive)]
    qpc_frequency_hz: Option<f64>,
    /// Print the JSON document instead of a table.
    #[arg(long)]
    json: bool,
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
}

/// Runs the command line and returns the process exit status.
#[must_use]
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        Some(Command::Report(args)) => report_command(&args),
        Some(Command::Compare(args)) => compare_command(&args),
        None => crate::app::run(
            &cli.files,
            &crate::app::WindowOptions { screenshot: cli.screenshot, markers: cli.pcl, compare: cli.compare },
        ),
    }
}

fn report_command(args: &ReportArgs) -> ExitCode {
    let a = &args.analysis;
    if a.pcl.is_some() && args.files.len() != 1 {
        eprintln!("error: --pcl goes with exactly one FILE");
        return ExitCode::from(2);
    }
    let settings = a.settings();
    let opts = LoadOptions { qpc_frequency_hz: a.qpc_frequency_hz };
    let (markers, marker_error) = load_markers(a.pcl.as_deref(), opts.qpc_hz());
    let (mut runs, failed) = build_runs(&args.files, &a.trace, &settings, opts, markers.as_ref());
    warn_marker_error(&mut runs, marker_error.as_deref());
    let failed = failed || marker_error.is_some();
    let report = Report { schema: report::SCHEMA, settings: SettingsJson::from(&settings), runs };
    let mut out = std::io::stdout().lock();
    let written = if a.json {
        serde_json::to_writer_pretty(&mut out, &report)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        report::write_table_with(&report, args.conventions, &mut out)
    };
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write the report: {e}");
        return ExitCode::from(1);
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
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

/// Notes an unreadable marker log in every run it was meant for.
fn warn_marker_error(runs: &mut [RunEntry], marker_error: Option<&str>) {
    if let Some(msg) = marker_error {
        for run in runs {
            if let RunEntry::Run(run) = run {
                run.warnings.push(Warning::file(format!("PCL marker log could not be read: {msg}")));
            }
        }
    }
}

/// `framescope compare`: exit 0, 1 (a file or marker log failed; no comparison when a
/// capture failed), 2 (bad arguments) or 3 (the gate found a regression).
fn compare_command(args: &CompareArgs) -> ExitCode {
    let a = &args.analysis;
    if a.trace == TraceSelector::All {
        eprintln!(
            "error: --trace all does not apply to compare: pick one trace per file \
             (default, PID, APP or PID:SWAPCHAIN)"
        );
        return ExitCode::from(2);
    }
    let gate = Gate { rules: args.fail_if_worse.iter().flat_map(|g| g.rules.iter().copied()).collect() };
    let mut settings = a.settings();
    let opts = LoadOptions { qpc_frequency_hz: a.qpc_frequency_hz };
    let mut failed = false;
    let mut sides = Vec::new();
    for (path, pcl) in [(&args.baseline, &a.pcl), (&args.other, &args.other_pcl)] {
        let (markers, marker_error) = load_markers(pcl.as_deref(), opts.qpc_hz());
        let (loaded, file_failed) = load_files(std::slice::from_ref(path), &a.trace, opts);
        failed |= file_failed || marker_error.is_some();
        sides.push((loaded, markers, marker_error));
    }
    // One frame-time source for every compared run (metrics.md §9).
    let all: Vec<&crate::model::Trace> = sides.iter().flat_map(|(l, ..)| selected_traces(l)).collect();
    let asked = settings.frame_time;
    let resolved = asked.resolve_for(all.iter().copied());
    let mut runs = Vec::new();
    for (loaded, markers, marker_error) in &sides {
        settings.frame_time = resolved;
        let mut file_runs = runs_of(loaded, &settings, markers.as_ref());
        warn_marker_error(&mut file_runs, marker_error.as_deref());
        runs.extend(file_runs);
    }
    settings.frame_time = asked;
    let comparison = match runs.as_slice() {
        [RunEntry::Run(baseline), RunEntry::Run(other)] => Some(compare::compare(baseline, other)),
        _ => None,
    };
    let outcome = comparison.as_ref().filter(|_| !gate.rules.is_empty()).map(|c| gate.check(c));
    if let Some(outcome) = &outcome {
        report_gate(outcome, gate.rules.len());
    }
    let doc = CompareReport {
        report: Report { schema: report::SCHEMA, settings: SettingsJson::from(&settings), runs },
        comparison,
        regressions: outcome.as_ref().map(|o| o.regressions.clone()),
        not_comparable: outcome.as_ref().map(|o| o.not_comparable.clone()),
    };
    let mut out = std::io::stdout().lock();
    let written = if a.json {
        serde_json::to_writer_pretty(&mut out, &doc)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        report::write_table(&doc.report, &mut out).and_then(|()| match &doc.comparison {
            Some(c) => {
                writeln!(out).and_then(|()| compare::write_comparison_table(c, args.convention, &mut out))
            }
            None => writeln!(out, "\nno comparison: a file could not be reported"),
        })
    };
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write the report: {e}");
        return ExitCode::from(1);
    }
    if failed {
        ExitCode::from(1)
    } else if outcome.is_some_and(|o| !o.regressions.is_empty()) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints the gate's findings to stderr.
fn report_gate(outcome: &compare::GateOutcome, rules: usize) {
    for r in &outcome.regressions {
        let relative =
            r.relative.map_or_else(|| "from a baseline of 0".to_owned(), |v| format!("{:+.2} %", v * 100.0));
        eprintln!(
            "regression: {} got worse: {} -> {} ({relative}); limit {}",
            r.figure,
            compare::number(r.baseline),
            compare::number(r.other),
            r.limit
        );
    }
    for n in &outcome.not_comparable {
        let side = if n.missing == "both" { "both runs" } else { n.missing };
        eprintln!("note: {} is not comparable (missing in {side}); it does not fail the gate", n.figure);
    }
    let (failed, skipped) = (outcome.regressions.len(), outcome.not_comparable.len());
    let skipped = if skipped > 0 { format!(", {skipped} not comparable") } else { String::new() };
    eprintln!("fail-if-worse: {failed} of {rules} figures got worse beyond their limit{skipped}");
}

/// A file given on the command line, loaded, with the traces the selector picked; or
/// the failed run that stands for it.
enum Loaded {
    /// The capture and the indices of the selected traces.
    Capture { name: String, capture: Box<crate::model::Capture>, indices: Vec<usize> },
    /// The file could not be read, or the selector matched nothing.
    Failed(RunEntry),
}

/// Loads every file and selects its traces; errors are printed and become failed runs.
/// The flag is true when any file failed.
fn load_files(files: &[PathBuf], selector: &TraceSelector, opts: LoadOptions) -> (Vec<Loaded>, bool) {
    let mut out = Vec::new();
    let mut failed = false;
    for path in files {
        let name = path.display().to_string();
        let capture = match ingest::load_file(path, opts, &Progress::default()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {e}");
                out.push(Loaded::Failed(RunEntry::Failed(FailedRun::from_load_error(&name, &e))));
                failed = true;
                continue;
            }
        };
        match selector.select(&capture) {
            Ok(indices) => out.push(Loaded::Capture { name, capture: Box::new(capture), indices }),
            Err(msg) => {
                eprintln!("error: {name}: {msg}");
                out.push(Loaded::Failed(RunEntry::Failed(FailedRun::new(&name, format!("{name}: {msg}")))));
                failed = true;
            }
        }
    }
    (out, failed)
}

/// The runs of loaded files, in order.
fn runs_of(
    loaded: &[Loaded],
    settings: &Settings,
    markers: Option<&ingest::pcl::MarkerLog>,
) -> Vec<RunEntry> {
    let mut runs = Vec::new();
    for l in loaded {
        match l {
            Loaded::Capture { name, capture, indices } => {
                for &i in indices {
                    runs.push(RunEntry::Run(Box::new(report::run(name, capture, i, settings, markers))));
                }
            }
            Loaded::Failed(entry) => runs.push(entry.clone()),
        }
    }
    runs
}

/// Every selected trace of loaded files.
fn selected_traces(loaded: &[Loaded]) -> Vec<&crate::model::Trace> {
    loaded
        .iter()
        .flat_map(|l| match l {
            Loaded::Capture { capture, indices, .. } => indices.iter().map(|&i| &capture.traces[i]).collect(),
            Loaded::Failed(_) => Vec::new(),
        })
        .collect()
}

fn build_runs(
    files: &[PathBuf],
    selector: &TraceSelector,
    settings: &Settings,
    opts: LoadOptions,
    markers: Option<&ingest::pcl::MarkerLog>,
) -> (Vec<RunEntry>, bool) {
    let (loaded, failed) = load_files(files, selector, opts);
    (runs_of(&loaded, settings, markers), failed)
}
