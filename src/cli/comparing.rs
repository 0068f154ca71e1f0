//! `framescope compare`: two runs (`metrics.md` §9) or two sets of runs (§12), loaded
//! in parallel with one frame-time source, written as a table or JSON, and gated by
//! `--fail-if-worse`.

use super::TraceSelector;
use super::args::CompareArgs;
use super::html;
use super::inputs::{self, Input, ProgressArg, ProgressLine};
use super::loading::{FileResult, Job, Loaded, echo_errors};
use super::pipeline::Checks;
use super::reporting::{finish, load_markers, warn_marker_error, write_json};
use framescope_core::ingest;
use framescope_core::model::Warning;
use framescope_core::pipeline::compare::{self as pcompare, Sides};
use framescope_core::report::compare::{self, Gate, GateOutcome};
use framescope_core::report::sets;
use framescope_core::report::{self, RunEntry, SettingsJson};
use rayon::iter::{IndexedParallelIterator, IntoParallelRefIterator, ParallelIterator};
use std::io::Write;
use std::process::ExitCode;

/// The two sides of `compare` from its arguments ([`Sides::new`] checks them).
fn sides(args: &CompareArgs) -> Result<Sides, String> {
    let (a, b) = if args.vs.is_empty() {
        match args.files.as_slice() {
            [a, b] => (inputs::expand(std::slice::from_ref(a))?, inputs::expand(std::slice::from_ref(b))?),
            _ => {
                return Err(format!(
                    "compare takes BASELINE OTHER (got {} files), or sets of runs: A1 A2 … --vs B1 B2 …",
                    args.files.len()
                ));
            }
        }
    } else {
        (inputs::expand(&args.files)?, inputs::expand(&args.vs)?)
    };
    Sides::new(a, b).map_err(|e| e.to_string())
}

