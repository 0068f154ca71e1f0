//! The command line: arguments are parsed into raw form by clap, checked once into
//! typed settings, then handed to the library. Exit status: 0 success, 1 when a file
//! could not be read or held no frames (or `--strict` / `--max-skipped` failed it), 2
//! on bad arguments, 3 when `compare --fail-if-worse` or `history check` finds a regression.
//!
//! Files are loaded in parallel across cores (`inputs`), analysed, and reported in
//! argument order; `report` streams each file's runs as soon as it and every file
//! before it are done.

/// Prints a message line on stderr with any control character escaped
/// (`report::escape::text`: a file's name or text cannot drive the terminal). Every
/// message the commands print goes through here.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", ::framescope_core::report::text(&format!($($arg)*)))
    };
}

mod args;
mod ci;
mod comparing;
mod following;
mod frames;
mod help;
mod history;
mod history_check;
mod html;
mod inputs;
mod loading;
mod parse;
mod pipeline;
mod recording;
mod reporting;

pub use framescope_core::pipeline::TraceSelector;
pub use inputs::{CAPTURE_EXTENSIONS, ProgressArg};

use crate::launch::{self, WindowOptions, no_display, no_window_message};

use args::{CompareArgs, ReportArgs};
use clap::{Parser, Subcommand};
use framescope_core::report::compare;
use parse::{convention, non_negative};
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
    /// Captures to open in the window (without a display, use `framescope report`);
    /// `-` follows standard input as a live capture (`PresentMon --output_stdout |
    /// framescope -`).
    files: Vec<PathBuf>,
    /// Follow a capture that is still being written (it need not exist yet): one run
    /// that grows as rows arrive; a file truncated or replaced starts the run over. May
    /// repeat.
    #[arg(long, value_name = "FILE")]
    follow: Vec<PathBuf>,
    /// Watch a folder: every capture written into it from now on opens as soon as it
    /// has rows, and grows as it is written (File › Watch folder…).
    #[arg(long, value_name = "DIR")]
    watch: Option<PathBuf>,
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
    /// Track a game across builds: store runs per build and scene (add), find
    /// regressions against earlier builds (check, exit 3), export the history.
    History(history::HistoryArgs),
    /// Record captures of a game with the capturing tool (Linux: MangoHud): launch
    /// COMMAND, capture for --duration seconds (--repeat N times: one set), and write
    /// the tool's own files into -o DIR; prints each capture's path.
    Record(recording::RecordArgs),
}

/// Where the figures are defined, for `-h`.
const FIGURES_HELP: &str = "Every figure is defined in docs/figures.md of the framescope repository, with how \
it differs from the CapFrameX, FrameView, PresentMon and MangoHud figure of the same name. --help says how to \
record a capture with each tool.";

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
        Some(Command::Report(args)) if args.follow => Outcome::Exit(following::follow_command(&args)),
        Some(Command::Report(args)) => Outcome::Exit(reporting::report_command(&args)),
        Some(Command::Compare(args)) => Outcome::Exit(comparing::compare_command(&args)),
        Some(Command::Frames(args)) => Outcome::Exit(frames::frames_command(&args)),
        Some(Command::History(args)) => Outcome::Exit(history::history_command(&args)),
        Some(Command::Record(args)) => Outcome::Exit(recording::record_command(&args)),
        None => {
            let reason = if cfg!(feature = "gui") { no_display() } else { Some(launch::HEADLESS.to_owned()) };
            if let Some(reason) = reason {
                eprintln!("{}", framescope_core::report::lines(&no_window_message(&reason, &cli.files)));
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
                follow: cli.follow,
                watch: cli.watch,
            })
        }
    }
}
