#!/usr/bin/env python3
"""Writes the synthetic A/B sample pair in this folder (deterministic, stdlib only).

The data is MADE UP. No permissively licensed pair of real captures of the same scene
on two configurations is public, so this script invents one to try `framescope report
A B`, `framescope compare A B` and the overlaid charts. Only the relations between the
figures are meant to be realistic, not the figures themselves.

synthetic-run-a.csv  A 60-second "benchmark scene" flythrough at about 110 FPS in the
                     PresentMon 2.4+ default layout (a subset of its columns). The scene
                     load varies over time: a heavier section from 22 to 38 s (about
                     85 FPS), slow wobbles, four asset-streaming stutters of +7-10 ms.
                     Small per-frame noise.
synthetic-run-b.csv  The same scene (same scene seed: same load curve and streaming
                     stutters, different per-frame noise) on a configuration whose GPU
                     is 8 % slower, plus what makes it worse than A:
                       * a shader-compile hitch (+25-60 ms of CPU time) about every 5 s;
                       * from 44 to 52 s, alternating fast/slow frames (0.68x / 1.32x the
                         normal frame time): frame-pacing oscillation.
                     So B has a lower average FPS, a much lower Steady FPS, more stutters
                     (the hitches, and the slow half of the alternating frames, which
                     stand out of their window's median) and the OSC flag.

Both runs are GPU-bound windowed games (Composed: Flip, SyncInterval 0) on a 144 Hz
display: a frame is shown at the first refresh (multiples of 6.944 ms) after its GPU
work is done; when the next frame is ready for the same refresh, DWM shows that one
instead and the earlier frame is dropped (NA display columns). Occasional late
compositions cause a few such drops in A; the fast frames of B's alternating section
cause more.

Consistency kept in every row: MsBetweenPresents is the difference of consecutive
TimeInMs (as written), MsCPUBusy + MsCPUWait = MsBetweenPresents, MsGPUBusy +
MsGPUWait = MsGPUTime, MsUntilDisplayed is the display time minus TimeInMs, and
MsBetweenDisplayChange is a whole number of refresh periods.

Run from this folder: `python3 make_synthetic_pair.py`.
"""
import math
import random

SCENE_SEED = 20260117          # the scene: load curve and streaming stutters
NOISE_SEEDS = {"a": 1101, "b": 2202}
DURATION_MS = 60_000.0
T0_MS = 350.0                  # TimeInMs of the first written frame (about)
REFRESH_MS = 1000.0 / 144.0
VBLANK_PHASE_MS = 1.2345       # where the display's refresh grid sits on the time axis
COMPOSE_MS = 0.6               # DWM needs the frame this long before the refresh

HEADER = ("Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
          "AllowsTearing,PresentMode,FrameType,TimeInMs,MsBetweenPresents,MsBetweenDisplayChange,"
          "MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsCPUBusy,MsCPUWait,"
          "MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait")
PREFIX = "SceneBench.exe,7316,0x1F6A3C2B9E0,DXGI,0,0,0,Composed: Flip,Application"


def make_scene():
    """The scene's GPU load (ms per frame at the A configuration) by scene time (s),
    and the scene times of its asset-streaming stutters with their extra CPU ms."""
    rng = random.Random(SCENE_SEED)
    bumps = [(rng.uniform(2, 58), rng.uniform(0.8, 3.0), rng.uniform(-0.5, 0.7)) for _ in range(7)]
    wobble_period = rng.uniform(6.0, 9.0)

    def load(t):
        # A smooth step up into the heavy section (22-38 s) and back down.
        heavy = 1.0 / (1.0 + math.exp(-(t - 22.0) / 0.8)) - 1.0 / (1.0 + math.exp(-(t - 38.0) / 0.8))
        ms = 8.55 + 2.7 * heavy + 0.22 * math.sin(2 * math.pi * t / wobble_period)
        for centre, width, amp in bumps:
            ms += amp * math.exp(-0.5 * ((t - centre) / width) ** 2)
        return ms

    streaming = [(t, rng.uniform(7.0, 10.0)) for t in (6.3, 19.7, 40.9, 57.2)]
    return load, streaming


