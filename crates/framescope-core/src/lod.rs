//! Level of detail: what a pixel column of a timeline row shows, whatever the number
//! of frames under it, in O(levels · 16) per column.
//!
//! A zoomed-out column summarises its frames: the *typical* frame (a median) is the
//! bar, the *slowest* a whisker with a mark (a spike is never averaged away), and the
//! share of the column's time spent in frames over the target budget colours it. Three
//! per-series structures make that cheap at every zoom:
//!
//! * [`MaxIndex`], a 16-ary arg-max pyramid: the slowest frame of any range;
//! * [`MedianIndex`], a 16-ary pyramid of block medians (a *remedian*, Rousseeuw &
//!   Bassett 1990): the median of a range is exact up to [`EXACT_MEDIAN`] frames, and
//!   beyond that the median of the medians of the whole blocks of the coarsest level
//!   that has at least [`MIN_BLOCKS`] of them inside the range — an approximation that
//!   leaves out the partial blocks at the range's edges (at most a third of its frames)
//!   and weighs blocks, not frames, so it is exact for a run of alike frames and a rare
//!   spike never moves it;
//! * [`BudgetShares`], prefix sums per block of [`SHARE_BLOCK`] frames of the time
//!   spent over the budget and over twice the budget: exact shares for any range (the
//!   partial blocks at its edges are read frame by frame). They depend on the target,
//!   so they are rebuilt (O(n), on the analysis worker) when it changes.
//!
//! The frames under each pixel column and the marks among them are found by galloping
//! searches (`columns.rs`), and [`ColumnCache`] (`cache.rs`) keeps every row's
//! per-column values while the view pans, keyed by ids (run, trace, analysis
//! generation), never by addresses. [`Budget`] and [`BudgetClass`] (`budget.rs`) are
//! the colour classes of frame times against the target.

mod budget;
mod cache;
mod columns;
mod max_index;
mod median_index;
#[cfg(test)]
mod testdata;
mod window;

pub use budget::{Budget, BudgetClass, BudgetShares, ON_TARGET_TOLERANCE, SHARE_BLOCK};
pub use cache::{CacheKey, ColumnCache, ColumnStat, ESTIMATE_OVER, SeriesKey};
pub use columns::{column_ranges, counts, covered, estimate_columns, frames_in, run_prefix};
pub use max_index::MaxIndex;
pub use median_index::{EXACT_MEDIAN, MIN_BLOCKS, MedianIndex};

/// Frames per block at each level step.
const FANOUT: usize = 16;

/// The two pyramids of one series: slowest and typical value of any range.
#[derive(Debug, Clone, Default)]
pub struct SeriesIndex {
    /// The slowest frame of a range.
    pub max: MaxIndex,
    /// The typical (median) value of a range.
    pub median: MedianIndex,
}

impl SeriesIndex {
    /// Builds both pyramids (O(n)).
    #[must_use]
    pub fn new(values: &[f64]) -> Self {
        Self { max: MaxIndex::new(values), median: MedianIndex::new(values) }
    }

    /// Builds both pyramids of the `n` values `at(i)` of a column computed on the fly.
    #[must_use]
    pub fn from_fn(n: usize, at: impl Fn(usize) -> f64) -> Self {
        Self { max: MaxIndex::from_fn(n, &at), median: MedianIndex::from_fn(n, &at) }
    }
}
