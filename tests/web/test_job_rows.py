"""The queue client's two ways to the ``jobs`` table write and read the same rows (web.queue.job_rows): the
session's (web.queue.rows.SessionRows: the app and the workers) and the database driver's own
(web.queue.direct: ``check-games`` with a broker, without SQLAlchemy, issue 40), on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select, update

from web.db import make_engine, make_sessionmaker, migrate
from web.queue import direct
from web.queue.job_rows import FINISHED, Ended, JobRows
from web.queue.rows import SessionRows
from web.tables import jobs as jobs_table
from web.tables.jobs import JobRow

TIMES = ("created_at", "published_at")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'queue.db'}"
    else:
        yield request.getfixturevalue("postgres_url")


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    engine = make_engine(url)
    migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def both(url: str, engine: Engine) -> Iterator[dict[str, JobRows]]:
    found = direct.connect(url)
    assert found is not None, "the project's own URLs go through the driver"
    try:
        yield {"session": SessionRows(make_sessionmaker(engine)), "direct": found}
    finally:
        found.close()


def row(engine: Engine, job_id: str) -> dict[str, Any] | None:
    with make_sessionmaker(engine)() as session:
        found = session.execute(select(JobRow.__table__).where(JobRow.id == job_id)).mappings().first()
    return None if found is None else dict(found)


def without(found: dict[str, Any] | None, *names: str) -> dict[str, Any]:
    assert found is not None
    return {name: value for name, value in found.items() if name not in ("id", *names)}


def finish(engine: Engine, job_id: str, status: str, result: str | None = None, error: str | None = None) -> None:
    """What a worker writes at a job's end (a plain update: the jobs table alone may be registered)."""
    with engine.begin() as connection:
        connection.execute(update(JobRow.__table__).where(JobRow.id == job_id).values(
            status=status, result_json=result, error_json=error))


def test_a_new_job_is_the_same_row_whichever_way_it_is_written(both: dict[str, JobRows], engine: Engine) -> None:
    payload = {"game": "chess", "ruleset": "fide-standard", "records": ["1. e4 e5 *"], "name": "Café"}
    for way, jobs in both.items():
        jobs.add_queued(f"check:{way}:0", "check-chunk", payload)
        jobs.add_queued(f"check:{way}:1", "check-chunk", payload, published=True)
    assert without(row(engine, "check:session:0"), *TIMES) == without(row(engine, "check:direct:0"), *TIMES)
    assert without(row(engine, "check:session:1"), *TIMES) == without(row(engine, "check:direct:1"), *TIMES)
    queued = row(engine, "check:direct:0")
    assert queued is not None and queued["status"] == "queued" and queued["published_at"] is None
    assert queued["payload_json"] == '{"game": "chess", "ruleset": "fide-standard", "records": ["1. e4 e5 *"], ' \
                                     '"name": "Café"}'
    sent = row(engine, "check:direct:1")
    assert sent is not None and sent["publications"] == 1 and sent["published_at"] == sent["created_at"]
    for way, jobs in both.items():
        jobs.published(f"check:{way}:1")
    assert [row(engine, f"check:{way}:1")["publications"] for way in both] == [2, 2]  # type: ignore[index]


def test_a_job_has_ended_only_once_its_row_says_so(both: dict[str, JobRows], engine: Engine) -> None:
    for way, jobs in both.items():
        jobs.add_queued(f"check:{way}:0", "check-chunk", {"records": []})
        assert jobs.ended(f"check:{way}:0") is None, "queued"
        assert jobs.ended("check:nothing:0") is None, "no such job"
    for way in both:
        finish(engine, f"check:{way}:0", "running")
    assert [jobs.ended(f"check:{way}:0") for way, jobs in both.items()] == [None, None]
    for way in both:
        finish(engine, f"check:{way}:0", "done", '{"games": [1], "lines": [\n{"index": 1}\n]}')
    ended = [jobs.ended(f"check:{way}:0") for way, jobs in both.items()]
    assert ended == [Ended("done", '{"games": [1], "lines": [\n{"index": 1}\n]}', None)] * 2
    assert ended[0] is not None and json.loads(ended[0].result_json or "") == {"games": [1], "lines": [{"index": 1}]}
    for way in both:
        finish(engine, f"check:{way}:0", "failed", error='{"code": "part_unreadable", "message": "x", "field": null}')
    assert {jobs.ended(f"check:{way}:0") for way, jobs in both.items()} == {
        Ended("failed", None, '{"code": "part_unreadable", "message": "x", "field": null}')}


def test_a_job_the_broker_never_heard_of_fails_with_the_reason_once(both: dict[str, JobRows], engine: Engine) -> None:
    error = {"code": "queue_unavailable", "message": "the task queue cannot be reached: ConnectionError", "field": None}
    for way, jobs in both.items():
        jobs.add_queued(f"check:{way}:0", "check-chunk", {"records": []})
        assert jobs.fail_unsent(f"check:{way}:0", error) is True
        assert jobs.fail_unsent(f"check:{way}:0", error) is False, "failed already: not queued any more"
        assert jobs.fail_unsent("check:nothing:0", error) is False
    assert without(row(engine, "check:session:0"), *TIMES, "finished_at") == \
        without(row(engine, "check:direct:0"), *TIMES, "finished_at")
    failed = both["direct"].ended("check:direct:0")
    assert failed is not None and failed.status == "failed" and json.loads(failed.error_json or "") == error


