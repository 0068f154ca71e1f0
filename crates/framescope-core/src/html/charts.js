"use strict";
// The distribution charts, overlaid for comparisons: frame time by percentile (a
// "nines" axis, so the slow tail gets the room), slow and excess time by target FPS,
// and the histogram on one bin grid for every run (share of each run's frames).

FS.charts = (function () {
  const runs = FS.data.runs.filter((r) => r && r.charts);
  const M = { left: 52, right: 14, top: 10, bottom: 30 };
  const nines = (p) => -Math.log10(Math.max(1 - p / 100, 1e-5));
  const fromNines = (u) => 100 * (1 - Math.pow(10, -u));
  const charts = [];

  /** Linear interpolation of points sorted by x. */
  function at(points, x, k) {
    if (!points.length || x < points[0][0] || x > points[points.length - 1][0]) return NaN;
    let lo = 0, hi = points.length - 1;
    while (hi - lo > 1) { const m = (lo + hi) >> 1; if (points[m][0] <= x) lo = m; else hi = m; }
    const a = points[lo], b = points[hi];
    return b[0] === a[0] ? a[k] : a[k] + ((b[k] - a[k]) * (x - a[0])) / (b[0] - a[0]);
  }

  function make(id, spec) {
    const canvas = document.getElementById(id);
    const chart = { canvas: canvas, tip: canvas.parentElement.querySelector(".tip"), spec: spec, hoverX: null };
    canvas.addEventListener("pointermove", (e) => {
      const r = canvas.getBoundingClientRect();
      chart.hoverX = e.clientX - r.left;
      chart.hoverY = e.clientY - r.top;
      draw(chart);
    });
    canvas.addEventListener("pointerleave", () => { chart.hoverX = null; draw(chart); });
    charts.push(chart);
  }

  function draw(chart) {
    const s = chart.spec, theme = FS.theme();
    const { ctx, w, h } = FS.fit(chart.canvas, 260);
    const pw = w - M.left - M.right, ph = h - M.top - M.bottom;
    const X = (x) => M.left + ((x - s.x0) / (s.x1 - s.x0)) * pw;
    const Y = (y) => M.top + ph - ((y - s.y0) / (s.y1 - s.y0)) * ph;
    ctx.font = "11px system-ui, sans-serif";
    const yt = FS.ticks(s.y0, s.y1, ph / 40);
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    for (const t of yt) {
      ctx.strokeStyle = theme.grid;
      ctx.beginPath(); ctx.moveTo(M.left, Math.round(Y(t)) + 0.5); ctx.lineTo(M.left + pw, Math.round(Y(t)) + 0.5); ctx.stroke();
      ctx.fillStyle = theme.axis;
      ctx.fillText(FS.label(t, yt[1] - yt[0] || 1, s.yUnit), M.left - 5, Y(t));
    }
    ctx.textAlign = "center"; ctx.textBaseline = "top";
    for (const [x, label] of s.xTicks) {
      ctx.strokeStyle = theme.grid;
      ctx.beginPath(); ctx.moveTo(Math.round(X(x)) + 0.5, M.top); ctx.lineTo(Math.round(X(x)) + 0.5, M.top + ph); ctx.stroke();
      ctx.fillStyle = theme.axis;
      ctx.fillText(label, X(x), M.top + ph + 5);
    }
    ctx.fillStyle = theme.muted; ctx.textAlign = "right"; ctx.textBaseline = "bottom";
    ctx.fillText(s.xName, M.left + pw, h - 1);
    ctx.save();
    ctx.beginPath(); ctx.rect(M.left, M.top, pw, ph); ctx.clip();
    if (s.vline !== undefined) {
      ctx.strokeStyle = theme.target; ctx.setLineDash([5, 4]);
      ctx.beginPath(); ctx.moveTo(X(s.vline) + 0.5, M.top); ctx.lineTo(X(s.vline) + 0.5, M.top + ph); ctx.stroke();
      ctx.setLineDash([]);
    }
    for (const line of s.lines) {
      const colour = theme.runs[line.colour % 6];
      if (line.fill && s.lines.length <= 4) {
        ctx.fillStyle = colour; ctx.globalAlpha = 0.18;
        ctx.beginPath(); ctx.moveTo(X(line.points[0][0]), Y(s.y0));
        for (const p of line.points) ctx.lineTo(X(p[0]), Y(p[1]));
        ctx.lineTo(X(line.points[line.points.length - 1][0]), Y(s.y0)); ctx.fill();
        ctx.globalAlpha = 1;
      }
      ctx.strokeStyle = colour; ctx.lineWidth = 1.6; ctx.setLineDash(line.dash ? [5, 3] : []);
      ctx.globalAlpha = line.faint ? 0.55 : 1;
      ctx.beginPath();
      line.points.forEach((p, i) => (i ? ctx.lineTo(X(p[0]), Y(p[1])) : ctx.moveTo(X(p[0]), Y(p[1]))));
      ctx.stroke();
      ctx.setLineDash([]); ctx.lineWidth = 1; ctx.globalAlpha = 1;
    }
    ctx.restore();
    if (chart.hoverX !== null && chart.hoverX >= M.left && chart.hoverX <= M.left + pw) {
      const x = s.x0 + ((chart.hoverX - M.left) / pw) * (s.x1 - s.x0);
      ctx.strokeStyle = theme.text; ctx.globalAlpha = 0.45;
      ctx.beginPath(); ctx.moveTo(Math.round(chart.hoverX) + 0.5, M.top); ctx.lineTo(Math.round(chart.hoverX) + 0.5, M.top + ph); ctx.stroke();
      ctx.globalAlpha = 1;
      FS.tip(chart.tip, s.hover(x), chart.hoverX, chart.hoverY);
    } else FS.tip(chart.tip, "");
  }

  const names = (r) => r.name + (r.set ? " (" + r.set + ")" : "");
  const faint = runs.length > 4;

  function percentileChart() {
    const lines = runs.map((r) => ({ colour: r.colour, faint: faint, points: r.charts.percentile.map((p) => [nines(p[0]), p[1]]) }));
    // Up to the slowest frame, unless it is more than three times the 99.9th percentile.
    const top = Math.max(1, ...runs.map((r) => Math.min(at(r.charts.percentile, 100, 1), 3 * at(r.charts.percentile, 99.9, 1))));
    const ticks = [[nines(50), "50"], [1, "90"], [2, "99"], [3, "99.9"], [4, "99.99"], [5, "100"]];
    make("ch-pct", {
      x0: 0, x1: 5, y0: 0, y1: top * 1.1, yUnit: "", xTicks: ticks, xName: "percentile (%) · frame time (ms)",
      lines: lines,
      hover: (u) => {
        const p = fromNines(u);
        return "percentile " + p.toFixed(p > 99.9 ? 3 : p > 99 ? 2 : 1) + " %\n" +
          runs.map((r) => names(r) + ": " + at(r.charts.percentile, p, 1).toFixed(3) + " ms").join("\n");
      },
    });
  }

  function pacingChart() {
    const lines = [];
    for (const r of runs) {
      lines.push({ colour: r.colour, faint: faint, points: r.charts.pacing.map((p) => [p[0], p[1]]) });
      lines.push({ colour: r.colour, faint: faint, dash: true, points: r.charts.pacing.map((p) => [p[0], p[2]]) });
    }
    const x1 = Math.max(FS.data.target_fps * 1.25, ...runs.map((r) => r.charts.fps_max));
    make("ch-pacing", {
      x0: 0, x1: x1, y0: 0, y1: 100, yUnit: " %", vline: FS.data.target_fps,
      xTicks: FS.ticks(0, x1, 7).map((t) => [t, String(t)]), xName: "target FPS · slow (solid), excess (dashed)",
      lines: lines,
      hover: (f) => {
        const F = Math.max(1, Math.round(f));
        return "at " + F + " FPS (" + (1000 / F).toFixed(2) + " ms)\n" + runs.map((r) =>
          names(r) + ": slow " + at(r.charts.pacing, F, 1).toFixed(2) + " %, excess " + at(r.charts.pacing, F, 2).toFixed(2) + " %").join("\n");
      },
    });
  }

  function histogramChart() {
    const grid = FS.data.histogram;
    if (!grid) return;
    const bins = Math.max(...runs.map((r) => r.charts.histogram.length));
    const edge = (i) => grid.start + i * grid.bin;
    const share = (r, c) => (100 * c) / Math.max(1, r.charts.histogram.reduce((a, b) => a + b, 0) + r.charts.overflow);
    const lines = runs.map((r) => {
      const pts = [[edge(0), 0]];
      r.charts.histogram.forEach((c, i) => { pts.push([edge(i), share(r, c)]); pts.push([edge(i + 1), share(r, c)]); });
      pts.push([edge(bins), 0]);
      return { colour: r.colour, faint: faint, fill: true, points: pts };
    });
    const top = Math.max(1, ...lines.map((l) => Math.max(...l.points.map((p) => p[1]))));
    make("ch-hist", {
      x0: edge(0), x1: edge(bins), y0: 0, y1: top * 1.1, yUnit: " %",
      xTicks: FS.ticks(edge(0), edge(bins), 7).map((t) => [t, FS.label(t, grid.bin * 10 >= 1 ? 1 : grid.bin * 10, "")]),
      xName: "frame time (ms) · share of frames", lines: lines, vline: 1000 / FS.data.target_fps,
      hover: (x) => {
        const i = Math.floor((x - grid.start) / grid.bin);
        if (i < 0 || i >= bins) return "";
        return edge(i).toFixed(3) + " – " + edge(i + 1).toFixed(3) + " ms\n" + runs.map((r) => {
          const c = r.charts.histogram[i] || 0;
          return names(r) + ": " + c.toLocaleString("en") + " frames (" + share(r, c).toFixed(2) + " %)" +
            (r.charts.overflow ? ", " + r.charts.overflow.toLocaleString("en") + " beyond the last bin" : "");
        }).join("\n");
      },
    });
  }

  if (runs.length) {
    percentileChart();
    pacingChart();
    histogramChart();
  } else {
    document.getElementById("charts").hidden = true;
  }
  return { draw: () => charts.forEach(draw) };
})();

// Draw once, then on every resize or change of colour scheme; say when the first
// picture is up (the tests read it).
(function boot() {
  const all = () => { FS.timeline.draw(); FS.charts.draw(); };
  all();
  document.body.dataset.drawnMs = performance.now().toFixed(1);
  let queued = false;
  window.addEventListener("resize", () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; all(); });
  });
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", all);
})();
