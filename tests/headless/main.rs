//! The integration tests that need no window, as one test program: the command line
//! (`framescope report`, `compare`, `frames`, batches, `--follow`), the core's loading
//! and figures on real and hand-built captures, the goldens the oracles computed, the
//! HTML page in headless Chromium, and bad, hostile and mangled input.
//!
//! One program instead of one per file: each test program links the whole project (about
//! 90 MB on Linux and 180 MB for Windows in a debug build), so ~40 of them filled CI's disk.
//! Run one file's tests with `cargo test --test headless FILE::`.

#[path = "../common/mod.rs"]
mod common;

mod afterburner_logs;
mod bad_input;
mod batch_csv;
mod cli_pipeline;
mod compare_cli;
mod core_pipeline;
mod engine_formats;
mod etl_fixtures;
mod etl_pcl;
mod figure_registry;
mod format_quirks;
mod history_builds;
mod history_ci;
mod history_gen;
mod history_page;
mod history_postgres;
mod history_store;
mod hostile_inputs;
mod hostile_memory;
mod hostile_sizes;
mod html_hostile;
mod html_page_rows;
mod html_report;
mod issue18_captures;
mod issue18_sessions;
mod issue20_cli;
mod issue20_units;
mod issue34_fixes;
mod issue38;
mod issue38_formats;
mod issue40_cli;
mod limiter_cli;
mod live_cli;
mod mangled_captures;
mod mangohud;
mod not_captures;
mod nvidia_app_logs;
mod odd_csv;
mod other_formats;
mod outputs_not_inputs;
mod pcl_cli;
mod presentmon_versions;
mod real_traces;
mod record_cli;
mod record_presentmon;
mod sampled_logs;
mod sets_cli;
#[cfg(feature = "parquet")]
mod tables_cli;
mod time_columns;
mod tool_quirks;
mod traces_and_report;
mod trim_cli;
