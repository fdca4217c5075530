"""An event's broadcast (issue 21, item 4; web/broadcast): read from a real local HTTP server and
from a folder whose file is rewritten while the test runs, bounded (time, size), cached (ETag,
modification time, a short TTL), and never in a request's way: a slow or down source keeps its
last copy and says so. The event's broadcast is stored (migration 0010, refused by the database
unless a folder path or an http(s) URL) and open to the event's staff only."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from tests.web.broadcast_support import LOOPBACK, PgnServer, pgn_game
from tests.web.conftest import make_app
from web.broadcast.boards import games_of, round_boards
from web.broadcast.sources import Broadcasts, source_problem
from web.tables.events import Event

OPENING = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]


@pytest.fixture
def source() -> Iterator[PgnServer]:
    server = PgnServer(pgn_game(1, "Alpha, Ann", "Beta, Bob", OPENING) + "\n" +
                       pgn_game(2, "Gamma, Gil", "Delta, Dan", ["d4", "d5"]))
    yield server
    server.stop()


def test_a_url_is_read_again_only_when_it_changed(source: PgnServer) -> None:
    reader = Broadcasts({**LOOPBACK, "ttl_seconds": 0})
    first = reader.refresh(source.url)
    assert first.problem is None and first.copy is not None
    boards, shown_round = round_boards(games_of(first.copy), None)
    assert shown_round == 3
    assert [(b.board, b.first_player, b.second_player, b.last_move) for b in boards] == [
        ("1", "Alpha, Ann", "Beta, Bob", "3... a6"), ("2", "Gamma, Gil", "Delta, Dan", "1... d5")]
    assert "{[%clk 0:57:45]}" in boards[0].record, "the clock comments come with the record"
    reader.refresh(source.url)
    assert source.statuses == [200, 304], "unchanged: the server said so (ETag), nothing was sent again"
    source.write(pgn_game(1, "Alpha, Ann", "Beta, Bob", [*OPENING, "Ba4", "Nf6"]))
    again = reader.refresh(source.url)
    assert again.copy is not None and games_of(again.copy)[0].last_move == "4... Nf6"
    assert source.statuses[-1] == 200


def test_a_source_that_is_down_keeps_the_last_copy_and_says_so(source: PgnServer) -> None:
    reader = Broadcasts({**LOOPBACK, "ttl_seconds": 0, "timeout_seconds": 2})
    good = reader.refresh(source.url)
    source.stop()
    down = reader.refresh(source.url)
    assert down.copy == good.copy, "the last copy is kept"
    assert down.problem is not None and "cannot be reached" in down.problem
    assert down.problem_at is not None and good.copy is not None and down.problem_at > good.copy.read_at


def test_a_slow_source_never_makes_anyone_wait(source: PgnServer) -> None:
    reader = Broadcasts({**LOOPBACK, "ttl_seconds": 0, "timeout_seconds": 1})
    reader.refresh(source.url)
    source.delay = 3
    seen = reader.look(source.url)  # stale (TTL 0): a reading starts, in the background
    # the look did not wait for the reading: it answered with the last copy while the reading was still on,
    # before the source's 3 s delay had made the reading give up at its 1 s timeout (which it would have
    # said in ``problem`` had the look waited)
    assert seen.copy is not None and seen.is_reading and seen.problem is None
    deadline = time.monotonic() + 10  # only bounds a hang: the reading gives up after its 1 s timeout
    # until the background reading has given up (with TTL 0 each look starts another one: is_reading stays true)
    while reader.look(source.url).problem is None and time.monotonic() < deadline:
        time.sleep(0.05)
    late = reader.look(source.url)
    assert late.problem is not None and "no answer within 1 s" in late.problem
    assert late.copy == seen.copy


def test_a_short_ttl_spares_the_source(source: PgnServer) -> None:
    reader = Broadcasts({**LOOPBACK, "ttl_seconds": 60})
    reader.refresh(source.url)
    for _ in range(5):
        assert reader.look(source.url).is_reading is False  # fresh: no reading starts
    assert source.statuses == [200]


def test_a_broadcast_larger_than_the_cap_is_refused_and_the_copy_kept(source: PgnServer) -> None:
    reader = Broadcasts({**LOOPBACK, "ttl_seconds": 0, "max_bytes": 2_000})
    kept = reader.refresh(source.url)
    source.write(pgn_game(1, "Alpha, Ann", "Beta, Bob", OPENING) * 20)
    big = reader.refresh(source.url)
    assert big.problem is not None and "larger than" in big.problem and big.copy == kept.copy


def test_a_folder_export_is_read_again_when_its_file_changes(tmp_path: Path) -> None:
    """DGT LiveChess: one file per round, rewritten as moves arrive; a file whose time and size
    are unchanged is not read again."""
    folder = tmp_path / "livechess"
    reader = Broadcasts({**LOOPBACK, "ttl_seconds": 0})
    missing = reader.refresh(str(folder))
    assert missing.copy is None and missing.problem is not None and "does not exist" in missing.problem
    (folder / "round-2").mkdir(parents=True)
    (folder / "round-2" / "games.pgn").write_text(pgn_game(1, "A", "B", ["e4", "e5"], "1-0", "2"))
    (folder / "round-3").mkdir()
    live = folder / "round-3" / "games.pgn"
    live.write_text(pgn_game(1, "C", "D", ["c4"], round_="3"))
    (folder / "notes.txt").write_text("not a game")
    first = reader.refresh(str(folder))
    assert first.copy is not None
    boards, shown = round_boards(games_of(first.copy), None)
    assert shown == 3 and [b.last_move for b in boards] == ["1. c4"], "the latest round by default"
    assert round_boards(games_of(first.copy), "2")[0][0].result == "1-0", "the form's round when it has games"
    live.write_text(pgn_game(1, "C", "D", ["c4", "e5", "Nc3"], round_="3"))
    assert games_of(reader.refresh(str(folder)).copy or first.copy)[1].last_move == "2. Nc3"
    stamp = live.stat()
    live.write_text(pgn_game(1, "C", "D", ["c4", "e5", "Nf3"], round_="3"))  # same size
    os.utime(live, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    cached = reader.refresh(str(folder)).copy
    assert cached is not None and games_of(cached)[1].last_move == "2. Nc3", "same time and size: not read"


def test_a_single_game_file_is_read_as_the_broadcast(tmp_path: Path) -> None:
    """An event's broadcast may name the PGN file itself (it was taken for a folder that does not exist)."""
    live = tmp_path / "games.pgn"
    live.write_text(pgn_game(1, "C", "D", ["c4"], round_="3"))
    reader = Broadcasts({**LOOPBACK, "ttl_seconds": 0})
    first = reader.refresh(str(live))
    assert first.problem is None and first.copy is not None
    assert [name for name, _text in first.copy.files] == ["games.pgn"]
    live.write_text(pgn_game(1, "C", "D", ["c4", "e5"], round_="3"))
    again = reader.refresh(str(live))
    assert again.copy is not None and "e5" in again.copy.files[0][1]


