"""The six-piece part of bench/checkers.py (issue 25): build figures, counts per slice against Chinook's
table, the successor check of every position, and the goals the issue sets, each met or not."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.measure import MemorySampler, cpu_seconds
from engines.checkers import compiled
from engines.checkers.build import Solved
from engines.checkers.database import EndgameDatabase, available_pieces, build_database, load_into, read_manifest
from engines.checkers.index import CHINOOK_POSITIONS, one_sided_positions, positions_in_slice, slices

BUILD_MINUTES, BUILD_MB, DISK_MB = 15, 4096, 1000
"""The issue's goals: at most 15 min and 4 GB on 2 cores, at most 1 GB on disk."""


@dataclass
class SixFigures:
    """What the six-piece part measured (None: not measured in this run)."""

    wall_minutes: float | None = None
    cpu_minutes: float | None = None
    peak_mb: float | None = None
    bytes: int = 0
    equals_chinook: bool = False
    slices_off: int = 0
    inconsistencies: int = -1
    goals: list[tuple[str, bool | None]] = field(default_factory=list)


def _fresh(folder: Path) -> None:
    """Drop the 6-piece file of an earlier run, so that the build is a whole one."""
    (folder / "wld-6.egdb").unlink(missing_ok=True)
    manifest = read_manifest(folder)
    if manifest.get("pieces", {}).pop("6", None) is not None:
        (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))


def build(folder: Path, workers: int, figures: SixFigures) -> None:
    """Build the 6-piece file in ``folder`` with the memory of every process sampled; print the figures."""
    _fresh(folder)
    load_before = os.getloadavg()
    with MemorySampler() as memory:
        started = time.perf_counter()
        cpu = cpu_seconds()
        build_database(folder, 6, lambda m: print("   ", m, flush=True), workers=workers)
        figures.wall_minutes = (time.perf_counter() - started) / 60
        figures.cpu_minutes = (cpu_seconds() - cpu) / 60
    figures.peak_mb = memory.peak_pss_mb
    print(f"database 6 pieces ({workers} worker{'s' if workers > 1 else ''}): built in {figures.wall_minutes:.1f} min "
          f"wall, {figures.cpu_minutes:.1f} min CPU (all processes; target <= {BUILD_MINUTES} min on 2 cores); peak "
          f"memory {memory.peak_pss_mb:,.0f} MB all processes together (PSS), {memory.peak_rss_mb:,.0f} MB summing "
          f"their RSS (target <= {BUILD_MB / 1024:.0f} GB); load average {load_before[0]:.1f} before, "
          f"{memory.mean_load:.1f} during, {os.getloadavg()[0]:.1f} after", flush=True)


def recorded(entry: dict[str, Any], figures: SixFigures) -> None:
    """The build figures the manifest keeps (wall and CPU; memory is measured only when the bench builds)."""
    figures.wall_minutes = float(entry.get("seconds", 0)) / 60
    figures.cpu_minutes = float(entry.get("cpu_seconds", 0)) / 60
    print(f"database 6 pieces built earlier: {figures.wall_minutes:.1f} min wall, {figures.cpu_minutes:.1f} min CPU "
          f"of the solving workers (the manifest's figures; peak memory is measured only when this bench builds)")


