//! [`Lines`]: the file line of each kept frame, stored compactly.
//!
//! Lines come in blocks of [`BLOCK`] frames, each with the line of its first frame as
//! base. A block whose frames stand on consecutive lines (a capture of one trace
//! without skipped rows: the common case) stores nothing else; other blocks store each
//! frame's distance from the base in 2 bytes, or 4, or the whole line, whichever holds
//! every distance of the block. A block is about 24 bytes, so a capture of one trace
//! costs well under a byte a frame instead of 8, and interleaved traces 2 bytes a
//! frame. Every line reads back exactly as it was pushed.

/// Frames per block.
const BLOCK: usize = 256;

/// How one block stores its frames' lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Frame `k` is on line `base + k`.
    Run,
    /// Frame `k` is on line `base + d16[at + k]`.
    Near(usize),
    /// Frame `k` is on line `base + d32[at + k]`.
    Far(usize),
    /// Frame `k` is on line `wide[at + k]`.
    Wide(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    base: u64,
    kind: Kind,
}

/// The 1-based file line of every kept frame, in frame order (see the module docs).
///
/// Reads with [`Lines::get`] and [`Lines::iter`]; built with [`Lines::push`] or from a
/// `Vec<u64>`. Compares equal to a `Vec<u64>` or array of the same lines.
#[derive(Clone, Default)]
pub struct Lines {
    len: usize,
    blocks: Vec<Block>,
    d16: Vec<u16>,
    d32: Vec<u32>,
    wide: Vec<u64>,
}

impl Lines {
    /// Number of lines (frames).
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no line.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The line of frame `i`; `None` out of range.
    #[must_use]
    #[inline]
    pub fn get(&self, i: usize) -> Option<u64> {
        if i >= self.len {
            return None;
        }
        let b = self.blocks.get(i / BLOCK)?;
        let k = i % BLOCK;
        match b.kind {
            Kind::Run => Some(b.base + k as u64),
            Kind::Near(at) => self.d16.get(at + k).map(|&d| b.base + u64::from(d)),
            Kind::Far(at) => self.d32.get(at + k).map(|&d| b.base + u64::from(d)),
            Kind::Wide(at) => self.wide.get(at + k).copied(),
        }
    }

    /// The first frame's line.
    #[must_use]
    pub fn first(&self) -> Option<u64> {
        self.get(0)
    }

