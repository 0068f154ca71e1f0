//! Frame positions kept compactly ([`Positions`]), for an action's spike candidates.

/// Ascending positions, a byte each: the gap from the one before (from −1 for the
/// first), or 255 and the position aside when the gap is larger. What an action's
/// candidates take in the window (issue 40 item 9: a noisy column has a candidate at
/// about every other frame, 4 bytes each as `u32`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Positions {
    gaps: Vec<u8>,
    aside: Vec<u32>,
    next: u64,
}

impl Positions {
    /// Adds `p`, which must be above every position added before.
    pub fn push(&mut self, p: u32) {
        let gap = u64::from(p) + 1 - self.next;
        match u8::try_from(gap) {
            Ok(g) if g < u8::MAX => self.gaps.push(g),
            _ => {
                self.gaps.push(u8::MAX);
                self.aside.push(p);
            }
        }
        self.next = u64::from(p) + 1;
    }

    /// The positions in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mut aside = self.aside.iter();
        let mut next = 0u64;
        self.gaps.iter().map(move |&g| {
            let p = if g == u8::MAX {
                aside.next().map_or(0, |&p| u64::from(p))
            } else {
                next + u64::from(g) - 1
            };
            next = p + 1;
            p as u32
        })
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.gaps.len()
    }

    /// True when there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.gaps.is_empty()
    }

    /// The positions as a list.
    #[must_use]
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    pub(super) fn shrink_to_fit(&mut self) {
        self.gaps.shrink_to_fit();
        self.aside.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions read back as pushed: 0 first, gaps of 1, 254 (a byte), 255 and more
    /// (aside), the largest `u32`.
    #[test]
    fn positions_read_back_as_pushed() {
        let want = [0, 1, 2, 256, 511, 766, 1_000_000, 1_000_001, u32::MAX - 1, u32::MAX];
        let mut p = Positions::default();
        for x in want {
            p.push(x);
        }
        assert_eq!(p.to_vec(), want);
        assert_eq!((p.len(), p.aside.len()), (10, 4), "gaps of 255 and more are aside");
        let mut late = Positions::default();
        late.push(300);
        assert_eq!(late.to_vec(), [300]);
        assert!(Positions::default().is_empty());
    }
}
