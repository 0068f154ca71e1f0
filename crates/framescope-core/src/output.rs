//! Writing a file without ever losing one: an output is checked against every input
//! (the same file found by device and inode, so a hard link or a symbolic link to a
//! capture is caught as well as its own path) before anything is opened for writing,
//! and it is written to a temporary file in the same folder that is renamed into place
//! once complete, so an interrupted or failed write never leaves half a file where a
//! good one was.
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! use framescope_core::output::{Inputs, write_file};
//! use std::io::Write;
//! let dir = std::env::temp_dir().join(format!("fs-output-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let capture = dir.join("run.csv");
//! std::fs::write(&capture, "Application,MsBetweenPresents\n")?;
//! let inputs = Inputs::new([capture.clone()]);
//! // The capture itself is refused, before anything is opened.
//! assert!(inputs.check("--html", &capture).is_err());
//! let page = dir.join("run.html");
//! inputs.check("--html", &page).map_err(std::io::Error::other)?;
//! write_file(&page, |out| out.write_all(b"<!doctype html>"))?;
//! assert_eq!(std::fs::read(&capture)?, b"Application,MsBetweenPresents\n");
//! # std::fs::remove_dir_all(&dir)
//! # }
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an output was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    /// The output is one of the inputs (the same path, a hard link or a symbolic link
    /// to it).
    #[error(
        "{flag} {output} is the input file {input}{how}: framescope never writes over its inputs; give another file name"
    )]
    IsAnInput {
        /// The option that named the output (`--html`, `-o`, …).
        flag: String,
        /// The output as given.
        output: PathBuf,
        /// The input it is, as given.
        input: PathBuf,
        /// `""`, or how the two names reach one file (" (the same file by another name)").
        how: &'static str,
    },
    /// Two outputs of one command name the same file.
    #[error("{first} and {second} name the same file {output}: give each output its own file")]
    TwoOutputs {
        /// The first option.
        first: String,
        /// The second option.
        second: String,
        /// The file.
        output: PathBuf,
    },
}

/// The files a command reads, for checking its outputs against.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    files: Vec<PathBuf>,
}

impl Inputs {
    /// The inputs `files` (captures, each file of a folder given, marker logs…).
    pub fn new(files: impl IntoIterator<Item = PathBuf>) -> Self {
        Self { files: files.into_iter().collect() }
    }

    /// Adds an input.
    pub fn push(&mut self, file: PathBuf) {
        self.files.push(file);
    }

    /// Refuses `output` (named by option `flag`) when it is one of the inputs: the same
    /// file by device and inode (a hard link, a symbolic link, another spelling of the
    /// path), or the same path when neither can be opened. An output that does not exist
    /// yet is never an input.
    pub fn check(&self, flag: &str, output: &Path) -> Result<(), OutputError> {
        for input in &self.files {
            if let Some(how) = same_file(input, output) {
                return Err(OutputError::IsAnInput {
                    flag: flag.to_owned(),
                    output: output.to_owned(),
                    input: input.clone(),
                    how,
                });
            }
        }
        Ok(())
    }

