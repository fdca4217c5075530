"""A collection read in parts by the workers themselves gives the records one reader gives (issue 26).

``check-games`` with workers (local processes or the broker's) no longer ships game texts:
the reading process finds where records start (:func:`adjudicator.collection.record_spans`)
and sends each worker a byte range of the file (:func:`engines.collection.parts`), which
the worker reads and cuts into records itself (:func:`engines.collection.part_records`).
Held here to the records of the whole file, record for record, on odd files (a blank line
then ``1.``, ``[pgn]`` wrappers, stray brackets, games without tags, Latin-1 lines, CRLF,
a record cut at its line limit), for any grouping into parts; and ``check-games`` with 2
local workers prints what it prints alone on such a file, and stops at ``max_games`` after
the same lines.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import adjudicator.chess.bulk as bulk
import adjudicator.collection as collection
import engines.collection
from adjudicator.collection import block_spans, record_spans, records
from engines.collection import PartUnreadable, Stamp, numbered, part_records, parts
from tests.conftest import ROOT
from tests.parts import missing
from tests.test_check_games import CHESS_GAMES
from web.commands.check_games import lines, sized_lines

PLAIN = bulk.plain_scanner()
"""scan.py as plain Python (the same cuts as the compiled module)."""
ODD_PIECES = [
    *CHESS_GAMES.values(),
    "1. e4 e5 2. Nf3 1-0\n\n1. d4 d5 0-1\n",  # games without tags, apart by a blank line after a result
    '[Event "a"]\n\n1. e4 e5\n\n1. Nf3 Nf6 *\n',  # a blank line, then 1.
    '[pgn][Event "forum"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0[/pgn]\n',
    '[Event "b"]\n[Result "*"]\n\n1. e4 ] e5 [ 2. Nf3 *\n\n',  # stray brackets
    '[Event "c"]\r\n[Result "0-1"]\r\n\r\n1. f3 e5 2. g4 Qh4# 0-1\r\n\r\n',  # CRLF
    "% an escape line\n",
    "\n\n\n",
    "; a comment line\n",
    '[White "Müller"]\n\n1. e4 *\n',
    "[Event \"d\"]\n{ a comment\nover lines [Event \"not a tag\"] }\n1. e4 *\n",
    '  [PGN] [ Site : "x"]\n\n1. e4 e5 \u00bd\u2013\u00bd  \n\n1. d4 1:0[/PGN]\n\n',  # spacing, dashes, wrappers
    "1. e4 e5 2-0\n\u2028\n1. d4 d5 1/2\u22121/2\n\u00a0\x85\n1. c4 0\u20142\n\n1. Nf3 x1-0\n\n1. g3 *x\n\n",
    '[\u00c9v\u00e9nement_1+#=:- "\u00e9t\u00e9"]\n[Ev ent "split name"]\n[Event"]\n1. e4 *\r\n\r\n1. e4 1-1\n',
    "[Event \"e\"]\n1. e4 e5 1-0\n \t\n[Event \"f\"]\n\n1. d4 *",  # no newline at the very end
]


def as_bytes(pieces: list[str], latin: list[bool]) -> bytes:
    return b"".join(p.encode("latin-1", "replace") if old else p.encode() for p, old in zip(pieces, latin, strict=True))


def whole(data: bytes) -> list[str]:
    return list(records(lines(io.BufferedReader(io.BytesIO(data)), "x.pgn")))


def spans(data: bytes) -> list[collection.Span]:
    return list(record_spans(sized_lines(io.BufferedReader(io.BytesIO(data)), "x.pgn")))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chosen=st.lists(st.tuples(st.sampled_from(ODD_PIECES), st.booleans()), min_size=1, max_size=25),
       per_part=st.integers(1, 6), size=st.integers(20, 4000), read_bytes=st.sampled_from([1, 7, 64, 1 << 20]),
       compiled=st.booleans())
def test_the_byte_ranges_of_any_grouping_give_the_records_of_the_whole_file(
        chosen: list[tuple[str, bool]], per_part: int, size: int, read_bytes: int, compiled: bool,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Whatever the parts, and however many bytes a worker reads at a time (a line longer than a read goes on
    in the next), with the compiled reader or without."""
    data = as_bytes([p for p, _ in chosen], [old for _, old in chosen])
    path = tmp_path_factory.mktemp("parts") / "odd.pgn"
    path.write_bytes(data)
    found = spans(data)
    assert [span.text for span in found] == whole(data)
    assert all(a.end == b.start for a, b in zip(found, found[1:], strict=False))  # no byte left out, none twice
    stamp = Stamp.of(str(path))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engines.collection, "READ_BYTES", read_bytes)
        patch.setattr(bulk, "COMPILED", compiled and bulk.COMPILED)
        read = [text for part in parts(found, stamp, records_per_part=per_part, bytes_per_part=size)
                for text in part_records(part.payload)]
    assert read == whole(data)
    as_text = [text for part in parts(found, None, records_per_part=per_part) for text in part_records(part.payload)]
    assert as_text == whole(data)


