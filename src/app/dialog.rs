//! Native file dialogs (rfd) that say why nothing happened.
//!
//! rfd answers "no file" both when the user cancels and when no dialog could be shown
//! at all (a desktop without xdg-desktop-portal or zenity). Nobody cancels a dialog
//! within a fraction of a second, so a quick "no file" means the dialog never
//! appeared, and the window says how else to open files instead of doing nothing.

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
}
