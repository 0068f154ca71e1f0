//! The page's comparison tables, written as `framescope compare` writes them: a run
//! against a baseline (delta, relative change, verdict; telemetry means as context),
//! two sets of runs (means, delta, Welch's 95 % interval drawn as a bar around 0,
//! verdict), and what the regression gate found.

use super::markup::{Html, html, markup};
use super::tables::name_cell_with;
use crate::figures::{Figure, Unit};
use crate::report::compare::{Comparison, Regression, Row, number};
use crate::report::gate::NotComparable;
use crate::report::sets::{SetComparison, SetRow, SetsJson};

/// `+1.5` / `-2` / `0`, as the comparison table writes a change.
fn signed(v: f64) -> String {
    if v > 0.0 { format!("+{}", number(v)) } else { number(v) }
}

fn relative(r: Option<f64>) -> String {
    r.map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0))
}

/// A compared figure's name, with the unit `compare` writes its value in (durations
/// in ms, shares as fractions).
fn compared_name(figure: &Figure) -> Html {
    let unit = match figure.unit {
        Unit::Ms | Unit::Seconds => " (ms)",
        Unit::Fraction => " (fraction)",
        Unit::Watts => " (W)",
        Unit::FpsPerWatt => " (FPS/W)",
        Unit::Fps | Unit::Count | Unit::Ratio => "",
    };
    name_cell_with(figure, unit)
}

/// A cell of comparison row `key`, column `col`.
fn cell(out: &mut Html, key: &str, col: &str, class: &str, text: &str) {
    html!(out, "<td data-cmp=\"{}\" data-col=\"{}\" class=\"{}\">{}</td>", key, col, class, text);
}

/// The verdict of a two-run row, as `write_comparison_table` gives it.
fn verdict(row: &Row, band: f64) -> &'static str {
    row.verdict(band).map_or("not comparable", crate::report::verdict::Verdict::as_str)
}

/// The other run against the baseline: framescope's own figures (the peer tools' are
/// in their own section), rows neither run has left out; telemetry means after them.
/// `names` are the two runs' (baseline first), under the column heads.
pub(super) fn comparison_table(out: &mut Html, c: &Comparison, names: [&str; 2]) {
    let head = |side: &str, colour: usize, name: &str| {
        markup!(
            "<th scope=\"col\">{}<br><span class=\"note\"><span class=\"swatch c{}\"></span>{}</span></th>",
            side,
            colour,
            name
        )
    };
    html!(
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
        let v = verdict(row, c.noise_band());
        out.raw("<tr>");
        out.push(&compared_name(row.figure));
        cell(out, &key, "baseline", "num", &side(row.baseline));
        cell(out, &key, "other", "num", &side(row.other));
        cell(out, &key, "delta", "num", &delta);
        cell(out, &key, "relative", "num", &rel);
        cell(out, &key, "verdict", &format!("verdict {}", v.replace(' ', "-")), v);
        out.raw("</tr>");
    }
    if !c.telemetry().is_empty() {
        out.raw(
            "<tr class=\"group\"><th colspan=\"6\">Telemetry means (context, neither better nor worse)</th></tr>",
        );
    }
    for t in c.telemetry() {
        let key = format!("telemetry.{}", t.column);
        let side = |s: Option<crate::analysis::telemetry::TelemetryStats>| {
            s.map_or_else(|| "—".to_owned(), |s| number(s.mean))
        };
        html!(out, "<tr><th scope=\"row\">{}</th>", t.column);
        cell(out, &key, "baseline", "num", &side(t.baseline));
        cell(out, &key, "other", "num", &side(t.other));
        let (delta, rel) = t
            .entry
            .map_or_else(|| ("—".to_owned(), "—".to_owned()), |e| (signed(e.delta), relative(e.relative)));
        cell(out, &key, "delta", "num", &delta);
        cell(out, &key, "relative", "num", &rel);
        cell(out, &key, "verdict", "verdict", if t.entry.is_some() { "" } else { "one run only" });
        out.raw("</tr>");
    }
    out.raw("</tbody></table></div>");
    if hidden > 0 {
        html!(out, "<p class=\"note\">{} figures neither run has are not shown.</p>", hidden);
    }
}

