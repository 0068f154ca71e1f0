//! The column cache's tests: panning keeps what is in view, a zoom under a deadline is
//! refined on later frames, a costly zoom estimates its columns, another run starts over.

use super::*;
use crate::lod::testdata::noisy;
use crate::lod::{Budget, column_ranges};

#[test]
fn a_panned_cache_keeps_what_is_still_in_view() {
    let values = noisy(100_000);
    let start: Vec<f64> = values
        .iter()
        .scan(0.0, |t, v| {
            let s = *t;
            *t += if v.is_finite() { *v } else { 8.5 };
            Some(s)
        })
        .collect();
    let spans: Vec<f64> = values.iter().map(|v| if v.is_finite() { *v } else { 8.5 }).collect();
    let index = SeriesIndex::new(&values);
    let shares = BudgetShares::new(&values, Budget::of_fps(60.0));
    let marks: Vec<u32> = (0..100_000).step_by(37).collect();
    let dt = 700.0_f64;
    let key = CacheKey { run: 1, trace: 0, generation: 1, ms_per_column: dt, width: 300.0 };
    let make = |first: i64, n: usize| column_ranges(&start, &spans, first as f64 * dt, dt, n);
    let mut panned = ColumnCache::default();
    // Pan right, left past the start, and jump far away.
    for origin in [10, 14, 3, -5, 600, 598] {
        panned.prepare(key, origin, 300, make);
        let stats = panned.stats(("presents", 0), &index, &values, Some(&shares)).to_vec();
        let counted = panned.counts(("stutters", 0), &marks).to_vec();
        let mut fresh = ColumnCache::default();
        fresh.prepare(key, origin, 300, make);
        assert_eq!(panned.columns, fresh.columns, "columns at {origin}");
        // NaN typical values (columns before the first frame) compare by their bits.
        let bits = |v: &[ColumnStat]| -> Vec<String> {
            v.iter()
                .map(|s| format!("{} {:?} {} {:?}", s.typical.to_bits(), s.max, s.frames, s.over))
                .collect()
        };
        let want = bits(fresh.stats(("presents", 0), &index, &values, Some(&shares)));
        assert!(bits(&stats) == want, "stats at {origin}");
        assert_eq!(counted, fresh.counts(("stutters", 0), &marks), "marks at {origin}");
    }
}

/// A new zoom under a deadline already passed: the frames under every column are
/// the new zoom's at once, a row's values the previous zoom's column's under each
/// new column's centre (a column beyond the old ones computed);
/// frames later, without the deadline, every value is the fresh cache's.
#[test]
fn a_new_zoom_under_a_deadline_is_refined_on_later_frames() {
    // 1000 frames of 1 ms then 3000 of 3 ms (10 s).
    let values: Vec<f64> = (0..4000).map(|i| if i < 1000 { 1.0 } else { 3.0 }).collect();
    let start: Vec<f64> = values.iter().scan(0.0, |t, v| Some(std::mem::replace(t, *t + v))).collect();
    let index = SeriesIndex::new(&values);
    let key = CacheKey { run: 1, trace: 0, generation: 1, ms_per_column: 40.0, width: 100.0 };
    let (start, spans) = (&start, &values);
    let make = |dt: f64| move |first: i64, n: usize| column_ranges(start, spans, first as f64 * dt, dt, n);
    let mut cache = ColumnCache::default();
    cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
    cache.prepare(key, 0, 101, make(40.0));
    let before = cache.stats(("presents", 0), &index, &values, None).to_vec();
    assert_eq!(before[15].frames, 40);
    assert!(cache.settled());
    // Zoom out ×1.5 (60 ms columns), no time left this frame.
    let wide = CacheKey { ms_per_column: 60.0, ..key };
    // A deadline already reached; finding the columns is cheap (as measured in a
    // release build; a debug build's may exceed `ESTIMATE_OVER`).
    cache.column_ns = Some(1.0);
    cache.set_deadline(Some(Instant::now()));
    cache.prepare(wide, 0, 101, make(60.0));
    let mut fresh = ColumnCache::default();
    fresh.prepare(wide, 0, 101, make(60.0));
    assert_eq!(cache.columns, fresh.columns, "the frames under each column are exact at once");
    let now = cache.stats(("presents", 0), &index, &values, None).to_vec();
    assert!(!cache.settled(), "carried-over values are left to refine");
    let want = fresh.stats(("presents", 0), &index, &values, None).to_vec();
    // Column 10 (600–660 ms) carries old column 15 (600–640 ms, 40 frames of 1 ms);
    // column 70 (4200–4260 ms, centre in old column 105, past the old columns'
    // 4040 ms but within 101/16 = 6 of them) carries the last old column, 100
    // (4000–4040 ms: 14 frames of 3 ms); column 72 (4320–4380 ms, centre in old
    // column 108) is too far and computed (20 frames of 3 ms and the one from
    // 4318 ms reaching into it).
    assert_eq!((now[10].frames, now[10].typical), (40, 1.0));
    assert_eq!(want[10].frames, 60);
    assert_eq!((now[70], now[70].frames), (before[100], 14));
    assert_eq!(want[70].frames, 21);
    assert_eq!((now[72], now[72].frames, now[72].highest), (want[72], 21, 3.0));
    // The next frames, without the deadline: every value is exact.
    cache.set_deadline(None);
    assert_eq!(cache.stats(("presents", 0), &index, &values, None), &want[..]);
    assert!(cache.settled());
}

