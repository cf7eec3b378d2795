"""What a game's own explanation of a move looks like (the game side of a hint's reasons).

Each game explains its moves in ``games/<game>/reasons.py``, exposed as
:meth:`games.base.Game.move_reasons`: a list of :data:`Reason` tuples ``(code, cards, combo,
English text)`` computed from what the moving seat can see (its own hand in a state consistent
with its view, the move's :class:`games.base.MoveInfo`, public facts such as Tấn's face-up
trump), never from another seat's hidden cards.  The service adds the search's own reasons
(``best_value``, ``tied``, ...: ``server/reasons.py``) in front of them.  Codes are stable
identifiers an app can translate.

Texts come in English and Vietnamese: every module that emits reasons has a table ``TEXTS``,
code -> ``(English, Vietnamese)`` templates in the players' own words (heo, tứ quý, đôi thông,
chặt, phỏm, ăn, gửi, ù, chủ, ôm, báo sâm), and builds each reason with :func:`say`, which
renders the text in the language in force (:func:`language`, English by default), with the
cards written as players write them (``10♥``, :func:`cards_text`).  The codes and the cards do
not change with the language.  ``server/reasons.py`` gathers every table into the one list of
reason codes (:func:`server.reasons.reason_table`).
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import Iterable, Iterator

from quansu.games.cards import rank_of

#: rank index of the 2 in the card ids (the top rank of the shedding games, Tiến lên and Sâm)
TWO = 12

#: ``(code, cards, combo, text)``: ``cards`` are card ids (the cards the reason is about).
Reason = tuple[str, tuple[int, ...], str, str]

#: The languages of every text: English (the default) and Vietnamese.
LANGUAGES = ("en", "vi")

_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar(
    "quansu_reason_language", default="en"
)


def current_language() -> str:
    """The language reasons are written in now ("en" or "vi")."""
    return _LANGUAGE.get()


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Within the block, :func:`say` writes in ``lang`` ("en", "vi"; "" or None: English).
    Per thread (a context variable), so concurrent requests do not mix."""
    lang = lang or "en"
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    token = _LANGUAGE.set(lang)
    try:
        yield lang
    finally:
        _LANGUAGE.reset(token)


def say(
    texts: dict[str, tuple[str, str]],
    code: str,
    cards: Iterable[int] = (),
    combo: str = "",
    /,
    **params,
) -> Reason:
    """The reason ``code`` with its text from ``texts`` (code -> (English, Vietnamese)) in the
    language in force; ``params`` fill the templates (a ``(en, vi)`` tuple is a word that differs
    by language; cards are written with :func:`cards_text` in both)."""
    vi = _LANGUAGE.get() == "vi"
    template = texts[code][1 if vi else 0]
    words = {k: (v[1 if vi else 0] if isinstance(v, tuple) else v) for k, v in params.items()}
    return (code, tuple(cards), combo, template.format(**words))


#: The shedding games' reasons (Tiến lên, Sâm lốc): code -> (English, Vietnamese).
SHEDDING_TEXTS: dict[str, tuple[str, str]] = {
    "finishes": ("plays the last cards", "đánh hết bài (về)"),
    "plays_bomb": ("plays the bomb {cards}", "đánh {bomb} {cards}"),
    "breaks_bomb": (
        "at the cost of breaking up the {bomb} {cards}",
        "chấp nhận phá {bomb} {cards}",
    ),
    "keeps_bomb": ("keeps the bomb {cards}", "giữ {bomb} {cards} để chặt"),
    "plays_two": ("spends a 2", "đánh heo {cards}"),
    "holds_twos": ("keeps {cards} for later", "giữ heo {cards} lại"),
    "sheds_lowest": ("gets rid of the lowest card", "xả lá nhỏ nhất"),
}

#: Small numbers in words (the pairs of a đôi thông): English, Vietnamese.
_NUMBERS = {3: ("three", "ba"), 4: ("four", "bốn"), 5: ("five", "năm"), 6: ("six", "sáu")}


