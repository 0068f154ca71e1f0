//! The frames under each pixel column ([`column_ranges`], [`frames_in`]) and how many
//! marks or marked runs fall under each ([`counts`], [`covered`]).

use std::ops::Range;

/// How many of `marks` (ascending frame indices) fall under each column.
#[must_use]
pub fn counts(columns: &[Range<usize>], marks: &[u32]) -> Vec<u32> {
    // Column starts never go back, so each search gallops on from the last one: the
    // marks between two columns are read once, in order, instead of a binary search
    // over the whole list per column (which misses the CPU cache on long lists).
    let mut from = 0;
    columns
        .iter()
        .map(|r| {
            from = gallop_marks(marks, from, r.start);
            (gallop_marks(marks, from, r.end) - from) as u32
        })
        .collect()
}

/// The number of `marks` below `x`, searching from `from` (which must not be past it).
fn gallop_marks(marks: &[u32], from: usize, x: usize) -> usize {
    let below = |k: usize| (marks[k] as usize) < x;
    let n = marks.len();
    let mut step = 1;
    let mut lo = from;
    while lo + step <= n && below(lo + step - 1) {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(n);
    lo + marks[lo..hi].partition_point(|&i| (i as usize) < x)
}

/// How many frames of each column lie in the ascending, disjoint `[first, last]`
/// `runs`; `prefix[j]` is the number of frames in `runs[..j]`.
#[must_use]
pub fn covered(columns: &[Range<usize>], runs: &[(u32, u32)], prefix: &[u64]) -> Vec<u32> {
    // Frames of the runs before frame `x` (exclusive).
    let upto = |x: usize| -> u64 {
        let j = runs.partition_point(|&(a, _)| (a as usize) < x);
        let mut n = prefix.get(j).copied().unwrap_or(0);
        if j > 0 {
            let (a, b) = runs[j - 1];
            // Run j-1 starts before x; take back what lies at or after x.
            let len = u64::from(b - a) + 1;
            let inside = (x as u64).saturating_sub(u64::from(a)).min(len);
            n = n - len + inside;
        }
        n
    };
    columns.iter().map(|r| (upto(r.end) - upto(r.start)) as u32).collect()
}

/// The number of frames in `runs[..j]`, for every j (`runs.len() + 1` entries).
#[must_use]
pub fn run_prefix(runs: &[(u32, u32)]) -> Vec<u64> {
    let mut acc = 0;
    let mut out = Vec::with_capacity(runs.len() + 1);
    out.push(0);
    for &(a, b) in runs {
        acc += u64::from(b.saturating_sub(a)) + 1;
        out.push(acc);
    }
    out
}

/// For each of `count` consecutive columns of width `dt` from `t0`, the frames under
/// it. Frame `i` covers `start_ms[i] ..= start_ms[i] + span_ms[i]`
/// ([`Frames::spans_ms`]: a sample of a sampled log is as wide as its interval).
///
/// A column ends where the frames starting at or after its end begin (found by halving);
/// it starts where the previous one ended, or with the previous one's last frame if that
/// reaches into it.
///
/// [`Frames::spans_ms`]: crate::model::Frames::spans_ms
#[must_use]
pub fn column_ranges(start_ms: &[f64], span_ms: &[f64], t0: f64, dt: f64, count: usize) -> Vec<Range<usize>> {
    let n = start_ms.len();
    let mut first = frames_in(start_ms, span_ms, t0, t0).start;
    let ends = column_ends(start_ms, first, t0, dt, count);
    // Each column's last frame's span lies in its own part of memory too: read them
    // all first, independently (the processor fetches them at once), then use them.
    if n > 0 {
        let touched = ends.iter().fold(0_u64, |acc, &e| acc ^ span_ms[e.clamp(1, n) - 1].to_bits());
        std::hint::black_box(touched);
    }
    let mut out = Vec::with_capacity(count);
    for (c, &end) in ends.iter().enumerate() {
        let t1 = t0 + dt * (c + 1) as f64;
        let last = end.max(first);
        out.push(first..last);
        // The next column starts with the last frame that began here if it reaches on.
        first = if last > 0 && last <= n && start_ms[last - 1] + span_ms[last - 1] > t1 {
            last - 1
        } else {
            last
        };
    }
    out
}

/// For each of `count` columns of width `dt` from `t0`, the first frame at or after
/// `from` that starts at or after the column's end.
///
/// On a long trace each column's end lies in its own part of memory (a miss of the CPU
/// cache), and a search per column from the previous one's end waits for every miss in
/// turn. So the ends are found by halving instead: the last column's end first, then
/// the middle one of every pair of known ends, guessed between them by their times.
/// The searches of one round do not depend on each other: a first pass reads every
/// guessed place (the processor fetches them all at once), a second searches from it.
fn column_ends(start_ms: &[f64], from: usize, t0: f64, dt: f64, count: usize) -> Vec<usize> {
    let n = start_ms.len();
    if count == 0 {
        return Vec::new();
    }
    let time = |k: usize| t0 + dt * k as f64;
    // ends[k]: the first frame at or after `from` starting at or after `time(k)`; k = 0
    // only bounds the others.
    let mut ends = vec![from; count + 1];
    let from = from.min(n);
    ends[count] = from + start_ms[from..].partition_point(|&s| s < time(count));
    let mut gaps = vec![(0, count)];
    let mut guesses = Vec::new();
    while !gaps.is_empty() {
        gaps.retain(|&(a, b)| b - a >= 2);
        guesses.clear();
        guesses.extend(gaps.iter().map(|&(a, b)| {
            let m = usize::midpoint(a, b);
            let (ea, eb) = (ends[a] as f64, ends[b] as f64);
            (ea + (eb - ea) * (m - a) as f64 / (b - a) as f64) as usize
        }));
        if n > 0 {
            // The guess's cache line and its neighbours on both sides: the search from a
            // guess a few frames off reads them, and would wait for each in turn.
            let at = |g: usize| start_ms[g.min(n - 1)].to_bits();
            let touched =
                guesses.iter().fold(0_u64, |acc, &g| acc ^ at(g) ^ at(g.saturating_sub(NEAR)) ^ at(g + NEAR));
            std::hint::black_box(touched);
        }
        let mut next = Vec::with_capacity(gaps.len() * 2);
        for (&(a, b), &guess) in gaps.iter().zip(&guesses) {
            let m = usize::midpoint(a, b);
            ends[m] = search_near(start_ms, ends[a].min(n), guess, time(m));
            next.extend([(a, m), (m, b)]);
        }
        gaps = next;
    }
    ends.remove(0);
    ends
}

/// How far from a guess the column-end search reads ahead of time: a cache line of
/// starts each side.
const NEAR: usize = 8;

/// The first index at or after `from` whose start is not below `t`, searched for
/// outwards from `guess` (galloping both ways).
fn search_near(start_ms: &[f64], from: usize, guess: usize, t: f64) -> usize {
    let guess = guess.clamp(from, start_ms.len());
    if guess < start_ms.len() && start_ms[guess] < t {
        return gallop(start_ms, guess, t);
    }
    // The answer is at or before `hi`.
    let (mut hi, mut step) = (guess, 1);
    loop {
        let lo = hi.saturating_sub(step).max(from);
        if lo == from || start_ms[lo] < t {
            return lo + start_ms[lo..hi].partition_point(|&s| s < t);
        }
        hi = lo;
        step *= 2;
    }
}

/// The first index at or after `from` whose start is not below `t`.
fn gallop(start_ms: &[f64], from: usize, t: f64) -> usize {
    let n = start_ms.len();
    let mut step = 1;
    let mut hi = from;
    while hi < n && start_ms[hi] < t {
        hi = from + step;
        step *= 2;
    }
    let lo = from + step / 4;
    let hi = hi.min(n);
    let lo = lo.min(hi);
    lo + start_ms[lo..hi].partition_point(|&s| s < t)
}

/// The frames under `count` columns of width `dt` from global column `origin`,
/// estimated from the `old` columns of width `old_dt` from global column `old_origin`
/// (the previous zoom's) without reading a frame: each old column's end is the first
/// frame starting at or after its right edge, so a new column's end is interpolated by
/// time between the two old edges around it, and lies between them. Columns not inside
/// the old ones (zooming out) are `exact(first, n)`: the frames under `n` columns from
/// global column `first`.
///
/// A frame reaching into the next column is not counted there, unlike
/// [`column_ranges`]. None when there are no old columns.
#[must_use]
pub fn estimate_columns(
    (old, old_origin, old_dt): (&[Range<usize>], i64, f64),
    (origin, dt, count): (i64, f64, usize),
    exact: impl Fn(i64, usize) -> Vec<Range<usize>>,
) -> Option<Vec<Range<usize>>> {
    let old_count = old.len();
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if old_count == 0 || !positive(old_dt) || !positive(dt) {
        return None;
    }
    // Global edge `j` of the new grid in old columns from the first old one.
    let at = |j: i64| (j as f64 * dt) / old_dt - old_origin as f64;
    // The first frame at or after old edge `k` (0 ..= old_count).
    let edge = |k: usize| if k == 0 { old[0].start } else { old[k - 1].end };
    let frame_at = |u: f64| -> usize {
        let k = (u.floor() as usize).min(old_count - 1);
        let (a, b) = (edge(k) as f64, edge(k + 1) as f64);
        (a + (b - a) * (u - k as f64).clamp(0.0, 1.0)).round() as usize
    };
    let inside = |j: usize| {
        let (a, b) = (at(origin + j as i64), at(origin + j as i64 + 1));
        a >= 0.0 && b <= old_count as f64
    };
    let first = (0..count).find(|&j| inside(j)).unwrap_or(count);
    let last = (first..count).find(|&j| !inside(j)).unwrap_or(count);
    let mut out = if first > 0 { exact(origin, first) } else { Vec::with_capacity(count) };
    out.reserve(count - first);
    let mut start = out.last().map_or_else(|| frame_at(at(origin + first as i64)), |r| r.end);
    for j in first..last {
        let end = frame_at(at(origin + j as i64 + 1)).max(start);
        out.push(start..end);
        start = end;
    }
    if last < count {
        out.extend(exact(origin + last as i64, count - last));
    }
    Some(out)
}

/// The frames whose interval `[start, start + span]` overlaps `[t0, t1)`, given
/// frames sorted by start.
#[must_use]
pub fn frames_in(start_ms: &[f64], span_ms: &[f64], t0: f64, t1: f64) -> Range<usize> {
    let mut first = start_ms.partition_point(|&s| s < t0);
    if first > 0 && start_ms[first - 1] + span_ms[first - 1] > t0 {
        first -= 1;
    }
    let last = start_ms.partition_point(|&s| s < t1);
    first..last.max(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_runs_are_counted_per_column() {
        let columns = [0..10, 9..20, 20..20, 20..35];
        assert_eq!(counts(&columns, &[0, 9, 15, 34, 40]), [2, 2, 0, 1]);
        // Against one binary search per column, on many columns and marks.
        let marks: Vec<u32> = (0..50_000u32).filter(|i| i % 7 == 0 || i % 61 == 3).collect();
        let many: Vec<Range<usize>> =
            (0..3000_usize).map(|c| (c * 17).saturating_sub(1)..c * 17 + 17).collect();
        let before = |x: usize| marks.partition_point(|&i| (i as usize) < x);
        let want: Vec<u32> = many.iter().map(|r| (before(r.end) - before(r.start)) as u32).collect();
        assert_eq!(counts(&many, &marks), want);
        assert_eq!(counts(&many, &[]), vec![0; 3000]);
        let runs = [(3, 5), (9, 12), (30, 40)];
        let prefix = run_prefix(&runs);
        assert_eq!(prefix, [0, 3, 7, 18]);
        // 0..10: 3,4,5,9; 9..20: 9..=12; 20..35: 30..=34.
        assert_eq!(covered(&columns, &runs, &prefix), [4, 4, 0, 5]);
        let whole = std::slice::from_ref(&(0..100_usize));
        assert_eq!(covered(whole, &[], &run_prefix(&[])), [0]);
    }

    #[test]
    fn column_ranges_match_one_search_per_column() {
        let start: Vec<f64> = (0..10_000).map(|i| f64::from(i) * 1.5).collect();
        let ft = vec![1.5; 10_000];
        for (t0, dt, count) in
            [(0.0, 0.7, 300), (-10.0, 40.0, 500), (100.0, 0.01, 200), (14_000.0, 10.0, 200)]
        {
            let got = column_ranges(&start, &ft, t0, dt, count);
            for (c, r) in got.iter().enumerate() {
                let a = t0 + dt * c as f64;
                let want = frames_in(&start, &ft, a, a + dt);
                assert_eq!(*r, want, "column {c} of {t0}/{dt}");
            }
        }
    }

    /// Frame times that change by orders of magnitude: the search from the previous
    /// column's count lands far off and must still find each column's frames.
    #[test]
    fn column_ranges_follow_a_changing_frame_rate() {
        let mut start = Vec::new();
        let mut t = 0.0;
        for i in 0..20_000_u32 {
            start.push(t);
            t += match i / 2000 {
                0 | 5 => 0.01,
                1 | 7 => 50.0,
                3 => 1.0,
                _ => 0.3,
            };
        }
        let ft: Vec<f64> = start.windows(2).map(|w| w[1] - w[0]).chain([0.3]).collect();
        for (t0, dt, count) in [(0.0, 0.5, 4000), (-3.0, 7.0, 3000), (19.5, 0.05, 2000), (0.0, 900.0, 400)] {
            let got = column_ranges(&start, &ft, t0, dt, count);
            for (c, r) in got.iter().enumerate() {
                let a = t0 + dt * c as f64;
                assert_eq!(*r, frames_in(&start, &ft, a, a + dt), "column {c} of {t0}/{dt}");
            }
        }
    }

    /// Estimates from the previous zoom's columns: every end between the old edges
    /// around it and within a frame of the found one on an even stretch; columns beyond
    /// the old ones found.
    #[test]
    fn estimated_columns_lie_between_the_old_edges() {
        let mut start = Vec::new();
        let mut t = 0.0;
        for i in 0..20_000_u32 {
            start.push(t);
            t += match i / 2000 {
                1 => 5.0,
                3 => 1.0,
                _ => 0.3,
            };
        }
        let ft: Vec<f64> = start.windows(2).map(|w| w[1] - w[0]).chain([0.3]).collect();
        let (start, ft) = (&start, &ft);
        let exact = |dt: f64| move |first: i64, n: usize| column_ranges(start, ft, first as f64 * dt, dt, n);
        let (old_dt, old_origin, old_count) = (40.0, 0, 600);
        let old = exact(old_dt)(old_origin, old_count);
        // Zoom in about the middle, then out past both ends.
        for (origin, dt, count) in [(20, 30.0, 600), (5, 25.0, 600), (-20, 45.0, 600)] {
            let got = estimate_columns((&old, old_origin, old_dt), (origin, dt, count), exact(dt)).unwrap();
            let want = exact(dt)(origin, count);
            assert_eq!(got.len(), count);
            for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                let edge = ((origin + j as i64 + 1) as f64 * dt) / old_dt - old_origin as f64;
                assert!(g.start <= g.end && g.end <= start.len(), "{dt}: column {j} {g:?}");
                if edge < 0.0 || edge > old_count as f64 {
                    assert_eq!(g, w, "{dt}: column {j} beyond the old ones is found");
                    continue;
                }
                let k = edge.floor() as usize;
                let lo = if k == 0 { old[0].start } else { old[k - 1].end };
                let hi = old[k.min(old_count - 1)].end;
                assert!((lo..=hi).contains(&g.end), "{dt}: column {j} {g:?} not within {lo}..={hi}");
            }
            // Frames 8000–20000 come every 0.3 ms: a column's estimated end is within a
            // frame of the found one there.
            let even = got.iter().zip(&want).filter(|(_, w)| w.end > 8100 && w.end < 19_900);
            assert!(even.clone().count() > 10);
            for (g, w) in even {
                assert!(g.end.abs_diff(w.end) <= 1, "{dt}: {g:?} against {w:?}");
            }
        }
        assert!(estimate_columns((&[], 0, 1.0), (0, 1.0, 10), exact(1.0)).is_none());
    }

    #[test]
    fn frames_overlapping_a_time_range() {
        let start = [0.0, 10.0, 20.0, 30.0];
        let ft = [10.0, 10.0, 10.0, 10.0];
        assert_eq!(frames_in(&start, &ft, 15.0, 25.0), 1..3);
        assert_eq!(frames_in(&start, &ft, 10.0, 10.5), 1..2);
        assert_eq!(frames_in(&start, &ft, 45.0, 50.0), 4..4);
        assert_eq!(frames_in(&start, &ft, -5.0, 1.0), 0..1);
    }
}
