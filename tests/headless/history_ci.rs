//! CI outputs of a verdict (issue 37, `cli-report.md` "History and CI outputs"):
//! `--junit` validates against tests/junit/junit.xsd (xmllint when installed, always
//! check_junit.py), `--github` is checked line by line (workflow commands only, names
//! escaped so that none can start a command of its own), the Markdown summary is
//! appended to `$GITHUB_STEP_SUMMARY` and written by `--markdown`; for `history check`
//! and `compare --fail-if-worse`.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use super::history_gen::{capture, history};
use crate::common::{TempDir, repo_file};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// A scene name no output may be broken by.
const EVIL: &str =
    "evil</testsuite><x a=\"1\">&amp;\r\n::error title=pwned::owned,100%:x @team `code` | cell";

/// A JUnit file valid against the schema: with xmllint when installed (`.ci/run` installs
/// it), and always with the checker that reads the schema (but under Wine, which has no
/// Python).
pub fn assert_valid_junit(path: &Path) {
    let xsd = repo_file("tests/junit/junit.xsd");
    if let Ok(out) = Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(path).output() {
        assert!(out.status.success(), "xmllint: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = Command::new("python3").arg(repo_file("tests/junit/check_junit.py")).arg(path).output();
    let out = match out {
        // The Windows build's tests run under Wine (.ci/windows.sh), which has no Python:
        // the same writer's files are validated on Linux.
        Err(e) if cfg!(windows) && e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("skipping the schema check: no python3 under Wine");
            return;
        }
        out => out.expect("python3 runs tests/junit/check_junit.py"),
    };
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
}

/// Five builds of two scenes; the fifth is 10 % slower in the hostile one.
fn make_history(dir: &TempDir) -> std::path::PathBuf {
    let db = dir.0.join("h.db");
    for k in 1..=5 {
        let slow = if k == 5 { 1.1 } else { 1.0 + 0.001 * f64::from(k) };
        let evil = capture(dir, &format!("e{k}.csv"), "game.exe", slow);
        let calm = capture(dir, &format!("c{k}.csv"), "calm.exe", 1.0 + 0.001 * f64::from(k));
        let b = format!("b{k}");
        let out = history(&[
            "add".as_ref(),
            db.as_os_str(),
            "--build".as_ref(),
            b.as_ref(),
            "--scene".as_ref(),
            EVIL.as_ref(),
            evil.as_os_str(),
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let out =
            history(&["add".as_ref(), db.as_os_str(), "--build".as_ref(), b.as_ref(), calm.as_os_str()]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    db
}

/// Undoes GitHub's property escaping.
fn unescape(s: &str) -> String {
    s.replace("%3A", ":").replace("%2C", ",").replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
}

#[test]
fn history_check_writes_junit_github_and_markdown() {
    let dir = TempDir::new("history-ci");
    let db = make_history(&dir);
    let (junit, md, summary) = (dir.0.join("j.xml"), dir.0.join("s.md"), dir.0.join("step-summary.md"));
    std::fs::write(&summary, "earlier step\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .args(["history", "check"])
        .arg(&db)
        .arg("--junit")
        .arg(&junit)
        .arg("--markdown")
        .arg(&md)
        .arg("--github")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let json = history(&["check".as_ref(), db.as_os_str(), "--json".as_ref()]);
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    let regressions: Vec<&String> = doc["scenes"][EVIL]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, c)| c["verdict"] == "regression")
        .map(|(k, _)| k)
        .collect();
    assert!(regressions.len() >= 5, "{regressions:?}");
    assert!(doc["scenes"]["calm.exe"].as_object().unwrap().values().all(|c| c["verdict"] != "regression"));

    // --github: only workflow commands, one per regression, each a single line.
    let lines: Vec<&str> = stdout.split('\n').filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), regressions.len(), "{stdout}");
    for (line, figure) in lines.iter().zip(&regressions) {
        let rest = line.strip_prefix("::error title=").unwrap_or_else(|| panic!("not a command: {line:?}"));
        assert!(!line.contains('\r'));
        let (title, message) = rest.split_once("::").expect("title::message");
        assert!(!title.contains(',') && !title.contains(':'), "unescaped property: {title}");
        assert_eq!(unescape(title), format!("framescope: {figure} regressed in {EVIL}"));
        assert!(unescape(message).starts_with(&format!("{figure}: regression")), "{message}");
    }

    // --junit: valid, a suite per scene, a failure per regression.
    assert_valid_junit(&junit);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testsuite ").count(), 2);
    assert_eq!(xml.matches("<failure ").count(), regressions.len());
    assert!(!xml.contains("<x a="), "the scene name became markup");

    // Markdown: the file, appended to the step summary after what was there.
    let md_text = std::fs::read_to_string(&md).unwrap();
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), format!("earlier step\n{md_text}"));
    assert!(md_text.contains(&format!("**{} regressions**", regressions.len())), "{md_text}");
    assert!(!md_text.contains("<x") && !md_text.contains("@team"), "{md_text}");
    assert_eq!(md_text.matches("| cell").count(), md_text.matches("\\| cell").count(), "an unescaped |");
    assert_eq!(md_text.lines().filter(|l| l.starts_with("#### ")).count(), 2);

    // An earlier build passes: exit 0, every case passed or skipped.
    let pass = history(&[
        "check".as_ref(),
        db.as_os_str(),
        "--build".as_ref(),
        "b4".as_ref(),
        "--junit".as_ref(),
        junit.as_os_str(),
    ]);
    assert_eq!(pass.code, 0, "{}", pass.stderr);
    assert_valid_junit(&junit);
    assert!(!std::fs::read_to_string(&junit).unwrap().contains("<failure"));
}

