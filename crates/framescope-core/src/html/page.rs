//! Assembling the page: the header, the timeline and chart canvases, the figures and
//! peer tools' sections, the runs' headers, the shared histogram grid, the raw-frame
//! budget and the script's data.

use super::markup::{self, Html, html};
use super::tables::{self, Column};
use super::{CSS, Doc, Entry, JS, MAX_BINS, PAGE_RAW_BUDGET, PageRun, entry_file, runs_of};
use crate::figures::{Section, Unit};
use crate::report::{RunEntry, SettingsJson};
use serde_json::json;
use std::io::Write;

pub(super) fn section_warnings(out: &mut Html, warnings: &[crate::model::Warning]) {
    for w in warnings {
        html!(out, "<p class=\"warning\">warning: {}</p>", w.message);
    }
}

/// The big numbers of each run of a report page (at most four runs).
pub(super) fn headline(out: &mut Html, entries: &[Entry<'_>]) {
    let runs = runs_of(entries);
    if runs.is_empty() || runs.len() > 4 {
        return;
    }
    out.raw("<section class=\"headline\">");
    for (run, e) in runs.iter().zip(entries.iter().filter(|e| matches!(e.run, RunEntry::Run(_)))) {
        if run.summary.is_none() {
            continue;
        }
        html!(
            out,
            "<div class=\"tiles\"><h3><span class=\"swatch c{}\"></span>{}</h3>",
            e.colour,
            tables::short_name(&run.file)
        );
        let mut tile = |label: &str, value: String, unit: &str| {
            html!(
                out,
                "<div class=\"tile\"><span class=\"value\">{}</span><span class=\"unit\">{}</span><span class=\"label\">{}</span></div>",
                value,
                unit,
                label
            );
        };
        for f in TILES.iter().filter_map(|q| crate::figures::figure(q)) {
            let Some(v) = (f.value)(run) else { continue };
            let unit = match (f.unit, f.section) {
                (Unit::Fps, _) => "FPS".to_owned(),
                (_, Section::Stutters) => {
                    let share = crate::figures::figure("stutters.time_fraction");
                    let share = share.and_then(|t| Some(t.format((t.value)(run)?)));
                    format!("{} of time", share.unwrap_or_default())
                }
                (unit, _) => unit.suffix().to_owned(),
            };
            tile(f.title, f.number(v), &unit);
        }
        out.raw("</div>");
    }
    out.raw("</section>");
}

/// The figures of each run's tiles (`section.name`).
const TILES: [&str; 5] =
    ["summary.avg_fps", "summary.low_1pct_fps", "summary.p99_ms", "pacing.steady_fps", "stutters.count"];

/// The settings line, as the table's first line writes it.
fn settings_line(s: &SettingsJson) -> String {
    let mut buf = Vec::new();
    let _ = crate::report::write_settings(s, &mut buf);
    let text = String::from_utf8_lossy(&buf).trim().to_owned();
    text.strip_prefix("settings: ").map_or(text.clone(), str::to_owned)
}

/// Writes the whole page.
pub(super) fn write_page(
    doc: &Doc<'_>,
    mut pages: Vec<Option<PageRun>>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    pages.resize_with(doc.entries.len(), || None);
    limit_raw_frames(&mut pages);
    let grid = shared_histograms(&mut pages);
    let mut body = Html::new();
    html!(
        body,
        "<header><h1>{}</h1><p class=\"settings\">{}</p></header><main>{}",
        doc.title,
        settings_line(doc.settings),
        doc.top
    );
    body.raw(TIMELINE_AND_CHARTS);
    // One run: its figures beside its header and the peer tools' figures.
    let pair = doc.entries.len() == 1;
    if pair {
        body.raw("<div class=\"pair\"><div>");
    }
    let labels = labels(doc, &pages);
    figures_sections(&mut body, doc, &labels, pair);
    let headers: Vec<(&RunEntry, Option<&PageRun>, usize, &str)> = doc
        .entries
        .iter()
        .zip(&pages)
        .zip(&labels)
        .map(|((e, p), l)| (e.run, p.as_ref(), e.colour, l.as_str()))
        .collect();
    body.raw(if pair { "</div><div>" } else { "" });
    body.raw("<section id=\"runs\"><h2>Runs</h2>");
    tables::run_headers(&mut body, &headers);
    body.raw("</section>");
    if pair {
        peers_section(&mut body, doc, &labels, true);
        body.raw("</div></div>");
    }
    body.raw("</main>");
    html!(
        body,
        "<footer>Made by framescope {} — every figure is defined in docs/figures.md; hover a figure's name for its definition.</footer>",
        env!("CARGO_PKG_VERSION")
    );
    let mut page = Html::new();
    html!(
        page,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\"><title>framescope — {}</title>",
        policy(),
        doc.title
    );
    page.raw("<style>");
    page.raw(CSS);
    html!(page, "</style></head><body data-kind=\"{}\">{}", doc.kind, body);
    page.raw("<script type=\"application/json\" id=\"fs-data\">");
    page.json(&page_data(doc, &pages, &labels, grid));
    page.raw("</script><script>");
    page.raw(SCRIPT.as_str());
    page.raw("</script></body></html>\n");
    out.write_all(page.as_str().as_bytes())
}

/// The page's script: its parts, one after another, each ended by a line end.
static SCRIPT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| JS.iter().flat_map(|part| [*part, "\n"]).collect());

