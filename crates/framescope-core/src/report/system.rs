//! A run's system information (`system` in the report: GPU, CPU, driver, OS, comment…,
//! as the capture states it) and two runs' side by side: reviewers compare hardware.

use crate::model::FileInfo;
use serde::ser::{SerializeMap, Serializer};

/// Facts a reader notes about the file itself, not its system (a generic CSV's
/// `separator`): never part of `system`.
const FILE_FACTS: [&str; 1] = ["separator"];

/// What a file says about its system, name → text in file order: the facts with empty
/// text (and `FILE_FACTS`) left out, names trimmed, and a repeated name (MSI Afterburner's `GPU` per card)
/// numbered: `GPU`, `GPU 2`, ….
#[must_use]
pub fn facts(info: &FileInfo) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, value) in &info.system {
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || value.is_empty() || FILE_FACTS.contains(&name) {
            continue;
        }
        let mut key = name.to_owned();
        let mut n = 1;
        while out.iter().any(|(k, _)| *k == key) {
            n += 1;
            key = format!("{name} {n}");
        }
        out.push((key, value.to_owned()));
    }
    out
}

/// Serializes facts as a JSON object in their order (`{"GPU": "…", "CPU": "…"}`).
///
/// # Errors
/// When the serializer fails.
pub fn serialize<S: Serializer>(facts: &[(String, String)], serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(facts.len()))?;
    for (k, v) in facts {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// One fact of two runs side by side: its name, the baseline's and the other run's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemRow {
    /// The fact's name, as the first run that has it spells it.
    pub name: String,
    /// The baseline's text, if it states the fact.
    pub baseline: Option<String>,
    /// The other run's text, if it states the fact.
    pub other: Option<String>,
}

impl SystemRow {
    /// True when both runs state the fact and the texts differ.
    #[must_use]
    pub fn differs(&self) -> bool {
        self.baseline.is_some() && self.other.is_some() && self.baseline != self.other
    }
}

/// The name under which facts of different writers meet: lower case without spaces or
/// underscores, with the writers' synonyms joined (CapFrameX's `Processor`, FrameView's
/// `CPU` and MangoHud's `cpu` are one fact; so are `SystemRam` / `System RAM` / `ram`,
/// and `GPUDriverVersion` / `driver`).
fn canonical(name: &str) -> String {
    let key: String =
        name.chars().filter(|c| !c.is_whitespace() && *c != '_').flat_map(char::to_lowercase).collect();
    match key.as_str() {
        "processor" => "cpu".into(),
        "systemram" => "ram".into(),
        "gpudriverversion" | "driverversion" => "driver".into(),
        "operatingsystem" => "os".into(),
        _ => key,
    }
}

/// The facts reviewers look at first, for a one-line summary: the GPU and the CPU (any
/// writer's spelling), joined by ` · `; "" when the file names neither.
#[must_use]
pub fn headline(facts: &[(String, String)]) -> String {
    let find = |want: &str| facts.iter().find(|(k, _)| canonical(k) == want).map(|(_, v)| v.as_str());
    [find("gpu"), find("cpu")].into_iter().flatten().collect::<Vec<_>>().join(" · ")
}

/// Every fact either run states: the baseline's in its order, then the other's own
/// (names matched as `canonical` writes them).
#[must_use]
pub fn side_by_side(baseline: &[(String, String)], other: &[(String, String)]) -> Vec<SystemRow> {
    let find = |list: &[(String, String)], name: &str| {
        let want = canonical(name);
        list.iter().find(|(k, _)| canonical(k) == want).map(|(_, v)| v.clone())
    };
    let mut rows: Vec<SystemRow> = baseline
        .iter()
        .map(|(k, v)| SystemRow { name: k.clone(), baseline: Some(v.clone()), other: find(other, k) })
        .collect();
    for (k, v) in other {
        if find(baseline, k).is_none() {
            rows.push(SystemRow { name: k.clone(), baseline: None, other: Some(v.clone()) });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
    }

    #[test]
    fn repeated_names_are_numbered_and_empty_facts_dropped() {
        let info = FileInfo {
            path: "x".into(),
            format: crate::model::Format::Afterburner,
            format_version: String::new(),
            system: pairs(&[
                ("GPU", "RTX 2070"),
                ("GPU", "Intel UHD"),
                (" OS ", " Windows "),
                ("Comment", ""),
                ("separator", "; with decimal commas"),
            ]),
            dropped_known: false,
            target_fps: None,
        };
        assert_eq!(facts(&info), pairs(&[("GPU", "RTX 2070"), ("GPU 2", "Intel UHD"), ("OS", "Windows")]));
        let json = serde_json::to_string(&Wrap(facts(&info))).unwrap_or_default();
        assert_eq!(json, r#"{"GPU":"RTX 2070","GPU 2":"Intel UHD","OS":"Windows"}"#);
    }

    struct Wrap(Vec<(String, String)>);
    impl serde::Serialize for Wrap {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize(&self.0, s)
        }
    }

    #[test]
    fn side_by_side_keeps_the_baselines_order_then_the_others() {
        let a = pairs(&[("GPU", "GTX 1070"), ("CPU", "i5")]);
        let b = pairs(&[("Processor", "i5"), ("GPU", "RTX 4090"), ("OS", "Linux")]);
        let rows = side_by_side(&a, &b);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["GPU", "CPU", "OS"], "CapFrameX's Processor is FrameView's CPU");
        assert!(rows[0].differs() && !rows[1].differs() && !rows[2].differs());
        assert_eq!(headline(&b), "RTX 4090 · i5");
        assert_eq!(headline(&pairs(&[("OS", "Linux")])), "");
        assert_eq!(rows[2].baseline, None);
    }
}