@pytest.mark.parametrize("letter", ["_", "%", "/"])
def test_the_rows_read_are_deleted_and_no_others(both: dict[str, JobRows], engine: Engine, letter: str) -> None:
    for way, jobs in both.items():
        named = f"check:{way}{letter}a:"
        for job_id in (f"{named}0", f"{named}1", f"check:{way}xa:0", f"check:{way}/xa:0", f"{named}2"):
            jobs.add_queued(job_id, "check-chunk", {"records": []})
        jobs.forget([f"{named}0"])
        jobs.forget([])
        assert row(engine, f"{named}0") is None and row(engine, f"{named}1") is not None
        jobs.forget_named(named)  # a letter here, not LIKE's wildcards nor its escape
        assert row(engine, f"{named}1") is None and row(engine, f"{named}2") is None
        assert row(engine, f"check:{way}xa:0") is not None and row(engine, f"check:{way}/xa:0") is not None


def test_a_statement_that_fails_leaves_the_next_one_working(both: dict[str, JobRows], engine: Engine) -> None:
    for way, jobs in both.items():
        jobs.add_queued(f"check:{way}:0", "check-chunk", {"records": []})
        with pytest.raises(Exception, match="(?i)unique"):  # the same job twice: the database refuses it
            jobs.add_queued(f"check:{way}:0", "check-chunk", {"records": ["again"]})
        jobs.add_queued(f"check:{way}:1", "check-chunk", {"records": []})
        assert jobs.fail_unsent(f"check:{way}:0", {"code": "queue_unavailable", "message": "x", "field": None})
        assert row(engine, f"check:{way}:1") is not None
        assert row(engine, f"check:{way}:0")["payload_json"] == '{"records": []}'  # type: ignore[index]


def test_closed_rows_stay_closed(url: str, engine: Engine) -> None:
    found = direct.connect(url)
    assert found is not None
    found.close()
    found.close()  # twice: Remote.close and the command's own, harmless
    with pytest.raises(found.error):  # no statement opens a new connection behind the command's back
        found.ended("check:x:0")


def test_a_lost_postgresql_connection_is_opened_again_before_the_next_statement(postgres_url: str) -> None:
    import psycopg

    engine = make_engine(postgres_url)
    migrate(engine)
    engine.dispose()
    found = direct.connect(postgres_url)
    assert found is not None
    try:
        found.add_queued("check:lost:0", "check-chunk", {"records": []})
        with psycopg.connect(postgres_url, autocommit=True) as admin:  # as a server restart ends it
            admin.execute("SELECT pg_terminate_backend(%s)", (found.connection.info.backend_pid,))
        found.add_queued("check:lost:1", "check-chunk", {"records": []})
        found.forget_named("check:lost:")
        assert found.ended("check:lost:1") is None
    finally:
        found.close()


def test_the_drivers_sqlite_connection_is_set_up_as_the_engines(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'queue.db'}"
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            wanted = [connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                      for name in ("journal_mode", "synchronous", "foreign_keys", "secure_delete")]
    finally:
        engine.dispose()
    found = direct.connect(url)
    assert found is not None
    with contextlib.closing(found.connection.cursor()) as cursor:
        got = [cursor.execute(f"PRAGMA {name}").fetchone()[0]
               for name in ("journal_mode", "synchronous", "foreign_keys", "secure_delete")]
    found.close()
    assert got == wanted == ["wal", 2, 1, 2]  # secure_delete 2: FAST


def test_a_database_behind_the_migrations_is_not_at_the_head(url: str) -> None:
    found = direct.connect(url)
    assert found is not None
    try:
        assert found.is_at_head() is False, "a new database"
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
        assert found.is_at_head() is True
    finally:
        found.close()


def test_urls_read_otherwise_by_the_driver_are_left_to_sqlalchemy(tmp_path: Path) -> None:
    assert direct.connect("sqlite://") is None
    assert direct.connect("sqlite:///:memory:") is None
    assert direct.connect(f"sqlite:///{tmp_path / 'queue.db'}?timeout=5") is None
    assert direct.connect("mysql://localhost/queue") is None
    plain = direct.PLAIN_POSTGRESQL
    for url in ("postgresql://td:s3cret@db.example:5432/adjudicator", "postgres://db/adjudicator",
                "postgresql+psycopg://td@127.0.0.1/adj_1"):
        assert plain.fullmatch(url), url
    for url in ("postgresql://td@db/adj%2Fx",  # libpq decodes the escape, SQLAlchemy keeps it in the name
                "postgresql://td:p/w@db/adjudicator",  # libpq reads the "/" as the path
                "postgresql://td:p%40ss@db/adjudicator", "postgresql:///adjudicator",
                "postgresql://db/adjudicator?sslmode=require"):
        assert not plain.fullmatch(url), url
        assert direct.connect(url) is None, url
    assert FINISHED == jobs_table.FINISHED


def test_check_games_brings_a_new_database_to_the_head_then_writes_through_the_driver(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from web.commands.check_games import _broker

    monkeypatch.setenv("ADJUDICATOR_BROKER_URL", "redis://127.0.0.1:9/0")  # never reached: nothing is sent
    for url, way in ((f"sqlite:///{tmp_path / 'new.db'}", direct.DirectRows),
                     (f"sqlite:///{tmp_path / 'options.db'}?timeout=5", SessionRows)):
        with contextlib.ExitStack() as held:
            remote = _broker({"database": {"url": url}}, held)
            assert isinstance(remote.jobs, way)
            remote.jobs.add_queued("check:x:0", "check-chunk", {"records": []})
            assert remote.jobs.ended("check:x:0") is None
        engine = make_engine(url)
        try:
            assert row(engine, "check:x:0") is not None, "the migrations ran: the jobs table is there"
        finally:
            engine.dispose()
        assert not Path(url.removeprefix("sqlite:///").split("?")[0] + "-wal").exists(), "closed: no log left behind"