/// The Content-Security-Policy of every page: only its own script and style run.
static POLICY: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| markup::content_security_policy(&[SCRIPT.as_str()], &[CSS]));

fn policy() -> &'static str {
    POLICY.as_str()
}

/// The timeline and chart canvases the script draws into.
const TIMELINE_AND_CHARTS: &str = "<section id=\"timeline\"><h2>Timeline</h2>\
<div class=\"toolbar\"><span id=\"range\" aria-live=\"polite\"></span><span class=\"legend\">\
<span class=\"key within\"></span>within target <span class=\"key over\"></span>over \
<span class=\"key far\"></span>over twice <span class=\"key stutter\"></span>stutter \
<span class=\"key whisker\"></span>slowest frame</span>\
<button type=\"button\" id=\"zoom-out\" title=\"Zoom out\">−</button><button type=\"button\" id=\"zoom-in\" title=\"Zoom in\">+</button>\
<button type=\"button\" id=\"zoom-reset\">Whole run</button></div>\
<div class=\"canvas-wrap\"><canvas id=\"tl\" tabindex=\"0\" aria-label=\"Timeline of frame times: wheel to zoom, drag to pan\"></canvas>\
<div id=\"tip\" class=\"tip\" role=\"status\"></div></div>\
<p class=\"note\">Wheel or +/− to zoom, drag or ←/→ to pan, double-click for the whole run. Zoomed out, a column's bar is its typical (median) frame, the whisker its slowest, the colour its share of time over the target.</p></section>\
<section id=\"charts\"><h2>Distribution</h2><div class=\"charts\">\
<figure><figcaption>Frame time by percentile</figcaption><div class=\"canvas-wrap\"><canvas id=\"ch-pct\"></canvas><div class=\"tip\"></div></div></figure>\
<figure><figcaption>Slow and excess time by target FPS</figcaption><div class=\"canvas-wrap\"><canvas id=\"ch-pacing\"></canvas><div class=\"tip\"></div></div></figure>\
<figure><figcaption>Frame-time histogram</figcaption><div class=\"canvas-wrap\"><canvas id=\"ch-hist\"></canvas><div class=\"tip\"></div></div></figure>\
</div></section>";

/// The figures table (runs and set means) and, unless `pair` puts them elsewhere,
/// the peer tools' figures.
fn figures_sections(body: &mut Html, doc: &Doc<'_>, names: &[String], pair: bool) {
    let columns = columns(doc);
    body.raw("<section id=\"figures\"><h2>Figures</h2>");
    if !tables::figures_table(body, &columns, names, false) {
        body.raw("<p class=\"note\">No figures: no run has usable frame times.</p>");
    }
    body.raw("</section>");
    if !pair {
        peers_section(body, doc, names, false);
    }
}

/// The peer tools' figures, in a collapsible section.
fn peers_section(body: &mut Html, doc: &Doc<'_>, names: &[String], open: bool) {
    let columns = columns(doc);
    body.raw(if open { "<details id=\"peers\" open>" } else { "<details id=\"peers\">" });
    body.raw("<summary>As other tools report it (CapFrameX, FrameView, PresentMon, MangoHud)</summary>\
        <p class=\"note\">Each tool's own definitions on the same frames (docs/figures.md §10); compare like with like.</p>");
    if !tables::figures_table(body, &columns, names, true) {
        body.raw("<p class=\"note\">None: these tools define their figures on frames.</p>");
    }
    body.raw("</details>");
}

