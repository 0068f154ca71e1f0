// SPDX-License-Identifier: MIT
// Copyright (c) framescope contributors
//
// FramescopeRecorder: records Unity's per-frame timings (FrameTimingManager) into the CSV
// file that framescope reads (formats.md section 7, "framescope-unity 1"). Drop this file
// into any Unity 2022.3 or Unity 6 project, add the component to a GameObject in your first
// scene, press the toggle key (F9 by default) or call Begin() / End() from code, then open
// the file with `framescope report FILE` or in the framescope window.
//
// ---------------------------------------------------------------------------------------
// What has to be switched on: "Frame Timing Stats"
//
//   Development builds and the Editor always collect frame timings. A release (non-
//   development) player collects them only when Edit > Project Settings > Player >
//   Other Settings > "Frame Timing Stats" is ticked (PlayerSettings.enableFrameTimingStats).
//   Without it FrameTimingManager returns no frames and the recorder writes only the two
//   header lines; Begin() logs a warning when FrameTimingManager.IsFeatureEnabled() says the
//   feature is off. Adding this component in the Editor ticks the setting for you (Reset()
//   below); you can also use the component's context menu. Unity notes that collecting
//   frame timings has a small but noticeable cost of its own.
//
// What happens without GPU timing
//
//   FrameTimingManager does not promise GPU times: on platforms or drivers without GPU
//   timestamps, or when the GPU answers too late, Unity reports gpuFrameTime = 0. The
//   recorder writes that 0 as it is, and framescope reads gpuFrameTime 0 as *missing* (no
//   GPU time for that frame), never as a 0 ms GPU frame: that frame's GPU value is left
//   out of the frame-health row, and a capture whose GPU times are all 0 simply has no GPU
//   action. On such platforms Unity also derives cpuTimeFrameComplete instead of measuring
//   it (firstSubmit + GPU time, or presentCalled when there is no GPU time), so framescope's
//   "GPU" latency stage is then 0 or an estimate. Frame times (cpuFrameTime), the time axis
//   and the CPU actions are unaffected.
//
// How it works
//
//   * Every frame while recording, Update() calls FrameTimingManager.CaptureFrameTimings()
//     and reads the newest timings with GetLatestTimings(). Unity delivers a frame's timing
//     a few frames late (the manual says four) and may deliver zero, one or several new
//     frames per call, so the recorder keeps the frameStartTimestamp of the last row it
//     wrote and writes every newer frame once, oldest first.
//   * Rows go into a bounded queue (queueCapacity rows). A background thread formats them
//     and writes the file. The main thread never touches the disk, and never waits: if
//     the disk stalls and the queue fills up, new rows are dropped and counted, and the
//     count is logged when the recording ends (raise queueCapacity if you ever see it).
//   * End() only closes the queue; the writer thread drains it, flushes and closes the file
//     on its own. On application quit the recorder ends any recording and waits (at most
//     quitFlushTimeoutMs) for the writer threads to finish, so the file is complete. While
//     recording, the writer also flushes about once a second and when the app is paused
//     (mobile apps are often killed while paused, without a quit event).
//
// File (formats.md section 7, followed to the letter):
//
//   # framescope-unity 1,cpu_timer_frequency=<Hz>,unity=<version>,platform=<platform>,device=<GPU>,target_fps=<F>,vsync=<n>
//   frame,cpuFrameTime,cpuMainThreadFrameTime,cpuRenderThreadFrameTime,cpuMainThreadPresentWaitTime,gpuFrameTime,frameStartTimestamp,firstSubmitTimestamp,cpuTimePresentCalled,cpuTimeFrameComplete,syncInterval,widthScale,heightScale
//   <one row per frame>
//
//   Durations are milliseconds with four decimals, timestamps are CPU-timer ticks
//   (ms = ticks * 1000 / cpu_timer_frequency), every number uses '.' as the decimal mark
//   whatever the machine's locale. The header values are taken once, when recording starts:
//     cpu_timer_frequency  FrameTimingManager.GetCpuTimerFrequency() (0 when the platform
//                          cannot tell; framescope then assumes 10 MHz)
//     unity                Application.unityVersion
//     platform             Application.platform (e.g. WindowsPlayer, Android, OSXEditor)
//     device               SystemInfo.graphicsDeviceName
//     target_fps           the rate the game aims at: refresh rate / vSyncCount when VSync is
//                          on, else Application.targetFrameRate when it is > 0, else 0
//                          (no target: uncapped, or the platform's default)
//     vsync                QualitySettings.vSyncCount (0 = off)
//   Commas, '=' and line breaks in header values are replaced by spaces, so the line stays
//   one list of key=value pairs.
//   `frame` is a label: the Unity frame number of the first recorded frame is estimated as
//   Time.frameCount minus the four-frame delay, and each further row adds one. framescope
//   orders and times frames by frameStartTimestamp, not by this column.
//
// Not supported: WebGL players (no threads there; Begin() logs an error and does nothing).

