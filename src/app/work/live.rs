//! A live capture followed on its own thread (`ingest::live`): a file still being
//! written (`--follow`, the watched folder) or standard input (`framescope -`). The
//! thread reads only the new bytes at each poll and sends the capture so far when it
//! has grown, at most every [`SNAPSHOT`] (taking it copies the capture: its cost grows
//! with the capture, so it is throttled, and it never runs on the UI thread). Dropping
//! the [`Follower`] stops the thread at its next poll.

use super::Repaint;
use framescope_core::analysis::Throttle;
use framescope_core::ingest::live::{self, Event, FileSource, Flow, Source, StreamSource};
use framescope_core::ingest::{LoadErrorKind, LoadOptions};
use framescope_core::model::Capture;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// How often the source is polled.
pub const POLL: Duration = Duration::from_millis(100);
/// The shortest time between two captures sent.
pub const SNAPSHOT: Duration = Duration::from_millis(500);
/// How long a file that is no capture must stay unchanged before that is an error
/// (it may still be in its first lines).
const ERROR_AFTER_IDLE: Duration = Duration::from_millis(500);

/// What is followed.
pub enum LiveInput {
    /// A file (which may not exist yet).
    File(PathBuf),
    /// Standard input.
    Stdin,
    /// Any stream, named so (standard input is one; tests give others).
    Reader(String, Box<dyn std::io::Read + Send>),
}

/// News from a followed capture.
pub enum LiveNews {
    /// The capture so far (every capture sent is the whole capture, not a part).
    Capture(Box<Capture>),
    /// The input started over (truncated, replaced): the reason.
    Restarted(String),
    /// The input is not a capture (or failed): the message.
    Failed(String),
    /// The bytes read so far were saved (asked with [`Follower::save`]): where.
    Saved(PathBuf),
    /// The input ended (standard input closed): the capture sent last is the whole.
    Ended,
}

/// A capture being followed.
pub struct Follower {
    /// The name its run opens with (the path, or `<stdin>`).
    pub name: String,
    /// The file, if it is one.
    pub path: Option<PathBuf>,
    news: Receiver<LiveNews>,
    saves: Sender<PathBuf>,
    stop: Arc<AtomicBool>,
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Follower {
    /// Starts following `input`; `repaint` is called with each piece of news.
    ///
    /// # Errors
    /// The thread could not start.
    pub fn start(input: LiveInput, opts: LoadOptions, repaint: Repaint) -> std::io::Result<Self> {
        let (path, name) = match &input {
            LiveInput::File(p) => (Some(p.clone()), p.display().to_string()),
            LiveInput::Stdin => (None, "<stdin>".to_owned()),
            LiveInput::Reader(name, _) => (None, name.clone()),
        };
        let source: Box<dyn Source + Send> = match input {
            LiveInput::File(p) => Box::new(FileSource::new(&p, POLL)),
            LiveInput::Stdin => Box::new(StreamSource::new(std::io::stdin(), POLL)?),
            LiveInput::Reader(_, input) => Box::new(StreamSource::new(input, POLL)?),
        };
        let (tx, rx) = channel();
        let (saves, save_rx) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, named) = (Arc::clone(&stop), PathBuf::from(&name));
        let channels = Channels { news: tx, saves: save_rx, input: path.clone() };
        std::thread::Builder::new()
            .name("framescope-follow".into())
            .spawn(move || run(source, &named, &opts, &channels, &flag, &repaint))?;
        Ok(Self { name, path, news: rx, saves, stop })
    }

    /// Writes the bytes read so far (the capture as read) to `to`, at the next poll;
    /// the answer comes as [`LiveNews::Saved`] or [`LiveNews::Failed`].
    pub fn save(&self, to: PathBuf) {
        let _ = self.saves.send(to);
    }

    /// The news since the last call.
    #[must_use]
    pub fn poll(&self) -> Vec<LiveNews> {
        self.news.try_iter().collect()
    }
}

/// The follower thread's channels: news out, save requests in, and the followed file
/// (never written to).
struct Channels {
    news: Sender<LiveNews>,
    saves: Receiver<PathBuf>,
    input: Option<PathBuf>,
}

/// Writes `bytes` to `to`, unless `to` is the followed file.
fn save(bytes: &[u8], to: PathBuf, input: Option<&std::path::Path>) -> LiveNews {
    let followed = framescope_core::output::Inputs::new(input.map(std::path::Path::to_path_buf));
    if followed.check("save", &to).is_err() {
        return LiveNews::Failed(format!(
            "{}: that is the capture being followed: not written",
            to.display()
        ));
    }
    match framescope_core::output::write_bytes(&to, bytes) {
        Ok(()) => LiveNews::Saved(to),
        Err(e) => LiveNews::Failed(format!("{}: {e}", to.display())),
    }
}

/// The follower's thread.
fn run(
    mut source: Box<dyn Source + Send>,
    path: &std::path::Path,
    opts: &LoadOptions,
    channels: &Channels,
    stop: &AtomicBool,
    repaint: &Repaint,
) {
    let tx = &channels.news;
    let mut throttle = Throttle::new(SNAPSHOT, 0.25);
    let (mut pending, mut reported_error, mut last_growth) = (false, None, Instant::now());
    let send = |news| {
        let ok = tx.send(news).is_ok();
        repaint();
        ok
    };
    let result = live::follow(&mut *source, path, opts, &mut |event| {
        if stop.load(Ordering::Relaxed) {
            return Flow::Stop;
        }
        match event {
            Event::Restarted(note) => {
                pending = false;
                reported_error = None;
                if send(LiveNews::Restarted(note)) { Flow::Continue } else { Flow::Stop }
            }
            Event::Update(l) => {
                for to in channels.saves.try_iter() {
                    if !send(save(l.bytes(), to, channels.input.as_deref())) {
                        return Flow::Stop;
                    }
                }
                let now = Instant::now();
                if l.grew {
                    pending = true;
                    last_growth = now;
                }
                let settled = l.ended || now.duration_since(last_growth) >= ERROR_AFTER_IDLE;
                if !pending || !(throttle.due(now) || l.ended) {
                    return Flow::Continue;
                }
                let t = Instant::now();
                let capture = l.capture();
                throttle.done(t, t.elapsed());
                let news = match capture {
                    Ok(c) => {
                        pending = false;
                        LiveNews::Capture(Box::new(c))
                    }
                    // Not yet a capture (a header, no row so far): wait for more.
                    Err(e) if matches!(e.kind, LoadErrorKind::NoFrames(_)) && !l.ended => {
                        return Flow::Continue;
                    }
                    Err(_) if !settled => return Flow::Continue,
                    Err(e) => {
                        pending = false;
                        if reported_error == Some(l.bytes().len()) {
                            return Flow::Continue;
                        }
                        reported_error = Some(l.bytes().len());
                        LiveNews::Failed(e.to_string())
                    }
                };
                if send(news) { Flow::Continue } else { Flow::Stop }
            }
        }
    });
    match result {
        Err(e) => {
            send(LiveNews::Failed(format!("{}: {e}", path.display())));
        }
        // The source ended (not stopped by the window): nothing more will come.
        Ok(()) if !stop.load(Ordering::Relaxed) => {
            send(LiveNews::Ended);
        }
        Ok(()) => {}
    }
}