/// Each run's label: its name without folders, and its trace when another run of the
/// page has the same name (`report --trace all`).
fn labels(doc: &Doc<'_>, pages: &[Option<PageRun>]) -> Vec<String> {
    let names: Vec<&str> = doc
        .entries
        .iter()
        .zip(pages)
        .map(|(e, p)| tables::short_name(p.as_ref().map_or_else(|| entry_file(e.run), |p| p.name.as_str())))
        .collect();
    names
        .iter()
        .zip(&doc.entries)
        .map(|(name, e)| match e.run {
            RunEntry::Run(r) if names.iter().filter(|n| *n == name).count() > 1 => {
                let id = match (r.process_id, &r.swap_chain) {
                    (Some(p), Some(sc)) => format!(" (PID {p}, {sc})"),
                    (Some(p), None) => format!(" (PID {p})"),
                    _ => String::new(),
                };
                format!("{name} · {}{id}", r.application)
            }
            _ => (*name).to_owned(),
        })
        .collect()
}

/// The figures table's columns: each set's runs, then its mean.
fn columns<'a>(doc: &'a Doc<'a>) -> Vec<Column<'a>> {
    let mut columns = Vec::new();
    let mut sides: Vec<Option<&'static str>> = doc.entries.iter().map(|e| e.set).collect();
    sides.dedup();
    for side in sides {
        for (index, e) in doc.entries.iter().enumerate().filter(|(_, e)| e.set == side) {
            if let RunEntry::Run(run) = e.run {
                columns.push(Column::Run { index, run, colour: e.colour, outlier: e.outlier });
            }
        }
        if let Some((side, set)) = doc.means.iter().find(|(s, _)| Some(*s) == side) {
            columns.push(Column::Mean { side, set, colour: usize::from(*side == "other") });
        }
    }
    columns
}

/// Keeps raw frames for the runs that fit [`PAGE_RAW_BUDGET`], in order, and drops
/// the others' (a caller gathering many runs calls it as they come, to bound memory).
pub fn limit_raw_frames(pages: &mut [Option<PageRun>]) {
    let mut spent = 0;
    for p in pages.iter_mut().flatten() {
        let n = p.raw_frames();
        if spent + n > PAGE_RAW_BUDGET {
            p.drop_raw();
        } else {
            spent += n;
        }
    }
}

/// One bin grid for every run's histogram (nice widths, 60–120 bins from the fastest
/// frame to the slowest 99.9th percentile); fills each run's counts. `(start, width)`.
pub(super) fn shared_histograms(pages: &mut [Option<PageRun>]) -> Option<(f64, f64)> {
    let spans = pages.iter().flatten().filter(|p| p.charts.is_some() && !p.distribution.tenth_us.is_empty());
    let (min, top) = spans
        .map(|p| (p.distribution.min_ms, p.distribution.p999_ms))
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))?;
    let span = top - min;
    let raw = if span > 0.0 { span / MAX_BINS } else { min / 50.0 };
    // 10^e with a negative e as 1 / 10^-e (exact products): MinGW's powi is an ulp off
    // there, which moved the grid on Windows.
    let e = raw.log10().floor() as i32;
    let decade = if e >= 0 { 10_f64.powi(e) } else { 1.0 / 10_f64.powi(-e) };
    let bin = [1.0, 2.0, 2.5, 5.0, 10.0].into_iter().map(|m| m * decade).find(|&w| w >= raw).unwrap_or(1.0);
    let bin = if bin.is_finite() && bin > 0.0 { bin } else { 1.0 };
    let start = (min / bin).floor() * bin;
    let bins = (((top - start) / bin).floor() as usize + 1).min(2 * MAX_BINS as usize);
    for p in pages.iter_mut().flatten() {
        let Some(charts) = p.charts.as_mut() else { continue };
        let mut counts = vec![0u64; bins];
        let mut overflow = 0;
        for &(q, count) in &p.distribution.tenth_us {
            let i = ((q as f64 / 1e4 - start) / bin).floor();
            match counts.get_mut(i.max(0.0) as usize) {
                Some(c) => *c += count,
                None => overflow += count,
            }
        }
        charts.histogram = counts;
        charts.overflow = overflow;
    }
    Some((start, bin))
}

/// The script's data: settings, each run's name, colour, set, timeline and charts.
fn page_data(
    doc: &Doc<'_>,
    pages: &[Option<PageRun>],
    labels: &[String],
    grid: Option<(f64, f64)>,
) -> String {
    let runs: Vec<serde_json::Value> = doc
        .entries
        .iter()
        .zip(pages)
        .zip(labels)
        .map(|((e, p), label)| match p {
            Some(p) => json!({
                "name": label,
                "colour": e.colour,
                "set": e.set,
                "outlier": e.outlier,
                "timeline": p.timeline,
                "charts": p.charts,
                "rows": p.rows,
            }),
            None => serde_json::Value::Null,
        })
        .collect();
    let data = json!({
        "kind": doc.kind,
        "target_fps": doc.settings.target_fps,
        "histogram": grid.map(|(start, bin)| json!({"start": start, "bin": bin})),
        "runs": runs,
    });
    data.to_string()
}
