"""The committee's vote rule, read like the Master Division's local rules (rules reference 3.5, case P46)."""

from __future__ import annotations

import pytest

from adjudicator.committee import (
    Affiliation,
    CommitteeError,
    CommitteeRules,
    Vote,
    VoteRule,
    conflicts,
    decide,
    is_complete,
)
from adjudicator.rulesets import RulesetBook, RulesetError


@pytest.fixture
def master(book: RulesetBook) -> CommitteeRules:
    return CommitteeRules.for_ruleset(book["acf-master-division"])


def votes(*results: str) -> list[Vote]:
    return [Vote(f"member {i}", r) for i, r in enumerate(results, start=1)]  # type: ignore[arg-type]


def test_master_division_needs_three_members_and_a_unanimous_win(master: CommitteeRules) -> None:
    assert master.vote_rule is VoteRule.UNANIMOUS_FOR_WIN
    assert master.members == 3
    assert master.rule_ref == "ACF Master Division local rules"


def test_p46_unanimous_vote_for_white_gives_the_win(book: RulesetBook) -> None:
    rules = CommitteeRules.for_ruleset(book["acf-master-division"])
    decision = decide(votes("0-1", "0-1", "0-1"), rules)  # checkers: White moves second
    assert decision.result == "0-1"
    assert decision.is_unanimous
    assert decision.rule_refs == ("ACF Master Division local rules",)
    assert any("a win needs a unanimous vote" in r for r in decision.reasons)


def test_two_to_one_for_a_win_is_a_draw_under_the_master_division(master: CommitteeRules) -> None:
    decision = decide(votes("1-0", "1-0", "1/2-1/2"), master)
    assert decision.result == "1/2-1/2"
    assert not decision.is_unanimous
    assert decision.tally == {"1-0": 2, "1/2-1/2": 1, "0-1": 0}
    assert "No win had a unanimous vote, so the game is drawn." in decision.reasons


def test_split_between_both_wins_is_a_draw(master: CommitteeRules) -> None:
    assert decide(votes("1-0", "0-1", "1-0"), master).result == "1/2-1/2"


def test_unanimous_draw_is_a_draw(master: CommitteeRules) -> None:
    decision = decide(votes("1/2-1/2", "1/2-1/2", "1/2-1/2"), master)
    assert decision.result == "1/2-1/2"
    assert decision.is_unanimous


def test_majority_rule_gives_the_win_on_two_to_one(book: RulesetBook) -> None:
    rules = CommitteeRules.for_ruleset(book["acf"])
    assert rules.vote_rule is VoteRule.MAJORITY
    decision = decide(votes("1-0", "1-0", "1/2-1/2"), rules)
    assert decision.result == "1-0"
    assert "A majority (2 of 3) voted for a win for the first player (1-0)." in decision.reasons


def test_majority_rule_without_a_majority_is_a_draw(book: RulesetBook) -> None:
    rules = CommitteeRules.for_ruleset(book["acf"])
    assert decide(votes("1-0", "0-1", "1/2-1/2"), rules).result == "1/2-1/2"


def test_chess_rulesets_without_a_committee_table_use_three_members_by_majority(book: RulesetBook) -> None:
    rules = CommitteeRules.for_ruleset(book["fide-standard"])
    assert (rules.vote_rule, rules.members) == (VoteRule.MAJORITY, 3)
    assert rules.rule_ref.startswith("FIDE ")


def test_a_committee_table_is_checked_naming_the_key(config: dict[str, object]) -> None:
    import copy

    broken = copy.deepcopy(config)
    broken["rulesets"]["acf-master-division"]["committee"]["vote_rule"] = "dice"  # type: ignore[index]
    with pytest.raises(RulesetError) as info:
        RulesetBook.from_config(broken)  # at start-up, not when a committee first sits
    assert info.value.key == "rulesets.acf-master-division.committee.vote_rule"


def test_votes_cannot_be_counted_before_every_member_has_voted(master: CommitteeRules) -> None:
    assert not is_complete(2, master)
    assert is_complete(3, master)
    with pytest.raises(CommitteeError, match="2 votes cast; the committee has 3 members"):
        decide(votes("1-0", "1-0"), master)


def test_a_member_cannot_vote_twice(master: CommitteeRules) -> None:
    with pytest.raises(CommitteeError, match="voted more than once"):
        decide([Vote("ann", "1-0"), Vote("ann", "1-0"), Vote("bob", "1-0")], master)


def test_a_vote_must_be_a_result(master: CommitteeRules) -> None:
    with pytest.raises(CommitteeError, match="voted 'white'"):
        decide([Vote("ann", "white"), Vote("bob", "1-0"), Vote("cy", "1-0")], master)  # type: ignore[arg-type]


def test_a_member_cannot_sit_on_their_own_game_club_or_team() -> None:
    players = [Affiliation("Ann Red", club="Reds CC"), Affiliation("Walt White", team="Texas")]
    assert conflicts(Affiliation("Ann Red"), players)[0].reason == "Ann Red is a player in this game"
    assert "same club (reds cc)" in conflicts(Affiliation("Zed", club="reds cc"), players)[0].reason.lower()
    assert "same team (Texas)" in conflicts(Affiliation("Yan", team="Texas"), players)[0].reason
    assert conflicts(Affiliation("Xi", club="Blues", team="Ohio"), players) == ()
    assert conflicts(Affiliation("Xi"), [Affiliation("Ann")]) == ()  # unknown clubs are no conflict
