//! The files a job reads: arguments expanded (folders walked, `.gz` captures found,
//! `-` for standard input, a folder that cannot be read kept as an input that fails),
//! and [`for_each_ordered`], which loads them in parallel across cores and hands the
//! results back in argument order as each is ready, so output streams while later files
//! still load.

use crate::ingest::{self, LoadError, LoadOptions, Progress};
use crate::model::Capture;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The extensions a folder is walked for (any case): a `.csv`, `.json` (CapFrameX),
/// `.hml` (MSI Afterburner), or a Perfetto trace (`.perfetto-trace`, `.pftrace`).
/// Android's `dumpsys` text dumps are `.txt` files like any notes: a `.txt` is walked
/// when its first lines are a SurfaceFlinger or gfxinfo dump (`is_android_dump`).
pub const CAPTURE_EXTENSIONS: [&str; 5] = ["csv", "json", "hml", "perfetto-trace", "pftrace"];

/// Bytes of a `.txt` looked at to tell an Android dump from other text.
const DUMP_HEAD_BYTES: u64 = 4096;

/// The name standard input goes by in messages and as an application name.
pub const STDIN_NAME: &str = "<stdin>";

/// One thing to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file, named as given (or as found in a folder given).
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// A folder given that holds no capture file: reported as a failed run.
    EmptyFolder(PathBuf),
    /// A folder (given, or met while walking one) that cannot be read, and why: a
    /// failed run, so the files it may hold are not silently missing.
    UnreadableFolder(PathBuf, String),
}

impl Input {
    /// The name of the run's `file`: the path as given, `-` for standard input.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Self::File(p) | Self::EmptyFolder(p) | Self::UnreadableFolder(p, _) => p.display().to_string(),
            Self::Stdin => "-".to_owned(),
        }
    }

    /// Reads the capture.
    pub fn load(&self, opts: LoadOptions) -> Result<Capture, LoadError> {
        match self {
            Self::File(p) => ingest::load_file(p, opts, &Progress::without_preview()),
            // Streamed through the same reader as files: memory stays near the size of
            // the kept columns, whatever the length of the input.
            Self::Stdin => ingest::load_reader(
                Path::new(STDIN_NAME),
                std::io::stdin(),
                opts,
                &Progress::without_preview(),
            ),
            Self::EmptyFolder(p) => Err(LoadError::new(
                p,
                None,
                ingest::LoadErrorKind::NotACapture(format!(
                    "this folder holds no capture file (*.{}, or an Android dump *.txt)",
                    CAPTURE_EXTENSIONS.join(", *.")
                )),
            )),
            Self::UnreadableFolder(p, why) => {
                Err(LoadError::new(p, None, ingest::LoadErrorKind::NotACapture(why.clone())))
            }
        }
    }
}

/// Expands the arguments: a folder becomes the capture files under it (recursively,
/// sorted by path; folders reached through symbolic links are not followed, hidden
/// entries are skipped; a folder that cannot be read is an input that fails), `-`
/// standard input. `-` given twice is an error.
pub fn expand(args: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    let mut stdin = false;
    for arg in args {
        if arg.as_os_str() == "-" {
            if stdin {
                return Err("'-' (standard input) can be given only once".into());
            }
            stdin = true;
            out.push(Input::Stdin);
        } else if arg.is_dir() {
            let mut found = Vec::new();
            walk(arg, &mut found);
            found.sort_by(|a, b| a.name_path().cmp(b.name_path()));
            if found.is_empty() {
                out.push(Input::EmptyFolder(arg.clone()));
            }
            out.extend(found);
        } else {
            out.push(Input::File(arg.clone()));
        }
    }
    Ok(out)
}

impl Input {
    /// The path of a file or folder input (sorting a walk's findings).
    fn name_path(&self) -> &Path {
        match self {
            Self::File(p) | Self::EmptyFolder(p) | Self::UnreadableFolder(p, _) => p,
            Self::Stdin => Path::new("-"),
        }
    }
}

/// The input for a folder that `read_dir` refused with `e`.
fn unreadable(dir: &Path, e: &std::io::Error) -> Input {
    let why = match e.kind() {
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    };
    Input::UnreadableFolder(
        dir.to_path_buf(),
        format!("cannot read this folder ({why}); its captures were not read"),
    )
}

