"""The options of a chess ruleset (FIDE Laws of Chess 2023, US Chess Official Rules 7th ed.).

One model per ``[rulesets.<id>.<section>]`` table; each field's default and meaning is
written here and nowhere else (the reference ``docs/rulesets.md`` is generated from it).
Fields without a default must be given by the ruleset or one it extends.
"""

from __future__ import annotations

from typing import Literal

from adjudicator.chess.notation import LANGUAGES
from adjudicator.rulebook.common import Ruleset
from adjudicator.rulebook.options import FieldProblem, Section, checks, option

Automatic = Literal["mandatory", "discretionary", "none"]
OwnMoveReport = Literal["arbiter-acts", "reinstate-no-bonus", "not-a-claim"]
"""What a report of an illegal move by the player who made it is (``illegal_move.claim_by_offender``)."""
_AUTOMATIC = "mandatory: the arbiter ends the game (FIDE 9.6); discretionary: the TD may (US Chess 14K); none."


class Record(Section):
    """``record``: how scoresheets are read (FIDE Appendix C.3)."""

    language: str = option(
        default="",
        description="The event's scoresheet letters (en, de, fr, es, it, nl, ru, pt, pl, cs, hu, ro, sv, da, no, "
        "fi, is, et, lt, tr, uk, bg, el); empty: English when English reads every move, else by rule "
        "(docs/reading-records.md). A case's language comes first.",
    )

    @checks("language")
    @classmethod
    def _known(cls, value: str) -> str:
        if value and value not in LANGUAGES:
            raise ValueError(f"must be one of {', '.join(LANGUAGES)} (or empty), not {value!r}")
        return value


class Repetition(Section):
    """``repetition``: threefold claims and the automatic fivefold (FIDE 9.2, 9.6.1; US Chess 14C, 14K)."""

    claim_occurrences: int = option(default=3, description="Occurrences of a position that make a claim correct (9.2).")
    automatic_occurrences: int = option(default=5, description="Occurrences that end the game without a claim (9.6.1).")
    automatic: Automatic = option(default="mandatory", description=_AUTOMATIC)
    automatic_consecutive: bool = option(
        default=False, description="Count only repetitions by consecutive alternate moves (US Chess 14K)."
    )


class MoveRule(Section):
    """``move_rule``: the fifty-move claim and the automatic 75 moves (FIDE 9.3, 9.6.2; US Chess 14F, 14K)."""

    claim_moves: int = option(default=50,
                              description="Moves by each side without a capture or pawn move for a claim (9.3).")
    automatic_moves: int = option(default=75,
                                  description="Moves by each side that end the game without a claim (9.6.2).")
    automatic: Automatic = option(default="mandatory", description=_AUTOMATIC)


class IncorrectClaim(Section):
    """``incorrect_claim``: the penalty for an incorrect draw claim (FIDE 9.5.3, A.3; US Chess 1C2a)."""

    opponent_bonus_seconds: float = option(default=0.0, description="Time added to the claimant's opponent; 0: none.")
    penalty: Literal["automatic", "discretionary"] = option(
        default="automatic",
        description="automatic: the arbiter adds it (FIDE 9.5.3); discretionary: the TD may (US 1C2a)."
    )
    article: str | None = option(
        default=None,
        description="The article cited for the penalty; unset: 9.5.3 (with A.3 in rapid/blitz), US Chess 1C2a."
    )


