//! `framescope history add|check|export` (`cli-report.md`, "History and CI outputs";
//! `metrics.md` §14): runs stored per build and scene in a history database
//! (`framescope-history`), judged against the builds before them, exported as a table.
//! Exit 0, 1 on bad input (a file or the database), 2 on bad usage, 3 on a regression.

use super::ci::CiArgs;
use super::parse::fraction;
use clap::{Args, Subcommand, ValueEnum};
use framescope_core::analysis::{Series, Settings, Trim};
use framescope_core::figures::FIGURES;
use framescope_core::ingest::LoadOptions;
use framescope_core::output::Inputs;
use framescope_core::pipeline::{self, Input, Job, Loaded, TraceSelector};
use framescope_core::report::{RunEntry, SettingsJson};
use framescope_history::{Added, NewRun, OpenMode, Place, Sketch, Time};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub(super) struct HistoryArgs {
    #[command(subcommand)]
    command: HistoryCommand,
}

#[derive(Debug, Subcommand)]
enum HistoryCommand {
    /// Store runs of one build: every figure, settings, system, the capture's content
    /// hash and a frame-time sketch (a capture already stored is not added again).
    Add(AddArgs),
    /// Judge a build (default: the newest) against the builds before it, per scene and
    /// figure (docs/figures.md §15): exit 3 on a regression.
    Check(CheckArgs),
    /// Write one self-contained HTML page: per scene, each figure over the builds with
    /// the runs' spread, regressions and change points; hover names the build, commit
    /// and captures, a click compares a build with the one before.
    Report(ReportArgs),
    /// Write one row per stored run (build, scene, commit, branch, time, file, content
    /// hash and every figure) as CSV or Parquet.
    Export(ExportArgs),
}

#[derive(Debug, Args)]
pub(super) struct ReportArgs {
    /// The history: a SQLite file.
    #[arg(value_name = "DB")]
    pub(super) db: String,
    /// The page to write.
    #[arg(long, value_name = "OUT.html")]
    pub(super) html: PathBuf,
    /// The noise band of the regressions marked (as `history check --noise-band`).
    #[arg(long, value_name = "P", default_value = "0.01", value_parser = fraction)]
    pub(super) noise_band: f64,
}

#[derive(Debug, Args)]
struct AddArgs {
    /// The history: a SQLite file (created when missing).
    #[arg(value_name = "DB")]
    db: String,
    /// The build's ID (a version, a CI build number).
    #[arg(long, value_name = "ID")]
    build: String,
    /// The scene (default: each run's application). Several runs of one scene in one
    /// build are a set.
    #[arg(long, value_name = "NAME")]
    scene: Option<String>,
    /// The build's commit.
    #[arg(long, value_name = "SHA")]
    commit: Option<String>,
    /// The build's branch.
    #[arg(long, value_name = "NAME")]
    branch: Option<String>,
    /// When the build was made (ISO 8601, e.g. 2026-11-29T06:30:00Z): builds are ordered
    /// by it when every build has one, else by when they were added.
    #[arg(long, value_name = "ISO8601")]
    time: Option<Time>,
    /// Capture files (folders are walked as by `report`).
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    /// The history: a SQLite file.
    #[arg(value_name = "DB")]
    pub(super) db: String,
    /// The build to judge (default: the newest).
    #[arg(long, value_name = "ID")]
    pub(super) build: Option<String>,
    /// Judge only these figures (comma-separated, as `--fail-if-worse` names them:
    /// summary.avg_fps or avg_fps).
    #[arg(long, value_name = "LIST")]
    pub(super) figures: Option<String>,
    /// A change smaller than this fraction (0.01) or percentage (1%) of the earlier
    /// builds' median is never a regression.
    #[arg(long, value_name = "P", default_value = "0.01", value_parser = fraction)]
    pub(super) noise_band: f64,
    /// Print the verdict as JSON.
    #[arg(long, conflicts_with = "github")]
    pub(super) json: bool,
    #[command(flatten)]
    pub(super) ci: CiArgs,
}

