"""Short structured reasons for a ranked move, for apps to render in any language.

A reason is ``(code, cards, combo, text)`` (:data:`games.reasons.Reason`); the text is in the
language in force (:func:`games.reasons.language`: the request's ``language``, English by
default).  A move's
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
  given);
* ``not_measured``: a hint's move outside the candidates its paired evaluation measured (its
  payoff is the search's, not comparable with theirs).

**The one list of reason codes** is :func:`reason_table`: these codes (:data:`SEARCH_TEXTS`)
and every game's ``TEXTS`` (``games/<game>/reasons.py``), with the games that emit each code and
its English and Vietnamese texts.  The Reason comment of ``proto/quansu/v1/service.proto`` and the
table of docs/api.md ("Reason codes", written by :func:`markdown_table`) are checked against it
(``tests/service/test_i18n.py``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from quansu.games.base import Move, State
from quansu.games.reasons import Reason, say

#: The search's reasons: code -> (English, Vietnamese) (:func:`games.reasons.say`).
SEARCH_TEXTS: dict[str, tuple[str, str]] = {
    "only_move": ("the only legal move", "nước đi duy nhất"),
    "best_value": ("highest expected payoff", "lợi kỳ vọng cao nhất"),
    "tied": ("as good as {top} within the statistical margin", "ngang {top} trong sai số thống kê"),
    "most_visited": ("the move the search examined most", "nước được tìm kiếm xét nhiều nhất"),
    "safest": ("the safest move (highest lower bound)", "nước an toàn nhất (cận dưới cao nhất)"),
    "few_visits": ("too few visits{n} to judge its payoff", "quá ít lượt thử{n} để đánh giá"),
    "not_measured": ("not among the moves the hint measured", "không nằm trong các nước được đo"),
}
#: What ``tied`` names when the top move's text is not known.
_TOP_MOVE = ("the top move", "nước tốt nhất")


@dataclass(frozen=True)
class ReasonCode:
    """One reason code: ``games`` that emit it (empty: the search, every game), its text
    templates in English and Vietnamese."""

    code: str
    games: tuple[str, ...]
    en: str
    vi: str


def reason_table() -> dict[str, ReasonCode]:
    """Every reason code the service can emit, the search's first, then the games' (in the
    registry's order): the one list the proto comment and docs/api.md are checked against."""
    from quansu.games.registry import game_classes

    out: dict[str, ReasonCode] = {
        code: ReasonCode(code, (), en, vi) for code, (en, vi) in SEARCH_TEXTS.items()
    }
    for name, cls in game_classes().items():
        package = cls.__module__.rpartition(".")[0]
        texts = importlib.import_module(f"{package}.reasons").TEXTS
        for code, (en, vi) in texts.items():
            old = out.get(code)
            if old is None:
                out[code] = ReasonCode(code, (name,), en, vi)
            elif old.games:
                if (old.en, old.vi) != (en, vi):
                    raise ValueError(
                        f"reason {code!r} has different texts in {name} and {', '.join(old.games)}"
                    )
                out[code] = ReasonCode(code, old.games + (name,), en, vi)
            else:
                raise ValueError(f"reason {code!r} of {name} is also a search reason")
    return out


def markdown_table() -> str:
    """The reason codes as the Markdown table of docs/api.md."""
    rows = ["| code | games | English text | Vietnamese text |", "|---|---|---|---|"]
    for r in reason_table().values():
        games = ", ".join(r.games) if r.games else "all (the search)"
        rows.append(f"| `{r.code}` | {games} | {r.en} | {r.vi} |")
    return "\n".join(rows)


def search_reasons(
    *,
    rank: int,
    legal_count: int,
    measured: bool = True,
    group: int = 0,
    top_text: str = "",
    most_visited: bool = False,
    safest: bool = False,
    visits: int | None = None,
    hinted: bool = True,
) -> list[Reason]:
    """The search's reasons for the move ranked ``rank`` (0 = top) of ``legal_count`` legal
    moves.  ``measured``: it has enough visits to be ranked by its payoff; ``group``: its
    equal-choice group; ``top_text``: the top move's text (named by ``tied``); ``hinted``
    False: a hint's move its paired evaluation did not measure (``not_measured`` alone)."""
    t = SEARCH_TEXTS
    if legal_count == 1:
        return [say(t, "only_move")]
    if not hinted:
        return [say(t, "not_measured")]
    out: list[Reason] = []
    if not measured:
        out.append(say(t, "few_visits", n="" if visits is None else f" ({visits})"))
    elif rank == 0:
        out.append(say(t, "best_value"))
    elif group == 0:
        out.append(say(t, "tied", top=top_text or _TOP_MOVE))
    if most_visited and rank != 0:
        out.append(say(t, "most_visited"))
    if safest and rank != 0 and measured:
        out.append(say(t, "safest"))
    return out


def move_reasons(
    state: State,
    seat: int,
    move: Move,
    *,
    rank: int,
    legal_count: int,
    safest: bool = False,
    measured: bool = True,
    group: int = 0,
    top_text: str = "",
    most_visited: bool = False,
    visits: int | None = None,
) -> list[Reason]:
    """Reasons for ``move`` of ``seat`` in ``state`` (a state consistent with the seat's view):
    :func:`search_reasons`, then the game's :meth:`~games.base.Game.move_reasons`."""
    out = search_reasons(
        rank=rank,
        legal_count=legal_count,
        measured=measured,
        group=group,
        top_text=top_text,
        most_visited=most_visited,
        safest=safest,
        visits=visits,
    )
    return out + state.game.move_reasons(state, seat, move)


if __name__ == "__main__":
    print(markdown_table())
