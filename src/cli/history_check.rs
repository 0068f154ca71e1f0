//! `framescope history check` (`metrics.md` §14) and `history export`.

use super::history::{CheckArgs, ExportArgs, ExportFormat, ReportArgs, db_path};
use framescope_core::figures::{Figure, figure, find_figure};
use framescope_core::output::{Inputs, write_file};
use framescope_core::report::{CiCase, CiOutcome, CiReport, CiSuite, text};
use framescope_history::check::{self, CheckReport, FigureCheck, MIN_EARLIER, Options, Verdict};
use framescope_history::{OpenMode, StoredRun};
use std::io::Write;
use std::process::ExitCode;

/// Every stored run of the history `db`, or exit 1 with the message.
fn stored_runs(db: &str) -> Result<Vec<StoredRun>, ExitCode> {
    framescope_history::open(db, OpenMode::Existing).and_then(|mut s| s.runs()).map_err(|e| {
        say!("error: {e}");
        ExitCode::from(1)
    })
}

/// `--figures LIST` as registry figures, or the message.
fn figures(list: Option<&str>) -> Result<Option<Vec<&'static Figure>>, String> {
    let Some(list) = list else { return Ok(None) };
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let f = find_figure(name).map_err(|e| e.to_string())?;
        if !f.judged() {
            return Err(format!("{} has no better direction, so it is never judged", f.qualified_name()));
        }
        out.push(f);
    }
    Ok(Some(out))
}

/// `framescope history check`.
pub(super) fn check_command(args: &CheckArgs) -> ExitCode {
    let figures = match figures(args.figures.as_deref()) {
        Ok(f) => f,
        Err(e) => {
            say!("error: --figures: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = db_path(&args.db)
        && let Err(e) = super::ci::check_outputs(&Inputs::new([path.to_owned()]), &args.ci.outputs())
    {
        say!("error: {e}");
        return ExitCode::from(2);
    }
    let runs = match stored_runs(&args.db) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let options = Options { build: args.build.clone(), figures, noise_band: args.noise_band };
    let report = match check::check(&runs, &options) {
        Ok(r) => r,
        Err(e) => {
            say!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let ci = ci_report(&report);
    for s in &ci.suites {
        for n in &s.notes {
            say!("note: scene {}: {n}", s.name);
        }
    }
    let written = if args.json {
        serde_json::to_writer_pretty(std::io::stdout().lock(), &report)
            .map_err(std::io::Error::other)
            .and_then(|()| writeln!(std::io::stdout()))
    } else {
        write_text(&report, args.ci.github)
    };
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        say!("error: cannot write the verdict: {e}");
        return ExitCode::from(1);
    }
    if !args.ci.emit(&ci) {
        return ExitCode::from(1);
    }
    if ci.failures() > 0 { ExitCode::from(3) } else { ExitCode::SUCCESS }
}

/// The readable verdict: each regression and improvement, then a line of totals (on
/// stderr when stdout carries workflow commands).
fn write_text(report: &CheckReport, github: bool) -> std::io::Result<()> {
    let mut lines = Vec::new();
    for (scene, figs) in &report.scenes {
        for (name, c) in
            figs.iter().filter(|(_, c)| matches!(c.verdict, Verdict::Regression | Verdict::Improvement))
        {
            lines.push(format!("{}: {}", text(scene), detail(name, c)));
        }
    }
    let regressions = report.regressions().count();
    lines.push(format!(
        "history check: build {}: {regressions} regression{} in {} scene{}",
        text(&report.build),
        if regressions == 1 { "" } else { "s" },
        report.scenes.len(),
        if report.scenes.len() == 1 { "" } else { "s" }
    ));
    if github {
        for l in &lines {
            say!("{l}");
        }
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    lines.iter().try_for_each(|l| writeln!(out, "{l}"))
}

/// A figure's verdict in words.
fn detail(name: &str, c: &FigureCheck) -> String {
    let f = figure(name);
    let fmt = |v: f64| f.map_or_else(|| v.to_string(), |f| f.format(v));
    match (c.value, c.median, c.threshold) {
        (Some(v), Some(m), Some(t)) => {
            let word = match c.verdict {
                Verdict::Regression => "regression",
                Verdict::Improvement => "improvement",
                Verdict::Same => "same",
                Verdict::NotJudged => "not judged",
            };
            let step = if c.change_point { ", a change point" } else { "" };
            format!(
                "{name}: {word}{step}: {} against a median of {} over {} earlier builds (threshold ±{})",
                fmt(v),
                fmt(m),
                c.earlier,
                fmt(t)
            )
        }
        (None, ..) => format!("{name}: not judged: the build has no value"),
        _ => format!("{name}: not judged: {} earlier builds have it ({MIN_EARLIER} needed)", c.earlier),
    }
}

/// The verdict for CI: a suite per scene, a case per figure.
fn ci_report(report: &CheckReport) -> CiReport {
    let suites = report
        .scenes
        .iter()
        .map(|(scene, figs)| {
            let cases: Vec<CiCase> = figs
                .iter()
                .map(|(name, c)| CiCase {
                    name: name.clone(),
                    detail: detail(name, c),
                    outcome: match c.verdict {
                        Verdict::Regression => CiOutcome::Failed,
                        Verdict::NotJudged => CiOutcome::Skipped,
                        Verdict::Improvement | Verdict::Same => CiOutcome::Passed,
                    },
                })
                .collect();
            let fewest =
                figs.values().filter(|c| c.value.is_some() && c.median.is_none()).map(|c| c.earlier).min();
            let notes = fewest
                .map(|n| format!("not judged: {n} earlier builds have runs of it ({MIN_EARLIER} needed)"))
                .into_iter()
                .collect();
            CiSuite { name: scene.clone(), cases, notes }
        })
        .collect();
    CiReport { title: format!("framescope history check: build {}", report.build), suites }
}

/// `framescope history export`.
pub(super) fn export_command(args: &ExportArgs) -> ExitCode {
    if let Some(path) = db_path(&args.db)
        && let Err(e) = Inputs::new([path.to_owned()]).check("-o", &args.output)
    {
        say!("error: {e}");
        return ExitCode::from(2);
    }
    let runs = match stored_runs(&args.db) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let table = framescope_history::export::table(&runs);
    let written = match args.format {
        ExportFormat::Csv => write_file(&args.output, |out| table.write_csv(out))
            .map_err(|e| format!("cannot write {}: {e}", args.output.display())),
        ExportFormat::Parquet => super::frames::write_parquet(&table, &args.output),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `framescope history report --html`.
pub(super) fn report_command(args: &ReportArgs) -> ExitCode {
    if let Some(path) = db_path(&args.db)
        && let Err(e) = Inputs::new([path.to_owned()]).check("--html", &args.html)
    {
        say!("error: {e}");
        return ExitCode::from(2);
    }
    let runs = match stored_runs(&args.db) {
        Ok(r) => r,
        Err(code) => return code,
    };
    match write_file(&args.html, |out| framescope_history::page::write(&runs, args.noise_band, out)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("error: cannot write {}: {e}", args.html.display());
            ExitCode::from(1)
        }
    }
}
