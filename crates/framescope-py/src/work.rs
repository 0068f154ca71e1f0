//! Long work off the Python thread: it runs on its own thread while the caller waits
//! with the GIL released, wakes every 100 ms to report progress (a `progress(done,
//! total)` callable) and to check for KeyboardInterrupt. On an interrupt the call
//! returns at once with the exception; the work stops at its next file (its result is
//! thrown away: nothing is half-returned).

use pyo3::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

/// What the work sends the waiting caller.
enum Message<T> {
    /// This many of the files are done.
    Progress(usize),
    /// The result.
    Done(T),
}

/// The work's side: progress to report, and whether the caller gave up.
pub struct Ticker<T> {
    tx: Sender<Message<T>>,
    cancel: Arc<AtomicBool>,
}

impl<T> Ticker<T> {
    /// `done` files of the total are finished.
    pub fn tick(&self, done: usize) {
        let _ = self.tx.send(Message::Progress(done));
    }

    /// Whether the caller was interrupted (the work should stop).
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// Runs `work` on its own thread; `progress(done, total)` is called as it ticks.
pub fn run<T, W>(py: Python<'_>, total: usize, progress: Option<&Bound<'_, PyAny>>, work: W) -> PyResult<T>
where
    T: Send + 'static,
    W: FnOnce(&Ticker<T>) -> T + Send + 'static,
{
    let (tx, rx) = channel();
    let cancel = Arc::new(AtomicBool::new(false));
    let ticker = Ticker { tx, cancel: cancel.clone() };
    std::thread::Builder::new()
        .name("framescope".into())
        .spawn(move || {
            let out = work(&ticker);
            let _ = ticker.tx.send(Message::Done(out));
        })
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    wait(py, total, progress, &std::sync::Mutex::new(rx), &cancel)
}

fn wait<T: Send>(
    py: Python<'_>,
    total: usize,
    progress: Option<&Bound<'_, PyAny>>,
    rx: &std::sync::Mutex<Receiver<Message<T>>>,
    cancel: &AtomicBool,
) -> PyResult<T> {
    loop {
        let got = py.detach(|| match rx.lock() {
            Ok(rx) => rx.recv_timeout(Duration::from_millis(100)),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        });
        match got {
            Ok(Message::Done(out)) => return Ok(out),
            Ok(Message::Progress(done)) => {
                if let Some(p) = progress
                    && let Err(e) = p.call1((done, total))
                {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err("framescope's worker thread failed"));
            }
        }
        if let Err(e) = py.check_signals() {
            cancel.store(true, Ordering::Relaxed);
            return Err(e);
        }
    }
}
