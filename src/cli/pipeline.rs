//! What makes the command line safe in a pipeline (`--strict`, `--max-skipped R`): the
//! core's checks (`framescope_core::pipeline::checks`), which the Python package runs too.

pub use framescope_core::pipeline::checks::{Checks, RowCounts};
