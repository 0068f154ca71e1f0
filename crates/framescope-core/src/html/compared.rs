//! The page's comparison tables, written as `framescope compare` writes them: a run
//! against a baseline (delta, relative change, verdict; telemetry means as context),
//! two sets of runs (means, delta, Welch's 95 % interval drawn as a bar around 0,
//! verdict), and what the regression gate found.

use super::encode::escape;
use super::tables::name_cell_with;
use crate::report::compare::{Comparison, Direction, Regression, Row, number};
use crate::report::gate::NotComparable;
use crate::report::sets::{SetComparison, SetRow, SetsJson};
use std::fmt::Write as _;

/// `+1.5` / `-2` / `0`, as the comparison table writes a change.
fn signed(v: f64) -> String {
    if v > 0.0 { format!("+{}", number(v)) } else { number(v) }
}

fn relative(r: Option<f64>) -> String {
    r.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0))
}

/// A compared figure's name, with the unit `compare` writes its value in when the
/// name does not say it.
fn compared_name(key: &str) -> String {
    let unit = if key.ends_with("_fraction") {
        " (fraction)"
    } else if key == "run.duration_ms" {
        " (ms)"
    } else {
        ""
    };
    name_cell_with(key, unit)
}

/// A cell of comparison row `key`, column `col`.
fn cell(out: &mut String, key: &str, col: &str, class: &str, text: &str) {
    let _ = write!(out, "<td data-cmp=\"{key}\" data-col=\"{col}\" class=\"{class}\">{}</td>", escape(text));
}

/// The verdict of a two-run row, as `write_comparison_table` gives it.
fn verdict(row: &Row) -> &'static str {
    match (row.entry, row.figure.direction) {
        (Some(e), d) => match (e.better, d) {
            (Some(true), _) => "better",
            (Some(false), _) => "worse",
            (None, Direction::Neutral) => "",
            (None, _) => "same",
        },
        (None, _) => "not comparable",
    }
}

/// The other run against the baseline: framescope's own figures (the peer tools' are
/// in their own section), rows neither run has left out; telemetry means after them.
/// `names` are the two runs' (baseline first), under the column heads.
pub(super) fn comparison_table(out: &mut String, c: &Comparison, names: [&str; 2]) {
    let head = |side: &str, colour: usize, name: &str| {
        format!(
            "<th scope=\"col\">{side}<br><span class=\"note\"><span class=\"swatch c{colour}\"></span>{}</span></th>",
            escape(name)
        )
    };
    let _ = write!(
        out,
        "<div class=\"scroll\"><table class=\"compare\"><thead><tr><th></th>{}{}<th scope=\"col\">delta</th>\
         <th scope=\"col\">relative</th><th scope=\"col\">verdict</th></tr></thead><tbody>",
        head("baseline", 0, names[0]),
        head("other", 1, names[1])
    );
    let mut hidden = 0;
    for row in c.listed(None) {
        if row.missing() == Some("both") {
            hidden += 1;
            continue;
        }
        let key = row.figure.qualified_name();
        let side = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), number);
        let (delta, rel) = row
            .entry
            .map_or_else(|| ("—".to_owned(), "—".to_owned()), |e| (signed(e.delta), relative(e.relative)));
        let v = verdict(row);
        out.push_str("<tr>");
        out.push_str(&compared_name(&key));
        cell(out, &key, "baseline", "num", &side(row.baseline));
        cell(out, &key, "other", "num", &side(row.other));
        cell(out, &key, "delta", "num", &delta);
        cell(out, &key, "relative", "num", &rel);
        cell(out, &key, "verdict", &format!("verdict {}", v.replace(' ', "-")), v);
        out.push_str("</tr>");
    }
    if !c.telemetry().is_empty() {
        out.push_str(
            "<tr class=\"group\"><th colspan=\"6\">Telemetry means (context, neither better nor worse)</th></tr>",
        );
    }
    for t in c.telemetry() {
        let key = format!("telemetry.{}", t.column);
        let side = |s: Option<crate::analysis::telemetry::TelemetryStats>| {
            s.map_or_else(|| "—".to_owned(), |s| number(s.mean))
        };
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", escape(&t.column));
        cell(out, &key, "baseline", "num", &side(t.baseline));
        cell(out, &key, "other", "num", &side(t.other));
        let (delta, rel) = t
            .entry
            .map_or_else(|| ("—".to_owned(), "—".to_owned()), |e| (signed(e.delta), relative(e.relative)));
        cell(out, &key, "delta", "num", &delta);
        cell(out, &key, "relative", "num", &rel);
        cell(out, &key, "verdict", "verdict", if t.entry.is_some() { "" } else { "one run only" });
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if hidden > 0 {
        let _ = write!(out, "<p class=\"note\">{hidden} figures neither run has are not shown.</p>");
    }
}

