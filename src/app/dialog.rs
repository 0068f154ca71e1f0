//! Native file dialogs (rfd) that say why nothing happened.
//!
//! rfd answers "no file" both when the user cancels and when no dialog could be shown
//! at all (a desktop without xdg-desktop-portal or zenity). Nobody cancels a dialog
//! within a fraction of a second, so a quick "no file" means the dialog never
//! appeared, and the window says how else to open files instead of doing nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Quicker than any person can dismiss a dialog.
const TOO_QUICK: Duration = Duration::from_millis(250);

/// What to tell the user when no dialog could be shown.
pub const UNAVAILABLE: &str = "no file dialog could be shown (this desktop has neither xdg-desktop-portal nor \
                               zenity): drop files on the window, or name them on the command line";

/// Shows a dialog; `Err` says whether the user cancelled or no dialog appeared.
pub fn show<T>(dialog: impl FnOnce() -> Option<T>) -> Result<T, String> {
    let started = Instant::now();
    dialog().ok_or_else(|| why_nothing(started.elapsed()).to_owned())
}

/// Where a file is saved, and whether it is the fallback folder's (no dialog).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveTarget {
    /// The file.
    pub path: PathBuf,
    /// True when no dialog could be shown and the file goes to the fallback folder.
    pub fallback: bool,
}

/// Asks where to save a file named `default_name`; refuses a file that is one of the
/// open `inputs` (captures are never written to, even when the user points at one).
/// When no dialog can be shown at all, the file goes to `fallback_dir` under a name
/// that is not taken yet, so exports work on a desktop without a file-dialog portal.
pub fn save_to(default_name: &str, inputs: &[&Path], fallback_dir: &Path) -> Result<SaveTarget, String> {
    match show(|| rfd::FileDialog::new().set_file_name(default_name).save_file()) {
        Ok(path) => refuse_inputs(path, inputs).map(|path| SaveTarget { path, fallback: false }),
        Err(why) if why == UNAVAILABLE => {
            Ok(SaveTarget { path: unused_name(fallback_dir, default_name), fallback: true })
        }
        Err(why) => Err(why),
    }
}

/// `dir/name`, or `dir/stem-2.ext`, `-3`, … for the first that does not exist yet.
#[must_use]
pub fn unused_name(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    let p = Path::new(name);
    let stem = p.file_stem().map_or_else(|| name.to_owned(), |s| s.to_string_lossy().into_owned());
    let ext = p.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    (2..10_000).map(|k| dir.join(format!("{stem}-{k}{ext}"))).find(|c| !c.exists()).unwrap_or(first)
}

/// `path`, unless it is the same file as one of `inputs`.
fn refuse_inputs(path: PathBuf, inputs: &[&Path]) -> Result<PathBuf, String> {
    // By device and inode: a hard or symbolic link to an open capture is one too.
    let open = framescope_core::output::Inputs::new(inputs.iter().map(|p| p.to_path_buf()));
    match open.check("export", &path) {
        Ok(()) => Ok(path),
        Err(_) => {
            Err(format!("{} is an open capture; framescope never writes over its inputs", path.display()))
        }
    }
}

/// The message for a dialog that returned no file after `elapsed`.
fn why_nothing(elapsed: Duration) -> &'static str {
    if elapsed < TOO_QUICK { UNAVAILABLE } else { "no file chosen" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dialog_that_returns_at_once_never_appeared() {
        assert_eq!(why_nothing(Duration::from_millis(3)), UNAVAILABLE);
        assert_eq!(why_nothing(Duration::from_secs(2)), "no file chosen");
        assert_eq!(show(|| Some(7)), Ok(7));
        assert_eq!(show(|| None::<u8>), Err(UNAVAILABLE.to_owned()));
    }

    #[test]
    fn the_fallback_folder_never_overwrites() {
        let dir = std::env::temp_dir().join(format!("framescope-fallback-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(unused_name(&dir, "r.json"), dir.join("r.json"));
        std::fs::write(dir.join("r.json"), "x").unwrap();
        assert_eq!(unused_name(&dir, "r.json"), dir.join("r-2.json"));
        std::fs::write(dir.join("r-2.json"), "x").unwrap();
        assert_eq!(unused_name(&dir, "r.json"), dir.join("r-3.json"));
        std::fs::write(dir.join("frames"), "x").unwrap();
        assert_eq!(unused_name(&dir, "frames"), dir.join("frames-2"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_open_capture_is_never_a_save_target() {
        let dir = std::env::temp_dir().join(format!("framescope-dialog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("capture.csv");
        std::fs::write(&input, "x").unwrap();
        // The same file by another spelling is refused; a new file is fine.
        let same = dir.join(".").join("capture.csv");
        let refused = refuse_inputs(same, &[input.as_path()]);
        assert!(refused.is_err_and(|e| e.contains("never writes over its inputs")));
        // A hard link and a symbolic link to it are the same file (device and inode).
        let hard = dir.join("hard.csv");
        let _ = std::fs::remove_file(&hard);
        std::fs::hard_link(&input, &hard).unwrap();
        assert!(refuse_inputs(hard, &[input.as_path()]).is_err());
        #[cfg(unix)]
        {
            let link = dir.join("link.png");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&input, &link).unwrap();
            assert!(refuse_inputs(link, &[input.as_path()]).is_err());
        }
        let fresh = dir.join("report.json");
        assert_eq!(refuse_inputs(fresh.clone(), &[input.as_path()]), Ok(fresh));
        assert_eq!(std::fs::read(&input).unwrap(), b"x");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
