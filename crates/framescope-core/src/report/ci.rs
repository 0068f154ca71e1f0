//! A verdict as continuous integration reads it (`cli-report.md`, "History and CI
//! outputs"): JUnit XML (a `testsuite` per scene, a `testcase` per gated figure, a
//! `failure` per regression), GitHub workflow commands (`::error` / `::warning`) and a
//! Markdown summary. Every text from a file (scene, build, application names) is
//! escaped for where it goes: XML, a workflow command's properties and data, Markdown.

use super::gate::{Gate, GateOutcome};
use std::fmt::Write as _;

/// What a CI reads of one verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CiReport {
    /// What was judged ("framescope history check: build 1.4.2").
    pub title: String,
    /// One per scene.
    pub suites: Vec<CiSuite>,
}

/// One scene's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CiSuite {
    /// The scene.
    pub name: String,
    /// One per gated figure.
    pub cases: Vec<CiCase>,
    /// Things to warn about that are no figure's failure ("not judged: 2 earlier builds").
    pub notes: Vec<String>,
}

/// One figure's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CiCase {
    /// The figure's path (`summary.avg_fps`).
    pub name: String,
    /// What happened, in words (values, threshold).
    pub detail: String,
    /// Passed, failed or skipped.
    pub outcome: CiOutcome,
}

/// A test case's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CiOutcome {
    /// Within its limit.
    Passed,
    /// A regression.
    Failed,
    /// Not judged.
    Skipped,
}

impl CiReport {
    fn count(&self, outcome: Option<CiOutcome>) -> usize {
        let cases = self.suites.iter().flat_map(|s| &s.cases);
        cases.filter(|c| outcome.is_none_or(|o| c.outcome == o)).count()
    }

    /// Test cases that failed.
    #[must_use]
    pub fn failures(&self) -> usize {
        self.count(Some(CiOutcome::Failed))
    }

    /// The JUnit XML document (the schema Jenkins and GitLab read).
    #[must_use]
    pub fn junit(&self) -> String {
        let totals = |cases: &mut dyn Iterator<Item = &CiCase>| {
            let (mut n, mut f, mut s) = (0, 0, 0);
            for c in cases {
                n += 1;
                f += usize::from(c.outcome == CiOutcome::Failed);
                s += usize::from(c.outcome == CiOutcome::Skipped);
            }
            format!("tests=\"{n}\" failures=\"{f}\" errors=\"0\" skipped=\"{s}\"")
        };
        let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let all = totals(&mut self.suites.iter().flat_map(|s| &s.cases));
        let _ = writeln!(x, "<testsuites name=\"{}\" {all} time=\"0\">", xml(&self.title));
        for (id, suite) in self.suites.iter().enumerate() {
            let counts = totals(&mut suite.cases.iter());
            let name = xml(&suite.name);
            let _ = writeln!(x, "  <testsuite name=\"{name}\" id=\"{id}\" {counts} time=\"0\">");
            for c in &suite.cases {
                let _ = write!(x, "    <testcase name=\"{}\" classname=\"{name}\" time=\"0\"", xml(&c.name));
                let detail = xml(&c.detail);
                match c.outcome {
                    CiOutcome::Passed => {
                        let _ = writeln!(x, ">\n      <system-out>{detail}</system-out>\n    </testcase>");
                    }
                    CiOutcome::Failed => {
                        let _ = writeln!(
                            x,
                            ">\n      <failure message=\"{detail}\" type=\"regression\">{detail}</failure>\n    </testcase>"
                        );
                    }
                    CiOutcome::Skipped => {
                        let _ = writeln!(x, ">\n      <skipped message=\"{detail}\"/>\n    </testcase>");
                    }
                }
            }
            for n in &suite.notes {
                let _ = writeln!(x, "    <system-err>{}</system-err>", xml(n));
            }
            x.push_str("  </testsuite>\n");
        }
        x.push_str("</testsuites>\n");
        x
    }

    /// GitHub workflow commands, one a line: `::error` per failure, `::warning` per note.
    #[must_use]
    pub fn github(&self) -> String {
        let mut out = String::new();
        for s in &self.suites {
            for c in s.cases.iter().filter(|c| c.outcome == CiOutcome::Failed) {
                let title = format!("framescope: {} regressed in {}", c.name, s.name);
                let _ = writeln!(out, "::error title={}::{}", gh_property(&title), gh_data(&c.detail));
            }
            for n in &s.notes {
                let title = format!("framescope: {}", s.name);
                let _ = writeln!(out, "::warning title={}::{}", gh_property(&title), gh_data(n));
            }
        }
        out
    }