    /// [`Inputs::check`] for every output given (`(flag, path)`), and no two outputs the
    /// same file.
    pub fn check_all(&self, outputs: &[(&str, &Path)]) -> Result<(), OutputError> {
        for (i, (flag, out)) in outputs.iter().enumerate() {
            self.check(flag, out)?;
            for (other, path) in &outputs[..i] {
                if same_file(path, out).is_some() {
                    return Err(OutputError::TwoOutputs {
                        first: (*other).to_owned(),
                        second: (*flag).to_owned(),
                        output: out.to_path_buf(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// `Some` when `a` and `b` are one file: `""` for the same path, a note otherwise.
fn same_file(a: &Path, b: &Path) -> Option<&'static str> {
    if a == b {
        return Some("");
    }
    match same_file::is_same_file(a, b) {
        Ok(true) => Some(" (the same file by another name: a link or another path)"),
        Ok(false) => None,
        // One of them cannot be opened (an output not written yet): the same only when
        // both spell one path once resolved.
        Err(_) => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(x), Ok(y)) if x == y => Some(""),
            _ => None,
        },
    }
}

/// Writes a file at `path` through `write`, all or nothing: into a new temporary file
/// beside it, renamed over `path` once `write` returned and the data is flushed. On an
/// error the temporary file is removed and `path` is as it was. A `path` that is a
/// symbolic link is written where it points (the link stays); one that is not a
/// regular file (`/dev/stdout`, a named pipe) is written directly.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let target = resolved(path);
    if std::fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
        let mut out = BufWriter::new(File::create(&target)?);
        write(&mut out)?;
        return out.flush();
    }
    let tmp = Temporary::create(&target)?;
    let mut out = BufWriter::new(tmp.file()?);
    write(&mut out)?;
    out.flush()?;
    let file = out.into_inner().map_err(std::io::IntoInnerError::into_error)?;
    file.sync_all()?;
    drop(file);
    if let Ok(old) = std::fs::metadata(&target) {
        // The replaced file's permissions, as an in-place write would have kept them.
        let _ = std::fs::set_permissions(&tmp.path, old.permissions());
    }
    tmp.rename_to(&target)
}

/// [`write_file`] of bytes.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_file(path, |out| out.write_all(bytes))
}

/// Where `path` leads: the file a symbolic link points at (followed to the end), else
/// `path` itself.
fn resolved(path: &Path) -> PathBuf {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link {
        // A dangling link: write where it points, as an in-place write would.
        std::fs::canonicalize(path).or_else(|_| link_target(path)).unwrap_or_else(|_| path.to_owned())
    } else {
        path.to_owned()
    }
}

fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    let target = std::fs::read_link(path)?;
    Ok(match path.parent() {
        Some(dir) if target.is_relative() => dir.join(target),
        _ => target,
    })
}

/// A temporary file beside its target, removed on drop unless renamed.
struct Temporary {
    path: PathBuf,
    file: Option<File>,
    renamed: bool,
}

impl Temporary {
    fn create(target: &Path) -> std::io::Result<Self> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
            _ => PathBuf::from("."),
        };
        let name = target.file_name().map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        let pid = std::process::id();
        let mut last = None;
        for k in 0..100u32 {
            let path = dir.join(format!(".{name}.{pid}-{k}.framescope-tmp"));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => return Ok(Self { path, file: Some(file), renamed: false }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no temporary file name left")))
    }

    fn file(&self) -> std::io::Result<File> {
        match &self.file {
            Some(f) => f.try_clone(),
            None => Err(std::io::Error::other("the temporary file is closed")),
        }
    }

    fn rename_to(mut self, target: &Path) -> std::io::Result<()> {
        self.file = None;
        std::fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        self.file = None;
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fs-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn an_input_by_any_name_is_refused() {
        let d = dir("names");
        let capture = d.join("a.csv");
        std::fs::write(&capture, "x").unwrap();
        let inputs = Inputs::new([capture.clone()]);
        let hard = d.join("hard.csv");
        std::fs::hard_link(&capture, &hard).unwrap();
        let dotted = d.join(".").join("a.csv");
        for out in [&capture, &hard, &dotted] {
            let e = inputs.check("-o", out).unwrap_err();
            assert!(e.to_string().contains("never writes over its inputs"), "{e}");
        }
        #[cfg(unix)]
        {
            let link = d.join("link.html");
            std::os::unix::fs::symlink(&capture, &link).unwrap();
            assert!(inputs.check("--html", &link).is_err());
        }
        assert!(inputs.check("-o", &d.join("new.parquet")).is_ok());
        let two = inputs.check_all(&[("-o", &d.join("x")), ("--html", &d.join("x"))]).unwrap_err();
        assert!(matches!(two, OutputError::TwoOutputs { .. }), "{two}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let d = dir("atomic");
        let out = d.join("page.html");
        std::fs::write(&out, "good").unwrap();
        let failed = write_file(&out, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "good");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "the temporary file is gone");
        write_bytes(&out, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_written_through_and_a_hard_link_keeps_its_twin() {
        let d = dir("links");
        let real = d.join("real.csv");
        std::fs::write(&real, "old").unwrap();
        let link = d.join("link.csv");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_bytes(&link, b"through").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "through");
        // Replaced by rename: another name of the old file keeps the old bytes.
        let twin = d.join("twin.csv");
        std::fs::hard_link(&real, &twin).unwrap();
        write_bytes(&real, b"newest").unwrap();
        assert_eq!(std::fs::read_to_string(&twin).unwrap(), "through");
        // Not a regular file: written directly.
        write_bytes(Path::new("/dev/null"), b"x").unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }
}
