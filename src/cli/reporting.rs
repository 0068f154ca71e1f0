//! `framescope report`: every file loaded in parallel, reported in argument order as a
//! table, JSON or CSV; and the output and exit-status helpers `compare` shares.

use super::args::{AnalysisArgs, FormatArg, ReportArgs};
use super::html;
use super::inputs::{self, ProgressLine};
use super::loading::{FileResult, Job, echo_errors, etl_entry};
use framescope_core::ingest;
use framescope_core::model::Warning;
use framescope_core::report::{self, Report, RunEntry, SettingsJson};
use std::io::Write;
use std::process::ExitCode;

/// `framescope report`: exit 0, 1 (a file or marker log failed, or a check) or 2 (bad
/// arguments).
pub(super) fn report_command(args: &ReportArgs) -> ExitCode {
    let a = &args.analysis;
    let (format, inputs) = match checked_arguments(args) {
        Ok(checked) => checked,
        Err(code) => return code,
    };
    let settings = a.settings();
    let job = Job { selector: a.trace.clone(), opts: report_load_options(a), trim: a.trim() };
    let (markers, marker_error) = load_markers(a.pcl.as_deref(), job.opts.qpc_hz());
    let settings_json = SettingsJson::from(&settings).with_trim(job.trim);
    let echo = echo_errors(format == FormatArg::Table);
    let checks = args.checks.checks();
    let progress = ProgressLine::new(args.progress, inputs.len());

    let mut out = report::Terminal::new(std::io::stdout().lock(), format == FormatArg::Json);
    let (mut csv_sink, mut written) = start_output(format, &settings_json, &mut out);
    let mut all_runs = Vec::new();
    let (mut page_runs, mut pages) = (Vec::new(), Vec::new());
    let (mut failed, mut failed_files) = (marker_error.is_some(), 0);
    inputs::for_each_ordered(
        &inputs,
        |input| {
            if let Some(result) = etl_entry(input, checks) {
                return (result, Vec::new());
            }
            let loaded = job.load(input);
            let (mut entries, errors) = loaded.runs(&settings, markers.as_ref());
            warn_marker_error(&mut entries, marker_error.as_deref());
            let page = html::pages(a.html.is_some(), &loaded, &entries, &settings);
            (FileResult::of(&loaded, entries, errors, checks), page)
        },
        |_, (result, page), finished| {
            if a.html.is_some() {
                page_runs.extend(result.entries.iter().cloned());
                pages.extend(page);
                framescope_core::html::limit_raw_frames(&mut pages);
            }
            progress.clear();
            result.print(echo);
            if result.failed() {
                failed = true;
                failed_files += 1;
            }
            // The file's output is written (and flushed) before the progress line comes
            // back, so on a terminal the two never share a line.
            if written.is_ok() {
                let sink = csv_sink.as_mut();
                written = write_runs(
                    result.entries,
                    sink,
                    (format, echo),
                    args.conventions,
                    &mut out,
                    &mut all_runs,
                );
            }
            progress.update(finished, failed_files);
        },
    );
    progress.finish();
    drop(csv_sink);
    if let Some(path) = &a.html {
        let report = Report { schema: report::SCHEMA, settings: settings_json.clone(), runs: page_runs };
        failed |= !html::write_report(path, &report, pages);
    }
    if written.is_ok() {
        match write_collected(format, args.output.as_deref(), settings_json, all_runs, &mut out) {
            Ok(w) => written = w,
            Err(code) => return code,
        }
    }
    finish(written, failed, false)
}

/// The CSV writer of `report`, on stdout.
type CsvOut = report::CsvSink<std::io::StdoutLock<'static>>;

/// Starts `report`'s output on stdout before any file is read: the CSV writer (which
/// writes the header), or the table's settings line. JSON and Parquet start once every
/// file is read. A failed start is the write result that stops all later writing.
fn start_output(
    format: FormatArg,
    settings: &SettingsJson,
    out: &mut impl Write,
) -> (Option<CsvOut>, std::io::Result<()>) {
    match format {
        FormatArg::Csv => match report::CsvSink::new(std::io::stdout().lock()) {
            Ok(sink) => (Some(sink), Ok(())),
            Err(e) => (None, Err(e)),
        },
        FormatArg::Table => (None, report::write_settings(settings, out)),
        FormatArg::Json | FormatArg::Parquet => (None, Ok(())),
    }
}

/// Writes one file's runs as soon as it is read: CSV rows, or table sections (flushed,
/// so the progress line never shares a line with them). JSON and Parquet keep them in
/// `collected`, for the document written at the end.
/// `(format, echoed)`: a table leaves out the failed files whose errors went to stderr
/// (`echoed`: stdout is not a terminal), so that each error is printed once.
fn write_runs(
    entries: Vec<RunEntry>,
    csv_sink: Option<&mut CsvOut>,
    (format, echoed): (FormatArg, bool),
    conventions: bool,
    out: &mut impl Write,
    collected: &mut Vec<RunEntry>,
) -> std::io::Result<()> {
    match (csv_sink, format) {
        (Some(sink), _) => sink.write(&entries),
        (None, FormatArg::Table) => entries
            .iter()
            .filter(|e| !(echoed && matches!(e, RunEntry::Failed(_))))
            .try_for_each(|e| report::write_entry(e, conventions, out))
            .and_then(|()| out.flush()),
        _ => {
            collected.extend(entries);
            Ok(())
        }
    }
}

