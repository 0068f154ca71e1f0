"""Analyse a folder of captures on a Dask cluster with framescope, writing one Parquet
table of runs (a row per run, the columns of ``framescope report --format csv``).

    pip install ./crates/framescope-py dask distributed
    python examples/dask_batch.py CAPTURES_FOLDER runs.parquet --workers 2

Without ``--scheduler`` it starts a ``dask.distributed.LocalCluster`` of ``--workers``
processes (one thread each) standing in for a cluster; with ``--scheduler
tcp://host:8786`` the same code runs on a real one, whose workers need framescope
installed and the captures at the same paths (a shared file system). Each task analyses
a chunk of files with ``framescope.batch`` (Rust threads, the GIL released); a file
that cannot be read is a row with ``error.message``, so one bad capture never fails
the job. The tables come back to this process, are stacked in the order the command
line would list the files, and written once.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List, Optional

import polars as pl
from dask.distributed import Client, LocalCluster

import framescope


def analyse_chunk(paths: List[str], options: Dict[str, Any]) -> pl.DataFrame:
    """One task: the runs table of a few captures, analysed on one thread."""
    return framescope.batch(paths, workers=1, **options)


def chunks(items: List[str], size: int) -> List[List[str]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def analyse(client: Client, files: List[str], chunk: int = 4,
            options: Optional[Dict[str, Any]] = None) -> pl.DataFrame:
    """The runs table of ``files``, analysed by the cluster's workers a chunk per task,
    stacked in the order of ``files``."""
    futures = client.map(analyse_chunk, chunks(files, chunk), options=options or {}, pure=False)
    tables = client.gather(futures)
    return pl.concat(tables, how="vertical") if tables else framescope.batch([])


def connect(workers: int = 2, scheduler: Optional[str] = None) -> Client:
    """A client of the scheduler at ``scheduler``, else of a new LocalCluster of
    ``workers`` processes with one thread each."""
    if scheduler:
        return Client(scheduler)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster)


def close(client: Client) -> None:
    """Closes the client, and its LocalCluster if it started one."""
    cluster = client.cluster
    client.close()
    if isinstance(cluster, LocalCluster):
        cluster.close()


def run(folder: str, output: str, workers: int = 2, scheduler: Optional[str] = None,
        chunk: int = 4, options: Optional[Dict[str, Any]] = None) -> pl.DataFrame:
    """Analyses every capture under ``folder`` on the cluster and writes ``output``;
    returns the table."""
    files = framescope.captures(folder)
    client = connect(workers, scheduler)
    try:
        table = analyse(client, files, chunk, options)
    finally:
        close(client)
    table.write_parquet(output)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("output")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    parser.add_argument("--scheduler", help="a running scheduler's address instead of a LocalCluster")
    parser.add_argument("--chunk", type=int, default=4, help="captures per task (default 4)")
    parser.add_argument("--target-fps", type=float, default=60.0)
    args = parser.parse_args()
    files = framescope.captures(args.folder)
    started = time.perf_counter()
    client = connect(args.workers, args.scheduler)
    ready = time.perf_counter()
    try:
        table = analyse(client, files, args.chunk, {"target_fps": args.target_fps})
    finally:
        close(client)
    seconds = time.perf_counter() - ready
    table.write_parquet(args.output)
    per_frame = table.filter(~pl.col("sampled").fill_null(True))
    frames = int(per_frame["frames"].sum())
    failed = table["error.message"].is_not_null().sum()
    print(f"cluster ready in {ready - started:.2f} s; {table.height} runs ({failed} failed) analysed in "
          f"{seconds:.2f} s: {table.height / seconds:.1f} captures/s, {frames / seconds:,.0f} frames/s "
          f"({frames:,} frames of per-frame captures; sampled logs' samples not counted) -> {args.output}")


if __name__ == "__main__":
    main()