#[derive(Debug, Args)]
pub(super) struct ExportArgs {
    /// The history: a SQLite file.
    #[arg(value_name = "DB")]
    pub(super) db: String,
    /// csv or parquet.
    #[arg(long, value_enum)]
    pub(super) format: ExportFormat,
    /// The file to write.
    #[arg(short, long, value_name = "OUT")]
    pub(super) output: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ExportFormat {
    Csv,
    Parquet,
}

/// `framescope history …`.
pub(super) fn history_command(args: &HistoryArgs) -> ExitCode {
    match &args.command {
        HistoryCommand::Add(a) => add_command(a),
        HistoryCommand::Check(a) => super::history_check::check_command(a),
        HistoryCommand::Report(a) => super::history_check::report_command(a),
        HistoryCommand::Export(a) => super::history_check::export_command(a),
    }
}

/// The database's path, when `db` is a file (not a URL).
pub(super) fn db_path(db: &str) -> Option<&Path> {
    (!db.contains("://")).then(|| Path::new(db))
}

/// `framescope history add`: every file read and analysed (in parallel), then all
/// its runs stored in one transaction; nothing is stored when a file fails.
fn add_command(args: &AddArgs) -> ExitCode {
    let inputs = match pipeline::expand(&args.files) {
        Ok(i) => i,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        say!("error: history add stores files (their content hash names them), not standard input");
        return ExitCode::from(2);
    }
    let files: Vec<PathBuf> =
        inputs.iter().filter_map(|i| if let Input::File(p) = i { Some(p.clone()) } else { None }).collect();
    if let Some(path) = db_path(&args.db)
        && let Err(e) = Inputs::new(files).check("DB", path)
    {
        say!("error: {e}");
        return ExitCode::from(2);
    }
    let place = Place {
        build: args.build.clone(),
        scene: String::new(),
        commit: args.commit.clone(),
        branch: args.branch.clone(),
        time: args.time,
    };
    // Plain worker threads, not rayon's: loading a file blocks on its own rayon
    // pipeline (a rayon worker blocked there deadlocked two large files on two cores).
    let mut runs = Vec::new();
    let mut failed = false;
    pipeline::for_each_ordered(
        &inputs,
        |input| runs_of(input, &place, args.scene.as_deref()),
        |_, read, _| match read {
            Ok(mut r) => runs.append(&mut r),
            Err(e) => {
                say!("error: {e}");
                failed = true;
            }
        },
    );
    if failed {
        say!("error: nothing was added to {}: every file must be read to add a build's runs", args.db);
        return ExitCode::from(1);
    }
    store(&args.db, &runs)
}

/// Stores the runs and says what happened to each.
fn store(db: &str, runs: &[NewRun]) -> ExitCode {
    let added = framescope_history::open(db, OpenMode::Create).and_then(|mut s| s.add(runs));
    match added {
        Ok(added) => {
            for (run, a) in runs.iter().zip(&added) {
                match a {
                    Added::Stored { .. } => println!(
                        "added {} (build {}, scene {})",
                        framescope_core::report::text(&run.file),
                        framescope_core::report::text(&run.place.build),
                        framescope_core::report::text(&run.place.scene)
                    ),
                    Added::AlreadyThere { build, .. } => println!(
                        "already in the history: {} (build {}); not added again",
                        framescope_core::report::text(&run.file),
                        framescope_core::report::text(build)
                    ),
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            say!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// One file's runs to store (the default trace; each with its own frame-time source).
fn runs_of(input: &Input, place: &Place, scene: Option<&str>) -> Result<Vec<NewRun>, String> {
    let Input::File(path) = input else {
        return Err(format!("{}: no capture to add", input.name()));
    };
    let hash = framescope_history::content_hash(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let job = Job { selector: TraceSelector::Default, opts: LoadOptions::default(), trim: Trim::default() };
    let settings = Settings::default();
    let loaded = job.load(input);
    let (entries, errors) = loaded.runs(&settings, None);
    if let Some(e) = errors.first() {
        return Err(e.clone());
    }
    let traces = loaded.traces();
    let settings_json = serde_json::to_value(SettingsJson::from(&settings)).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (entry, trace) in entries.iter().zip(traces) {
        let RunEntry::Run(run) = entry else {
            return Err(format!("{}: no run could be reported", input.name()));
        };
        let series = Series::of(trace, settings.frame_time);
        let figures = FIGURES
            .iter()
            .filter_map(|f| (f.value)(run).filter(|v| v.is_finite()).map(|v| (f.qualified_name(), v)))
            .collect();
        out.push(NewRun {
            place: Place { scene: scene.unwrap_or(&run.application).to_owned(), ..place.clone() },
            file: run.file.clone(),
            content_hash: hash.clone(),
            trace: format!("{} {:?} {:?}", run.application, run.process_id, run.swap_chain),
            application: run.application.clone(),
            format: run.format.to_owned(),
            frames: run.frames as u64,
            figures,
            settings: settings_json.clone(),
            system: serde_json::to_value(&run.system).map_err(|e| e.to_string())?,
            sketch: Sketch::of(&series.frame_time_ms),
        });
    }
    if matches!(loaded, Loaded::Failed(..)) || out.is_empty() {
        return Err(format!("{}: no run could be reported", input.name()));
    }
    Ok(out)
}