def simulate(name, gpu_scale, hitches, oscillate):
    """One capture of the scene: a list of CSV rows."""
    load, streaming = make_scene()
    rng = random.Random(NOISE_SEEDS[name])
    pending_streaming = list(streaming)
    hitch_times = []
    if hitches:
        hitch_times = [2.5 + 5.0 * k + rng.uniform(-0.4, 0.4) for k in range(12)]
    frames = []
    present = T0_MS - 500.0       # half a second of warm-up, not written
    flip = 0
    while True:
        t = (present - T0_MS) / 1000.0   # scene time of this frame's start (s)
        gpu_busy = load(max(t, 0.0)) * gpu_scale * (1.0 + rng.gauss(0.0, 0.015))
        gpu_wait = rng.uniform(0.03, 0.25)
        ft = gpu_busy + gpu_wait + rng.gauss(0.12, 0.04)
        if oscillate and 44.0 <= t < 52.0:
            flip ^= 1
            factor = 1.32 if flip else 0.68
            ft *= factor
            gpu_busy *= factor
        cpu_work = ft * rng.uniform(0.55, 0.68)   # GPU-bound: the CPU waits the rest
        extra = 0.0
        if pending_streaming and t >= pending_streaming[0][0]:
            extra += pending_streaming.pop(0)[1]
        if hitch_times and t >= hitch_times[0]:
            hitch_times.pop(0)
            extra += rng.uniform(25.0, 60.0)
        ft += extra
        cpu_busy = cpu_work + extra
        gpu_latency = extra + rng.uniform(0.9, 2.2)
        start = present
        present = start + ft
        gpu_time = gpu_busy + gpu_wait
        render_latency = gpu_latency + gpu_time - cpu_busy   # Present() to GPU done
        ready = present + render_latency + COMPOSE_MS
        if rng.random() < 0.004:
            ready += REFRESH_MS                              # a late composition
        k = math.ceil((ready - VBLANK_PHASE_MS) / REFRESH_MS)
        frames.append({"present": present, "cpu_busy": cpu_busy, "gpu_latency": gpu_latency,
                       "gpu_time": gpu_time, "gpu_busy": gpu_busy, "render_latency": render_latency,
                       "refresh": k})
        if present > T0_MS + DURATION_MS:
            break

    # In order, each frame is shown at its refresh unless a later frame reaches the
    # same (or an earlier) refresh first; then it is dropped.
    for i in range(len(frames) - 1, 0, -1):
        frames[i - 1]["refresh"] = min(frames[i - 1]["refresh"], frames[i]["refresh"])
    for i, f in enumerate(frames):
        f["shown"] = i + 1 == len(frames) or frames[i + 1]["refresh"] > f["refresh"]

    rows = [HEADER]
    prev_time = None
    prev_display = None
    for f in frames:
        time_ms = round(f["present"], 4)
        display = VBLANK_PHASE_MS + f["refresh"] * REFRESH_MS
        if f["shown"]:
            between_display = None if prev_display is None else display - prev_display
            prev_display = display
        if prev_time is None or time_ms < T0_MS:     # warm-up
            prev_time = time_ms
            continue
        between = round(time_ms - prev_time, 4)
        prev_time = time_ms
        cpu_busy = round(min(f["cpu_busy"], between - 0.05), 4)
        cpu_wait = round(between - cpu_busy, 4)
        in_present = 0.25 + 0.8 * max(cpu_wait - 0.25, 0.0)
        if f["shown"] and between_display is not None:
            until = f"{display - time_ms:.4f}"
            change = f"{between_display:.4f}"
        else:
            until = change = "NA"
        rows.append(f"{PREFIX},{time_ms:.4f},{between:.4f},{change},{in_present:.3f},"
                    f"{f['render_latency']:.3f},{until},{cpu_busy:.4f},{cpu_wait:.4f},"
                    f"{f['gpu_latency']:.3f},{f['gpu_time']:.3f},{f['gpu_busy']:.3f},"
                    f"{f['gpu_time'] - f['gpu_busy']:.3f}")
    return rows


def main():
    runs = {
        "synthetic-run-a.csv": simulate("a", 1.00, hitches=False, oscillate=False),
        "synthetic-run-b.csv": simulate("b", 1.08, hitches=True, oscillate=True),
    }
    for path, rows in runs.items():
        with open(path, "w", newline="\n") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
