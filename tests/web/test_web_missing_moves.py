"""The claim form asks for a move the record leaves out in one field (issue 34, class 1): a record whose move
numbers skip a move is not ruled on a move nobody wrote; the ruling page names the missing move, and the form
opened from it shows the gap and the one field; the TD's answer rules."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

SKIPPED_BLACK = "1. Nf3 Nf6 2. Nc3 3. e3 d6"


def claim(client: FlaskClient, **fields: str) -> str:
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move", "claimant": "white",
            "record": SKIPPED_BLACK, **fields}
    response = client.post("/claims", data=data)
    assert response.status_code == 303 and "/rulings/" in response.headers["Location"], response.get_data(as_text=True)
    return client.get(response.headers["Location"], follow_redirects=True).get_data(as_text=True)


def test_a_gap_defers_the_ruling_and_the_page_asks_for_the_missing_move(client: FlaskClient) -> None:
    page = claim(client)
    assert 'id="missing-moves"' in page and "Black's move 2 (before ply 4)" in page
    assert "deferred" in page and "+2:00" not in page
    link = re.search(r'href="(/claims/new\?from=\d+)#f-missing_moves"', page)
    assert link is not None
    form = client.get(link.group(1)).get_data(as_text=True)
    assert 'id="f-missing_moves"' in form and "Ply 4: the move number 3. before e3 skips" in form


def test_the_missing_move_typed_in_the_one_field_rules_the_claim(client: FlaskClient) -> None:
    page = claim(client, missing_moves="2... e6")
    assert 'id="missing-moves"' not in page and "rejected" in page
    assert "2... e6" in page  # the reasons say the TD gave it


def test_a_record_whose_numbers_follow_the_moves_shows_no_such_field(client: FlaskClient) -> None:
    form = client.get("/claims/new?game=chess&claim=illegal-move").get_data(as_text=True)
    assert 'id="f-missing_moves"' not in form


def test_a_record_of_two_games_is_refused_on_the_record_field_naming_where_the_second_starts(
    client: FlaskClient
) -> None:
    response = client.post("/claims", data={"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move",
                                            "claimant": "white", "record": "1. e4 e5 2. Nf3 1-0\n1. d4 d5 *"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'href="#f-record"' in page and "second game, starting at line 2 (&#39;1. d4 d5 *&#39;)" in page
