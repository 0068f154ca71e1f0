//! A bounded mutation fuzz of the readers of compressed and structured input (issue
//! 34): .etl files (compressed buffers whose matches expand, buffers repeated,
//! size fields and bits changed), gzip captures (members repeated or expanding, bytes
//! flipped, cut short) and CapFrameX JSON (lines and bytes mangled, arrays grown,
//! plain and in gzip), from fixed seeds. Every input is read or refused with a message
//! naming the file, and each stays within its own budget: 100 MiB + 2 × its size of
//! this process's peak memory, and a couple of seconds.

use crate::budget::{PRESENTMON_HEADER, etl_bomb, gzip, presentmon_rows};
use crate::common::TempDir;
use crate::common::etl_writer::{self, Event, Kind};
use crate::common::mangle::{XorShift, mangle};
use crate::measure::{MIB, measured};
use framescope_core::ingest::load_marker_log;
use framescope_core::ingest::{LoadOptions, Progress, load_file};
use framescope_core::testing as etl;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// Time an input of `size` bytes may take in a debug build on a busy machine: 5 s, and
/// 5 s more a MiB (a MiB of gzip may hold 32 MiB of text); three times that under Wine
/// (the Windows run of `.ci/windows.sh`). Unbounded, the bombs took minutes.
fn time_budget(size: usize) -> Duration {
    let secs = 5.0 + 5.0 * size as f64 / MIB as f64;
    Duration::from_secs_f64(if cfg!(windows) { 3.0 * secs } else { secs })
}

/// What went wrong with the inputs, one line each.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    /// Checks one input: `read` is what the readers said (an error message each, or
    /// nothing when they read it).
    fn check(&mut self, name: &str, path: &Path, size: usize, read: impl FnOnce() -> Vec<String>) -> bool {
        let m = measured(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)));
        let bound = 100 * MIB + 2 * size as u64;
        if std::env::var_os("FRAMESCOPE_FUZZ_VERBOSE").is_some() {
            eprintln!(
                "{name}: {size} bytes, {m}, {:?}",
                m.value.as_ref().map(|e| e.first().map(|e| e.chars().take(150).collect::<String>()))
            );
        }
        match &m.value {
            Err(_) => self.0.push(format!("{name}: panicked")),
            Ok(errors) => {
                for e in errors.iter().filter(|e| !e.starts_with(&path.display().to_string())) {
                    self.0.push(format!("{name}: the error does not name the file: {e}"));
                }
            }
        }
        if m.peak.is_some_and(|p| p > bound) {
            self.0.push(format!("{name}: {size} bytes: {m} over {} MiB", bound / MIB));
        }
        if m.took > time_budget(size) {
            self.0.push(format!("{name}: {size} bytes: {m}"));
        }
        m.value.is_ok_and(|e| e.is_empty())
    }
}

/// The errors of loading a capture.
fn load(path: &Path) -> Vec<String> {
    load_file(path, LoadOptions::default(), &Progress::default())
        .err()
        .map(|e| e.to_string())
        .into_iter()
        .collect()
}

/// The errors of reading an .etl as `--pcl` and `report FILE.etl` do.
fn read_etl(path: &Path) -> Vec<String> {
    let log = load_marker_log(path, 1e7).err();
    let summary = etl::summarize(path).err();
    // A file without markers is an answer, not a failure: only refusals of the file count.
    let log = log.filter(|e| !e.to_string().contains("no PCL Stats markers"));
    [log, summary].into_iter().flatten().map(|e| e.to_string()).collect()
}

/// Offsets of the compressed buffers' headers in a file of `header` bytes then
/// buffers.
fn buffer_offsets(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 72 <= bytes.len() {
        out.push(at);
        let size = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if size < 72 {
            break;
        }
        at += size;
    }
    out
}