/// `framescope compare`: exit 0, 1 (a file or marker log failed, or a check; no
/// comparison when a capture failed), 2 (bad arguments) or 3 (the gate failed).
pub(super) fn compare_command(args: &CompareArgs) -> ExitCode {
    let a = &args.analysis;
    let sides = match checked_sides(args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let gate = Gate {
        rules: args.fail_if_worse.iter().flat_map(|g| g.rules.iter().copied()).collect(),
        allow_missing: args.allow_missing,
    };
    if args.ci.any() && gate.rules.is_empty() {
        say!("error: --junit, --github and --markdown write the gate's verdict: give --fail-if-worse SPEC");
        return ExitCode::from(2);
    }
    let job = Job { selector: a.trace.clone(), opts: a.load_options(), trim: a.trim() };
    let table = !a.json;
    let echo = echo_errors(table);
    let checks = args.checks.checks();
    let (inputs, baseline_count) = sides.inputs();
    if let Err(code) = inputs::check_outputs(
        &inputs,
        &[a.pcl.as_deref(), args.other_pcl.as_deref()],
        &[&[("--html", a.html.as_deref())], args.ci.outputs().as_slice()].concat(),
    ) {
        return code;
    }

    // Load every file (in parallel), then analyse them all with one frame-time source
    // (metrics.md §9).
    let loaded = load_all(&inputs, &job, args.progress);
    let mut settings = a.settings();
    let asked = settings.frame_time;
    settings.frame_time = asked.resolve_for(loaded.iter().flat_map(Loaded::traces).collect::<Vec<_>>());
    let markers: Vec<(Option<ingest::MarkerLog>, Option<String>)> = match &sides {
        Sides::Single(..) => {
            [&a.pcl, &args.other_pcl].iter().map(|p| load_markers(p.as_deref(), job.opts.qpc_hz())).collect()
        }
        Sides::Sets(..) => Vec::new(),
    };
    let (results, pages) = analyse_all(&loaded, &settings, &markers, checks, a.html.is_some());
    settings.frame_time = asked;
    let mut failed = markers.iter().any(|(_, e)| e.is_some());
    for r in &results {
        r.print(echo);
        failed |= r.failed();
    }
    let settings_json = SettingsJson::from(&settings).with_trim(job.trim);
    let entries: Vec<(usize, RunEntry)> = results
        .into_iter()
        .enumerate()
        .flat_map(|(i, r)| r.entries.into_iter().map(move |e| (i, e)))
        .collect();
    let warnings = pcompare::different_applications_of(&entries);
    if echo {
        for w in &warnings {
            say!("warning: {}", w.message);
        }
    }
    let compared = Compared {
        args,
        gate: &gate,
        settings: settings_json,
        entries,
        warnings,
        failed,
        table,
        echo,
        pages,
    };
    match sides {
        Sides::Single(..) => write_single(compared),
        Sides::Sets(..) => write_sets(compared, baseline_count),
    }
}

/// The two sides of `compare`, or exit 2 with the message on stderr: `--trace all`,
/// a wrong number of files, or `--pcl` with sets.
fn checked_sides(args: &CompareArgs) -> Result<Sides, ExitCode> {
    let a = &args.analysis;
    if a.trace == TraceSelector::All {
        say!(
            "error: --trace all does not apply to compare: pick one trace per file \
             (default, PID, APP or PID:SWAPCHAIN)"
        );
        return Err(ExitCode::from(2));
    }
    let sides = match sides(args) {
        Ok(s) => s,
        Err(e) => {
            say!("error: {e}");
            return Err(ExitCode::from(2));
        }
    };
    if matches!(sides, Sides::Sets(..)) && (a.pcl.is_some() || args.other_pcl.is_some()) {
        say!("error: --pcl and --other-pcl go with one file per side, not with sets (--vs)");
        return Err(ExitCode::from(2));
    }
    Ok(sides)
}

/// Every loaded file analysed (in parallel) with the one frame-time source in
/// `settings` and its marker log, if any: each file's result, and the pages of its
/// runs when `html`.
fn analyse_all(
    loaded: &[Loaded],
    settings: &framescope_core::analysis::Settings,
    markers: &[(Option<ingest::MarkerLog>, Option<String>)],
    checks: Checks,
    html: bool,
) -> (Vec<FileResult>, Vec<Option<framescope_core::html::PageRun>>) {
    let (results, pages): (Vec<FileResult>, Vec<_>) = loaded
        .par_iter()
        .enumerate()
        .map(|(i, l)| {
            let (m, m_err) = markers.get(i).map_or((None, None), |(m, e)| (m.as_ref(), e.as_deref()));
            let (mut entries, errors) = l.runs(settings, m);
            warn_marker_error(&mut entries, m_err);
            let page = html::pages(html, l, &entries, settings);
            (FileResult::of(l, entries, errors, checks), page)
        })
        .unzip();
    (results, pages.into_iter().flatten().collect())
}

/// Loads every file (in parallel), in argument order, with a progress line.
fn load_all(inputs: &[Input], job: &Job, progress: ProgressArg) -> Vec<Loaded> {
    let progress = ProgressLine::new(progress, inputs.len());
    let mut loaded = Vec::with_capacity(inputs.len());
    let mut failed_files = 0;
    inputs::for_each_ordered(
        inputs,
        |input| job.load(input),
        |_, l, finished| {
            failed_files += usize::from(matches!(l, Loaded::Failed(..)));
            progress.update(finished, failed_files);
            loaded.push(l);
        },
    );
    progress.finish();
    loaded
}

/// A comparison's runs, analysed, with what its output needs.
struct Compared<'a> {
    args: &'a CompareArgs,
    gate: &'a Gate,
    settings: SettingsJson,
    /// Every run, with the index of the file it came from.
    entries: Vec<(usize, RunEntry)>,
    warnings: Vec<Warning>,
    failed: bool,
    table: bool,
    echo: bool,
    /// Each run's page data when `--html` is given (else empty).
    pages: Vec<Option<html::PageRun>>,
}