/// How `report` reads its files: only what the figures read, unless it writes the HTML
/// report too, which shows every column.
fn report_load_options(a: &AnalysisArgs) -> ingest::LoadOptions {
    ingest::LoadOptions { figures_only: a.html.is_none(), ..a.load_options() }
}

/// Writes what `report` collects until every file is read: the JSON document on
/// stdout, or the Parquet table of runs to `output` (exit 1 when it cannot be written).
fn write_collected(
    format: FormatArg,
    output: Option<&std::path::Path>,
    settings: SettingsJson,
    runs: Vec<RunEntry>,
    out: &mut impl Write,
) -> Result<std::io::Result<()>, ExitCode> {
    match (format, output) {
        (FormatArg::Json, _) => Ok(write_json(&Report { schema: report::SCHEMA, settings, runs }, out)),
        (FormatArg::Parquet, Some(path)) => {
            match super::frames::write_parquet(&report::batch_table(&runs), path) {
                Ok(()) => Ok(Ok(())),
                Err(e) => {
                    say!("error: {e}");
                    Err(ExitCode::from(1))
                }
            }
        }
        _ => Ok(Ok(())),
    }
}

/// The output format and the inputs of `report`, or exit 2 with the message on
/// stderr: `--json` against another format, `--format parquet` without `--output`
/// (or `--output` without it), a folder that cannot be listed, `--pcl` with several
/// files, an output that is an input.
fn checked_arguments(args: &ReportArgs) -> Result<(FormatArg, Vec<inputs::Input>), ExitCode> {
    let a = &args.analysis;
    let format = output_format(args)?;
    if (format == FormatArg::Parquet) != args.output.is_some() {
        say!(
            "error: --format parquet writes to a file given with --output PATH (and --output goes with it only)"
        );
        return Err(ExitCode::from(2));
    }
    let inputs = match inputs::expand(&args.files) {
        Ok(i) => i,
        Err(e) => {
            say!("error: {e}");
            return Err(ExitCode::from(2));
        }
    };
    if a.pcl.is_some() && inputs.len() != 1 {
        say!("error: --pcl goes with exactly one FILE");
        return Err(ExitCode::from(2));
    }
    inputs::check_outputs(
        &inputs,
        &[a.pcl.as_deref()],
        &[("--html", a.html.as_deref()), ("--output", args.output.as_deref())],
    )?;
    Ok((format, inputs))
}

/// The output format `report` was asked for, or exit 2 (with the message on stderr)
/// for `--json` against another format.
pub(super) fn output_format(args: &ReportArgs) -> Result<FormatArg, ExitCode> {
    match (args.format, args.analysis.json) {
        (Some(FormatArg::Table | FormatArg::Csv | FormatArg::Parquet), true) => {
            say!("error: --json and --format table|csv|parquet contradict each other; give one");
            Err(ExitCode::from(2))
        }
        (Some(f), _) => Ok(f),
        (None, true) => Ok(FormatArg::Json),
        (None, false) => Ok(FormatArg::Table),
    }
}

/// Writes a document as pretty JSON and a newline.
pub(super) fn write_json(doc: &impl serde::Serialize, out: &mut impl Write) -> std::io::Result<()> {
    // serde writes a pretty document in pieces of a few bytes: gathered here, `out`
    // (the terminal's escaping, then stdout, which writes line by line) gets a few
    // large writes, not one system call per line.
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, &mut *out);
    serde_json::to_writer_pretty(&mut buffered, doc).map_err(std::io::Error::from)?;
    writeln!(buffered)?;
    buffered.flush()?;
    drop(buffered);
    out.flush()
}

/// The exit status once output is written: 1 when writing failed (other than a closed
/// pipe) or a file failed, 3 when the gate failed, else 0.
pub(super) fn finish(written: std::io::Result<()>, failed: bool, gate_failed: bool) -> ExitCode {
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        say!("error: cannot write the report: {e}");
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
pub(super) fn load_markers(
    path: Option<&std::path::Path>,
    qpc_frequency_hz: f64,
) -> (Option<ingest::MarkerLog>, Option<String>) {
    match path.map(|p| ingest::load_marker_log(p, qpc_frequency_hz)) {
        None => (None, None),
        Some(Ok(log)) => (Some(log), None),
        Some(Err(e)) => {
            say!("error: {e}");
            (None, Some(e.to_string()))
        }
    }
}

/// Notes an unreadable marker log in every run it was meant for.
pub(super) fn warn_marker_error(runs: &mut [RunEntry], marker_error: Option<&str>) {
    if let Some(msg) = marker_error {
        for run in runs {
            if let RunEntry::Run(run) = run {
                run.warnings.push(
                    Warning::file(format!("PCL marker log could not be read: {msg}"))
                        .with_kind(framescope_core::model::WarningKind::MarkerLog),
                );
            }
        }
    }
}