class IllegalMove(Section):
    """``illegal_move``: a completed illegal move (FIDE 7.5, A.3, A.5.2; US Chess 11A, 11B, 11D)."""

    opponent_bonus_seconds: float = option(default=0.0, description="Time added to the offender's opponent (7.5.5).")
    loss_on_count: int = option(default=0,
                                description="The n-th completed illegal move loses (7.5.5: 2); 0: never automatic.")
    correction_window: Literal["game", "last-moves", "before-reply"] = option(
        default="game",
        description="When a completed illegal move can still be corrected: game (any time, 7.5.1); last-moves "
        "(within correction_window_moves, US 11A); before-reply (before the opponent's next move, A.5.2).",
    )
    correction_window_moves: int = option(default=10,
                                          description="The last-moves window, in moves by each player (US 11A).")
    bonus_only_if_prompt: bool = option(
        default=False, description="The bonus only when claimed before the claimant's own next move (US 11D)."
    )
    remove_increment: bool = option(
        default=False, description="Take back the increment the illegal move earned (Arbiters' Manual on 7.5)."
    )
    claim_by_offender: OwnMoveReport = option(
        default="arbiter-acts",
        description="The player who made the illegal move reports it himself (White says White's own move was "
        "illegal): arbiter-acts (it is found during the game, so the arbiter corrects and penalises it as any "
        "other, 7.5.1, 7.5.5); reinstate-no-bonus (reinstated, 11A 'it is found', but the opponent's time bonus "
        "needs the opponent's claim, 11D) [verify]; not-a-claim (only the opponent may claim, A.5.2: nothing is "
        "corrected or awarded unless the arbiter saw it himself, case field arbiter_observed).",
    )


class FlagRefs(Section):
    """``flag.refs``: the articles flag rulings cite (unset: the ruleset's own article, shown per key)."""

    flag: str | None = option(default=None, description="A flag fall decides the game; unset: `<authority> 6.9`.")
    moves: str | None = option(default=None, description="The period's moves were completed; unset: `<authority> 6.4`.")
    both_flags: str | None = option(
        default=None, description="Both flags down; unset: `<authority> Guidelines III.3.1`."
    )
    over: str | None = option(default=None, description="The game was already over before the flag fell (FIDE 6.8); "
                             "unset: only the ending's own article.")
    claimant_flag: str | None = option(
        default=None, description="The claimant's own flag must be up (local rules); unset: not cited."
    )


class Flag(Section):
    """``flag``: flag claims (FIDE 6.9, A.5.3, Guidelines III.3; US Chess 13C1, 14E, 14G2)."""

    no_win_test: Literal["helpmate", "uschess-14e", "material"] = option(
        description="The test that the opponent cannot win, making a flag fall a draw: helpmate (FIDE 6.9: no "
        "series of legal moves mates), uschess-14e (no forced win, US 14E), material."
    )
    both_flags: Literal["last-period-draw", "draw", "td-may-draw"] = option(
        description="Both flags down: last-period-draw (Guidelines III.3.1), draw, td-may-draw (US 14G2)."
    )
    called_by: Literal["arbiter", "players"] = option(
        description="Who may call a flag: the arbiter (FIDE 6.8) or only the players (US 13C1)."
    )
    claimant_flag_must_be_up: bool = option(
        description="A win on time needs the claimant's own flag up (US 13C1, Sabah local rules)."
    )
    dead_position: Literal["helpmate", "material", "material-then-td"] = option(
        default="helpmate",
        description="The dead position that ends the game for every claim (FIDE 5.2.2, US 14D): helpmate (any "
        "position where no series of legal moves mates, by the helpmate analysis; US 14D's last item); "
        "material (only the listed material endings: K v K, K+minor v K, bishops on one colour); "
        "material-then-td (the listed endings end the game, a position dead only by analysis lets the TD "
        "declare the draw).",
    )
    armageddon: bool = option(default=False, description="A draw counts as a win for armageddon_draw_winner.")
    armageddon_draw_winner: Literal["white", "black"] = option(
        default="black", description="Who wins an armageddon game that is drawn."
    )
    scoresheet_before_final: bool = option(
        default=False, description="Before the final control a flag claim needs an accurate scoresheet (US 13C1)."
    )
    refs: FlagRefs = option(default_factory=FlagRefs, description="The articles flag rulings cite.")


class DrawOffer(Section):
    """``draw_offer``: the event's draw-offer rule (FIDE 9.1.1)."""

    no_offer_before_move: int = option(
        default=0, description="No draw by agreement before this move (9.1.1); 0: no such rule. A claim is not barred."
    )