def bench_six(folder: Path, data: Path, workers: int, fresh: bool,
              check: bool = True) -> tuple[EndgameDatabase, SixFigures]:
    """Build (``fresh``) or open the 6-piece database in ``folder`` (the 5-piece one copied from ``data``, or
    built), print the figures, the counts per slice against Chinook's table, and check every position against
    its successors (unless not ``check``: it takes about as long as the build)."""
    if not compiled.COMPILED:
        raise SystemExit("the compiled checkers kernel is not built here (pip install -e . with a C compiler)")
    figures = SixFigures()
    folder.mkdir(parents=True, exist_ok=True)
    if available_pieces(folder) < 5:
        if available_pieces(data) >= 5:
            for name in ("wld-2.npz", "wld-3.npz", "wld-4.npz", "wld-5.npz", "manifest.json"):
                shutil.copyfile(data / name, folder / name)
        else:
            build_database(folder, 5, workers=workers)
    if fresh:
        build(folder, workers, figures)
    elif "6" not in read_manifest(folder).get("pieces", {}):
        raise SystemExit(f"no 6-piece database in {folder}: leave out --no-build to build it")
    entry = read_manifest(folder)["pieces"]["6"]
    if not fresh:
        recorded(entry, figures)
    figures.bytes = int(entry["bytes"])
    print(f"on disk: {figures.bytes / 1e6:,.0f} MB for 6 pieces (target <= {DISK_MB / 1000:.0f} GB): win/loss/draw "
          f"{int(entry['wld_bytes']) / 1e6:,.0f} MB ({int(entry['wld_bytes']) * 8 / int(entry['positions']):.2f} bits "
          f"a position), distances of lost quiet positions {int(entry['distance_bytes']) / 1e6:,.0f} MB; whole "
          f"folder {sum(f.stat().st_size for f in folder.iterdir() if f.is_file()) / 1e6:,.0f} MB")
    _counts(entry["counts"], figures)
    if not check:
        print("successor check of every 6-piece position: left out (--skip-check)")
        return EndgameDatabase.open(folder), figures
    lower = Solved()
    load_into(lower, folder, 5)
    started = time.perf_counter()
    cpu = cpu_seconds()
    load_before = os.getloadavg()[0]
    with MemorySampler() as memory, tempfile.TemporaryDirectory(prefix="checkers-check6-") as scratch:
        report = compiled.check_six(folder, lower, workers=workers, scratch=Path(scratch))  # the folder untouched
    figures.inconsistencies = report.bad_values + report.bad_distances
    print(f"successor check of every 6-piece position: {report.positions:,} positions, {report.bad_values} wrong "
          f"values, {report.bad_distances} wrong distances ({report.examples[:3]}); "
          f"{(time.perf_counter() - started) / 60:.1f} min wall, {(cpu_seconds() - cpu) / 60:.1f} min CPU, peak "
          f"{memory.peak_pss_mb:,.0f} MB (PSS); load average {load_before:.1f} before, {memory.mean_load:.1f} during",
          flush=True)
    return EndgameDatabase.open(folder), figures


def _counts(counts: dict[str, dict[str, int]], figures: SixFigures) -> None:
    """Positions, wins, losses and draws per slice, each slice against its formula, the sum against Chinook's."""
    print("counts per slice (Red to move; positions: the builder's count, formula: counted by formula):")
    total = {"wins": 0, "losses": 0, "draws": 0, "positions": 0}
    for s in slices(6):
        k = "_".join(str(x) for x in s)
        c = counts[k]
        formula = positions_in_slice(s)
        figures.slices_off += c["positions"] != formula or c["wins"] + c["losses"] + c["draws"] != c["positions"]
        for f in total:
            total[f] += c[f]
        print(f"    {k}: {c['positions']:>12,} positions (formula {formula:,}), {c['wins']:,} wins, "
              f"{c['losses']:,} losses, {c['draws']:,} draws")
    one_sided = one_sided_positions(6)
    chinook = CHINOOK_POSITIONS[6]
    figures.equals_chinook = total["positions"] + one_sided == chinook
    print(f"  6 pieces: {total['positions']:,} positions with both sides, + {one_sided:,} one-sided = "
          f"{total['positions'] + one_sided:,}; Chinook's table: {chinook:,} "
          f"({'equal' if figures.equals_chinook else 'DIFFERENT'}); {figures.slices_off} slices off the "
          f"formula; {total['wins']:,} wins, {total['losses']:,} losses, {total['draws']:,} draws")


def print_goals(goals: list[tuple[str, bool | None]]) -> None:
    """Each thing issue 25 asks for, met, not met, or not measured in this run."""
    print("issue 25, what it must show:")
    for text, met in goals:
        print(f"  [{'met' if met else 'NOT MET' if met is not None else 'not measured'}] {text}")


def build_goals(figures: SixFigures) -> list[tuple[str, bool | None]]:
    wall, peak = figures.wall_minutes, figures.peak_mb
    return [
        (f"build <= {BUILD_MINUTES} min wall on 2 cores: "
         + (f"{wall:.1f} min wall, {figures.cpu_minutes or 0:.1f} min CPU (on a shared machine: see the load "
            "average)" if wall is not None else "-"),
         None if wall is None else wall <= BUILD_MINUTES),
        (f"build <= 4 GB, all processes: {peak:,.0f} MB" if peak is not None else "build <= 4 GB: -",
         None if peak is None else peak <= BUILD_MB),
        (f"<= 1 GB on disk: {figures.bytes / 1e6:,.0f} MB", figures.bytes <= DISK_MB * 1e6),
        ("positions per slice as counted by formula, their sum Chinook's table",
         figures.equals_chinook and figures.slices_off == 0),
        (f"0 inconsistencies in the successor check: {figures.inconsistencies}" if figures.inconsistencies >= 0
         else "0 inconsistencies in the successor check: -", None if figures.inconsistencies < 0
         else figures.inconsistencies == 0),
    ]
