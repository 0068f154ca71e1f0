//! The telemetry rows a run's timeline shows (egui-free): the user's choice for its
//! capture's format (`row_choice`, saved in the settings), and the edits the
//! right-click menu and View › Rows make to it.

use super::Session;
use crate::app::row_choice::{self, RowAction};
use crate::app::settings::Persisted;

impl Session {
    /// The telemetry rows run `i` shows, top to bottom: indices into its tracks'
    /// telemetry (none before its tracks are built).
    #[must_use]
    pub fn telemetry_rows(&self, i: usize, persisted: &Persisted) -> Vec<usize> {
        let Some(run) = self.runs().get(i) else { return Vec::new() };
        let Some(tracks) = run.tracks() else { return Vec::new() };
        let names: Vec<&str> = tracks.telemetry.iter().map(|t| t.name.as_str()).collect();
        let format = run.capture.info.format.name();
        row_choice::shown_rows(row_choice::choice_of(&persisted.row_choices, format), &names)
    }

    /// Applies `action` to telemetry track `track` of run `i` and remembers the result
    /// for its capture's format. True when the saved choice changed.
    pub(super) fn edit_rows(
        &self,
        i: usize,
        track: usize,
        action: RowAction,
        persisted: &mut Persisted,
    ) -> bool {
        let Some(run) = self.runs().get(i) else { return false };
        let Some(tracks) = run.tracks() else { return false };
        let Some(name) = tracks.telemetry.get(track).map(|t| t.name.as_str()) else { return false };
        let shown: Vec<String> =
            self.telemetry_rows(i, persisted).iter().map(|&k| tracks.telemetry[k].name.clone()).collect();
        let edited = row_choice::edited(shown, name, action);
        let format = run.capture.info.format.name();
        if row_choice::choice_of(&persisted.row_choices, format) == Some(edited.as_slice()) {
            return false;
        }
        row_choice::remember(&mut persisted.row_choices, format, edited);
        true
    }
}
