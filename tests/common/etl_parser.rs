//! The independent .etl reader the tests compare with: `etl-parser` (PyPI, Apache-2.0)
//! in a venv, run through `tests/etl/etl_counts.py`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python of the venv with etl-parser: `FRAMESCOPE_ETL_PYTHON`, else
/// `$CARGO_TARGET_DIR/etl-venv/bin/python`, else `etl-venv` in the target folder that
/// holds this test. `None` (the test is skipped) when none imports `etl`, unless
/// `FRAMESCOPE_REQUIRE_SHARED=1` (not on Windows), when that is a failure.
pub fn etl_parser_python() -> Option<PathBuf> {
    let venv = |dir: PathBuf| dir.join("etl-venv").join("bin").join("python");
    let exe = std::env::current_exe().ok();
    let candidates = [
        std::env::var_os("FRAMESCOPE_ETL_PYTHON").map(PathBuf::from),
        std::env::var_os("CARGO_TARGET_DIR").map(|d| venv(PathBuf::from(d))),
        exe.as_deref().and_then(|e| e.ancestors().nth(3)).map(|d| venv(d.to_path_buf())),
    ];
    let found = candidates.into_iter().flatten().find(|py| {
        Command::new(py).args(["-c", "import etl.etl"]).output().is_ok_and(|o| o.status.success())
    });
    // Only the Linux run provides the venv (.ci/windows.sh runs the Windows tests under
    // Wine, where a Linux Python cannot be started).
    let required = std::env::var("FRAMESCOPE_REQUIRE_SHARED").is_ok_and(|v| v == "1") && !cfg!(windows);
    assert!(
        found.is_some() || !required,
        "FRAMESCOPE_REQUIRE_SHARED=1 but no Python with etl-parser: install it with \
         python3 -m venv $CARGO_TARGET_DIR/etl-venv && $CARGO_TARGET_DIR/etl-venv/bin/pip install etl-parser==1.0.1"
    );
    if found.is_none() {
        eprintln!(
            "skipping the etl-parser comparison: no Python with etl-parser (see tests/etl/etl_counts.py)"
        );
    }
    found
}

/// etl-parser's counts of `files`, keyed by path (run once per test binary: every call
/// gets the first call's answer).
pub fn theirs(python: &Path, files: &[PathBuf]) -> serde_json::Value {
    static CACHE: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| run_etl_counts(python, files)).clone()
}

/// etl-parser's counts of `files`, keyed by path.
pub fn run_etl_counts(python: &Path, files: &[PathBuf]) -> serde_json::Value {
    let script = super::repo_file("tests/etl/etl_counts.py");
    let out = Command::new(python).arg(script).args(files).output().expect("run etl_counts.py");
    assert!(out.status.success(), "etl_counts.py failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("etl_counts.py prints JSON")
}
