"""The app's settings: every table of ``config.toml`` besides the rulesets, as typed models.

Read when the configuration is (:func:`web.config.load_config`: ``serve``, ``worker``, every
command, and :func:`web.create_app`), so a misspelt option stops the start with an error naming
its full key (``web.inline_secnds: is not an option of [web] (did you mean inline_seconds?)``),
as a ruleset's does. Every option is declared here with its default and meaning, including those
a shipped ``config.toml`` leaves out; the reference (``docs/rulesets.md``, "App settings") is
written from these models.

The modules that use a table still read it themselves (with their own checks of the values, and
the Flask settings tests override them with); tests/test_settings.py holds their defaults to the
ones declared here.
"""

from __future__ import annotations

import difflib
import ipaddress
from collections.abc import Mapping
from typing import Any, Literal

from adjudicator.rulebook.options import OptionsInvalid, Section, build, checks, option, options
from adjudicator.rulebook.reference import reference as rulebook_reference
from adjudicator.rulebook.reference import section_tables

DEFAULT_BACKGROUND = ("unfinished-game", "insufficient-losing-chances")
"""The claims that always run as a job (engine work), whatever the time they take."""


class SettingsError(ValueError):
    """An option of an app table of the configuration is unknown or has a value of the wrong type."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


class EnginesSettings(Section):
    """``[engines]``: Stockfish, for the claims that need an engine and for the committee."""

    stockfish: str = option(default="", description="path to the binary; empty: look on PATH, then /usr/games")
    pool_size: int = option(default=0, description="engine processes kept warm; 0: sized to the machine (half the "
                           "cores, 1 to 4)")
    threads: int = option(default=1, description="threads per engine process")
    hash_mb: int = option(default=64, description="hash table per engine process, in MB")
    timeout_seconds: float = option(default=30.0, description="hard limit on one analysis (the process is killed and "
                                   "restarted once); also what a background job's progress expects")
    start_timeout_seconds: float = option(default=10.0,
                                          description="limit on starting the engine and on each UCI command")


class EntrySettings(Section):
    """``[entry]``: the claim form's move-entry board (its candidate moves)."""

    engine_nodes: int = option(default=300, description="Stockfish's budget per candidate list (MultiPV 8); 0: no "
                              "engine, book and heuristic only")
    book: str | None = option(default=None, description="a Polyglot opening book; unset: Debian's gnuchess-book when "
                             "installed; empty: none")


class TablebasesSettings(Section):
    """``[tablebases]``: endgame tables for the claims and for Stockfish (paths relative to the config file)."""

    syzygy: list[str] | str = option(default_factory=list, description="Syzygy directories; every listed one "
                                    "that exists is used")
    gaviota: list[str] | str = option(default_factory=list, description="Gaviota directories")


class DatabaseSettings(Section):
    """``[database]``: where cases, rulings and users are stored (``ADJUDICATOR_DATABASE_URL`` overrides)."""

    url: str = option(default="sqlite:///instance/adjudicator.db",
                      description="an SQLAlchemy URL: SQLite (a path relative "
                     "to the config file) or PostgreSQL")


class BroadcastSettings(Section):
    """``[web.broadcast]``: an event's live games on the claim form."""

    timeout_seconds: float = option(default=5.0,
                                    description="a reading gives up after this long; the form keeps the last "
                                   "copy and says so")
    max_bytes: int = option(default=5_000_000, description="a larger PGN (a URL's, or one file of a folder) is refused")
    ttl_seconds: float = option(default=10.0, description="a copy younger than this is not read again")
    max_files: int = option(default=64, description="the game files a broadcast folder may hold")
    allowed_networks: list[str] = option(default=[],
                                         description="networks (CIDR) a broadcast URL may reach besides public "
                                        "addresses, such as a venue's LAN for its LiveChess; loopback, private and "
                                        "link-local addresses are refused otherwise")

    @checks("allowed_networks")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        for text in value:
            ipaddress.ip_network(text.strip(), strict=False)  # its ValueError names the network
        return value