def test_only_a_folder_path_or_an_http_url_is_a_source(tmp_path: Path) -> None:
    assert source_problem("https://lichess.org/api/broadcast/round/x.pgn") is None
    assert source_problem("/srv/livechess") is None
    for bad in ("ftp://host/x.pgn", "livechess/round", "https://", "", "/a\nb"):
        assert source_problem(bad) is not None, bad
    app: Flask = make_app(tmp_path)
    try:
        with app.extensions["db_sessions"]() as session:
            event = session.get(Event, 1)
            assert event is not None
            event.broadcast = "file:///etc/passwd"
            with pytest.raises(sa.exc.IntegrityError):
                session.commit()  # the database itself refuses it (ck_events_broadcast)
    finally:
        app.extensions["adjudicator"].shutdown()


def test_the_events_command_sets_and_clears_the_broadcast(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from web.cli import main

    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    assert main(["events", "add", "open", "--name", "Club Open", "--broadcast", "/srv/livechess/open"]) == 0
    assert '"broadcast": "/srv/livechess/open"' in capsys.readouterr().out
    assert main(["events", "set", "open", "--broadcast", "https://example.org/round-3.pgn"]) == 0
    assert '"broadcast": "https://example.org/round-3.pgn"' in capsys.readouterr().out
    assert main(["events", "set", "open", "--broadcast", "ftp://example.org/x.pgn"]) == 2
    assert re.search(r'"field": "broadcast"', capsys.readouterr().out)
    assert main(["events", "set", "open", "--no-broadcast"]) == 0
    assert '"broadcast": null' in capsys.readouterr().out
    assert main(["audit", "verify"]) == 0


def _migration_round_trip(engine: sa.Engine) -> None:
    """0009 -> 0010: events keep their rows, the column is there and checked; 0010 -> 0009 removes it; up again."""
    from alembic import command
    from alembic.config import Config

    from web.db import MIGRATIONS, migrate

    migrate(engine, "0009")
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO events (id, slug, name, visibility, is_open, created_at) "
                                   "VALUES (2, 'old', 'Old', 'public', false, 'then')"))
    migrate(engine)
    with engine.begin() as connection:
        rows = [tuple(row) for row in connection.execute(sa.text("SELECT slug, broadcast FROM events ORDER BY id"))]
        assert rows == [("default", None), ("old", None)]
        connection.execute(sa.text("UPDATE events SET broadcast = 'https://example.org/r.pgn' WHERE slug = 'old'"))
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
        connection.execute(sa.text("UPDATE events SET broadcast = 'relative/folder' WHERE slug = 'old'"))
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "0009")
        assert "broadcast" not in {c["name"] for c in sa.inspect(connection).get_columns("events")}
    migrate(engine)
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM events")).scalar() == 2
        new = connection.execute(sa.text("INSERT INTO events (slug, name, visibility, is_open, created_at) "
                                         "VALUES ('new', 'New', 'public', false, 'now') RETURNING id")).scalar()
        assert new == 3, "the id sequence is past the events there are (0003 gave the default event its id)"


