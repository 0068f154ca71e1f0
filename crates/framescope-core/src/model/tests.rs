use super::*;

fn trace(app: &str, n: usize) -> Trace {
    Trace {
        meta: TraceMeta {
            application: app.into(),
            process_id: Some(1),
            swap_chain: None,
            runtime: None,
            present_modes: vec![],
        },
        frames: Frames { frame_time_ms: vec![1.0; n], ..Frames::default() },
        warnings: vec![],
    }
}

fn capture(traces: Vec<Trace>) -> Capture {
    Capture {
        info: FileInfo {
            path: "x.csv".into(),
            format: Format::PresentMon1,
            format_version: String::new(),
            system: vec![],
            dropped_known: true,
            target_fps: None,
        },
        traces,
        warnings: vec![],
    }
}

#[test]
fn slices_keep_every_column_aligned() {
    let mut t = trace("a.exe", 10);
    t.frames.start_ms = (0..10).map(f64::from).collect();
    t.frames.display_ms = vec![f64::NAN; 10];
    t.frames.dropped = vec![false; 10];
    t.frames.line = (2..12).collect();
    t.frames.columns =
        vec![Column { name: "X".into(), kind: ColumnKind::Other, values: vec![1.0; 10].into() }];
    let s = t.slice(3..7);
    assert_eq!(s.len(), 4);
    assert_eq!(s.frames.line, vec![5, 6, 7, 8]);
    assert_eq!(s.frames.columns[0].values.len(), 4);
    assert!(s.frames.present_mode.is_empty());
    assert_eq!(t.slice(8..50).len(), 2);
    assert_eq!(t.slice(20..30).len(), 0);
}

/// Two samples: 500 ms at 100 FPS, 1000 ms at 50 FPS. Each is as wide as its
/// interval, not its frame time; a slice keeps the intervals.
#[test]
fn samples_span_their_intervals() {
    let mut t = trace("log", 2);
    t.frames.frame_time_ms = vec![10.0, 20.0];
    t.frames.start_ms = vec![0.0, 500.0];
    t.frames.sample_ms = vec![500.0, 1000.0];
    assert!(t.is_sampled());
    assert_eq!((t.frames.span_ms(0), t.frames.span_ms(1), t.frames.span_ms(2)), (500.0, 1000.0, 0.0));
    assert_eq!(t.frames.spans_ms(), &[500.0, 1000.0]);
    assert_eq!(t.slice(1..2).frames.sample_ms, vec![1000.0]);
    // Time going back: laid out sample after sample, by interval.
    t.frames.start_ms = vec![0.0, -50.0];
    t.frames.line = vec![2, 3].into();
    t.ensure_time_order();
    assert_eq!(t.frames.start_ms, vec![0.0, 500.0]);
    let per_frame = trace("game.exe", 2);
    assert!(!per_frame.is_sampled());
    assert_eq!(per_frame.frames.spans_ms(), &[1.0, 1.0]);
}

#[test]
fn default_trace_ignores_dwm_and_breaks_ties_by_file_order() {
    let c = capture(vec![trace("dwm.exe", 50), trace("a.exe", 10), trace("b.exe", 10)]);
    assert_eq!(c.default_trace(), Some(1));
    let c = capture(vec![trace("DWM.EXE", 50), trace("DWM.exe", 60)]);
    assert_eq!(c.default_trace(), Some(1));
    let c = capture(vec![trace("a.exe", 5), trace("b.exe", 6)]);
    assert_eq!(c.default_trace(), Some(1));
    assert_eq!(capture(vec![]).default_trace(), None);
}