/// A zoom under a deadline on a trace whose columns cost more than [`ESTIMATE_OVER`]
/// to find: the frames under the columns are estimates (between the old columns'
/// edges), values computed from them are stale, and the next frame where the view
/// stays finds the columns; then every value is the fresh cache's.
#[test]
fn a_costly_zoom_estimates_its_columns_until_the_view_stays() {
    // 2000 frames of 1 ms, 2000 of 4 ms, then 2000 of 1 ms (12 s).
    let values: Vec<f64> = (0..6000).map(|i| if (2000..4000).contains(&i) { 4.0 } else { 1.0 }).collect();
    let start: Vec<f64> = values.iter().scan(0.0, |t, v| Some(std::mem::replace(t, *t + v))).collect();
    let index = SeriesIndex::new(&values);
    let marks: Vec<u32> = (0..6000).step_by(7).collect();
    let key = CacheKey { run: 1, trace: 0, generation: 1, ms_per_column: 100.0, width: 120.0 };
    let (start, spans) = (&start, &values);
    let make = |dt: f64| move |first: i64, n: usize| column_ranges(start, spans, first as f64 * dt, dt, n);
    let mut cache = ColumnCache::default();
    cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
    cache.prepare(key, 0, 121, make(100.0));
    let _ = cache.stats(("presents", 0), &index, &values, None);
    assert!(!cache.estimated() && cache.settled());
    // As if a column had cost 1 ms to find.
    cache.column_ns = Some(1e6);
    // Zoom in ×0.8 about 6 s: 80 ms columns from global column 15 (1200 ms).
    let zoomed = CacheKey { ms_per_column: 80.0, ..key };
    cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
    cache.prepare(zoomed, 15, 121, make(80.0));
    assert!(cache.estimated());
    let old_edges: Vec<usize> = (1..=121).map(|k| make(100.0)(0, 121)[k - 1].end).collect();
    let mut fresh = ColumnCache::default();
    fresh.prepare(zoomed, 15, 121, make(80.0));
    for (j, (got, want)) in cache.columns.iter().zip(&fresh.columns).enumerate() {
        // Each estimated end lies between the old edges around the new edge.
        let t = (15 + j + 1) as f64 * 80.0;
        let k = (t / 100.0).floor() as usize;
        let (lo, hi) = (old_edges[k - 1], old_edges[k]);
        assert!((lo..=hi).contains(&got.end), "column {j}: {got:?} not within {lo}..={hi}");
        assert!(got.end.abs_diff(want.end) <= 1, "column {j}: {got:?} against {want:?}");
        assert!(got.start <= got.end);
    }
    let stats = cache.stats(("presents", 0), &index, &values, None).to_vec();
    let counted = cache.counts(("stutters", 0), &marks).to_vec();
    assert!(!cache.settled(), "values from estimated columns are not exact");
    let want = fresh.stats(("presents", 0), &index, &values, None).to_vec();
    // Column 40 (4400–4480 ms) carries old column 44 (4400–4500 ms): 25 frames of 4 ms.
    assert_eq!((stats[40].frames, stats[40].typical), (25, 4.0));
    assert_eq!(want[40].frames, 20);
    let estimates = cache.columns.clone();
    // The view stays: the columns are found, and the values refined.
    cache.set_deadline(Some(Instant::now() + std::time::Duration::from_hours(1)));
    cache.prepare(zoomed, 15, 121, make(80.0));
    assert!(!cache.estimated());
    assert_eq!(cache.columns, fresh.columns);
    assert_eq!(cache.stats(("presents", 0), &index, &values, None), &want[..]);
    assert_eq!(cache.counts(("stutters", 0), &marks), fresh.counts(("stutters", 0), &marks));
    assert_eq!(counted, counts(&estimates, &marks), "the marks were counted under the estimates");
    assert!(cache.settled());
    // Without a deadline nothing is estimated, however costly.
    cache.set_deadline(None);
    cache.prepare(key, 0, 121, make(100.0));
    assert!(!cache.estimated() && cache.settled());
}

