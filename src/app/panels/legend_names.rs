//! Run names in a comparison's chart legends: the part that tells the runs apart.
//! Captures of one session share long prefixes and suffixes
//! (`FrameView_AlanWake2_DLSSQuality_run1_…_Log.csv`), so cutting each name in the
//! middle hides exactly where they differ; instead the words every name shares at the
//! start and at the end are dropped (marked `…`), and only what is left is shortened.

/// Characters that end a word of a file name: a common part is dropped up to one.
fn is_separator(c: char) -> bool {
    matches!(c, '_' | '-' | ' ' | '.' | '(' | ')' | '[' | ']')
}

/// Characters every name starts with, cut back to just after a separator.
fn common_prefix(names: &[Vec<char>]) -> usize {
    let Some(first) = names.first() else { return 0 };
    let mut n = first.len();
    for name in &names[1..] {
        n = n.min(first.iter().zip(name).take_while(|(a, b)| a == b).count());
    }
    first[..n].iter().rposition(|&c| is_separator(c)).map_or(0, |k| k + 1)
}

/// Characters every name ends with, cut forward to a separator (which is dropped too).
fn common_suffix(names: &[Vec<char>], prefix: usize) -> usize {
    let Some(first) = names.first() else { return 0 };
    let mut n = first.len() - prefix;
    for name in &names[1..] {
        let same = first.iter().rev().zip(name.iter().rev()).take_while(|(a, b)| a == b).count();
        n = n.min(same).min(name.len() - prefix);
    }
    let tail = &first[first.len() - n..];
    tail.iter().position(|&c| is_separator(c)).map_or(0, |k| n - k)
}

/// Characters a name keeps at least when it has them: a shared word comes back (the
/// prefix shrinks to the previous word) while what is left is shorter, so that
/// `synthetic-run-a` is not shown as just `a`.
const MIN_SHOWN: usize = 8;

/// The prefix to drop, shrunk word by word while some name would show less than
/// [`MIN_SHOWN`] characters.
fn widen(names: &[Vec<char>], mut prefix: usize, suffix: usize) -> usize {
    let Some(first) = names.first() else { return 0 };
    while prefix > 0 && names.iter().any(|s| s.len().saturating_sub(prefix + suffix) < MIN_SHOWN) {
        prefix = first[..prefix - 1].iter().rposition(|&c| is_separator(c)).map_or(0, |k| k + 1);
    }
    prefix
}

/// What [`super::legend_name`] shows uncut.
const FITS: usize = 27;

/// A word that is a date or a time ("2024", "04", "16T234455"): digits, or mostly
/// digits and at least four of them.
fn is_date(word: &str) -> bool {
    let digits = word.chars().filter(char::is_ascii_digit).count();
    let n = word.chars().count();
    n > 0 && (digits == n || (digits >= 4 && digits * 4 >= n * 3))
}

/// `name` without its date and time words, last first, while it is longer than
/// [`FITS`] (a legend cut in the middle kept the dates and dropped "run1"); the name
/// itself when it fits, or when nothing but dates would be left.
fn without_dates(name: &str) -> String {
    let mut kept = name.to_owned();
    while kept.chars().count() > FITS {
        // The last date word with the separator before it.
        let words: Vec<(usize, &str)> = kept
            .split(is_separator)
            .scan(0, |at, w| {
                let start = *at;
                *at += w.len() + 1;
                Some((start, w))
            })
            .collect();
        let Some(&(start, w)) = words.iter().rev().find(|(_, w)| is_date(w)) else { break };
        let cut = start.saturating_sub(1);
        let next: String = format!("{}{}", &kept[..cut], &kept[(start + w.len()).min(kept.len())..]);
        if next.chars().all(|c| is_separator(c) || c.is_ascii_digit()) {
            break;
        }
        kept = next;
    }
    kept
}

