//! The window's tests, as one test program: the real [`framescope::app::App`] driven
//! through egui_kittest (rows, panels, comparisons, sets, live captures, navigation,
//! resizing, legends, the system box).
//!
//! One program instead of one per file: each test program links the whole project with
//! the GUI crates (about 140 MB on Linux and 180 MB for Windows in a debug build), so one
//! per file filled CI's disk. Run one file's tests with `cargo test --test window FILE::`.

#[path = "../common/mod.rs"]
mod common;

mod basics;
mod window_cache;
mod window_compare;
mod window_crowding;
mod window_engine;
mod window_grouping;
mod window_history;
mod window_hotkey;
mod window_issue38;
mod window_legends;
mod window_limiter;
mod window_live;
mod window_navigation;
mod window_peers;
mod window_record;
mod window_resize;
mod window_rows;
mod window_sampled_charts;
mod window_sets;
mod window_system;
mod window_timeline;
mod window_views;