using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Threading;
using UnityEngine;
#if ENABLE_INPUT_SYSTEM
using UnityEngine.InputSystem;
#endif

[DisallowMultipleComponent]
[AddComponentMenu("framescope/Framescope Recorder")]
public sealed class FramescopeRecorder : MonoBehaviour
{
    // ---------------------------------------------------------------- settings

    // The toggle key. With "Active Input Handling" set to the Input System package (or
    // Both), the key is read through the Input System; with the old Input Manager only,
    // through UnityEngine.Input. None disables the key (use Begin()/End() from code).
#if ENABLE_INPUT_SYSTEM
    [Tooltip("Key that starts and stops recording (Input System). None = no key.")]
    [SerializeField] Key toggleKey = Key.F9;
#elif ENABLE_LEGACY_INPUT_MANAGER
    [Tooltip("Key that starts and stops recording (Input Manager). None = no key.")]
    [SerializeField] KeyCode toggleKey = KeyCode.F9;
#endif

    [Tooltip("Start recording as soon as this component starts.")]
    [SerializeField] bool recordOnStart = false;

    [Tooltip("Keep this GameObject (it must be a root object) alive across scene loads.")]
    [SerializeField] bool keepAcrossScenes = true;

    [Tooltip("Folder for the CSV files. Empty = Application.persistentDataPath; a relative " +
             "path is taken inside Application.persistentDataPath.")]
    [SerializeField] string outputFolder = "";

    [Tooltip("File names are <prefix>_<yyyyMMdd-HHmmss-fff>.csv (local time).")]
    [SerializeField] string fileNamePrefix = "framescope-unity";

    [Tooltip("Rows waiting for the writer thread. When full, new rows are dropped (and " +
             "counted) rather than stalling the game.")]
    [SerializeField] int queueCapacity = 16384;

    [Tooltip("On application quit, how long to wait for the file to be written (ms).")]
    [SerializeField] int quitFlushTimeoutMs = 3000;

    // ---------------------------------------------------------------- public API

    /// <summary>True while frames are being recorded.</summary>
    public bool IsRecording => current != null;

    /// <summary>The file being written, or the last one written (null before the first).</summary>
    public string FilePath { get; private set; }

    /// <summary>Start recording into a new file. Does nothing when already recording.</summary>
    public void Begin()
    {
        if (current != null)
            return;
#if UNITY_WEBGL && !UNITY_EDITOR
        _ = fileNamePrefix; // settings unused here (keeps the compiler quiet)
        _ = queueCapacity;
        Debug.LogError("FramescopeRecorder: WebGL players have no threads; recording is not supported.");
        return;
#else
        if (!FrameTimingManager.IsFeatureEnabled())
            Debug.LogWarning("FramescopeRecorder: frame timing statistics are off in this player. " +
                             "Tick Project Settings > Player > Frame Timing Stats (release builds " +
                             "need it), or no frames will be recorded.");
        if (FrameTimingManager.GetGpuTimerFrequency() == 0)
            Debug.Log("FramescopeRecorder: this platform reports no GPU timer; gpuFrameTime will " +
                      "probably be 0 (framescope reads 0 as missing).");

        string folder = ResolveFolder();
        string stamp = DateTime.Now.ToString("yyyyMMdd-HHmmss-fff", CultureInfo.InvariantCulture);
        string path = Path.Combine(folder, SafeFileName(fileNamePrefix) + "_" + stamp + ".csv");
        current = new Writer(path, HeaderLine(), Math.Max(64, queueCapacity));
        lock (Open)
            Open.Add(current);
        FilePath = path;
        // Record only frames that start after this point: frames Unity had already
        // finished are skipped by remembering the newest start timestamp available now.
        lastStartTicks = 0;
        FrameTimingManager.CaptureFrameTimings();
        if (FrameTimingManager.GetLatestTimings(1, timings) > 0)
            lastStartTicks = timings[0].frameStartTimestamp;
        nextFrameLabel = -1;
        framesWithoutTimings = 0;
        Debug.Log("FramescopeRecorder: recording to " + path);
#endif
    }

