//! Issue 40, command line: each error printed once when stdout is not a terminal
//! (item 14), and a gate's verdict that says whether its limit was relative or
//! absolute, in which unit (item 15).

use crate::common::{framescope, repo_file};

/// Into a pipe (as here: the test reads stdout), a file that cannot be read is
/// reported once, on stderr; the table leaves it out — `report`, `compare` of one
/// file per side, and `compare` of sets (which names the file, pointing to stderr).
#[test]
fn a_failed_file_is_reported_once_into_a_pipe() {
    let a = repo_file("sample-traces/synthetic-run-a.csv");
    let b = repo_file("sample-traces/synthetic-run-b.csv");
    let missing = std::env::temp_dir().join(format!("framescope-no-such-{}.csv", std::process::id()));
    let (a, b, m) = (a.to_str().unwrap(), b.to_str().unwrap(), missing.to_str().unwrap());
    let runs: [(&str, Vec<&str>); 3] = [
        ("report", vec!["report", a, m]),
        ("compare", vec!["compare", a, m]),
        ("sets", vec!["compare", a, b, "--vs", a, m]),
    ];
    for (what, args) in runs {
        let run = framescope(&args);
        assert_eq!(run.code, 1, "{what}: {}", run.stderr);
        let error = "cannot read the file";
        assert_eq!(run.stderr.matches(error).count(), 1, "{what}: stderr once: {}", run.stderr);
        assert_eq!(run.stdout.matches(error).count(), 0, "{what}: not in the table: {}", run.stdout);
        assert!(run.stdout.contains("SceneBench.exe") || run.stdout.contains("synthetic-run-a"), "{what}");
        if what == "sets" {
            assert!(run.stdout.contains("not read (its error is on stderr)"), "{}", run.stdout);
        }
    }
    // The JSON keeps the failed file as data.
    let run = framescope(["report", "--json", a, m]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(doc["runs"][1]["error"]["message"].as_str().is_some_and(|e| e.contains("cannot read")), "{doc}");
}

/// `avg_fps=3` is 3 FPS and `avg_fps=3%` is 3 % of the baseline; the verdict says which
/// was meant. synthetic-run-a → b: average 104.65 → 96.33 FPS (−8.32 FPS, −7.95 %):
/// worse than both 3 FPS and 3 %, within 10 FPS and 10 %.
#[test]
fn the_gate_says_which_limit_was_meant() {
    let a = repo_file("sample-traces/synthetic-run-a.csv");
    let b = repo_file("sample-traces/synthetic-run-b.csv");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let gate = |spec: &str| framescope(["compare", a, b, "--fail-if-worse", spec]);
    let absolute = gate("avg_fps=3");
    assert_eq!(absolute.code, 3, "{}", absolute.stderr);
    assert!(absolute.stderr.contains("limit 3 FPS (absolute; 3% would be relative)"), "{}", absolute.stderr);
    let relative = gate("avg_fps=3%");
    assert_eq!(relative.code, 3, "{}", relative.stderr);
    assert!(relative.stderr.contains("limit 3 % of the baseline (relative)"), "{}", relative.stderr);
    assert_eq!(gate("avg_fps=10").code, 0);
    assert_eq!(gate("avg_fps=10%").code, 0);
    // A fraction's absolute limit is also given in percentage points.
    let slow = gate("pacing.slow_time_fraction=0.0001");
    assert!(slow.stderr.contains("limit 0.0001 = 0.01 pp (absolute"), "{}", slow.stderr);
}
