//! Traces built per block and merged (`parallel.rs`) are the traces one row loop
//! builds: on synthetic captures full of what a merge must set right (interleaved
//! traces, skipped and malformed rows, present modes met in a new order, the 2.0–2.3
//! shifted display column, text and implausible cells, empty runtimes, blank lines)
//! cut into blocks everywhere, and on the real PresentMon captures.

use super::super::records::{Block, Plan, splits_plainly};
use super::super::{LoadOptions, layout, preamble};
use super::file_info;
use super::parallel::build_block;
use super::rows::RowReader;
use super::small::take_block;
use super::split::parse_plan;
use crate::model::Capture;
use std::path::Path;
use std::sync::Arc;

/// A xorshift generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
    fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }
}

const SHIFTED: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,\
    AllowsTearing,PresentMode,FrameType,CPUStartQPC,FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime,GPUBusy,\
    GPUWait,VideoBusy,DisplayLatency,DisplayedTime,AnimationError,AnimationTime,AllInputToPhotonLatency";
const DROPPED: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,\
    PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,\
    MsUntilRenderComplete,MsUntilDisplayed";

/// A duration cell: mostly `%.4f`, sometimes missing, text, zero, negative or
/// implausible (`rare` per mille each).
fn duration(rng: &mut Rng, rare: u64) -> String {
    match rng.below(1000) {
        k if k < rare => "NA".into(),
        k if k < 2 * rare => "oops".into(),
        k if k < 3 * rare => "0.0000".into(),
        k if k < 4 * rare => "3000000.5".into(),
        k if k < 5 * rare => "-1.2500".into(),
        k if k < 6 * rare => format!("{}", rng.below(100_000) as f64 / 7.0),
        _ => format!("{:.4}", 1.0 + rng.below(300_000) as f64 / 10_000.0),
    }
}

/// One data row of `header` (`rare`: per mille of odd cells), on trace `trace`.
fn row(rng: &mut Rng, header: &str, trace: u64, qpc: &mut u64, rare: u64) -> String {
    let modes = ["Hardware: Independent Flip", "Composed: Flip", "Hardware: Legacy Flip", "Other"];
    let mut cells: Vec<String> = Vec::new();
    for name in header.split(',') {
        let cell = match name {
            "Application" => ["a.exe", "b.exe", "c.exe"][trace as usize].to_owned(),
            "ProcessID" if rng.chance(rare / 4) => "x12".into(),
            "ProcessID" => (100 + trace).to_string(),
            "SwapChainAddress" => format!("0x{:X}", 0xA0 + trace),
            "PresentRuntime" | "Runtime" if rng.chance(300) => String::new(),
            "PresentRuntime" | "Runtime" => ["DXGI", "D3D9"][rng.below(2) as usize].into(),
            "PresentMode" if rng.chance(rare) => format!("Mode {}", rng.below(40)),
            "PresentMode" => modes[(rng.below(8) as usize).min(3)].into(),
            "FrameType" => ["Application", "Intel XeSS-FG", ""][(rng.below(5) as usize).min(2)].into(),
            "Dropped" => ["0", "1", "2"][(rng.below(12) as usize).saturating_sub(9).min(2)].into(),
            "CPUStartQPC" | "TimeInSeconds" => {
                *qpc += 50_000 + rng.below(100_000);
                if name == "TimeInSeconds" { format!("{:.6}", *qpc as f64 / 1e7) } else { qpc.to_string() }
            }
            "DisplayedTime" | "DisplayLatency" if rng.chance(80) => "NA".into(),
            "DisplayedTime" if rng.chance(30) => "0.0000".into(),
            "SyncInterval" | "PresentFlags" | "AllowsTearing" => rng.below(2).to_string(),
            _ => duration(rng, rare),
        };
        cells.push(cell);
    }
    if rng.chance(rare) {
        cells.truncate(5);
    } else if rng.chance(rare / 2) {
        cells.push("extra".into());
    }
    cells.join(",")
}

/// A capture of `rows` rows: traces in runs of a few rows, now and then a blank line.
fn capture(seed: u64, header: &str, rows: usize, rare: u64) -> String {
    let mut rng = Rng(seed);
    let (mut qpc, mut trace) = (1_000_000u64, 0);
    let mut text = format!("{header}\n");
    for _ in 0..rows {
        if rng.chance(150) {
            trace = rng.below(3);
        }
        text.push_str(&row(&mut rng, header, trace, &mut qpc, rare));
        text.push_str(if rng.chance(5) { "\n\n" } else { "\n" });
    }
    text
}

