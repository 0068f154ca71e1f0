//! Issue 34, item 1: a file's text never runs in a page. Hostile strings — markup that
//! would run script from an attribute, an element or a `<script>` — are put in every
//! string a capture can carry into a page (application, present mode and runtime,
//! system facts, telemetry column names, sensor names, an engine log's events and
//! metadata, file names, a failed file's message) and every page kind is written
//! (one run, several runs with a failed file, a two-run comparison, two sets) and
//! opened in headless Chromium: nothing injected becomes an element or runs, and each
//! hostile string is there as text. The page's Content-Security-Policy is checked on its
//! own too: a handler put into a page by hand does not run, while the page's own script
//! does.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::cdp::{Browser, chromium};
use common::{TempDir, framescope, repo_file};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Markup that runs `window.__pwned = k` in three ways if written unescaped (an
/// attribute broken out of, an element with a handler, a script element), marked with
/// `PWNk` to be found as text.
fn payload(k: u32) -> String {
    format!(
        "PWN{k}\"'><img src=x onerror=window.__pwned={k}><svg onload=window.__pwned={k}>\
         <script>window.__pwned={k}</script><b title='x"
    )
}

/// The same without `/` (not allowed in a file name).
fn file_payload(k: u32) -> String {
    format!("PWN{k}\"'><img src=x onerror=window.__pwned={k}><svg onload=window.__pwned={k}>")
}

/// A CSV field holding `text` (quoted, quotes doubled).
fn field(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(repo_file(&format!("sample-traces/{name}"))).expect("sample")
}

/// The hostile captures, in `dir`.
struct Hostile {
    /// A FrameView capture: application 1, present mode 2, runtime 3, GPU and CPU (system
    /// facts) 4 and 5, a telemetry column 6; a second one named with payload 9.
    frameview: [PathBuf; 4],
    /// An Unreal CSV profile: an event 7, the CPU in its metadata 8.
    unreal: PathBuf,
    /// An Afterburner log: the GPU's name 10, a sensor 11.
    afterburner: PathBuf,
    /// Not a capture, named with payload 12.
    not_capture: PathBuf,
}

fn hostile(dir: &Path) -> Hostile {
    let fv = sample("FrameView_ds.exe_2021_06_04T224922_Log.csv");
    let mut lines = fv.lines();
    let header = lines.next().unwrap().replacen("GPU0Clk(MHz)", &field(&payload(6)), 1);
    let mut text = format!("{header}\n");
    for line in lines.take(400) {
        let cells: Vec<String> = line
            .split(',')
            .enumerate()
            .map(|(i, c)| match i {
                0 => field(&payload(1)),
                1 => field(&payload(4)),
                2 => field(&payload(5)),
                4 => field(&payload(3)),
                10 => field(&payload(2)),
                _ => c.to_owned(),
            })
            .collect();
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    let names = [
        "fv-a.csv".to_owned(),
        if cfg!(windows) { "fv-b.csv".to_owned() } else { format!("{}.csv", file_payload(9)) },
        "fv-c.csv".to_owned(),
        "fv-d.csv".to_owned(),
    ];
    let frameview = names.map(|n| {
        let p = dir.join(n);
        std::fs::write(&p, &text).expect("write");
        p
    });
    let unreal = sample("unreal-csvprofile-5x-example.csv")
        .replacen("LoadMap/Arena_01", &payload(7).replace(',', ";"), 1)
        .replacen("Example 8-Core CPU (made up)", &payload(8), 1);
    let unreal_path = dir.join("unreal.csv");
    std::fs::write(&unreal_path, unreal).expect("write");
    let hml = sample("HardwareMonitoring.hml")
        .replacen("NVIDIA GeForce RTX 2070 SUPER", &payload(10).replace(',', ";"), 1)
        .replacen("GPU temperature     ", &payload(11), 1);
    let hml_path = dir.join("afterburner.hml");
    std::fs::write(&hml_path, hml).expect("write");
    let bad_name = if cfg!(windows) { "bad.csv".to_owned() } else { format!("{}.csv", file_payload(12)) };
    let not_capture = dir.join(bad_name);
    std::fs::write(&not_capture, format!("{}\n1,2\n", payload(12).replace(',', ";"))).expect("write");
    Hostile { frameview, unreal: unreal_path, afterburner: hml_path, not_capture }
}

/// Opens `page` and returns what the checks read: `__pwned`, elements with an `on…`
/// attribute, injected elements, script elements, and every text and attribute value.
fn inspect(b: &mut Browser, page: &Path) -> Value {
    b.open(page);
    let found = b.eval(
        "JSON.stringify({\
           pwned: window.__pwned ?? null,\
           handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.toLowerCase().startsWith('on'))).length,\
           injected: document.querySelectorAll('img, iframe, object, embed, a, b[title], svg:not([aria-hidden])').length,\
           scripts: document.querySelectorAll('script').length,\
           text: document.body.textContent + ' ' + [...document.querySelectorAll('*')].flatMap(e => [...e.attributes].map(a => a.value)).join(' ') + ' ' + document.title\
         })",
    );
    serde_json::from_str(found.as_str().unwrap()).unwrap()
}

fn check(b: &mut Browser, page: &Path, expected: &[u32]) {
    let found = inspect(b, page);
    let what = page.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(found["pwned"], Value::Null, "{what}: injected script ran");
    assert_eq!(found["handlers"], 0, "{what}: an element has an event handler");
    assert_eq!(found["injected"], 0, "{what}: injected elements");
    assert_eq!(found["scripts"], 2, "{what}: the page's data and its script only");
    let text = found["text"].as_str().unwrap();
    for k in expected {
        assert!(
            text.contains(&format!("PWN{k}\"'><img src=x onerror=")),
            "{what}: PWN{k} is not shown as text"
        );
    }
    assert_eq!(b.errors(), Vec::<String>::new(), "{what}: console errors (a blocked script would log one)");
}

fn html(args: &[&Path], page: &Path, expect: i32) {
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|p| p.as_os_str()).collect();
    all.extend(["--html".as_ref(), page.as_os_str()]);
    let run = framescope(&all);
    assert_eq!(run.code, expect, "{}", run.stderr);
    assert!(page.is_file(), "no page: {}", run.stderr);
}

#[test]
fn no_string_from_a_file_runs_in_any_page_kind() {
    let Some(binary) = chromium() else { return };
    let dir = TempDir::new("html-hostile");
    let h = hostile(&dir.0);
    let [a, b, c, d] = &h.frameview;
    let report = Path::new("report");
    let compare = Path::new("compare");
    let vs = Path::new("--vs");
    let mut browser = Browser::launch(&binary, 1400, 900);
    let file_name: &[u32] = if cfg!(windows) { &[] } else { &[9] };

    // One run: its application, mode, runtime, system facts.
    let page = dir.0.join("run.html");
    html(&[report, a], &page, 0);
    check(&mut browser, &page, &[1, 2, 3, 4, 5]);
    // Several runs and a failed file (its name and message), an engine log's events
    // and metadata, an Afterburner log's GPU and sensors.
    let page = dir.0.join("runs.html");
    html(&[report, b, &h.unreal, &h.afterburner, &h.not_capture], &page, 1);
    let mut expected = vec![1, 8, 10];
    if !cfg!(windows) {
        expected.extend([9, 12]);
    }
    check(&mut browser, &page, &expected);
    // Two runs compared: the telemetry column's name reaches the comparison table
    // (the attribute that was written unescaped).
    let page = dir.0.join("compare.html");
    html(&[compare, a, b], &page, 0);
    let mut expected = vec![1, 6];
    expected.extend(file_name);
    check(&mut browser, &page, &expected);
    // Two sets.
    let page = dir.0.join("sets.html");
    html(&[compare, a, b, vs, c, d], &page, 0);
    let mut expected = vec![1];
    expected.extend(file_name);
    check(&mut browser, &page, &expected);
}

/// The Content-Security-Policy stops what an escape might miss: an event handler and a
/// script element added to a written page by hand do not run (the browser reports the
/// violation), the page's own script does (it draws and says so), and nothing is
/// fetched.
#[test]
fn the_policy_blocks_injected_script_and_allows_the_pages_own() {
    let Some(binary) = chromium() else { return };
    let dir = TempDir::new("html-csp");
    let page = dir.0.join("run.html");
    html(&[Path::new("report"), &repo_file("sample-traces/synthetic-run-a.csv")], &page, 0);
    let written = std::fs::read_to_string(&page).unwrap();
    let tampered = written.replacen(
        "<main>",
        "<main><img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>\
         <img src=\"https://example.invalid/x.png\">",
        1,
    );
    let bad = dir.0.join("tampered.html");
    std::fs::write(&bad, tampered).unwrap();
    let mut b = Browser::launch(&binary, 1400, 900);
    b.open(&bad);
    let policy = b.eval("document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content");
    assert!(
        policy.as_str().unwrap().starts_with("default-src 'none'; script-src 'sha256-"),
        "the policy: {policy}"
    );
    assert_eq!(b.eval("window.__pwned ?? null"), Value::Null, "the injected script ran");
    assert!(b.eval("+document.body.dataset.drawnMs >= 0").as_bool().unwrap(), "the page's own script ran");
    let errors = b.errors().join("\n");
    assert!(errors.contains("Content Security Policy"), "the violations are reported: {errors}");
    // Chromium announces a request before its policy check; each but the page's own
    // was then refused by the policy ("csp"), so nothing was fetched.
    let url = format!("file://{}", bad.canonicalize().unwrap().display());
    let requests = b.requests();
    assert_eq!(requests.len(), 3, "{requests:?}");
    assert_eq!(requests[0], url);
    let blocked: Vec<&str> = b
        .events
        .iter()
        .filter(|e| e["method"] == "Network.loadingFailed" && e["params"]["blockedReason"] == "csp")
        .filter_map(|e| e["params"]["requestId"].as_str())
        .collect();
    let ids: Vec<&str> = b
        .events
        .iter()
        .filter(|e| e["method"] == "Network.requestWillBeSent")
        .filter(|e| e["params"]["request"]["url"] != url.as_str())
        .filter_map(|e| e["params"]["requestId"].as_str())
        .collect();
    assert_eq!(blocked, ids, "the policy blocked every request but the page's");
}
