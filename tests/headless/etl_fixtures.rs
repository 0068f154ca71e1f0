//! The .etl reader against the real fixtures in `../shared/real-traces/etl`: every file
//! is read, and its records per header kind and per provider, and its TraceLogging
//! field values, equal those of an independent reader, `etl-parser` (PyPI,
//! Apache-2.0), run through `tests/etl/etl_counts.py`. etl-parser cannot read
//! compressed buffers: for those two files the counts are the ones `SOURCES.md` gives
//! (observed with `dissect.etl`), and their TraceLogging event is checked by hand.
// A test fails by panicking: expect() with a message is the clearest way to say why.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::etl_parser::{etl_parser_python, theirs};

use framescope_core::testing::{self as etl, EXT_SCHEMA_TL, RecordKind, Schema, Value};
use serde_json::{Value as Json, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Counts and TraceLogging events of one file, keyed as `etl_counts.py` keys them.
#[derive(Debug, Default)]
struct Counts {
    kinds: BTreeMap<String, u64>,
    providers: BTreeMap<String, u64>,
    tracelogging: Vec<Json>,
}

fn tl_json(v: &Value) -> Json {
    match v {
        Value::I64(x) => json!(x),
        Value::U64(x) => json!(x),
        Value::F64(x) => json!(x),
        Value::Bool(b) => json!(b),
        Value::Str(s) => json!(s),
        Value::Bytes(b) => json!(b),
        Value::Guid(g) => json!(g.to_string()),
        Value::SystemTime(t) => json!(t),
        Value::Array(a) => Json::Array(a.iter().map(tl_json).collect()),
        Value::Struct(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), tl_json(v))).collect()),
    }
}