    /// <summary>Stop recording. Returns at once; the writer thread finishes the file.</summary>
    public void End()
    {
        if (current == null)
            return;
        Writer w = current;
        current = null;
        w.Complete();
        closing.Add(w);
        Debug.Log("FramescopeRecorder: stopped; " + w.Path);
    }

    /// <summary>Begin() when stopped, End() when recording.</summary>
    public void Toggle()
    {
        if (current == null)
            Begin();
        else
            End();
    }

    // ---------------------------------------------------------------- Unity messages

    void Awake()
    {
        if (keepAcrossScenes)
        {
            // One recorder survives scene loads; a second copy (the first scene loaded
            // again) removes itself so the key does not toggle twice.
            if (kept != null && kept != this)
            {
                Destroy(this);
                return;
            }
            kept = this;
            if (transform.parent == null)
                DontDestroyOnLoad(gameObject);
        }
        quitTimeoutMs = quitFlushTimeoutMs;
        if (!quitHooked)
        {
            Application.quitting += FinishAllOnQuit;
            quitHooked = true;
        }
    }

    void Start()
    {
        if (recordOnStart)
            Begin();
    }

    void Update()
    {
        if (ToggleKeyPressed())
            Toggle();
        if (current != null)
            Capture();
        ReportClosedWriters();
    }

    void OnApplicationPause(bool paused)
    {
        // Mobile platforms may kill a paused app without a quit event: get rows to disk.
        if (paused && current != null)
            current.RequestFlush();
    }

    void OnApplicationQuit()
    {
        // The file is completed in FinishAllOnQuit (Application.quitting), which waits for
        // every writer, including those of recorders destroyed earlier.
        End();
    }

    void OnDestroy()
    {
        End();
        if (kept == this)
            kept = null;
    }

#if UNITY_EDITOR
    // Called when the component is added in the Editor: release players only collect frame
    // timings with "Frame Timing Stats" ticked, so tick it (once) and say so.
    void Reset()
    {
        EnableFrameTimingStats();
    }

    [ContextMenu("Enable Frame Timing Stats in Player Settings")]
    void EnableFrameTimingStats()
    {
        if (!UnityEditor.PlayerSettings.enableFrameTimingStats)
        {
            UnityEditor.PlayerSettings.enableFrameTimingStats = true;
            Debug.Log("FramescopeRecorder: ticked Project Settings > Player > Frame Timing Stats " +
                      "(needed in release builds).");
        }
    }
#endif

    // ---------------------------------------------------------------- capture (main thread)

    // Unity's documented delay between a frame and its timing becoming available.
    const int FrameTimingDelay = 4;
    // How many of the newest timings to ask for each frame: enough to catch up after a
    // frame in which Unity delivered none.
    const int TimingsPerRead = 16;

    // Writers whose file is not complete yet, of every recorder: waited for at quit.
    static readonly List<Writer> Open = new List<Writer>();
    static FramescopeRecorder kept;
    static bool quitHooked;
    static int quitTimeoutMs = 3000;

    readonly FrameTiming[] timings = new FrameTiming[TimingsPerRead];
    readonly List<Writer> closing = new List<Writer>();
    Writer current;
    ulong lastStartTicks;
    long nextFrameLabel = -1;
    int framesWithoutTimings;

    void Capture()
    {
        FrameTimingManager.CaptureFrameTimings();
        uint count = FrameTimingManager.GetLatestTimings((uint)timings.Length, timings);
        if (count == 0)
        {
            // Normal for the first frames; a warning if it never changes.
            if (++framesWithoutTimings == 300)
                Debug.LogWarning("FramescopeRecorder: no frame timings after 300 frames. Is Frame " +
                                 "Timing Stats ticked in Project Settings > Player?");
            return;
        }
        framesWithoutTimings = 0;
        // Element 0 is the newest finished frame: walk from the oldest to the newest and
        // write each frame not written before (by its start timestamp).
        for (int i = (int)count - 1; i >= 0; i--)
        {
            ulong start = timings[i].frameStartTimestamp;
            if (start != 0 && start <= lastStartTicks)
                continue;
            if (start == 0 && i != 0)
                continue; // no timestamps on this platform: take only the newest frame
            if (nextFrameLabel < 0)
                nextFrameLabel = Math.Max(0, Time.frameCount - FrameTimingDelay - i);
            current.Add(new Row { Frame = nextFrameLabel++, Timing = timings[i] });
            if (start != 0)
                lastStartTicks = start;
        }
    }

