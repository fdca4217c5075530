"""A chart of both clocks through the game, as inline SVG (for flag claims)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from adjudicator.clocks import hms as clock_hms


def hms(seconds: float | None) -> str:
    """``h:mm:ss`` (or ``m:ss`` under an hour) for a clock reading."""
    if seconds is None:
        return "—"
    text = clock_hms(seconds)
    sign, bare = ("-", text[1:]) if text.startswith("-") else ("", text)
    return sign + bare.removeprefix("0:").removeprefix("0") if bare.startswith("0:") else text


@dataclass(frozen=True)
class ClockSeries:
    """Each side's remaining time after each of its moves: (ply, seconds)."""

    first: tuple[tuple[int, float], ...]
    second: tuple[tuple[int, float], ...]

    @classmethod
    def from_plies(cls, first_moves_first: bool, clocks: Sequence[float | None]) -> ClockSeries | None:
        first: list[tuple[int, float]] = []
        second: list[tuple[int, float]] = []
        for ply, seconds in enumerate(clocks, start=1):
            if seconds is None:
                continue
            is_first = (ply % 2 == 1) == first_moves_first
            (first if is_first else second).append((ply, float(seconds)))
        if not first and not second:
            return None
        return cls(tuple(first), tuple(second))

    @property
    def is_empty(self) -> bool:
        return not self.first and not self.second


def clock_chart(
    series: ClockSeries | None,
    now: dict[str, float | None],
    names: tuple[str, str],
    flagged: Sequence[str] = (),
) -> str:
    """The chart: both clocks through the game (from ``[%clk]``) and the readings at the claim.

    The legend (each side's line, its last reading, a flag that fell) is a row of its own under
    the axis, so it never covers a line (issue 22)."""
    width, plot_height, left, bottom, top, legend = 360, 200, 46, 24, 12, 24
    height = plot_height  # the plot's own frame; the legend row is below it
    points_first = list(series.first) if series else []
    points_second = list(series.second) if series else []
    last_ply = max([p for p, _ in points_first + points_second] or [0]) + 1
    for index, side in enumerate(names):
        reading = now.get(side)
        if reading is not None:
            (points_first if index == 0 else points_second).append((last_ply, float(reading)))
    all_points = points_first + points_second
    if not all_points:
        return ""
    max_secs = max(s for _, s in all_points) or 1.0
    max_ply = max(p for p, _ in all_points) or 1

    def xy(ply: int, secs: float) -> str:
        x = left + (width - left - 8) * (ply / max_ply)
        y = top + (height - top - bottom) * (1 - secs / max_secs)
        return f"{x:.1f},{y:.1f}"

    colours = ("#1f4e79", "#c0392b")
    out = [
        f'<svg class="clock-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {plot_height + legend}" '
        f'role="img" aria-label="both clocks through the game">',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 8}" y2="{height - bottom}" stroke="#888"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#888"/>',
        f'<text x="{left - 4}" y="{top + 8}" font-size="10" text-anchor="end">{escape(hms(max_secs))}</text>',
        f'<text x="{left - 4}" y="{height - bottom}" font-size="10" text-anchor="end">0:00</text>',
        f'<text x="{width - 8}" y="{height - 6}" font-size="10" text-anchor="end">ply {max_ply}</text>',
    ]
    for index, (side, points) in enumerate(zip(names, (points_first, points_second), strict=True)):
        if not points:
            continue
        colour = colours[index]
        dash = ' stroke-dasharray="5,3"' if index == 1 else ""
        path = " ".join(xy(p, s) for p, s in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>')
        ply, secs = points[-1]
        x, y = xy(ply, secs).split(",")
        mark = " ⚑" if side in flagged else ""
        out.append(f'<circle cx="{x}" cy="{y}" r="4" fill="{colour}"/>')
        key_x, key_y = left + 150 * index, plot_height + legend - 7
        out.append(f'<line class="legend-key" x1="{key_x}" y1="{key_y - 4}" x2="{key_x + 22}" y2="{key_y - 4}" '
                   f'stroke="{colour}" stroke-width="2.5"{dash}/>')
        out.append(
            f'<text class="legend" x="{key_x + 28}" y="{key_y}" font-size="12" fill="{colour}">'
            f"{escape(side.capitalize())} {escape(hms(secs))}{mark}</text>"
        )
    out.append("</svg>")
    return "".join(out)
