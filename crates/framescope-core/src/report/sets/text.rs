//! The sets report as readable text: each set's runs, then the comparison of the means
//! with the 95 % interval and a verdict per figure.

use super::{FigureStats, SetComparison, SetRun, SetsReport, Side};
use crate::report::RunEntry;
use crate::report::compare::number;
use crate::report::escape::text;
use crate::report::verdict::Verdict;
use std::io::Write;

/// Writes the sets report as text: each set's runs (average FPS, outliers marked),
/// then the comparison of the means with the 95 % interval and a verdict per figure
/// (`better`/`worse` only for a significant change, else `noise`). A file that failed
/// is listed with its error, or, when `errors_on_stderr` (the command line printed them
/// there: stdout is not a terminal), only named, so that each error is printed once.
pub fn write_sets_table(
    doc: &SetsReport,
    errors_on_stderr: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    crate::report::table::write_settings(&doc.settings, out)?;
    for side in [Side::Baseline, Side::Other] {
        let set =
            doc.sets.as_ref().map(|sets| if side == Side::Baseline { &sets.baseline } else { &sets.other });
        let runs: Vec<&SetRun> = doc.runs.iter().filter(|r| r.set == side.name()).collect();
        let head = set.map_or_else(String::new, |j| {
            let median = j.median_avg_fps.map_or_else(String::new, |m| format!(", median avg {m:.2} FPS"));
            let left = if j.outliers.is_empty() {
                String::new()
            } else {
                format!(", {} left out as outliers", j.outliers.len())
            };
            format!(": {} of {} runs used{left}{median}", j.runs, j.given)
        });
        writeln!(out, "\n{} set{head}", side.name())?;
        for r in runs {
            match &r.entry {
                RunEntry::Run(run) => {
                    let avg = run.summary.map_or_else(|| "—".to_owned(), |m| format!("{:.2}", m.avg_fps));
                    let note = if r.outlier { "   outlier, left out" } else { "" };
                    writeln!(
                        out,
                        "  {}  [{}]  avg {avg} FPS  frames {}{note}",
                        text(&run.file),
                        text(&run.application),
                        run.frames
                    )?;
                    for w in run.warnings.iter().take(3) {
                        writeln!(out, "    warning: {}", text(&w.message))?;
                    }
                }
                RunEntry::Failed(f) if errors_on_stderr => {
                    writeln!(out, "  {}  not read (its error is on stderr)", text(&f.file))?;
                }
                RunEntry::Failed(f) => {
                    writeln!(out, "  {}  error: {}", text(&f.file), text(&f.error.message))?;
                }
                RunEntry::Etl(e) => writeln!(out, "  {}  an ETW trace, not a run", text(&e.file))?,
            }
        }
        for w in set.map(|j| j.warnings.as_slice()).unwrap_or_default() {
            writeln!(out, "  warning: {}", text(&w.message))?;
        }
    }
    for w in &doc.warnings {
        writeln!(out, "\nwarning: {}", text(&w.message))?;
    }
    writeln!(out)?;
    match &doc.comparison {
        Some(c) => write_set_comparison(c, out),
        None => writeln!(out, "no comparison: a file could not be reported"),
    }
}

fn write_set_comparison(c: &SetComparison, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "comparison: other set against baseline set (means; Welch's 95 % interval of the difference)"
    )?;
    let means = |name: &str| c.row(name).and_then(|r| r.baseline.zip(r.other)).map(|(b, o)| (b.mean, o.mean));
    if let Some(g) = crate::report::compare::Glance::from_lookup(means) {
        writeln!(out, "  at a glance (set means): {}", g.text())?;
    }
    writeln!(
        out,
        "  {:<40} {:>12} {:>12} {:>12} {:>10} {:>27}  verdict",
        "figure", "baseline", "other", "delta", "relative", "95 % interval"
    )?;
    let mut hidden = 0;
    for row in c.rows().iter().filter(|r| !r.figure.section.is_convention()) {
        let side = |v: Option<FigureStats>| v.map_or_else(|| "—".to_owned(), |s| number(s.mean));
        let (delta, relative, interval, verdict) = match (row.entry, row.missing()) {
            (_, Some("both")) => {
                hidden += 1;
                continue;
            }
            (Some(e), None) => {
                let signed = |v: f64| if v > 0.0 { format!("+{}", number(v)) } else { number(v) };
                let relative = e.relative.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0));
                let interval = format!("[{}, {}]", signed(e.ci95[0]), signed(e.ci95[1]));
                let verdict = row.verdict().map_or("not comparable", Verdict::as_str);
                (signed(e.delta), relative, interval, verdict)
            }
            _ => ("—".to_owned(), "—".to_owned(), "—".to_owned(), "not comparable"),
        };
        writeln!(
            out,
            "  {:<40} {:>12} {:>12} {delta:>12} {relative:>10} {interval:>27}  {verdict}",
            row.figure.qualified_name(),
            side(row.baseline),
            side(row.other)
        )?;
    }
    if hidden > 0 {
        writeln!(out, "  ({hidden} figures neither set has are not shown; see --json)")?;
    }
    writeln!(out, "  (noise: the interval includes 0, so the change is within the runs' spread)")
}
