//! `--html`: the page opened in a real headless Chromium (its DevTools protocol over a
//! pipe, `common::cdp`) for a single run, a comparison and two sets: no console error,
//! no request but the file itself, every figure in the page equal to `report --json` /
//! `compare --json` written with the readable table's decimals, the timeline's hover
//! reading a frame, and the wheel and a drag changing the visible range. The same on a
//! generated 1M-frame capture prints the page's size and time to first paint.
//!
//! Skipped (with a message) without chromium, unless `FRAMESCOPE_REQUIRE_SHARED=1`.
//! `FRAMESCOPE_SHOTS=DIR` also saves a screenshot of each page there.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::cdp::{Browser, chromium};
use common::html::{by_section, run_value, written, written_delta};
use common::{framescope, runs};
use serde_json::Value;
use std::path::{Path, PathBuf};

const WIDTH: u32 = 1400;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("framescope-html-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

/// Frame `i` of the hand-built capture: 10–13 ms in a 7-frame cycle, a 40 ms frame at
/// every 100th frame from 50 (a stutter: 28.5 ms and ~250 % over its window's median).
fn hand_ft(i: usize) -> f64 {
    if i % 100 == 50 { 40.0 } else { 10.0 + (i % 7) as f64 * 0.5 }
}

/// Every `[data-key]` cell of the page: (key, run index or set side, text).
fn figure_cells(b: &mut Browser) -> Vec<(String, String, String)> {
    let cells = b.eval(
        "JSON.stringify([...document.querySelectorAll('td[data-key]')].map(td => \
         [td.dataset.key, td.dataset.run ?? ('mean:' + td.dataset.mean), td.textContent]))",
    );
    serde_json::from_str::<Vec<(String, String, String)>>(cells.as_str().unwrap()).unwrap()
}

/// Checks every figure cell against the runs (and set means) of the JSON document.
fn check_figures(b: &mut Browser, runs: &[Value], sets: Option<&Value>) -> usize {
    let cells = figure_cells(b);
    assert!(cells.len() > 30, "only {} figure cells", cells.len());
    for (key, column, text) in &cells {
        let value = match column.strip_prefix("mean:") {
            Some(side) => by_section(&sets.unwrap()[side]["mean"], key).clone(),
            None => run_value(&runs[column.parse::<usize>().unwrap()], key),
        };
        let want = value.as_f64().map_or_else(|| "—".to_owned(), |v| written(key, v));
        assert_eq!(text.trim_start_matches('≈'), want, "{key} of {column}");
    }
    cells.len()
}

/// Checks the comparison table against `comparison` of `compare --json`; `sets` for
/// the sets' table (interval, noise).
fn check_comparison(b: &mut Browser, comparison: &Value, sets: bool) -> usize {
    let cells = b.eval(
        "JSON.stringify([...document.querySelectorAll('td[data-cmp]')].map(td => \
         [td.dataset.cmp, td.dataset.col, td.textContent]))",
    );
    let cells: Vec<(String, String, String)> = serde_json::from_str(cells.as_str().unwrap()).unwrap();
    assert!(cells.len() > 50, "only {} comparison cells", cells.len());
    for (key, col, text) in cells.iter().filter(|c| !c.0.starts_with("telemetry.")) {
        let e = by_section(comparison, key);
        if e.is_null() {
            assert!(
                matches!(col.as_str(), "baseline" | "other") || text == "—" || text == "not comparable",
                "{key} {col}"
            );
            continue;
        }
        let f = |k: &str| e[k].as_f64().unwrap();
        // Never judged: the counts, `max_fps` (metrics.md §9) and the limiter (§13).
        let neutral = matches!(key.as_str(), "run.frames" | "run.duration_ms")
            || key.ends_with(".max_fps")
            || key.starts_with("limiter.");
        let want = match col.as_str() {
            "baseline" => written(key, f("baseline")),
            "other" => written(key, f("other")),
            "delta" => written_delta(key, f("delta")),
            "relative" => {
                e["relative"].as_f64().map_or_else(|| "—".to_owned(), |r| format!("{:+.1} %", r * 100.0))
            }
            "interval" => format!(
                "[{}, {}]",
                written_delta(key, e["ci95"][0].as_f64().unwrap()),
                written_delta(key, e["ci95"][1].as_f64().unwrap())
            ),
            "verdict" => match (e["better"].as_bool(), neutral) {
                (Some(true), _) => "better".into(),
                (Some(false), _) => "worse".into(),
                (None, true) => String::new(),
                // Two runs: better null is no change or a change inside the noise band.
                (None, false) if f("delta") == 0.0 && (!sets || e["df"].is_null()) => "same".into(),
                (None, false) => "noise".into(),
            },
            other => panic!("unknown column {other}"),
        };
        assert_eq!(text, &want, "{key} {col}");
    }
    cells.len()
}

/// The page's visible range in ms, from the range label's attributes.
fn range(b: &mut Browser) -> (f64, f64) {
    let r = b
        .eval("[+document.getElementById('range').dataset.t0, +document.getElementById('range').dataset.t1]");
    (r[0].as_f64().unwrap(), r[1].as_f64().unwrap())
}

/// The timeline's track in viewport pixels: (left, right, middle of the first row).
fn track(b: &mut Browser) -> (f64, f64, f64) {
    let r = b.eval(
        "(() => { const c = document.getElementById('tl'); c.scrollIntoView({block: 'center'}); \
         const r = c.getBoundingClientRect(); return [r.left, r.right, r.top]; })()",
    );
    b.settle();
    let v: Vec<f64> = r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    (v[0] + 170.0, v[1] - 8.0, v[2] + 24.0 + 50.0)
}

fn tip(b: &mut Browser) -> String {
    b.eval("document.getElementById('tip').textContent").as_str().unwrap_or_default().to_owned()
}

/// Zooms in at the track's middle until the tooltip reads single frames, then checks
/// the hovered frame's time against `ft`. Also checks the wheel and a drag move the
/// range. Returns the tooltip.
fn check_timeline(b: &mut Browser, ft: &dyn Fn(usize) -> f64) -> String {
    let (left, right, y) = track(b);
    let x = f64::midpoint(left, right);
    let (t0, t1) = range(b);
    b.wheel(x, y, -500.0);
    let (z0, z1) = range(b);
    let factor = (z1 - z0) / (t1 - t0);
    assert!((factor - (-0.75f64).exp()).abs() < 0.01, "the wheel zoomed by {factor}: {t0}–{t1} → {z0}–{z1}");
    let anchor = t0 + (x - left) / (right - left) * (t1 - t0);
    assert!(
        (z0 + (x - left) / (right - left) * (z1 - z0) - anchor).abs() < (t1 - t0) * 1e-3,
        "the time under the pointer moved"
    );
    b.drag(x, x - 200.0, y);
    let (p0, p1) = range(b);
    let moved = 200.0 / (right - left) * (z1 - z0);
    assert!(
        (p0 - z0 - moved).abs() < (z1 - z0) * 0.01 && (p1 - p0 - (z1 - z0)).abs() < 0.01,
        "the drag panned {z0} → {p0}, not by {moved}"
    );
    let mut text = String::new();
    for _ in 0..40 {
        b.mouse_move(x, y);
        text = tip(b);
        if text.contains("frame time") {
            break;
        }
        b.wheel(x, y, -600.0);
    }
    let frame: usize = text
        .split("frame ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    let shown = text.split("frame time ").nth(1).and_then(|s| s.split(' ').next()).unwrap();
    assert_eq!(shown, format!("{:.3}", ft(frame)), "frame {frame}: {text}");
    text
}

/// Opens a page, checks it made no request but itself and logged no error; returns the
/// browser and the time to first paint the page measured (ms).
fn open(page: &Path, height: u32) -> Option<(Browser, f64, f64)> {
    let binary = chromium()?;
    let mut b = Browser::launch(&binary, WIDTH, height);
    let wall = b.open(page);
    let drawn: f64 = b.eval("+document.body.dataset.drawnMs").as_f64().unwrap();
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    assert_eq!(b.requests(), [url], "the page made a request");
    assert_eq!(b.errors(), Vec::<String>::new(), "console errors");
    Some((b, drawn, wall))
}

fn shot(b: &mut Browser, name: &str) {
    if let Some(dir) = std::env::var_os("FRAMESCOPE_SHOTS") {
        b.screenshot(&Path::new(&dir).join(name), WIDTH);
    }
}

#[test]
fn a_single_run_page_shows_the_reports_figures_and_reads_frames() {
    let dir = out_dir("run");
    let file = runs::of_times(&dir, "hand-built.csv", 700, hand_ft);
    let page = dir.join("run.html");
    let run = framescope(["report".as_ref(), file.as_os_str(), "--html".as_ref(), page.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (_, json) = common::report_json([&file]);
    assert_eq!(json["runs"][0]["stutters"]["count"], 7, "the 40 ms frames stutter");
    let Some((mut b, drawn, _)) = open(&page, 1000) else { return };
    check_figures(&mut b, json["runs"].as_array().unwrap(), None);
    let text = check_timeline(&mut b, &hand_ft);
    assert!(text.starts_with("hand-built.csv\n"), "{text}");
    assert_eq!(b.errors(), Vec::<String>::new(), "console errors after interaction");
    // The sample capture too, with its screenshot.
    let sample = common::repo_file("sample-traces/synthetic-run-a.csv");
    let page = dir.join("sample.html");
    assert_eq!(
        framescope(["report".as_ref(), sample.as_os_str(), "--html".as_ref(), page.as_os_str()]).code,
        0
    );
    let (_, json) = common::report_json([&sample]);
    let Some((mut b, _, _)) = open(&page, 1000) else { return };
    check_figures(&mut b, json["runs"].as_array().unwrap(), None);
    // Point at the second stutter for the screenshot's tooltip.
    let (left, right, y) = track(&mut b);
    let (at, (_, total)) = (b.eval("FS.timeline.runs[0].stutT[1]").as_f64().unwrap(), range(&mut b));
    let x = left + (right - left) * at / total;
    let found = [0.0, -1.0, 1.0, -2.0, 2.0].iter().any(|dx| {
        b.mouse_move(x + dx, y);
        tip(&mut b).contains("1 stutter")
    });
    assert!(found, "no column near {x} says it holds the stutter: {}", tip(&mut b));
    shot(&mut b, "html-run.png");
    eprintln!("single run: first paint {drawn:.0} ms");
}

#[test]
fn a_comparison_page_is_written_when_the_gate_fails_and_matches_compare_json() {
    let dir = out_dir("compare");
    let (a, bb) = (
        common::repo_file("sample-traces/synthetic-run-a.csv"),
        common::repo_file("sample-traces/synthetic-run-b.csv"),
    );
    let page = dir.join("compare.html");
    let gated = framescope([
        "compare".as_ref(),
        a.as_os_str(),
        bb.as_os_str(),
        "--fail-if-worse".as_ref(),
        "avg_fps=3%".as_ref(),
        "--html".as_ref(),
        page.as_os_str(),
    ]);
    assert_eq!(gated.code, 3, "the gate's exit status is unchanged: {}", gated.stderr);
    let json = common::compare_json(&a, &bb);
    let Some((mut b, _, _)) = open(&page, 1000) else { return };
    assert_eq!(b.eval("document.getElementById('gate').className"), "gate failed");
    check_figures(&mut b, json["runs"].as_array().unwrap(), None);
    check_comparison(&mut b, &json["comparison"], false);
    let (left, right, y) = track(&mut b);
    b.mouse_move(f64::midpoint(left, right), y);
    let text = tip(&mut b);
    assert!(text.starts_with("synthetic-run-a.csv\n") && text.contains("frames"), "{text}");
    shot(&mut b, "html-compare.png");
    assert_eq!(b.errors(), Vec::<String>::new());
}

#[test]
fn a_sets_page_shows_each_runs_figures_the_means_and_the_intervals() {
    let dir = out_dir("sets");
    let a = runs::set(&dir, "base", &[100, 102, 98]);
    let o = runs::set(&dir, "new", &[94, 96, 95]);
    let page = dir.join("sets.html");
    let mut args: Vec<std::ffi::OsString> = vec!["compare".into()];
    args.extend(a.iter().map(|p| p.clone().into_os_string()));
    args.push("--vs".into());
    args.extend(o.iter().map(|p| p.clone().into_os_string()));
    let json_run = framescope(args.iter().cloned().chain(["--json".into()]));
    assert_eq!(json_run.code, 0, "{}", json_run.stderr);
    let json: Value = serde_json::from_str(&json_run.stdout).unwrap();
    let run = framescope(args.iter().cloned().chain(["--html".into(), page.clone().into_os_string()]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let Some((mut b, _, _)) = open(&page, 1000) else { return };
    let cells = check_figures(&mut b, json["runs"].as_array().unwrap(), Some(&json["sets"]));
    let means = figure_cells(&mut b).iter().filter(|c| c.1.starts_with("mean:")).count();
    assert!(means * 8 == cells * 2, "two mean columns beside six runs: {means} of {cells}");
    check_comparison(&mut b, &json["comparison"], true);
    // A = 100, 102, 98; B = 94, 96, 95: delta −5, significant (sets_cli.rs works the interval).
    let verdict = b
        .eval("document.querySelector('td[data-cmp=\"summary.avg_fps\"][data-col=\"verdict\"]').textContent");
    assert_eq!(verdict, "worse");
    shot(&mut b, "html-sets.png");
}

/// The generated capture of `benches/load_vs_polars.py`'s shape: 6.5–7.5 ms frames, a
/// 40 ms one every 997.
fn bench_ft(n: usize) -> Vec<f64> {
    let mut x: u64 = 12345;
    (0..n)
        .map(|i| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let jitter = ((x >> 33) % 1000) as f64 / 1000.0;
            if i % 997 == 0 { 40.0 + jitter } else { 6.5 + jitter }
        })
        .collect()
}

#[test]
fn a_million_frame_page_is_small_and_opens_fast() {
    const N: usize = 1_000_000;
    let Some(_) = chromium() else { return };
    let dir = out_dir("million");
    let ft = bench_ft(N);
    let file = runs::of_times(&dir, "capture-1000000.csv", N, |i| ft[i]);
    let page = dir.join("million.html");
    let started = std::time::Instant::now();
    let run = framescope(["report".as_ref(), file.as_os_str(), "--html".as_ref(), page.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written_s = started.elapsed().as_secs_f64();
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size <= 8 << 20, "{size} bytes for 1M frames");
    let Some((mut b, drawn, wall)) = open(&page, 1000) else { return };
    eprintln!(
        "1M frames: page {:.2} MB, first paint {drawn:.0} ms after navigation (page clock), {wall:.0} ms as the test saw it; \
         report + page took {written_s:.1} s (debug build)",
        size as f64 / 1e6
    );
    assert!(drawn < 2000.0, "first paint after {drawn} ms");
    let (left, right, y) = track(&mut b);
    b.mouse_move(f64::midpoint(left, right), y);
    assert!(tip(&mut b).contains("frames"), "a zoomed-out column");
    check_timeline(&mut b, &|i| (ft[i] * 1000.0).round() / 1000.0);
    assert_eq!(b.errors(), Vec::<String>::new());
    drop(b);
    // The capture is 80 MB: not left behind.
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--html` never writes over an input (exit 2, the capture unchanged) and says so
/// when it cannot write (exit 1).
#[test]
fn the_page_is_never_written_over_an_input_and_a_write_error_fails() {
    let dir = out_dir("guard");
    let file = runs::of_times(&dir, "keep.csv", 50, hand_ft);
    let before = std::fs::read(&file).unwrap();
    let run = framescope(["report".as_ref(), file.as_os_str(), "--html".as_ref(), file.as_os_str()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("never writes over its inputs"), "{}", run.stderr);
    let other = runs::of_times(&dir, "other.csv", 50, hand_ft);
    let run = framescope([
        "compare".as_ref(),
        file.as_os_str(),
        other.as_os_str(),
        "--html".as_ref(),
        other.as_os_str(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let nowhere = dir.join("no-such-folder").join("page.html");
    let run = framescope(["report".as_ref(), file.as_os_str(), "--html".as_ref(), nowhere.as_os_str()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("cannot write the HTML page"), "{}", run.stderr);
}

/// Sampled logs (no charts; samples as wide as their interval), a MangoHud log and a
/// file that cannot be read make a page that opens without an error.
#[test]
fn sampled_logs_and_a_failed_file_make_a_working_page() {
    let dir = out_dir("mixed");
    let page = dir.join("mixed.html");
    let files = [
        common::repo_file("sample-traces/HardwareMonitoring.hml"),
        common::repo_file("sample-traces/mangohud-0.6.0-0.6.1_glxgears_2021-06-03_21-32-02.csv"),
        dir.join("missing.csv"),
    ];
    let mut args: Vec<std::ffi::OsString> =
        vec!["report".into(), "--html".into(), page.clone().into_os_string()];
    args.extend(files.iter().map(|f| f.clone().into_os_string()));
    let run = framescope(&args);
    assert_eq!(run.code, 1, "the missing file fails the run: {}", run.stderr);
    let Some((mut b, _, _)) = open(&page, 1000) else { return };
    let failed = b.eval("document.querySelectorAll('article.run.failed').length");
    assert_eq!(failed, 1);
    let (left, right, y) = track(&mut b);
    b.mouse_move(f64::midpoint(left, right), y);
    b.wheel(f64::midpoint(left, right), y, -800.0);
    assert!(!tip(&mut b).is_empty());
    assert_eq!(b.errors(), Vec::<String>::new());
}

/// Measures any page: `FRAMESCOPE_HTML_PAGE=page.html cargo test --test headless --
/// html_report:: --ignored open_time` prints its size and time to first paint (10M frames: see
/// docs/decisions.md, "Timeline data").
#[test]
#[ignore = "measures the page named by FRAMESCOPE_HTML_PAGE"]
fn open_time_of_a_page() {
    let Some(page) = std::env::var_os("FRAMESCOPE_HTML_PAGE").map(PathBuf::from) else { return };
    let size = std::fs::metadata(&page).unwrap().len();
    let Some((mut b, drawn, wall)) = open(&page, 1000) else { return };
    let (left, right, y) = track(&mut b);
    let started = std::time::Instant::now();
    for _ in 0..10 {
        b.wheel(f64::midpoint(left, right), y, -300.0);
    }
    let zoom_ms = started.elapsed().as_secs_f64() * 100.0;
    eprintln!(
        "{}: {:.2} MB, first paint {drawn:.0} ms (page clock), {wall:.0} ms (test); {zoom_ms:.0} ms a wheel step",
        page.display(),
        size as f64 / 1e6
    );
    assert_eq!(b.errors(), Vec::<String>::new());
}

/// Real captures: XeSS frame generation (display source, frame types, other traces), a
/// FrameView log with its system columns and a DLSS-FG one: every figure as `report
/// --json` gives it, the system facts and no error.
#[test]
fn real_captures_make_pages_with_their_figures_and_system_facts() {
    let Some(real) = common::real_traces() else { return };
    let files = [
        real.join("presentmon-2x/pm-v2.5x_auxgold_test_case_10_Naraka_XeSS-FG.csv"),
        real.join("frameview/FrameView_Cyberpunk2077_4K_Native+DLSSFG_2024_04_17T051708_Log.csv"),
        real.join("frameview/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv"),
    ];
    let dir = out_dir("real");
    let page = dir.join("real.html");
    let mut args: Vec<std::ffi::OsString> =
        vec!["report".into(), "--html".into(), page.clone().into_os_string()];
    args.extend(files.iter().map(|f| f.clone().into_os_string()));
    let run = framescope(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (_, json) = common::report_json(&files);
    assert_eq!(json["runs"][0]["frame_time"], "display", "Naraka is analysed on display intervals");
    let Some((mut b, _, _)) = open(&page, 1000) else { return };
    let cells = check_figures(&mut b, json["runs"].as_array().unwrap(), None);
    let generated = figure_cells(&mut b).into_iter().filter(|c| c.0 == "frame_types.generated_fps").count();
    assert_eq!(generated, 3, "a generated-FPS cell per run");
    let system = b.eval("document.querySelectorAll('article.run table.facts tr').length").as_u64().unwrap();
    assert!(system >= 2, "FrameView's system columns are shown ({system} facts)");
    let (left, right, y) = track(&mut b);
    b.mouse_move(f64::midpoint(left, right), y);
    assert!(tip(&mut b).contains("frames"), "{}", tip(&mut b));
    assert_eq!(b.errors(), Vec::<String>::new());
    eprintln!("real captures: {cells} figure cells checked");
}