/// One mutation of an .etl: a buffer repeated many times, a stated filled length or a
/// match length set large, bits flipped, or the file cut.
fn mutate_etl(original: &[u8], rng: &mut XorShift) -> (Vec<u8>, String) {
    let buffers = buffer_offsets(original);
    let mut b = original.to_vec();
    let pick = |rng: &mut XorShift| buffers[1 + rng.below(buffers.len() - 1)];
    match rng.below(5) {
        0 => {
            let at = pick(rng);
            let size = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
            let copies = 1 + rng.below(400);
            let buffer = b[at..at + size].to_vec();
            for _ in 0..copies {
                b.extend_from_slice(&buffer);
            }
            (b, format!("buffer at {at} repeated {copies} times"))
        }
        1 => {
            let at = pick(rng);
            let filled = [0u32, 71, 72, 1 << 20, 16 << 20, 63 << 20, 64 << 20, (64 << 20) + 1, u32::MAX];
            let v = filled[rng.below(filled.len())];
            b[at + 0x30..at + 0x34].copy_from_slice(&v.to_le_bytes());
            (b, format!("filled of buffer at {at} set to {v}"))
        }
        2 => {
            // The 32-bit length of a match (the last 4 bytes of a repeating buffer), or
            // any 4 bytes of a buffer's data.
            let at = pick(rng);
            let size = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
            let end = if rng.below(2) == 0 { at + size - 4 } else { at + 72 + rng.below(size - 75) };
            let v = [25u32, 1 << 20, 63 << 20, 1 << 30, u32::MAX, rng.next() as u32][rng.below(6)];
            b[end..end + 4].copy_from_slice(&v.to_le_bytes());
            (b, format!("4 bytes at {end} set to {v}"))
        }
        3 => flip_bits(b, rng),
        _ => truncate(b, rng),
    }
}

#[test]
fn mutated_compressed_etl_files_stay_within_their_budget() {
    const INPUTS: u64 = 80;
    let _serial = crate::serial();
    let dir = TempDir::new("fuzz_etl");
    let path = dir.0.join("mutated.etl");
    let unit: Vec<u8> = [Kind::Marker { marker: 0, frame: 1 }, Kind::Input]
        .iter()
        .flat_map(|&kind| etl_writer::event_record(&Event { ticks: 9, cpu: 0, pid: 7, kind }))
        .collect();
    // Four buffers of 256 KiB of markers each, and two of 6 MiB of small perfinfo
    // records (cheap to walk), 12 of the 16 MiB a small file may expand to.
    let mut perfinfo = vec![2, 0, 0x11, 0xC0, 24, 0, 0x0A, 0x14];
    perfinfo.extend_from_slice(&7u64.to_le_bytes());
    perfinfo.extend_from_slice(&[1; 8]);
    let originals = [etl_bomb(&unit, 4, 256 << 10), etl_bomb(&perfinfo, 2, 6 << 20)];
    let mut failures = Failures::default();
    let mut read = 0;
    for (k, original) in originals.iter().enumerate() {
        for seed in 0..INPUTS / 2 {
            let mut rng = XorShift::new(seed * 31 + k as u64 + 1);
            let (bytes, what) = mutate_etl(original, &mut rng);
            std::fs::write(&path, &bytes).unwrap();
            let name = format!("etl {k} seed {seed} ({what})");
            read += u32::from(failures.check(&name, &path, bytes.len(), || read_etl(&path)));
        }
    }
    eprintln!("{INPUTS} mutated compressed .etl files: {read} read");
    assert!(failures.0.is_empty(), "{}", failures.0.join("\n"));
    assert!(read > 0, "some are read");
}

/// A CapFrameX JSON document of two runs of `frames` frames with sensors, one value a
/// line (so that line mangling changes values, not only the document's shape).
fn capframex_json(frames: usize) -> String {
    let mut rng = XorShift::new(7);
    let column = |rng: &mut XorShift, n: usize, base: f64| -> String {
        let values: Vec<String> =
            (0..n).map(|_| format!("{:.3}", base + rng.below(500) as f64 / 100.0)).collect();
        format!("[\n{}\n]", values.join(",\n"))
    };
    let mut s = String::from(
        "{\n\"Info\": {\"ProcessName\": \"game.exe\", \"AppVersion\": \"1.7.1\"},\n\"Runs\": [\n",
    );
    for run in 0..2 {
        let mut t = 0.0;
        let times: Vec<String> = (0..frames)
            .map(|i| {
                t += 0.0166 + (i % 5) as f64 * 0.001;
                format!("{t:.5}")
            })
            .collect();
        let sensor_times: Vec<String> = (0..=frames / 50).map(|i| format!("{}", i as f64 * 0.8)).collect();
        let _ = write!(
            s,
            "{}{{\"CaptureData\": {{\n\"TimeInSeconds\": [\n{}\n],\n\"MsBetweenPresents\": {},\n\
             \"MsUntilDisplayed\": {},\n\"Dropped\": [{}]\n}},\n\"PresentMonRuntime\": \"DXGI\",\n\
             \"SensorData2\": {{\n\"MeasureTime\": {{\"Values\": [{}]}},\n\
             \"/gpu/0/load/0\": {{\"Name\": \"GPU Core\", \"Type\": \"Load\", \"Values\": {}}}\n}}\n}}\n",
            if run > 0 { "," } else { "" },
            times.join(",\n"),
            column(&mut rng, frames, 14.0),
            column(&mut rng, frames, 20.0),
            vec!["false"; frames].join(","),
            sensor_times.join(","),
            column(&mut rng, sensor_times.len(), 50.0)
        );
    }
    s.push_str("]\n}\n");
    s
}