class Watch(Section):
    """``watch``: what the arbiter's watch of a live round tells the arbiter to do (docs/watch.md)."""

    flag_call: Literal["by-supervision", "never"] = option(
        default="by-supervision",
        description="A clock at 0:00:00 in the live record: by-supervision (the arbiter calls it where "
        "flag.called_by is arbiter and the game is supervised: FIDE 6.8, A.4, B.2; otherwise do-not-call, "
        "A.5.3, US 13C1); never (the event forbids the arbiter to point out a flag fall: Sabah v.5, CalChess).",
    )
    illegal_move_call: Literal["check-board", "before-reply", "never"] = option(
        default="check-board",
        description="An illegal move in the live record: check-board (the arbiter acts, after looking at the "
        "board: FIDE 7.5.1); before-reply (only until the opponent has replied, A.5.2 [verify]; after that "
        "do-not-call); never (only the players may call it: US 11A, Sabah v.5, CalChess).",
    )
    flag_ref: str | None = option(default=None, description="The article a flag-down alert cites; unset: from the "
                                 "flag rules (`<authority> 6.8` when the arbiter calls, else flag.refs.flag).")
    illegal_move_ref: str | None = option(default=None, description="The article an illegal-move alert cites; unset: "
                                         "`<authority> 7.5.1`, A.5.2 (before-reply) or 11A (US Chess).")


IlcMode = Literal["none", "guidelines-iii", "variation-14h", "clear-draw-appeal"]
NEEDED_BY_MODE = "needed_by_mode"
"""Marks an ``ilc`` option that must be given when ``mode`` is the mode it names (``option(needed_by_mode=)``)."""


class Ilc(Section):
    """``ilc``: claims that the opponent cannot win by normal means (FIDE Guidelines III; US Chess 14H)."""

    mode: IlcMode = option(
        description="none (no such claim; US baseline 14H); guidelines-iii (FIDE III.4, III.5); variation-14h "
        "(US Variation 14H); clear-draw-appeal (a local appeal, Sabah)."
    )
    below_seconds: int | None = option(
        default=None, description="guidelines-iii: the claimant must have less than this (III.4).",
        needed_by_mode="guidelines-iii",
    )
    increment_seconds: int | None = option(
        default=None, description="guidelines-iii: the increment both players get (III.4).",
        needed_by_mode="guidelines-iii",
    )
    opponent_bonus_seconds: int | None = option(
        default=None,
        description="guidelines-iii: time added to the opponent (III.4 granted, III.5.2, III.5.3 rejected).",
        needed_by_mode="guidelines-iii",
    )
    postpone_bonus: Literal["arbiter", "always", "never"] = option(
        default="arbiter",
        description="guidelines-iii, a postponed claim (III.5.2 'may'): arbiter (the case's opponent_bonus "
        "decides), always, never.",
    )
    at_most_seconds: int | None = option(
        default=None, description="variation-14h: the claimant on move has at most this (14H1).",
        needed_by_mode="variation-14h",
    )
    delay_seconds: int | None = option(
        default=None, description="variation-14h: the event's standard delay for the delay clock (14H2a).",
        needed_by_mode="variation-14h",
    )
    clearly_incorrect_deduction_seconds: int = option(
        default=0, description="variation-14h: time taken from a claimant whose claim is clearly incorrect (14H2d)."
    )
    delay_clock_available: bool = option(
        default=True, description="variation-14h: whether a delay clock is at hand when the case does not say."
    )
    claimant_penalty_seconds: int | None = option(
        default=None, description="clear-draw-appeal: time taken from a claimant whose appeal fails.",
        needed_by_mode="clear-draw-appeal",
    )
    claimant_floor_seconds: int | None = option(
        default=None, description="clear-draw-appeal: the penalty never leaves less than this.",
        needed_by_mode="clear-draw-appeal",
    )
    floor_reading: Literal["never-below", "only-if-left"] = option(
        default="never-below",
        description="clear-draw-appeal: never-below (deduct down to the floor) or only-if-left (no deduction "
        "unless the floor would remain).",
    )
    ref: str = option(default="local rules (clear-draw appeal)", description="clear-draw-appeal: the article cited.")


