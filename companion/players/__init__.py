"""Computer players and advisors: they choose an action for one seat of a game.

What lives here: ``rings`` (the ring-board advisor and computer seats: every legal rotation
set of a roll ranked by an evaluation of the position after it, and easy, medium and hard
choices) and ``cards`` (a computer seat for Lookout's card game: an easy heuristic and a hard
information-set Monte Carlo tree search, with the seat view they decide from and one-line
explanations of their choices).

What must not: any look at hidden information (the ring board has none). A player decides
from a seat's view only (its own hand and cup, the public areas and the counts), never from
the full game state; building that view from a state is the one place a state is read.
Pure standard library: no clocks other than the search budget, no files, no threads;
randomness comes only from the ``random.Random`` the caller passes in.
"""
