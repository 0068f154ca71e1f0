//! Sets of runs by name (`metrics.md` §12): the set a run opens in (its file name's
//! prefix, so that `run1`, `run2` land together), runs grouped by their sets in
//! comparison order, and when a comparison is one of sets rather than of runs.

/// The set a run opens in: its file name's prefix, so that `run1`, `run2` (or `a1`,
/// `a2`) land in the same set. The stem is cut before a `run` followed by digits (any
/// case; the last such place), else its trailing digits are dropped; separators left
/// at the end are dropped too. A name that would be empty keeps its stem.
#[must_use]
pub fn prefix_key(file_name: &str) -> String {
    let stem = std::path::Path::new(file_name)
        .file_stem()
        .map_or_else(|| file_name.to_owned(), |s| s.to_string_lossy().into_owned());
    let lower = stem.to_ascii_lowercase();
    let separators = |c: char| c.is_whitespace() || "-_.#([".contains(c);
    // The last "run" followed by a number (separators between allowed).
    let run_number = lower.rmatch_indices("run").map(|(i, _)| i).find(|&i| {
        lower[i + 3..]
            .trim_start_matches(|c: char| c.is_whitespace() || "-_#".contains(c))
            .starts_with(|c: char| c.is_ascii_digit())
    });
    let key = match run_number {
        Some(i) => {
            let key = stem[..i].trim_end_matches(separators);
            if key.is_empty() { "run" } else { key }
        }
        None => stem.trim_end_matches(|c: char| c.is_ascii_digit() || c == ')' || separators(c)),
    };
    if key.is_empty() { stem } else { key.to_owned() }
}

/// Sets among some runs: each set's name and its runs (the positions given, in their
/// order), in the order their first run comes.
pub type Groups = Vec<(String, Vec<usize>)>;

/// Groups the runs `order` (positions, the comparison's baseline first) by the set
/// `set_of` gives each: the baseline's set comes first.
#[must_use]
pub fn groups<'a>(order: &[usize], set_of: impl Fn(usize) -> &'a str) -> Groups {
    let mut out: Groups = Vec::new();
    for &i in order {
        let name = set_of(i);
        match out.iter_mut().find(|(n, _)| n == name) {
            Some((_, members)) => members.push(i),
            None => out.push((name.to_owned(), vec![i])),
        }
    }
    out
}

/// True when compared runs grouped as `groups` (the baseline's set first) are
/// compared as sets: the baseline's set and at least one other set have two runs or
/// more. Otherwise runs are compared one by one.
#[must_use]
pub fn is_sets_comparison(groups: &[(String, Vec<usize>)]) -> bool {
    groups.len() > 1 && groups[0].1.len() > 1 && groups[1..].iter().any(|(_, m)| m.len() > 1)
}

/// A name for a new set that none of `groups` has: "set 1", "set 2", …
#[must_use]
pub fn fresh_set_name(groups: &[(String, Vec<usize>)]) -> String {
    (1..=groups.len() + 1)
        .map(|n| format!("set {n}"))
        .find(|n| !groups.iter().any(|(g, _)| g == n))
        .unwrap_or_else(|| format!("set {}", groups.len() + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_by_file_name_prefix() {
        assert_eq!(prefix_key("a1.csv"), "a");
        assert_eq!(prefix_key("a2.csv"), "a");
        assert_eq!(prefix_key("slow-run3.csv"), "slow");
        assert_eq!(prefix_key("base_run12.CSV"), "base");
        assert_eq!(
            prefix_key("FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv"),
            "FrameView_AlanWake2_DLSSQuality"
        );
        assert_eq!(
            prefix_key("FrameView_AlanWake2_DLSSQuality_run2_2024_04_16T234726_Log.csv"),
            "FrameView_AlanWake2_DLSSQuality"
        );
        // CapFrameX names its records "(run N)".
        assert_eq!(prefix_key("Cyberpunk (run 2).json"), "Cyberpunk");
        assert_eq!(prefix_key("capture (3).csv"), "capture");
        // No number: the stem itself; only a number: kept.
        assert_eq!(prefix_key("synthetic-run-a.csv"), "synthetic-run-a");
        assert_eq!(prefix_key("123.csv"), "123");
        assert_eq!(prefix_key("run1.csv"), "run");
        assert_eq!(prefix_key("Run_2.csv"), "run");
    }

    /// Runs 0..5 in sets a, b, a, c, b, compared with run 2 as the baseline: a (2, 0),
    /// b (1, 4), c (3). Two sets of two: a comparison of sets; with only the baseline's
    /// set of two, runs are compared one by one.
    #[test]
    fn groups_follow_the_comparison_order() {
        let sets = ["a", "b", "a", "c", "b"];
        let g = groups(&[2, 0, 1, 3, 4], |i| sets[i]);
        assert_eq!(
            g,
            [("a".to_owned(), vec![2, 0]), ("b".to_owned(), vec![1, 4]), ("c".to_owned(), vec![3])]
        );
        assert!(is_sets_comparison(&g));
        assert!(!is_sets_comparison(&groups(&[2, 0, 1, 3], |i| sets[i])));
        assert!(!is_sets_comparison(&groups(&[0, 2], |i| sets[i])));
        assert_eq!(fresh_set_name(&g), "set 1");
        let taken = groups(&[0, 1], |i| ["set 1", "set 2"][i]);
        assert_eq!(fresh_set_name(&taken), "set 3");
    }
}
