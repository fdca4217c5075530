"""Which board a broadcast game is on (shared/notes/watch.md: the board is often only in [Round "r.b"])."""

from adjudicator.live.boards import GameKey, board_of, board_sort_key, game_key, last_clocks, round_of


def test_the_board_tag_is_read_first() -> None:
    assert board_of([("Round", "3.12"), ("Board", "7")]) == 7


def test_without_a_board_tag_the_board_is_the_b_of_round_r_b() -> None:
    assert board_of([("Round", "1.11")]) == 11
    assert round_of([("Round", "1.11")]) == 1


def test_a_round_without_a_board_part_gives_no_board() -> None:
    assert board_of([("Round", "4")]) is None
    assert board_of([("Round", "?"), ("Board", "?")]) is None


def test_boards_sort_as_numbers_not_as_text() -> None:
    boards = [board_of([("Round", f"1.{b}")]) for b in (10, 2, 11, 1, 3)]
    assert sorted(boards, key=board_sort_key) == [1, 2, 3, 10, 11]
    assert sorted([None, 5, 1], key=board_sort_key) == [1, 5, None]


def test_a_game_is_known_by_its_game_id_else_round_and_players() -> None:
    moved = game_key([("Round", "2.3"), ("White", "Ann"), ("Black", "Bob")])
    again = game_key([("Round", "2.7"), ("White", "Ann"), ("Black", "Bob")])
    assert moved == again == GameKey(None, 2, ("Ann", "Bob"))
    assert game_key([("GameId", "x1"), ("White", "?")]).is_known
    assert not game_key([("White", "?"), ("Black", "-")]).is_known


def test_the_last_clock_of_each_side_comes_from_its_own_moves() -> None:
    clocks = last_clocks([5400.0, 5390.0, 5300.0, None])
    assert (clocks.first, clocks.second) == (5300.0, 5390.0)
    started_by_second = last_clocks([60.0, 50.0, 40.0], first_mover_moved_first=False)
    assert (started_by_second.first, started_by_second.second) == (50.0, 40.0)
    assert last_clocks([]).first is None