class WebSettings(Section):
    """``[web]``: the web app and its jobs."""

    max_content_length: int = option(default=2_000_000, description="largest request body, in bytes")
    max_collection_bytes: int = option(default=20_000_000,
                                       description="a game collection uploaded on an event's checks page")
    default_ruleset: str = option(default="fide-standard", description="the ruleset of the claim form when the event "
                                 "names none")
    event_cache_seconds: float = option(default=2.0,
                                        description="an event changed by another process is seen within this")
    check_workers: int = option(default=4, description="game checks run at once on the checks page (a thread each)")
    inline_seconds: float = option(default=2.0,
                                   description="a quick claim's page waits this long for its ruling; a claim "
                                  "that takes longer becomes a job the page follows")
    background_claims: list[str] = option(default=list(DEFAULT_BACKGROUND),
                                          description="claims that always run as a job "
                                         "(with the queue: on its workers)")
    rule_workers: int = option(default=8, description="threads ruling on quick claims at once")
    engine_workers: int = option(default=1, description="threads running background jobs at once (without the queue)")
    api_timeout_seconds: float = option(default=120.0, description="the JSON API waits this long for a ruling, then "
                                       "answers 503 not_ready")
    broadcast: BroadcastSettings = option(default_factory=BroadcastSettings,
                                         description="an event's live games on the claim form")


class CollectionsSettings(Section):
    """``[collections]``: a game collection, as check-games and the checks page read it."""

    max_inflated_bytes: int = option(default=100_000_000, description="bytes once decompressed")
    max_line_bytes: int = option(default=100_000, description="bytes in one line")
    max_games: int = option(default=50_000, description="games in one file (more: check it in parts)")


class SecuritySettings(Section):
    """``[security]``: log-in and sessions."""

    login_window_seconds: float = option(default=3600.0,
                                         description="failures count for this long (no shorter than the "
                                        "longest wait)")
    login_failures_per_name: int = option(default=5, description="then that name waits, from that address only")
    login_failures_per_address: int = option(default=30, description="failures from one address, over all names")
    login_failures_per_name_anywhere: int = option(default=20,
                                                   description="failures for one name from any addresses; then "
                                                  "it waits at every address it never logged in from")
    login_delay_seconds: float = option(default=30.0, description="the first wait; each further failure doubles it")
    login_max_delay_seconds: float = option(default=900.0, description="the longest wait")
    totp_roles: list[str] = option(default_factory=list, description="roles that log in with a one-time code too")
    session_hours: float = option(default=24.0, description="a log-in lasts this long at most")
    proxy_hops: int = option(default=0, description="reverse proxies in front whose X-Forwarded-* headers are trusted")
    secure_cookies: Literal["auto", "always"] = option(default="auto",
                                                       description="auto: Secure when the request is HTTPS")
    hsts_seconds: int = option(default=31_536_000, description="Strict-Transport-Security on HTTPS answers (0: none)")


class LimitsSettings(Section):
    """``[limits]``: requests a minute on the routes that cost the server work (``web/limits.py``); 0: no budget.
    An anonymous client is counted by its address, a user (logged in or by token) by the user."""

    rulings_anonymous: int = option(default=20, ge=0,
                                    description="claims ruled (API, form, committee cases), anonymous")
    rulings_user: int = option(default=120, ge=0, description="claims ruled, per user")
    entry_anonymous: int = option(default=300, ge=0, description="move-entry requests (record, candidates), anonymous")
    entry_user: int = option(default=1200, ge=0, description="move-entry requests, per user")
    broadcast_anonymous: int = option(default=60, ge=0, description="broadcast panel readings, anonymous")
    broadcast_user: int = option(default=240, ge=0, description="broadcast panel readings, per user")
    collections_anonymous: int = option(default=5, ge=0, description="collection checks started, anonymous")
    collections_user: int = option(default=30, ge=0, description="collection checks started, per user")