/// Loads `text` cut into blocks of whole lines ending at `cuts` (byte offsets into the
/// rows), every block read row by row (`merge` false) or built on its own and merged.
/// Returns the capture and how many blocks were merged.
fn load_in_blocks(text: &[u8], cuts: &[usize], merge: bool) -> (Capture, usize) {
    let mut cursor = std::io::Cursor::new(text);
    let pre = preamble::read_preamble(&mut cursor).unwrap();
    let layout = layout::detect(&pre.header, &pre.comments).unwrap();
    let plan: Arc<Plan> = Arc::new(parse_plan(&layout));
    let data = &text[cursor.position() as usize..];
    let path = Path::new("capture.csv");
    let mut info = file_info(path, &layout, &pre.comments);
    let mut rows = RowReader::new(&layout, "capture".into());
    let (mut line, mut start, mut merged) = (pre.header_line + 1, 0, 0);
    let mut slow = super::Row::default();
    for &cut in cuts.iter().chain([&data.len()]) {
        let end = if cut >= data.len() {
            data.len()
        } else {
            memchr::memchr(b'\n', &data[cut..]).map_or(data.len(), |p| cut + p + 1)
        };
        if end <= start {
            continue;
        }
        let mut block = Block::default();
        let next = block.fill(data[start..end].to_vec(), line);
        block.parse(&plan);
        let built = build_block(&block, &layout, "capture").filter(|_| merge);
        if built.is_some_and(|built| rows.absorb(built, &mut info)) {
            rows.count += block.len() as u64;
            merged += 1;
        } else {
            take_block(&block, &mut rows, &mut info, &mut slow);
        }
        (line, start) = (next, end);
    }
    (rows.finish(info, &LoadOptions::default(), path).unwrap(), merged)
}

/// The captures are the same, NaNs and column stores included (their debug texts
/// match); the message shows the first line that differs.
fn assert_same(a: &Capture, b: &Capture, what: &str) {
    let (x, y) = (format!("{a:#?}"), format!("{b:#?}"));
    if let Some((k, (l, r))) = x.lines().zip(y.lines()).enumerate().find(|(_, (l, r))| l != r) {
        let context: Vec<&str> = x.lines().take(k).filter(|l| l.ends_with('{') || l.ends_with('[')).collect();
        panic!("{what}: line {k} differs: {l} ≠ {r} (in {:?})", &context[context.len().saturating_sub(3)..]);
    }
    assert_eq!(x.lines().count(), y.lines().count(), "{what}");
}

#[test]
fn merged_blocks_are_one_row_loop() {
    let mut rng = Rng(0x5eed);
    let mut merged_any = (0, 0);
    for (k, header) in [SHIFTED, DROPPED].iter().cycle().take(12).enumerate() {
        // Few odd cells (most blocks merge) to many (most fall back).
        let rare = [2, 10, 40][k % 3];
        let text = capture(k as u64 + 1, header, 600, rare);
        let (whole, _) = load_in_blocks(text.as_bytes(), &[], false);
        let data_len = text.len() - header.len() - 1;
        for cuts in 0..6 {
            let mut at: Vec<usize> = (0..=cuts * 4).map(|_| rng.below(data_len as u64) as usize).collect();
            at.sort_unstable();
            let (serial, _) = load_in_blocks(text.as_bytes(), &at, false);
            let (parallel, merged) = load_in_blocks(text.as_bytes(), &at, true);
            let what = format!("header {}, rare {rare}, cuts {at:?}", k % 2);
            assert_same(&whole, &serial, &what);
            assert_same(&whole, &parallel, &what);
            merged_any.0 += merged;
            merged_any.1 += at.len() + 1 - merged;
        }
    }
    // Both ways were taken: blocks merged, and blocks read row by row.
    assert!(merged_any.0 > 20 && merged_any.1 > 20, "{merged_any:?}");
}

/// The real PresentMon captures, cut into blocks of a few lines to many.
#[test]
fn real_captures_merge_as_one_row_loop() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-traces");
    let mut seen = 0;
    for sub in ["presentmon-1x", "presentmon-2x"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        for entry in entries.flatten() {
            let Ok(text) = std::fs::read(entry.path()) else { continue };
            if !splits_plainly(&text) {
                continue;
            }
            for n in [3, 17, 400] {
                let cuts: Vec<usize> = line_parts(&text, n).iter().map(|r| r.end).collect();
                let (serial, _) = load_in_blocks(&text, &cuts, false);
                let (parallel, merged) = load_in_blocks(&text, &cuts, true);
                assert_same(&serial, &parallel, &format!("{} in {n} blocks", entry.path().display()));
                assert!(merged > 0, "{}", entry.path().display());
            }
            seen += 1;
        }
    }
    if std::env::var_os("FRAMESCOPE_REQUIRE_SHARED").is_some() {
        assert!(seen >= 10, "{seen} real PresentMon captures in {}", dir.display());
    } else if seen == 0 {
        eprintln!("skipped: no real PresentMon captures in {}", dir.display());
    }
}

/// Splits `data` (whole lines) into about `n` ranges that end at line ends.
fn line_parts(data: &[u8], n: usize) -> Vec<std::ops::Range<usize>> {
    let mut parts = Vec::with_capacity(n);
    let mut start = 0;
    for k in 1..=n {
        if start >= data.len() {
            break;
        }
        let target = (data.len() * k / n).max(start);
        let end = if k == n {
            data.len()
        } else {
            memchr::memchr(b'\n', &data[target..]).map_or(data.len(), |p| target + p + 1)
        };
        if end > start {
            parts.push(start..end);
            start = end;
        }
    }
    parts
}

