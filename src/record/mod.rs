//! Recording captures with the capturing tool (`cli-report.md` § Recording): launch a
//! command under MangoHud (Linux), follow the log the tool writes as it grows (the
//! live-follow path, `framescope_core::ingest::live`), end the command after the
//! duration, and leave in the output folder the tool's own files (the log and its
//! `_summary.csv`) plus a `.json` sidecar of what was recorded. Repeats of one recording
//! are one set, named after the application and the first capture's time.
//!
//! GUI-free: the command line (`cli/recording.rs`) drives it and prints what it hears
//! through [`Observer`]; a window would drive it the same way from a thread.

mod child;
pub mod mangohud;
pub mod presentmon;
pub mod processes;

pub use child::Launched;

use framescope_core::output::{Inputs, write_bytes};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the output folder and the growing log are looked at.
pub const POLL: Duration = Duration::from_millis(100);

/// What to record.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The command to launch and its arguments (not empty).
    pub command: Vec<OsString>,
    /// Where the captures go (created when missing).
    pub out_dir: PathBuf,
    /// Seconds from the launch to the start of each capture.
    pub delay_s: f64,
    /// Seconds each capture lasts; `None`: until the command exits or Ctrl-C.
    pub duration_s: Option<f64>,
    /// How many captures, each of a fresh launch (at least 1).
    pub repeat: u32,
    /// Seconds between one capture's end and the next launch.
    pub pause_s: f64,
    /// MangoHud: hook OpenGL through `dlsym` (`mangohud --dlsym`, `MANGOHUD_DLSYM=1`),
    /// for OpenGL games that load their GL functions themselves.
    pub opengl_dlsym: bool,
}

/// Why a capture ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The duration passed (the tool ended its log).
    Duration,
    /// The command exited on its own first: what was recorded until then is kept.
    CommandExited,
    /// Ctrl-C (or the owner's stop): what was recorded is kept.
    Stopped,
    /// The tool wrote nothing more within the time it was given.
    TimedOut,
}

impl Ended {
    /// Its name in the sidecar.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Duration => "duration",
            Self::CommandExited => "command_exited",
            Self::Stopped => "stopped",
            Self::TimedOut => "timed_out",
        }
    }
}

/// One capture that recorded frames.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The tool's capture file.
    pub file: PathBuf,
    /// The tool's summary file beside it, when it wrote one.
    pub summary: Option<PathBuf>,
    /// framescope's note of what was recorded.
    pub sidecar: PathBuf,
    /// Data rows the capture holds.
    pub rows: usize,
    /// Why it ended.
    pub ended: Ended,
}

/// What went wrong, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError(pub String);

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a recording tells its owner while it runs.
#[derive(Debug, Clone)]
pub enum Note {
    /// Capture `k` of `of` launched the command (its process id).
    Launched { k: u32, of: u32, pid: u32 },
    /// The tool's capture file appeared.
    Found { k: u32, file: PathBuf },
    /// Once a second while the capture grows: seconds since the launch, the rows so
    /// far and their average FPS.
    Progress { k: u32, seconds: f64, rows: usize, avg_fps: Option<f64> },
    /// Waiting `seconds` before the next launch.
    Pausing { seconds: f64 },
}

/// The owner of a recording: hears its notes, and says when to stop (Ctrl-C).
pub trait Observer {
    /// A note.
    fn note(&mut self, note: &Note);
    /// True once the owner wants the recording to end (the current capture keeps what
    /// it recorded; no further capture starts).
    fn stop_requested(&self) -> bool;
}

/// An [`Observer`] stop flag shared with a signal handler or another thread.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// Asks the recording to end.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// True once asked.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Waits `plan.pause_s` before the next launch (telling the observer); false when the
/// observer asked to stop meanwhile (no further capture then).
pub(crate) fn pause(plan: &Plan, observer: &mut dyn Observer) -> bool {
    if observer.stop_requested() {
        return false;
    }
    observer.note(&Note::Pausing { seconds: plan.pause_s });
    let until = std::time::Instant::now() + Duration::from_secs_f64(plan.pause_s);
    while std::time::Instant::now() < until && !observer.stop_requested() {
        std::thread::sleep(POLL.min(until.saturating_duration_since(std::time::Instant::now())));
    }
    !observer.stop_requested()
}

