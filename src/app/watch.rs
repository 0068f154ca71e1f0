//! A watched folder (File › Watch folder…): captures written into it after the watch
//! starts are opened once they are complete. Files already there are never read.
//!
//! File notifications come from `notify` (inotify, FSEvents, ReadDirectoryChangesW); a
//! worker thread keeps the files named by them and looks at each every
//! [`TICK`]: a file is complete when its size and modification time have not changed
//! for the settle time (0.4 s; a file its writer closed, for one tick), so a capture
//! that is still being written is never read half-way.

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecursiveMode, Watcher as _};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant, SystemTime};

/// How often the worker looks at the files it waits for (and the window polls them).
pub const TICK: Duration = Duration::from_millis(100);
/// How long a file's size and time must stay the same before it is read.
pub const SETTLE: Duration = Duration::from_millis(400);

/// What the watch reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A capture is complete: open it.
    Ready(PathBuf),
    /// The watch had a problem (the folder went away, the notification queue overflowed).
    Error(String),
}

/// A folder being watched; dropping it stops the watch.
pub struct Watch {
    /// The folder.
    pub dir: PathBuf,
    events: Receiver<Event>,
    // Dropping the watcher ends the notifications, which ends the worker.
    _watcher: notify::RecommendedWatcher,
}

/// A file's size and modification time.
type Signature = (u64, Option<SystemTime>);

/// A file the worker waits for.
struct Waiting {
    seen: Option<Signature>,
    since: Instant,
    closed: bool,
}

/// True for a name a capture can have: `.csv`, `.json`, `.hml`, `.log`, `.txt` (any
/// case), not hidden, not a partial download or a temporary file.
#[must_use]
pub fn is_capture_name(path: &Path) -> bool {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy()) else { return false };
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    !name.starts_with('.')
        && !name.starts_with('~')
        && ["csv", "json", "hml", "log", "txt"].contains(&ext.as_str())
}

fn signature(path: &Path) -> Option<Signature> {
    let m = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file)?;
    Some((m.len(), m.modified().ok()))
}

