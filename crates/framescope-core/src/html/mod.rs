//! One self-contained HTML page for a run, a comparison or two sets of runs: the
//! documents `framescope report` / `compare` print (figures with the readable table's
//! decimals, the comparison with deltas, verdicts and intervals, the gate's findings,
//! system facts, the peer tools' figures in a collapsible section, definitions on
//! hover) and, drawn by the page's own script on canvases, an interactive timeline
//! (zoom and pan, hover, stutters marked) and the percentile, slow/excess and histogram
//! charts, overlaid for comparisons.
//!
//! Nothing is fetched: the style sheet and script (`page.css` and the scripts, in this
//! folder; the script is `common.js`, `timeline.js` and `charts.js`) are inlined, and the data is a JSON element with base64 fields. The timeline
//! is reduced here ([`PageRun`], with the window's level-of-detail structures), so a
//! long capture gives a page of a few megabytes that opens at once.
//!
//! Build a [`PageRun`] per reported run while its trace is loaded, then write the page
//! with [`write_report_page`], [`write_compare_page`] or [`write_sets_page`]; or write a
//! single run's page at once with [`write_run_page`].

mod compared;
pub mod defs;
mod encode;
mod reduce;
mod tables;

pub use reduce::PageRun;

use crate::analysis::Settings;
use crate::model::Trace;
use crate::report::sets::{SetsReport, Side};
use crate::report::{CompareReport, Report, Run, RunEntry, SettingsJson};
use encode::{escape, script_json};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write;
use tables::Column;

/// The most frames a run may have to keep its raw frames in the page (about 4 bytes a
/// frame); a longer run zooms in only as far as its finest level of detail.
pub const RAW_FRAME_BUDGET: usize = 2_000_000;
/// The most raw frames a page keeps over all its runs (later runs past it keep only
/// their levels).
pub const PAGE_RAW_BUDGET: usize = 4_000_000;
/// Most regular histogram bins (as the window's chart).
const MAX_BINS: f64 = 120.0;

const CSS: &str = include_str!("page.css");
/// The page's script: helpers, the timeline, the charts (run in this order).
const JS: [&str; 3] = [include_str!("common.js"), include_str!("timeline.js"), include_str!("charts.js")];

/// Run colours of a comparison (the window's order: baseline first).
const COLOURS: usize = 6;

/// Writes the page of one run: `run` as [`crate::report::run_trace`] gave it for
/// `trace` with `settings`; `system` is the capture's `FileInfo::system`.
pub fn write_run_page(
    run: &Run,
    system: &[(String, String)],
    trace: &Trace,
    settings: &Settings,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let page = PageRun::new(run, system, trace, settings);
    let report = Report {
        schema: crate::report::SCHEMA,
        settings: SettingsJson::from(settings),
        runs: vec![RunEntry::Run(Box::new(run.clone()))],
    };
    write_report_page(&report, vec![Some(page)], out)
}

/// Writes the page of a `framescope report` document; `pages[i]` belongs to
/// `report.runs[i]` (`None` for a failed run).
pub fn write_report_page(
    report: &Report,
    pages: Vec<Option<PageRun>>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let entries: Vec<Entry<'_>> = report
        .runs
        .iter()
        .enumerate()
        .map(|(i, e)| Entry { run: e, colour: i % COLOURS, set: None, outlier: false })
        .collect();
    let ok: Vec<&Run> = runs_of(&entries);
    let title = match ok.as_slice() {
        [one] => tables::short_name(&one.file).to_owned(),
        _ => format!("{} runs", report.runs.len()),
    };
    let mut top = String::new();
    headline(&mut top, &entries);
    let doc = Doc { kind: "report", title, settings: &report.settings, entries, top, means: Vec::new() };
    write_page(&doc, pages, out)
}

/// Writes the page of a two-run `framescope compare` document (`pages` as
/// [`write_report_page`]'s); written whether or not the gate failed.
pub fn write_compare_page(
    doc: &CompareReport,
    pages: Vec<Option<PageRun>>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let entries: Vec<Entry<'_>> = doc
        .report
        .runs
        .iter()
        .enumerate()
        .map(|(i, e)| Entry { run: e, colour: i % COLOURS, set: None, outlier: false })
        .collect();
    let names: Vec<&str> = doc.report.runs.iter().map(|e| tables::short_name(entry_file(e))).collect();
    let title = names.join(" vs ");
    let mut top = String::new();
    compared::gate_box(&mut top, doc.regressions.as_deref(), doc.not_comparable.as_deref(), None);
    section_warnings(&mut top, &doc.warnings);
    match &doc.comparison {
        Some(c) => {
            top.push_str("<section id=\"comparison\"><h2>Comparison: other against baseline</h2>");
            compared::comparison_table(&mut top, c);
            top.push_str("</section>");
        }
        None => top.push_str("<p class=\"error\">No comparison: a file could not be reported.</p>"),
    }
    let page =
        Doc { kind: "compare", title, settings: &doc.report.settings, entries, top, means: Vec::new() };
    write_page(&page, pages, out)
}