fn walk(dir: &Path, found: &mut Vec<Input>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return found.push(unreadable(dir, &e)),
    };
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => return found.push(unreadable(dir, &e)),
        };
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            walk(&path, found);
        } else if (kind.is_file() || path.is_file())
            && ((is_capture_name(&path) && !is_sidecar(&path)) || is_android_dump(&path))
        {
            found.push(Input::File(path));
        }
    }
}

/// True for `NAME.json` beside `NAME.csv`: the metadata CapFrameX on Linux writes
/// beside its capture, read with the CSV and no capture of its own.
fn is_sidecar(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) && path.with_extension("csv").is_file()
}

/// True for a `.txt` whose first lines are an Android `dumpsys SurfaceFlinger --latency`
/// or `dumpsys gfxinfo … framestats` dump, in UTF-8 or UTF-16 (what a Windows shell's
/// `adb shell … > dump.txt` writes).
#[must_use]
pub fn is_android_dump(path: &Path) -> bool {
    use std::io::Read;
    if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt")) {
        return false;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(DUMP_HEAD_BYTES).read_to_end(&mut head));
    if read.is_err() {
        return false;
    }
    let text = utf16_or_plain(&head);
    ingest::android::is_surfaceflinger(&text) || ingest::android::is_gfxinfo(&text)
}

/// `head` as UTF-8 bytes: UTF-16 with a byte-order mark, or whose every other byte of
/// the first ones is 0, decoded; anything else as it is.
fn utf16_or_plain(head: &[u8]) -> Vec<u8> {
    let zeros = |odd: usize| head.len() >= 8 && head.iter().skip(odd).step_by(2).take(32).all(|&b| b == 0);
    let (body, big) = match head {
        [0xFF, 0xFE, rest @ ..] => (rest, false),
        [0xFE, 0xFF, rest @ ..] => (rest, true),
        _ if zeros(1) => (head, false),
        _ if zeros(0) => (head, true),
        _ => return head.to_vec(),
    };
    let units = body
        .chunks_exact(2)
        .map(|c| if big { u16::from_be_bytes([c[0], c[1]]) } else { u16::from_le_bytes([c[0], c[1]]) });
    char::decode_utf16(units).map(|c| c.unwrap_or('\u{FFFD}')).collect::<String>().into_bytes()
}

/// True when a file name ends in one of [`CAPTURE_EXTENSIONS`], gzip-compressed or
/// not (`run.csv.gz`: read as its text).
#[must_use]
pub fn is_capture_name(path: &Path) -> bool {
    let ext = |p: &Path| p.extension().and_then(|e| e.to_str()).map(str::to_owned);
    let inner = match ext(path) {
        Some(e) if e.eq_ignore_ascii_case("gz") => path.file_stem().map(Path::new).and_then(ext),
        other => other,
    };
    inner.is_some_and(|e| CAPTURE_EXTENSIONS.iter().any(|c| c.eq_ignore_ascii_case(&e)))
}

/// Runs `work` on every item on worker threads, one per core (items are taken in order,
/// so the first ones finish first), and calls `sink` on the results in item order, on the
/// calling thread, as soon as each result and all before it are ready. `sink` also learns
/// how many items have finished (for a progress line).
///
/// The workers are plain threads, not rayon's: loading a file blocks on its own pipeline,
/// which runs on rayon, and a rayon worker blocked there could leave no thread to run it.
pub fn for_each_ordered<I, T, W, S>(items: &[I], work: W, sink: S)
where
    I: Sync,
    T: Send,
    W: Fn(&I) -> T + Sync,
    S: FnMut(usize, T, usize),
{
    for_each_ordered_on(default_workers(), items, work, sink);
}

/// One worker per core.
#[must_use]
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// [`for_each_ordered`] on `workers` threads (at least one).
pub fn for_each_ordered_on<I, T, W, S>(workers: usize, items: &[I], work: W, mut sink: S)
where
    I: Sync,
    T: Send,
    W: Fn(&I) -> T + Sync,
    S: FnMut(usize, T, usize),
{
    let workers = workers.max(1).min(items.len());
    let next_item = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, T)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (work, next_item, tx) = (&work, &next_item, tx.clone());
            let run = move || {
                loop {
                    let i = next_item.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    // The receiver only goes away if the sink panicked.
                    if tx.send((i, work(item))).is_err() {
                        break;
                    }
                }
            };
            scope.spawn(move || in_own_pool(workers > 1, run));
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let (mut next, mut finished) = (0, 0);
        for (i, result) in rx {
            finished += 1;
            pending.insert(i, result);
            while let Some(result) = pending.remove(&next) {
                sink(next, result, finished);
                next += 1;
            }
        }
    });
}