def test_0010_adds_the_checked_broadcast_column_on_sqlite_and_goes_back(tmp_path: Path) -> None:
    from web.db import make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        _migration_round_trip(engine)
    finally:
        engine.dispose()


@pytest.mark.slow
def test_0010_on_postgresql(postgres_url: str) -> None:
    from web.db import make_engine

    engine = make_engine(postgres_url)
    try:
        assert engine.dialect.name == "postgresql"
        _migration_round_trip(engine)
    finally:
        engine.dispose()


def test_a_checkers_event_reads_pdn(tmp_path: Path) -> None:
    """A checkers event's folder: PDN files, players from the Black (first mover, Red) and White tags."""
    folder = tmp_path / "national"
    folder.mkdir()
    (folder / "round-1.pdn").write_text('[Event "National"]\n[Round "1"]\n[Board "4"]\n[Black "Tinsley, M"]\n'
                                        '[White "Long, A"]\n\n1. 11-15 {[%clk 1:29:50]} 23-19 2. 8-11 *\n')
    copy = Broadcasts({**LOOPBACK, "ttl_seconds": 0}).refresh(str(folder), "checkers").copy
    assert copy is not None
    [board] = games_of(copy, "checkers")
    assert (board.board, board.first_player, board.second_player, board.last_move) == ("4", "Tinsley, M", "Long, A",
                                                                                         "2. 8-11")
    assert "{[%clk 1:29:50]}" in board.record
    assert (board.first_clock, board.second_clock) == ("1:29:50", None), "Red's last clock; White's move has none"


def _twelve_boards_without_board_tags() -> str:
    """A round as DGT LiveChess writes it: the board only in ``[Round "1.b"]``, the games in text order."""
    order = sorted(range(1, 13), key=str)  # 1, 10, 11, 12, 2, 3, ...
    return "\n".join(pgn_game(b, f"White {b}", f"Black {b}", ["e4", "e5", "Nf3"][: 1 + b % 3], round_="1",
                              board_tag=False) for b in order)


def test_boards_without_a_board_tag_are_numbered_from_the_round_tag_in_number_order(tmp_path: Path) -> None:
    folder = tmp_path / "round"
    folder.mkdir()
    (folder / "round-1.pgn").write_text(_twelve_boards_without_board_tags())
    copy = Broadcasts({"ttl_seconds": 0}).refresh(str(folder)).copy
    assert copy is not None
    boards, shown = round_boards(games_of(copy), None)
    assert shown == 1
    assert [b.board for b in boards] == [str(n) for n in range(1, 13)], "numbers, in number order"
    assert all(b.first_player == f"White {b.board}" and f'[Round "1.{b.board}"]' in b.record for b in boards)


def test_each_sides_last_clock_comes_with_the_board() -> None:
    from web.broadcast.sources import Copy

    text = pgn_game(4, "Ann", "Bob", ["e4", "e5", "Nf3"], round_="2", board_tag=False)
    [board] = games_of(Copy((("round.pgn", text),), 0.0))
    assert (board.board, board.first_clock, board.second_clock) == ("4", "0:58:50", "0:59:45")
    assert board.matches("4") and board.matches("board 4") and board.matches("ann") and not board.matches("40")
    assert not board.matches("carl")


def test_a_clock_reading_keeps_its_tenths() -> None:
    from web.broadcast.boards import clock_text

    assert [clock_text(s) for s in (0.4, 0.0, 3725.0, None)] == ["0:00:00.4", "0:00:00", "1:02:05", None]
