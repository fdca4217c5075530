"""A TD checks an event's games on the web: the upload becomes a job, the job a report with the
games that have findings first, each game's page shows the finding with its article and the
record replayed to the finding's ply, and the CSV and JSON downloads say what
``adjudicator check-games`` says for the same file. Only the event's TDs upload; only its staff
read the report (a private event's checks are hidden from everyone else).

The collection is the one per finding code built in tests/test_check_games.py.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from committee_support import add_user
from events_support import add_event, assign
from flask import Flask
from flask.testing import FlaskClient

from tests.test_check_games import CHESS_GAMES
from tests.test_check_games_cli import EXPECTED_CODES
from web.db import Base, make_engine, migrate

ROOT = Path(__file__).resolve().parents[2]
COLLECTION = "".join(CHESS_GAMES.values()).encode()
PASSWORD = "password-xxxx"


def login(app: Flask, name: str, role: str) -> FlaskClient:
    add_user(app, name, role, password=PASSWORD)
    client = app.test_client()
    assert client.post("/login", data={"name": name, "password": PASSWORD}).status_code == 303
    return client


def upload(client: FlaskClient, slug: str = "default", data: bytes = COLLECTION, name: str = "event.pgn",
           **fields: str) -> Any:
    return client.post(f"/events/{slug}/checks", data={"collection": (io.BytesIO(data), name), **fields})


def finished(client: FlaskClient, location: str, seconds: float = 240) -> str:
    """Poll the check's page as htmx does until the progress widget gives way to the report (the deadline
    only bounds a hang: no test asserts how long a check takes; bench/ does)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page = client.get(location, headers={"HX-Request": "true"}).get_data(as_text=True)
        if 'id="check-progress"' not in page and "Waiting to start" not in page:
            return client.get(location).get_data(as_text=True)
        time.sleep(0.3)
    raise AssertionError(f"{location} did not finish in {seconds} s")


