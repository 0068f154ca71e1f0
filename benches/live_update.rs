//! `cargo bench --bench live_update`: prints what one update of a live capture costs
//! (`ingest::live`: the new rows parsed into the capture's row loop, and the running
//! sums extended) once 100k and 1M frames have been read, for updates of 300 rows
//! (about a second of PresentMon's output at 300 FPS). The two should be about the
//! same: an update reads only the new bytes. For comparison it also prints what a
//! whole capture taken at that length costs (the window takes one at most every 0.5 s,
//! and never more than a quarter of the time, off the UI thread).

use framescope_core::analysis::Running;
use framescope_core::ingest::LoadOptions;
use framescope_core::ingest::live::{self, Event, Flow, Poll, Source};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,\
PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,\
MsUntilDisplayed";

/// Rows `from..to` of a deterministic PresentMon 1.x capture (about 7 ms frames, a
/// spike every 997).
fn rows(from: usize, to: usize) -> Vec<u8> {
    let mut out = String::with_capacity((to - from) * 110);
    for i in from..to {
        let jitter = ((i * 7919) % 1000) as f64 / 1000.0;
        let ft = if i % 997 == 0 { 40.0 + jitter } else { 6.5 + jitter };
        let t = i as f64 * 0.007;
        let _ = writeln!(
            out,
            "game.exe,4242,0x1F741139B80,DXGI,0,512,1,Hardware: Independent Flip,0,{t:.6},{ft:.4},{ft:.4},0.8000,1.2000,9.0000"
        );
    }
    out.into_bytes()
}

/// Bytes handed over one part per poll, then the end.
struct Parts(VecDeque<Vec<u8>>);

impl Source for Parts {
    fn poll(&mut self, into: &mut Vec<u8>) -> std::io::Result<Poll> {
        Ok(match self.0.pop_front() {
            Some(p) => {
                into.extend_from_slice(&p);
                Poll::Data
            }
            None => Poll::End,
        })
    }
}

fn main() {
    const UPDATES: usize = 50;
    const ROWS: usize = 300;
    println!(
        "{:>10} {:>18} {:>18} {:>18}",
        "frames", "update median µs", "update max µs", "whole capture ms"
    );
    for frames in [100_000, 1_000_000] {
        let mut parts = VecDeque::new();
        let mut head = format!("{HEADER}\n").into_bytes();
        head.extend(rows(0, frames));
        for c in head.chunks(live::MAX_CHUNK) {
            parts.push_back(c.to_vec());
        }
        for k in 0..UPDATES {
            parts.push_back(rows(frames + k * ROWS, frames + (k + 1) * ROWS));
        }
        let mut source = Parts(parts);
        let mut running = Running::default();
        let mut costs: Vec<Duration> = Vec::new();
        let mut whole = Duration::ZERO;
        let opts = LoadOptions::default();
        let result = live::follow(&mut source, Path::new("bench.csv"), &opts, &mut |event| {
            if let Event::Update(l) = event {
                let t = Instant::now();
                running.extend(l.frame_times_where(&|_| true));
                let cost = l.cost + t.elapsed();
                if l.grew && running.frames > frames {
                    costs.push(cost);
                }
                if l.ended {
                    let t = Instant::now();
                    let capture = l.capture();
                    whole = t.elapsed();
                    assert!(
                        capture
                            .is_ok_and(|c| c.traces[0].frames.frame_time_ms.len() == frames + UPDATES * ROWS)
                    );
                }
            }
            Flow::Continue
        });
        assert!(result.is_ok());
        costs.sort();
        let median = costs.get(costs.len() / 2).copied().unwrap_or_default();
        let max = costs.last().copied().unwrap_or_default();
        println!(
            "{:>10} {:>18.0} {:>18.0} {:>18.1}",
            frames,
            median.as_secs_f64() * 1e6,
            max.as_secs_f64() * 1e6,
            whole.as_secs_f64() * 1e3
        );
    }
}
