"use strict";
// The history page: a chart per scene of the chosen figure over the builds. Every text
// from the data is written with textContent, never as markup.
(function () {
  const data = JSON.parse(document.getElementById("fs-history").textContent);
  const figures = new Map(data.figures.map((f) => [f.name, f]));
  const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  const fmt = (f, v) => (v == null ? "—" : (v * f.scale).toFixed(f.decimals) + (f.unit ? " " + f.unit : ""));
  // What the tests read: per scene, the points drawn and the change-point lines.
  const drawn = (window.fsHistory = { data: data, scenes: [] });

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function buildLine(b) {
    const build = data.builds[b];
    const parts = ["build " + build.id];
    if (build.commit) parts.push("commit " + build.commit);
    if (build.branch) parts.push("branch " + build.branch);
    if (build.time) parts.push(build.time);
    return parts.join(" · ");
  }

  function setup(section) {
    const si = Number(section.dataset.scene);
    const scene = data.scenes[si];
    const select = section.querySelector("select");
    const canvas = section.querySelector("canvas");
    const tip = section.querySelector(".tip");
    const detail = section.querySelector(".detail");
    const names = data.figures.map((f) => f.name).filter((n) => scene.series[n]);
    for (const n of names) {
      const o = el("option", figures.get(n).title + " (" + n + ")");
      o.value = n;
      select.appendChild(o);
    }
    select.value = names.includes(data.first) ? data.first : names[0];
    const state = (drawn.scenes[si] = { points: [], changes: [], figure: select.value });

    function geometry() {
      const s = scene.series[select.value];
      const builds = s.means.map((m) => m[0]);
      const values = scene.runs.map((r) => r.values[select.value]).filter((v) => v != null);
      values.push(...s.means.map((m) => m[1]));
      let lo = Math.min(...values), hi = Math.max(...values);
      if (hi === lo) { hi += Math.abs(hi) * 0.01 + 1e-9; lo -= Math.abs(lo) * 0.01 + 1e-9; }
      const pad = (hi - lo) * 0.08;
      return { s: s, builds: builds, lo: lo - pad, hi: hi + pad };
    }

    function draw() {
      const f = figures.get(select.value);
      const g = geometry();
      const w = canvas.clientWidth, h = canvas.clientHeight, dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      const ctx = canvas.getContext("2d");
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, w, h);
      const left = 70, right = 16, top = 12, bottom = 40;
      const n = g.builds.length;
      const xOf = (k) => (n <= 1 ? (left + w - right) / 2 : left + (k * (w - left - right)) / (n - 1));
      const yOf = (v) => top + ((g.hi - v) * (h - top - bottom)) / (g.hi - g.lo);
      const col = new Map(g.builds.map((b, k) => [b, k]));
      ctx.font = "11px system-ui, sans-serif";
      ctx.fillStyle = css("--muted");
      ctx.strokeStyle = css("--line");
      for (let i = 0; i <= 4; i++) {
        const v = g.lo + ((g.hi - g.lo) * i) / 4, y = yOf(v);
        ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(w - right, y); ctx.stroke();
        ctx.fillText(fmt(f, v), 4, y + 4);
      }
      const every = Math.max(1, Math.ceil(n / Math.max(1, (w - left - right) / 60)));
      g.builds.forEach((b, k) => { if (k % every === 0) ctx.fillText(data.builds[b].id.slice(0, 12), xOf(k) - 14, h - 16); });
      state.changes = [];
      ctx.strokeStyle = css("--change"); ctx.setLineDash([5, 4]); ctx.lineWidth = 2;
      for (const b of g.s.change_points) {
        const x = xOf(col.get(b));
        ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, h - bottom); ctx.stroke();
        state.changes.push({ build: data.builds[b].id, x: x });
      }
      ctx.setLineDash([]); ctx.lineWidth = 1;
      ctx.fillStyle = css("--run");
      for (const r of scene.runs) {
        const v = r.values[select.value];
        if (v == null || !col.has(r.build)) continue;
        ctx.beginPath(); ctx.arc(xOf(col.get(r.build)), yOf(v), 2.5, 0, 7); ctx.fill();
      }
      ctx.strokeStyle = css("--mean"); ctx.lineWidth = 2; ctx.beginPath();
      g.s.means.forEach((m, k) => (k ? ctx.lineTo(xOf(k), yOf(m[1])) : ctx.moveTo(xOf(k), yOf(m[1]))));
      ctx.stroke(); ctx.lineWidth = 2;
      state.points = g.s.means.map((m, k) => ({ build: data.builds[m[0]].id, index: m[0], x: xOf(k), y: yOf(m[1]), mean: m[1] }));
      for (const [list, colour] of [[g.s.regressions, "--bad"], [g.s.improvements, "--good"]]) {
        ctx.strokeStyle = css(colour);
        for (const b of list) { ctx.beginPath(); ctx.arc(xOf(col.get(b)), yOf(g.s.means[col.get(b)][1]), 6, 0, 7); ctx.stroke(); }
      }
      state.figure = select.value;
    }

    function nearest(x) {
      let best = null;
      for (const p of state.points) if (!best || Math.abs(p.x - x) < Math.abs(best.x - x)) best = p;
      return best;
    }

    function verdictOf(b) {
      const s = scene.series[select.value];
      if (s.regressions.includes(b)) return "regression";
      if (s.improvements.includes(b)) return "improvement";
      return "";
    }

    canvas.addEventListener("mousemove", (e) => {
      const rect = canvas.getBoundingClientRect();
      const p = nearest(e.clientX - rect.left);
      if (!p) return;
      const f = figures.get(select.value);
      const lines = [buildLine(p.index), f.title + ": " + fmt(f, p.mean) + " (mean)"];
      const v = verdictOf(p.index);
      if (v) lines.push(v + (scene.series[select.value].change_points.includes(p.index) ? ", change point" : ""));
      for (const r of scene.runs.filter((r) => r.build === p.index)) lines.push(r.file + ": " + fmt(f, r.values[select.value]));
      tip.textContent = lines.join("\n");
      tip.style.display = "block";
      tip.style.left = Math.min(p.x + 12, rect.width - 300) + "px";
      tip.style.top = "8px";
    });
    canvas.addEventListener("mouseleave", () => { tip.style.display = "none"; });
    canvas.addEventListener("click", (e) => {
      const rect = canvas.getBoundingClientRect();
      const p = nearest(e.clientX - rect.left);
      if (p) compare(p.index);
    });

    function meanOf(b, name) {
      const m = (scene.series[name] || { means: [] }).means.find((x) => x[0] === b);
      return m ? m[1] : null;
    }

    // The build against the one before it that has runs of the scene.
    function compare(b) {
      detail.textContent = "";
      const k = state.points.findIndex((p) => p.index === b);
      if (k <= 0) { detail.appendChild(el("p", buildLine(b) + ": no earlier build to compare with")); return; }
      const a = state.points[k - 1].index;
      detail.appendChild(el("h3", data.builds[b].id + " against " + data.builds[a].id));
      const table = el("table"), head = el("tr");
      for (const t of ["Figure", data.builds[a].id, data.builds[b].id, "Change"]) head.appendChild(el("th", t));
      table.appendChild(head);
      for (const n of names) {
        const f = figures.get(n), va = meanOf(a, n), vb = meanOf(b, n);
        if (va == null || vb == null) continue;
        const rel = va !== 0 ? (vb - va) / Math.abs(va) : null;
        const row = el("tr");
        row.appendChild(el("td", f.title));
        row.appendChild(el("td", fmt(f, va)));
        row.appendChild(el("td", fmt(f, vb)));
        const worse = rel != null && Math.abs(rel) >= data.noise_band && (f.higher ? rel < 0 : rel > 0);
        const better = rel != null && Math.abs(rel) >= data.noise_band && !worse;
        row.appendChild(el("td", rel == null ? "—" : (rel >= 0 ? "+" : "") + (rel * 100).toFixed(1) + " %", worse ? "worse" : better ? "better" : ""));
        table.appendChild(row);
      }
      detail.appendChild(table);
    }

    select.addEventListener("change", () => { detail.textContent = ""; draw(); });
    window.addEventListener("resize", draw);
    draw();
  }

  document.querySelectorAll("section.scene").forEach(setup);
  document.body.dataset.drawnMs = String(Math.round(performance.now()));
})();