@pytest.fixture(scope="module")
def cli_lines(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path = tmp_path_factory.mktemp("cli") / "event.pgn"
    path.write_bytes(COLLECTION)
    proc = subprocess.run([sys.executable, "-m", "adjudicator", "check-games", str(path)], capture_output=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def without_seconds(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    *games, summary = lines
    return [*games, {"summary": {k: v for k, v in summary["summary"].items() if k != "seconds"}}]


def test_an_upload_becomes_a_job_then_a_report_with_the_findings_first(app: Flask) -> None:
    client = login(app, "tina", "td")
    started = upload(client)
    assert started.status_code == 303 and re.fullmatch(r"/checks/\d+", started.headers["Location"])
    report = finished(client, started.headers["Location"])
    assert "<strong>8</strong> of 10 games with findings" in report
    found = report[report.index('id="found"'):report.index('id="clean"')]
    codes = re.findall(r'<span class="code">([a-z-]+)</span>', found)
    assert codes == [c for game in EXPECTED_CODES for c in game]  # file order, clean games left out
    games = [int(n) for n in re.findall(r'href="/checks/\d+/games/(\d+)"', found)]
    assert games == [n for n, game in enumerate(EXPECTED_CODES, start=1) if game]
    clean = report[report.index('id="clean"'):]
    assert "Game 1:" in clean and "Game 3:" in clean and "2 games without findings" in clean


def test_the_downloads_say_what_the_command_says(app: Flask, cli_lines: list[dict[str, Any]]) -> None:
    client = login(app, "tina", "td")
    location = upload(client).headers["Location"]
    finished(client, location)
    jsonl = client.get(f"{location}/games.jsonl")
    assert jsonl.status_code == 200 and jsonl.mimetype == "application/x-ndjson"
    assert "attachment" in jsonl.headers["Content-Disposition"]
    web_lines = [json.loads(line) for line in jsonl.get_data(as_text=True).splitlines()]
    assert without_seconds(web_lines) == without_seconds(cli_lines)
    rows = list(csv.DictReader(io.StringIO(client.get(f"{location}/games.csv").get_data(as_text=True))))
    expected = []
    for line in cli_lines[:-1]:
        for finding in line["findings"] or [None]:
            expected.append({
                "index": str(line["index"]), "white": line["headers"].get("White", ""),
                "black": line["headers"].get("Black", ""), "round": line["headers"].get("Round", ""),
                "recorded_result": line["recorded_result"] or "", "lawful_result": line["lawful_result"] or "",
                "code": finding["code"] if finding else "", "ply": str(finding["ply"]) if finding else "",
                "article": finding["article"] if finding else "", "message": finding["message"] if finding else "",
            })
    assert rows == expected


def test_a_compressed_upload_gives_the_same_report(app: Flask, cli_lines: list[dict[str, Any]]) -> None:
    client = login(app, "tina", "td")
    location = upload(client, data=gzip.compress(COLLECTION), name="event.pgn.gz").headers["Location"]
    finished(client, location)
    web_lines = [json.loads(line) for line in client.get(f"{location}/games.jsonl").get_data(as_text=True).splitlines()]
    assert without_seconds(web_lines) == without_seconds(cli_lines)


def test_a_game_page_shows_the_finding_with_its_article_and_the_record_at_its_ply(app: Flask) -> None:
    client = login(app, "tina", "td")
    location = upload(client).headers["Location"]
    finished(client, location)
    page = client.get(f"{location}/games/9").get_data(as_text=True)  # 2. Ke3, illegal as played
    assert "illegal-move" in page and "FIDE 7.5.1" in page and "a king cannot move from e1 to e3" in page
    assert "After 2. Ke1-e3 — illegal" in page and "(ply 3 of 5)" in page
    fivefold = client.get(f"{location}/games/5").get_data(as_text=True)
    assert "FIDE 9.6.1" in fivefold and "(ply 16 of 17)" in fivefold and "After 8... Ng8" in fivefold
    step = client.get(f"{location}/games/5/board?line=game&ply=1", headers={"HX-Request": "true"})
    assert step.status_code == 200 and "After 1. Nf3" in step.get_data(as_text=True)
    assert "<html" not in step.get_data(as_text=True)
    assert client.get(f"{location}/games/99").status_code == 404


def test_a_file_that_is_no_collection_is_refused_on_the_form(app: Flask) -> None:
    client = login(app, "tina", "td")
    response = upload(client, data=b"hello, this is not chess\n" * 20, name="notes.pgn")
    assert response.status_code == 422 and "notes.pgn is not a PGN game collection" in response.get_data(as_text=True)
    missing = client.post("/events/default/checks", data={})
    assert missing.status_code == 422 and "choose the event" in missing.get_data(as_text=True)
    bad = upload(client, ruleset="no-such-rules")
    assert bad.status_code == 422 and "choose one of the rulesets" in bad.get_data(as_text=True)


def staffed_events(app: Flask) -> tuple[FlaskClient, FlaskClient, FlaskClient, FlaskClient, FlaskClient]:
    """Events ``pub`` and ``priv`` (private) with their TDs tpub and tpriv, mona on pub's committee, otto
    on no event's staff, and an anonymous visitor: their clients, in that order."""
    add_event(app, "pub")
    add_event(app, "priv", private=True)
    tpub, tpriv = login(app, "tpub", "td"), login(app, "tpriv", "td")
    assign(app, "pub", "tpub", "td")
    assign(app, "priv", "tpriv", "td")
    member = login(app, "mona", "committee")
    assign(app, "pub", "mona", "committee")
    outsider, anonymous = login(app, "otto", "committee"), app.test_client()
    return tpub, tpriv, member, outsider, anonymous


def test_only_the_events_tds_upload_and_only_its_staff_read_the_report(app: Flask) -> None:
    tpub, tpriv, member, outsider, anonymous = staffed_events(app)
    for client in (outsider, anonymous, tpriv):  # strangers to the event: its checks are not said to exist
        assert upload(client, "pub").status_code == 404
        assert client.get("/events/pub/checks").status_code == 404
    assert upload(member, "pub").status_code == 403  # its committee: staff, but not a TD
    assert member.get("/events/pub/checks").status_code == 403
    pub = upload(tpub, "pub").headers["Location"]
    priv = upload(tpriv, "priv").headers["Location"]
    finished(tpub, pub)
    finished(tpriv, priv)
    assert "games with findings" in member.get(pub).get_data(as_text=True)  # the event's committee: staff
    assert member.get(f"{pub}/games.csv").status_code == 200
    assert member.post(f"{pub}/cancel").status_code == 403
    for client in (outsider, anonymous):
        assert client.get(pub).status_code == 404  # a stranger to the event: not said to exist (issue 23)
        assert client.get(f"{pub}/games.jsonl").status_code == 404
        assert client.get(f"{pub}/games/2").status_code == 404
        assert client.get(priv).status_code == 404
        assert upload(client, "priv").status_code == 404
    assert tpub.get(priv).status_code == 404


def test_the_tables_match_the_models_and_0008_then_0007_go_back(tmp_path: Path) -> None:
    from web.tables import every  # noqa: F401  (registers the tables)

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    with engine.begin() as connection:
        metadata = sa.MetaData()
        for name in ("users", "events", "game_collections", "game_checks", "game_check_games"):
            Base.metadata.tables[name].to_metadata(metadata)

        def ours(name: str | None, kind: str, _parent: object) -> bool:
            return kind != "table" or name in metadata.tables

        context = MigrationContext.configure(connection, opts={"include_name": ours})
        assert compare_metadata(context, metadata) == []
    from alembic import command
    from alembic.config import Config

    from web.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # as web.db.migrate runs them (a table is rebuilt)
        connection.commit()
        with connection.begin():
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0007")
            assert "game_collections" not in sa.inspect(connection).get_table_names()
            assert "collection_id" not in {c["name"] for c in sa.inspect(connection).get_columns("game_checks")}
            command.downgrade(cfg, "0006")
            assert not {"game_checks", "game_check_games"} & set(sa.inspect(connection).get_table_names())
    engine.dispose()


@pytest.fixture
def td_site(tmp_path: Path) -> Any:
    """The app with CSRF on, served on 127.0.0.1:<free port>, with a TD ``tina``."""
    from tests.web.conftest import make_app, serve

    application = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    add_user(application, "tina", "td", password=PASSWORD)
    yield from serve(application)


@pytest.mark.browser
def test_on_a_phone_upload_watch_and_open_a_finding(td_site: str, phone: Any) -> None:
    from tests.web.phone_support import check_page, short_links

    phone.goto(f"{td_site}/login")
    phone.fill("input[name=name]", "tina")
    phone.fill("input[name=password]", PASSWORD)
    phone.click("button[type=submit]")
    phone.wait_for_url(lambda url: "/login" not in url)
    phone.goto(f"{td_site}/events/default/checks")
    check_page(phone, td_site, "phone-checks-upload")
    phone.set_input_files("#collection", files=[{"name": "event.pgn", "mimeType": "application/x-chess-pgn",
                                                 "buffer": COLLECTION}])
    phone.click("#start-check")
    phone.wait_for_url(re.compile(r"/checks/\d+$"))
    phone.wait_for_selector("#found", timeout=240_000)  # the progress widget polls until the report replaces it
    assert "8 of 10 games with findings" in phone.inner_text("#check-state")
    check_page(phone, td_site, "phone-checks-report")
    assert short_links(phone) == [], "every link of the report is a 44 px tap target, text links too"
    phone.click("#found a[href$='/games/5']")
    phone.wait_for_url(re.compile(r"/games/5$"))
    assert "FIDE 9.6.1" in phone.inner_text("#findings")
    assert "After 8... Ng8" in phone.inner_text("#caption-game")
    check_page(phone, td_site, "phone-checks-game")
    assert short_links(phone, "main p a, #record-readings a, #findings a") == []
    phone.locator("#line-game .nav a[aria-label='start']").click()
    phone.wait_for_selector("#caption-game:has-text('Start position')")
    phone.goto(f"{td_site}/events/default/checks")
    assert "event.pgn" in phone.inner_text("#earlier")
    assert "10 games" in phone.inner_text("#collections") and "by tina" in phone.inner_text("#collections")
    check_page(phone, td_site, "phone-checks-earlier")
    first = phone.url
    phone.click("#collections li button")  # the stored file, checked again: nothing uploaded
    phone.wait_for_url(lambda url: re.search(r"/checks/\d+$", url) is not None and url != first)
    phone.wait_for_selector("#found", timeout=240_000)
    assert "8 of 10 games with findings" in phone.inner_text("#check-state")
    assert "event.pgn" in phone.inner_text("#check-file")