/// The legend's names of `names` (file names or paths), in order, each after its
/// place in the comparison (`1: `): the part that differs between them, at most
/// [`super::legend_name`]'s length. A single name, or names that do not differ, are
/// shortened in the middle as before.
#[must_use]
pub fn legend_names(names: &[String]) -> Vec<String> {
    let shorts: Vec<Vec<char>> =
        names.iter().map(|n| super::super::session::short_name(n).chars().collect()).collect();
    // One name, or one file shown twice: nothing tells them apart but their place.
    let differ = shorts.iter().any(|s| *s != shorts[0]);
    let prefix = if differ { common_prefix(&shorts) } else { 0 };
    let suffix = if differ { common_suffix(&shorts, prefix) } else { 0 };
    let prefix = widen(&shorts, prefix, suffix);
    let apart = shorts.iter().all(|s| s.len() > prefix + suffix);
    shorts
        .iter()
        .enumerate()
        .map(|(slot, s)| {
            if !apart || prefix + suffix == 0 {
                let whole: String = s.iter().collect();
                // Names that differ lose their dates first, not the words that differ.
                return super::legend_name(slot, &if differ { without_dates(&whole) } else { whole });
            }
            let middle: String = s[prefix..s.len() - suffix].iter().collect();
            let short = super::legend_name(slot, &without_dates(&middle));
            let (place, rest) = short.split_once(": ").unwrap_or(("", &short));
            let open = if prefix > 0 { "…" } else { "" };
            let close = if suffix > 0 { "…" } else { "" };
            format!("{place}: {open}{rest}{close}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::legend_names;

    fn names(list: &[&str]) -> Vec<String> {
        legend_names(&list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn the_part_that_differs_stays() {
        // The Alan Wake 2 runs: the old legend read "FrameView_Al…234455_Log.csv" for
        // both, up to the last digits; now each shows its run and time.
        let run1 = "/caps/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv";
        let run2 = "/caps/FrameView_AlanWake2_DLSSQuality_run2_2024_04_17T002622_Log.csv";
        assert_eq!(names(&[run1, run2]), ["1: …run1_2024_04_16T234455…", "2: …run2_2024_04_17T002622…"]);
        // A shared word is dropped only whole: "run" is kept with its number.
        assert_eq!(names(&["run1.csv", "run2.csv"]), ["1: run1…", "2: run2…"]);
        // Different lengths; nothing shared at the end.
        assert_eq!(names(&["game_lowest.csv", "game_ultra.json"]), ["1: …lowest.csv", "2: …ultra.json"]);
        // A name would keep too little ("a"): the shared words come back.
        let (a, b) = ("/c/synthetic-run-a.csv", "/c/synthetic-run-b.csv");
        assert_eq!(names(&[a, b]), ["1: synthetic-run-a…", "2: synthetic-run-b…"]);
        assert_eq!(names(&["x_bench_1.csv", "x_bench_2.csv"]), ["1: x_bench_1…", "2: x_bench_2…"]);
    }

    /// Issue 40: six FrameView runs share only "FrameView_" and "_Log.csv"; cut in the
    /// middle, their legends kept the dates and lost "run1" / "run2". Dates go first.
    #[test]
    fn dates_go_before_the_words_that_differ() {
        let six = [
            "FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv",
            "FrameView_AlanWake2_DLSSQuality_run2_2024_04_17T002622_Log.csv",
            "FrameView_Cyberpunk2077_4K_Native+DLAA_2024_04_17T050843_Log.csv",
            "FrameView_RoboCop_30fpscap_Native4K_2024_04_13T193123_Log.csv",
        ];
        assert_eq!(
            names(&six),
            [
                "1: …AlanWake2_DLSSQuality_run1…",
                "2: …AlanWake2_DLSSQuality_run2…",
                "3: …Cyberpunk207…4K_Native+DLAA…",
                "4: …RoboCop_30fpscap_Native4K…"
            ]
        );
    }

    #[test]
    fn a_long_difference_is_cut_in_its_middle_and_equal_names_fall_back() {
        let a = "bench_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1_x.csv";
        let b = "bench_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2_x.csv";
        assert_eq!(
            names(&[a, b]),
            [
                format!("1: …{}…{}1…", "a".repeat(12), "a".repeat(13)),
                format!("2: …{}…{}2…", "b".repeat(12), "b".repeat(13))
            ]
        );
        // The same file twice: only the place tells them apart (as before).
        let same = "/caps/FrameView_AlanWake2_DLSSQuality_run1_2024_04_16T234455_Log.csv";
        assert_eq!(
            names(&[same, same]),
            ["1: FrameView_Al…234455_Log.csv", "2: FrameView_Al…234455_Log.csv"]
        );
        // One run alone: as before.
        assert_eq!(names(&["b.csv"]), ["1: b.csv"]);
    }
}