/// Writes the page of a sets comparison (`compare A1 A2 … --vs B1 B2 …`); `pages[i]`
/// belongs to `doc.runs[i]`.
pub fn write_sets_page(
    doc: &SetsReport,
    pages: Vec<Option<PageRun>>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let entries: Vec<Entry<'_>> = doc
        .runs
        .iter()
        .map(|r| Entry {
            run: &r.entry,
            colour: usize::from(r.set == Side::Other.name()),
            set: Some(r.set),
            outlier: r.outlier,
        })
        .collect();
    let count = |side: Side| doc.runs.iter().filter(|r| r.set == side.name()).count();
    let title = format!("{} runs vs {} runs", count(Side::Baseline), count(Side::Other));
    let mut top = String::new();
    compared::gate_box(
        &mut top,
        doc.regressions.as_deref(),
        doc.not_comparable.as_deref(),
        doc.within_noise.as_deref(),
    );
    section_warnings(&mut top, &doc.warnings);
    match &doc.comparison {
        Some(c) => {
            top.push_str(
                "<section id=\"comparison\"><h2>Comparison: other set against baseline set</h2>\
                 <p class=\"note\">Set means; Welch's 95 % interval of the difference.</p>",
            );
            if let Some(sets) = &doc.sets {
                compared::sets_summary(&mut top, sets);
            }
            compared::sets_table(&mut top, c);
            top.push_str("</section>");
        }
        None => top.push_str(
            "<p class=\"error\">No comparison: a file could not be reported, or a set has fewer than two runs.</p>",
        ),
    }
    let means =
        doc.sets.as_ref().map_or_else(Vec::new, |s| vec![("baseline", &s.baseline), ("other", &s.other)]);
    let page = Doc { kind: "sets", title, settings: &doc.settings, entries, top, means };
    write_page(&page, pages, out)
}

/// A run of the page with its colour and set.
struct Entry<'a> {
    run: &'a RunEntry,
    colour: usize,
    set: Option<&'static str>,
    outlier: bool,
}

/// What every kind of page shares.
struct Doc<'a> {
    kind: &'static str,
    title: String,
    settings: &'a SettingsJson,
    entries: Vec<Entry<'a>>,
    /// The gate and comparison, above the timeline.
    top: String,
    /// The sets' means, for the figures table.
    means: Vec<(&'static str, &'a crate::report::sets::SetJson)>,
}

fn entry_file(e: &RunEntry) -> &str {
    match e {
        RunEntry::Run(r) => &r.file,
        RunEntry::Failed(f) => &f.file,
    }
}

fn runs_of<'a>(entries: &[Entry<'a>]) -> Vec<&'a Run> {
    entries
        .iter()
        .filter_map(|e| match e.run {
            RunEntry::Run(r) => Some(&**r),
            RunEntry::Failed(_) => None,
        })
        .collect()
}

fn section_warnings(out: &mut String, warnings: &[crate::model::Warning]) {
    for w in warnings {
        let _ = write!(out, "<p class=\"warning\">warning: {}</p>", escape(&w.message));
    }
}