/// Two runs of the same length at the same zoom: the second run's columns, marks and
/// statistics are its own as soon as its key differs by run or by generation alone.
#[test]
fn another_run_or_generation_starts_over() {
    // Run 1: 1000 frames of 2 ms; run 2: 1000 frames of 6 ms (marks every 10th).
    let (a, b) = (vec![2.0; 1000], vec![6.0; 1000]);
    let starts = |v: &[f64]| -> Vec<f64> { (0..v.len()).map(|i| v[..i].iter().sum()).collect() };
    let (sa, sb) = (starts(&a), starts(&b));
    let (ia, ib) = (SeriesIndex::new(&a), SeriesIndex::new(&b));
    let dt = 12.0;
    let key = CacheKey { run: 1, trace: 0, generation: 3, ms_per_column: dt, width: 100.0 };
    let mut cache = ColumnCache::default();
    cache.prepare(key, 0, 100, |first, n| column_ranges(&sa, &a, first as f64 * dt, dt, n));
    // 12 ms columns over 2 ms frames: the first holds frames 0 to 5 (starting at 0,
    // 2, …, 10 ms; frame 6 starts at 12 ms, in the next column).
    assert_eq!(cache.columns[0], 0..6);
    assert_eq!(cache.stats(("presents", 0), &ia, &a, None)[0].frames, 6);
    let marks: Vec<u32> = (0..1000).step_by(10).collect();
    assert_eq!(cache.counts(("stutters", 0), &marks)[0], 1);
    for other in [CacheKey { run: 2, ..key }, CacheKey { run: 2, generation: 4, ..key }] {
        cache.prepare(other, 0, 100, |first, n| column_ranges(&sb, &b, first as f64 * dt, dt, n));
        // 12 ms columns over 6 ms frames: frames 0 and 1; of marks at frames 1 and 2,
        // one is under it (the first run's columns would hold both).
        assert_eq!(cache.columns[0], 0..2, "{other:?}");
        let s = cache.stats(("presents", 0), &ib, &b, None)[0];
        assert_eq!((s.frames, s.typical), (2, 6.0), "{other:?}");
        assert_eq!(cache.counts(("stutters", 0), &[1, 2])[0], 1, "{other:?}");
    }
    assert_eq!(cache.key(), Some(CacheKey { run: 2, generation: 4, ..key }));
}
