//! What a front end needs to present the figures and that does not depend on drawing:
//! the unit and axis of a telemetry column, the latency stages stacked per frame, and
//! how runs are grouped into sets by their file names. The window uses it; an HTML
//! report or a notebook could too. Pure functions over the model and the analysis,
//! no I/O.
//!
//! * [``axes` — round tick steps, a telemetry column's unit (from its name) and axis;
//! * [``stages` — a trace's latency stages per frame (the capture's columns, an
//!   engine's timestamps, or a PCL marker log), with their level-of-detail indices;
//! * [``grouping` — the set a run opens in, and groups of runs by set;
//! * [`column_shape`] — what a zoomed-out timeline column shows (the window's and the
//!   page's one rule), and the top of a frame-time row's axis ([`body_scale_ms`]).

pub(crate) mod axes;
pub(crate) mod column;
pub(crate) mod grids;
pub(crate) mod grouping;
pub(crate) mod stages;

pub use axes::{column_unit, nice_step, telemetry_axis_in};
pub use column::{Cap, ColumnShape, body_scale_ms, column_shape, stutter_strength};
pub use grids::{fps_grid, percentile_grid};
pub use grouping::{Groups, auto_sets, fresh_set_name, groups, is_sets_comparison, named_application};
pub use stages::{Stack, latency_stack, pcl_stack};
