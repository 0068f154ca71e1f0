//! A headless Chromium driven through its DevTools protocol over a pipe
//! (`--remote-debugging-pipe`: commands on the browser's fd 3, answers and events on its
//! fd 4, each a JSON message ended by a NUL byte), so no port is opened and no
//! websocket library is needed. Every event is kept for the test to read (console
//! messages, exceptions, network requests).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A running browser with one page attached.
pub struct Browser {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: u64,
    session: String,
    profile: PathBuf,
    /// Every event received so far (method and params), in order.
    pub events: Vec<Value>,
}

/// The Chromium binary: `FRAMESCOPE_CHROMIUM`, else the first of the usual names on the
/// PATH; `None` (with a message) when there is none, unless `FRAMESCOPE_REQUIRE_SHARED=1`
/// on a platform other than Windows.
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FRAMESCOPE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file());
    if found.is_none() {
        // Only the Linux run provides a browser (.ci/windows.sh runs the Windows tests
        // under Wine, where the Linux browser cannot be started).
        let required = std::env::var("FRAMESCOPE_REQUIRE_SHARED").is_ok_and(|v| v == "1") && !cfg!(windows);
        assert!(
            !required,
            "FRAMESCOPE_REQUIRE_SHARED=1 but no chromium on the PATH (apt-get install chromium)"
        );
        eprintln!("skipping: no chromium on the PATH (apt-get install chromium, or set FRAMESCOPE_CHROMIUM)");
    }
    found
}

impl Browser {
    /// Starts a headless browser with a fresh profile and a page of `width` × `height`.
    pub fn launch(binary: &Path, width: u32, height: u32) -> Self {
        // A fresh profile per browser (tests of one binary run in parallel, in one process).
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = std::env::temp_dir().join(format!("framescope-chromium-{}-{k}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("profile dir");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null"#)
            .arg(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={width},{height}"))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromium");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while reader.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                buf.pop_if(|b| *b == 0);
                if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                    && tx.send(v).is_err()
                {
                    break;
                }
                buf.clear();
            }
        });
        let mut b =
            Self { child, stdin, rx, next_id: 0, session: String::new(), profile, events: Vec::new() };
        let target = b.send("Target.createTarget", json!({"url": "about:blank"}), None);
        let id = target["targetId"].as_str().expect("targetId").to_owned();
        let attached = b.send("Target.attachToTarget", json!({"targetId": id, "flatten": true}), None);
        attached["sessionId"].as_str().expect("sessionId").clone_into(&mut b.session);
        for domain in ["Runtime.enable", "Log.enable", "Network.enable", "Page.enable"] {
            b.call(domain, json!({}));
        }
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
        b
    }

    /// Sends a command (on the page's session unless `session` is `None` and the page
    /// is not attached yet) and waits for its answer, keeping the events that arrive.
    fn send(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method});
        msg["params"] = params;
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("json");
        bytes.push(0);
        self.stdin.write_all(&bytes).and_then(|()| self.stdin.flush()).expect("write to chromium");
        let deadline = Instant::now() + Duration::from_mins(1);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(v) if v["id"].as_u64() == Some(id) => {
                    assert!(v.get("error").is_none(), "{method}: {}", v["error"]);
                    return v["result"].clone();
                }
                Ok(v) => self.events.push(v),
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no answer from chromium in 60 s"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: chromium exited"),
            }
        }
    }

    /// A command on the page.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(method, params, Some(&session))
    }

    /// Evaluates `expr` in the page (awaiting a promise) and returns its value.
    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {}", r["exceptionDetails"]);
        r["result"]["value"].clone()
    }

    /// Opens `path` and waits until the page says it has drawn (`body[data-drawn-ms]`);
    /// the milliseconds from the navigation to then, as the test measured them.
    pub fn open(&mut self, path: &Path) -> f64 {
        let start = Instant::now();
        let url = format!("file://{}", path.canonicalize().expect("page path").display());
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for("document.body && document.body.dataset.drawnMs !== undefined", Duration::from_mins(1));
        start.elapsed().as_secs_f64() * 1000.0
    }

    /// Waits until `expr` is true in the page.
    pub fn wait_for(&mut self, expr: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.eval(&format!("!!({expr})")) != json!(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {expr}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for two animation frames (the page draws on the next one).
    pub fn settle(&mut self) {
        self.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))");
    }

    /// Moves the mouse to (x, y) in CSS pixels of the viewport.
    pub fn mouse_move(&mut self, x: f64, y: f64) {
        self.call("Input.dispatchMouseEvent", json!({"type": "mouseMoved", "x": x, "y": y}));
        self.settle();
    }

    /// Turns the wheel at (x, y): negative `delta_y` zooms in.
    pub fn wheel(&mut self, x: f64, y: f64, delta_y: f64) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta_y}),
        );
        self.settle();
    }

    /// Drags with the left button from (x0, y) to (x1, y).
    pub fn drag(&mut self, x0: f64, x1: f64, y: f64) {
        let ev = |t: &str, x: f64, buttons: u32| json!({"type": t, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1});
        self.call("Input.dispatchMouseEvent", ev("mousePressed", x0, 1));
        self.call("Input.dispatchMouseEvent", ev("mouseMoved", f64::midpoint(x0, x1), 1));
        self.call("Input.dispatchMouseEvent", ev("mouseMoved", x1, 1));
        self.call("Input.dispatchMouseEvent", ev("mouseReleased", x1, 0));
        self.settle();
    }

    /// Console errors, uncaught exceptions and error log entries seen so far.
    pub fn errors(&mut self) -> Vec<String> {
        self.settle();
        self.events
            .iter()
            .filter_map(|e| {
                let p = &e["params"];
                match e["method"].as_str()? {
                    "Runtime.consoleAPICalled" if p["type"] == "error" || p["type"] == "assert" => {
                        Some(format!("console: {}", p["args"]))
                    }
                    "Runtime.exceptionThrown" => Some(format!("exception: {}", p["exceptionDetails"])),
                    "Log.entryAdded" if p["entry"]["level"] == "error" => {
                        Some(format!("log: {}", p["entry"]))
                    }
                    _ => None,
                }
            })
            .collect()
    }

    /// The URL of every request the page made.
    pub fn requests(&self) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .filter_map(|e| e["params"]["request"]["url"].as_str().map(str::to_owned))
            .collect()
    }

    /// A PNG of the whole page (the viewport grown to the page's height).
    pub fn screenshot(&mut self, out: &Path, width: u32) {
        let height = self.eval("document.documentElement.scrollHeight").as_f64().unwrap_or(1000.0);
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height.ceil(), "deviceScaleFactor": 1, "mobile": false}),
        );
        self.eval("window.dispatchEvent(new Event('resize'))");
        self.settle();
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let data = base64_decode(shot["data"].as_str().expect("screenshot data"));
        std::fs::write(out, data).expect("write screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64 (the screenshot's PNG).
fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> =
        s.bytes().filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/').collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let n =
            chunk.iter().enumerate().fold(0u32, |acc, (i, &c)| acc | (u32::from(value(c)) << (18 - 6 * i)));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}