/// Each set's runs used, outliers left out, median average FPS and warnings.
pub(super) fn sets_summary(out: &mut Html, sets: &SetsJson) {
    out.raw("<ul class=\"sets\">");
    for (side, set) in [("baseline", &sets.baseline), ("other", &sets.other)] {
        let median = set.median_avg_fps.map_or_else(String::new, |m| format!(", median average {m:.2} FPS"));
        html!(out, "<li><strong>{} set</strong>: {} of {} runs used{}", side, set.runs, set.given, median);
        if !set.outliers.is_empty() {
            let names: Vec<&str> = set.outliers.iter().map(|f| super::tables::short_name(f)).collect();
            html!(
                out,
                "; left out as outliers (more than {} % from the median): {}",
                number(sets.outlier_limit * 100.0),
                names.join(", ")
            );
        }
        for w in &set.warnings {
            html!(out, "<br><span class=\"warning\">warning: {}</span>", w.message);
        }
        out.raw("</li>");
    }
    out.raw("</ul>");
}

/// Two sets compared: the means, the delta, its 95 % interval (numbers and a bar
/// around 0) and the verdict (`better` / `worse` only when significant).
pub(super) fn sets_table(out: &mut Html, c: &SetComparison) {
    out.raw(
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
    out.raw("</tbody></table></div>");
    if hidden > 0 {
        html!(out, "<p class=\"note\">{} figures neither set has are not shown.</p>", hidden);
    }
    out.raw(
        "<p class=\"note\">noise: the interval includes 0, so the change is within the runs' spread.</p>",
    );
}

fn set_row(out: &mut Html, row: &SetRow) {
    let key = row.figure.qualified_name();
    let side =
        |v: Option<crate::report::sets::FigureStats>| v.map_or_else(|| "—".to_owned(), |s| number(s.mean));
    out.raw("<tr>");
    out.push(&compared_name(row.figure));
    cell(out, &key, "baseline", "num", &side(row.baseline));
    cell(out, &key, "other", "num", &side(row.other));
    if let Some(e) = row.entry {
        let v = row.verdict().map_or("not comparable", crate::report::Verdict::as_str);
        cell(out, &key, "delta", "num", &signed(e.delta));
        cell(out, &key, "relative", "num", &relative(e.relative));
        cell(out, &key, "interval", "num", &format!("[{}, {}]", signed(e.ci95[0]), signed(e.ci95[1])));
        out.push(&interval_bar(e.ci95, e.delta, v));
        cell(out, &key, "verdict", &format!("verdict {v}"), v);
    } else {
        for col in ["delta", "relative", "interval"] {
            cell(out, &key, col, "num", "—");
        }
        out.raw("<td></td>");
        cell(out, &key, "verdict", "verdict not-comparable", "not comparable");
    }
    out.raw("</tr>");
}

/// The interval as a bar on an axis through 0 (scaled so the farther end reaches the
/// cell's edge), the delta as a tick.
fn interval_bar(ci: [f64; 2], delta: f64, verdict: &str) -> Html {
    let reach = ci[0].abs().max(ci[1].abs()).max(f64::MIN_POSITIVE);
    let x = |v: f64| 50.0 + 48.0 * v / reach;
    let d = x(delta);
    markup!(
        "<td class=\"bar\"><svg viewBox=\"0 0 100 12\" preserveAspectRatio=\"none\" aria-hidden=\"true\">\
         <line class=\"zero\" x1=\"50\" x2=\"50\" y1=\"0\" y2=\"12\"/>\
         <rect class=\"ci {}\" x=\"{:.2}\" width=\"{:.2}\" y=\"3\" height=\"6\"/>\
         <line class=\"delta\" x1=\"{:.2}\" x2=\"{:.2}\" y1=\"1\" y2=\"11\"/></svg></td>",
        verdict,
        x(ci[0]),
        (x(ci[1]) - x(ci[0])).max(0.5),
        d,
        d
    )
}

/// What the regression gate found, when it ran: a box that says whether it failed.
pub(super) fn gate_box(
    out: &mut Html,
    regressions: Option<&[Regression]>,
    not_comparable: Option<&[NotComparable]>,
    within_noise: Option<&[Regression]>,
) {
    let Some(regressions) = regressions else { return };
    let missing: Vec<&NotComparable> = not_comparable.unwrap_or_default().iter().collect();
    let fails = !regressions.is_empty() || missing.iter().any(|n| n.fails);
    html!(
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
        html!(out, "<li>got worse: {}</li>", describe(r));
    }
    for r in within_noise.unwrap_or_default() {
        html!(out, "<li>worse beyond its limit but not significant: {}</li>", describe(r));
    }
    for n in missing {
        let what = if n.fails { "missing, fails the gate" } else { "not comparable" };
        html!(out, "<li>{}: {} (missing in {})</li>", n.figure, what, n.missing);
    }
    out.raw("</ul></div>");
}
