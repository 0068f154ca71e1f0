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

/// Asks where to save a file named `default_name`; refuses a file that is one of the
/// open `inputs` (captures are never written to, even when the user points at one).
pub fn save_to(default_name: &str, inputs: &[&Path]) -> Result<PathBuf, String> {
    let path = show(|| rfd::FileDialog::new().set_file_name(default_name).save_file())?;
    refuse_inputs(path, inputs)
}

/// `path`, unless it is the same file as one of `inputs`.
fn refuse_inputs(path: PathBuf, inputs: &[&Path]) -> Result<PathBuf, String> {
    // A file that does not exist yet cannot be an input.
    if let Ok(target) = path.canonicalize()
        && inputs.iter().any(|i| i.canonicalize().is_ok_and(|i| i == target))
    {
        return Err(format!(
            "{} is an open capture; framescope never writes over its inputs",
            path.display()
        ));
    }
    Ok(path)
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
    fn an_open_capture_is_never_a_save_target() {
        let dir = std::env::temp_dir().join(format!("framescope-dialog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("capture.csv");
        std::fs::write(&input, "x").unwrap();
        // The same file by another spelling is refused; a new file is fine.
        let same = dir.join(".").join("capture.csv");
        let refused = refuse_inputs(same, &[input.as_path()]);
        assert!(refused.is_err_and(|e| e.contains("never writes over its inputs")));
        let fresh = dir.join("report.json");
        assert_eq!(refuse_inputs(fresh.clone(), &[input.as_path()]), Ok(fresh));
        assert_eq!(std::fs::read(&input).unwrap(), b"x");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
