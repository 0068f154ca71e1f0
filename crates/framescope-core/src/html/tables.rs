//! The page's tables of runs, written as HTML in Rust so every figure reads as the
//! readable table writes it: the runs' headers (application, format, system facts,
//! warnings) and the figures table, one column per run (and per set mean), its rows the
//! compared figures (`report::compare::FIGURES`) with their definitions on hover.

use super::markup::{Html, html, markup};
use super::reduce::PageRun;
use crate::figures::{FIGURES, Figure, Section, Unit};
use crate::report::sets::SetJson;
use crate::report::{Run, RunEntry};

/// A column of the figures table: a run, or a set's means.
pub(super) enum Column<'a> {
    /// A run: its index in the document's runs, the run, its colour, whether it is an
    /// outlier left out of its set.
    Run { index: usize, run: &'a Run, colour: usize, outlier: bool },
    /// A set's means (`sets.<side>.mean`), in the set's colour.
    Mean { side: &'static str, set: &'a SetJson, colour: usize },
}

impl Column<'_> {
    fn value(&self, figure: &'static Figure) -> Option<f64> {
        match self {
            Self::Run { run, .. } => (figure.value)(run).filter(|v| v.is_finite()),
            Self::Mean { set, .. } => {
                set.mean.0.iter().find(|(f, _)| std::ptr::eq(*f, figure)).and_then(|(_, v)| *v)
            }
        }
    }

    /// The cell's attributes naming what it shows, for scripts and tests.
    fn attributes(&self) -> Html {
        match self {
            Self::Run { index, .. } => markup!("data-run=\"{}\"", index),
            Self::Mean { side, .. } => markup!("data-mean=\"{}\"", side),
        }
    }

    fn heading(&self, names: &[String]) -> Html {
        match self {
            Self::Run { index, colour, outlier, .. } => {
                let name = names.get(*index).map_or("", String::as_str);
                let mut out = markup!("<span class=\"swatch c{}\"></span>{}", colour, name);
                if *outlier {
                    out.raw(" <span class=\"note\">(outlier, left out)</span>");
                }
                out
            }
            Self::Mean { side, set, colour } => markup!(
                "<span class=\"swatch c{}\"></span>{} set mean <span class=\"note\">({} of {} runs)</span>",
                colour,
                side,
                set.runs,
                set.given
            ),
        }
    }
}

/// A file's name without its folders (the whole path is in the run's header).
pub(super) fn short_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().filter(|s| !s.is_empty()).unwrap_or(path)
}

/// A figure's name cell (its registry name), with its definition on hover.
pub(super) fn name_cell(figure: &Figure) -> Html {
    markup!(
        "<th scope=\"row\"><span class=\"def\" title=\"{}\">{}</span></th>",
        figure.help,
        figure.display_name()
    )
}

