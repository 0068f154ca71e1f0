//! Issue 34, item 2: no output of any command is ever written over an input — not the
//! capture by its own name, a hard link, a symbolic link or another spelling of its
//! path, not a file of a folder given, not a PCL marker log — and every such case is
//! refused (exit 2) before anything is read or written, leaving each input byte for
//! byte as it was. Outputs that are written go through a temporary file renamed into
//! place.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common::{TempDir, framescope, repo_file};
use std::path::{Path, PathBuf};

/// A capture, a marker log, a hard link and a symbolic link to the capture, and a
/// folder holding a second capture, each file's bytes kept for the final check.
struct Inputs {
    dir: TempDir,
    capture: PathBuf,
    log: PathBuf,
    hard: PathBuf,
    link: PathBuf,
    folder: PathBuf,
    in_folder: PathBuf,
    originals: Vec<(PathBuf, Vec<u8>)>,
}

impl Inputs {
    fn new(test: &str) -> Self {
        let dir = TempDir::new(test);
        let bytes = |name: &str| std::fs::read(repo_file(&format!("sample-traces/{name}"))).expect("sample");
        let capture = dir.file("capture.csv", &bytes("synthetic-pcl-capture.csv"));
        let log = dir.file("markers.csv", &bytes("synthetic-pcl-markers.csv"));
        let hard = dir.0.join("hard.csv");
        std::fs::hard_link(&capture, &hard).expect("hard link");
        let link = dir.0.join("link.html");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&capture, &link).expect("symlink");
        #[cfg(not(unix))]
        std::fs::hard_link(&capture, &link).expect("link");
        let folder = dir.0.join("folder");
        std::fs::create_dir_all(&folder).expect("folder");
        let in_folder = folder.join("b.csv");
        std::fs::write(&in_folder, bytes("synthetic-run-b.csv")).expect("write");
        let originals = [&capture, &log, &in_folder]
            .iter()
            .map(|p| ((*p).clone(), std::fs::read(p).expect("read")))
            .collect();
        Self { dir, capture, log, hard, link, folder, in_folder, originals }
    }

    fn unchanged(&self, case: &str) {
        for (p, bytes) in &self.originals {
            assert_eq!(&std::fs::read(p).expect("read"), bytes, "{case}: {} was written to", p.display());
        }
        let left: Vec<String> = walk(&self.dir.0)
            .into_iter()
            .filter(|p| p.to_string_lossy().contains("framescope-tmp"))
            .map(|p| p.display().to_string())
            .collect();
        assert!(left.is_empty(), "{case}: temporary files left: {left:?}");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read dir").flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Every command's every output against every kind of input: refused with exit 2 and a
/// message naming the output, each input unchanged.
#[test]
fn every_output_against_every_input_is_refused() {
    let i = Inputs::new("outputs-vs-inputs");
    let (cap, log, hard, link) = (s(&i.capture), s(&i.log), s(&i.hard), s(&i.link));
    let dotted = i.dir.0.join(".").join("capture.csv");
    let dotted = s(&dotted);
    let folder = s(&i.folder);
    let in_folder = s(&i.in_folder);
    let other = repo_file("sample-traces/synthetic-run-a.csv");
    let other = s(&other);
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("frames -o CAP", vec!["frames", cap, "-o", cap]),
        ("frames -o HARDLINK", vec!["frames", cap, "-o", hard]),
        ("frames -o SYMLINK (parquet)", vec!["frames", cap, "--format", "parquet", "-o", link]),
        ("frames -o ./CAP", vec!["frames", cap, "-o", dotted]),
        ("report parquet -o CAP", vec!["report", "--format", "parquet", "-o", cap, cap]),
        ("report parquet -o HARDLINK", vec!["report", "--format", "parquet", "-o", hard, cap]),
        ("report parquet -o FOLDER/FILE", vec!["report", "--format", "parquet", "-o", in_folder, folder]),
        ("report --html CAP", vec!["report", cap, "--html", cap]),
        ("report --pcl LOG --html LOG", vec!["report", cap, "--pcl", log, "--html", log]),
        ("report --html HARDLINK", vec!["report", cap, "--html", hard]),
        ("report --html SYMLINK", vec!["report", cap, "--html", link]),
        ("report --html FOLDER/FILE", vec!["report", folder, "--html", in_folder]),
        ("compare --html BASELINE", vec!["compare", cap, other, "--html", hard]),
        ("compare --html --pcl LOG", vec!["compare", cap, other, "--pcl", log, "--html", log]),
        ("compare --html --other-pcl LOG", vec!["compare", other, cap, "--other-pcl", log, "--html", log]),
        (
            "compare sets --html FOLDER/FILE",
            vec!["compare", cap, other, "--vs", folder, other, "--html", in_folder],
        ),
    ];
    for (case, args) in cases {
        let run = framescope(&args);
        assert_eq!(run.code, 2, "{case}: exit {} ({})", run.code, run.stderr);
        assert!(
            run.stderr.contains("never writes over its inputs"),
            "{case}: the message says why: {}",
            run.stderr
        );
        i.unchanged(case);
    }
}

/// Two outputs of one command naming one file are refused too (one would overwrite
/// the other).
#[test]
fn two_outputs_naming_one_file_are_refused() {
    let i = Inputs::new("two-outputs");
    let out = i.dir.0.join("out.parquet");
    let run = framescope(["report", s(&i.capture), "--format", "parquet", "-o", s(&out), "--html", s(&out)]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("name the same file"), "{}", run.stderr);
    assert!(!out.exists());
}

/// An output that is no input is written whole, through a temporary file renamed into
/// place (none is left), replacing an older file of that name. (A failed write leaves
/// the old file: `framescope_core::output`'s unit tests.)
#[test]
fn outputs_are_written_whole_or_not_at_all() {
    let i = Inputs::new("outputs-whole");
    let page = i.dir.0.join("page.html");
    std::fs::write(&page, "old page").expect("write");
    let run = framescope(["report", s(&i.capture), "--html", s(&page)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(html.starts_with("<!doctype html>") && html.trim_end().ends_with("</html>"), "a whole page");
    let table = i.dir.0.join("frames.csv");
    let run = framescope(["frames", s(&i.capture), "-o", s(&table)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(std::fs::read_to_string(&table).expect("csv").lines().count() > 100);
    i.unchanged("written outputs");
}