def blocked(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` in blocks of whole lines, cut after the newlines nearest ``cuts``."""
    ends = sorted({data.find(b"\n", min(c, len(data))) + 1 for c in cuts} - {0})
    return [data[a:b] for a, b in zip([0, *ends], [*ends, len(data)], strict=True) if b > a]


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "plain-python"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chosen=st.lists(st.tuples(st.sampled_from(ODD_PIECES), st.booleans()), min_size=1, max_size=25),
       cuts=st.lists(st.integers(0, 5000), max_size=8))
def test_records_cut_a_block_at_a_time_are_those_cut_a_line_at_a_time(
        chosen: list[tuple[str, bool]], cuts: list[int], compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled and not bulk.COMPILED:
        missing("the compiled bulk record reader", "setup.py builds it with the C compiler (pip install -e .)")
    if not compiled:
        monkeypatch.setattr(bulk, "scanner", PLAIN)
    data = as_bytes([p for p, _ in chosen], [old for _, old in chosen])
    assert list(block_spans(blocked(data, cuts))) == spans(data)


@settings(max_examples=60, deadline=None)
@given(chosen=st.lists(st.tuples(st.sampled_from(ODD_PIECES), st.booleans()), min_size=1, max_size=40),
       cuts=st.lists(st.integers(0, 5000), max_size=8), head=st.integers(0, 5),
       run=st.sampled_from([1, 50, 300, 1 << 16]))
def test_past_the_head_a_span_covers_whole_records_and_no_byte_is_left_out(
        chosen: list[tuple[str, bool]], cuts: list[int], head: int, run: int) -> None:
    """What ``check-games`` cuts its byte ranges from: the first records with their text, then runs of whole
    records (each ends where a record ends), the same bytes in all."""
    data = as_bytes([p for p, _ in chosen], [old for _, old in chosen])
    every = spans(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(collection, "RUN_BYTES", run)
        found = list(block_spans(blocked(data, cuts), head))
    assert found[:head] == every[:head]
    assert all(span.text == "" for span in found[head:])
    assert [span.start for span in found[:1]] == [span.start for span in every[:1]]
    assert all(a.end == b.start for a, b in zip(found, found[1:], strict=False))
    assert [span.end for span in found[-1:]] == [span.end for span in every[-1:]]
    assert {span.end for span in found} <= {span.end for span in every}  # a run ends where a record ends


def test_a_record_cut_at_its_line_limit_starts_the_next_range_as_the_whole_file_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collection, "MAX_RECORD_LINES", 7)
    data = ("".join(CHESS_GAMES.values()) + "1. e4\n" * 30 + "\n" * 9 + CHESS_GAMES["clean"]).encode()
    path = tmp_path / "long.pgn"
    path.write_bytes(data)
    found = spans(data)
    assert any(span.text.count("\n") == 7 for span in found)  # cut at the limit, not at a tag line
    stamp = Stamp.of(str(path))
    read = [text for part in parts(found, stamp, records_per_part=3) for text in part_records(part.payload)]
    assert read == whole(data)
    for size in (1, 50, 400, 10**6):
        assert list(block_spans(blocked(data, list(range(0, len(data), size))))) == found
    monkeypatch.setattr(collection, "MAX_RECORD_CHARS", 120)
    assert list(block_spans(blocked(data, list(range(0, len(data), 64))))) == spans(data)


def test_a_worker_refuses_a_file_changed_since_its_records_were_found(tmp_path: Path) -> None:
    path = tmp_path / "event.pgn"
    path.write_text("".join(CHESS_GAMES.values()), encoding="utf-8")
    [part] = parts(spans(path.read_bytes()), Stamp.of(str(path)))
    path.write_text("".join(CHESS_GAMES.values()) + CHESS_GAMES["clean"], encoding="utf-8")
    with pytest.raises(PartUnreadable, match="changed"):
        part_records(part.payload)
    os.remove(path)
    with pytest.raises(PartUnreadable, match="cannot read"):
        part_records(part.payload)
    assert part_records(part.as_texts()) == whole("".join(CHESS_GAMES.values()).encode())


def test_lines_are_numbered_record_by_record_and_stop_before_the_record_past_the_limit() -> None:
    results = [{"lines": [{"n": 1}, {"n": 2}, {"n": 3}], "games": [1, 0, 2]}, {"lines": [{"n": 4}], "games": [1]}]
    assert [line["index"] for line in numbered(json.loads(json.dumps(results)))] == [1, 2, 3, 4]
    given_: list[dict[str, Any]] = []
    with pytest.raises(collection.TooManyGames):
        given_.extend(numbered(json.loads(json.dumps(results)), limit=2))
    assert [line["n"] for line in given_] == [1]  # the record of games 2 and 3 would pass the limit


def run(*args: str, config: Path | None = None) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("ADJUDICATOR_BROKER_URL", None)
    if config is not None:
        env["ADJUDICATOR_CONFIG"] = str(config)
    done = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", *args], cwd=ROOT, env=env,
                          capture_output=True, timeout=300)
    assert done.returncode in (0, 2), done.stderr.decode()
    return [{k: v for k, v in json.loads(line).items() if k != "summary"} or {"summary": True}
            for line in done.stdout.decode().splitlines()]


def test_two_local_workers_reading_their_own_parts_print_what_one_reader_prints(tmp_path: Path) -> None:
    path = tmp_path / "odd.pgn"
    pieces = [ODD_PIECES[(n * 7) % len(ODD_PIECES)] for n in range(700)]  # about 700 records: several parts
    path.write_bytes(as_bytes(pieces, [n % 5 == 0 for n in range(700)]))
    one = run(str(path), "--workers", "1")
    assert len(one) > 600
    assert run(str(path), "--workers", "2") == one
    text = (ROOT / "config.toml").read_text(encoding="utf-8")
    for name in ("syzygy", "gaviota", "checkers-db"):
        text = text.replace(f'"data/{name}"', json.dumps(str(ROOT / "data" / name)))
    config = tmp_path / "config.toml"
    limited_text, count = re.subn(r"^max_games = \S+", "max_games = 300", text, count=1, flags=re.MULTILINE)
    assert count == 1, "config.toml has no [collections] max_games line"
    config.write_text(limited_text, encoding="utf-8")
    limited = run(str(path), "--workers", "2", config=config)
    assert limited[-1]["error"]["code"] == "too_many_games"
    assert limited[:-1] == one[:len(limited) - 1] and 250 < len(limited) - 1 <= 300
    assert run(str(path), "--workers", "1", config=config) == limited
