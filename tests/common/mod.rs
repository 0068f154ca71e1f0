//! Helpers shared by the integration tests.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]
#![allow(dead_code)]

pub mod bad;
pub mod cdp;
pub mod etl_parser;
pub mod etl_writer;
pub mod html;
pub mod mangle;
pub mod perfetto_writer;
pub mod quirks;
pub mod runs;
pub mod sampled;
#[cfg(feature = "gui")]
pub mod ui;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The real captures folder (`../shared/real-traces`), or `None` with a message when
/// it is absent. With `FRAMESCOPE_REQUIRE_SHARED=1` (set by `.ci/run`) absence fails.
pub fn real_traces() -> Option<PathBuf> {
    let dir = std::env::var_os("FRAMESCOPE_SHARED")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"), PathBuf::from)
        .join("real-traces");
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("FRAMESCOPE_REQUIRE_SHARED").is_ok_and(|v| v == "1");
    assert!(!required, "FRAMESCOPE_REQUIRE_SHARED=1 but {} is missing", dir.display());
    eprintln!("skipping: {} not found (set FRAMESCOPE_SHARED to the shared folder)", dir.display());
    None
}

/// The bytes of the real capture `rel` (a path under `dir`, the real captures folder),
/// or `None` with a message when it cannot be read. With `FRAMESCOPE_REQUIRE_SHARED=1`
/// a missing file fails, as a missing folder does ([`real_traces`]).
pub fn read_real_trace(dir: &Path, rel: &str) -> Option<Vec<u8>> {
    match std::fs::read(dir.join(rel)) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            let required = std::env::var("FRAMESCOPE_REQUIRE_SHARED").is_ok_and(|v| v == "1");
            assert!(!required, "FRAMESCOPE_REQUIRE_SHARED=1 but {rel} cannot be read: {e}");
            eprintln!("skipping {rel}: {e}");
            None
        }
    }
}

/// A file in the repository.
pub fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Output of one run of the real binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the `framescope` binary with arguments.
pub fn framescope<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = Command::new(env!("CARGO_BIN_EXE_framescope")).args(args).output().expect("run framescope");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The PresentMon 1.x header the hand-built CLI test captures use.
pub const PM1_HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,\
MsUntilRenderComplete,MsUntilDisplayed";

/// A new file `name` holding `text`, in a folder of its own under the system temp dir
/// (tests run in parallel and reuse names; the files stay, as a user's captures would).
pub fn temp_file(name: &str, text: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("framescope-test-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// Runs `framescope compare --json BASELINE OTHER` (which must succeed) and parses the
/// document.
pub fn compare_json(baseline: &Path, other: &Path) -> serde_json::Value {
    let run = framescope(["compare".as_ref(), "--json".as_ref(), baseline.as_os_str(), other.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("compare JSON")
}

/// Runs `framescope report --json` and parses the document.
pub fn report_json<I, S>(args: I) -> (i32, serde_json::Value)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut all: Vec<std::ffi::OsString> = vec!["report".into(), "--json".into()];
    all.extend(args.into_iter().map(|a| a.as_ref().to_owned()));
    let run = framescope(&all);
    let doc = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", run.stdout, run.stderr));
    (run.code, doc)
}

/// True when two floats agree to a relative 1e-9 (summation order may differ).
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

/// A fresh directory under the system temp folder, removed when dropped. Names carry
/// the process id, so test binaries running at once never share one.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new, empty directory for the test called `test`.
    pub fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("framescope-test-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        Self(dir)
    }

    /// Writes `bytes` to a file `name` in the directory.
    pub fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("write temp file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