/// The figures of `sections` (framescope's own, or the peer tools'), one row per
/// figure some column has, one column per run or set mean.
pub(super) fn figures_table(out: &mut Html, columns: &[Column<'_>], names: &[String], peers: bool) -> bool {
    let rows: Vec<&'static Figure> = FIGURES
        .iter()
        .filter(|f| f.section.is_convention() == peers)
        .filter(|f| columns.iter().any(|c| c.value(f).is_some()))
        .collect();
    if rows.is_empty() {
        return false;
    }
    out.raw("<div class=\"scroll\"><table class=\"figures\"><thead><tr><th></th>");
    for c in columns {
        html!(out, "<th scope=\"col\">{}</th>", c.heading(names));
    }
    out.raw("</tr></thead><tbody>");
    let mut section: Option<Section> = None;
    for figure in rows {
        if section != Some(figure.section) {
            section = Some(figure.section);
            html!(
                out,
                "<tr class=\"group\"><th colspan=\"{}\">{}</th></tr>",
                columns.len() + 1,
                figure.section.heading()
            );
        }
        let qualified = figure.qualified_name();
        out.raw("<tr>");
        out.push(&name_cell(figure));
        for c in columns {
            let text = c.value(figure).map_or_else(|| "—".to_owned(), |v| cell_text(figure, v, c));
            html!(out, "<td data-key=\"{}\" {}>{}</td>", qualified, c.attributes(), text);
        }
        out.raw("</tr>");
    }
    out.raw("</tbody></table></div>");
    true
}

/// A value as the readable table writes it; a sampled log's frame count is an estimate.
fn cell_text(figure: &Figure, v: f64, column: &Column<'_>) -> String {
    let text = figure.format(v);
    match column {
        Column::Run { run, .. } if run.samples.is_some() && figure.name == "frames" => format!("≈{text}"),
        _ => text,
    }
}

/// The decimals of a duration in seconds, as the registry writes `run.duration_ms`.
const DURATION_DECIMALS: usize = 3;

/// One header per run: file, format, trace, frames, source, system facts, warnings;
/// a failed file's error.
pub(super) fn run_headers(out: &mut Html, entries: &[(&RunEntry, Option<&PageRun>, usize, &str)]) {
    out.raw("<div class=\"runs\">");
    for (i, (entry, page, colour, label)) in entries.iter().enumerate() {
        match entry {
            RunEntry::Run(run) => run_header(out, i, run, (*page, label), *colour),
            RunEntry::Failed(f) => {
                html!(
                    out,
                    "<article class=\"run failed\" data-run=\"{}\"><h3>{}</h3><p class=\"error\">{}</p></article>",
                    i,
                    f.file,
                    f.error.message
                );
            }
            RunEntry::Etl(e) => {
                html!(
                    out,
                    "<article class=\"run failed\" data-run=\"{}\"><h3>{}</h3><p>an ETW trace, not a run</p></article>",
                    i,
                    e.file
                );
            }
        }
    }
    out.raw("</div>");
}

fn run_header(out: &mut Html, i: usize, run: &Run, (page, label): (Option<&PageRun>, &str), colour: usize) {
    html!(
        out,
        "<article class=\"run\" data-run=\"{}\"><h3><span class=\"swatch c{}\"></span>{}</h3>",
        i,
        colour,
        label
    );
    let mut facts = vec![format!("{} {}", run.format, run.format_version), run.application.clone()];
    facts.extend(run.process_id.map(|p| format!("PID {p}")));
    facts.extend(run.swap_chain.as_ref().map(|s| format!("swap chain {s}")));
    facts.extend(run.runtime.clone());
    if !run.present_modes.is_empty() {
        facts.push(run.present_modes.join(", "));
    }
    html!(out, "<p class=\"path\">{}</p><p>{}</p>", run.file, facts.join(" · "));
    let frames = match run.samples {
        Some(n) => format!("≈{} frames (estimated from {n} samples)", run.frames),
        None => format!("{} frames", run.frames),
    };
    let dropped = run.dropped_frames.map_or_else(|| "dropped unknown".to_owned(), |d| format!("{d} dropped"));
    let duration =
        run.duration_ms.map_or_else(|| "—".to_owned(), |d| Unit::Seconds.format(d, DURATION_DECIMALS));
    html!(out, "<p>{} · {} · {} · frame time: {}</p>", frames, dropped, duration, run.frame_time);
    display_facts(out, run);
    if run.sampled {
        out.raw(
            "<p class=\"note\">Sampled log: figures from samples; pacing, stutters, oscillation and \
             frame health need per-frame data, and there are no frame-time charts.</p>",
        );
    }
    if let Some(note) = crate::report::sampled_lows_note(run) {
        let own = if run.tool_figures.is_some() {
            "; the logging tool's own figures below are per frame"
        } else {
            ""
        };
        html!(out, "<p class=\"note\">Lows: {}{}.</p>", note, own);
    }
    // The capture's system facts: the file's own, else those of its columns (FrameView).
    let system = page.map(|p| p.system.as_slice()).filter(|s| !s.is_empty()).unwrap_or(&run.system);
    if !system.is_empty() {
        out.raw("<details open class=\"system\"><summary>System</summary><table class=\"facts\">");
        for (k, v) in system {
            html!(out, "<tr><th scope=\"row\">{}</th><td>{}</td></tr>", k, v);
        }
        out.raw("</table></details>");
    }
    telemetry_table(out, run, page);
    if !run.other_traces.is_empty() {
        html!(
            out,
            "<p class=\"note\">The file also holds {} other trace(s); see them with --trace all.</p>",
            run.other_traces.len()
        );
    }
    warnings(out, &run.warnings);
    out.raw("</article>");
}

/// The refresh rate (VSYNC) and the frame-health spikes, as the window's panel says them.
fn display_facts(out: &mut Html, run: &Run) {
    if !run.sampled {
        match &run.vsync {
            Some(v) => {
                let how = match v.source {
                    crate::analysis::VsyncSource::Detected => {
                        format!("detected (confidence {})", Unit::Fraction.format(v.confidence, 0))
                    }
                    crate::analysis::VsyncSource::User => "set by the user".to_owned(),
                    crate::analysis::VsyncSource::Capture => "as the capture states it".to_owned(),
                };
                html!(
                    out,
                    "<p class=\"refresh\">Refresh {} Hz — {} · VSYNC every {}</p>",
                    format!("{:.2}", v.refresh_hz),
                    how,
                    Unit::Ms.format(v.period_ms, 3)
                );
            }
            None => out.raw("<p class=\"refresh\">Refresh not detected (no display times on a grid)</p>"),
        }
    }
    if let Some(h) = &run.health {
        let spikes: Vec<String> =
            h.spikes.iter().filter(|(_, s)| !s.is_empty()).map(|(a, s)| format!("{a} {}", s.len())).collect();
        let text = if spikes.is_empty() { "none".to_owned() } else { spikes.join(", ") };
        html!(out, "<p class=\"health\">Frame health — spikes: {}</p>", text);
    }
}

/// Every telemetry column with its unit and its mean, minimum and maximum over the run.
fn telemetry_table(out: &mut Html, run: &Run, page: Option<&PageRun>) {
    if run.telemetry.is_empty() {
        return;
    }
    let unit_of =
        |name: &str| page.and_then(|p| p.rows.units.iter().find(|(n, _)| n == name)).map_or("", |(_, u)| *u);
    let drawn = page.map_or(String::new(), |p| match p.rows.telemetry_not_drawn {
        0 => ", all drawn on the timeline".to_owned(),
        n => format!(", {} drawn on the timeline", run.telemetry.len() - n),
    });
    html!(
        out,
        "<details class=\"telemetry\"><summary>Telemetry ({} columns{})</summary><table class=\"facts\">\
         <tr><th>column</th><th>unit</th><th>mean</th><th>min</th><th>max</th></tr>",
        run.telemetry.len(),
        drawn
    );
    let n = |v: f64| if v.is_finite() { format!("{v:.2}") } else { "—".to_owned() };
    for (name, s) in &run.telemetry {
        html!(
            out,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            name,
            unit_of(name),
            n(s.mean),
            n(s.min),
            n(s.max)
        );
    }
    out.raw("</table></details>");
}

fn warnings(out: &mut Html, warnings: &[crate::model::Warning]) {
    if warnings.is_empty() {
        return;
    }
    html!(out, "<details class=\"warnings\"><summary>Warnings ({})</summary><ul>", warnings.len());
    for w in warnings.iter().take(50) {
        let line = w.line.map_or_else(String::new, |l| format!("line {l}: "));
        html!(out, "<li>{}{}</li>", line, w.message);
    }
    if warnings.len() > 50 {
        html!(out, "<li>… {} more (see --json)</li>", warnings.len() - 50);
    }
    out.raw("</ul></details>");
}
