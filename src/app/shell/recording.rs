//! The shell's side of a recording (File › Record…): starting it, and taking what it
//! reports — captures to follow live, the set their runs land in, its end.

use super::App;
use crate::app::session::AppCommand;

impl App {
    /// Starts a recording (one at a time); its captures open live as they appear.
    pub(super) fn start_recording(&mut self, request: crate::app::session::RecordRequest) {
        use crate::app::recording::{Backend, Recording};
        if self.jobs.recording.is_some() {
            self.scratch.errors.push("a recording is already under way: stop it first".into());
            return;
        }
        let backend = if request.mangohud { Backend::MangoHud } else { Backend::PresentMon };
        let ctx = self.ctx.clone();
        match Recording::start(request.plan, backend, request.tool, request.process, move || {
            ctx.request_repaint();
        }) {
            Ok(r) => {
                self.scratch.status = Some(format!("recording {}…", r.what));
                self.jobs.recording = Some(r);
            }
            Err(e) => self.scratch.errors.push(e),
        }
    }

    /// What the recording says: each capture opens live as it appears; at the end the
    /// captures recorded go in one set, named after the application and the time.
    pub(super) fn drain_recording(&mut self) {
        use crate::app::recording::Event;
        use crate::record::Note;
        let Some(recording) = &self.jobs.recording else { return };
        let mut done = None;
        for event in recording.poll() {
            match event {
                Event::Note(Note::Launched { k, of, pid }) => {
                    self.scratch.status = Some(format!("recording {k} of {of}: launched (pid {pid})"));
                }
                Event::Note(Note::Found { file, .. }) => {
                    if let Err(e) = self.jobs.follow(crate::app::work::live::LiveInput::File(file), false) {
                        self.scratch.errors.push(e);
                    }
                }
                Event::Note(Note::Progress { k, seconds, rows, .. }) => {
                    self.scratch.status = Some(format!("recording {k}: {seconds:.0} s, {rows} rows"));
                }
                Event::Note(Note::Pausing { seconds }) => {
                    self.scratch.status = Some(format!("recording: pause {seconds:.0} s"));
                }
                Event::Done(recorded, error) => done = Some((recorded, error)),
            }
        }
        let Some((recorded, error)) = done else { return };
        self.jobs.recording = None;
        if let Some(e) = error {
            self.scratch.errors.push(format!("recording: {e}"));
        }
        if let Some(first) = recorded.first() {
            let set = crate::record::set_name(&first.file);
            self.scratch.status = Some(format!("recorded {} capture(s): set {set}", recorded.len()));
            self.jobs.recorded_sets.extend(recorded.iter().map(|r| (r.file.clone(), set.clone())));
        }
    }

    /// Puts each recorded capture's run in its recording's set once it is open (a
    /// live run opens with its first rows).
    pub(super) fn place_recorded(&mut self) {
        if self.jobs.recorded_sets.is_empty() {
            return;
        }
        let mut moves = Vec::new();
        let session = &self.session;
        self.jobs.recorded_sets.retain(|(file, set)| {
            let run = session.runs().iter().find(|r| r.path.as_deref() == Some(file.as_path()));
            match run {
                Some(r) => {
                    if r.set != *set {
                        moves.push((r.id, set.clone()));
                    }
                    false
                }
                None => true,
            }
        });
        for (id, set) in moves {
            self.run_command(AppCommand::MoveToSet(id, set));
        }
    }
}