/// A whole load (blocks read ahead by tasks, passed on in order) of a capture of many
/// blocks is the one row loop; quoting a row's application from the start, or only
/// far into the file, hands the rest to csv_core with the same result. (A file whose
/// first block was not plain was once left unread.)
#[test]
fn a_load_in_tasks_is_one_row_loop_and_quotes_go_to_csv_core() {
    let text = capture(99, SHIFTED, 16_000, 2);
    let (whole, _) = load_in_blocks(text.as_bytes(), &[], false);
    let quoted = |from: usize| {
        let (head, tail) = text.split_at(text[from..].find("\nb.exe,").map_or(text.len(), |p| from + p + 1));
        format!("{head}{}", tail.replacen("b.exe,", "\"b.exe\",", 1))
    };
    for (what, t) in
        [("plain", text.clone()), ("quoted early", quoted(0)), ("quoted late", quoted(text.len() * 3 / 4))]
    {
        let progress = super::super::Progress::default();
        let path = Path::new("capture.csv");
        let loaded = super::load(path, t.as_bytes(), &LoadOptions::default(), &progress).unwrap();
        assert_same(&whole, &loaded, what);
    }
    assert!(text.len() > 4 * super::split::READ_BYTES, "{} bytes", text.len());
}

/// A block of many traces × columns is read row by row, not built on its own: 200
/// processes × 30 numeric columns (6000 trace columns, over `BLOCK_TRACE_COLUMNS`) in
/// blocks of about 200 rows merge none, while 50 processes (1500) merge every block; both load as one row loop does. (Each block in flight would otherwise hold
/// its own fresh columns: a hostile capture's peak RSS went 43 → ~100 MiB.)
#[test]
fn blocks_of_many_trace_columns_are_read_row_by_row() {
    let mut text = String::from("Application,ProcessID,MsBetweenPresents");
    text.extend((0..29).map(|c| format!(",Col{c}")));
    text.push('\n');
    let header = text.len();
    let row = |pid: usize| format!("game.exe,{pid},16.6{}\n", ",7".repeat(29));
    for processes in [200, 50] {
        let mut t = text.clone();
        let mut cuts = Vec::new();
        for k in 0..1000 {
            if k % 200 == 0 && k > 0 {
                cuts.push(t.len() - header);
            }
            t.push_str(&row(k % processes));
        }
        let (serial, _) = load_in_blocks(t.as_bytes(), &cuts, false);
        let (parallel, merged) = load_in_blocks(t.as_bytes(), &cuts, true);
        assert_same(&serial, &parallel, &format!("{processes} processes"));
        assert_eq!(serial.traces.len(), processes);
        assert_eq!(merged, if processes == 200 { 0 } else { 5 }, "{processes} processes");
    }
}

/// A row's trace is found by its key fields as one span where they are adjacent
/// (`Fields::span`): keys that would run together without their commas ("game1", 2
/// and "game", 12) stay two traces, as csv_core's rows (compared field by field)
/// keep them.
#[test]
fn adjacent_key_fields_compare_as_one_span() {
    use std::fmt::Write as _;
    let mut text = String::from("Application,ProcessID,SwapChainAddress,TimeInSeconds,MsBetweenPresents\n");
    for k in 0..3000 {
        let (app, pid) = if k % 3 == 0 { ("game1", 2) } else { ("game", 12) };
        let _ = writeln!(text, "{app},{pid},0x1,{k}.5,16.6{}", k % 10);
    }
    let load = |t: &str| {
        let progress = super::super::Progress::default();
        super::load(Path::new("keys.csv"), t.as_bytes(), &LoadOptions::default(), &progress).unwrap()
    };
    let in_place = load(&text);
    let csv_core = load(&text.replacen("game1,", "\"game1\",", 1));
    assert_same(&in_place, &csv_core, "spans against fields");
    let counts: Vec<(String, usize)> =
        in_place.traces.iter().map(|t| (t.meta.application.clone(), t.len())).collect();
    assert_eq!(counts, [("game1".to_owned(), 1000), ("game".to_owned(), 2000)]);
}

/// A load nobody watches keeps no preview; a watched one previews every frame.
#[test]
fn an_unwatched_load_keeps_no_preview() {
    let text = format!("Application,ProcessID,MsBetweenPresents\n{}", "g.exe,1,16.6\n".repeat(3000));
    for (progress, frames) in
        [(super::super::Progress::without_preview(), 0), (super::super::Progress::default(), 3000)]
    {
        let loaded =
            super::load(Path::new("p.csv"), text.as_bytes(), &LoadOptions::default(), &progress).unwrap();
        assert_eq!(progress.preview().frames, frames);
        assert_eq!(loaded.traces.iter().map(crate::model::Trace::len).sum::<usize>(), 3000);
    }
}