    bool ToggleKeyPressed()
    {
#if ENABLE_INPUT_SYSTEM
        Keyboard keyboard = Keyboard.current;
        return toggleKey != Key.None && keyboard != null && keyboard[toggleKey].wasPressedThisFrame;
#elif ENABLE_LEGACY_INPUT_MANAGER
        return toggleKey != KeyCode.None && Input.GetKeyDown(toggleKey);
#else
        return false;
#endif
    }

    void ReportClosedWriters()
    {
        for (int i = closing.Count - 1; i >= 0; i--)
        {
            Writer w = closing[i];
            if (!w.IsFinished)
                continue;
            closing.RemoveAt(i);
            bool mine;
            lock (Open)
                mine = Open.Remove(w); // false when FinishAllOnQuit took it
            if (mine)
                Report(w);
        }
    }

    static void Report(Writer w)
    {
        if (w.Error != null)
        {
            Debug.LogError("FramescopeRecorder: could not write " + w.Path + " (" + w.RowsWritten +
                           " frames written): " + w.Error.Message);
            return;
        }
        Debug.Log("FramescopeRecorder: wrote " + w.RowsWritten + " frames to " + w.Path);
        if (w.RowsDropped > 0)
            Debug.LogWarning("FramescopeRecorder: " + w.RowsDropped + " frames were dropped because " +
                             "the write queue was full (raise queueCapacity).");
    }

    // Application.quitting (also raised when the Editor leaves Play mode): end every
    // recording and wait, within the timeout, for the files to be complete.
    static void FinishAllOnQuit()
    {
        Writer[] open;
        lock (Open)
        {
            open = Open.ToArray();
            Open.Clear();
        }
        int deadline = Environment.TickCount + Math.Max(0, quitTimeoutMs);
        foreach (Writer w in open)
            w.Complete();
        foreach (Writer w in open)
        {
            if (w.Wait(Math.Max(0, deadline - Environment.TickCount)))
                Report(w);
            else
                Debug.LogWarning("FramescopeRecorder: " + w.Path + " was still being written at quit.");
        }
    }

    // ---------------------------------------------------------------- header values

    string ResolveFolder()
    {
        string root = Application.persistentDataPath;
        if (string.IsNullOrWhiteSpace(outputFolder))
            return root;
        return Path.IsPathRooted(outputFolder) ? outputFolder : Path.Combine(root, outputFolder);
    }

    static string HeaderLine()
    {
        var inv = CultureInfo.InvariantCulture;
        int vsync = QualitySettings.vSyncCount;
        return "# framescope-unity 1" +
               ",cpu_timer_frequency=" + FrameTimingManager.GetCpuTimerFrequency().ToString(inv) +
               ",unity=" + HeaderValue(Application.unityVersion) +
               ",platform=" + HeaderValue(Application.platform.ToString()) +
               ",device=" + HeaderValue(SystemInfo.graphicsDeviceName) +
               ",target_fps=" + TargetFps(vsync).ToString(inv) +
               ",vsync=" + vsync.ToString(inv);
    }

    // The frame rate the game aims at (see the file comment).
    static int TargetFps(int vsync)
    {
        if (vsync > 0)
        {
            double hz = Screen.currentResolution.refreshRateRatio.value;
            if (hz > 0)
                return (int)Math.Round(hz / vsync);
        }
        return Application.targetFrameRate > 0 ? Application.targetFrameRate : 0;
    }

    static string HeaderValue(string s)
    {
        if (string.IsNullOrEmpty(s))
            return "";
        var b = new StringBuilder(s.Length);
        foreach (char c in s)
            b.Append(c == ',' || c == '=' || c == '\r' || c == '\n' ? ' ' : c);
        return b.ToString().Trim();
    }

    static string SafeFileName(string s)
    {
        if (string.IsNullOrWhiteSpace(s))
            return "framescope-unity";
        foreach (char c in Path.GetInvalidFileNameChars())
            s = s.Replace(c, '_');
        return s;
    }

    // ---------------------------------------------------------------- writer (background)

    struct Row
    {
        public long Frame;
        public FrameTiming Timing;
    }

