//! The command line: arguments are parsed into raw form by clap, checked once into
//! typed settings, then handed to the library. Exit status: 0 success, 1 when a file
//! could not be read or held no frames, 2 on bad arguments.

mod selector;

pub use selector::TraceSelector;

use crate::analysis::{FrameTimeSource, Settings};
use crate::ingest::{self, LoadOptions, Progress};
use crate::model::Warning;
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
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the figures of one or more captures (a table, or JSON with --json).
    Report(ReportArgs),
}

#[derive(Debug, Args)]
struct ReportArgs {
    #[command(flatten)]
    analysis: AnalysisArgs,
    /// Capture files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Options shared by `report` and `compare`.
#[derive(Debug, Args)]
struct AnalysisArgs {
    /// Target rate for colouring and pacing figures.
    #[arg(long, default_value_t = 60.0, value_parser = positive)]
    target_fps: f64,
    /// Relative stutter threshold, e.g. 0.2.
    #[arg(long, default_value_t = 0.2, value_parser = non_negative)]
    stutter_threshold: f64,
    /// Absolute stutter floor in milliseconds.
    #[arg(long, default_value_t = 4.0, value_parser = non_negative)]
    stutter_floor_ms: f64,
    /// The display's refresh rate for VSYNC markers (detected when not given).
    #[arg(long, value_name = "HZ", value_parser = positive)]
    refresh_hz: Option<f64>,
    /// Frame-time source.
    #[arg(long, value_enum, default_value_t = SourceArg::Presents)]
    frame_time: SourceArg,
    /// Which trace of a file: default | all | PID | APP | PID:SWAPCHAIN.
    #[arg(long, default_value = "default")]
    trace: TraceSelector,
    /// A PCL Stats marker log recorded with FILE (one FILE only).
    #[arg(long, value_name = "MARKERS")]
    pcl: Option<PathBuf>,
    /// Frequency of QPC timestamps in Hz.
    #[arg(long = "qpc-frequency", value_name = "HZ", default_value_t = 10_000_000.0, value_parser = positive)]
    qpc_frequency_hz: f64,
    /// Print the JSON document instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum SourceArg {
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
        None => crate::app::run(&cli.files, cli.screenshot),
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
    let mut marker_error = None;
    let markers = match &a.pcl {
        None => None,
        Some(path) => match ingest::pcl::load_marker_log(path, a.qpc_frequency_hz) {
            Ok(log) => Some(log),
            Err(e) => {
                eprintln!("error: {e}");
                marker_error = Some(e.to_string());
                None
            }
        },
    };
    let (mut runs, failed) = build_runs(&args.files, &a.trace, &settings, opts, markers.as_ref());
    if let Some(msg) = &marker_error {
        for run in &mut runs {
            if let RunEntry::Run(run) = run {
                run.warnings.push(Warning::file(format!("PCL marker log could not be read: {msg}")));
            }
        }
    }
    let failed = failed || marker_error.is_some();
    let report = Report { schema: report::SCHEMA, settings: SettingsJson::from(&settings), runs };
    let mut out = std::io::stdout().lock();
    let written = if a.json {
        serde_json::to_writer_pretty(&mut out, &report)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        report::write_table(&report, &mut out)
    };
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write the report: {e}");
        return ExitCode::from(1);
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// Loads every file and builds its runs; the flag is true when any file failed.
fn build_runs(
    files: &[PathBuf],
    selector: &TraceSelector,
    settings: &Settings,
    opts: LoadOptions,
    markers: Option<&ingest::pcl::MarkerLog>,
) -> (Vec<RunEntry>, bool) {
    let mut runs = Vec::new();
    let mut failed = false;
    for path in files {
        let name = path.display().to_string();
        let capture = match ingest::load_file(path, opts, &Progress::default()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {e}");
                runs.push(RunEntry::Failed(FailedRun::from_load_error(&name, &e)));
                failed = true;
                continue;
            }
        };
        match selector.select(&capture) {
            Ok(indices) => {
                for i in indices {
                    runs.push(RunEntry::Run(Box::new(report::run(&name, &capture, i, settings, markers))));
                }
            }
            Err(msg) => {
                eprintln!("error: {name}: {msg}");
                runs.push(RunEntry::Failed(FailedRun::new(&name, format!("{name}: {msg}"))));
                failed = true;
            }
        }
    }
    (runs, failed)
}
