//! One self-contained HTML page for a run, a comparison or two sets of runs: the
//! documents `framescope report` / `compare` print (figures with the readable table's
//! decimals, the comparison with deltas, verdicts and intervals, the gate's findings,
//! system facts, the peer tools' figures in a collapsible section, definitions on
//! hover) and, drawn by the page's own script on canvases, an interactive timeline
//! (zoom and pan, hover, stutters marked) and the percentile, slow/excess and histogram
//! charts, overlaid for comparisons.
//!
//! Nothing is fetched: the style sheet and the script (`page.css`; `common.js`,
//! `timeline.js`, `charts.js`, in this folder) are inlined, and the data is a JSON
//! element with base64 fields. The timeline is reduced here ([`PageRun`], with the window's level-of-detail structures), so a
//! long capture gives a page of a few megabytes that opens at once.
//!
//! Build a [`PageRun`] per reported run while its trace is loaded, then write the page
//! with [`write_report_page`], [`write_compare_page`] or [`write_sets_page`]; or write a
//! single run's page at once with [`write_run_page`].

mod compared;
mod encode;
mod markup;
mod page;
mod reduce;
mod rows;
mod tables;

pub use markup::content_security_policy;
pub use page::limit_raw_frames;
pub use reduce::PageRun;

use crate::analysis::Settings;
use crate::model::Trace;
use crate::report::sets::{SetsReport, Side};
use crate::report::{CompareReport, Report, Run, RunEntry, SettingsJson};
use markup::Html;
use std::io::Write;

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
    let mut top = Html::new();
    page::headline(&mut top, &entries);
    let doc = Doc { kind: "report", title, settings: &report.settings, entries, top, means: Vec::new() };
    page::write_page(&doc, pages, out)
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
    let mut top = Html::new();
    compared::gate_box(&mut top, doc.regressions.as_deref(), doc.not_comparable.as_deref(), None);
    page::section_warnings(&mut top, &doc.warnings);
    match &doc.comparison {
        Some(c) => {
            top.raw("<section id=\"comparison\"><h2>Comparison: other against baseline</h2>");
            let name = |i: usize| names.get(i).copied().unwrap_or_default();
            compared::comparison_table(&mut top, c, [name(0), name(1)]);
            top.raw("</section>");
        }
        None => top.raw("<p class=\"error\">No comparison: a file could not be reported.</p>"),
    }
    let page =
        Doc { kind: "compare", title, settings: &doc.report.settings, entries, top, means: Vec::new() };
    page::write_page(&page, pages, out)
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
    let mut top = Html::new();
    compared::gate_box(
        &mut top,
        doc.regressions.as_deref(),
        doc.not_comparable.as_deref(),
        doc.within_noise.as_deref(),
    );
    page::section_warnings(&mut top, &doc.warnings);
    match &doc.comparison {
        Some(c) => {
            top.raw(
                "<section id=\"comparison\"><h2>Comparison: other set against baseline set</h2>\
                 <p class=\"note\">Set means; Welch's 95 % interval of the difference.</p>",
            );
            if let Some(sets) = &doc.sets {
                compared::sets_summary(&mut top, sets);
            }
            compared::sets_table(&mut top, c);
            top.raw("</section>");
        }
        None => top.raw(
            "<p class=\"error\">No comparison: a file could not be reported, or a set has fewer than two runs.</p>",
        ),
    }
    let means =
        doc.sets.as_ref().map_or_else(Vec::new, |s| vec![("baseline", &s.baseline), ("other", &s.other)]);
    let page = Doc { kind: "sets", title, settings: &doc.settings, entries, top, means };
    page::write_page(&page, pages, out)
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
    top: Html,
    /// The sets' means, for the figures table.
    means: Vec<(&'static str, &'a crate::report::sets::SetJson)>,
}

fn entry_file(e: &RunEntry) -> &str {
    match e {
        RunEntry::Run(r) => &r.file,
        RunEntry::Failed(f) => &f.file,
        RunEntry::Etl(e) => &e.file,
    }
}

fn runs_of<'a>(entries: &[Entry<'a>]) -> Vec<&'a Run> {
    entries
        .iter()
        .filter_map(|e| match e.run {
            RunEntry::Run(r) => Some(&**r),
            RunEntry::Failed(_) | RunEntry::Etl(_) => None,
        })
        .collect()
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
        let (start, bin) = page::shared_histograms(&mut pages).unwrap();
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
            meta: crate::model::TraceMeta::named("a.exe"),
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
        let run = crate::report::run_trace(
            &crate::report::RunSource { file: "a.csv", info: &page_run_info(), warnings: &[] },
            &trace,
            &settings,
            None,
        );
        PageRun::new(&run, &[], &trace, &settings)
    }

    /// The page of one run holds its figures with the readable table's decimals, no
    /// reference to anything outside itself, and the data its script reads.
    #[test]
    fn a_run_page_is_self_contained() {
        let trace = trace(&[10.0, 20.0, 10.0]);
        let info = page_run_info();
        let settings = Settings::default();
        let run = crate::report::run_trace(
            &crate::report::RunSource { file: "dir/a<b>.csv", info: &info, warnings: &[] },
            &trace,
            &settings,
            None,
        );
        let mut out = Vec::new();
        write_run_page(&run, &[("GPU".into(), "RTX & co".into())], &trace, &settings, &mut out).unwrap();
        let html = String::from_utf8(out).unwrap();
        // avg FPS = 1000 · 3 / 40 = 75; p50 = 10 ms.
        assert!(html.contains("data-key=\"summary.avg_fps\" data-run=\"0\">75.00</td>"), "avg");
        assert!(html.contains("data-key=\"summary.p50_ms\" data-run=\"0\">10.000 ms</td>"), "p50");
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
