use super::*;

fn report(scene: &str, detail: &str) -> CiReport {
    CiReport {
        title: "framescope history check: build <1>".into(),
        suites: vec![CiSuite {
            name: scene.into(),
            cases: vec![
                CiCase { name: "summary.avg_fps".into(), detail: detail.into(), outcome: CiOutcome::Failed },
                CiCase { name: "summary.p99_ms".into(), detail: "same".into(), outcome: CiOutcome::Passed },
                CiCase { name: "pacing.x".into(), detail: "not judged".into(), outcome: CiOutcome::Skipped },
            ],
            notes: vec!["2 earlier builds".into()],
        }],
    }
}

#[test]
fn escapes_for_each_destination() {
    assert_eq!(xml("a<b>&\"c'\n\u{1}"), "a&lt;b&gt;&amp;&quot;c&apos;&#10;\u{FFFD}");
    assert_eq!(gh_data("50%\r\nx:y,z"), "50%25%0D%0Ax:y,z");
    assert_eq!(gh_property("50%\r\nx:y,z"), "50%25%0D%0Ax%3Ay%2Cz");
    assert_eq!(markdown("a|b <i>@me\n*x*"), "a\\|b &lt;i&gt;&#64;me \\*x\\*");
}

#[test]
fn junit_counts_and_hostile_names() {
    let x = report("</testsuite><x a=\"", "90 -> 80 & worse").junit();
    assert!(x.contains("<testsuites name=\"framescope history check: build &lt;1&gt;\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), "{x}");
    assert!(x.contains("<testsuite name=\"&lt;/testsuite&gt;&lt;x a=&quot;\" id=\"0\""), "{x}");
    assert!(x.contains("<failure message=\"90 -&gt; 80 &amp; worse\" type=\"regression\">"), "{x}");
    assert_eq!(x.matches("<testcase ").count(), 3);
    assert_eq!(x.matches("</testcase>").count(), 3);
}

#[test]
fn github_lines_cannot_be_broken_by_names() {
    let g = report("evil\n::error::pwned,x:y", "line1\nline2 100%").github();
    let lines: Vec<&str> = g.lines().collect();
    assert_eq!(lines.len(), 2, "{g}");
    assert_eq!(
        lines[0],
        "::error title=framescope%3A summary.avg_fps regressed in evil%0A%3A%3Aerror%3A%3Apwned%2Cx%3Ay::line1%0Aline2 100%25"
    );
    assert!(lines[1].starts_with("::warning title=framescope%3A evil%0A"), "{}", lines[1]);
    let md = report("s", "d").markdown();
    assert!(md.starts_with("### framescope history check: build &lt;1&gt;\n\n**1 regression** in 3 figures of 1 scene (1 not judged)."), "{md}");
}
