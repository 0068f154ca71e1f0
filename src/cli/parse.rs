//! The value parsers of the command line's options are the core's
//! (`framescope_core::pipeline`: numbers, fractions and percentages, thresholds, a peer
//! tool's name, a column mapping and its unit), so the Python package checks its
//! options with the same rules and words. Each error is the message clap prints after
//! the option's name (exit 2).

pub(super) use framescope_core::pipeline::{
    column_spec, convention, extra_column, fraction, non_negative, positive, threshold, time_unit,
};
