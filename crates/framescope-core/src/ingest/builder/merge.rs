//! Appending a trace's rows read by another builder: blocks of a file are turned into
//! traces in parallel, each by builders started fresh, and merged in file order. A
//! builder that starts on a later block does not know what the rows before it left
//! behind (the last kept row, the shifted display value, the present-mode table): it
//! records where that mattered, and [`TraceBuilder::append`] sets those entries, so
//! the merged builder is the one that read every row itself.

use super::{MAX_PRESENT_MODES, TraceBuilder};
use crate::model::extend_grown;

impl TraceBuilder {
    /// True when [`TraceBuilder::append`] can take `later`: both keep the same
    /// columns, and `later` met no more present modes than a trace keeps (past that
    /// it no longer knows their names).
    #[must_use]
    pub(crate) fn can_append(&self, later: &Self) -> bool {
        self.columns.len() == later.columns.len() && later.meta.present_modes.len() <= MAX_PRESENT_MODES
    }

    /// Adds the rows of `later`, a builder of the same trace started fresh on the rows
    /// after these (see [`TraceBuilder::can_append`]), as if this builder had read
    /// them.
    pub(crate) fn append(&mut self, mut later: Self) {
        let (rows_before, frames_before) = (self.rows_seen, self.len());
        // The first kept row of `later` follows the last one kept here when nothing was
        // skipped between them.
        if let (Some(first), Some(adjacent)) = (later.first_kept, later.adjacent.first_mut()) {
            *adjacent = self.last_kept.is_some_and(|k| k + 1 == rows_before + first);
        }
        if let Some(i) = later.first_shifted
            && let Some(display) = later.frames.display_ms.get_mut(i)
        {
            *display = self.shifted_display;
            self.shifted_display = later.shifted_display;
            self.first_shifted.get_or_insert(frames_before + i);
        }
        self.first_kept = self.first_kept.or(later.first_kept.map(|k| k + rows_before));
        self.last_kept = later.last_kept.map(|k| k + rows_before).or(self.last_kept);
        self.rows_seen += later.rows_seen;
        self.append_modes(&mut later);
        if self.meta.runtime.is_none() {
            self.meta.runtime = later.meta.runtime.take();
        }
        let (f, g) = (&mut self.frames, &later.frames);
        extend_grown(&mut f.frame_time_ms, &g.frame_time_ms);
        extend_grown(&mut f.display_ms, &g.display_ms);
        extend_grown(&mut f.dropped, &g.dropped);
        extend_grown(&mut f.present_mode, &g.present_mode);
        extend_grown(&mut f.frame_type, &g.frame_type);
        extend_grown(&mut f.join_id, &g.join_id);
        f.line.append(&g.line);
        extend_grown(&mut self.raw_time, &later.raw_time);
        extend_grown(&mut self.adjacent, &later.adjacent);
        for (column, rest) in self.columns.iter_mut().zip(later.columns) {
            column.append(rest);
        }
        self.seen.iter_mut().zip(later.seen).for_each(|(mine, theirs)| mine.numbers |= theirs.numbers);
        // The stores changed: no cell is known to repeat them.
        self.repeats.iter_mut().for_each(super::repeats::Repeat::clear);
        for (k, cells) in later.invalid {
            match self.invalid.iter_mut().find(|(c, _)| *c == k) {
                Some((_, mine)) => mine.merge(cells),
                None => self.invalid.push((k, cells)),
            }
        }
        self.overflow.merge(later.overflow);
        self.skipped.merge(later.skipped);
        self.no_present = match (self.no_present, later.no_present) {
            (Some((n, line)), Some((m, _))) => Some((n + m, line)),
            (mine, theirs) => mine.or(theirs),
        };
        self.time_step_raw = self.time_step_raw.max(later.time_step_raw);
    }

    /// Renumbers the present modes of `later` (its own table, in the order it met them)
    /// into this builder's table, adding the new ones in that order.
    fn append_modes(&mut self, later: &mut Self) {
        let modes = std::mem::take(&mut later.meta.present_modes);
        let map: Vec<u16> = modes.iter().map(|m| self.mode_index(m)).collect();
        if map.iter().enumerate().any(|(i, &to)| usize::from(to) != i) {
            for m in &mut later.frames.present_mode {
                *m = map.get(usize::from(*m)).copied().unwrap_or(*m);
            }
        }
    }
}
