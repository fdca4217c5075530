"""An event's stored game collections: an upload is kept with the event (byte for byte, listed with its
name, size, game count, upload time and uploader), a TD checks it again without uploading it again
(under another ruleset too, giving what ``adjudicator check-games --ruleset`` gives), the same bytes
are one collection and a corrected file a new one, the stored bytes cannot be changed or removed
(triggers; the audit trail names a hand edit), and only the event's staff get the file: anyone else
gets 403 in a public event and 404 in a private one, never the file.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from committee_support import add_user
from events_support import add_event
from flask import Flask
from flask.testing import FlaskClient

from tests.test_check_games import CHESS_GAMES
from tests.web.test_audit import audit_verify
from tests.web.test_checks_web import (
    COLLECTION,
    PASSWORD,
    finished,
    login,
    staffed_events,
    upload,
    without_seconds,
)
from web.config import PROJECT_ROOT
from web.db import make_engine, migrate
from web.tables.checks import GameCheck
from web.tables.collections import GameCollection

ROOT = Path(__file__).resolve().parents[2]
CORRECTED = "".join(list(CHESS_GAMES.values())[:-1]).encode()
"""The collection without its last game: a corrected file, as a TD would upload it again."""


def lines_of(client: FlaskClient, location: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in client.get(f"{location}/games.jsonl").get_data(as_text=True).splitlines()]


def pick(client: FlaskClient, collection_id: int | str, slug: str = "default", **fields: str) -> Any:
    return client.post(f"/events/{slug}/checks", data={"collection_id": str(collection_id), **fields})


def stored(app: Flask) -> list[GameCollection]:
    with app.extensions["db_sessions"]() as session:
        return list(session.scalars(sa.select(GameCollection).order_by(GameCollection.id)))


def checks(app: Flask) -> list[GameCheck]:
    with app.extensions["db_sessions"]() as session:
        return list(session.scalars(sa.select(GameCheck).order_by(GameCheck.id)))


def check_id(location: str) -> int:
    found = re.fullmatch(r"/checks/(\d+)", location)
    assert found, location
    return int(found.group(1))


def test_an_upload_is_kept_with_the_event_and_listed(app: Flask) -> None:
    client = login(app, "tina", "td")
    packed = gzip.compress(COLLECTION, mtime=0)
    location = upload(client, data=packed, name="round3.pgn.gz").headers["Location"]
    finished(client, location)
    [kept] = stored(app)
    assert (kept.filename, kept.game, kept.size) == ("round3.pgn.gz", "chess", len(packed))
    assert kept.sha256 == hashlib.sha256(packed).hexdigest()
    page = client.get("/events/default/checks").get_data(as_text=True)
    start = page.index(f'id="collection-{kept.id}"')
    row = page[start:page.index("</li>", start)]
    assert f'href="/events/default/collections/{kept.id}"' in row and "round3.pgn.gz" in row
    assert "10 games" in row and "by tina" in row and f"{len(packed)} bytes" in row
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[^"]+Z">', row)
    assert 'name="collection_id"' in row and f'value="{kept.id}"' in row
    file = client.get(f"/events/default/collections/{kept.id}")
    assert file.status_code == 200 and file.data == packed  # byte for byte as uploaded
    disposition = file.headers["Content-Disposition"]
    assert "attachment" in disposition and "round3.pgn.gz" in disposition
    assert file.mimetype == "application/gzip"
    report = client.get(location).get_data(as_text=True)  # the report names the exact file it was made from
    assert f'href="/events/default/collections/{kept.id}"' in report and kept.sha256[:16] in report


def test_a_stored_collection_is_checked_again_without_uploading_it(app: Flask, tmp_path: Path) -> None:
    client = login(app, "tina", "td")
    first = upload(client).headers["Location"]
    finished(client, first)
    [kept] = stored(app)
    again = pick(client, kept.id, ruleset="fide-standard")
    assert again.status_code == 303 and again.headers["Location"] != first
    finished(client, again.headers["Location"])
    assert without_seconds(lines_of(client, again.headers["Location"])) == without_seconds(lines_of(client, first))
    us = pick(client, kept.id, ruleset="uschess").headers["Location"]  # the same file under US Chess rules
    finished(client, us)
    assert [(c.collection_id, c.ruleset) for c in checks(app)] == [(kept.id, "fide-standard"),
                                                                    (kept.id, "fide-standard"), (kept.id, "uschess")]
    assert len(stored(app)) == 1  # nothing uploaded again
    path = tmp_path / "event.pgn"
    path.write_bytes(COLLECTION)
    done = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(path), "--ruleset", "uschess"],
                          capture_output=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    command = [json.loads(line) for line in done.stdout.decode().splitlines()]
    web = lines_of(client, us)
    assert without_seconds(web) == without_seconds(command)
    assert any(f["article"].startswith("US Chess") for line in web[:-1] for f in line["findings"])
    page = client.get("/events/default/checks").get_data(as_text=True)
    options = re.search(rf'<select id="ruleset-{kept.id}" name="ruleset">(.*?)</select>', page, re.DOTALL)
    chess = [r.id for r in app.extensions["rulesets"] if r.game == "chess"]
    assert options and "acf" not in chess and len(chess) > 2
    assert re.findall(r'<option value="([a-z0-9-]+)"( selected)?', options.group(1)) == [
        (r, " selected" if r == "uschess" else "") for r in chess]  # the chess rulesets only, the last one used chosen


def test_the_same_bytes_are_one_collection_and_a_corrected_file_a_new_one(app: Flask) -> None:
    client = login(app, "tina", "td")
    first = upload(client, name="round3.pgn").headers["Location"]
    second = upload(client, name="round3-again.pgn").headers["Location"]
    corrected = upload(client, data=CORRECTED, name="round3.pgn").headers["Location"]
    for location in (first, second, corrected):
        finished(client, location)
    original, fixed = stored(app)
    assert (original.filename, original.size, fixed.filename, fixed.size) == (
        "round3.pgn", len(COLLECTION), "round3.pgn", len(CORRECTED))
    assert [c.collection_id for c in checks(app)] == [original.id, original.id, fixed.id]
    page = client.get("/events/default/checks").get_data(as_text=True)
    assert page.index(f'id="collection-{fixed.id}"') < page.index(f'id="collection-{original.id}"')  # newest first
    assert "9 games" in page and "10 games" in page


def test_picking_refuses_what_is_not_this_events_collection(app: Flask) -> None:
    add_event(app, "other")
    client = login(app, "ada", "admin")
    finished(client, upload(client, "other").headers["Location"])
    [elsewhere] = stored(app)
    before = len(checks(app))
    for asked in (elsewhere.id, "abc", 999, "9" * 30, "٣", ""):
        refused = pick(client, asked, ruleset="fide-standard")  # in the default event
        assert refused.status_code == 422 and "choose one of the event&#39;s stored collections" in refused.text
        assert 'id="collection_id-error"' in refused.text
    finished(client, upload(client).headers["Location"])
    here = stored(app)[-1]
    checkers = pick(client, here.id, ruleset="acf")
    assert checkers.status_code == 422 and "acf is a checkers ruleset; event.pgn is a chess collection" in checkers.text
    assert re.search(rf'<select id="ruleset-{here.id}" name="ruleset" aria-invalid="true"', checkers.text)
    both = client.post("/events/default/checks", data={"collection_id": str(here.id), "ruleset": "fide-standard",
                                                        "collection": (io.BytesIO(COLLECTION), "event.pgn")})
    assert both.status_code == 422 and "not both" in both.text
    assert len(checks(app)) == before + 1  # only the upload started a check
    assert len(stored(app)) == 2


def test_only_the_events_staff_get_a_stored_file_and_only_its_tds_check_it_again(app: Flask) -> None:
    tpub, tpriv, member, outsider, anonymous = staffed_events(app)
    finished(tpub, upload(tpub, "pub", name="pub.pgn").headers["Location"])
    finished(tpriv, upload(tpriv, "priv", data=CORRECTED, name="priv.pgn").headers["Location"])
    pub, priv = stored(app)
    before = len(checks(app))
    got = member.get(f"/events/pub/collections/{pub.id}")
    assert got.status_code == 200 and got.data == COLLECTION  # the event's committee is its staff
    assert pick(member, pub.id, "pub", ruleset="fide-standard").status_code == 403  # but does not start checks
    for client in (outsider, anonymous):
        for response, status in ((client.get(f"/events/pub/collections/{pub.id}"), 404),  # strangers: 404
                                 (client.get(f"/events/priv/collections/{priv.id}"), 404),
                                 (pick(client, pub.id, "pub", ruleset="fide-standard"), 404),
                                 (pick(client, priv.id, "priv", ruleset="fide-standard"), 404)):
            assert response.status_code == status
            assert b"[White" not in response.data and b"1. " not in response.data  # not the file
    assert tpub.get(f"/events/priv/collections/{priv.id}").status_code == 404
    assert tpub.get(f"/events/pub/collections/{priv.id}").status_code == 404  # another event's file, by its id
    assert pick(tpub, priv.id, "pub", ruleset="fide-standard").status_code == 422
    assert len(checks(app)) == before
    page = member.get("/events/pub/checks")
    assert page.status_code == 403 and "pub.pgn" not in page.text


def test_stored_bytes_cannot_be_changed_or_removed_and_a_hand_edit_is_named(tmp_path: Path) -> None:
    from tests.web.conftest import make_app

    db = tmp_path / "web.db"
    app = make_app(tmp_path)
    try:
        client = login(app, "tina", "td")
        finished(client, upload(client).headers["Location"])
        [kept] = stored(app)
    finally:
        app.extensions["adjudicator"].shutdown()
    code, report, _ = audit_verify(db)
    assert code == 0 and report["ok"] is True
    with sqlite3.connect(db) as con:
        entry = con.execute("SELECT payload FROM audit_entries WHERE kind = 'game-collection'").fetchone()
        assert json.loads(entry[0])["sha256"] == kept.sha256 and json.loads(entry[0])["uploaded_by"] == "tina"
        for statement in ("UPDATE game_collections SET content = X'00' WHERE id = ?",
                          "UPDATE game_collections SET filename = 'other.pgn' WHERE id = ?",
                          "DELETE FROM game_collections WHERE id = ?"):
            with pytest.raises(sqlite3.DatabaseError, match="game_collections is append-only"):
                con.execute(statement, (kept.id,))
    with sqlite3.connect(db) as con:  # a forger drops the guard first
        for (name,) in list(con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' "
                                        "AND tbl_name = 'game_collections'")):
            con.execute(f'DROP TRIGGER "{name}"')
        forged = COLLECTION.replace(b'"0-1"', b'"1-0"', 1)
        assert forged != COLLECTION and len(forged) == len(COLLECTION)
        con.execute("UPDATE game_collections SET content = ? WHERE id = ?", (forged, kept.id))
    code, report, _ = audit_verify(db)
    first = report["first_problem"]
    assert code == 1 and isinstance(first, dict) and first["subject"] == f"game-collection:{kept.id}"
    assert "sha256" in str(first["problem"])


PADDED = ('[Event "padded"]\n[White "W"]\n[Black "B"]\n[Result "1-0"]\n\n{'
          + ("the live board's comment, repeated " * 3 + "\n") * 1200
          + "} 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n").encode()
"""One game with a long comment: a file of about 130 kB that is checked at once."""


def test_the_size_limit_is_the_collections_own_and_a_larger_file_is_not_kept(tmp_path: Path) -> None:
    """With the CSRF check on (it reads the form before the view), a file above ``max_content_length``
    but within ``max_collection_bytes`` is taken; one above that is 413 naming that limit, and is not kept."""
    from tests.web.conftest import make_app

    text = (PROJECT_ROOT / "config.toml").read_text()
    for name in ("syzygy", "gaviota", "checkers-db"):
        text = text.replace(f'"data/{name}"', json.dumps(str(PROJECT_ROOT / "data" / name)))
    text = text.replace("max_content_length = 2_000_000", "max_content_length = 100_000")
    text, count = re.subn(r"^max_collection_bytes = \S+", "max_collection_bytes = 200_000", text, flags=re.MULTILINE)
    assert count == 1
    (tmp_path / "config.toml").write_text(text)
    app = make_app(tmp_path, CONFIG_PATH=str(tmp_path / "config.toml"), WTF_CSRF_ENABLED=True)
    try:
        add_user(app, "tina", "td", password=PASSWORD)
        client = app.test_client()

        def token(path: str) -> str:
            found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).text)
            assert found
            return found.group(1)

        assert client.post("/login", data={"name": "tina", "password": PASSWORD,
                                           "csrf_token": token("/login")}).status_code == 303
        assert 100_000 < len(PADDED) < 200_000
        taken = client.post("/events/default/checks", data={"csrf_token": token("/events/default/checks"),
                                                            "collection": (io.BytesIO(PADDED), "round.pgn")})
        assert taken.status_code == 303, taken.text
        assert "<strong>0</strong> of 1 games with findings" in finished(client, taken.headers["Location"])
        too_large = client.post("/events/default/checks", data={"csrf_token": token("/events/default/checks"),
                                                                "collection": (io.BytesIO(PADDED * 2), "big.pgn")})
        assert too_large.status_code == 413 and "larger than the 200 kB" in too_large.text
        assert [c.size for c in stored(app)] == [len(PADDED)]
        form = client.post("/login", data={"name": "tina", "password": "y" * 120_000, "csrf_token": token("/login")})
        assert form.status_code == 413 and "larger than the 100 kB" in form.text  # any other form: the app's limit
    finally:
        app.extensions["adjudicator"].shutdown()


def test_the_checks_page_fragment_is_the_earlier_checks(app: Flask) -> None:
    client = login(app, "tina", "td")
    finished(client, upload(client).headers["Location"])
    fragment = client.get("/events/default/checks", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert 'id="earlier-checks"' in fragment.text and 'id="upload"' not in fragment.text
    assert "event.pgn" in fragment.text and "8 of 10 games with findings" in fragment.text
    assert 'hx-trigger="every 2s"' not in fragment.text  # nothing runs: it does not poll
    page = client.get("/events/default/checks", headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert "<html" in page.text and 'id="collections"' in page.text  # a boosted link gets the page


def test_a_check_made_before_0008_keeps_its_games_and_reads_no_collection(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine, "0007")
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO game_checks (event_id, filename, game, ruleset, status, total, games, with_findings, message,"
            " cancel_requested, created_at, updated_at) VALUES (1, 'old.pgn', 'chess', 'fide-standard', 'done', 1,"
            " 1, 0, '', 0, 1.0, 1.0)")
        connection.exec_driver_sql("INSERT INTO game_check_games (check_id, \"index\", has_findings, line_json, record)"
                                   " VALUES (1, 1, 0, '{}', '1. e4 *')")
    migrate(engine)
    with engine.begin() as connection:
        assert connection.exec_driver_sql("SELECT id, filename, collection_id FROM game_checks").all() == [
            (1, "old.pgn", None)]
        assert connection.exec_driver_sql("SELECT check_id, record FROM game_check_games").all() == [(1, "1. e4 *")]
    engine.dispose()


@pytest.mark.slow
def test_on_postgresql_the_stored_bytes_are_append_only_and_0008_goes_back(postgres_url: str, tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy.exc import DBAPIError

    from tests.web.conftest import make_app
    from web.audit import verify
    from web.db import MIGRATIONS

    app = make_app(tmp_path, DATABASE_URL=postgres_url)
    engine = app.extensions["db_engine"]
    try:
        assert engine.dialect.name == "postgresql"
        client = login(app, "tina", "td")
        first = upload(client, data=gzip.compress(COLLECTION, mtime=0), name="round3.pgn.gz").headers["Location"]
        finished(client, first)
        [kept] = stored(app)
        again = pick(client, kept.id, ruleset="fide-standard").headers["Location"]
        finished(client, again)
        assert without_seconds(lines_of(client, again)) == without_seconds(lines_of(client, first))
        assert client.get(f"/events/default/collections/{kept.id}").data == gzip.compress(COLLECTION, mtime=0)
        for statement in ("UPDATE game_collections SET content = '\\x00'::bytea WHERE id = :id",
                          "DELETE FROM game_collections WHERE id = :id"):
            with pytest.raises(DBAPIError, match="game_collections is append-only"), engine.begin() as connection:
                connection.execute(sa.text(statement), {"id": kept.id})
        with app.extensions["db_sessions"]() as session:
            report = verify(session)
        assert report.is_intact, report.to_json()
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0007")
            assert "game_collections" not in sa.inspect(connection).get_table_names()
            assert "collection_id" not in {c["name"] for c in sa.inspect(connection).get_columns("game_checks")}
        migrate(engine)  # and up again
    finally:
        app.extensions["adjudicator"].shutdown()
        engine.dispose()
