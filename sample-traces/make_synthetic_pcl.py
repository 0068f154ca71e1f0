#!/usr/bin/env python3
"""Writes the synthetic PCL sample pair in this folder (deterministic, stdlib only).

synthetic-pcl-capture.csv  PresentMon 2.4+ default layout with PCLFrameId, 2000 frames
                           of a game at ~100 FPS on a 60 Hz display (windowed: some
                           frames are never displayed).
synthetic-pcl-markers.csv  framescope's plain PCL marker CSV (formats.md section 9) of the
                           same session: SIMULATION_START, PRESENT_START and PRESENT_END
                           per frame, a PC_LATENCY_PING on the frame after each input
                           ping (PCLStatsInput every 100-300 ms).
No real PCL marker log is public, so this pair exists to try `--pcl` and the window's
PC-latency row. The figures are made up; only their relations are real.
"""
import random

rng = random.Random(20261121)
HEADER = ("Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
          "AllowsTearing,PresentMode,FrameType,TimeInMs,MsBetweenPresents,MsBetweenDisplayChange,"
          "MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsCPUBusy,MsCPUWait,PCLFrameId")
cap, mk = [HEADER], ["timestamp_ns,event,marker_id,frame_id"]
t = 1000.0            # ms, present time of the previous frame
sim = 990.0           # ms, simulation start of the current frame
next_input = 1100.0
last_display = None
frame_id = 5000
for i in range(2000):
    ft = rng.gauss(10.0, 0.8) + (25.0 if i % 450 == 300 else 0.0)
    ft = max(ft, 4.0)
    cpu_busy = ft * 0.7
    present = sim + cpu_busy
    ping = False
    while next_input <= sim:  # an input arrived before this frame sampled input
        mk.append(f"{int(next_input * 1e6)},PCLStatsInput,,")
        next_input += rng.uniform(100.0, 300.0)
        ping = True
    mk.append(f"{int(sim * 1e6)},PCLStatsEvent,0,{frame_id}")
    if ping:
        mk.append(f"{int(sim * 1e6)},PCLStatsEvent,8,{frame_id}")
    mk.append(f"{int(present * 1e6)},PCLStatsEvent,4,{frame_id}")
    mk.append(f"{int((present + 0.4) * 1e6)},PCLStatsEvent,5,{frame_id}")
    dropped = rng.random() < 0.35
    if dropped:
        until, between = "NA", "NA"
    else:
        until_v = rng.uniform(6.0, 16.0)
        shown = present + until_v
        between_v = 16.6667 if last_display is None else max(shown - last_display, 0.1)
        last_display = shown
        until, between = f"{until_v:.4f}", f"{between_v:.4f}"
    cap.append(f"game.exe,4242,0x2A70D2CAC00,DXGI,0,0,0,Composed: Flip,Application,{present:.4f},"
               f"{ft:.4f},{between},0.4000,{rng.uniform(2, 5):.4f},{until},{cpu_busy:.4f},{ft - cpu_busy:.4f},{frame_id}")
    sim += ft
    frame_id += rng.choice([1, 1, 1, 2])  # FrameIDs are monotonic, not contiguous
with open("synthetic-pcl-capture.csv", "w", newline="\n") as f:
    f.write("\n".join(cap) + "\n")
with open("synthetic-pcl-markers.csv", "w", newline="\n") as f:
    f.write("\n".join(mk) + "\n")