def bomb_name(cards: Iterable[int]) -> tuple[str, str]:
    """What players call a bomb: a four of a kind (tứ quý) or n consecutive pairs (n đôi
    thông)."""
    cards = list(cards)
    if len({rank_of(c) for c in cards}) == 1:
        return ("four of a kind", "tứ quý")
    n = len(cards) // 2
    en, vi = _NUMBERS.get(n, (str(n), str(n)))
    return (f"{en} consecutive pairs", f"{vi} đôi thông")


def cards_text(cards: Iterable[int]) -> str:
    """Cards as players write them in a reason's text (``3♠ 10♥``: :func:`games.labels.card_label`),
    space separated; the reason's ``cards`` stay card ids, sent in the notation."""
    from quansu.games.labels import cards_label

    return cards_label(cards)


def hand_of(state, seat: int) -> list[int]:
    """``seat``'s cards in ``state`` (ascending ids)."""
    from quansu.games.cards import cards_of

    return cards_of(state.zones().get(f"hand{seat}", 0))


def by_rank(hand: Iterable[int]) -> dict[int, list[int]]:
    """rank index -> the hand's cards of that rank (ascending ids)."""
    out: dict[int, list[int]] = {}
    for c in sorted(hand):
        out.setdefault(rank_of(c), []).append(c)
    return out


def bomb_shape(bomb: Iterable[int]) -> tuple[int, tuple[int, ...]]:
    """A bomb as the hand holds it whatever its suits: its size and its ranks."""
    bomb = tuple(bomb)
    return (len(bomb), tuple(sorted({rank_of(c) for c in bomb})))


def shedding_reasons(info, hand: list[int], bombs) -> list[Reason]:
    """The reasons of a play or a pass in a shedding game (Tiến lên, Sâm): ``info`` is the
    move's :class:`games.base.MoveInfo`, ``bombs(cards)`` the game's bombs in a set of cards.

    A play breaks a bomb only when the hand left after it holds that bomb no more (a straight
    that takes the third 4 of a hand with three 4s keeps its consecutive pairs), and it keeps the
    bombs that hand still holds.  Breaking a bomb is written as the cost it is
    (``breaks_bomb``: "at the cost of breaking up ...", "chấp nhận phá ..."), never as a
    warning: on the move a hint recommends, the cost has been weighed and accepted."""
    out: list[Reason] = []
    t = SHEDDING_TEXTS
    cards = set(info.cards)
    found = bombs(hand)
    after = bombs([c for c in hand if c not in cards]) if cards else found
    left = {bomb_shape(b) for b in after}
    quad = info.combo in ("four_of_a_kind", "quad")  # Tiến lên's name, Sâm lốc's
    if info.kind == "play":
        if len(cards) == len(hand):
            out.append(say(t, "finishes", info.cards, info.combo or ""))
        if quad or (info.combo == "pair_sequence" and len(cards) >= 6):
            out.append(
                say(
                    t,
                    "plays_bomb",
                    info.cards,
                    info.combo,
                    cards=cards_text(info.cards),
                    bomb=bomb_name(info.cards),
                )
            )
        else:
            for b in found:
                if cards & set(b) and bomb_shape(b) not in left:
                    out.append(say(t, "breaks_bomb", b, cards=cards_text(b), bomb=bomb_name(b)))
                    break
        if any(rank_of(c) == TWO for c in cards) and not quad:
            twos = tuple(c for c in info.cards if rank_of(c) == TWO)
            out.append(say(t, "plays_two", twos, info.combo or "", cards=cards_text(twos)))
        if info.combo == "single" and len(hand) > 1 and min(hand, key=rank_of) in cards:
            out.append(say(t, "sheds_lowest", info.cards, "single"))
    elif info.kind == "pass":
        twos = tuple(c for c in hand if rank_of(c) == TWO)
        if twos:
            out.append(say(t, "holds_twos", twos, cards=cards_text(twos)))
    if info.kind in ("play", "pass") and after and not any(r[0] == "plays_bomb" for r in out):
        out.append(
            say(t, "keeps_bomb", after[0], cards=cards_text(after[0]), bomb=bomb_name(after[0]))
        )
    return out


#: The codes that name what a move gives up (a cost weighed in its value, not a reason to
#: play it): a hint's advice names them after what the move does (server/advice.py).
COST_CODES = frozenset({"breaks_bomb"})
