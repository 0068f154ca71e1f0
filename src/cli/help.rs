//! The long texts of `--help`: what framescope reads, how to record a capture with each
//! tool, and where the figures are defined.

/// After the options of `framescope --help` and `framescope report --help`.
pub const FORMATS_AND_CAPTURE: &str = "\
Formats read (detected from the content, not the file name):
  per frame  PresentMon 1.0-1.10 and 2.x (--v1_metrics, 2.0, 2.1-2.3 / --v2_metrics, 2.4+),
             PresentMon app captures (pmcap-*.csv), NVIDIA FrameView 1.1-1.6 logs,
             AMD OCAT, CapFrameX CSV and JSON, MangoHud 0.5-0.8 logs
  sampled    NVIDIA App performance logs, MSI Afterburner logs (.hml or saved as .csv),
             MangoHud logs written with a log_interval (figures weighted by each row's interval)
  engines    Unity FrameTimingManager (framescope's recorder CSV, Profiler-counter exports in ns),
             Unreal Engine CSV profiler (4.17-4.19 and 4.2x-5.x layouts, events, footer)
  generic    FRAPS frametimes, Unity Profile Analyzer frame-time exports, the Vulkan frame-time
             layer, game benchmark exports 'frame, fps, time' (time guessed as seconds, said so);
             any other CSV (also ';'-separated with decimal commas) with
             --column frame-time=NAME or --column timestamp=NAME and --unit s|ms|us|ns
             (the window asks with its Map columns step)
  Linux      CapFrameX on Linux CSV (+ its .json metadata), pyrofling latency-measurement logs
  Android    dumpsys SurfaceFlinger --latency and dumpsys gfxinfo framestats text (UTF-8/16),
             Perfetto traces with FrameTimeline (one run per layer)
  VR         XRFrameTools CSVs (OpenXR; one frame or Count frames a row; the headset's rate
             from Display XrTime), OVR Metrics Tool CSVs (Quest; sampled, one row a second)
  markers    PCL Stats marker logs (--pcl): Display Commander's, or framescope's plain marker CSV
  Folders given to `report` are walked for *.csv, *.json, *.hml, *.perfetto-trace, *.pftrace
  and Android dumps *.txt (known by their first lines); `-` reads standard input.

How to capture:
  PresentMon  PresentMon-2.x-x64.exe --process_name game.exe --output_file run1.csv --timed 60
              --terminate_after_timed  (1.x: single dashes, -process_name ...). Add
              --track_pc_latency for PCL columns. The PresentMon app writes pmcap-*.csv when
              you press its capture hotkey.
  FrameView   start FrameView, then the game; press FrameView's benchmark hotkey to start and
              stop. Use FrameView_<game>_<date>_Log.csv (not FrameView_Summary.csv).
  MangoHud    set output_folder (e.g. MANGOHUD_CONFIG=output_folder=/tmp/mh,log_interval=0
              mangohud %command%); Shift_L+F2 starts and stops a log. log_interval=0 logs
              every frame; a larger interval gives a sampled log. Or let framescope launch
              it: framescope record --duration 60 -o DIR -- ./game (Linux).
  NVIDIA App  turn on performance logging in the overlay's statistics settings; the log is
              sampled (one row about every 0.5 s).
  Afterburner Settings > Monitoring > \"Log history to file\"; the log is HardwareMonitoring.hml.
  Unity       add assets/unity/FramescopeRecorder.cs to a scene (see assets/unity/README.md),
              press F9 to start and stop; the CSV is in Application.persistentDataPath. Tick
              Project Settings > Player > Frame Timing Stats for release builds.
  Unreal      console: csvprofile start, play, csvprofile stop (or -csvprofile on the command
              line); the CSV is in Saved/Profiling/CSV. Its events become markers on the
              timeline and its [targetframerate] is offered as the target in the window.
  Live        follow a capture while it is written: framescope report --follow run.csv (a line
              of running figures on stderr each second; Ctrl-C, --stop-after-idle S or the end
              of standard input gives the final report), PresentMon ... --output_stdout |
              framescope report --follow -; in the window framescope --follow run.csv,
              framescope - (standard input) or framescope --watch DIR (each new capture in DIR).
  Record each scenario several times (compare A1 A2 A3 --vs B1 B2 B3 says what is noise) and
  leave the loading screen out with --trim-start S.

Every figure is defined in docs/figures.md of the framescope repository, with how it differs
from the CapFrameX, FrameView, PresentMon and MangoHud figure of the same name.";

/// After the options of `framescope compare --help`.
pub const COMPARE: &str = "\
Sets of runs (docs/figures.md §12): with several files per side (A1 A2 ... --vs B1 B2 ...), each
run is analysed on its own and a set's figure is the mean over its runs; a run whose average
FPS is more than --outlier-limit from its set's median is flagged and left out (a set keeps at
least two runs). Every figure gets Welch's 95 % interval for the difference of the means; a
change is better or worse only when the interval excludes 0, otherwise it is noise, and
--fail-if-worse fails only on significant changes beyond their limit. One file per side is the
plain comparison: a change below --noise-band (1 %, as the window) is noise, neither better nor
worse, and max_fps (one fastest frame) never gets a verdict; the gate keeps its own limits.

Every figure is defined in docs/figures.md of the framescope repository, with how it differs
from the CapFrameX, FrameView, PresentMon and MangoHud figure of the same name.";