/// One mutation of a JSON document: the line and byte mangling of the CSV tests, an
/// array's values repeated, a value made extreme or the nesting made deep.
fn mutate_json(original: &[u8], rng: &mut XorShift) -> (Vec<u8>, String) {
    match rng.below(4) {
        0 => {
            // Repeat the values of the first array of a random key many times.
            let text = String::from_utf8_lossy(original).into_owned();
            let keys = ["\"TimeInSeconds\": [", "\"MsBetweenPresents\": [", "\"Values\": ["];
            let key = keys[rng.below(keys.len())];
            let Some(open) = text.find(key).map(|i| i + key.len()) else {
                return (original.to_vec(), "none".into());
            };
            let close = open + text[open..].find(']').unwrap_or(0);
            let values = text[open..close].trim().to_owned();
            let copies = 1 + rng.below(60);
            let grown = vec![values.as_str(); copies + 1].join(",");
            (format!("{}{grown}{}", &text[..open], &text[close..]).into_bytes(), format!("{key} × {copies}"))
        }
        1 => {
            let text = String::from_utf8_lossy(original).into_owned();
            let extreme =
                ["1e308", "-1e308", "null", "\"x\"", "{}", "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]", "1e999"];
            let v = extreme[rng.below(extreme.len())];
            let lines: Vec<&str> = text.lines().collect();
            let at = rng.below(lines.len());
            let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
            if out[at].trim_end_matches(',').parse::<f64>().is_ok() {
                out[at] = format!("{v}{}", if out[at].ends_with(',') { "," } else { "" });
            }
            (out.join("\n").into_bytes(), format!("line {} set to {v}", at + 1))
        }
        2 => {
            let depth = 1 + rng.below(100_000);
            let mut out = original[..original.len() - 3].to_vec();
            out.extend_from_slice(b",\"Deep\": ");
            out.extend(std::iter::repeat_n(b'[', depth));
            out.extend(std::iter::repeat_n(b']', depth));
            out.extend_from_slice(b"}\n");
            (out, format!("nesting {depth} deep"))
        }
        _ => mangle(original, rng),
    }
}

/// `json` with every array of values repeated a thousand times or more (400 frames
/// become 400 000 and more: tens of MB of text in a few hundred KB), one value a line or
/// all on one line, written to `path` as gzip members (a run of 50 repeats compressed
/// once, its member repeated), so the test holds no big text and this process's peak
/// is the reader's. Returns the file's size.
fn grown_json_gz(json: &[u8], rng: &mut XorShift, path: &Path) -> (usize, String) {
    use std::io::Write as _;
    const RUN: usize = 50;
    let reps = 20 + rng.below(80);
    let one_line = rng.below(2) == 0;
    let sep = if one_line { "," } else { ",\n" };
    let text = String::from_utf8_lossy(json);
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    // The arrays of values, not `Runs` (whose `[` ends its line too).
    let runs = text.find("\"Runs\": [\n").map_or(0, |i| i + 11);
    let mut head = text[..runs].to_owned();
    let mut rest: &str = &text[runs..];
    while let Some(open) = rest.find("[\n") {
        let Some(close) = rest[open..].find("\n]").map(|c| open + c) else { break };
        let values = rest[open + 2..close].to_owned();
        let values = if one_line { values.replace('\n', "") } else { values };
        head.push_str(&rest[..open + 2]);
        head.push_str(&values);
        file.write_all(&gzip(head.as_bytes())).unwrap();
        head.clear();
        let run = gzip(format!("{sep}{values}").repeat(RUN).as_bytes());
        (0..reps).for_each(|_| file.write_all(&run).unwrap());
        rest = &rest[close..];
    }
    head.push_str(rest);
    file.write_all(&gzip(head.as_bytes())).unwrap();
    let size = file.into_inner().unwrap().metadata().unwrap().len() as usize;
    (size, format!("arrays × {}{}", 1 + reps * RUN, if one_line { ", on one line" } else { "" }))
}

