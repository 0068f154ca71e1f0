//! Which telemetry rows the timeline shows, and in what order (egui-free): chosen in
//! View › Rows or by a right-click on a row, remembered per capture format in the
//! persisted settings. Without a choice a format shows its first
//! [`DEFAULT_ROWS`] telemetry columns, as before the picker. Rows the user resized
//! (by dragging a row's bottom edge) keep their height, remembered per format too.

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
    /// The rows the user resized and their heights (absent in older settings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heights: Vec<RowHeight>,
}

/// A row's height chosen by dragging its bottom edge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RowHeight {
    /// The row ([`RowKey::name`]).
    pub row: String,
    /// Its height, whole points.
    pub px: u32,
}

/// The kinds of row a timeline shows at most once, by their names in the settings.
pub const KINDS: [&str; 10] = [
    "frame",
    "gpu",
    "cpu-gpu",
    "presents",
    "display",
    "stutters",
    "health",
    "latency",
    "animation",
    "pc-latency",
];

/// The least and most height a resized row takes, points.
pub const HEIGHT_RANGE: (f32, f32) = (14.0, 600.0);

/// Which row of a timeline: a kind of row, or a telemetry row (its index among the
/// tracks' telemetry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowKey {
    /// A kind of row that a timeline shows at most once ("frame", "gpu", …).
    Kind(&'static str),
    /// A telemetry row.
    Telemetry(usize),
}

impl RowKey {
    /// Its name in the settings: the kind, or `telemetry:` and the column's name
    /// (from `telemetry`, the tracks' column names).
    #[must_use]
    pub fn name(self, telemetry: &[&str]) -> Option<String> {
        match self {
            Self::Kind(k) => Some(k.to_owned()),
            Self::Telemetry(i) => telemetry.get(i).map(|n| format!("telemetry:{n}")),
        }
    }

    /// The key named `name` among `telemetry`'s columns, if any.
    #[must_use]
    pub fn named(name: &str, kinds: &[&'static str], telemetry: &[&str]) -> Option<Self> {
        match name.strip_prefix("telemetry:") {
            Some(column) => telemetry.iter().position(|n| *n == column).map(Self::Telemetry),
            None => kinds.iter().find(|k| **k == name).map(|k| Self::Kind(k)),
        }
    }
}

/// The heights of `choice`'s resized rows with their keys (rows the trace lacks left out).
#[must_use]
pub fn heights_of(
    choice: Option<&RowChoice>,
    kinds: &[&'static str],
    telemetry: &[&str],
) -> Vec<(RowKey, f32)> {
    choice.map_or_else(Vec::new, |c| {
        c.heights
            .iter()
            .filter_map(|h| Some((RowKey::named(&h.row, kinds, telemetry)?, h.px as f32)))
            .collect()
    })
}

/// `heights` with row `name` resized to `px` (clamped to [`HEIGHT_RANGE`]), or back to
/// the shared height (`None`).
#[must_use]
pub fn resized(mut heights: Vec<RowHeight>, name: &str, px: Option<f32>) -> Vec<RowHeight> {
    heights.retain(|h| h.row != name);
    if let Some(px) = px.filter(|p| p.is_finite()) {
        let px = px.clamp(HEIGHT_RANGE.0, HEIGHT_RANGE.1).round() as u32;
        heights.push(RowHeight { row: name.to_owned(), px });
    }
    heights
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

/// Remembers `shown` for `format` (most recent first, at most [`CHOICES_MAX`]),
/// keeping the rows' heights chosen for it.
pub fn remember(choices: &mut Vec<RowChoice>, format: &str, shown: Vec<String>) {
    let heights = choices.iter().find(|c| c.format == format).map(|c| c.heights.clone()).unwrap_or_default();
    remember_with(choices, RowChoice { format: format.to_owned(), shown, heights });
}

/// Remembers `choice` for its format (most recent first, at most [`CHOICES_MAX`]).
pub fn remember_with(choices: &mut Vec<RowChoice>, choice: RowChoice) {
    choices.retain(|c| c.format != choice.format);
    choices.insert(0, choice);
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

        // Heights: clamped, replaced, reset; kept when the shown rows change.
        let h = resized(Vec::new(), "frame", Some(3.0));
        let h = resized(h, "telemetry:B", Some(80.4));
        assert_eq!(h.iter().map(|h| h.px).collect::<Vec<_>>(), [14, 80]);
        let h = resized(h, "frame", None);
        assert_eq!(h, [RowHeight { row: "telemetry:B".into(), px: 80 }]);
        choices[0].heights = h;
        remember(&mut choices, "frameview", names(&["D"]));
        let kinds = ["frame", "gpu"];
        let keyed = heights_of(choices.first(), &kinds, &cols);
        assert_eq!(keyed, [(RowKey::Telemetry(1), 80.0)]);
        assert_eq!(RowKey::Telemetry(1).name(&cols).as_deref(), Some("telemetry:B"));
        assert_eq!(RowKey::named("gpu", &kinds, &cols), Some(RowKey::Kind("gpu")));
        assert_eq!(RowKey::named("telemetry:Z", &kinds, &cols), None);
    }
}
