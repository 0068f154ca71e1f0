//! The timeline's pixel columns and their per-row values ([`ColumnCache`]), kept in
//! egui's memory under the timeline's id (one per timeline shown) and valid for one
//! [`CacheKey`]: the run's id, its trace and the analysis generation drawn, with the
//! time per pixel and the width. Ids, never addresses: a run closed and another opened
//! in its place (even with its trace in the same memory) starts over.

use super::Input;
use eframe::egui;
use framescope_core::lod::{CacheKey, ColumnCache, column_ranges};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use crate::app::session::RunId;

/// How long a frame that moves the view may spend computing the values of a new zoom's
/// columns (the rest show the previous zoom's values until the next frames compute
/// them): what keeps a frame's cost the same at 10 thousand and 10 million frames while
/// zooming (issue 40, item 8).
pub const REFINE_PER_FRAME: std::time::Duration = std::time::Duration::from_micros(60);

/// The same for a frame where the view stays where it was (the zoom has stopped): the
/// picture is exact again within a few frames.
pub const REFINE_WHEN_STILL: std::time::Duration = std::time::Duration::from_millis(3);

/// A timeline's cache, shared with egui's memory.
pub type Shared = Arc<Mutex<ColumnCache>>;

/// The cache of the timeline whose response has `id`.
#[must_use]
pub fn shared(ui: &egui::Ui, id: egui::Id) -> Shared {
    ui.data_mut(|d| d.get_temp_mut_or_default::<Shared>(id.with("columns")).clone())
}

/// What the cache's contents are for: `input`'s run, trace and generation at its
/// zoom on a track `width` wide.
#[must_use]
pub fn key(input: &Input<'_>, width: f32) -> CacheKey {
    CacheKey {
        run: input.run.0,
        trace: input.trace_index,
        generation: input.generation,
        ms_per_column: input.view.ms_per_px(width),
        width,
    }
}

/// Makes `cache` hold the columns of `input`'s view on a track `width` wide and
/// returns where column 0 starts, relative to the track's left edge. Columns sit on
/// a global grid of the view's time per pixel (see [`ColumnCache`]): the first is the
/// one holding the view's start, drawn up to a pixel left of the track's edge.
pub fn prepare(cache: &mut ColumnCache, input: &Input<'_>, width: f32) -> f32 {
    let f = &input.trace.frames;
    let dt = input.view.ms_per_px(width);
    let origin = (input.view.start_ms / dt).floor();
    let x_offset = ((origin * dt - input.view.start_ms) / dt) as f32;
    cache.prepare(key(input, width), origin as i64, width as usize + 1, |first, n| {
        column_ranges(&f.start_ms, f.spans_ms(), first as f64 * dt, dt, n)
    });
    x_offset
}

/// The frames under column `c` of `cache` (on `input`'s view, a track `width` wide):
/// found, when the cache's are estimates (a zoom on a long trace).
#[must_use]
pub fn column(cache: &ColumnCache, input: &Input<'_>, width: f32, c: usize) -> std::ops::Range<usize> {
    if !cache.estimated() {
        return cache.columns.get(c).cloned().unwrap_or(0..0);
    }
    let f = &input.trace.frames;
    let dt = input.view.ms_per_px(width);
    let first = (cache.origin() + c as i64) as f64;
    column_ranges(&f.start_ms, f.spans_ms(), first * dt, dt, 1).pop().unwrap_or(0..0)
}

/// Starts a frame of `cache` at `now`, its columns those of `input`'s view on a track
/// `width` wide ([`prepare`]), with the time it may spend refining a new zoom's values
/// ([`REFINE_PER_FRAME`] while the view moves, else [`REFINE_WHEN_STILL`]); returns
/// where column 0 starts, relative to the track's left edge.
pub fn start_frame(cache: &mut ColumnCache, input: &Input<'_>, width: f32, now: Instant) -> f32 {
    cache.set_deadline(Some(now + REFINE_PER_FRAME));
    let x_offset = prepare(cache, input, width);
    if cache.still() {
        cache.set_deadline(Some(now + REFINE_WHEN_STILL));
    }
    x_offset
}