#[test]
fn compare_gate_writes_junit_and_needs_a_gate() {
    let dir = TempDir::new("compare-ci");
    let a = capture(&dir, "a.csv", "game.exe", 1.0);
    let b = capture(&dir, "b.csv", "game.exe", 1.1);
    let junit = dir.0.join("gate.xml");
    let run = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_framescope"));
        c.arg("compare").arg(&a).arg(&b).args(extra).arg("--junit").arg(&junit);
        c.output().unwrap()
    };
    let out = run(&["--fail-if-worse", "avg_fps=3%,p99_ms=50%", "--github"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert_valid_junit(&junit);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!((xml.matches("<testcase ").count(), xml.matches("<failure ").count()), (2, 1), "{xml}");
    assert!(xml.contains("<testsuite name=\"game.exe\""), "{xml}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("::error title=framescope%3A summary.avg_fps")).count(),
        1
    );
    let without_gate = run(&[]);
    assert_eq!(without_gate.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&without_gate.stderr).contains("--fail-if-worse"));
}

#[test]
fn compare_sets_gate_writes_markdown_and_junit() {
    let dir = TempDir::new("compare-sets-ci");
    let a: Vec<_> =
        (0..3).map(|k| capture(&dir, &format!("a{k}.csv"), "game.exe", 1.0 + 0.001 * f64::from(k))).collect();
    let b: Vec<_> =
        (0..3).map(|k| capture(&dir, &format!("b{k}.csv"), "game.exe", 1.1 + 0.001 * f64::from(k))).collect();
    let (junit, md) = (dir.0.join("sets.xml"), dir.0.join("sets.md"));
    let out = Command::new(env!("CARGO_BIN_EXE_framescope"))
        .arg("compare")
        .args(&a)
        .arg("--vs")
        .args(&b)
        .args(["--fail-if-worse", "avg_fps=3%", "--junit"])
        .arg(&junit)
        .arg("--markdown")
        .arg(&md)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert_valid_junit(&junit);
    assert_eq!(std::fs::read_to_string(&junit).unwrap().matches("<failure ").count(), 1);
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("**1 regression**") && md.contains("summary.avg_fps"), "{md}");
}

#[test]
fn history_check_judges_only_the_figures_named() {
    let dir = TempDir::new("history-figures");
    let db = make_history(&dir);
    let out = history(&[
        "check".as_ref(),
        db.as_os_str(),
        "--json".as_ref(),
        "--figures".as_ref(),
        "avg_fps,p99_ms".as_ref(),
    ]);
    assert_eq!(out.code, 3, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<&String> = doc["scenes"][EVIL].as_object().unwrap().keys().collect();
    assert_eq!(names, ["summary.avg_fps", "summary.p99_ms"]);
    let bad = history(&["check".as_ref(), db.as_os_str(), "--figures".as_ref(), "frames".as_ref()]);
    assert_eq!(bad.code, 2, "a figure without a better direction: {}", bad.stderr);
    let unknown = history(&["check".as_ref(), db.as_os_str(), "--build".as_ref(), "nope".as_ref()]);
    assert_eq!(unknown.code, 1);
    assert!(unknown.stderr.contains("no build \"nope\""), "{}", unknown.stderr);
}