#[test]
fn mutated_capframex_json_stays_within_its_budget() {
    const INPUTS: u64 = 128;
    let _serial = crate::serial();
    let dir = TempDir::new("fuzz_json");
    let original = capframex_json(400);
    let plain = dir.0.join("mutated.json");
    let packed = dir.0.join("mutated.json.gz");
    let mut failures = Failures::default();
    let mut read = 0;
    for seed in 0..INPUTS {
        let mut rng = XorShift::new(seed + 1000);
        let (bytes, what) = mutate_json(original.as_bytes(), &mut rng);
        // Every fourth in gzip, every sixteenth grown hundreds of times first (a bomb).
        let (path, size, what) = if seed % 16 == 7 {
            let (size, grown) = grown_json_gz(&bytes, &mut rng, &packed);
            (&packed, size, format!("{what}; {grown}"))
        } else {
            let (path, bytes) = if seed % 4 == 3 { (&packed, gzip(&bytes)) } else { (&plain, bytes) };
            std::fs::write(path, &bytes).unwrap();
            (path, bytes.len(), what)
        };
        read += u32::from(failures.check(&format!("json seed {seed} ({what})"), path, size, || load(path)));
    }
    eprintln!("{INPUTS} mutated CapFrameX JSON files: {read} read");
    assert!(failures.0.is_empty(), "{}", failures.0.join("\n"));
    assert!(read > INPUTS as u32 / 4, "most keep readable runs: {read}");
}

/// One mutation of a gzip file made of `members`: one repeated many times, one that
/// expands far (50 000 rows, 3.4 MB, in a few KB) added, bytes flipped or the file cut.
fn mutate_gzip(members: &[Vec<u8>], bomb: &[u8], rng: &mut XorShift) -> (Vec<u8>, String) {
    let mut b: Vec<u8> = members.concat();
    match rng.below(4) {
        0 => {
            let k = rng.below(members.len());
            let copies = 1 + rng.below(800);
            (0..copies).for_each(|_| b.extend_from_slice(&members[k]));
            (b, format!("member {k} repeated {copies} times"))
        }
        1 => {
            let copies = 1 + rng.below(8);
            (0..copies).for_each(|_| b.extend_from_slice(bomb));
            (b, format!("{copies} expanding members added"))
        }
        2 => flip_bits(b, rng),
        _ => truncate(b, rng),
    }
}

#[test]
fn mutated_gzip_captures_stay_within_their_budget() {
    const INPUTS: u64 = 40;
    let _serial = crate::serial();
    let dir = TempDir::new("fuzz_gzip");
    let path = dir.0.join("mutated.csv.gz");
    let members = [gzip(PRESENTMON_HEADER.as_bytes()), gzip(presentmon_rows(2000).as_bytes())];
    let bomb = gzip(presentmon_rows(50_000).as_bytes());
    let mut failures = Failures::default();
    let mut read = 0;
    for seed in 0..INPUTS {
        let mut rng = XorShift::new(seed + 5000);
        let (bytes, what) = mutate_gzip(&members, &bomb, &mut rng);
        std::fs::write(&path, &bytes).unwrap();
        read += u32::from(
            failures.check(&format!("gzip seed {seed} ({what})"), &path, bytes.len(), || load(&path)),
        );
    }
    eprintln!("{INPUTS} mutated gzip captures: {read} read");
    assert!(failures.0.is_empty(), "{}", failures.0.join("\n"));
    assert!(read > INPUTS as u32 / 5, "many are read: {read}");
}

/// 1–8 random bits of `b` flipped (the mutation both fuzzers share).
fn flip_bits(mut b: Vec<u8>, rng: &mut XorShift) -> (Vec<u8>, String) {
    let flips = 1 + rng.below(8);
    for _ in 0..flips {
        let i = rng.below(b.len());
        b[i] ^= 1 << rng.below(8);
    }
    (b, format!("{flips} bits flipped"))
}

/// `b` cut at a random length.
fn truncate(mut b: Vec<u8>, rng: &mut XorShift) -> (Vec<u8>, String) {
    let n = rng.below(b.len());
    b.truncate(n);
    (b, format!("truncated to {n}"))
}
