//! The `comparison` object of `cli-report.md`: `{section: {name: value}}`, the peer
//! tools' sections nested under `conventions`, and the telemetry means.

use super::{Comparison, Entry, Figure, Section, TelemetryRow};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

impl Serialize for Comparison {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Telemetry<'a>(&'a [TelemetryRow]);
        impl Serialize for Telemetry<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for row in self.0 {
                    map.serialize_entry(&row.column, &row.entry)?;
                }
                map.end()
            }
        }
        let cells: Vec<(&'static Figure, Option<Entry>)> =
            self.rows.iter().map(|r| (r.figure, r.entry)).collect();
        let mut map = serializer.serialize_map(None)?;
        BySection(&cells).entries(&mut map)?;
        map.serialize_entry("telemetry", &Telemetry(&self.telemetry))?;
        map.end()
    }
}

/// One value per figure, serialized as `comparison` is: `{section: {name: value}}`, the
/// peer tools' sections nested under `conventions`. Figures absent from the list are
/// left out; the sets report uses it for means and standard deviations too.
pub struct BySection<'a, T>(pub &'a [(&'static Figure, T)]);

impl<T: Serialize> Serialize for BySection<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.entries(&mut map)?;
        map.end()
    }
}

impl<T: Serialize> BySection<'_, T> {
    /// Writes the sections (and `conventions`) into `map`.
    fn entries<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        struct SectionView<'a, T>(&'a [(&'static Figure, T)], Section);
        impl<T: Serialize> Serialize for SectionView<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(None)?;
                for (figure, value) in self.0.iter().filter(|(f, _)| f.section == self.1) {
                    map.serialize_entry(figure.name, value)?;
                }
                map.end()
            }
        }
        struct Conventions<'a, T>(&'a [(&'static Figure, T)]);
        impl<T: Serialize> Serialize for Conventions<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(Section::CONVENTIONS.len()))?;
                for section in Section::CONVENTIONS {
                    map.serialize_entry(section.name(), &SectionView(self.0, section))?;
                }
                map.end()
            }
        }
        for section in Section::ALL.into_iter().filter(|s| !s.is_convention()) {
            map.serialize_entry(section.name(), &SectionView(self.0, section))?;
        }
        map.serialize_entry("conventions", &Conventions(self.0))
    }
}