impl Watch {
    /// Watches `dir` (not its subfolders); `repaint` is called whenever there is news.
    pub fn start(dir: &Path, settle: Duration, repaint: impl Fn() + Send + 'static) -> Result<Self, String> {
        if !dir.is_dir() {
            return Err(format!("{} is not a folder", dir.display()));
        }
        let (raw_tx, raw_rx) = channel::<notify::Result<notify::Event>>();
        let mut watcher = notify::recommended_watcher(raw_tx)
            .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        watcher
            .watch(dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name("framescope-watch".into())
            .spawn(move || worker(&raw_rx, &tx, settle, &repaint))
            .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        Ok(Self { dir: dir.to_path_buf(), events: rx, _watcher: watcher })
    }

    /// What happened since the last call.
    #[must_use]
    pub fn poll(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }
}

/// Turns notifications into complete files: waits for each named file to settle.
fn worker(
    raw: &Receiver<notify::Result<notify::Event>>,
    out: &Sender<Event>,
    settle: Duration,
    repaint: &(impl Fn() + Send),
) {
    let mut waiting: HashMap<PathBuf, Waiting> = HashMap::new();
    // What each file was when it was reported: a file is reported again only when
    // written again.
    let mut reported: HashMap<PathBuf, Signature> = HashMap::new();
    loop {
        match raw.recv_timeout(TICK) {
            Ok(Ok(event)) => {
                let closed = matches!(event.kind, EventKind::Access(AccessKind::Close(AccessMode::Write)));
                let written = closed || matches!(event.kind, EventKind::Create(_) | EventKind::Modify(_));
                if written {
                    for path in event.paths.into_iter().filter(|p| is_capture_name(p)) {
                        let w = waiting.entry(path).or_insert(Waiting {
                            seen: None,
                            since: Instant::now(),
                            closed: false,
                        });
                        if closed {
                            w.closed = true;
                        } else {
                            // Still being written: wait again from now.
                            w.since = Instant::now();
                            w.closed = false;
                        }
                    }
                }
            }
            Ok(Err(e)) => {
                if out.send(Event::Error(format!("watched folder: {e}"))).is_err() {
                    return;
                }
                repaint();
            }
            Err(RecvTimeoutError::Timeout) => {}
            // The watch was dropped.
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let now = Instant::now();
        let mut ready = Vec::new();
        waiting.retain(|path, w| {
            let Some(sig) = signature(path) else { return false };
            if w.seen != Some(sig) {
                w.seen = Some(sig);
                w.since = now;
                return true;
            }
            let wait = if w.closed { TICK.min(settle) } else { settle };
            if sig.0 > 0 && now.duration_since(w.since) >= wait {
                ready.push((path.clone(), sig));
                return false;
            }
            true
        });
        for (path, sig) in ready {
            if reported.get(&path) == Some(&sig) {
                continue;
            }
            reported.insert(path.clone(), sig);
            if out.send(Event::Ready(path)).is_err() {
                return;
            }
            repaint();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use std::io::Write as _;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("framescope-watch-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Events until `until` (polling every 10 ms).
    fn events_until(w: &Watch, until: Instant) -> Vec<(Instant, Event)> {
        let mut out = Vec::new();
        while Instant::now() < until {
            out.extend(w.poll().into_iter().map(|e| (Instant::now(), e)));
            std::thread::sleep(Duration::from_millis(10));
        }
        out
    }

    #[test]
    fn names_of_captures() {
        assert!(is_capture_name(Path::new("/a/run1.CSV")));
        assert!(is_capture_name(Path::new("b.json")));
        assert!(!is_capture_name(Path::new("/a/.run1.csv")));
        assert!(!is_capture_name(Path::new("/a/run1.csv.part")));
        assert!(!is_capture_name(Path::new("/a/run1")));
    }

    /// A file written slowly (a chunk every 150 ms for 1.5 s, kept open) is not
    /// reported while it grows; once its writer is done it is, within a second. A file
    /// that was there before the watch started is never reported; a file copied in is
    /// reported within a second of the copy's end.
    #[test]
    fn a_file_is_opened_once_complete_and_never_half_way() {
        let dir = temp_dir("complete");
        std::fs::write(dir.join("before.csv"), "old\n").unwrap();
        let w = Watch::start(&dir, SETTLE, || {}).unwrap();
        let path = dir.join("slow.csv");
        let mut f = std::fs::File::create(&path).unwrap();
        for k in 0..10 {
            writeln!(f, "line {k}").unwrap();
            f.flush().unwrap();
            let early = events_until(&w, Instant::now() + Duration::from_millis(150));
            assert!(early.is_empty(), "reported while being written: {early:?}");
        }
        drop(f);
        let done = Instant::now();
        let events = events_until(&w, done + Duration::from_millis(1200));
        assert_eq!(events.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), [Event::Ready(path.clone())]);
        assert!(events[0].0 - done < Duration::from_secs(1), "{:?}", events[0].0 - done);
        // Writing to the file that was there before: only now is it news.
        let copied = dir.join("copied.csv");
        std::fs::copy(&path, &copied).unwrap();
        let done = Instant::now();
        let events = events_until(&w, done + Duration::from_millis(1200));
        assert_eq!(events.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), [Event::Ready(copied)]);
        assert!(events[0].0 - done < Duration::from_secs(1), "{:?}", events[0].0 - done);
        // Nothing else: "before.csv" was never reported, the others only once.
        assert!(events_until(&w, Instant::now() + Duration::from_millis(600)).is_empty());
        drop(w);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let e = Watch::start(Path::new("/no/such/folder/framescope"), SETTLE, || {}).err().unwrap();
        assert!(e.contains("not a folder"), "{e}");
    }
}