class QueueSection(Section):
    """``[queue]``: the task queue's workers (only with ``ADJUDICATOR_BROKER_URL`` set)."""

    heartbeat_seconds: float = option(default=1.0, description="a worker writes its jobs' progress and reads cancel "
                                     "requests this often")
    lease_seconds: float = option(default=30.0, description="a running job whose worker is silent this long goes to "
                                 "another worker")
    max_attempts: int = option(default=3, description="a job whose worker died this many times fails")
    visibility_timeout_seconds: float = option(default=3600.0,
                                               description="Redis: an unacknowledged message is delivered "
                                              "again after this long")
    wait_seconds: float = option(default=300.0,
                                 description="the web waits this long for a committee recommendation or an "
                                "appeal's re-run")
    concurrency: int = option(default=1, description="jobs one `adjudicator worker` runs at once")
    requeue_seconds: float = option(default=30.0, description="a job queued this long whose message the broker lost is "
                                   "sent again")
    give_up_seconds: float = option(default=300.0,
                                    description="a lost job that cannot be sent again fails once it waited "
                                   "this long")


class AppealsSection(Section):
    """``[appeals]``: an appeal's re-run, compared with the analysis appealed (docs/outcomes.md)."""

    score_tolerance: float = option(default=50.0, description="a re-run's score may move this far (centipawns, search "
                                   "points) and still be the same", ge=0)


class CheckersSettings(Section):
    """``[checkers]``: the checkers analyst."""

    database: str = option(default="data/checkers-db",
                           description="the endgame database's folder (`adjudicator build-db`)")
    search_nodes: int = option(default=100_000, description="the search's node budget per analysis")
    proof_nodes: int = option(default=200_000, description="the proof search's node budget")


class Settings(Section):
    """The whole configuration file; ``rulesets`` are checked by :class:`adjudicator.rulesets.RulesetBook`."""

    engines: EnginesSettings = option(default_factory=EnginesSettings)
    entry: EntrySettings = option(default_factory=EntrySettings)
    tablebases: TablebasesSettings = option(default_factory=TablebasesSettings)
    database: DatabaseSettings = option(default_factory=DatabaseSettings)
    web: WebSettings = option(default_factory=WebSettings)
    collections: CollectionsSettings = option(default_factory=CollectionsSettings)
    security: SecuritySettings = option(default_factory=SecuritySettings)
    limits: LimitsSettings = option(default_factory=LimitsSettings)
    queue: QueueSection = option(default_factory=QueueSection)
    appeals: AppealsSection = option(default_factory=AppealsSection)
    checkers: CheckersSettings = option(default_factory=CheckersSettings)
    rulesets: dict[str, Any] = option(default_factory=dict)

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> Settings:
        """The typed settings of a decoded configuration; :class:`SettingsError` names the first bad key."""
        try:
            return build(cls, {k: v for k, v in config.items() if not k.startswith("_")})
        except OptionsInvalid as exc:
            error = exc.errors[0]
            loc = tuple(str(part) for part in error.loc)
            raise SettingsError(".".join(loc), _problem(error.kind, loc, error.message)) from None


def _problem(kind: str, loc: tuple[str, ...], message: str) -> str:
    if kind != "extra_forbidden":
        return message[:1].lower() + message[1:]
    model: type[Section] = Settings
    for part in loc[:-1]:
        section = options(model)[part].section
        assert section is not None
        model = section
    close = difflib.get_close_matches(loc[-1], list(options(model)), n=1, cutoff=0.7)
    table = f"[{'.'.join(loc[:-1])}]" if len(loc) > 1 else "the configuration"
    return f"is not an option of {table}" + (f" (did you mean {close[0]}?)" if close else "")


REFERENCE_INTRO = """
## App settings

<!-- Generated from web/settings.py by the same command. -->

The other tables of `config.toml` set up the app, its engines and its queue. They are checked
when the configuration is read (`adjudicator serve`, `adjudicator worker`, every command, the
app factory): an option not listed here, or a value of the wrong type, stops the start with the
error `invalid_config` naming its full key (`web.inline_secnds: is not an option of [web] (did
you mean inline_seconds?)`). An option the file leaves out takes the default below.
"""


def reference() -> str:
    """The ruleset reference, then the app settings' (``adjudicator rulesets reference``: docs/rulesets.md)."""
    sections = [name for name in options(Settings) if name != "rulesets"]
    lines = [REFERENCE_INTRO.rstrip("\n"), *section_tables(Settings, sections, "")]
    return rulebook_reference() + "\n".join(lines) + "\n"