/// Each set's runs used, outliers left out, median average FPS and warnings.
pub(super) fn sets_summary(out: &mut String, sets: &SetsJson) {
    out.push_str("<ul class=\"sets\">");
    for (side, set) in [("baseline", &sets.baseline), ("other", &sets.other)] {
        let median = set.median_avg_fps.map_or_else(String::new, |m| format!(", median average {m:.2} FPS"));
        let _ =
            write!(out, "<li><strong>{side} set</strong>: {} of {} runs used{median}", set.runs, set.given);
        if !set.outliers.is_empty() {
            let names: Vec<&str> = set.outliers.iter().map(|f| super::tables::short_name(f)).collect();
            let _ = write!(
                out,
                "; left out as outliers (more than {} % from the median): {}",
                number(sets.outlier_limit * 100.0),
                escape(&names.join(", "))
            );
        }
        for w in &set.warnings {
            let _ = write!(out, "<br><span class=\"warning\">warning: {}</span>", escape(&w.message));
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
}

/// Two sets compared: the means, the delta, its 95 % interval (numbers and a bar
/// around 0) and the verdict (`better` / `worse` only when significant).
pub(super) fn sets_table(out: &mut String, c: &SetComparison) {
    out.push_str(
        "<div class=\"scroll\"><table class=\"compare\"><thead><tr><th></th>\
         <th scope=\"col\">baseline mean</th><th scope=\"col\">other mean</th><th scope=\"col\">delta</th>\
         <th scope=\"col\">relative</th><th scope=\"col\">95 % interval</th><th scope=\"col\"></th>\
         <th scope=\"col\">verdict</th></tr></thead><tbody>",
    );
    let mut hidden = 0;
    for row in c.rows().iter().filter(|r| !r.figure.section.is_convention()) {
        if row.missing() == Some("both") {
            hidden += 1;
            continue;
        }
        set_row(out, row);
    }
    out.push_str("</tbody></table></div>");
    if hidden > 0 {
        let _ = write!(out, "<p class=\"note\">{hidden} figures neither set has are not shown.</p>");
    }
    out.push_str(
        "<p class=\"note\">noise: the interval includes 0, so the change is within the runs' spread.</p>",
    );
}

fn set_row(out: &mut String, row: &SetRow) {
    let key = row.figure.qualified_name();
    let side =
        |v: Option<crate::report::sets::FigureStats>| v.map_or_else(|| "—".to_owned(), |s| number(s.mean));
    out.push_str("<tr>");
    out.push_str(&compared_name(&key));
    cell(out, &key, "baseline", "num", &side(row.baseline));
    cell(out, &key, "other", "num", &side(row.other));
    if let Some(e) = row.entry {
        let v = row.verdict().map_or("not comparable", crate::report::Verdict::as_str);
        cell(out, &key, "delta", "num", &signed(e.delta));
        cell(out, &key, "relative", "num", &relative(e.relative));
        cell(out, &key, "interval", "num", &format!("[{}, {}]", signed(e.ci95[0]), signed(e.ci95[1])));
        out.push_str(&interval_bar(e.ci95, e.delta, v));
        cell(out, &key, "verdict", &format!("verdict {v}"), v);
    } else {
        for col in ["delta", "relative", "interval"] {
            cell(out, &key, col, "num", "—");
        }
        out.push_str("<td></td>");
        cell(out, &key, "verdict", "verdict not-comparable", "not comparable");
    }
    out.push_str("</tr>");
}

/// The interval as a bar on an axis through 0 (scaled so the farther end reaches the
/// cell's edge), the delta as a tick.
fn interval_bar(ci: [f64; 2], delta: f64, verdict: &str) -> String {
    let reach = ci[0].abs().max(ci[1].abs()).max(f64::MIN_POSITIVE);
    let x = |v: f64| 50.0 + 48.0 * v / reach;
    format!(
        "<td class=\"bar\"><svg viewBox=\"0 0 100 12\" preserveAspectRatio=\"none\" aria-hidden=\"true\">\
         <line class=\"zero\" x1=\"50\" x2=\"50\" y1=\"0\" y2=\"12\"/>\
         <rect class=\"ci {verdict}\" x=\"{:.2}\" width=\"{:.2}\" y=\"3\" height=\"6\"/>\
         <line class=\"delta\" x1=\"{d:.2}\" x2=\"{d:.2}\" y1=\"1\" y2=\"11\"/></svg></td>",
        x(ci[0]),
        (x(ci[1]) - x(ci[0])).max(0.5),
        d = x(delta)
    )
}

/// What the regression gate found, when it ran: a box that says whether it failed.
pub(super) fn gate_box(
    out: &mut String,
    regressions: Option<&[Regression]>,
    not_comparable: Option<&[NotComparable]>,
    within_noise: Option<&[Regression]>,
) {
    let Some(regressions) = regressions else { return };
    let missing: Vec<&NotComparable> = not_comparable.unwrap_or_default().iter().collect();
    let fails = !regressions.is_empty() || missing.iter().any(|n| n.fails);
    let _ = write!(
        out,
        "<div class=\"gate {}\" id=\"gate\"><strong>Regression gate: {}</strong><ul>",
        if fails { "failed" } else { "passed" },
        if fails { "failed" } else { "passed" }
    );
    let describe = |r: &Regression| {
        let rel =
            r.relative.map_or_else(|| "from a baseline of 0".to_owned(), |v| format!("{:+.2} %", v * 100.0));
        format!("{}: {} → {} ({rel}); limit {}", r.figure, number(r.baseline), number(r.other), r.limit)
    };
    for r in regressions {
        let _ = write!(out, "<li>got worse: {}</li>", escape(&describe(r)));
    }
    for r in within_noise.unwrap_or_default() {
        let _ = write!(out, "<li>worse beyond its limit but not significant: {}</li>", escape(&describe(r)));
    }
    for n in missing {
        let what = if n.fails { "missing, fails the gate" } else { "not comparable" };
        let _ = write!(out, "<li>{}: {what} (missing in {})</li>", escape(&n.figure), escape(n.missing));
    }
    out.push_str("</ul></div>");
}
