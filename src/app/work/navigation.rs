//! Where the stutter list and its keys go (egui-free): the stutters with their
//! durations, the slowest frames of the analysed series, the actions that spiked on a
//! frame, the next or previous stutter from a frame.

use framescope_core::analysis::Series;

/// How many of the slowest frames the list shows.
pub const WORST_FRAMES: usize = 10;

/// A frame to go to: its index in the trace and its duration in the analysed series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// The frame, in the whole trace's indices.
    pub frame: u32,
    /// Its frame time in the analysed series (ms).
    pub ms: f64,
}

/// The frames at series positions `positions` (ascending), in trace indices moved by
/// `offset` (the trim's first kept frame), with their frame times.
#[must_use]
pub fn spots(series: &Series, positions: &[usize], offset: u32) -> Vec<Spot> {
    positions
        .iter()
        .filter_map(|&k| {
            Some(Spot { frame: series.frame_of(k)? + offset, ms: *series.frame_time_ms.get(k)? })
        })
        .collect()
}

/// A series position ordered slowest first (ties: the earlier frame first).
#[derive(Clone, Copy)]
struct Slowest {
    ms: f64,
    at: usize,
}

impl PartialEq for Slowest {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Slowest {}

impl PartialOrd for Slowest {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Slowest {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.ms.total_cmp(&self.ms).then(self.at.cmp(&other.at))
    }
}

/// The `n` slowest frames of the series, slowest first (ties: the earlier frame
/// first), in trace indices moved by `offset`. O(len · log n), keeping `n` positions
/// (not a list of every frame).
#[must_use]
pub fn worst(series: &Series, n: usize, offset: u32) -> Vec<Spot> {
    // The heap's top is the last of those kept: the first to leave.
    let mut kept: std::collections::BinaryHeap<Slowest> = std::collections::BinaryHeap::with_capacity(n + 1);
    for (at, &ms) in series.frame_time_ms.iter().enumerate() {
        let s = Slowest { ms, at };
        if kept.len() < n {
            kept.push(s);
        } else if kept.peek().is_some_and(|last| s < *last) {
            kept.pop();
            kept.push(s);
        }
    }
    let positions: Vec<usize> = kept.into_sorted_vec().into_iter().map(|s| s.at).collect();
    spots(series, &positions, offset)
}

/// The actions (health spike lanes) that spiked on `frame`.
#[must_use]
pub fn spiked(spikes: &[(String, Vec<u32>)], frame: u32) -> Vec<&str> {
    spikes
        .iter()
        .filter(|(_, list)| list.binary_search(&frame).is_ok())
        .map(|(name, _)| name.as_str())
        .collect()
}

/// The stutter after `from` (forward) or before it (backward) among ascending
/// `stutters`; from no frame, the first (forward) or last (backward).
#[must_use]
pub fn step(stutters: &[u32], from: Option<u32>, forward: bool) -> Option<u32> {
    match (from, forward) {
        (None, true) => stutters.first().copied(),
        (None, false) => stutters.last().copied(),
        (Some(f), true) => stutters.get(stutters.partition_point(|&s| s <= f)).copied(),
        (Some(f), false) => stutters.partition_point(|&s| s < f).checked_sub(1).map(|k| stutters[k]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(ft: &[f64]) -> Series {
        Series { frame_time_ms: ft.to_vec(), frame: (0..ft.len() as u32).map(|i| i * 2).collect() }
    }

    #[test]
    fn the_slowest_frames_come_first() {
        // Positions 1 (30 ms) and 3 (30 ms) tie: the earlier first; then 4 (20 ms).
        // Their trace frames are 2·k, moved by the offset 100.
        let s = series(&[10.0, 30.0, 5.0, 30.0, 20.0, 1.0]);
        let w = worst(&s, 3, 100);
        let frames: Vec<u32> = w.iter().map(|x| x.frame).collect();
        assert_eq!(frames, [102, 106, 108]);
        assert_eq!(w[2], Spot { frame: 108, ms: 20.0 });
        assert_eq!(worst(&s, 10, 0).len(), 6);
        assert!(worst(&s, 0, 0).is_empty());
    }

    /// The bounded heap picks what sorting every position picked (many ties).
    #[test]
    fn the_slowest_frames_match_a_full_sort() {
        let ft: Vec<f64> = (0..5000u32).map(|i| f64::from((i * 7919) % 61) / 4.0).collect();
        let s = series(&ft);
        for n in [1, 10, 61, 300, 5000, 6000] {
            let mut all: Vec<usize> = (0..ft.len()).collect();
            all.sort_by(|a, b| ft[*b].total_cmp(&ft[*a]).then(a.cmp(b)));
            all.truncate(n);
            assert_eq!(worst(&s, n, 3), spots(&s, &all, 3), "n {n}");
        }
    }

    #[test]
    fn steps_between_stutters() {
        let st = [5, 9, 20];
        assert_eq!(step(&st, None, true), Some(5));
        assert_eq!(step(&st, None, false), Some(20));
        assert_eq!(step(&st, Some(9), true), Some(20));
        assert_eq!(step(&st, Some(9), false), Some(5));
        assert_eq!(step(&st, Some(7), true), Some(9));
        assert_eq!(step(&st, Some(20), true), None);
        assert_eq!(step(&st, Some(5), false), None);
        assert_eq!(step(&[], Some(5), false), None);
    }

    #[test]
    fn actions_that_spiked() {
        let spikes = vec![("MsGPUActive".to_owned(), vec![3, 8]), ("MsCPUBusy".to_owned(), vec![8])];
        assert_eq!(spiked(&spikes, 8), ["MsGPUActive", "MsCPUBusy"]);
        assert_eq!(spiked(&spikes, 3), ["MsGPUActive"]);
        assert!(spiked(&spikes, 4).is_empty());
    }
}
