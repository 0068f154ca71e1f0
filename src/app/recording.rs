//! A recording started from the window (File › Record…, the toolbar's Record…): the
//! recording (`crate::record`, GUI-free) runs on a thread of its own, so the window
//! never waits for it; what it says arrives through a channel the shell polls once a
//! frame: each capture file as it appears (the window follows it live), progress for
//! the status line, and at the end the captures recorded (put in one set) or the error.

use crate::record::{self, Note, Observer, Plan, RecordError, Recorded, StopFlag};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};

/// What a recording reports to the window.
#[derive(Debug, Clone)]
pub enum Event {
    /// A note while it runs.
    Note(Note),
    /// It ended: the captures recorded and the error that ended it early, if any.
    Done(Vec<Recorded>, Option<RecordError>),
}

/// Which tool records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// MangoHud (Linux).
    MangoHud,
    /// PresentMon (Windows).
    PresentMon,
}

/// A recording under way; dropping it asks it to stop.
pub struct Recording {
    stop: StopFlag,
    events: Receiver<Event>,
    /// Shown while it runs (the command, or the process).
    pub what: String,
}

/// Hands the recording's notes to the window.
struct Channel {
    tx: Sender<Event>,
    stop: StopFlag,
    repaint: Box<dyn Fn() + Send>,
}

impl Observer for Channel {
    fn note(&mut self, note: &Note) {
        let _ = self.tx.send(Event::Note(note.clone()));
        (self.repaint)();
    }

    fn stop_requested(&self) -> bool {
        self.stop.is_set()
    }
}

impl Recording {
    /// Starts recording `plan` with `backend` (`tool`: the capturing tool's program,
    /// else found as the command line finds it; `process`: PresentMon's target) on a
    /// thread; `repaint` is called whenever there is news.
    pub fn start(
        plan: Plan,
        backend: Backend,
        tool: Option<PathBuf>,
        process: Option<String>,
        repaint: impl Fn() + Send + 'static,
    ) -> Result<Self, String> {
        let (tx, events) = channel();
        let stop = StopFlag::default();
        let what = process.clone().unwrap_or_else(|| {
            plan.command.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
        });
        let mut observer = Channel { tx: tx.clone(), stop: stop.clone(), repaint: Box::new(repaint) };
        std::thread::Builder::new()
            .name("framescope-record".into())
            .spawn(move || {
                let (recorded, error) = match backend {
                    Backend::MangoHud => record::mangohud::record_with(&plan, tool, &mut observer),
                    Backend::PresentMon => match record::presentmon::find(tool.as_deref()) {
                        Ok(pm) => {
                            let target = process.as_deref().map(record::presentmon::Target::parse);
                            record::presentmon::record(&plan, &pm, target.as_ref(), &mut observer)
                        }
                        Err(e) => (Vec::new(), Some(e)),
                    },
                };
                let _ = tx.send(Event::Done(recorded, error));
                (observer.repaint)();
            })
            .map_err(|e| format!("cannot start recording: {e}"))?;
        Ok(Self { stop, events, what })
    }

    /// Asks the recording to end (the current capture keeps what it recorded).
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// True once asked to stop.
    #[must_use]
    pub fn stopping(&self) -> bool {
        self.stop.is_set()
    }

    /// What happened since the last call.
    #[must_use]
    pub fn poll(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }
}

impl Drop for Recording {
    fn drop(&mut self) {
        self.stop.stop();
    }
}