    /// The last frame's line.
    #[must_use]
    pub fn last(&self) -> Option<u64> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// Every line in frame order.
    #[must_use]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u64> + Clone + '_ {
        (0..self.len).map(move |i| self.get(i).unwrap_or(0))
    }

    /// Every line in frame order, as a vector.
    #[must_use]
    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }

    /// The lines in `range` (clamped) as lines of their own.
    #[must_use]
    pub fn slice(&self, range: std::ops::Range<usize>) -> Self {
        let end = range.end.min(self.len);
        (range.start.min(end)..end).filter_map(|i| self.get(i)).collect()
    }

    /// Adds the line of the next frame.
    #[inline]
    pub fn push(&mut self, line: u64) {
        // The common case inline: the next line of a block of consecutive lines.
        if self.run_goes_on(line) {
            self.len += 1;
            return;
        }
        self.push_any(line);
    }

    /// True when the open block is a run of consecutive lines that `line` continues
    /// (then pushing it only counts it).
    #[inline]
    fn run_goes_on(&self, line: u64) -> bool {
        let k = self.len % BLOCK;
        k != 0
            && self
                .blocks
                .last()
                .is_some_and(|b| b.kind == Kind::Run && b.base.checked_add(k as u64) == Some(line))
    }

    /// [`Lines::push`] of any line.
    #[inline(never)]
    fn push_any(&mut self, line: u64) {
        let k = self.len % BLOCK;
        self.len += 1;
        let Some(b) = self.blocks.last_mut().filter(|_| k != 0) else {
            super::push_grown(&mut self.blocks, Block { base: line, kind: Kind::Run });
            return;
        };
        let base = b.base;
        match b.kind {
            Kind::Run if base.checked_add(k as u64) == Some(line) => return,
            Kind::Near(_) => {
                if let Some(d) = line.checked_sub(base).and_then(|d| u16::try_from(d).ok()) {
                    return super::push_grown(&mut self.d16, d);
                }
            }
            Kind::Far(_) => {
                if let Some(d) = line.checked_sub(base).and_then(|d| u32::try_from(d).ok()) {
                    return super::push_grown(&mut self.d32, d);
                }
            }
            Kind::Wide(_) => return super::push_grown(&mut self.wide, line),
            Kind::Run => {}
        }
        self.widen(k, line);
    }

    /// Adds the lines of `other` after these, as pushing each would (a block of
    /// consecutive lines at once: merging the blocks of a file read in parallel).
    pub fn append(&mut self, other: &Lines) {
        for (j, b) in other.blocks.iter().enumerate() {
            let first = j * BLOCK;
            let n = other.len.saturating_sub(first).min(BLOCK);
            if b.kind == Kind::Run {
                self.push_run(b.base, n);
            } else {
                (first..first + n).filter_map(|i| other.get(i)).for_each(|line| self.push(line));
            }
        }
    }

    /// Adds `n` frames on consecutive lines from `first`, as `n` pushes would: while
    /// the open block is a run they join, they only count.
    fn push_run(&mut self, first: u64, n: usize) {
        let mut done = 0;
        while done < n {
            let Some(line) = first.checked_add(done as u64) else { return };
            if self.run_goes_on(line) {
                let take = (n - done).min(BLOCK - self.len % BLOCK);
                self.len += take;
                done += take;
            } else {
                self.push(line);
                done += 1;
            }
        }
    }

    /// Stores the open (last) block, whose first `k` frames are pushed, the next wider
    /// way that also holds `line`, then adds it.
    #[cold]
    fn widen(&mut self, k: usize, line: u64) {
        let Some(&Block { base, kind }) = self.blocks.last() else { return };
        // The open block's frames so far (its stored values are the tail of their list).
        let so_far: Vec<u64> = match kind {
            Kind::Run => (0..k as u64).map(|d| base + d).collect(),
            Kind::Near(at) => self.d16.drain(at..).map(|d| base + u64::from(d)).collect(),
            Kind::Far(at) => self.d32.drain(at..).map(|d| base + u64::from(d)).collect(),
            Kind::Wide(_) => return,
        };
        let fits = |limit: u64| {
            so_far.iter().chain([&line]).all(|&l| l.checked_sub(base).is_some_and(|d| d <= limit))
        };
        let kind = if kind == Kind::Run && fits(u64::from(u16::MAX)) {
            self.d16.extend(so_far.iter().chain([&line]).map(|&l| (l - base) as u16));
            Kind::Near(self.d16.len() - k - 1)
        } else if !matches!(kind, Kind::Far(_)) && fits(u64::from(u32::MAX)) {
            self.d32.extend(so_far.iter().chain([&line]).map(|&l| (l - base) as u32));
            Kind::Far(self.d32.len() - k - 1)
        } else {
            self.wide.extend(so_far.iter().chain([&line]));
            Kind::Wide(self.wide.len() - k - 1)
        };
        if let Some(b) = self.blocks.last_mut() {
            b.kind = kind;
        }
    }

    /// Frees the room reserved for further lines.
    pub fn shrink_to_fit(&mut self) {
        self.blocks.shrink_to_fit();
        self.d16.shrink_to_fit();
        self.d32.shrink_to_fit();
        self.wide.shrink_to_fit();
    }

    /// Bytes the lines take.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.blocks.capacity() * size_of::<Block>()
            + self.d16.capacity() * 2
            + self.d32.capacity() * 4
            + self.wide.capacity() * 8
    }
}

impl Extend<u64> for Lines {
    fn extend<I: IntoIterator<Item = u64>>(&mut self, iter: I) {
        for line in iter {
            self.push(line);
        }
    }
}

impl FromIterator<u64> for Lines {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Self {
        let mut lines = Self::default();
        lines.extend(iter);
        lines.shrink_to_fit();
        lines
    }
}

impl From<Vec<u64>> for Lines {
    fn from(v: Vec<u64>) -> Self {
        v.into_iter().collect()
    }
}

