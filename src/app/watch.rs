//! A watched folder (File › Watch folder…, `--watch DIR`): a capture written into it
//! after the watch starts is reported once, as soon as it has bytes; the window then
//! follows it as it grows (`work::live`), as one run, however long its writer pauses
//! (a stability timeout cannot tell a finished file from a paused writer). Files
//! already there are never read.
//!
//! File notifications come from `notify` (inotify, FSEvents, ReadDirectoryChangesW); a
//! worker thread reports each new file name once (a file truncated or replaced later
//! is its follower's business: the same run starts over).

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecursiveMode, Watcher as _};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

/// How often the worker looks at the files named by notifications (and the window
/// polls the watch).
pub const TICK: Duration = Duration::from_millis(100);

/// What the watch reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A capture was written into the folder: follow it.
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

/// True when `path` is a file with bytes in it.
fn has_bytes(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0)
}

impl Watch {
    /// Watches `dir` (not its subfolders); `repaint` is called whenever there is news.
    pub fn start(dir: &Path, repaint: impl Fn() + Send + 'static) -> Result<Self, String> {
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
            .spawn(move || worker(&raw_rx, &tx, &repaint))
            .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        Ok(Self { dir: dir.to_path_buf(), events: rx, _watcher: watcher })
    }

    /// What happened since the last call.
    #[must_use]
    pub fn poll(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }
}

/// Turns notifications into new captures: each file name once, when it has bytes.
fn worker(raw: &Receiver<notify::Result<notify::Event>>, out: &Sender<Event>, repaint: &(impl Fn() + Send)) {
    // Files written to but still empty, looked at every tick.
    let mut waiting: HashSet<PathBuf> = HashSet::new();
    let mut reported: HashSet<PathBuf> = HashSet::new();
    loop {
        match raw.recv_timeout(TICK) {
            Ok(Ok(event)) => {
                let closed = matches!(event.kind, EventKind::Access(AccessKind::Close(AccessMode::Write)));
                if closed || matches!(event.kind, EventKind::Create(_) | EventKind::Modify(_)) {
                    waiting.extend(
                        event.paths.into_iter().filter(|p| is_capture_name(p) && !reported.contains(p)),
                    );
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
        let ready: Vec<PathBuf> = waiting.iter().filter(|p| has_bytes(p)).cloned().collect();
        for path in ready {
            waiting.remove(&path);
            reported.insert(path.clone());
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
    use std::time::Instant;

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

    /// A file written slowly (a chunk every 150 ms for 1.5 s, kept open) is reported
    /// once, as soon as it has bytes (its follower reads it as it grows), never again
    /// while it grows or after; a file that was there before the watch started is never
    /// reported; a file copied in is reported within a second.
    #[test]
    fn a_file_is_reported_once_as_soon_as_it_has_bytes() {
        let dir = temp_dir("complete");
        std::fs::write(dir.join("before.csv"), "old\n").unwrap();
        let w = Watch::start(&dir, || {}).unwrap();
        let path = dir.join("slow.csv");
        let mut f = std::fs::File::create(&path).unwrap();
        let mut events = Vec::new();
        let first = Instant::now();
        for k in 0..10 {
            writeln!(f, "line {k}").unwrap();
            f.flush().unwrap();
            events.extend(events_until(&w, Instant::now() + Duration::from_millis(150)));
        }
        drop(f);
        events.extend(events_until(&w, Instant::now() + Duration::from_millis(600)));
        assert_eq!(events.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), [Event::Ready(path.clone())]);
        assert!(events[0].0 - first < Duration::from_secs(1), "{:?}", events[0].0 - first);
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
        let e = Watch::start(Path::new("/no/such/folder/framescope"), || {}).err().unwrap();
        assert!(e.contains("not a folder"), "{e}");
    }
}
