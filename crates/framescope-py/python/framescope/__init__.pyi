"""Type hints of the ``framescope`` package (checked by mypy --strict in python/ci.sh).
The figure classes between the BEGIN/END lines are written from the figure registry
(``python -m framescope._figures_stub``); a test checks they match it."""

import os
from typing import Any, Callable, Dict, List, Literal, Optional, Sequence, Tuple, Union

import polars as pl

__version__: str
RUN_COLUMNS: List[str]

PathLike = Union[str, os.PathLike[str]]
Paths = Union[PathLike, Sequence[PathLike]]
Progress = Union[None, bool, Callable[[int, int], Any]]
FrameTime = Literal["auto", "presents", "display"]
Unit = Literal["s", "ms", "us", "ns"]
Naming = Literal["cli", "snake"]
Errors = Literal["include", "raise"]
#: ``"default"``, ``"all"``, a process id, an application, or ``"PID:SWAPCHAIN"``.
TraceSelector = Union[Literal["default", "all"], int, str]
#: ``"frame-time=NAME"`` / ``"timestamp=NAME"``, or ``("frame-time", NAME)``.
ColumnSpec = Union[None, str, Tuple[Literal["frame-time", "timestamp"], str]]
#: A fraction (``0.2``) or a percentage (``"20%"``).
Fraction = Union[float, str]

class FramescopeError(Exception):
    path: Optional[str]
    line: Optional[int]
    def __init__(self, message: str, *, path: Optional[str] = ..., line: Optional[int] = ...) -> None: ...

class CaptureNotFoundError(FramescopeError, FileNotFoundError): ...
class CaptureError(FramescopeError, ValueError): ...

class OptionError(FramescopeError, ValueError):
    option: str
    def __init__(self, message: str, *, option: str) -> None: ...

class Record(Dict[str, Any]):
    def __getattr__(self, name: str) -> Any: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Warning_(Record):
    message: str
    line: Optional[int]
    informational: bool

class Figures(Record): ...

# BEGIN figures (python -m framescope._figures_stub)
class RunFigures(Figures):
    """The ``run`` figures of a run."""
    frames: Optional[int]
    duration_ms: Optional[float]
    dropped_frames: Optional[int]

class SummaryFigures(Figures):
    """The ``summary`` figures of a run."""
    avg_fps: Optional[float]
    min_fps: Optional[float]
    max_fps: Optional[float]
    p50_ms: Optional[float]
    p90_ms: Optional[float]
    p95_ms: Optional[float]
    p99_ms: Optional[float]
    p99_9_ms: Optional[float]
    low_1pct_fps: Optional[float]
    low_0_1pct_fps: Optional[float]

class PacingFigures(Figures):
    """The ``pacing`` figures of a run."""
    steady_fps: Optional[float]
    mostly_steady_fps: Optional[float]
    typical_fps: Optional[float]
    slow_time_fraction: Optional[float]
    excess_time_fraction: Optional[float]

class StuttersFigures(Figures):
    """The ``stutters`` figures of a run."""
    count: Optional[int]
    time_fraction: Optional[float]

class OscFigures(Figures):
    """The ``osc`` figures of a run."""
    oscillating_frames: Optional[int]
    p90_iqr_ms: Optional[float]
    p90_iqr_ratio: Optional[float]

class LatencyFigures(Figures):
    """The ``latency`` figures of a run."""
    pcl_ms: Optional[float]
    i2fs_ms: Optional[float]
    fs2p_ms: Optional[float]
    p2d_ms: Optional[float]
    pc_latency_column_mean_ms: Optional[float]
    display_latency_mean_ms: Optional[float]
    click_to_photon_mean_ms: Optional[float]
    pc_latency_min_ms: Optional[float]
    pc_latency_max_ms: Optional[float]
    render_present_latency_mean_ms: Optional[float]
    all_input_to_photon_mean_ms: Optional[float]
    animation_error_mean_abs_ms: Optional[float]
    animation_error_p99_abs_ms: Optional[float]
    animation_error_over_1ms_fraction: Optional[float]
    animation_error_displayed_mean_abs_ms: Optional[float]
    input_to_display_mean_ms: Optional[float]
    input_to_present_mean_ms: Optional[float]
    present_to_gpu_idle_mean_ms: Optional[float]
    gpu_idle_to_display_mean_ms: Optional[float]

