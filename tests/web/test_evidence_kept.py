"""The ruling page draws the game its ruling kept (web/evidence.py, issue 38 "one shape per step").

A ruling made now keeps the game as it read it (``rulings.played_json``, migration 0020): each ply's
label, position, legality and clock, and the readings. Its page draws those positions without replaying
the record: a case whose record was changed behind the database's back after the ruling still shows the
game the ruling established. A ruling kept before (no game kept) is replayed from its case, as before, and
draws the same page.
"""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlalchemy.orm import Session, sessionmaker

from adjudicator.played import PlayedGame, played_case
from web.config import load_config
from web.evidence import kept_game, present
from web.kinds import job_kinds
from web.queue import QueueSettings, rows
from web.queue.worker import Runtime
from web.tables.rulings import CaseRow, RulingRow, add_case, add_ruling

SHUFFLE = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
QUICK = {"game": "chess", "ruleset": "fide-standard", "claim": "threefold-repetition", "claimant": "white",
         "record": SHUFFLE}
THREEFOLD = {"claim": "threefold-repetition", "verdict": "upheld", "result": "1/2-1/2",
             "evidence": {"occurrences": [0, 4, 8]}}
"""A threefold ruling's JSON as stored (the evidence marks the plies of the repeated position)."""


def marked(page: str) -> list[str]:
    return re.findall(r'class="marked[^"]*"[^>]*>([^<]+)<', page)


def moves(page: str) -> list[str]:
    """The game's steps as the page lists them (the first line on the page is the game)."""
    listed = page.split('<div class="moves">', 1)[1].split("</div>", 1)[0]
    return re.findall(r">([^<]+)</a>", listed)


def test_the_kept_game_is_drawn_and_the_record_is_not_replayed() -> None:
    """The case's record cannot be read at all here: the page still draws the game the ruling kept."""
    kept = played_case(QUICK)
    assert kept is not None
    unreadable = {**QUICK, "start_fen": "not a position"}
    shown = present(unreadable, THREEFOLD, kept)
    game = shown.lines["game"]
    assert shown.record_note == "", "nothing was replayed, so nothing failed"
    assert [s.fen for s in game.steps] == [m.fen for m in kept.moves]
    assert [s.label for s in game.steps if s.is_marked] == ["2... Ng8", "4... Ng8"]
    assert present(unreadable, THREEFOLD).record_note.startswith("The record could not be replayed")


def test_a_ruling_kept_before_is_replayed_and_draws_the_same_page() -> None:
    for case in (QUICK, {**QUICK, "record": "1. e4 {[%clk 0:09:58]} e5 {[%clk 0:09:57]} 3. Nf3"},
                 {"game": "checkers", "claim": "threefold-repetition", "record": "1. 11-15 23-19 2. 8-11 22-17"}):
        kept = played_case(case)
        assert kept is not None
        stored = kept_game(json.dumps(kept.to_json()))
        assert present(case, THREEFOLD, stored) == present(case, THREEFOLD), case["record"]


def test_a_kept_game_that_cannot_be_read_falls_back_to_the_record() -> None:
    assert kept_game(None) is None and kept_game("") is None
    assert kept_game("{not json") is None and kept_game('{"moves": []}') is None
    assert present(QUICK, THREEFOLD, kept_game("[]")) == present(QUICK, THREEFOLD)


def _rewrite_record(app: Flask, case_id: int, record: str) -> None:
    """Change a stored case's record behind the app's back (the table refuses UPDATE: the trigger is lifted
    for this one change, as someone with the database file could)."""
    engine = app.extensions["adjudicator"].sessions.kw["bind"]
    with engine.begin() as connection:
        trigger = connection.execute(
            text("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'cases_no_update'")).scalar_one()
        connection.execute(text("DROP TRIGGER cases_no_update"))
        data = json.loads(connection.execute(text("SELECT case_json FROM cases WHERE id = :id"),
                                             {"id": case_id}).scalar_one())
        connection.execute(text("UPDATE cases SET case_json = :json WHERE id = :id"),
                           {"json": json.dumps({**data, "record": record}), "id": case_id})
        connection.execute(text(trigger))


def test_a_ruling_made_now_draws_the_positions_it_established(app: Flask, client: FlaskClient) -> None:
    from tests.web.test_web_rulings import rule

    url = rule(client, "threefold-repetition")
    ruling_id = int(url.rsplit("/", 1)[1])
    with app.extensions["adjudicator"].sessions() as session:
        row = session.get(RulingRow, ruling_id)
        assert row is not None and row.played_json is not None, "the game is kept with the ruling"
        case_id = row.case_id
        assert kept_game(row.played_json) == played_case(session.get(CaseRow, case_id).data)
    before = client.get(url).get_data(as_text=True)
    assert marked(before) == ["2... Ng8", "4... Ng8"]
    _rewrite_record(app, case_id, "1. d4 d5 2. c4 c6")
    after = client.get(url).get_data(as_text=True)
    assert marked(after) == ["2... Ng8", "4... Ng8"] and "After 4... Ng8" in after
    assert moves(after) == moves(before) == ["1. Nf3", "1... Nf6", "2. Ng1", "2... Ng8",
                                             "3. Nf3", "3... Nf6", "4. Ng1", "4... Ng8"]
    with app.extensions["adjudicator"].sessions() as session:
        replayed = present(session.get(CaseRow, case_id).data, THREEFOLD)
    assert [s.label for s in replayed.lines["game"].steps] == ["1. d4", "1... d5", "2. c4", "2... c6"], (
        "a replay would have drawn the record as it is now")
    fragment = client.get(f"/rulings/{ruling_id}/board?line=game&ply=1", headers={"HX-Request": "true"})
    assert "After 1. Nf3" in fragment.get_data(as_text=True), "the step-through draws the kept game too"




def test_a_queue_worker_keeps_the_game_with_its_ruling(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        case_id = add_case(session, {**QUICK, "record": "1. e4 e5 3. Nf3 Nc6"}, {}, "api").id
        session.commit()
    job_id = rows.claim_job_id(case_id)
    with sessions() as session:
        session.add(rows.new_row(job_id, "claim", case_id=case_id))
        session.commit()
    Runtime(load_config(), sessions, QueueSettings(), publish=lambda _job_id: None, kinds=job_kinds()).run(job_id)
    with sessions() as session:
        row = session.query(RulingRow).filter(RulingRow.case_id == case_id).one()
        game = kept_game(row.played_json)
        assert game is not None and [r.kind for r in game.readings] == ["numbering-gap"]
        assert [m.label for m in game.moves] == ["1. e4", "1... e5", "2. Nf3", "2... Nc6"]


def test_a_ruling_with_no_record_keeps_no_game(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        case = add_case(session, {"game": "chess", "fen": "8/8/8/8/8/8/8/K6k w - - 0 1"}, {}, "api")
        row = add_ruling(session, case.id, THREEFOLD, 1)
        session.commit()
        assert row.played_json is None and kept_game(row.played_json) is None
        assert isinstance(PlayedGame.from_json({"start_fen": "x", "moves": []}), PlayedGame)
