//! `framescope frames FILE`: the per-frame table of a capture's reported trace(s)
//! (`framescope_core::pipeline::frames`) as CSV or Parquet; and the Parquet writing
//! `report --format parquet` shares.

use super::args::AnalysisArgs;
use clap::{Args, ValueEnum};
use framescope_core::pipeline::FrameTable;
use framescope_core::pipeline::{Input, Job};
use framescope_core::report::TableChunks;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `framescope frames`.
#[derive(Debug, Args)]
pub(super) struct FramesArgs {
    #[command(flatten)]
    analysis: AnalysisArgs,
    /// Output: csv or parquet (default: parquet when --output ends in .parquet, else csv).
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<TableFormat>,
    /// The file to write (default: standard output, CSV only).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// The capture (`-` reads standard input).
    file: PathBuf,
}

/// The formats of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum TableFormat {
    Csv,
    Parquet,
}

impl TableFormat {
    /// The format asked for, else the one `output`'s extension names, else CSV.
    fn pick(asked: Option<Self>, output: Option<&Path>) -> Self {
        let parquet_name =
            output.and_then(Path::extension).is_some_and(|e| e.eq_ignore_ascii_case("parquet"));
        asked.unwrap_or(if parquet_name { Self::Parquet } else { Self::Csv })
    }
}

/// `framescope frames`: exit 0, 1 (the file could not be read or written) or 2 (bad
/// arguments).
pub(super) fn frames_command(args: &FramesArgs) -> ExitCode {
    let a = &args.analysis;
    if a.json || a.pcl.is_some() {
        say!("error: frames writes a table (--format csv|parquet); --json and --pcl do not apply");
        return ExitCode::from(2);
    }
    let format = TableFormat::pick(args.format, args.output.as_deref());
    if format == TableFormat::Parquet && args.output.is_none() {
        say!("error: Parquet is written to a file: give --output PATH");
        return ExitCode::from(2);
    }
    if args.file.is_dir() {
        say!("error: frames reads one capture file, not a folder");
        return ExitCode::from(2);
    }
    let input = if args.file.as_os_str() == "-" { Input::Stdin } else { Input::File(args.file.clone()) };
    if let Err(code) = super::inputs::check_outputs(
        std::slice::from_ref(&input),
        &[],
        &[("--output", args.output.as_deref())],
    ) {
        return code;
    }
    let job = Job { selector: a.trace.clone(), opts: a.load_options(), trim: a.trim() };
    let loaded = job.load(&input);
    let table = match FrameTable::new(&loaded, &a.settings()) {
        Ok(t) => t,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let written = match (format, &args.output) {
        (TableFormat::Parquet, Some(path)) => write_parquet(&table, path),
        (_, Some(path)) => framescope_core::output::write_file(path, |out| table.write_csv(out))
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        // A reader that stops early (`| head`) is no failure.
        (_, None) => match table.write_csv(std::io::stdout().lock()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(format!("cannot write the table: {e}"))
            }
            _ => Ok(()),
        },
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Writes a table as a Parquet file at `path` (a chunk of rows at a time).
#[cfg(feature = "parquet")]
pub(super) fn write_parquet(table: &impl TableChunks, path: &Path) -> Result<(), String> {
    framescope_core::output::write_file(path, |out| {
        framescope_parquet::write(table, out).map_err(std::io::Error::other)
    })
    .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Without the `parquet` feature: the message that says so.
#[cfg(not(feature = "parquet"))]
pub(super) fn write_parquet(_: &impl TableChunks, _: &Path) -> Result<(), String> {
    Err("this framescope was built without Parquet support (cargo feature `parquet`); use --format csv"
        .into())
}
