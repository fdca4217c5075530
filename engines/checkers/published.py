"""Positions published in the checkers literature, with the result their source gives (issue 14).

Each is (name, PDN FEN, the result for the side to move as the source states it, source).
Most come from Ben Boland's *Famous Positions in the Game of Checkers* as republished, with
the FEN, in Bob Newell's *The Checker Maven* (the address of each article is given).
"B" in a FEN is the side that moves first (Black in books, Red here).
The expected result is the source's stipulation ("White to Play and Win": a win for the
side to move; "Either to Play, White Wins" with Black to move: a loss), not a computation.
"""

from __future__ import annotations

from typing import Final

MAVEN: Final = "http://www.bobnewell.net/nucleus/checkers.php?"

PUBLISHED: Final[tuple[tuple[str, str, str, str], ...]] = (
    ("E. McMillan (Boland, Famous Positions)", "W:W29,14,K2:B8,5,1", "win", MAVEN + "itemid=346&catid=6&blogid=4"),
    ("W. Strickland, Negative Second Position (Boland)", "B:WK28,13,12:BK15,5,3", "win",
     MAVEN + "&itemid=514&catid=14&blogid=4"),
    ("M. H. C. Wardell's draw (Boland)", "B:W28,24,21,20,K2:BK27,19,15,11,7", "draw",
     MAVEN + "itemid=567&catid=14&blogid=4"),
    ("W. Grey's draw (Boland)", "B:W20,16,K2:BK25,K10", "draw", MAVEN + "itemid=567&catid=14&blogid=4"),
    ("J. T. Hennigan's draw (Boland)", "B:W30,29,K24:B27,23,22", "draw", MAVEN + "itemid=567&catid=14&blogid=4"),
    ("S. Gonotsky, over-the-board study", "W:W11,13,21,26,32:B1,3,15,18,24", "draw",
     "http://www.bobnewell.net/nucleus/archive-4-2017-03.html"),
    ("Three kings against two, White to play", "W:WK22,K23,K24:BK31,K32", "win", MAVEN + "page=2"),
    ("Three kings against two, Black to play (either to play, White wins)", "B:WK22,K23,K24:BK31,K32", "loss",
     MAVEN + "page=2"),
    ("N. W. Banks vs. A. Jordan, 1911 (Boland)", "W:WK30,22,16,K2:B21,14,13,K10", "win",
     MAVEN + "itemid=722&catid=14"),
    ("Five kings against four", "W:WK6,K10,K12,K15,K20:BK26,K27,K31,K32", "win",
     "http://www.bobnewell.net/nucleus/?page=13"),
    ("C. Hefter, 'So What' (leads to Payne's double-corner draw)", "B:W28,21,K16:BK30,24,19,K15", "draw",
     MAVEN + "itemid=258&catid=6&blogid=4"),
    ("C. Hefter, 'Big Deal'", "W:W21,28,K32:BK19,K25", "win", MAVEN + "itemid=258&catid=6&blogid=4"),
    ("W. Ryan, four men each", "W:W32,27,20,18:B12,11,10,9", "draw", MAVEN + "itemid=856&catid=6&blogid=4"),
    ("New Year 2015 problem", "B:W28,K9,K8:BK30,16,14,10", "win", MAVEN + "itemid=913&catid=6"),
    ("Triple problem, man on 1", "B:W26,23,K4:B24,K20,1", "win", MAVEN + "itemid=533&catid=6&blogid=4"),
    ("Triple problem, man on 2 (published over 100 years ago)", "B:W26,23,K4:B24,K20,2", "win",
     MAVEN + "itemid=533&catid=6&blogid=4"),
    ("Triple problem, man on 3", "B:W26,23,K4:B24,K20,3", "win", MAVEN + "itemid=533&catid=6&blogid=4"),
    ("B. Boland, Thanksgiving 2011", "W:W20,19,14,13:B25,12,11,5", "draw", MAVEN + "archive=2011-11&blogid=4"),
    ("J. Sturges, Black to play and win (Boland)", "B:W29,17,13,K7:B21,K19,15,10,6,5", "win",
     MAVEN + "&itemid=1014&catid=14&blogid=4"),
    ("J. Sturges, White to play and win (Boland)", "W:WK19,K22,30:B12,21,K27", "win",
     MAVEN + "&itemid=413&catid=6&blogid=4"),
    ("W. Salot contest 65, 'the hard way'", "W:W18,K19,22,31:B10,12,13,K28", "win", MAVEN + "page=17"),
)