/// One file per side: the comparison of `metrics.md` §9 (as before sets existed).
fn write_single(c: Compared<'_>) -> ExitCode {
    let Compared { args, gate, settings: settings_json, entries, warnings, mut failed, table, echo, pages } =
        c;
    let mut out = report::Terminal::new(std::io::stdout().lock(), !table);
    let runs: Vec<RunEntry> = entries.into_iter().map(|(_, e)| e).collect();
    let other = match runs.last() {
        Some(RunEntry::Run(r)) => r.application.clone(),
        _ => String::new(),
    };
    let (doc, outcome) = pcompare::single(settings_json, runs, gate, args.noise_band, warnings);
    if let Some(o) = &outcome {
        report_gate(o, gate.rules.len());
        failed |= !emit_ci(args, gate, o, &other);
    }
    if let Some(path) = &args.analysis.html {
        failed |= !html::write_compare(path, &doc, pages);
    }
    // Errors already on stderr (stdout is not a terminal) are left out of the table.
    let shown = echo.then(|| report::Report {
        runs: doc.report.runs.iter().filter(|e| !matches!(e, RunEntry::Failed(_))).cloned().collect(),
        ..doc.report.clone()
    });
    let written = if table {
        report::write_table(shown.as_ref().unwrap_or(&doc.report), &mut out)
            .and_then(|()| {
                doc.warnings.iter().try_for_each(|w| writeln!(out, "\nwarning: {}", report::text(&w.message)))
            })
            .and_then(|()| match &doc.comparison {
                Some(c) => {
                    writeln!(out).and_then(|()| compare::write_comparison_table(c, args.convention, &mut out))
                }
                None => writeln!(out, "\nno comparison: a file could not be reported"),
            })
    } else {
        write_json(&doc, &mut out)
    };
    finish(written, failed, outcome.is_some_and(|o| o.failed()))
}

/// Sets of runs (`metrics.md` §12): outliers, set means, Welch intervals.
fn write_sets(c: Compared<'_>, baseline_count: usize) -> ExitCode {
    let Compared { args, gate, settings: settings_json, entries, warnings, mut failed, table, echo, pages } =
        c;
    let mut out = report::Terminal::new(std::io::stdout().lock(), !table);
    let other = entries
        .iter()
        .find_map(|(i, e)| match e {
            RunEntry::Run(r) if *i >= baseline_count => Some(r.application.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let pcompare::SetsOutcome { doc, gate: outcome, set_warnings } =
        pcompare::sets(settings_json, &entries, baseline_count, args.outlier_limit, gate, warnings);
    if let Some(o) = &outcome {
        report_gate(o, gate.rules.len());
        failed |= !emit_ci(args, gate, o, &other);
    }
    if echo {
        for w in &set_warnings {
            say!("warning: {}", w.message);
        }
    }
    if let Some(path) = &args.analysis.html {
        failed |= !html::write_sets(path, &doc, pages);
    }
    let written =
        if table { sets::write_sets_table(&doc, echo, &mut out) } else { write_json(&doc, &mut out) };
    finish(written, failed, outcome.is_some_and(|o| o.failed()))
}

/// The gate's verdict in the CI outputs asked for (a suite named after the other run's
/// application); false when one could not be written.
fn emit_ci(args: &CompareArgs, gate: &Gate, outcome: &GateOutcome, scene: &str) -> bool {
    !args.ci.any()
        || args.ci.emit(&report::gate_report("framescope compare --fail-if-worse", scene, gate, outcome))
}

/// Prints the gate's findings to stderr.
fn report_gate(outcome: &GateOutcome, rules: usize) {
    let relative = |r: &compare::Regression| {
        r.relative.map_or_else(|| "from a baseline of 0".to_owned(), |v| format!("{:+.2} %", v * 100.0))
    };
    for r in &outcome.regressions {
        say!(
            "regression: {} got worse: {} -> {} ({}); limit {}",
            r.figure,
            compare::number(r.baseline),
            compare::number(r.other),
            relative(r),
            r.meant
        );
    }
    for r in &outcome.within_noise {
        say!(
            "note: {} got worse beyond its limit ({} -> {}, {}; limit {}) but the change is not significant \
             (its 95 % interval includes 0); it does not fail the gate",
            r.figure,
            compare::number(r.baseline),
            compare::number(r.other),
            relative(r),
            r.meant
        );
    }
    for n in &outcome.not_comparable {
        let side =
            if n.missing == "both" { "both runs".to_owned() } else { format!("the {} run", n.missing) };
        if n.fails {
            say!(
                "regression: {} is missing in {side}, so the gate cannot check it (--allow-missing lets it pass)",
                n.figure
            );
        } else {
            say!("note: {} is not comparable (missing in {side}); it does not fail the gate", n.figure);
        }
    }
    let (failed, skipped) = (outcome.regressions.len(), outcome.not_comparable.len());
    let missing = outcome.not_comparable.iter().filter(|n| n.fails).count();
    let skipped = if skipped > 0 { format!(", {skipped} not comparable") } else { String::new() };
    let missing = if missing > 0 { format!(" ({missing} of them fail the gate)") } else { String::new() };
    say!("fail-if-worse: {failed} of {rules} figures got worse beyond their limit{skipped}{missing}");
}