    /// A Markdown summary: a line of totals, then per scene a table of its failed and
    /// skipped figures (passed ones are counted, not listed).
    #[must_use]
    pub fn markdown(&self) -> String {
        let failed = self.failures();
        let mut md = format!("### {}\n\n", markdown(&self.title));
        let _ = writeln!(
            md,
            "{} in {} figure{} of {} scene{} ({} not judged).\n",
            if failed == 0 {
                "No regression".to_owned()
            } else {
                format!("**{failed} regression{}**", plural(failed))
            },
            self.count(None),
            plural(self.count(None)),
            self.suites.len(),
            plural(self.suites.len()),
            self.count(Some(CiOutcome::Skipped)),
        );
        for s in &self.suites {
            let listed: Vec<&CiCase> = s.cases.iter().filter(|c| c.outcome == CiOutcome::Failed).collect();
            let _ = writeln!(md, "#### {}\n", markdown(&s.name));
            for n in &s.notes {
                let _ = writeln!(md, "> {}\n", markdown(n));
            }
            if listed.is_empty() {
                let _ = writeln!(md, "{} figures, no regression.\n", s.cases.len());
                continue;
            }
            md.push_str("| Figure | Result |\n|---|---|\n");
            for c in listed {
                let _ = writeln!(md, "| `{}` | ❌ {} |", c.name.replace('`', "'"), markdown(&c.detail));
            }
            md.push('\n');
        }
        md
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The CI report of `compare --fail-if-worse`: one suite (`scene`), a case per rule.
#[must_use]
pub fn gate_report(title: &str, scene: &str, gate: &Gate, outcome: &GateOutcome) -> CiReport {
    let cases = gate
        .rules
        .iter()
        .map(|rule| {
            let name = rule.figure.qualified_name();
            let regression = outcome.regressions.iter().find(|r| r.figure == name);
            let missing = outcome.not_comparable.iter().find(|n| n.figure == name);
            let (outcome, detail) = match (regression, missing) {
                (Some(r), _) => (
                    CiOutcome::Failed,
                    format!("{name} got worse: {} -> {}; limit {}", r.baseline, r.other, r.limit),
                ),
                (None, Some(n)) if n.fails => {
                    (CiOutcome::Failed, format!("{name} is missing in the {} run", n.missing))
                }
                (None, Some(n)) => {
                    (CiOutcome::Skipped, format!("{name} is not comparable (missing in {})", n.missing))
                }
                (None, None) => (CiOutcome::Passed, format!("{name} within its limit {}", rule.limit)),
            };
            CiCase { name, detail, outcome }
        })
        .collect();
    CiReport {
        title: title.to_owned(),
        suites: vec![CiSuite { name: scene.to_owned(), cases, notes: Vec::new() }],
    }
}

/// Text for XML content and attribute values: the five markup characters as
/// entities, line breaks and tabs as character references (kept in attributes), and
/// characters XML 1.0 cannot hold as U+FFFD.
#[must_use]
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A workflow command's data (GitHub's `escapeData`): `%`, CR and LF.
#[must_use]
pub fn gh_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value (GitHub's `escapeProperty`): also `:` and `,`.
#[must_use]
pub fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Text inside a Markdown line or table cell: markup characters backslash-escaped, HTML
/// and `@` mentions as entities, line breaks as spaces.
#[must_use]
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' => out.push_str("&#64;"),
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(scene: &str, detail: &str) -> CiReport {
        CiReport {
            title: "framescope history check: build <1>".into(),
            suites: vec![CiSuite {
                name: scene.into(),
                cases: vec![
                    CiCase {
                        name: "summary.avg_fps".into(),
                        detail: detail.into(),
                        outcome: CiOutcome::Failed,
                    },
                    CiCase {
                        name: "summary.p99_ms".into(),
                        detail: "same".into(),
                        outcome: CiOutcome::Passed,
                    },
                    CiCase {
                        name: "pacing.x".into(),
                        detail: "not judged".into(),
                        outcome: CiOutcome::Skipped,
                    },
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
}