/// The big numbers of each run of a report page (at most four runs).
fn headline(out: &mut String, entries: &[Entry<'_>]) {
    let runs = runs_of(entries);
    if runs.is_empty() || runs.len() > 4 {
        return;
    }
    out.push_str("<section class=\"headline\">");
    for (run, e) in runs.iter().zip(entries.iter().filter(|e| matches!(e.run, RunEntry::Run(_)))) {
        let Some(s) = run.summary else { continue };
        let _ = write!(
            out,
            "<div class=\"tiles\"><h3><span class=\"swatch c{}\"></span>{}</h3>",
            e.colour,
            escape(tables::short_name(&run.file))
        );
        let mut tile = |label: &str, value: String, unit: &str| {
            let _ = write!(
                out,
                "<div class=\"tile\"><span class=\"value\">{value}</span><span class=\"unit\">{unit}</span><span class=\"label\">{label}</span></div>"
            );
        };
        tile("average", format!("{:.2}", s.avg_fps), "FPS");
        tile("1% low", format!("{:.2}", s.low_1pct_fps), "FPS");
        tile("p99 frame time", format!("{:.3}", s.p99_ms), "ms");
        if let Some(p) = run.pacing {
            tile("steady", p.steady_fps.to_string(), "FPS");
        }
        if let Some(st) = &run.stutters {
            tile("stutters", st.count.to_string(), &format!("{:.2} % of time", st.time_fraction * 100.0));
        }
        out.push_str("</div>");
    }
    out.push_str("</section>");
}

/// The settings line, as the table's first line writes it.
fn settings_line(s: &SettingsJson) -> String {
    let mut buf = Vec::new();
    let _ = crate::report::write_settings(s, &mut buf);
    let text = String::from_utf8_lossy(&buf).trim().to_owned();
    text.strip_prefix("settings: ").map_or(text.clone(), str::to_owned)
}

/// Writes the whole page.
fn write_page(doc: &Doc<'_>, mut pages: Vec<Option<PageRun>>, out: &mut impl Write) -> std::io::Result<()> {
    pages.resize_with(doc.entries.len(), || None);
    limit_raw_frames(&mut pages);
    let grid = shared_histograms(&mut pages);
    let mut body = String::new();
    let _ = write!(
        body,
        "<header><h1>{}</h1><p class=\"settings\">{}</p></header><main>{}",
        escape(&doc.title),
        escape(&settings_line(doc.settings)),
        doc.top
    );
    body.push_str(TIMELINE_AND_CHARTS);
    // One run: its figures beside its header and the peer tools' figures.
    let pair = doc.entries.len() == 1;
    if pair {
        body.push_str("<div class=\"pair\"><div>");
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
    body.push_str(if pair { "</div><div>" } else { "" });
    body.push_str("<section id=\"runs\"><h2>Runs</h2>");
    tables::run_headers(&mut body, &headers);
    body.push_str("</section>");
    if pair {
        peers_section(&mut body, doc, &labels, true);
        body.push_str("</div></div>");
    }
    body.push_str("</main>");
    let _ = write!(
        body,
        "<footer>Made by framescope {} — every figure is defined in docs/figures.md; hover a figure's name for its definition.</footer>",
        env!("CARGO_PKG_VERSION")
    );
    let data = page_data(doc, &pages, &labels, grid);
    write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\"><title>framescope — {}</title>\
         <style>{CSS}</style></head><body data-kind=\"{}\">{body}\
         <script type=\"application/json\" id=\"fs-data\">",
        escape(&doc.title),
        doc.kind
    )?;
    out.write_all(script_json(&data).as_bytes())?;
    out.write_all(b"</script><script>")?;
    for part in JS {
        out.write_all(part.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.write_all(b"</script></body></html>\n")
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
fn figures_sections(body: &mut String, doc: &Doc<'_>, names: &[String], pair: bool) {
    let columns = columns(doc);
    body.push_str("<section id=\"figures\"><h2>Figures</h2>");
    if !tables::figures_table(body, &columns, names, false) {
        body.push_str("<p class=\"note\">No figures: no run has usable frame times.</p>");
    }
    body.push_str("</section>");
    if !pair {
        peers_section(body, doc, names, false);
    }
}

/// The peer tools' figures, in a collapsible section.
fn peers_section(body: &mut String, doc: &Doc<'_>, names: &[String], open: bool) {
    let columns = columns(doc);
    body.push_str(if open { "<details id=\"peers\" open>" } else { "<details id=\"peers\">" });
    body.push_str("<summary>As other tools report it (CapFrameX, FrameView, PresentMon, MangoHud)</summary>\
        <p class=\"note\">Each tool's own definitions on the same frames (docs/figures.md §10); compare like with like.</p>");
    if !tables::figures_table(body, &columns, names, true) {
        body.push_str("<p class=\"note\">None: these tools define their figures on frames.</p>");
    }
    body.push_str("</details>");
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
fn shared_histograms(pages: &mut [Option<PageRun>]) -> Option<(f64, f64)> {
    let spans = pages.iter().flatten().filter(|p| p.charts.is_some() && !p.distribution.tenth_us.is_empty());
    let (min, top) = spans
        .map(|p| (p.distribution.min_ms, p.distribution.p999_ms))
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))?;
    let span = top - min;
    let raw = if span > 0.0 { span / MAX_BINS } else { min / 50.0 };
    let decade = 10_f64.powi(raw.log10().floor() as i32);
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use reduce::Distribution;

    /// Two runs for the shared grid: A 10 ms ×4 and 12.5 ms, B 11 ms ×3. From 10 to
    /// A's p99.9 (12.49): 2.49 / 120 = 0.0208 → a 0.025 ms bin, 100 bins from 10 ms
    /// (⌊2.49 / 0.025⌋ + 1); A's 12.5 ms lies at the last bin's end: overflow.
    #[test]
    fn histograms_share_one_grid() {
        let run = |values: &[(u64, u64)], p999: f64| {
            let mut p = page_run();
            p.distribution =
                Distribution { tenth_us: values.to_vec(), min_ms: values[0].0 as f64 / 1e4, p999_ms: p999 };
            Some(p)
        };
        let mut pages = vec![run(&[(100_000, 4), (125_000, 1)], 12.49), None, run(&[(110_000, 3)], 11.0)];
        let (start, bin) = shared_histograms(&mut pages).unwrap();
        assert_eq!((start, bin), (10.0, 0.025));
        let a = pages[0].as_ref().unwrap().charts.as_ref().unwrap();
        assert_eq!(
            (a.histogram.len(), a.histogram[0], a.histogram.iter().sum::<u64>(), a.overflow),
            (100, 4, 4, 1)
        );
        let b = pages[2].as_ref().unwrap().charts.as_ref().unwrap();
        assert_eq!((b.histogram[40], b.histogram.iter().sum::<u64>(), b.overflow), (3, 3, 0));
    }

    /// A trace of frames `ft` (ms) one after another from 0.
    fn trace(ft: &[f64]) -> Trace {
        let start = ft.iter().scan(0.0, |t, v| {
            let s = *t;
            *t += v;
            Some(s)
        });
        Trace {
            meta: crate::model::TraceMeta {
                application: "a.exe".into(),
                process_id: None,
                swap_chain: None,
                runtime: None,
                present_modes: Vec::new(),
            },
            frames: crate::model::Frames {
                frame_time_ms: ft.to_vec(),
                start_ms: start.collect(),
                display_ms: vec![f64::NAN; ft.len()],
                dropped: vec![false; ft.len()],
                ..crate::model::Frames::default()
            },
            warnings: Vec::new(),
        }
    }

    /// A page run of a few frames (its distribution replaced by the test).
    fn page_run() -> PageRun {
        let trace = trace(&[10.0; 3]);
        let settings = Settings::default();
        let run = crate::report::run_trace("a.csv", &page_run_info(), &[], &trace, &settings, None);
        PageRun::new(&run, &[], &trace, &settings)
    }

    /// The page of one run holds its figures with the readable table's decimals, no
    /// reference to anything outside itself, and the data its script reads.
    #[test]
    fn a_run_page_is_self_contained() {
        let trace = trace(&[10.0, 20.0, 10.0]);
        let info = page_run_info();
        let settings = Settings::default();
        let run = crate::report::run_trace("dir/a<b>.csv", &info, &[], &trace, &settings, None);
        let mut out = Vec::new();
        write_run_page(&run, &[("GPU".into(), "RTX & co".into())], &trace, &settings, &mut out).unwrap();
        let html = String::from_utf8(out).unwrap();
        // avg FPS = 1000 · 3 / 40 = 75; p50 = 10 ms.
        assert!(html.contains("data-key=\"summary.avg_fps\" data-run=\"0\">75.00</td>"), "avg");
        assert!(html.contains("data-key=\"summary.p50_ms\" data-run=\"0\">10.000</td>"), "p50");
        assert!(html.contains("a&lt;b&gt;.csv") && html.contains("RTX &amp; co"), "escaped");
        for outside in ["http:", "https:", "src=", "href=", "@import", "url("] {
            assert!(!html.contains(outside), "the page refers to {outside}");
        }
        let data = html.split("id=\"fs-data\">").nth(1).and_then(|s| s.split("</script>").next()).unwrap();
        let json: serde_json::Value = serde_json::from_str(data).unwrap();
        assert_eq!(json["runs"][0]["timeline"]["frames"], 3);
        assert_eq!(json["runs"][0]["name"], "a<b>.csv");
    }

    fn page_run_info() -> crate::model::FileInfo {
        crate::model::FileInfo {
            path: "a.csv".into(),
            format: crate::model::Format::PresentMon1,
            format_version: String::new(),
            system: Vec::new(),
            dropped_known: false,
            target_fps: None,
        }
    }
}
