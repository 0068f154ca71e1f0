//! The comparison as aligned text for a terminal, and a figure's value for people.

use super::{Comparison, Direction, Section};
use std::io::Write;

/// A figure's value for people: whole numbers without decimals, others rounded by
/// magnitude (2 decimals from 100, 3 from 1, else 4).
#[must_use]
pub fn number(v: f64) -> String {
    let v = v + 0.0; // -0 (an empty sum) prints as 0
    if v.fract().abs() < 1e-12 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.2}")
    } else if v.abs() >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

/// Writes the comparison as aligned text: figure, baseline, other, delta, relative %,
/// better/worse. Figures missing on both sides are left out (and counted). With a peer
/// tool's section (`convention`), that tool's figures stand where framescope's summary
/// would (`metrics.md` §11); otherwise no peer figures are listed.
pub fn write_comparison_table(
    comparison: &Comparison,
    convention: Option<Section>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "comparison: other against baseline")?;
    writeln!(
        out,
        "  {:<40} {:>12} {:>12} {:>12} {:>10}  verdict",
        "figure", "baseline", "other", "delta", "relative"
    )?;
    let mut hidden = 0;
    let listed = comparison.listed(convention);
    if let Some(tool) = convention {
        writeln!(out, "  (figures as {} computes them: {}.*)", tool.title(), tool.name())?;
    }
    for row in listed {
        let side = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), number);
        let name = crate::report::escape::text(&row.figure.qualified_name()).into_owned();
        let (delta, relative, verdict) = match (row.entry, row.missing()) {
            (_, Some("both")) => {
                hidden += 1;
                continue;
            }
            (Some(e), None) => {
                let delta = if e.delta > 0.0 { format!("+{}", number(e.delta)) } else { number(e.delta) };
                let relative = e.relative.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0));
                let verdict = match (e.better, row.figure.direction) {
                    (Some(true), _) => "better",
                    (Some(false), _) => "worse",
                    (None, Direction::Neutral) => "",
                    (None, _) => "same",
                };
                (delta, relative, verdict)
            }
            _ => ("—".to_owned(), "—".to_owned(), "not comparable"),
        };
        writeln!(
            out,
            "  {name:<40} {:>12} {:>12} {delta:>12} {relative:>10}  {verdict}",
            side(row.baseline),
            side(row.other)
        )?;
    }
    if hidden > 0 {
        writeln!(out, "  ({hidden} figures neither run has are not shown; see --json)")?;
    }
    if !comparison.telemetry.is_empty() {
        writeln!(out, "  telemetry means (context, neither better nor worse):")?;
        for row in &comparison.telemetry {
            let name = format!("telemetry.{}", row.column);
            if let Some(e) = row.entry {
                let delta = if e.delta > 0.0 { format!("+{}", number(e.delta)) } else { number(e.delta) };
                let relative = e.relative.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0));
                writeln!(
                    out,
                    "  {name:<40} {:>12} {:>12} {delta:>12} {relative:>10}",
                    number(e.baseline),
                    number(e.other)
                )?;
            } else {
                let side = |t: Option<crate::analysis::telemetry::TelemetryStats>| {
                    t.map_or_else(|| "—".to_owned(), |t| number(t.mean))
                };
                writeln!(
                    out,
                    "  {name:<40} {:>12} {:>12} {:>12} {:>10}  one run only",
                    side(row.baseline),
                    side(row.other),
                    "—",
                    "—"
                )?;
            }
        }
    }
    Ok(())
}
