//! How far a load is: bytes read of the total, a coarse preview of the frame times
//! read so far (for the window), and the request to stop.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Progress of a load, shared with whoever waits for it (the UI shows it and may
/// cancel). All methods may be called from any thread.
#[derive(Debug, Default)]
pub struct Progress {
    done_bytes: AtomicU64,
    pub(super) total_bytes: AtomicU64,
    cancelled: AtomicBool,
    preview: std::sync::Mutex<Preview>,
    /// No preview is kept ([`Progress::without_preview`]).
    unwatched: bool,
}

/// A coarse picture of the frame times read so far (of the trace with the most
/// frames), for the window to show while a capture loads: the slowest and the total
/// frame time of every bucket of consecutive frames, at most [`Preview::BUCKETS`]
/// buckets (they double in size as the load goes on).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Preview {
    /// Frames read so far (of that trace).
    pub frames: u64,
    /// Frames per bucket.
    pub bucket_frames: u64,
    /// The slowest frame time of each bucket, in order.
    pub slowest_ms: Vec<f32>,
    /// The sum of each bucket's frame times.
    pub sum_ms: Vec<f64>,
}

impl Preview {
    /// The most buckets kept.
    pub const BUCKETS: usize = 1024;

    /// Adds the next frame time.
    pub fn add(&mut self, frame_time_ms: f64) {
        if self.bucket_frames == 0 {
            self.bucket_frames = 1;
        }
        let mut bucket = (self.frames / self.bucket_frames) as usize;
        if bucket >= Self::BUCKETS {
            self.slowest_ms =
                self.slowest_ms.chunks(2).map(|p| p.iter().copied().fold(0.0, f32::max)).collect();
            self.sum_ms = self.sum_ms.chunks(2).map(|p| p.iter().sum()).collect();
            self.bucket_frames *= 2;
            bucket = (self.frames / self.bucket_frames) as usize;
        }
        let v = frame_time_ms as f32;
        if let (Some(slowest), Some(sum)) = (self.slowest_ms.get_mut(bucket), self.sum_ms.get_mut(bucket)) {
            *slowest = slowest.max(v);
            *sum += frame_time_ms;
        } else {
            self.slowest_ms.push(v);
            self.sum_ms.push(frame_time_ms);
        }
        self.frames += 1;
    }

    /// The mean frame time of bucket `k`.
    #[must_use]
    pub fn mean_ms(&self, k: usize) -> f64 {
        let full = self.bucket_frames.max(1);
        let n = if k + 1 == self.sum_ms.len() { self.frames - k as u64 * full } else { full };
        self.sum_ms.get(k).map_or(f64::NAN, |s| s / n.max(1) as f64)
    }
}

impl Progress {
    /// A progress that keeps no [`Preview`], for a load nobody watches (the CLI): the
    /// loader then spends nothing on it.
    #[must_use]
    pub fn without_preview() -> Self {
        Self { unwatched: true, ..Self::default() }
    }

    /// Fraction of the input read so far, 0..=1 (0 while the size is unknown).
    #[must_use]
    pub fn fraction(&self) -> f32 {
        let total = self.total_bytes.load(Ordering::Relaxed);
        if total == 0 {
            return 0.0;
        }
        (self.done_bytes.load(Ordering::Relaxed) as f64 / total as f64).min(1.0) as f32
    }

    /// The picture of the frame times read so far ([`Preview`]).
    #[must_use]
    pub fn preview(&self) -> Preview {
        self.preview.lock().map(|p| p.clone()).unwrap_or_default()
    }

    /// Adds frame times to the preview; `restart` drops what it held first (another
    /// trace became the biggest).
    pub(crate) fn extend_preview(&self, restart: bool, frame_times_ms: &[f64]) {
        if self.unwatched {
            return;
        }
        if let Ok(mut p) = self.preview.lock() {
            if restart {
                *p = Preview::default();
            }
            for &v in frame_times_ms {
                p.add(v);
            }
        }
    }

    /// Asks the load to stop; it ends with [`LoadErrorKind::Cancelled`](super::LoadErrorKind::Cancelled).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// True once [`Progress::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// A reader that adds what it reads to a [`Progress`].
pub(super) struct Counting<'p, R> {
    pub(super) inner: R,
    pub(super) progress: &'p Progress,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.done_bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
