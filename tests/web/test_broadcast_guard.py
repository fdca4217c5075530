"""No server-side request forgery through a broadcast URL (issue 39, item 4): the server connects only to
public addresses, each redirect checked again, unless the operator allows a network; an organiser is told at
once when the URL names a local or private address. Every connection these tests may open goes to loopback:
the other addresses are checked without connecting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from committee_support import add_user, make_app
from events_support import PASSWORD
from flask import Flask
from test_event_staff_pages import SPRING, event_row, login
from test_revocation import run

from tests.web.broadcast_support import LOOPBACK, PgnServer, pgn_game
from web.broadcast.guard import host_refusal, networks_of, refusal
from web.broadcast.sources import Broadcasts

LOCAL = ("127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.20", "169.254.169.254", "::1", "fe80::1",
         "fd00::7", "::ffff:127.0.0.1", "0.0.0.0", "100.64.0.1")


@pytest.mark.parametrize("address", LOCAL)
def test_local_private_and_link_local_addresses_are_refused(address: str) -> None:
    why = refusal(address, ())
    assert why is not None and "allowed_networks" in why


def test_public_addresses_and_the_operators_networks_are_read() -> None:
    assert refusal("93.184.216.34", ()) is None and refusal("2606:2800:220:1::1", ()) is None
    venue = networks_of(["192.168.1.0/24"])
    assert refusal("192.168.1.20", venue) is None
    assert refusal("192.168.2.20", venue) is not None, "only the network allowed"


@pytest.mark.parametrize("url", ["http://127.0.0.1/r.pgn", "http://10.0.0.1/r.pgn", "http://169.254.169.254/latest",
                                 "http://localhost:8000/r.pgn", "https://[::1]:8443/r.pgn",
                                 "http://user@127.0.0.1:80/r.pgn", "http://LOCALHOST./r.pgn"])
def test_a_url_naming_a_local_host_is_refused_as_written(url: str) -> None:
    assert host_refusal(url, ()) is not None


def test_a_url_naming_a_public_host_waits_for_its_connection_to_be_checked() -> None:
    assert host_refusal("https://lichess.org/api/broadcast/round/x.pgn", ()) is None


@pytest.fixture
def source() -> Iterator[PgnServer]:
    server = PgnServer(pgn_game(1, "Alpha, Ann", "Beta, Bob", ["e4", "e5"]))
    yield server
    server.stop()


def test_a_source_on_the_servers_own_machine_is_never_asked(source: PgnServer) -> None:
    snapshot = Broadcasts({"ttl_seconds": 0}).refresh(source.url)
    assert snapshot.copy is None and snapshot.problem is not None and "loopback" in snapshot.problem
    assert source.asked == 0, "refused before any request reached it"
    by_name = Broadcasts({"ttl_seconds": 0}).refresh(source.url.replace("127.0.0.1", "localhost"))
    assert by_name.copy is None and source.asked == 0, "a name resolving to loopback is refused the same"


def test_the_operator_may_allow_the_venues_network(source: PgnServer) -> None:
    snapshot = Broadcasts({**LOOPBACK, "ttl_seconds": 0}).refresh(source.url)
    assert snapshot.problem is None and snapshot.copy is not None and source.asked == 1


def test_a_redirect_into_a_network_not_allowed_is_refused(source: PgnServer) -> None:
    target = PgnServer(pgn_game(1, "Gamma, Gil", "Delta, Dan", ["d4"]))
    try:
        source.redirect = target.url.replace("127.0.0.1", "127.0.0.2")
        snapshot = Broadcasts({"allowed_networks": ["127.0.0.1/32"], "ttl_seconds": 0}).refresh(source.url)
        assert source.statuses == [302]
        assert snapshot.copy is None and snapshot.problem is not None and "127.0.0.2" in snapshot.problem
        source.redirect = target.url
        followed = Broadcasts({"allowed_networks": ["127.0.0.1/32"], "ttl_seconds": 0}).refresh(source.url)
        assert followed.copy is not None and "Gamma, Gil" in followed.copy.files[0][1], "an allowed hop is followed"
    finally:
        target.stop()


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = make_app(tmp_path, monkeypatch)
    for name, role in (("ada", "admin"), ("olive", "td"), ("owen", "td")):
        add_user(app, name, role, password=PASSWORD)
    yield app
    app.extensions["adjudicator"].shutdown()


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/round.pgn", "http://10.0.0.1/round.pgn",
                                 "http://169.254.169.254/latest/meta-data/", "http://localhost/round.pgn"])
def test_an_organiser_or_admin_setting_a_local_url_is_told_which_field(app: Flask, url: str) -> None:
    ada = login(app, "ada")
    assert ada.post("/admin/events/", data=SPRING).status_code == 303
    assert ada.post("/admin/events/spring/staff", data={"user": "olive", "role": "organiser"}).status_code == 303
    for who in (login(app, "olive"), ada):
        refused: Any = who.post("/admin/events/spring", data={**SPRING, "broadcast": url})
        assert refused.status_code == 422 and "public addresses" in refused.get_data(as_text=True)
        assert event_row(app, "spring")["broadcast"] is None
    code, _ = run(app, "events", "set", "spring", "--broadcast", url)
    assert code == 0 and event_row(app, "spring")["broadcast"] == url, "the operator's command line may"


def test_the_round_views_watch_reads_an_organisers_url_through_the_same_guard(source: PgnServer) -> None:
    """The web's watch polls the event's broadcast every few seconds: a local address is refused there too,
    while the operator's ``adjudicator watch URL`` (no opener: any address) reads it."""
    from web.broadcast.guard import guarded_opener
    from web.watch.source import Source, SourceError

    guarded = Source(source.url, opener=guarded_opener(()))
    with pytest.raises(SourceError, match="loopback"):
        guarded.read()
    assert source.asked == 0
    assert Source(source.url).read()[0].text.count("Alpha, Ann") == 1 and source.asked == 1