class LimiterFigures(Figures):
    """The ``limiter`` figures of a run."""
    gpu_time_fraction: Optional[float]
    cpu_time_fraction: Optional[float]
    neither_time_fraction: Optional[float]
    gpu_busy_mean_ms: Optional[float]
    cpu_busy_mean_ms: Optional[float]
    gpu_busy_share: Optional[float]

class FrameTypesFigures(Figures):
    """The ``frame_types`` figures of a run."""
    application_fps: Optional[float]
    generated_fps: Optional[float]

class EfficiencyFigures(Figures):
    """The ``efficiency`` figures of a run."""
    fps_per_watt: Optional[float]
    power_mean_w: Optional[float]
    cpu_fps_per_watt: Optional[float]
    cpu_power_mean_w: Optional[float]

class ToolFiguresFigures(Figures):
    """The ``tool_figures`` figures of a run."""
    avg_fps: Optional[float]
    low_1pct_fps: Optional[float]
    low_0_1pct_fps: Optional[float]
    min_fps: Optional[float]
    max_fps: Optional[float]

class CapframexFigures(Figures):
    """The ``capframex`` figures of a run."""
    average_fps: Optional[float]
    min_fps: Optional[float]
    max_fps: Optional[float]
    p99_fps: Optional[float]
    p95_fps: Optional[float]
    median_fps: Optional[float]
    p5_fps: Optional[float]
    p1_fps: Optional[float]
    p0_2_fps: Optional[float]
    p0_1_fps: Optional[float]
    low_1pct_avg_fps: Optional[float]
    low_0_1pct_avg_fps: Optional[float]
    low_1pct_integral_fps: Optional[float]
    low_0_1pct_integral_fps: Optional[float]
    stuttering_time_fraction: Optional[float]
    low_fps_time_fraction: Optional[float]

class FrameviewFigures(Figures):
    """The ``frameview`` figures of a run."""
    average_fps: Optional[float]
    low_1pct_fps: Optional[float]
    low_0_1pct_fps: Optional[float]
    fps_10pct: Optional[float]
    fps_5pct: Optional[float]
    fps_1pct: Optional[float]
    fps_0_1pct: Optional[float]
    gpu_nv_power_w: Optional[float]
    cpu_package_power_w: Optional[float]
    perf_per_watt_pcat: Optional[float]

class PresentmonFigures(Figures):
    """The ``presentmon`` figures of a run."""
    average_fps: Optional[float]
    p1_fps: Optional[float]
    p5_fps: Optional[float]
    min_fps: Optional[float]
    max_fps: Optional[float]

class MangohudFigures(Figures):
    """The ``mangohud`` figures of a run."""
    average_fps: Optional[float]
    low_1pct_fps: Optional[float]
    low_0_1pct_fps: Optional[float]
    p97_fps: Optional[float]

class _RunSections:
    summary: SummaryFigures
    pacing: PacingFigures
    stutters: StuttersFigures
    osc: OscFigures
    latency: LatencyFigures
    limiter: LimiterFigures
    frame_types: FrameTypesFigures
    efficiency: EfficiencyFigures
    tool_figures: ToolFiguresFigures
    capframex: CapframexFigures
    frameview: FrameviewFigures
    presentmon: PresentmonFigures
    mangohud: MangohudFigures
    run: RunFigures
# END figures

class RunError(Record):
    message: str
    line: Optional[int]

class Run(Record, _RunSections):
    file: str
    format: str
    format_version: str
    application: str
    process_id: Optional[int]
    swap_chain: Optional[str]
    runtime: Optional[str]
    present_modes: List[str]
    frame_time: str
    sampled: bool
    samples: Optional[int]
    frames: int
    dropped_frames: Optional[int]
    duration_ms: float
    warnings: List[Warning_]
    error: Optional[RunError]
    @property
    def failed(self) -> bool: ...

class Report(Record, _RunSections):
    schema: int
    settings: Record
    runs: List[Run]
    frames: int
    duration_ms: float
    warnings: List[Warning_]
    @property
    def run(self) -> Run: ...  # type: ignore[override]

class Comparison(Record):
    schema: int
    settings: Record
    runs: List[Run]
    comparison: Optional[Record]
    noise_band: Optional[float]
    regressions: List[Record]
    not_comparable: List[Record]
    sets: Optional[Record]

class Trace(Record):
    index: int
    label: str
    application: str
    process_id: Optional[int]
    swap_chain: Optional[str]
    runtime: Optional[str]
    present_modes: List[str]
    rows: int
    sampled: bool
    reported: bool
    warnings: List[Warning_]