fn ours(path: &Path) -> Counts {
    let mut c = Counts::default();
    etl::read(path, |_, r| {
        let kind = match r.kind {
            // etl-parser folds compact system headers into system ones.
            RecordKind::Compact => "system",
            k => k.name(),
        };
        *c.kinds.entry(kind.to_owned()).or_default() += 1;
        let key = match (r.provider, r.hook) {
            (Some(g), _) => g.to_string(),
            (None, Some((group, _))) => format!("group:{group}"),
            (None, None) => "none".to_owned(),
        };
        *c.providers.entry(key).or_default() += 1;
        if let Some((_, meta)) = r.extended.iter().find(|(t, _)| *t == EXT_SCHEMA_TL) {
            let provider = r.provider.map(|g| g.to_string()).unwrap_or_default();
            let decoded = Schema::parse(meta).and_then(|s| s.decode(r.payload, 8).map(|f| (s.name, f)));
            c.tracelogging.push(match decoded {
                Ok((name, fields)) => {
                    let fields: serde_json::Map<String, Json> =
                        fields.iter().map(|(k, v)| (k.clone(), tl_json(v))).collect();
                    json!({ "provider": provider, "name": name, "fields": fields })
                }
                Err(e) => json!({ "provider": provider, "error": e }),
            });
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    c
}

fn fixtures() -> Option<Vec<PathBuf>> {
    let dir = common::real_traces()?.join("etl");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the etl fixtures folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "etl"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 7, "the 7 fixtures of SOURCES.md");
    Some(files)
}

fn counts_json(m: &BTreeMap<String, u64>) -> Json {
    Json::Object(m.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
}

/// Records per kind and per provider equal etl-parser's on every file it reads; the
/// compressed ones (which it cannot read) equal the counts in SOURCES.md.
#[test]
fn every_fixture_is_read_as_etl_parser_reads_it() {
    let Some(files) = fixtures() else { return };
    let Some(python) = etl_parser_python() else { return };
    let theirs = theirs(&python, &files);
    let mut compared = 0;
    for f in &files {
        let c = ours(f);
        let t = &theirs[f.to_string_lossy().as_ref()];
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if t["ok"] == json!(true) {
            assert_eq!(counts_json(&c.kinds), t["kinds"], "{name}: records per kind");
            assert_eq!(counts_json(&c.providers), t["providers"], "{name}: records per provider");
            compared += 1;
            continue;
        }
        // SOURCES.md: the compressed files, as dissect.etl reads them.
        let expected = match name.as_str() {
            "perfview_SelfDescribingSingleEvent.etl" => json!({ "system": 4, "full": 18, "event": 1 }),
            "perfview_net.4.5.2.x64.etl" => {
                assert_eq!(
                    c.providers["{BBCCF6C1-6CD1-48C4-80FF-839482E37671}"], 85,
                    "EventMetadata records"
                );
                json!({ "system": 3191, "perfinfo": 100_157, "full": 7983, "event": 68143 })
            }
            _ => panic!("etl-parser cannot read {name}: {}", t["error"]),
        };
        assert_eq!(counts_json(&c.kinds), expected, "{name}: records per kind (SOURCES.md)");
    }
    assert_eq!(compared, 5, "etl-parser reads the 5 uncompressed fixtures");
}

/// Every TraceLogging event etl-parser decodes has the same name and field values
/// here; the events it cannot decode (FILETIME, structs) are checked by hand.
#[test]
fn tracelogging_fields_equal_etl_parsers() {
    let Some(files) = fixtures() else { return };
    let Some(python) = etl_parser_python() else { return };
    let theirs = theirs(&python, &files);
    let mut compared = 0;
    for f in &files {
        let c = ours(f);
        let t = &theirs[f.to_string_lossy().as_ref()];
        assert!(
            c.tracelogging.iter().all(|e| e.get("error").is_none()),
            "{}: {:?}",
            f.display(),
            c.tracelogging
        );
        let Some(events) = t["tracelogging"].as_array() else { continue };
        assert_eq!(events.len(), c.tracelogging.len(), "{}: TraceLogging events", f.display());
        for (mine, theirs) in c.tracelogging.iter().zip(events) {
            assert_eq!(mine["provider"], theirs["provider"]);
            if theirs.get("error").is_some() {
                continue;
            }
            assert_eq!(mine["name"], theirs["name"]);
            let mut theirs = theirs["fields"].clone();
            // etl-parser reads a counted ANSI string's u16 length as one byte and keeps
            // the other: its value starts with a NUL that is not in the data.
            if let Some(Json::String(s)) = theirs.get_mut("ExecutablePath") {
                *s = s.trim_start_matches('\0').to_owned();
            }
            assert_eq!(mine["fields"], theirs, "{}", f.display());
            compared += 1;
        }
    }
    assert_eq!(compared, 2 + 19, "lxcore's 2 and AMSI's 19 events");
    // By hand (SOURCES.md): the struct etl-parser cannot decode, and FILETIME.
    let dir = files[0].parent().unwrap();
    let single = ours(&dir.join("perfview_SelfDescribingSingleEvent.etl"));
    assert_eq!(single.tracelogging[0]["fields"], json!({ "a": { "b": "Hello", "c": "World!" } }));
    assert_eq!(single.tracelogging[0]["name"], "TestEvent");
    let prim = ours(&dir.join("perfview_primitive-types.etl"));
    assert_eq!(prim.tracelogging.len(), 5);
    let first = &prim.tracelogging[0]["fields"];
    assert_eq!((first["string_type"].as_str(), first["int16_type"].as_i64()), (Some("Mercury"), Some(-51)));
    // SYSTEMTIME fields in order: year, month, day of week, day, hour, minute, second, ms.
    assert_eq!(first["system_time_type"], json!([2021, 9, 4, 9, 14, 59, 35, 799]));
}

/// The summary of a fixture: header, clock, time span and providers.
#[test]
fn summary_of_a_fixture() {
    let Some(files) = fixtures() else { return };
    let dir = files[0].parent().unwrap();
    let s = etl::summarize(&dir.join("perfview_net.4.5.2.x64.etl")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.clock, s.clock_hz, s.pointer_size), ("QPC", 10_000_000.0, 8));
    assert_eq!(s.records, 179_474);
    assert_eq!(s.compressed_buffers, s.buffers - 1, "every buffer but the header one is compressed");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert!(s.pcl.is_none());
    let image = s.providers.iter().find(|p| p.kernel_group == Some(0x14)).expect("kernel image events");
    assert_eq!((image.name.as_deref(), image.events), (Some("Kernel Image"), 3563));
    let lx = etl::summarize(&dir.join("airbus_lxcore_kernel.etl")).unwrap_or_else(|e| panic!("{e}"));
    let p = lx.providers.iter().find(|p| p.guid.as_deref() == Some("{0CD1C309-0878-4515-83DB-749843B3F5C9}"));
    let p = p.expect("the LxCore provider");
    assert_eq!(p.name.as_deref(), Some("Microsoft.Windows.Subsystem.LxCore"));
    assert_eq!(p.event_names.get("BreakPoint"), Some(&2));
}
