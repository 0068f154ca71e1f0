//! The window's background work, egui-free: loading captures ([`load`]), the
//! level-of-detail tracks of a trace ([`tracks`]) and its figures for the current
//! settings ([`mod@analyze`]) with their charts' data ([`chart_data`]). Work runs as a [`Task`] started by a [`Spawner`]: on its own
//! thread in the window (with a repaint when it is done), or at once on the caller's
//! thread in the session's unit tests, which then need neither threads nor waiting.

pub mod analyze;
pub mod chart_data;
pub mod limiter_track;
pub mod live;
pub mod load;
pub mod navigation;
pub mod selection;
pub mod tracks;

pub use analyze::{AnalysisError, Analyzed, Marks, analyze};
pub use chart_data::ChartData;
pub use load::{LoadId, LoadSource, Pending};
pub use tracks::{TelemetryTrack, Tracks};

use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Called when background work has news (the window asks egui for a new frame).
pub type Repaint = Arc<dyn Fn() + Send + Sync>;

/// Starts background work: on a new thread, calling the repaint when done, or (for
/// tests) at once on the calling thread.
#[derive(Clone)]
pub struct Spawner {
    repaint: Repaint,
    inline: bool,
}

impl Spawner {
    /// Work on its own thread; `repaint` is called when each task is done.
    #[must_use]
    pub fn threads(repaint: Repaint) -> Self {
        Self { repaint, inline: false }
    }

    /// Work done at once on the calling thread: a task is finished when it is
    /// returned (the session's unit tests).
    #[must_use]
    pub fn inline() -> Self {
        Self { repaint: Arc::new(|| {}), inline: true }
    }

    /// The repaint callback, for work that reports progress on its own.
    #[must_use]
    pub fn repaint(&self) -> Repaint {
        Arc::clone(&self.repaint)
    }

    /// Starts `work`.
    pub fn task<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Task<T> {
        let (tx, rx) = channel();
        if self.inline {
            let _ = tx.send(work());
        } else {
            let repaint = Arc::clone(&self.repaint);
            std::thread::spawn(move || {
                let _ = tx.send(work());
                repaint();
            });
        }
        Task { result: rx }
    }
}

/// Work started by a [`Spawner`]; the window polls it.
pub struct Task<T> {
    result: Receiver<T>,
}

impl<T> Task<T> {
    /// `Some(Ok(result))` once done, `Some(Err(..))` when the worker died (a bug, but
    /// the window must say so rather than wait forever), `None` while it runs.
    #[must_use]
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.result.try_recv() {
            Ok(v) => Some(Ok(v)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("a background task stopped unexpectedly".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_work_is_done_when_started_and_threaded_work_arrives() {
        let task = Spawner::inline().task(|| 6 * 7);
        assert_eq!(task.poll(), Some(Ok(42)));
        let (tx, rx) = channel();
        let repaint: Repaint = Arc::new(move || {
            let _ = tx.send(());
        });
        let task = Spawner::threads(repaint).task(|| "done");
        assert!(rx.recv_timeout(std::time::Duration::from_secs(10)).is_ok(), "no repaint");
        assert_eq!(task.poll(), Some(Ok("done")));
        // A worker that died says so instead of leaving the window waiting.
        let (tx, rx) = channel::<u8>();
        drop(tx);
        assert!(Task { result: rx }.poll().is_some_and(|r| r.is_err()));
    }
}
