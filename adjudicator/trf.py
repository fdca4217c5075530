"""The FIDE Tournament Report File (TRF-16), as Swiss-Manager, SwissSys and vega write it:
the players (line ``001``) and each round's pairings, read from the players' round columns.

Line ``001``, by column (1-based, FIDE TRF-16): 5-8 starting rank, 15-47 name, 49-52 rating,
81-84 points, then from column 92 one 10-column block per round: 92-95 the opponent's
starting rank (``0000`` or blank: no opponent), 97 the colour (``w``/``b``/``-``), 99 the
result. A game shows in both players' lines; it is read once, from White's.

TRF-16 keeps no board numbers. Boards are numbered as pairing programs list them (FIDE
C.04.2 pairing cards): by the higher score of the two players before the round, then by the
better starting rank of the two; a game with no opponent (a bye) has no board. The TD's own
entry on the claim form always wins over what the file fills in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

POINTS = {"1": 1.0, "+": 1.0, "w": 1.0, "=": 0.5, "d": 0.5, "h": 0.5, "0": 0.0, "-": 0.0, "l": 0.0,
          "f": 1.0, "u": 1.0, "z": 0.0}
"""What a TRF result code scores (forfeits, byes and half-point byes included)."""


class TrfError(ValueError):
    """A TRF file that cannot be read (names the line)."""


@dataclass(frozen=True)
class Player:
    rank: int
    name: str
    rating: int | None


@dataclass(frozen=True)
class Pairing:
    round: int
    board: int
    white: Player
    black: Player


@dataclass
class Tournament:
    name: str | None = None
    players: dict[int, Player] = field(default_factory=dict)
    pairings: list[Pairing] = field(default_factory=list)

    def game(self, round_number: int, board: int) -> Pairing | None:
        """The game on ``board`` in round ``round_number``, if the file has it."""
        return next((p for p in self.pairings if p.round == round_number and p.board == board), None)


def _rounds(line: str) -> list[tuple[int | None, str, str]]:
    blocks = []
    for start in range(91, len(line), 10):
        block = line[start : start + 10].ljust(10)
        opponent = block[0:4].strip()
        blocks.append((int(opponent) if opponent.isdigit() and int(opponent) else None, block[5:6].lower(),
                       block[7:8].lower()))
    return blocks


def parse_trf(text: str) -> Tournament:
    """The players and the pairings of every round in a TRF-16 file.

    :raises TrfError: no player line, or a player line whose starting rank is not a number.
    """
    tournament = Tournament()
    rounds: dict[int, list[tuple[int | None, str, str]]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        if line.startswith("012 "):
            tournament.name = line[4:].strip() or None
        if not line.startswith("001 "):
            continue
        rank_text = line[4:8].strip()
        if not rank_text.isdigit():
            raise TrfError(f"line {number}: the starting rank (columns 5-8) is not a number: {rank_text!r}")
        rank = int(rank_text)
        rating_text = line[48:52].strip()
        rating = int(rating_text) if rating_text.isdigit() else None
        tournament.players[rank] = Player(rank, line[14:47].strip(), rating)
        rounds[rank] = _rounds(line)
    if not tournament.players:
        raise TrfError("no player lines (001) in the file: is it a FIDE TRF file?")
    count = max((len(r) for r in rounds.values()), default=0)
    scores = dict.fromkeys(rounds, 0.0)
    for index in range(count):
        games: list[tuple[float, int, Player, Player]] = []
        for rank, blocks in rounds.items():
            if index >= len(blocks):
                continue
            opponent, colour, _result = blocks[index]
            if opponent is not None and colour == "w" and opponent in tournament.players:
                white, black = tournament.players[rank], tournament.players[opponent]
                games.append((-max(scores[rank], scores.get(opponent, 0.0)), min(rank, opponent), white, black))
        games.sort(key=lambda g: (g[0], g[1]))
        tournament.pairings.extend(Pairing(index + 1, board, white, black)
                                   for board, (_s, _r, white, black) in enumerate(games, 1))
        for rank, blocks in rounds.items():
            if index < len(blocks):
                scores[rank] += POINTS.get(blocks[index][2], 0.0)
    return tournament