    // One file: a bounded queue filled by the main thread and a thread that writes it.
    sealed class Writer
    {
        const string Columns =
            "frame,cpuFrameTime,cpuMainThreadFrameTime,cpuRenderThreadFrameTime," +
            "cpuMainThreadPresentWaitTime,gpuFrameTime,frameStartTimestamp,firstSubmitTimestamp," +
            "cpuTimePresentCalled,cpuTimeFrameComplete,syncInterval,widthScale,heightScale";
        const int IdleWaitMs = 250;
        const int FlushEveryMs = 1000;

        public readonly string Path;
        readonly string header;
        readonly BlockingCollection<Row> queue;
        readonly Thread thread;
        readonly ManualResetEvent finished = new ManualResetEvent(false);
        int dropped;
        long written;
        volatile bool flushRequested;
        volatile bool isFinished;

        public Exception Error { get; private set; }
        public bool IsFinished => isFinished;
        public int RowsDropped => Volatile.Read(ref dropped);
        public long RowsWritten => Interlocked.Read(ref written);

        public Writer(string path, string headerLine, int capacity)
        {
            Path = path;
            header = headerLine;
            queue = new BlockingCollection<Row>(new ConcurrentQueue<Row>(), capacity);
            thread = new Thread(Run) { IsBackground = true, Name = "FramescopeRecorder writer" };
            thread.Start();
        }

        // Main thread: never blocks. A full queue drops the row and counts it.
        public void Add(Row row)
        {
            bool added = false;
            try
            {
                added = !queue.IsAddingCompleted && queue.TryAdd(row);
            }
            catch (InvalidOperationException)
            {
                // the writer thread failed and closed the queue in between
            }
            if (!added)
                Interlocked.Increment(ref dropped);
        }

        public void Complete() => queue.CompleteAdding(); // a no-op when already complete

        public void RequestFlush() => flushRequested = true;

        public bool Wait(int milliseconds) => finished.WaitOne(milliseconds);

        void Run()
        {
            try
            {
                string dir = System.IO.Path.GetDirectoryName(Path);
                if (!string.IsNullOrEmpty(dir))
                    Directory.CreateDirectory(dir);
                using (var stream = new FileStream(Path, FileMode.CreateNew, FileAccess.Write,
                                                   FileShare.Read, 1 << 16))
                using (var w = new StreamWriter(stream, new UTF8Encoding(false)))
                {
                    w.NewLine = "\n";
                    w.WriteLine(header);
                    w.WriteLine(Columns);
                    w.Flush();
                    var inv = CultureInfo.InvariantCulture;
                    int lastFlush = Environment.TickCount;
                    while (!queue.IsCompleted)
                    {
                        if (queue.TryTake(out Row r, IdleWaitMs))
                        {
                            WriteRow(w, r, inv);
                            Interlocked.Increment(ref written);
                        }
                        else
                        {
                            flushRequested = true; // idle: push what we have to disk
                        }
                        if (flushRequested || Environment.TickCount - lastFlush >= FlushEveryMs)
                        {
                            flushRequested = false;
                            w.Flush();
                            lastFlush = Environment.TickCount;
                        }
                    }
                    w.Flush();
                }
            }
            catch (Exception e)
            {
                Error = e;
                // Nobody reads the queue any more: close it, so further rows count as dropped.
                queue.CompleteAdding();
            }
            finally
            {
                isFinished = true;
                finished.Set();
            }
        }

        static void WriteRow(StreamWriter w, Row r, IFormatProvider inv)
        {
            FrameTiming t = r.Timing;
            w.Write(r.Frame.ToString(inv));
            w.Write(','); w.Write(t.cpuFrameTime.ToString("F4", inv));
            w.Write(','); w.Write(t.cpuMainThreadFrameTime.ToString("F4", inv));
            w.Write(','); w.Write(t.cpuRenderThreadFrameTime.ToString("F4", inv));
            w.Write(','); w.Write(t.cpuMainThreadPresentWaitTime.ToString("F4", inv));
            w.Write(','); w.Write(t.gpuFrameTime.ToString("F4", inv)); // 0 = no GPU timing
            w.Write(','); w.Write(t.frameStartTimestamp.ToString(inv));
            w.Write(','); w.Write(t.firstSubmitTimestamp.ToString(inv));
            w.Write(','); w.Write(t.cpuTimePresentCalled.ToString(inv));
            w.Write(','); w.Write(t.cpuTimeFrameComplete.ToString(inv));
            w.Write(','); w.Write(t.syncInterval.ToString(inv));
            w.Write(','); w.Write(t.widthScale.ToString("0.####", inv));
            w.Write(','); w.Write(t.heightScale.ToString("0.####", inv));
            w.WriteLine();
        }
    }
}
