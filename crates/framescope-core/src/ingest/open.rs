//! Opening an input for reading without hanging: a named pipe (FIFO) blocks in `open`
//! until something opens it for writing, which may be never. Everything else opens as
//! usual (a device such as `/dev/zero` is read, and refused for what it holds).
//!
//! A FIFO is opened on a helper thread and given up on after [`FIFO_WAIT`] without a
//! writer. Process substitution (`framescope report <(cmd)`, `/dev/fd/N`) hands over an
//! anonymous pipe, which opens at once: it keeps working.

use super::error::{LoadError, LoadErrorKind};
use std::fs::File;
use std::path::Path;
use std::time::Duration;

/// How long a named pipe may stay without a writer before the load gives up.
pub const FIFO_WAIT: Duration = Duration::from_secs(10);

/// Opens `path` for reading: a folder is refused with a message, a FIFO waits at most
/// [`FIFO_WAIT`] for a writer.
pub fn open_input(path: &Path) -> Result<File, LoadError> {
    open_waiting(path, FIFO_WAIT)
}

/// [`open_input`] with another wait for a FIFO's writer.
pub(super) fn open_waiting(path: &Path, wait: Duration) -> Result<File, LoadError> {
    let io_err = |e| LoadError::new(path, None, LoadErrorKind::Io(e));
    let kind = std::fs::metadata(path).map_err(io_err)?.file_type();
    if kind.is_dir() {
        let msg = "this is a folder; expected a capture file".to_owned();
        return Err(LoadError::new(path, None, LoadErrorKind::NotACapture(msg)));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return open_fifo(path, wait);
        }
    }
    // Only Unix has named pipes among the files (Windows' live in their own namespace).
    #[cfg(not(unix))]
    let _ = wait;
    File::open(path).map_err(io_err)
}

/// Opens a FIFO on a helper thread; without a writer within `wait`, the load fails
/// (the thread stays blocked until a writer comes or the process ends; the file it
/// then opens is closed at once).
#[cfg(unix)]
fn open_fifo(path: &Path, wait: Duration) -> Result<File, LoadError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    let spawned = std::thread::Builder::new().name("open FIFO".into()).spawn(move || {
        let _ = tx.send(File::open(owned));
    });
    if let Err(e) = spawned {
        return Err(LoadError::new(path, None, LoadErrorKind::Io(e)));
    }
    if let Ok(opened) = rx.recv_timeout(wait) {
        return opened.map_err(|e| LoadError::new(path, None, LoadErrorKind::Io(e)));
    }
    let msg = format!(
        "this is a named pipe (FIFO) and nothing opened it for writing within {} s; give a capture file, or - \
         to read standard input",
        wait.as_secs_f64()
    );
    Err(LoadError::new(path, None, LoadErrorKind::NotACapture(msg)))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn fifo(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("framescope-open-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(std::fs::create_dir_all(&dir).is_ok(), "temp dir");
        let path = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        path
    }

    #[test]
    fn a_fifo_without_a_writer_is_given_up_on() {
        let path = fifo("nowriter");
        let started = std::time::Instant::now();
        let err = open_waiting(&path, Duration::from_millis(200)).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(err.to_string().contains("named pipe (FIFO) and nothing opened it for writing within 0.2 s"));
        // The helper thread is still blocked in `open`: a writer releases it.
        let _ = std::fs::OpenOptions::new().write(true).open(&path);
    }

    #[test]
    fn a_fifo_with_a_writer_reads() {
        let path = fifo("writer");
        let writer_path = path.clone();
        let writer = std::thread::spawn(move || {
            let mut w = std::fs::OpenOptions::new().write(true).open(writer_path).unwrap();
            w.write_all(b"a,b\n").unwrap();
        });
        let mut text = String::new();
        open_waiting(&path, Duration::from_secs(30)).unwrap().read_to_string(&mut text).unwrap();
        writer.join().unwrap();
        assert_eq!(text, "a,b\n");
    }
}
