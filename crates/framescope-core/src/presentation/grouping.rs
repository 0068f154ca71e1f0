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

/// The part of a file name before its run number (as [`prefix_key`] cuts it), or
/// `None` when the name has no run number (no `run` + digits, no trailing digits): such
/// a run is in no set with another until the user puts it there.
#[must_use]
pub fn run_number_prefix(file_name: &str) -> Option<String> {
    let stem = std::path::Path::new(file_name)
        .file_stem()
        .map_or_else(|| file_name.to_owned(), |s| s.to_string_lossy().into_owned());
    let key = prefix_key(file_name);
    (key != stem).then_some(key)
}

/// The sets runs open in (issue 20), for runs given as (file name, the application the
/// capture names — `None` when the format does not record it and the file name stands
/// for it: MangoHud, NVIDIA App, Afterburner). Runs are grouped automatically only when
/// their file names differ by a run number (`…_run1_…` / `…_run2_…`, `a1` / `a2`,
/// CapFrameX's `(run 2)`: [``run_number_prefix`) and they are of the same application:
/// a name without a run number is a set of its own, named by the file's stem; when runs of
/// one prefix name different applications, each named one's set adds its application
/// (`run (a.exe)`, `run (b.exe)`), so that two games never share a set.
#[must_use]
pub fn auto_sets(runs: &[(&str, Option<&str>)]) -> Vec<String> {
    let prefixes: Vec<Option<String>> = runs.iter().map(|(name, _)| run_number_prefix(name)).collect();
    let app_key = |a: &str| -> String {
        let a = a.trim().to_ascii_lowercase();
        let a = a.strip_suffix(".exe").unwrap_or(&a);
        a.chars().filter(char::is_ascii_alphanumeric).collect()
    };
    runs.iter()
        .zip(&prefixes)
        .map(|(&(name, app), prefix)| {
            let Some(prefix) = prefix else { return prefix_key(name) };
            let mut apps = runs
                .iter()
                .zip(&prefixes)
                .filter(|(_, p)| p.as_ref() == Some(prefix))
                .filter_map(|((_, a), _)| a.map(app_key));
            let first = apps.next();
            let mixed = first.is_some_and(|f| apps.any(|k| k != f));
            match app {
                Some(app) if mixed => format!("{prefix} ({app})"),
                _ => prefix.clone(),
            }
        })
        .collect()
}

/// The application trace `trace` of `capture` names, for [`auto_sets`]: `None` when the
/// format does not record one (the trace is then named after the file).
#[must_use]
pub fn named_application(capture: &crate::model::Capture, trace: usize) -> Option<&str> {
    let app = capture.traces.get(trace)?.meta.application.as_str();
    let stem = capture.info.path.file_stem().map(|s| s.to_string_lossy());
    let sampled = capture.traces.get(trace).is_some_and(crate::model::Trace::is_sampled);
    (!sampled && stem.as_deref() != Some(app)).then_some(app)
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

    /// Issue 20: an unknown CSV and an Unreal example (no run number) are sets of their
    /// own; run1/run2 of one game share a set; `run1`/`run2` of two games do not; logs
    /// that do not name their application (MangoHud) group by the name alone.
    #[test]
    fn only_runs_of_one_application_numbered_apart_group() {
        let sets =
            auto_sets(&[("generic-custom-us.csv", None), ("unreal-csvprofile-example.csv", Some("unreal"))]);
        assert_eq!(sets, ["generic-custom-us", "unreal-csvprofile-example"]);
        let fv = |n: u8| format!("FrameView_AlanWake2_DLSSQuality_run{n}_2024_04_16T234455_Log.csv");
        let (a, b) = (fv(1), fv(2));
        let sets = auto_sets(&[(&a, Some("AlanWake2.exe")), (&b, Some("AlanWake2.exe"))]);
        assert_eq!(sets, ["FrameView_AlanWake2_DLSSQuality", "FrameView_AlanWake2_DLSSQuality"]);
        let sets =
            auto_sets(&[("run1.csv", Some("a.exe")), ("run2.csv", Some("b.exe")), ("run3.csv", Some("A"))]);
        assert_eq!(sets, ["run (a.exe)", "run (b.exe)", "run (A)"]);
        let sets = auto_sets(&[("mh_run1.csv", None), ("mh_run2.csv", None), ("x1.csv", Some("g.exe"))]);
        assert_eq!(sets, ["mh", "mh", "x"]);
        assert_eq!(run_number_prefix("synthetic-run-a.csv"), None);
        assert_eq!(run_number_prefix("Cyberpunk (run 2).json").as_deref(), Some("Cyberpunk"));
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
