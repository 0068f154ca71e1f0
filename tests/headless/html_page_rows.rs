//! Issue 40, the shared page (items 10 and 12) in a real headless Chromium: a FrameView
//! run's page shows what the window shows — the refresh line, the frame-health spikes,
//! the system facts, every telemetry column with its unit as page text, and latency and
//! telemetry drawn over time; a 2-hour capture's times read as a clock; a column that
//! holds a frame over the target never says "0 %" of its time is over it; and a long
//! run name wraps inside its card.
//!
//! Skipped (with a message) without chromium, unless `FRAMESCOPE_REQUIRE_SHARED=1`.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::cdp::{Browser, chromium};
use common::{framescope, runs};
use serde_json::Value;
use std::path::{Path, PathBuf};

const WIDTH: u32 = 1400;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("framescope-html-rows-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn page_of(files: &[&Path], page: &Path) {
    let mut args: Vec<std::ffi::OsString> =
        vec!["report".into(), "--html".into(), page.as_os_str().to_owned()];
    args.extend(files.iter().map(|f| f.as_os_str().to_owned()));
    let run = framescope(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

fn open(page: &Path, height: u32) -> Option<Browser> {
    let binary = chromium()?;
    let mut b = Browser::launch(&binary, WIDTH, height);
    b.open(page);
    assert_eq!(b.errors(), Vec::<String>::new(), "console errors");
    Some(b)
}

fn text(b: &mut Browser, js: &str) -> String {
    b.eval(js).as_str().unwrap_or_default().to_owned()
}

#[test]
fn a_frameview_page_shows_refresh_health_system_and_telemetry() {
    let Some(real) = common::real_traces() else { return };
    let file = real.join("frameview/FrameView_Cyberpunk2077_4K_Native+DLSSFG_2024_04_17T051708_Log.csv");
    let dir = out_dir("frameview");
    let page = dir.join("fv.html");
    page_of(&[&file], &page);
    let (_, json) = common::report_json([&file]);
    let run = &json["runs"][0];
    let Some(mut b) = open(&page, 1200) else { return };
    // Refresh and VSYNC, as the report has them.
    let refresh = text(&mut b, "document.querySelector('article.run p.refresh').textContent");
    match run["vsync"].as_object() {
        Some(v) => {
            assert!(refresh.contains(&format!("{:.2} Hz", v["refresh_hz"].as_f64().unwrap())), "{refresh}");
        }
        None => assert!(refresh.starts_with("Refresh not detected"), "{refresh}"),
    }
    // Frame health: each action's spike count, and the union drawn as marks.
    let health = text(&mut b, "document.querySelector('article.run p.health').textContent");
    let spikes = run["health"]["spikes"].as_object().unwrap();
    let mut union: Vec<u64> = Vec::new();
    for (action, frames) in spikes {
        let frames = frames.as_array().unwrap();
        if !frames.is_empty() {
            assert!(health.contains(&format!("{action} {}", frames.len())), "{health}");
        }
        union.extend(frames.iter().map(|f| f.as_u64().unwrap()));
    }
    union.sort_unstable();
    union.dedup();
    assert_eq!(b.eval("FS.timeline.runs[0].health.length").as_u64(), Some(union.len() as u64));
    // The system box: the capture's GPU and CPU.
    let system = text(&mut b, "document.querySelector('article.run details.system').textContent");
    assert!(system.contains("NVIDIA GeForce RTX 4060 Ti") && system.contains("i7-12700"), "{system}");
    // Every telemetry column as text, with its unit.
    let rows: Value = serde_json::from_str(&text(
        &mut b,
        "JSON.stringify([...document.querySelectorAll('article.run details.telemetry tr')].slice(1)\
         .map(tr => [...tr.children].map(c => c.textContent)))",
    ))
    .unwrap();
    let rows = rows.as_array().unwrap();
    let telemetry = run["telemetry"].as_object().unwrap();
    assert_eq!(rows.len(), telemetry.len(), "one row per telemetry column");
    let unit_of = |name: &str| rows.iter().find(|r| r[0] == name).map(|r| r[1].as_str().unwrap().to_owned());
    assert_eq!(unit_of("GPU0Clk(MHz)").as_deref(), Some("MHz"));
    assert_eq!(unit_of("GPU0Temp(C)").as_deref(), Some("°C"));
    assert_eq!(unit_of("CPU Package Power(W)").as_deref(), Some("W"));
    assert_eq!(unit_of("GPU0Util(%)").as_deref(), Some("%"));
    let mean = telemetry["GPU0Temp(C)"]["mean"].as_f64().unwrap();
    let row = rows.iter().find(|r| r[0] == "GPU0Temp(C)").unwrap();
    assert_eq!(row[2].as_str(), Some(format!("{mean:.2}").as_str()));
    // Latency and six telemetry columns drawn over time; the hover reads a band.
    let bands: Vec<String> =
        serde_json::from_str(&text(&mut b, "JSON.stringify(FS.timeline.runs[0].bands.map(b => b.name))"))
            .unwrap();
    assert_eq!(bands.len(), 7, "{bands:?}");
    assert!(bands[0].starts_with("Latency"), "{bands:?}");
    let util = bands.iter().position(|n| n == "GPU0Util(%)").expect("GPU utilisation drawn");
    let r = b.eval(
        "(() => { const c = document.getElementById('tl'); c.scrollIntoView({block: 'start'}); \
         const r = c.getBoundingClientRect(); return [r.left, r.right, r.top]; })()",
    );
    b.settle();
    let v: Vec<f64> = r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let health_strip = if union.is_empty() { 0.0 } else { 10.0 };
    let y = v[2] + 24.0 + 170.0 + 10.0 + health_strip + 34.0 * util as f64 + 17.0;
    b.mouse_move(f64::midpoint(v[0] + 170.0, v[1] - 8.0), y);
    let tip = text(&mut b, "document.getElementById('tip').textContent");
    assert!(tip.contains("GPU0Util(%)") && tip.contains('%'), "{tip}");
    assert_eq!(b.errors(), Vec::<String>::new());
}

/// 7,200 frames of a second each: a 2-hour run whose range and ticks read as a clock
/// (2:00:00.0), as the window writes them.
#[test]
fn a_two_hour_run_reads_as_a_clock() {
    let dir = out_dir("clock");
    let file = runs::of_times(&dir, "two-hours.csv", 7200, |_| 1000.0);
    let page = dir.join("clock.html");
    page_of(&[&file], &page);
    let Some(mut b) = open(&page, 900) else { return };
    let range = text(&mut b, "document.getElementById('range').textContent");
    assert_eq!(range, "0:00.0 – 2:00:00.0 of 2:00:00.0 (whole run)");
}

/// The hover's share of a column's time over the target never reads "0 %" when it is
/// not 0, nor "100 %" when it is not all (`FS.share`, and the levels' bytes, which round
/// a share that is not 0 up to 1/255): 9,999 frames of 10 ms and one of 40.5 ms; the
/// column holding it (9 frames at this width: 40.5 / 120.5 = 34 %) says so. A long run
/// name wraps inside its card.
#[test]
fn a_small_share_over_the_target_never_reads_zero() {
    let dir = out_dir("share");
    let name = format!("{}.csv", "a-very-long-capture-name-without-any-spaces-".repeat(4));
    let file = runs::of_times(&dir, &name, 10_000, |i| if i == 6000 { 40.5 } else { 10.0 });
    let page = dir.join("share.html");
    page_of(&[&file], &page);
    let Some(mut b) = open(&page, 900) else { return };
    let shares = b.eval("[0, 0.0004, 0.004, 0.34, 0.999, 1].map(FS.share)");
    assert_eq!(shares, serde_json::json!(["0 %", "< 1 %", "< 1 %", "34 %", "> 99 %", "100 %"]));
    let r = b.eval(
        "(() => { const c = document.getElementById('tl'); c.scrollIntoView({block: 'start'}); \
         const r = c.getBoundingClientRect(); return [r.left, r.right, r.top]; })()",
    );
    b.settle();
    let v: Vec<f64> = r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let (left, right, y) = (v[0] + 170.0, v[1] - 8.0, v[2] + 24.0 + 100.0);
    let at = left + (right - left) * 60_015.0 / 100_030.5;
    let mut seen = false;
    for dx in -3..=3 {
        b.mouse_move(at + f64::from(dx), y);
        let tip = text(&mut b, "document.getElementById('tip').textContent");
        if tip.contains("slowest 40.500 ms") {
            seen = true;
            assert!(!tip.contains(" 0 % of the time"), "{tip}");
            assert!(tip.contains(" % of the time over the target"), "{tip}");
        }
    }
    assert!(seen, "a column holds the 40.5 ms frame");
    // The card keeps its name inside: no wider than the grid's column.
    let widths = b.eval(
        "(() => { const a = document.querySelector('article.run'); return [a.scrollWidth, a.clientWidth]; })()",
    );
    let w: Vec<f64> = widths.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!(w[0] <= w[1] + 1.0, "the long name overflows its card: {w:?}");
}
