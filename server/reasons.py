"""Short structured reasons for a ranked move, for apps to render in any language.

A reason is ``(code, cards, combo, English text)`` (:data:`games.reasons.Reason`).  A move's
reasons are the search's reasons first, then the game's own explanation of the move
(:meth:`games.base.Game.move_reasons`, which lives with each game in
``games/<game>/reasons.py`` and reads only what the moving seat can see).

The search's codes follow the one ranking rule of Suggest and Analyze (``docs/api.md``,
"Ranking"):

* ``only_move``: the only legal move;
* ``best_value``: the highest expected payoff among the moves measured well enough (rank 0 of
  the ranking, and only that move);
* ``tied``: statistically tied with the top move (same equal-choice group, ``group`` 0);
* ``most_visited``: the move the search spent most iterations on (the move a bot plays at
  temperature 0) when that is not the top move;
* ``safest``: the highest lower confidence bound, when that is not the top move;
* ``few_visits``: too few visits for its payoff to count in the ranking (no lower bound is
  given).
"""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.games.reasons import Reason


def search_reasons(*, rank: int, legal_count: int, measured: bool = True, group: int = 0,
                   top_text: str = "", most_visited: bool = False, safest: bool = False,
                   visits: int | None = None) -> list[Reason]:
    """The search's reasons for the move ranked ``rank`` (0 = top) of ``legal_count`` legal
    moves.  ``measured``: it has enough visits to be ranked by its payoff; ``group``: its
    equal-choice group; ``top_text``: the top move's text (named by ``tied``)."""
    if legal_count == 1:
        return [("only_move", (), "", "the only legal move")]
    out: list[Reason] = []
    if not measured:
        n = "" if visits is None else f" ({visits})"
        out.append(("few_visits", (), "", f"too few visits{n} to judge its payoff"))
    elif rank == 0:
        out.append(("best_value", (), "", "highest expected payoff"))
    elif group == 0:
        out.append(("tied", (), "", f"as good as {top_text} within the statistical margin"
                    if top_text else "as good as the top move within the statistical margin"))
    if most_visited and rank != 0:
        out.append(("most_visited", (), "", "the move the search examined most"))
    if safest and rank != 0 and measured:
        out.append(("safest", (), "", "the safest move (highest lower bound)"))
    return out


def move_reasons(state: State, seat: int, move: Move, *, rank: int, legal_count: int,
                 safest: bool = False, measured: bool = True, group: int = 0,
                 top_text: str = "", most_visited: bool = False,
                 visits: int | None = None) -> list[Reason]:
    """Reasons for ``move`` of ``seat`` in ``state`` (a state consistent with the seat's view):
    :func:`search_reasons`, then the game's :meth:`~games.base.Game.move_reasons`."""
    out = search_reasons(rank=rank, legal_count=legal_count, measured=measured, group=group,
                         top_text=top_text, most_visited=most_visited, safest=safest,
                         visits=visits)
    return out + state.game.move_reasons(state, seat, move)
