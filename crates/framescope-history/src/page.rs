//! `framescope history report --html`: one self-contained page (as `report --html`):
//! per scene, a chosen figure over the builds with each run's value (the spread), the
//! builds' means, the regressions of `metrics.md` §14 and the change points marked;
//! hover names the build, commit and captures, a click compares the build with the
//! one before. No network: style and script are inline and allowed by their hashes
//! alone (the core's Content-Security-Policy); every name is escaped, and the script
//! writes text only through `textContent`.

use crate::check::{self, Verdict, build_order};
use crate::{StoredRun, changes};
use framescope_core::figures::{Direction, FIGURES, Figure, Unit};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write;

const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");
/// The figure a scene's chart opens with.
const FIRST_FIGURE: &str = "summary.avg_fps";

/// Text for HTML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The judged figures some run has, in registry order.
fn figures(runs: &[StoredRun]) -> Vec<&'static Figure> {
    FIGURES
        .iter()
        .filter(|f| f.judged() && runs.iter().any(|r| r.run.figures.contains_key(&f.qualified_name())))
        .collect()
}

/// The page's data: builds in history order, figures, and per scene its runs and
/// each figure's series (build means, regressions, improvements, change points).
fn data(runs: &[StoredRun], band: f64) -> Value {
    let order = build_order(runs);
    let index: BTreeMap<&str, usize> = order.iter().enumerate().map(|(i, b)| (b.as_str(), i)).collect();
    let builds: Vec<Value> = order
        .iter()
        .map(|b| {
            let of: Vec<&StoredRun> = runs.iter().filter(|r| &r.run.place.build == b).collect();
            let first = |f: &dyn Fn(&StoredRun) -> Option<String>| of.iter().find_map(|r| f(r));
            json!({
                "id": b,
                "commit": first(&|r| r.run.place.commit.clone()),
                "branch": first(&|r| r.run.place.branch.clone()),
                "time": first(&|r| r.run.place.time.map(|t| t.to_string())),
            })
        })
        .collect();
    let figs = figures(runs);
    let verdicts = check::verdicts(runs, band);
    let scenes: BTreeSet<&str> = runs.iter().map(|r| r.run.place.scene.as_str()).collect();
    let scenes: Vec<Value> =
        scenes.into_iter().map(|s| scene(runs, s, &index, &figs, &verdicts, band)).collect();
    json!({
        "builds": builds,
        "figures": figs.iter().map(|f| json!({
            "name": f.qualified_name(),
            "title": f.display_name(),
            "unit": f.unit.suffix(),
            "decimals": f.decimals,
            "scale": match f.unit { Unit::Fraction => 100.0, Unit::Seconds => 0.001, _ => 1.0 },
            "higher": f.direction == Direction::HigherIsBetter,
        })).collect::<Vec<_>>(),
        "first": FIRST_FIGURE,
        "noise_band": band,
        "alpha": changes::ALPHA,
        "scenes": scenes,
    })
}

/// One scene's runs and series.
fn scene(
    runs: &[StoredRun],
    name: &str,
    index: &BTreeMap<&str, usize>,
    figs: &[&'static Figure],
    verdicts: &BTreeMap<(String, String), Vec<(usize, Verdict)>>,
    band: f64,
) -> Value {
    let of: Vec<&StoredRun> = runs.iter().filter(|r| r.run.place.scene == name).collect();
    let mut series = serde_json::Map::new();
    for f in figs {
        let fname = f.qualified_name();
        // The build means of the runs that have the figure (§14's level without outliers
        // is check's; the page shows the plain spread and mean).
        let mut sums: BTreeMap<usize, (f64, usize)> = BTreeMap::new();
        for r in &of {
            if let (Some(v), Some(&b)) = (r.run.figures.get(&fname), index.get(r.run.place.build.as_str())) {
                let e = sums.entry(b).or_insert((0.0, 0));
                *e = (e.0 + v, e.1 + 1);
            }
        }
        if sums.is_empty() {
            continue;
        }
        let means: Vec<(usize, f64)> = sums.into_iter().map(|(b, (s, n))| (b, s / n as f64)).collect();
        let values: Vec<f64> = means.iter().map(|(_, v)| *v).collect();
        let steps: Vec<usize> =
            changes::change_points(&values, band).into_iter().map(|k| means[k].0).collect();
        let judged = verdicts.get(&(name.to_owned(), fname.clone()));
        let marked = |want: Verdict| -> Vec<usize> {
            judged.into_iter().flatten().filter(|(_, v)| *v == want).map(|(b, _)| *b).collect()
        };
        series.insert(
            fname.clone(),
            json!({
                "means": means.iter().map(|(b, v)| json!([b, v])).collect::<Vec<_>>(),
                "regressions": marked(Verdict::Regression),
                "improvements": marked(Verdict::Improvement),
                "change_points": steps,
            }),
        );
    }
    let runs: Vec<Value> = of
        .iter()
        .filter_map(|r| {
            let b = *index.get(r.run.place.build.as_str())?;
            Some(json!({ "build": b, "file": r.run.file, "hash": r.run.content_hash, "values": r.run.figures }))
        })
        .collect();
    json!({ "name": name, "runs": runs, "series": series })
}

/// Writes the page of the history's runs; `band` is the noise band of §14.
pub fn write(runs: &[StoredRun], band: f64, out: &mut impl Write) -> std::io::Result<()> {
    let data = data(runs, band);
    let scenes = data["scenes"].as_array().map_or(0, Vec::len);
    let builds = data["builds"].as_array().map_or(0, Vec::len);
    let policy = framescope_core::html::content_security_policy(&[JS], &[CSS]);
    let mut page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\"><title>framescope history</title><style>{CSS}</style></head>\
         <body><header><h1>framescope history</h1><p class=\"settings\">{} runs of {builds} builds in {scenes} scenes. \
         Builds are judged against up to 10 builds before them (docs/figures.md §15, noise band {} %); \
         change points by binary segmentation with Welch's test, at most a {} % false-alarm rate per segment searched.</p></header><main>",
        esc(&policy),
        runs.len(),
        band * 100.0,
        changes::ALPHA * 100.0
    );
    for (i, s) in data["scenes"].as_array().into_iter().flatten().enumerate() {
        let name = esc(s["name"].as_str().unwrap_or_default());
        let _ = write!(
            page,
            "<section class=\"scene\" data-scene=\"{i}\"><h2>{name}</h2>\
             <label>Figure <select class=\"figure\"></select></label>\
             <div class=\"wrap\"><canvas class=\"chart\" aria-label=\"The figure over the builds\"></canvas>\
             <div class=\"tip\" role=\"status\"></div></div>\
             <p class=\"legend\"><span class=\"key run\"></span>a run <span class=\"key mean\"></span>build mean \
             <span class=\"key regression\"></span>regression <span class=\"key improvement\"></span>improvement \
             <span class=\"key change\"></span>change point — click a build to compare it with the one before</p>\
             <div class=\"detail\"></div></section>"
        );
    }
    page.push_str("</main><footer>Made by framescope ");
    page.push_str(env!("CARGO_PKG_VERSION"));
    page.push_str("</footer><script type=\"application/json\" id=\"fs-history\">");
    page.push_str(&data.to_string().replace('<', "\\u003c"));
    page.push_str("</script><script>");
    page.push_str(JS);
    page.push_str("</script></body></html>\n");
    out.write_all(page.as_bytes())
}
