"use strict";
// framescope's report page: the data (a JSON element with base64 fields, see
// crates/framescope-core/src/html/reduce.rs), its decoders, the theme's colours and
// the helpers the timeline and the charts share. No network, no library.

const FS = { data: JSON.parse(document.getElementById("fs-data").textContent) };

/** base64 → bytes. */
FS.bytes = function (s) {
  const bin = atob(s || "");
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
};

/** Unsigned LEB128 varints → a Float64Array of `n` values (missing ones 0). */
FS.varints = function (s, n) {
  const b = FS.bytes(s);
  const out = new Float64Array(n);
  let k = 0, v = 0, mul = 1;
  for (let i = 0; i < b.length && k < n; i++) {
    const x = b[i];
    v += (x & 0x7f) * mul;
    if (x & 0x80) { mul *= 128; } else { out[k++] = v; v = 0; mul = 1; }
  }
  return out;
};

/** Zigzag varints → signed values. */
FS.signed = function (s, n) {
  const u = FS.varints(s, n);
  for (let i = 0; i < n; i++) { const x = u[i]; u[i] = x % 2 === 0 ? x / 2 : -(x + 1) / 2; }
  return u;
};

/** Varints of µs + 1 (0 = none) → ms (NaN for none). */
FS.micros = function (s, n) {
  const u = FS.varints(s, n);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = u[i] === 0 ? NaN : (u[i] - 1) / 1000;
  return out;
};

/** The theme's colours, read from the style sheet's variables (light or dark). */
FS.theme = function () {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  const t = {};
  for (const k of ["text", "muted", "line", "grid", "axis", "panel", "within", "over", "far", "stutter",
    "whisker", "target", "stripe"]) t[k] = v("--" + k);
  t.runs = [0, 1, 2, 3, 4, 5].map((i) => v("--c" + i));
  return t;
};

/** "#rrggbb" → [r, g, b]. */
FS.rgb = function (hex) {
  const h = hex.replace("#", "");
  return [0, 2, 4].map((i) => parseInt(h.substr(i, 2), 16) || 0);
};

/** Mixes the within / over / far colours by the shares of time over and far over. */
FS.mix = function (theme, over, far) {
  const w = FS.rgb(theme.within), o = FS.rgb(theme.over), f = FS.rgb(theme.far);
  const a = Math.max(0, 1 - over), b = Math.max(0, over - far), c = far;
  const s = a + b + c || 1;
  const ch = (i) => Math.round((a * w[i] + b * o[i] + c * f[i]) / s);
  return "rgb(" + ch(0) + "," + ch(1) + "," + ch(2) + ")";
};

/** Round axis ticks from lo to hi, about `count` of them. */
FS.ticks = function (lo, hi, count) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / Math.max(1, count);
  const decade = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * decade).find((s) => s >= raw) || raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return out;
};

/** The decimals that write every multiple of `step` exactly (2.5 → 1, 0.25 → 2). */
FS.decimals = function (step) {
  let d = 0;
  while (d < 6 && Math.abs(step * Math.pow(10, d) - Math.round(step * Math.pow(10, d))) > 1e-6 * step * Math.pow(10, d)) d++;
  return d;
};

/** A tick's label with the decimals its step needs. */
FS.label = function (v, step, unit) {
  return v.toFixed(FS.decimals(step)) + (unit || "");
};

/** A canvas sized for the device's pixels; returns its 2D context in CSS pixels. */
FS.fit = function (canvas, height) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 600;
  canvas.style.height = height + "px";
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(height * dpr);
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, height);
  return { ctx: ctx, w: w, h: height };
};

/** Shows a tooltip beside the pointer, kept inside its container. */
FS.tip = function (tip, text, x, y) {
  if (!text) { tip.style.display = "none"; return; }
  tip.textContent = text;
  tip.style.display = "block";
  const box = tip.parentElement.getBoundingClientRect();
  const w = tip.offsetWidth, h = tip.offsetHeight;
  let left = x + 14, top = y + 14;
  if (left + w > box.width) left = Math.max(0, x - w - 14);
  if (top + h > box.height) top = Math.max(0, y - h - 14);
  tip.style.left = left + "px";
  tip.style.top = top + "px";
};

/** ms with 3 decimals, and the rate it is. */
FS.ms = function (v) { return v.toFixed(3) + " ms (" + (1000 / v).toFixed(2) + " FPS)"; };

/** Seconds for the time axis and the range. */
FS.seconds = function (ms, step) {
  return (ms / 1000).toFixed(Math.min(3, FS.decimals(step / 1000))) + " s";
};

/** An axis tick: seconds, or from 30 s steps on a clock, m:ss or h:mm:ss (as the window). */
FS.tick = function (ms, step) {
  if (step < 30000) return FS.seconds(ms, step);
  const s = Math.round(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
  const two = (v) => (v < 10 ? "0" : "") + v;
  return h > 0 ? h + ":" + two(m) + ":" + two(r) : m + ":" + two(r);
};

/** A moment of a run `total` ms long: seconds (3 decimals), or from a minute on a clock
 * with tenths (1:57:13.1). */
FS.when = function (ms, total) {
  if (total < 60000) return FS.seconds(ms, 1);
  const tenths = Math.round(ms / 100), s = Math.floor(tenths / 10), h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60, r = s % 60, two = (v) => (v < 10 ? "0" : "") + v;
  return (h > 0 ? h + ":" + two(m) : String(m)) + ":" + two(r) + "." + (tenths % 10);
};

/** A share 0..1 in %, never "0 %" when it is not 0 (nor "100 %" when it is not 1). */
FS.share = function (v) {
  if (v > 0 && v < 0.005) return "< 1 %";
  if (v < 1 && v > 0.995) return "> 99 %";
  return (v * 100).toFixed(0) + " %";
};

/** A value with as many decimals as its size needs. */
FS.num = function (v) {
  const a = Math.abs(v);
  return v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
};
