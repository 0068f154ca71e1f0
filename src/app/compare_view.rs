//! How a comparison is shown (egui-free, saved in the settings): the stacked
//! timelines, a bar chart of the runs' key figures, or every run's frame times
//! overlaid on one row.

/// How a comparison is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompareView {
    /// One timeline per run, stacked.
    #[default]
    Timelines,
    /// The bar chart of key figures.
    Bars,
    /// Every run's frame times on one row.
    Overlay,
}