impl PartialEq for Lines {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl PartialEq<Vec<u64>> for Lines {
    fn eq(&self, other: &Vec<u64>) -> bool {
        self.len == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq<&[u64]> for Lines {
    fn eq(&self, other: &&[u64]) -> bool {
        self.len == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl<const N: usize> PartialEq<[u64; N]> for Lines {
    fn eq(&self, other: &[u64; N]) -> bool {
        self.len == N && self.iter().eq(other.iter().copied())
    }
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(lines: &[u64]) -> Lines {
        let l: Lines = lines.to_vec().into();
        assert_eq!(l.len(), lines.len());
        assert_eq!(l.iter().collect::<Vec<_>>(), lines);
        for (i, &x) in lines.iter().enumerate() {
            assert_eq!(l.get(i), Some(x), "frame {i}");
        }
        assert_eq!(l.get(lines.len()), None);
        assert_eq!((l.first(), l.last()), (lines.first().copied(), lines.last().copied()));
        l
    }

    #[test]
    fn every_kind_of_block_reads_back_exactly() {
        // One trace, no skipped rows: blocks of consecutive lines, no per-frame data.
        let run: Vec<u64> = (2..2000).collect();
        let l = round_trip(&run);
        assert!(l.d16.is_empty() && l.d32.is_empty() && l.wide.is_empty());
        // Two traces interleaved: every other line, 2 bytes a frame.
        let every_other: Vec<u64> = (0..1000).map(|i| 3 + 2 * i).collect();
        let l = round_trip(&every_other);
        assert_eq!(l.d16.len(), 1000);
        // A gap of 100 000 lines inside a block (a run, then far), 10¹² (wide), a line
        // going back (wide too), and a run resumed in the next block.
        let mut mixed: Vec<u64> = (10..300).collect();
        mixed.extend([400_000, 400_001, 10u64.pow(12), 5, 6]);
        mixed.extend(1_000_000..1_000_600);
        let l = round_trip(&mixed);
        assert!(l.d16.is_empty() && l.d32.is_empty());
        assert_eq!(l.wide.len(), 256, "the block holding 10¹² and 5 is stored whole");
        // Lines 100 000 apart: 4 bytes a frame.
        let far: Vec<u64> = (0..300).map(|i| 7 + i * 100_000).collect();
        let l = round_trip(&far);
        assert_eq!((l.d16.len(), l.d32.len(), l.wide.len()), (0, 300, 0));
        round_trip(&[]);
        round_trip(&[u64::MAX, 0, u64::MAX]);
    }

    /// Lines appended from pieces are stored as the lines pushed one by one: runs cut
    /// inside and between blocks, a run that goes on from the lines before or not,
    /// and blocks stored near, far and whole.
    #[test]
    fn appended_lines_are_pushed_lines() {
        let mut lines: Vec<u64> = (5..700).collect();
        lines.extend((0..300).map(|i| 800 + 2 * i));
        lines.extend([10u64.pow(12), 3, 4]);
        lines.extend(2000..2600);
        lines.extend((0..300).map(|i| 5000 + i * 100_000));
        for cut in [0, 1, 100, 255, 256, 257, 699, 700, 701, 1000, 1003, 1500, lines.len()] {
            for second in [cut, (cut + 300).min(lines.len())] {
                let pieces = [&lines[..cut], &lines[cut..second], &lines[second..]];
                let mut appended = Lines::default();
                for piece in pieces {
                    appended.append(&piece.to_vec().into());
                }
                let pushed: Lines = lines.clone().into();
                let parts =
                    |l: &Lines| (l.len, l.blocks.clone(), l.d16.clone(), l.d32.clone(), l.wide.clone());
                assert!(parts(&appended) == parts(&pushed), "cut at {cut}, {second}");
            }
        }
    }

    #[test]
    fn slices_compare_and_cost_little() {
        let l: Lines = (2..100_002u64).collect();
        assert_eq!(l.slice(5..9), vec![7, 8, 9, 10]);
        assert_eq!(l.slice(99_999..200_000), [100_001]);
        assert!(l.heap_bytes() < 100_000 / 8, "{} bytes", l.heap_bytes());
        assert_eq!(format!("{:?}", l.slice(0..2)), "[2, 3]");
    }
}
