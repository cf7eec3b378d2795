"""Pure Tấn rules on card ids and masks: card order, beating, throw-in ranks, move codes.

Card ids are those of :mod:`games.cards` (``4 * rank_index + suit``, rank_index over
``3456789TJQKA2``).  Tấn orders ranks ``2 < 3 < ... < K < A`` in every suit (``TAN_RANK``), and
every trump beats every non-trump (``docs/rules/tan.md``, "Beating").

Moves are small ints (see the ``*_BASE`` constants):

* ``attack c``            -> ``c``                      (0..51)
* ``throw c``             -> ``THROW_BASE + c``         (64..115)
* ``defend a with d``     -> ``DEFEND_BASE + 64*a + d`` (128..3443)
* ``swap c`` (c = the card the player gives for the face-up trump) -> ``SWAP_BASE + c``
* ``take``                -> ``TAKE``
* ``done``                -> ``DONE``
"""

from __future__ import annotations

from quansu.games.base import MoveInfo, MoveParseError
from quansu.games.cards import TAN_RANK, CardError, card_str, parse_card
from quansu.games.tan import errors as _errors  # noqa: F401  (registers the texts)

THROW_BASE = 64
DEFEND_BASE = 128
SWAP_BASE = 4096
TAKE = 4200
DONE = 4201

HAND_SIZE = 8

#: Tấn value of each card id: 2 (lowest) .. 14 (ace).
CARD_VALUE = tuple(TAN_RANK[c >> 2] for c in range(52))

#: SUIT_MASK[s]: the thirteen cards of suit s.
SUIT_MASK = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))


def _beaters(attack: int, trump: int) -> int:
    """Mask of the cards that beat ``attack`` when ``trump`` is the trump suit (slow reference)."""
    a_suit, a_val = attack & 3, CARD_VALUE[attack]
    m = 0
    for d in range(52):
        d_suit, d_val = d & 3, CARD_VALUE[d]
        if d_suit == a_suit and d_val > a_val:
            m |= 1 << d
        elif d_suit == trump and a_suit != trump:
            m |= 1 << d
    return m


#: BEATERS[trump][attack]: mask of every card that beats ``attack`` (same suit and higher; any
#: trump on a non-trump; only a higher trump on a trump).
BEATERS = tuple(tuple(_beaters(a, t) for a in range(52)) for t in range(4))

#: RANKBIT[c]: bit ``rank_index(c)`` (a 13-bit set of ranks on the table).
RANKBIT = tuple(1 << (c >> 2) for c in range(52))

#: RANKSET_CARDS[rs]: mask of every card whose rank is in the 13-bit rank set ``rs``.
RANKSET_CARDS = tuple(
    sum(0xF << (4 * r) for r in range(13) if rs >> r & 1) for rs in range(1 << 13)
)


def _chunk_tables(offset: int, add: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i + add for i in range(13) if x >> i & 1) for x in range(1 << 13))


#: Cards of a 13-bit slice of a mask: ``_C[k][x]`` are the card ids of bits ``13k..13k+12``.
_C = tuple(_chunk_tables(13 * k, 0) for k in range(4))
#: The same as throw moves.
_T = tuple(_chunk_tables(13 * k, THROW_BASE) for k in range(4))
_C0, _C1, _C2, _C3 = _C
_T0, _T1, _T2, _T3 = _T


def cards_of(m: int) -> tuple[int, ...]:
    """Card ids of mask ``m``, ascending (table lookups; the fast path of move generation)."""
    return _C0[m & 8191] + _C1[(m >> 13) & 8191] + _C2[(m >> 26) & 8191] + _C3[m >> 39]


def throw_moves(m: int) -> tuple[int, ...]:
    """``throw c`` moves for every card of mask ``m``, ascending by card id."""
    return _T0[m & 8191] + _T1[(m >> 13) & 8191] + _T2[(m >> 26) & 8191] + _T3[m >> 39]


