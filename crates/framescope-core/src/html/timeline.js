"use strict";
// The timeline: one row per run on a shared time axis (each run's first frame at 0).
// Zoomed out it draws the levels reduced in Rust (a column's bar is its typical frame,
// a faint whisker reaches its slowest, its colour mixes within / over / far over by the
// share of its time over the target); zoomed in, the raw frames when the page has them.

FS.timeline = (function () {
  const canvas = document.getElementById("tl");
  const tip = document.getElementById("tip");
  const range = document.getElementById("range");
  const LEFT = 170, RULER = 24, STRIP = 10, GAP = 10, BAND = 34;
  const target = FS.data.target_fps;
  const budget = { over: (1000 / target) * 1.005 };
  budget.far = 2 * budget.over;
  const runs = FS.data.runs.filter((r) => r).map(prepare);
  const total = Math.max(1, ...runs.map((r) => r.tl.span_ms));
  const scale = Math.max(1, ...runs.map((r) => r.tl.scale_ms));
  const view = { t0: 0, t1: total };
  // A link may open at a moment: `#t=START-END` in seconds.
  const asked = /t=([\d.]+)-([\d.]+)/.exec(location.hash);
  if (asked && +asked[2] > +asked[1]) {
    view.t0 = Math.max(0, asked[1] * 1000);
    view.t1 = Math.min(total, Math.max(view.t0 + 1, asked[2] * 1000));
  }
  let pointer = null, drawn = [], rowH = runs.length === 1 ? 170 : runs.length <= 2 ? 120 : runs.length <= 4 ? 90 : 64;

  function prepare(run) {
    const tl = run.timeline;
    const levels = tl.levels.map((l) => ({
      dt: l.dt_ms, count: l.count, typ: FS.micros(l.typ, l.count), max: FS.micros(l.max, l.count),
      n: FS.varints(l.frames, l.count), over: FS.bytes(l.over), far: FS.bytes(l.far),
    }));
    const st = FS.signed(tl.stutter_ms, tl.stutters), sf = FS.signed(tl.stutter_frames, tl.stutters);
    for (let i = 1; i < tl.stutters; i++) { st[i] += st[i - 1]; sf[i] += sf[i - 1]; }
    for (let i = 0; i < tl.stutters; i++) st[i] /= 1000;
    const rows = run.rows || { health_ms: [], vsync: null, bands: [] };
    return { name: run.name, colour: run.colour, tl: tl, levels: levels, raw: null, stutT: st, stutF: sf,
      health: rows.health_ms, vsync: rows.vsync, bands: rows.bands };
  }

  /** A run's height: frame times, stutters, health spikes, then one band per series. */
  function runHeight(run) {
    return rowH + STRIP + (run.health.length ? STRIP : 0) + run.bands.length * BAND + GAP;
  }

  /** The raw frames, decoded the first time they are needed. */
  function raw(run) {
    if (run.raw || !run.tl.raw) return run.raw;
    const n = run.tl.frames, u = FS.varints(run.tl.raw.values, n), d = FS.signed(run.tl.raw.starts, n);
    const start = new Float64Array(n), val = new Float32Array(n);
    let s = 0, prev = 0;
    for (let i = 0; i < n; i++) {
      s += prev + d[i];
      start[i] = s / 1000;
      val[i] = u[i] === 0 ? NaN : (u[i] - 1) / 1000;
      prev = u[i] === 0 ? 0 : u[i] - 1;
    }
    run.raw = { start: start, val: val, n: n, last: run.tl.raw.last_span_ms };
    return run.raw;
  }

  function lowerBound(a, x) {
    let lo = 0, hi = a.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; }
    return lo;
  }

  /** What each column of a run's row shows for the view, `W` pixels wide. */
  function columns(run, W) {
    const mpp = (view.t1 - view.t0) / W;
    if (!run.levels.length) return [];
    if (run.tl.raw && mpp < run.levels[0].dt) return rawColumns(raw(run), mpp, W);
    let k = run.levels.findIndex((l) => l.dt >= mpp);
    if (k < 0) k = run.levels.length - 1;
    const L = run.levels[k], out = [];
    const first = Math.max(0, Math.floor(view.t0 / L.dt)), last = Math.min(L.count - 1, Math.floor(view.t1 / L.dt));
    for (let c = first; c <= last; c++) {
      if (L.n[c] === 0) continue;
      out.push({ x0: (c * L.dt - view.t0) / mpp, x1: ((c + 1) * L.dt - view.t0) / mpp, typ: L.typ[c], max: L.max[c],
        n: L.n[c], over: L.over[c] / 255, far: L.far[c] / 255, ta: c * L.dt, tb: (c + 1) * L.dt, frame: -1 });
    }
    return out;
  }

  function rawColumns(r, mpp, W) {
    const end = (i) => (i + 1 < r.n ? r.start[i + 1] : r.start[i] + r.last);
    let first = Math.max(0, lowerBound(r.start, view.t0) - 1);
    if (first < r.n && end(first) <= view.t0) first++;
    const last = lowerBound(r.start, view.t1);
    const out = [];
    if (last - first <= W / 2) {
      for (let i = first; i < last; i++) {
        const v = r.val[i];
        out.push({ x0: (r.start[i] - view.t0) / mpp, x1: (end(i) - view.t0) / mpp, typ: v, max: v, n: 1,
          over: v > budget.over ? 1 : 0, far: v > budget.far ? 1 : 0, ta: r.start[i], tb: end(i), frame: i });
      }
      return out;
    }
    let i = first;
    while (i < last) {
      const px = Math.floor((r.start[i] - view.t0) / mpp);
      const vals = [];
      let j = i, time = 0, over = 0, far = 0, maxV = NaN;
      while (j < last && Math.floor((r.start[j] - view.t0) / mpp) === px) {
        const v = r.val[j];
        if (v > 0) {
          vals.push(v); time += v;
          if (v > budget.over) over += v;
          if (v > budget.far) far += v;
          if (!(v <= maxV)) maxV = v;
        }
        j++;
      }
      vals.sort((a, b) => a - b);
      const m = vals.length, typ = m === 0 ? NaN : m % 2 ? vals[m >> 1] : (vals[m / 2 - 1] + vals[m / 2]) / 2;
      // Up to where its last frame ends, so columns of frames wider than a pixel meet.
      const x1 = Math.max(px + 1, Math.floor((end(j - 1) - view.t0) / mpp));
      out.push({ x0: px, x1: x1, typ: typ, max: maxV, n: j - i, over: time ? over / time : 0,
        far: time ? far / time : 0, ta: r.start[i], tb: end(j - 1), frame: j - i === 1 ? i : -1 });
      i = j;
    }
    return out;
  }

  function verdictColour(theme, v) {
    return v > budget.far ? theme.far : v > budget.over ? theme.over : theme.within;
  }

  function drawRow(ctx, theme, run, top, W) {
    const y = (v) => top + rowH - (Math.min(v, scale) / scale) * rowH;
    ctx.fillStyle = theme.stripe;
    ctx.fillRect(LEFT, top, W, rowH);
    for (const t of FS.ticks(0, scale, rowH / 30)) {
      ctx.strokeStyle = theme.grid;
      ctx.beginPath(); ctx.moveTo(LEFT, Math.round(y(t)) + 0.5); ctx.lineTo(LEFT + W, Math.round(y(t)) + 0.5); ctx.stroke();
      ctx.fillStyle = theme.axis; ctx.textAlign = "right"; ctx.textBaseline = "middle";
      if (t > 0) ctx.fillText(FS.label(t, FS.ticks(0, scale, rowH / 30)[1] || 1, ""), LEFT - 6, y(t));
    }
    const cols = columns(run, W);
    ctx.save();
    ctx.beginPath(); ctx.rect(LEFT, top, W, rowH + STRIP + 2); ctx.clip();
    for (const c of cols) {
      if (!(c.typ > 0)) continue;
      const x0 = LEFT + c.x0, w = Math.max(1, c.x1 - c.x0 - (c.x1 - c.x0 > 4 ? 1 : 0));
      ctx.fillStyle = c.n === 1 ? verdictColour(theme, c.typ) : FS.mix(theme, c.over, c.far);
      ctx.fillRect(x0, y(c.typ), w, top + rowH - y(c.typ));
      if (c.n > 1 && c.max > c.typ) {
        const xm = Math.floor(x0 + w / 2) + 0.5;
        ctx.strokeStyle = theme.whisker;
        ctx.beginPath(); ctx.moveTo(xm, y(c.typ)); ctx.lineTo(xm, y(c.max)); ctx.stroke();
        ctx.fillStyle = verdictColour(theme, c.max);
        ctx.fillRect(xm - 1.5, y(c.max) - 1, 3, 2);
      }
      if (c.max > scale) {
        ctx.fillStyle = theme.far;
        const xm = x0 + w / 2;
        ctx.beginPath(); ctx.moveTo(xm - 4, top + 6); ctx.lineTo(xm + 4, top + 6); ctx.lineTo(xm, top); ctx.fill();
      }
    }
    drawVsync(ctx, theme, run, top, W);
    drawStutters(ctx, theme, run, top + rowH + 2, W, cols);
    ctx.restore();
    let below = top + rowH + STRIP;
    if (run.health.length) {
      drawMarks(ctx, theme.over, run.health, below + 2, W);
      below += STRIP;
    }
    for (const b of run.bands) { drawBand(ctx, theme, run, b, below, W); below += BAND; }
    const ty = y(1000 / target);
    if (1000 / target <= scale) {
      ctx.strokeStyle = theme.target; ctx.setLineDash([5, 4]);
      ctx.beginPath(); ctx.moveTo(LEFT, Math.round(ty) + 0.5); ctx.lineTo(LEFT + W, Math.round(ty) + 0.5); ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = theme.target; ctx.textAlign = "right"; ctx.textBaseline = "bottom";
      ctx.fillText(target + " FPS target", LEFT + W - 4, ty - 2);
    }
    ctx.fillStyle = theme.runs[run.colour % 6];
    ctx.fillRect(8, top + 4, 10, 10);
    ctx.fillStyle = theme.text; ctx.textAlign = "left"; ctx.textBaseline = "top";
    ctx.fillText(fitText(ctx, run.name, LEFT - 34), 24, top + 3);
    ctx.fillStyle = theme.muted;
    ctx.fillText("frame time, ms", 8, top + 20);
    const font = ctx.font;
    ctx.font = "10px system-ui, sans-serif";
    ctx.fillText("stutters", 8, top + rowH + 1);
    if (run.health.length) ctx.fillText("health spikes", 8, top + rowH + STRIP + 1);
    ctx.font = font;
    return cols;
  }

  /** The refresh grid, once its lines are at least 6 px apart. */
  function drawVsync(ctx, theme, run, top, W) {
    if (!run.vsync) return;
    const mpp = (view.t1 - view.t0) / W, period = run.vsync[0], first = run.vsync[1];
    if (period / mpp < 6) return;
    ctx.strokeStyle = theme.grid; ctx.setLineDash([2, 3]);
    for (let t = first + Math.ceil((view.t0 - first) / period) * period; t <= view.t1; t += period) {
      const x = Math.round(LEFT + (t - view.t0) / mpp) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, top + rowH); ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  /** Marks at the times `ts` (ascending, ms) in a strip at `top`. */
  function drawMarks(ctx, colour, ts, top, W) {
    const mpp = (view.t1 - view.t0) / W;
    const a = lowerBound(ts, view.t0 - mpp), b = lowerBound(ts, view.t1);
    ctx.fillStyle = colour;
    let last = -1;
    for (let i = a; i < b; i++) {
      const px = Math.floor((ts[i] - view.t0) / mpp);
      if (px === last) continue;
      last = px;
      ctx.fillRect(LEFT + px, top, 2, STRIP - 3);
    }
  }

  /** One value over time as a min–max band, scaled to its own range. */
  function drawBand(ctx, theme, run, b, top, W) {
    const h = BAND - 6;
    ctx.fillStyle = theme.stripe;
    ctx.fillRect(LEFT, top + 2, W, h);
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < b.lo.length; i++) {
      if (b.lo[i] !== null && b.lo[i] < lo) lo = b.lo[i];
      if (b.hi[i] !== null && b.hi[i] > hi) hi = b.hi[i];
    }
    if (!(hi >= lo)) return;
    const pad = hi > lo ? 0 : Math.max(1, Math.abs(hi) * 0.1);
    const y = (v) => top + 2 + h - ((v - lo + pad) / (hi - lo + 2 * pad)) * h;
    const mpp = (view.t1 - view.t0) / W;
    ctx.save();
    ctx.beginPath(); ctx.rect(LEFT, top + 2, W, h); ctx.clip();
    ctx.fillStyle = theme.runs[run.colour % 6]; ctx.globalAlpha = 0.75;
    const first = Math.max(0, Math.floor(view.t0 / b.dt_ms)), last = Math.min(b.lo.length - 1, Math.floor(view.t1 / b.dt_ms));
    for (let k = first; k <= last; k++) {
      if (b.lo[k] === null) continue;
      const x0 = LEFT + (k * b.dt_ms - view.t0) / mpp, x1 = LEFT + ((k + 1) * b.dt_ms - view.t0) / mpp;
      const top1 = y(b.hi[k]), bottom = y(b.lo[k]);
      ctx.fillRect(x0, top1 - 1, Math.max(1, x1 - x0), Math.max(2, bottom - top1 + 2));
    }
    ctx.restore();
    ctx.fillStyle = theme.text; ctx.textAlign = "left"; ctx.textBaseline = "top";
    const unit = b.unit ? " (" + b.unit + ")" : "";
    ctx.fillText(fitText(ctx, b.name + unit, LEFT - 16), 8, top + 3);
    ctx.fillStyle = theme.muted;
    ctx.fillText(FS.num(lo) + " – " + FS.num(hi), 8, top + 17);
  }

  function drawStutters(ctx, theme, run, top, W, cols) {
    const mpp = (view.t1 - view.t0) / W;
    const a = lowerBound(run.stutT, view.t0 - mpp), b = lowerBound(run.stutT, view.t1);
    const counts = new Map();
    for (let i = a; i < b; i++) {
      const px = Math.floor((run.stutT[i] - view.t0) / mpp);
      counts.set(px, (counts.get(px) || 0) + 1);
    }
    ctx.fillStyle = theme.stutter;
    for (const [px, n] of counts) {
      ctx.globalAlpha = Math.min(1, 0.55 + 0.15 * Math.log10(n));
      ctx.fillRect(LEFT + px, top, Math.max(2, 1 / mpp > 2 ? 2 : 1), STRIP - 2);
    }
    ctx.globalAlpha = 1;
    if (cols.length && cols[0].frame >= 0 && cols.every((c) => c.n === 1)) {
      for (const c of cols) {
        const k = lowerBound(run.stutF, c.frame);
        if (k < run.stutF.length && run.stutF[k] === c.frame) c.stutter = true;
      }
    }
  }

  function fitText(ctx, text, width) {
    if (ctx.measureText(text).width <= width) return text;
    let t = text;
    while (t.length > 1 && ctx.measureText(t + "…").width > width) t = t.slice(0, -1);
    return t + "…";
  }

  function draw() {
    const height = RULER + runs.reduce((h, r) => h + runHeight(r), 0) + 4;
    const { ctx, w } = FS.fit(canvas, height);
    const theme = FS.theme();
    const W = Math.max(50, w - LEFT - 8);
    ctx.font = "12px system-ui, sans-serif";
    const ticks = FS.ticks(view.t0, view.t1, W / 110), step = ticks[1] - ticks[0] || 1;
    ctx.textBaseline = "top"; ctx.textAlign = "center";
    for (const t of ticks) {
      const x = LEFT + ((t - view.t0) / (view.t1 - view.t0)) * W;
      ctx.strokeStyle = theme.grid;
      ctx.beginPath(); ctx.moveTo(Math.round(x) + 0.5, RULER - 6); ctx.lineTo(Math.round(x) + 0.5, height); ctx.stroke();
      ctx.fillStyle = theme.axis;
      const label = FS.tick(t, step), half = ctx.measureText(label).width / 2;
      ctx.fillText(label, Math.min(Math.max(x, LEFT + half), LEFT + W - half), 4);
    }
    let top = RULER;
    drawn = runs.map((run) => { const d = { run: run, top: top, cols: [] }; top += runHeight(run); return d; });
    for (const d of drawn) d.cols = drawRow(ctx, theme, d.run, d.top, W);
    if (pointer && pointer.x >= LEFT) {
      ctx.strokeStyle = theme.text; ctx.globalAlpha = 0.5;
      ctx.beginPath(); ctx.moveTo(Math.round(pointer.x) + 0.5, RULER); ctx.lineTo(Math.round(pointer.x) + 0.5, height); ctx.stroke();
      ctx.globalAlpha = 1;
    }
    const span = view.t1 - view.t0;
    range.textContent = FS.when(view.t0, total) + " – " + FS.when(view.t1, total) + " of " +
      FS.when(total, total) + (span < total ? " (zoomed in)" : " (whole run)");
    range.dataset.t0 = view.t0.toFixed(3);
    range.dataset.t1 = view.t1.toFixed(3);
    hover();
  }

  /** The tooltip for what is under the pointer. */
  function hover() {
    if (!pointer || pointer.x < LEFT) { FS.tip(tip, ""); return; }
    const d = drawn.find((r) => pointer.y >= r.top && pointer.y < r.top + runHeight(r.run) - GAP);
    if (!d) { FS.tip(tip, ""); return; }
    const px = pointer.x - LEFT;
    const below = pointer.y - (d.top + rowH + STRIP + (d.run.health.length ? STRIP : 0));
    if (below >= 0) { bandTip(d.run, Math.floor(below / BAND), px); return; }
    const c = d.cols.find((c) => px >= c.x0 && px < Math.max(c.x1, c.x0 + 1));
    const t = view.t0 + (px / (canvas.clientWidth - LEFT - 8)) * (view.t1 - view.t0);
    let text = d.run.name + "\n";
    if (!c) text += FS.seconds(t, 1) + ": no frame";
    else if (c.n === 1 && c.frame >= 0) {
      text += "frame " + c.frame.toLocaleString("en") + " at " + FS.when(c.ta, total) + "\nframe time " +
        (c.typ > 0 ? FS.ms(c.typ) : "none (dropped)") + (c.stutter ? "\nstutter" : "");
    } else {
      const a = lowerBound(d.run.stutT, c.ta), b = lowerBound(d.run.stutT, c.tb);
      text += FS.when(c.ta, total) + " – " + FS.when(c.tb, total) + ": " + c.n.toLocaleString("en") + " frames\n" +
        "typical " + (c.typ > 0 ? FS.ms(c.typ) : "—") + "\nslowest " + (c.max > 0 ? FS.ms(c.max) : "—") + "\n" +
        FS.share(c.over) + " of the time over the target (" + FS.share(c.far) + " over twice)" +
        (b > a ? "\n" + (b - a) + " stutter" + (b - a > 1 ? "s" : "") : "");
    }
    FS.tip(tip, text, pointer.x, pointer.y);
  }

  /** The tooltip over band `k` of `run` at `px`: the bucket's range. */
  function bandTip(run, k, px) {
    const b = run.bands[k];
    if (!b) { FS.tip(tip, ""); return; }
    const W = canvas.clientWidth - LEFT - 8, t = view.t0 + (px / W) * (view.t1 - view.t0);
    const c = Math.min(b.lo.length - 1, Math.max(0, Math.floor(t / b.dt_ms))), unit = b.unit ? " " + b.unit : "";
    const value = b.lo[c] === null ? "no value" : b.lo[c] === b.hi[c] ? FS.num(b.lo[c]) + unit :
      FS.num(b.lo[c]) + " – " + FS.num(b.hi[c]) + unit;
    FS.tip(tip, run.name + "\n" + b.name + "\n" + FS.when(c * b.dt_ms, total) + " – " +
      FS.when((c + 1) * b.dt_ms, total) + ": " + value, pointer.x, pointer.y);
  }

  function zoom(factor, atX) {
    const W = canvas.clientWidth - LEFT - 8, f = Math.min(1, Math.max(0, (atX - LEFT) / W));
    const anchor = view.t0 + f * (view.t1 - view.t0);
    const span = Math.min(total, Math.max(Math.min(total, 5), (view.t1 - view.t0) * factor));
    view.t0 = Math.min(Math.max(0, anchor - f * span), total - span);
    view.t1 = view.t0 + span;
    schedule();
  }

  let pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  }

  let drag = null;
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoom(Math.exp(e.deltaY * 0.0015), e.clientX - r.left);
  }, { passive: false });
  canvas.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, t0: view.t0 };
    canvas.setPointerCapture(e.pointerId);
    canvas.classList.add("dragging");
  });
  canvas.addEventListener("pointermove", (e) => {
    const r = canvas.getBoundingClientRect();
    pointer = { x: e.clientX - r.left, y: e.clientY - r.top };
    if (drag) {
      const W = canvas.clientWidth - LEFT - 8, span = view.t1 - view.t0;
      view.t0 = Math.min(Math.max(0, drag.t0 - ((e.clientX - drag.x) / W) * span), total - span);
      view.t1 = view.t0 + span;
    }
    schedule();
  });
  const release = () => { drag = null; canvas.classList.remove("dragging"); };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("pointerleave", () => { pointer = null; schedule(); });
  canvas.addEventListener("dblclick", () => { view.t0 = 0; view.t1 = total; schedule(); });
  canvas.addEventListener("keydown", (e) => {
    const mid = LEFT + (canvas.clientWidth - LEFT) / 2;
    const span = view.t1 - view.t0, pan = (d) => {
      view.t0 = Math.min(Math.max(0, view.t0 + d * span), total - span);
      view.t1 = view.t0 + span;
      schedule();
    };
    if (e.key === "+" || e.key === "=") zoom(0.5, mid);
    else if (e.key === "-") zoom(2, mid);
    else if (e.key === "ArrowLeft") pan(-0.2);
    else if (e.key === "ArrowRight") pan(0.2);
    else if (e.key === "Home" || e.key === "0") { view.t0 = 0; view.t1 = total; schedule(); }
  });
  document.getElementById("zoom-in").addEventListener("click", () => zoom(0.5, LEFT + (canvas.clientWidth - LEFT) / 2));
  document.getElementById("zoom-out").addEventListener("click", () => zoom(2, LEFT + (canvas.clientWidth - LEFT) / 2));
  document.getElementById("zoom-reset").addEventListener("click", () => { view.t0 = 0; view.t1 = total; schedule(); });
  return { draw: draw, runs: runs };
})();
