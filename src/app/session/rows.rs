//! The telemetry rows a run's timeline shows (egui-free): the user's choice for its
//! capture's format (`row_choice`, saved in the settings), and the edits the
//! right-click menu and View › Rows make to it.

use super::{RunId, Session};
use crate::app::row_choice::{self, RowAction, RowChoice, RowKey};
use crate::app::settings::Persisted;

impl Session {
    /// The telemetry rows run `id` shows, top to bottom: indices into its tracks'
    /// telemetry (none before its tracks are built).
    #[must_use]
    pub fn telemetry_rows(&self, id: RunId, persisted: &Persisted) -> Vec<usize> {
        let Some(run) = self.run(id) else { return Vec::new() };
        let Some(tracks) = run.tracks() else { return Vec::new() };
        let names: Vec<&str> = tracks.telemetry.iter().map(|t| t.name.as_str()).collect();
        let format = run.capture.info.format.name();
        row_choice::shown_rows(row_choice::choice_of(&persisted.row_choices, format), &names)
    }

    /// Applies `action` to telemetry track `track` of run `id` and remembers the result
    /// for its capture's format. True when the saved choice changed.
    pub(super) fn edit_rows(
        &self,
        id: RunId,
        track: usize,
        action: RowAction,
        persisted: &mut Persisted,
    ) -> bool {
        let Some(run) = self.run(id) else { return false };
        let Some(tracks) = run.tracks() else { return false };
        let Some(name) = tracks.telemetry.get(track).map(|t| t.name.as_str()) else { return false };
        let shown: Vec<String> =
            self.telemetry_rows(id, persisted).iter().map(|&k| tracks.telemetry[k].name.clone()).collect();
        let edited = row_choice::edited(shown, name, action);
        let format = run.capture.info.format.name();
        if row_choice::choice_of(&persisted.row_choices, format) == Some(edited.as_slice()) {
            return false;
        }
        row_choice::remember(&mut persisted.row_choices, format, edited);
        true
    }

    /// The rows of run `id` the user resized, with their heights (remembered for its
    /// capture's format).
    #[must_use]
    pub fn row_heights(&self, id: RunId, persisted: &Persisted) -> Vec<(RowKey, f32)> {
        let Some(run) = self.run(id) else { return Vec::new() };
        let Some(tracks) = run.tracks() else { return Vec::new() };
        let names: Vec<&str> = tracks.telemetry.iter().map(|t| t.name.as_str()).collect();
        let format = run.capture.info.format.name();
        let choice = persisted.row_choices.iter().find(|c| c.format == format);
        row_choice::heights_of(choice, &row_choice::KINDS, &names)
    }

    /// Gives row `row` of run `id` the height `height` (or back the shared height) and
    /// remembers it for its capture's format. True when the saved choice changed.
    pub(super) fn resize_row(
        &self,
        id: RunId,
        row: RowKey,
        height: Option<f32>,
        persisted: &mut Persisted,
    ) -> bool {
        let Some(run) = self.run(id) else { return false };
        let Some(tracks) = run.tracks() else { return false };
        let names: Vec<&str> = tracks.telemetry.iter().map(|t| t.name.as_str()).collect();
        let Some(name) = row.name(&names) else { return false };
        let format = run.capture.info.format.name();
        let before = persisted.row_choices.iter().find(|c| c.format == format).cloned();
        // The shown rows stay as they are (the default ones when nothing was chosen).
        let shown = before.as_ref().map_or_else(
            || self.telemetry_rows(id, persisted).iter().map(|&k| names[k].to_owned()).collect(),
            |c| c.shown.clone(),
        );
        let heights = row_choice::resized(
            before.as_ref().map(|c| c.heights.clone()).unwrap_or_default(),
            &name,
            height,
        );
        let choice = RowChoice { format: format.to_owned(), shown, heights };
        if before.as_ref() == Some(&choice) || (before.is_none() && choice.heights.is_empty()) {
            return false;
        }
        row_choice::remember_with(&mut persisted.row_choices, choice);
        true
    }
}