class Adjudication(Section):
    """``adjudication``: unfinished games (README 5.6, 6); evidence for the committee unless the event says."""

    mode: Literal["recommend", "engine-event", "tablebase-claim"] = option(
        default="recommend",
        description="recommend (rules, tablebases, engine: a recommendation); engine-event (cutechess-cli / TCEC "
        "rules on the engines' scores); tablebase-claim (ICCF tablebase claims).",
    )
    basis: str = option(
        default="event regulations (adjudication of unfinished games)", description="recommend: the basis cited."
    )
    win_score_cp: int = option(default=200, description="Engine score (White's view) at or beyond which a side wins.")
    draw_score_cp: int = option(
        default=150,
        description="recommend: a score within this of zero is a draw (0 <= draw_score_cp < win_score_cp); "
        "engine-event: the -draw score both engines must stay within.",
    )
    nodes: int = option(default=100_000, description="Nodes of the first engine search (0 < nodes <= max_nodes).")
    max_nodes: int = option(default=1_000_000,
                            description="Scores between the bands are searched again at 10x, up to this.")
    escalate_below_cp: int = option(
        default=250, description="Searched again when |score| is above draw_score_cp and below this."
    )
    tablebase_pieces: int = option(default=7, description="Tablebases decide positions with at most this many pieces.")
    tablebase_50_move_rule: bool = option(
        default=True, description="Cursed wins and blessed losses are draws (false: cutechess -tbignore50)."
    )
    engine_confidence_cap: float = option(default=0.95, description="An engine judgement is never reported as proven.")
    ilc_clear_score_cp: int = option(
        default=50,
        description="Insufficient losing chances: the claimant's score at or above minus this is 'clear' ..."
    )
    ilc_clear_max_pieces: int = option(default=12, description="... with at most this many pieces on the board.")
    event_rules: str = option(default="cutechess-cli(6)", description="engine-event: the rules cited.")
    resign_movecount: int = option(default=0,
                                   description="engine-event: -resign movecount (0: no resign adjudication).")
    resign_score_cp: int = option(default=0, description="engine-event: -resign score.")
    resign_twosided: bool = option(default=False, description="engine-event: -resign twosided.")
    draw_movenumber: int = option(default=0, description="engine-event: -draw movenumber.")
    draw_movecount: int = option(default=0, description="engine-event: -draw movecount (0: no draw adjudication).")
    max_moves: int = option(default=0, description="engine-event: -maxmoves (0: off).")
    claim_ref: str = option(
        default="ICCF tablebase claim (2019 Congress, 7 pieces)", description="tablebase-claim: the rule cited."
    )

    def verify(self) -> None:
        if not 0 <= self.draw_score_cp < self.win_score_cp:
            raise FieldProblem("draw_score_cp", "must be at least 0 and below win_score_cp")
        if not 0 < self.nodes <= self.max_nodes:
            raise FieldProblem("nodes", "must be positive and at most max_nodes")


class ChessRuleset(Ruleset):
    """A chess ruleset: the FIDE Laws, the US Chess rules, or an event's regulations built on them."""

    game: Literal["chess"] = option(description="chess.")
    period: Literal["standard", "rapid", "blitz"] = option(
        default="standard",
        description="The kind of game; rapid and blitz halve the penalties of Articles 7 and 9 (A.3)."
    )
    supervised: bool = option(
        default=True,
        description="Full Competition Rules apply (standard play; rapid and blitz under A.4, B.2). The "
        "arbiter's watch reads it (an arbiter calls a flag only in a supervised game); no ruling reads it yet.",
    )
    record: Record = option(default_factory=Record, description="Reading the scoresheets.")
    repetition: Repetition = option(default_factory=Repetition, description="Repetition of position.")
    move_rule: MoveRule = option(default_factory=MoveRule, description="The fifty- and seventy-five-move rules.")
    incorrect_claim: IncorrectClaim = option(default_factory=IncorrectClaim, description="Incorrect draw claims.")
    illegal_move: IllegalMove = option(default_factory=IllegalMove, description="Illegal moves.")
    flag: Flag = option(description="Flag claims.")
    draw_offer: DrawOffer = option(default_factory=DrawOffer, description="Draw offers.")
    ilc: Ilc = option(description="Insufficient losing chances and quickplay finishes.")
    adjudication: Adjudication = option(default_factory=Adjudication, description="Unfinished games.")
    watch: Watch = option(default_factory=Watch, description="The arbiter's watch of a live round.")
