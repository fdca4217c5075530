"""A live round kept on the server's disk, as the event's broadcast (:mod:`web.broadcast.sources`) and the
arbiter's watch (:mod:`web.watch.source`) read it: a **folder** (DGT LiveChess's "export to local filesystem": one
PGN per round, or ``game-N.pgn`` per board in a folder per round), its game files and those of its subfolders one
level down, or a **single game file** (a PGN that a board's software rewrites in place)."""

from __future__ import annotations

from pathlib import Path


class NoGameFiles(FileNotFoundError):
    """The location is neither a folder nor a game file (its message says which it was taken for)."""


def game_files(location: Path, suffixes: tuple[str, ...]) -> tuple[Path, list[Path]]:
    """The folder the files' names are taken relative to, and the game files, in order: those of a folder and of
    its subfolders one level down, or the one file named.

    :raises NoGameFiles: a file of another kind, or no such folder or file.
    """
    if location.is_file():
        if location.suffix.lower() not in suffixes:
            raise NoGameFiles(f"{location} is not a game file ({', '.join(suffixes)}): give the file or its folder")
        return location.parent, [location]
    if not location.is_dir():
        raise NoGameFiles(f"the folder {location} does not exist")
    found: list[Path] = []
    for entry in sorted(location.iterdir()):
        if entry.is_dir():
            found += sorted(p for p in entry.iterdir() if p.is_file() and p.suffix.lower() in suffixes)
        elif entry.is_file() and entry.suffix.lower() in suffixes:
            found.append(entry)
    return location, found