/// Runs `run` — with `own_pool`, on a one-thread rayon pool of its own, so that the
/// parallel steps of each file (sorts, joins, parallel iterators of the analysis) run
/// inline on the worker instead of each being handed to the global pool and waited for
/// (a batch of 400 small captures made about ten such hand-overs a file, each two
/// thread switches; the workers already keep every core busy). Results do not depend
/// on the number of threads (no parallel step reduces floating-point values in an
/// order that depends on it). A large file's splitting stage runs on its own thread,
/// outside this pool, and still parses in parallel on the global pool.
fn in_own_pool(own_pool: bool, run: impl FnOnce() + Send) {
    let mut run = Some(run);
    if own_pool {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).thread_name(|_| "framescope file".into());
        // Taken by the pool when it is built; else it runs below, on this thread.
        let _ = pool.build_scoped(rayon::ThreadBuilder::run, |pool| {
            if let Some(run) = run.take() {
                pool.install(run);
            }
        });
    }
    if let Some(run) = run {
        run();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_item_order() {
        let items: Vec<u64> = (0..64).collect();
        let mut seen = Vec::new();
        // Later items finish first: they sleep less.
        for_each_ordered(
            &items,
            |&i| {
                std::thread::sleep(std::time::Duration::from_micros((64 - i) * 50));
                i * 2
            },
            |i, v, finished| {
                assert!(finished > i);
                seen.push((i, v));
            },
        );
        assert_eq!(seen, items.iter().map(|&i| (i as usize, i * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn folders_are_walked_for_capture_extensions() {
        let dir = std::env::temp_dir().join(format!("framescope-walk-{}", std::process::id()));
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).unwrap_or_default();
        for name in ["b.csv", "a.JSON", "notes.md", ".hidden.csv", "sub/c.hml", "sub/d.csv.gz", "sub/e.gz"] {
            std::fs::write(dir.join(name), "x").unwrap_or_default();
        }
        // Android dumps are `.txt` files among notes: walked by their first lines, in
        // UTF-8 or UTF-16; Perfetto traces by their extensions.
        std::fs::write(dir.join("readme.txt"), "16666666 is a number\n").unwrap_or_default();
        std::fs::write(sub.join("sf.txt"), "16666666\n0\t0\t0\n").unwrap_or_default();
        let gfx: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("** Graphics info for pid 1 [com.x] **\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        std::fs::write(sub.join("gfx.TXT"), gfx).unwrap_or_default();
        std::fs::write(sub.join("t.perfetto-trace"), "x").unwrap_or_default();
        let inputs = expand(&[dir.clone(), "-".into()]).unwrap_or_default();
        let names: Vec<String> = inputs.iter().map(Input::name).collect();
        let want = [
            dir.join("a.JSON"),
            dir.join("b.csv"),
            sub.join("c.hml"),
            sub.join("d.csv.gz"),
            sub.join("gfx.TXT"),
            sub.join("sf.txt"),
            sub.join("t.perfetto-trace"),
        ];
        let mut want: Vec<String> = want.iter().map(|p| p.display().to_string()).collect();
        want.push("-".into());
        assert_eq!(names, want);
        assert!(expand(&["-".into(), "-".into()]).is_err());
        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).unwrap_or_default();
        assert_eq!(expand(std::slice::from_ref(&empty)).unwrap_or_default(), [Input::EmptyFolder(empty)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A folder `read_dir` refuses is an input that fails and says why (tests run as
    /// root, whom permissions do not stop, so the error is made here;
    /// `tests/headless/hostile_inputs.rs` runs the binary as another user when it can).
    #[test]
    fn an_unreadable_folder_is_a_failed_input() {
        let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let input = unreadable(Path::new("runs/locked"), &e);
        assert_eq!(input.name(), "runs/locked");
        let err = input.load(LoadOptions::default()).map(|_| ()).unwrap_err().to_string();
        assert_eq!(
            err,
            "runs/locked: cannot read this folder (permission denied); its captures were not read"
        );
    }
}
