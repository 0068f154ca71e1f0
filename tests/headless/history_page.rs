//! `framescope history report --html` in headless Chromium (issue 37): the page's
//! figures equal `history export`, the stepped build is marked as a regression and a
//! change point and its line is drawn there, hover names the build, commit and
//! captures, a click compares a build with the one before, no network request, no
//! error, and a hostile scene name stays text.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use super::history_builds::{BUILDS, STEP_AT, make_history};
use super::history_gen::{capture, history};
use crate::common::TempDir;
use crate::common::cdp::{Browser, chromium};
use serde_json::Value;
use std::path::Path;

fn report(db: &Path, page: &Path) {
    let out = history(&["report".as_ref(), db.as_os_str(), "--html".as_ref(), page.as_os_str()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// The exported CSV as rows of (header → cell).
fn export(db: &Path, dir: &TempDir) -> Vec<std::collections::HashMap<String, String>> {
    let csv = dir.0.join("export.csv");
    let out = history(&[
        "export".as_ref(),
        db.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
        "-o".as_ref(),
        csv.as_os_str(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_owned).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(str::to_owned)).collect()).collect()
}

#[test]
fn the_history_page_marks_the_step_and_matches_the_export() {
    let Some(chrome) = chromium() else { return };
    let dir = TempDir::new("history-page");
    let db = make_history(&dir);
    let page = dir.0.join("history.html");
    report(&db, &page);
    let mut b = Browser::launch(&chrome, 1200, 900);
    b.open(&page);
    assert_eq!(b.errors(), Vec::<String>::new());
    let requests = b.requests();
    assert!(requests.iter().all(|u| u.starts_with("file://")), "network: {requests:?}");

    // Every run's figures are the export's.
    let data = b.eval("JSON.stringify(fsHistory.data)");
    let data: Value = serde_json::from_str(data.as_str().unwrap()).unwrap();
    let rows = export(&db, &dir);
    let mut compared = 0;
    for scene in data["scenes"].as_array().unwrap() {
        for run in scene["runs"].as_array().unwrap() {
            let row = rows.iter().find(|r| r["file"] == run["file"].as_str().unwrap()).expect("exported");
            for (name, v) in run["values"].as_object().unwrap() {
                // serde_json reads the page's shortest decimals back to within an ulp.
                let (x, y) = (row[name].parse::<f64>().unwrap(), v.as_f64().unwrap());
                assert!((x - y).abs() <= 1e-14 * x.abs().max(1e-300), "{name}: {x} vs {y}");
                compared += 1;
            }
        }
    }
    assert!(compared > 50 * BUILDS * 4, "{compared} values");

    // The alpha scene's average FPS: the stepped build is marked and its line drawn.
    let step = format!("b{STEP_AT:02}");
    let alpha = b.eval("fsHistory.data.scenes.findIndex(s => s.name === 'alpha.exe')").as_i64().unwrap();
    let series = &data["scenes"][alpha as usize]["series"]["summary.avg_fps"];
    let step_index = (STEP_AT - 1) as u64;
    assert_eq!(series["change_points"], serde_json::json!([step_index]));
    assert!(series["regressions"].as_array().unwrap().contains(&step_index.into()));
    let lines = b.eval(&format!("JSON.stringify(fsHistory.scenes[{alpha}].changes)"));
    let lines: Value = serde_json::from_str(lines.as_str().unwrap()).unwrap();
    assert_eq!(lines.as_array().unwrap().len(), 1);
    assert_eq!(lines[0]["build"], step.as_str());
    let beta = 1 - alpha;
    assert_eq!(
        data["scenes"][beta as usize]["series"]["summary.avg_fps"]["change_points"],
        serde_json::json!([]),
        "the drift"
    );

    // Hover over the stepped build: its build, commit, captures.
    let at = b.eval(&format!(
        "(() => {{ const c = document.querySelectorAll('canvas.chart')[{alpha}]; c.scrollIntoView(); const r = c.getBoundingClientRect(); \
         const p = fsHistory.scenes[{alpha}].points.find(p => p.build === '{step}'); return [r.left + p.x, r.top + p.y]; }})()"
    ));
    let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    b.mouse_move(x, y);
    let tip = b.eval(&format!("document.querySelectorAll('.tip')[{alpha}].textContent"));
    let tip = tip.as_str().unwrap();
    assert!(tip.contains(&format!("build {step}")) && tip.contains("commit c0ffee"), "{tip}");
    assert!(
        tip.contains(&format!("alpha-{STEP_AT}-0.csv")) && tip.contains("regression, change point"),
        "{tip}"
    );
    // A click: the build against the one before.
    b.call(
        "Input.dispatchMouseEvent",
        serde_json::json!({"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1}),
    );
    b.call(
        "Input.dispatchMouseEvent",
        serde_json::json!({"type": "mouseReleased", "x": x, "y": y, "button": "left", "clickCount": 1}),
    );
    b.settle();
    let heading =
        b.eval(&format!("document.querySelectorAll('.detail')[{alpha}].querySelector('h3').textContent"));
    assert_eq!(heading, format!("{step} against b{:02}", STEP_AT - 1).as_str());
    let worse =
        b.eval(&format!("document.querySelectorAll('.detail')[{alpha}].querySelectorAll('td.worse').length"));
    assert!(worse.as_u64().unwrap() >= 5, "{worse}");
    if let Some(shot) = std::env::var_os("FRAMESCOPE_HISTORY_SCREENSHOT") {
        b.screenshot(Path::new(&shot), 1200);
    }
}

#[test]
fn a_hostile_scene_name_stays_text() {
    let Some(chrome) = chromium() else { return };
    let dir = TempDir::new("history-page-hostile");
    let db = dir.0.join("h.db");
    let evil = "<img src=x onerror=window.__pwned=1><script>window.__pwned=2</script>\"'</h2>";
    for k in 1..=4 {
        let f = capture(&dir, &format!("r{k}.csv"), "game.exe", 1.0);
        let f2 = capture(&dir, &format!("s{k}.csv"), "game.exe", 1.0 + 0.001 * f64::from(k));
        let build = format!("<b>{k}</b>");
        let out = history(&[
            "add".as_ref(),
            db.as_os_str(),
            "--build".as_ref(),
            build.as_ref(),
            "--scene".as_ref(),
            evil.as_ref(),
            "--commit".as_ref(),
            evil.as_ref(),
            f.as_os_str(),
            f2.as_os_str(),
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let page = dir.0.join("hostile.html");
    report(&db, &page);
    let mut b = Browser::launch(&chrome, 1000, 800);
    b.open(&page);
    assert_eq!(b.eval("window.__pwned === undefined"), true);
    assert_eq!(b.eval("document.querySelectorAll('img, b, main script').length"), 0);
    assert_eq!(b.eval("document.querySelector('h2').textContent"), evil);
    let requests = b.requests();
    assert!(requests.iter().all(|u| u.starts_with("file://")), "network: {requests:?}");
    assert_eq!(b.errors(), Vec::<String>::new());
}
