"""One whole three-seat Icehouse game on the block path, worked out by hand.

The block path (``tests/games/icehouse_helpers.block_path``): red-1 at 0-4, red-2 at 5-9,
red-3 at 10-14, yellow-1 at 15-19, yellow-2 at 20-24, ..., black-3 at 70-74.
Seats Ann, Bo, Cy in that order; pawns start at -1.

Pick by pick (seat, place, pawns of Ann, Bo, Cy after, then):

1. Ann 1 (1, -1, -1); nothing falls while a pawn is at -1.
2. Bo 2 (1, 2, -1).
3. Cy 5 (1, 2, 5); rearmost 1: the red-1 at 0 falls into the Eye.
4. Ann 3 (3, 2, 5).
5. Bo 4 (3, 4, 5); red-1 done (0 in the Eye, Ann 1 and 3, Bo 2 and 4): 2-2, Bo's pawn (4)
   is ahead of Ann's (3): **Bo 3, Ann 2**.
6. Cy 6 (3, 4, 6). 7. Ann 7 (7, 4, 6). 8. Bo 8 (7, 8, 6).
9. Cy 9 (7, 8, 9); red-2 done (Cy 5, 6, 9; Ann 7; Bo 8): Cy 3; second tied 1-1, Bo's pawn
   (8) ahead of Ann's (7): **Cy 3, Bo 2**.
10. Ann 15 (15, 8, 9). 11. Bo 16 (15, 16, 9).
12. Cy 20 (15, 16, 20); rearmost 15: red-3 at 10-14 all fall: **red-3 lost to the Eye**.
13. Ann 74 (74, 16, 20); Ann has nothing ahead: she has reached the end.
14. Bo 73 (74, 73, 20); Bo has reached the end; rearmost 20: the yellow-1 at 17-19 fall;
    yellow-1 done (Ann 15, Bo 16): 1-1, Ann's pawn (74) ahead: **Ann 3, Bo 2**. Only Cy has
    pieces ahead: Cy takes 21-72 (52 pieces): yellow-2 (20-24) **Cy 5**; yellow-3, green-1..3,
    blue-1..3, black-1, black-2 Cy 5 each (45); black-3: Cy 70-72, Bo 73, Ann 74: Cy 3, second
    tied 1-1, Ann's pawn ahead: **Cy 3, Ann 2**.

Totals: Ann 2 + 3 + 2 = 7; Bo 3 + 2 + 2 = 7; Cy 3 + 5 + 45 + 3 = 56 (70 = 5 x 14 kinds: red-3
was lost). Winner Cy; the ranking's tie 7-7 goes to Ann (pawn 74 ahead of Bo's 73).
"""

from __future__ import annotations

SEATS = ["Ann", "Bo", "Cy"]
PICKS = [1, 2, 5, 3, 4, 6, 7, 8, 9, 15, 16, 20, 74, 73]
MOVERS = ["Ann", "Bo", "Cy"] * 4 + ["Ann", "Bo"]
FINAL_SCORES = {"Ann": 7, "Bo": 7, "Cy": 56}
RANKING = ["Cy", "Ann", "Bo"]
RED_1 = {"kind": "red-1", "awards": {"Bo": 3, "Ann": 2}}
RED_2 = {"kind": "red-2", "awards": {"Cy": 3, "Bo": 2}}
RED_3 = {"kind": "red-3", "awards": {}}
YELLOW_1 = {"kind": "yellow-1", "awards": {"Ann": 3, "Bo": 2}}
BLACK_3 = {"kind": "black-3", "awards": {"Cy": 3, "Ann": 2}}
SCORED_IN_ORDER = [
    "red-1",
    "red-2",
    "red-3",
    "yellow-1",
    # the collection completes these together, colour by colour, size by size
    "yellow-2",
    "yellow-3",
    "green-1",
    "green-2",
    "green-3",
    "blue-1",
    "blue-2",
    "blue-3",
    "black-1",
    "black-2",
    "black-3",
]
