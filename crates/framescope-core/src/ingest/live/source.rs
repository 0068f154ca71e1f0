//! Where a live capture's bytes come from: a file that grows ([`FileSource`]: read
//! from where the last read stopped; truncated, replaced or rewritten files start
//! over) or a stream such as standard input ([`StreamSource`]: read on a thread of
//! its own, so a pause of the writer never blocks the reader's owner).

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

/// The most bytes one poll hands over: a long capture already written is read in
/// steps of this size, so no single update grows with the capture.
pub const MAX_CHUNK: usize = 4 << 20;

/// How many bytes of a file's beginning are compared to tell a rewritten file.
const HEAD_BYTES: usize = 512;

/// What one poll found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Poll {
    /// New bytes were appended to the buffer.
    Data,
    /// Nothing new after waiting for a while.
    Idle,
    /// The input started over (truncated, replaced, rewritten): the reason, in words.
    /// The buffer was cleared; what follows is the new content from its start.
    Reset(String),
    /// The input ended (a stream's end): nothing more will come.
    End,
}

/// A source of bytes that may grow.
pub trait Source {
    /// Appends what is new to `into` (waiting up to the source's poll interval when
    /// there is nothing).
    ///
    /// # Errors
    /// Reading failed.
    fn poll(&mut self, into: &mut Vec<u8>) -> std::io::Result<Poll>;
}

/// A file being written: polled every `every`.
pub struct FileSource {
    path: PathBuf,
    every: Duration,
    /// Bytes read so far.
    pos: u64,
    /// The file's identity when first read (unix: device and inode).
    identity: Option<(u64, u64)>,
    /// Its first bytes, as read.
    head: Vec<u8>,
}

impl FileSource {
    /// Follows `path` (which need not exist yet), looking at it every `every`.
    #[must_use]
    pub fn new(path: &Path, every: Duration) -> Self {
        Self { path: path.to_path_buf(), every, pos: 0, identity: None, head: Vec::new() }
    }

    /// Starts over: what is read next is the file from its start.
    fn reset(&mut self, into: &mut Vec<u8>, why: String) -> Poll {
        self.pos = 0;
        self.identity = None;
        self.head.clear();
        into.clear();
        Poll::Reset(why)
    }
}

/// A file's identity (unix: device and inode; elsewhere none is known).
#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)]
fn identity(m: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

impl Source for FileSource {
    fn poll(&mut self, into: &mut Vec<u8>) -> std::io::Result<Poll> {
        let idle = |every| {
            std::thread::sleep(every);
            Ok(Poll::Idle)
        };
        // A file that is not there (yet, or for the moment) is waited for.
        let Ok(mut file) = std::fs::File::open(&self.path) else { return idle(self.every) };
        let meta = file.metadata()?;
        let name = self.path.display();
        if self.pos > 0 && self.identity.is_some() && identity(&meta) != self.identity {
            return Ok(self.reset(into, format!("{name} was replaced: read again from its start")));
        }
        if meta.len() < self.pos {
            return Ok(self.reset(into, format!("{name} was truncated: read again from its start")));
        }
        if meta.len() == self.pos {
            return idle(self.every);
        }
        if !self.head.is_empty() {
            let mut head = vec![0; self.head.len()];
            file.read_exact(&mut head)?;
            if head != self.head {
                return Ok(self.reset(into, format!("{name} was rewritten: read again from its start")));
            }
        }
        file.seek(SeekFrom::Start(self.pos))?;
        let want = usize::try_from(meta.len() - self.pos).unwrap_or(MAX_CHUNK).min(MAX_CHUNK);
        let start = into.len();
        into.resize(start + want, 0);
        let mut got = 0;
        while got < want {
            match file.read(&mut into[start + got..])? {
                0 => break,
                n => got += n,
            }
        }
        into.truncate(start + got);
        self.pos += got as u64;
        if self.identity.is_none() {
            self.identity = identity(&meta);
        }
        if self.head.len() < HEAD_BYTES {
            let end = usize::try_from(self.pos).unwrap_or(HEAD_BYTES).min(HEAD_BYTES);
            self.head = into.get(..end).map(<[u8]>::to_vec).unwrap_or_default();
        }
        Ok(if got == 0 { Poll::Idle } else { Poll::Data })
    }
}

/// A stream (standard input, a pipe) read on its own thread.
pub struct StreamSource {
    chunks: Receiver<std::io::Result<Vec<u8>>>,
    every: Duration,
}

impl StreamSource {
    /// Reads `input` on a thread until its end; a poll waits up to `every`.
    ///
    /// # Errors
    /// The thread could not start.
    pub fn new(mut input: impl Read + Send + 'static, every: Duration) -> std::io::Result<Self> {
        let (tx, rx) = sync_channel(16);
        std::thread::Builder::new().name("framescope-live-input".into()).spawn(move || {
            loop {
                let mut buf = vec![0; 1 << 16];
                match input.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => {
                        buf.truncate(n);
                        if tx.send(Ok(buf)).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        })?;
        Ok(Self { chunks: rx, every })
    }
}

impl Source for StreamSource {
    fn poll(&mut self, into: &mut Vec<u8>) -> std::io::Result<Poll> {
        match self.chunks.recv_timeout(self.every) {
            Ok(chunk) => {
                let start = into.len();
                into.extend_from_slice(&chunk?);
                // Take what else is waiting, up to a chunk's worth.
                while into.len() - start < MAX_CHUNK
                    && let Ok(more) = self.chunks.try_recv()
                {
                    into.extend_from_slice(&more?);
                }
                Ok(Poll::Data)
            }
            Err(RecvTimeoutError::Timeout) => Ok(Poll::Idle),
            Err(RecvTimeoutError::Disconnected) => Ok(Poll::End),
        }
    }
}