/// The set's name: the application and the first capture's time, from the tool's file
/// name (`vkcube_2026-11-29_06-25-42.csv` → `vkcube 2026-11-29 06:25:42`).
#[must_use]
pub fn set_name(first: &Path) -> String {
    let stem = first.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    // PresentMon's runs: `PresentMon-<process>-YYYY-MM-DDTHHMMSSZ[-n]`.
    if let Some(rest) = stem.strip_prefix("PresentMon-")
        && let Some(t) = rest.rfind('T').filter(|&t| t >= 11)
        && rest.len() >= t + 8
    {
        let (who, date, time) = (&rest[..t - 11], &rest[t - 10..t], &rest[t + 1..t + 7]);
        if time.bytes().all(|b| b.is_ascii_digit()) {
            return format!("{who} {date} {}:{}:{} UTC", &time[..2], &time[2..4], &time[4..]);
        }
    }
    let parts: Vec<&str> = stem.rsplitn(3, '_').collect();
    if let [time, date, app] = parts[..]
        && date.len() == 10
        && time.len() == 8
    {
        return format!("{app} {date} {}", time.replace('-', ":"));
    }
    stem
}

/// The sidecar beside a capture: `NAME.csv` → `NAME.framescope.json`.
#[must_use]
pub fn sidecar_path(file: &Path) -> PathBuf {
    let stem = file.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    file.with_file_name(format!("{stem}.framescope.json"))
}

/// The set a recorded capture belongs to, from its sidecar (`None` without one): so
/// that the repeats of one recording open as one set again later.
#[must_use]
pub fn sidecar_set(file: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut text = String::new();
    std::fs::File::open(sidecar_path(file)).ok()?.take(64 * 1024).read_to_string(&mut text).ok()?;
    let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
    (doc.get("recorded_by")?.as_str()? == "framescope").then_some(())?;
    doc.get("set")?.as_str().map(str::to_owned)
}

/// What framescope adds about a recording, written beside the tool's files as JSON
/// (never over them: the tool's files are the inputs [`Inputs::check`] guards).
pub(crate) struct Sidecar<'a> {
    pub plan: &'a Plan,
    pub backend: &'static str,
    pub tool_version: Option<String>,
    pub tool_config: String,
    pub k: u32,
    pub set: String,
    pub file: &'a Path,
    pub summary: Option<&'a Path>,
    pub rows: usize,
    pub ended: Ended,
    pub recorded_s: f64,
}

impl Sidecar<'_> {
    /// Writes the sidecar beside the capture; the path written.
    pub(crate) fn write(&self) -> Result<PathBuf, RecordError> {
        let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
        let doc = serde_json::json!({
            "recorded_by": "framescope",
            "framescope_version": env!("CARGO_PKG_VERSION"),
            "backend": self.backend,
            "tool_version": self.tool_version,
            "tool_config": self.tool_config,
            "command": self.plan.command.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>(),
            "delay_s": self.plan.delay_s,
            "duration_s": self.plan.duration_s,
            "capture": self.k,
            "of": self.plan.repeat,
            "set": self.set,
            "file": name(self.file),
            "summary": self.summary.and_then(name),
            "rows": self.rows,
            "ended": self.ended.as_str(),
            "recorded_s": (self.recorded_s * 10.0).round() / 10.0,
        });
        let path = sidecar_path(self.file);
        let inputs =
            Inputs::new(std::iter::once(self.file.to_path_buf()).chain(self.summary.map(Path::to_path_buf)));
        inputs.check("the sidecar", &path).map_err(|e| RecordError(e.to_string()))?;
        let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        text.push('\n');
        write_bytes(&path, text.as_bytes())
            .map_err(|e| RecordError(format!("cannot write {}: {e}", path.display())))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_named_after_the_application_and_the_time() {
        assert_eq!(set_name(Path::new("/d/vkcube_2026-11-29_06-25-42.csv")), "vkcube 2026-11-29 06:25:42");
        assert_eq!(set_name(Path::new("/d/my_game_2026-11-29_06-25-42.csv")), "my_game 2026-11-29 06:25:42");
        assert_eq!(set_name(Path::new("/d/odd.csv")), "odd");
        assert_eq!(
            set_name(Path::new("/d/PresentMon-game.exe-2026-11-29T063939Z-2.csv")),
            "game.exe 2026-11-29 06:39:39 UTC"
        );
        assert_eq!(
            set_name(Path::new("PresentMon-pid42-2026-11-29T063939Z.csv")),
            "pid42 2026-11-29 06:39:39 UTC"
        );
        assert_eq!(
            sidecar_path(Path::new("/d/vkcube_2026-11-29_06-25-42.csv")),
            PathBuf::from("/d/vkcube_2026-11-29_06-25-42.framescope.json")
        );
    }
}