class Capture:
    path: str
    format: str
    format_version: str
    system: Dict[str, str]
    warnings: List[Warning_]
    traces: List[Trace]
    def analyze(self, *, target_fps: float = ..., stutter_threshold: Fraction = ..., stutter_floor_ms: float = ...,
                refresh_hz: Optional[float] = ..., frame_time: FrameTime = ...) -> Report: ...
    def frames(self, *, target_fps: float = ..., stutter_threshold: Fraction = ..., stutter_floor_ms: float = ...,
               refresh_hz: Optional[float] = ..., frame_time: FrameTime = ..., analysed_only: bool = ...,
               columns: Optional[Sequence[str]] = ...) -> pl.DataFrame: ...

def open(path: PathLike, *, trace: TraceSelector = ..., trim_start: float = ..., trim_end: float = ...,
         column: ColumnSpec = ..., extra_column: Union[None, str, Sequence[str]] = ..., unit: Unit = ...,
         qpc_frequency: Optional[float] = ..., pcl: Optional[PathLike] = ..., strict: bool = ...,
         max_skipped: Optional[Fraction] = ..., progress: Progress = ...) -> Capture: ...

def scan_frames(path: PathLike, *, target_fps: float = ..., stutter_threshold: Fraction = ...,
                stutter_floor_ms: float = ..., refresh_hz: Optional[float] = ..., frame_time: FrameTime = ...,
                analysed_only: bool = ..., trace: TraceSelector = ..., trim_start: float = ...,
                trim_end: float = ..., column: ColumnSpec = ..., extra_column: Union[None, str, Sequence[str]] = ...,
                unit: Unit = ..., qpc_frequency: Optional[float] = ..., pcl: Optional[PathLike] = ...,
                strict: bool = ..., max_skipped: Optional[Fraction] = ..., progress: Progress = ...) -> pl.LazyFrame: ...

def captures(paths: Paths) -> List[str]: ...

def report(paths: Paths, *, errors: Errors = ..., progress: Progress = ..., target_fps: float = ...,
           stutter_threshold: Fraction = ..., stutter_floor_ms: float = ..., refresh_hz: Optional[float] = ...,
           frame_time: FrameTime = ..., trace: TraceSelector = ..., trim_start: float = ..., trim_end: float = ...,
           column: ColumnSpec = ..., extra_column: Union[None, str, Sequence[str]] = ..., unit: Unit = ...,
           qpc_frequency: Optional[float] = ..., workers: Optional[int] = ..., strict: bool = ...,
           max_skipped: Optional[Fraction] = ..., pcl: Optional[PathLike] = ...) -> Report: ...

def compare(baseline: Paths, other: Paths, *, fail_if_worse: Union[None, str, Sequence[str]] = ...,
            allow_missing: bool = ..., outlier_limit: Fraction = ..., noise_band: Fraction = ...,
            progress: Progress = ..., target_fps: float = ..., stutter_threshold: Fraction = ...,
            stutter_floor_ms: float = ..., refresh_hz: Optional[float] = ..., frame_time: FrameTime = ...,
            trace: TraceSelector = ..., trim_start: float = ..., trim_end: float = ..., column: ColumnSpec = ...,
            extra_column: Union[None, str, Sequence[str]] = ..., unit: Unit = ...,
            qpc_frequency: Optional[float] = ..., workers: Optional[int] = ...) -> Comparison: ...

def frames(path: PathLike, *, target_fps: float = ..., stutter_threshold: Fraction = ...,
           stutter_floor_ms: float = ..., refresh_hz: Optional[float] = ..., frame_time: FrameTime = ...,
           trace: TraceSelector = ..., trim_start: float = ..., trim_end: float = ..., column: ColumnSpec = ...,
           extra_column: Union[None, str, Sequence[str]] = ..., unit: Unit = ...,
           qpc_frequency: Optional[float] = ...) -> pl.DataFrame: ...

def batch(paths: Paths, *, naming: Naming = ..., progress: Progress = ..., workers: Optional[int] = ...,
          target_fps: float = ..., stutter_threshold: Fraction = ..., stutter_floor_ms: float = ...,
          refresh_hz: Optional[float] = ..., frame_time: FrameTime = ..., trace: TraceSelector = ...,
          trim_start: float = ..., trim_end: float = ..., column: ColumnSpec = ...,
          extra_column: Union[None, str, Sequence[str]] = ..., unit: Unit = ...,
          qpc_frequency: Optional[float] = ...) -> pl.DataFrame: ...

def history(db: PathLike, *, naming: Naming = ...) -> pl.DataFrame: ...

def snake_case(name: str) -> str: ...