def beats(attack: int, defence: int, trump: int) -> bool:
    """Whether card ``defence`` beats card ``attack`` with trump suit ``trump``."""
    return bool(BEATERS[trump][attack] >> defence & 1)


def lower_trumps(card: int) -> int:
    """Mask of the trumps of ``card``'s suit lower than ``card`` (the swap candidates of §2)."""
    suit, val = card & 3, CARD_VALUE[card]
    return sum(1 << c for c in range(52) if c & 3 == suit and CARD_VALUE[c] < val)


#: LOWER_TRUMPS[c]: mask of the cards of c's suit that are lower than c in Tấn order.
LOWER_TRUMPS = tuple(lower_trumps(c) for c in range(52))

#: TWO_OF[s]: card id of the 2 of suit s (the lowest card of the suit).
TWO_OF = tuple(4 * 12 + s for s in range(4))


# -- move text ------------------------------------------------------------------------------


def move_to_text(move: int) -> str:
    """Canonical text of a move code (``docs/notation.md``)."""
    if not isinstance(move, int) or isinstance(move, bool):
        raise MoveParseError.of("tan.not_a_move", move=move)
    if 0 <= move < 52:
        return "attack " + card_str(move)
    if THROW_BASE <= move < THROW_BASE + 52:
        return "throw " + card_str(move - THROW_BASE)
    if DEFEND_BASE <= move < SWAP_BASE:
        a, d = divmod(move - DEFEND_BASE, 64)
        if a < 52 and d < 52:
            return f"defend {card_str(a)} with {card_str(d)}"
    if SWAP_BASE <= move < SWAP_BASE + 52:
        return "swap " + card_str(move - SWAP_BASE)
    if move == TAKE:
        return "take"
    if move == DONE:
        return "done"
    raise MoveParseError.of("tan.not_a_move_code", move=move)


def _card(text: str, whole: str) -> int:
    try:
        return parse_card(text)
    except CardError as e:
        raise MoveParseError.of("tan.bad_move_card", whole=whole, error=e) from None


def parse_move(text: str) -> int:
    """Parse move text (case-insensitive; ``10`` and suit symbols accepted)."""
    if not isinstance(text, str):
        raise MoveParseError.of("tan.move_not_text", text=text)
    words = text.strip().lower().split()
    if not words:
        raise MoveParseError.of("tan.move_empty", text=text)
    kind = words[0]
    if kind in ("take", "done") and len(words) == 1:
        return TAKE if kind == "take" else DONE
    if kind in ("attack", "throw", "swap") and len(words) == 2:
        c = _card(words[1], text)
        return c if kind == "attack" else (THROW_BASE + c if kind == "throw" else SWAP_BASE + c)
    if kind == "defend" and len(words) == 4 and words[2] == "with":
        a, d = _card(words[1], text), _card(words[3], text)
        return DEFEND_BASE + 64 * a + d
    raise MoveParseError.of("tan.bad_move_text", text=text)


def describe_move(move: int) -> MoveInfo:
    """Structured form: kind, the card(s) moved and, for ``defend``, the attack card as target."""
    move_to_text(move)  # validates the code
    if move < 52:
        return MoveInfo("attack", (move,))
    if move < DEFEND_BASE:
        return MoveInfo("throw", (move - THROW_BASE,))
    if move < SWAP_BASE:
        a, d = divmod(move - DEFEND_BASE, 64)
        return MoveInfo("defend", (d,), target=a)
    if move < TAKE:
        return MoveInfo("swap", (move - SWAP_BASE,))
    return MoveInfo("take" if move == TAKE else "done")


def played_card(move: int) -> int:
    """The card a move takes out of the mover's hand (-1 for ``take`` and ``done``)."""
    if move < 52:
        return move
    if move < DEFEND_BASE:
        return move - THROW_BASE
    if move < SWAP_BASE:
        return (move - DEFEND_BASE) & 63
    if move < TAKE:
        return move - SWAP_BASE
    return -1
