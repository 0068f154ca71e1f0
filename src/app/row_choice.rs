//! Which telemetry rows the timeline shows, and in what order (egui-free): chosen in
//! View › Rows or by a right-click on a row, remembered per capture format in the
//! persisted settings. Without a choice a format shows its first
//! [`DEFAULT_ROWS`] telemetry columns, as before the picker.

/// The telemetry rows a format shows until the user chooses.
pub const DEFAULT_ROWS: usize = 4;
/// How many formats' choices are remembered.
pub const CHOICES_MAX: usize = 64;

/// The telemetry rows shown for one capture format: column names, top to bottom.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RowChoice {
    /// The format's name (`model::Format::name`).
    pub format: String,
    /// The columns shown, in order.
    pub shown: Vec<String>,
}

/// What the user does to one telemetry row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowAction {
    /// Show it (at the bottom).
    Show,
    /// Hide it.
    Hide,
    /// Move it one row up.
    Up,
    /// Move it one row down.
    Down,
}

/// The choice for `format`, if the user made one.
#[must_use]
pub fn choice_of<'a>(choices: &'a [RowChoice], format: &str) -> Option<&'a [String]> {
    choices.iter().find(|c| c.format == format).map(|c| c.shown.as_slice())
}

/// The rows shown: indices into `names` (the trace's telemetry columns), in order —
/// the chosen names the trace has, else the first [`DEFAULT_ROWS`].
#[must_use]
pub fn shown_rows(choice: Option<&[String]>, names: &[&str]) -> Vec<usize> {
    match choice {
        None => (0..names.len().min(DEFAULT_ROWS)).collect(),
        Some(list) => list.iter().filter_map(|n| names.iter().position(|m| m == n)).collect(),
    }
}

/// The names shown after `action` on column `name`, from the names shown now.
#[must_use]
pub fn edited(mut shown: Vec<String>, name: &str, action: RowAction) -> Vec<String> {
    let at = shown.iter().position(|n| n == name);
    match (action, at) {
        (RowAction::Show, None) => shown.push(name.to_owned()),
        (RowAction::Hide, Some(k)) => {
            shown.remove(k);
        }
        (RowAction::Up, Some(k)) if k > 0 => shown.swap(k, k - 1),
        (RowAction::Down, Some(k)) if k + 1 < shown.len() => shown.swap(k, k + 1),
        _ => {}
    }
    shown
}

/// Remembers `shown` for `format` (most recent first, at most [`CHOICES_MAX`]).
pub fn remember(choices: &mut Vec<RowChoice>, format: &str, shown: Vec<String>) {
    choices.retain(|c| c.format != format);
    choices.insert(0, RowChoice { format: format.to_owned(), shown });
    choices.truncate(CHOICES_MAX);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn defaults_choices_and_edits() {
        let cols = ["A", "B", "C", "D", "E", "F"];
        assert_eq!(shown_rows(None, &cols), [0, 1, 2, 3]);
        assert_eq!(shown_rows(None, &cols[..2]), [0, 1]);
        // A chosen name the trace lacks is skipped; the order is the user's.
        assert_eq!(shown_rows(Some(&names(&["F", "X", "B"])), &cols), [5, 1]);
        assert!(shown_rows(Some(&[]), &cols).is_empty());

        let now = names(&["A", "B", "C"]);
        assert_eq!(edited(now.clone(), "E", RowAction::Show), names(&["A", "B", "C", "E"]));
        assert_eq!(edited(now.clone(), "B", RowAction::Hide), names(&["A", "C"]));
        assert_eq!(edited(now.clone(), "B", RowAction::Up), names(&["B", "A", "C"]));
        assert_eq!(edited(now.clone(), "B", RowAction::Down), names(&["A", "C", "B"]));
        assert_eq!(edited(now.clone(), "A", RowAction::Up), now);
        assert_eq!(edited(now.clone(), "C", RowAction::Down), now);
        assert_eq!(edited(now.clone(), "A", RowAction::Show), now);

        let mut choices = Vec::new();
        remember(&mut choices, "frameview", names(&["A"]));
        remember(&mut choices, "mangohud", names(&["B"]));
        remember(&mut choices, "frameview", names(&["C"]));
        assert_eq!(choices.len(), 2);
        assert_eq!(choice_of(&choices, "frameview"), Some(&names(&["C"])[..]));
        assert_eq!(choices[0].format, "frameview");
        assert_eq!(choice_of(&choices, "ocat"), None);
    }
}
