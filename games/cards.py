"""Cards as ints 0..51 and card sets as 52-bit int masks.

A card id is ``4 * rank_index + suit_index`` with

* ``rank_index``: ``3 4 5 6 7 8 9 T J Q K A 2`` -> 0..12 (the Tiến lên / Sâm order), and
* ``suit_index``: ``S C D H`` (♠ ♣ ♦ ♥) -> 0..3.

So ``3S`` is 0 and ``2H`` is 51, and in Tiến lên the id *is* the card's strength.  Games with
another rank order (Phỏm: A low; Tấn: 2 low, A high) map ids through their own tables
(:data:`PHOM_RANK`, :data:`TAN_RANK`).

A card set is an ``int`` whose bit ``c`` is set when card ``c`` is in the set.  Parsing is
case-insensitive and accepts ``10`` for ``T`` and the suit symbols ♠ ♣ ♦ ♥ (and ♤ ♧ ♢ ♡).
"""

from __future__ import annotations

import random
from typing import Iterable, Sequence

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

from quansu.games.errors import CodedError

RANKS = "3456789TJQKA2"
SUITS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
NUM_CARDS = 52
FULL_DECK = (1 << NUM_CARDS) - 1
#: the mask of each card id (a lookup, e.g. where a card id is a C int in the compiled core and
#: ``1 << c`` would be a C int shift, wrong past bit 31)
CARD_BIT = tuple(1 << c for c in range(NUM_CARDS))

_SUIT_ALIASES = {
    "S": 0,
    "C": 1,
    "D": 2,
    "H": 3,
    "♠": 0,
    "♣": 1,
    "♦": 2,
    "♥": 3,
    "♤": 0,
    "♧": 1,
    "♢": 2,
    "♡": 3,
}
_RANK_ALIASES = {ch: i for i, ch in enumerate(RANKS)}
_RANK_ALIASES["10"] = RANKS.index("T")

#: Rank of each rank_index in Phỏm order (A=1, 2=2, ..., K=13).
PHOM_RANK = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2)
#: Rank of each rank_index in Tấn order (2=2 < ... < K=13 < A=14).
TAN_RANK = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)


class CardError(CodedError):
    """A card or card list could not be parsed; the message names the bad text (a
    :class:`games.errors.CodedError`, like every rules error)."""


def make_card(rank_index: int, suit_index: int) -> int:
    """Card id from a rank index (3=0 .. 2=12) and a suit index (S=0 .. H=3)."""
    return 4 * rank_index + suit_index


def rank_of(card: int) -> int:
    """Rank index 0..12 (3 .. A, 2) of a card id."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index 0..3 (S C D H) of a card id."""
    return card & 3


def parse_card(text: str) -> int:
    """Parse one card such as ``"3S"``, ``"th"``, ``"10H"``, ``"A♦"``; raise :class:`CardError`."""
    if not isinstance(text, str):
        raise CardError.of("card_not_string", text=text)
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError.of("card_too_short", text=text)
    rank_txt, suit_txt = t[:-1], t[-1]
    rank = _RANK_ALIASES.get(rank_txt)
    suit = _SUIT_ALIASES.get(suit_txt)
    if rank is None:
        raise CardError.of("card_unknown_rank", text=text, rank_txt=rank_txt)
    if suit is None:
        raise CardError.of("card_unknown_suit", text=text, suit_txt=suit_txt)
    return make_card(rank, suit)


def card_str(card: int) -> str:
    """Canonical text of a card id, e.g. ``0 -> "3S"``."""
    if not 0 <= card < NUM_CARDS:
        raise CardError.of("card_id_range", card=card)
    return RANKS[card >> 2] + SUITS[card & 3]


def parse_cards(text: str | Sequence[str]) -> list[int]:
    """Parse space/comma separated cards (or a list of card strings) into ids, in the given order.

    Raises :class:`CardError` on a bad card or a card named twice.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out: list[int] = []
    seen = 0
    for p in parts:
        c = parse_card(p)
        if seen >> c & 1:
            raise CardError.of("card_named_twice", card=card_str(c), text=text)
        seen |= 1 << c
        out.append(c)
    return out


def parse_mask(text: str | Sequence[str]) -> int:
    """Parse cards into a card-set mask (see :func:`parse_cards`)."""
    return mask_of(parse_cards(text))


def mask_of(cards: Iterable[int]) -> int:
    """Card-set mask of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card ids of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    """Number of cards in a mask."""
    return mask.bit_count()


def format_cards(cards: Iterable[int] | int, key=None) -> str:
    """Cards as canonical text separated by single spaces.

    ``cards`` is a mask or an iterable of ids.  Sorted by ``key`` (a function of the card id;
    default: id order, i.e. Tiến lên strength, which orders equal ranks S C D H).
    """
    ids = cards_of(cards) if isinstance(cards, int) else list(cards)
    if key is not None:
        ids.sort(key=key)
    else:
        ids.sort()
    return " ".join(card_str(c) for c in ids)


def phom_key(card: int) -> tuple[int, int]:
    """Sort key for Phỏm order (A low ... K high, then S C D H)."""
    return (PHOM_RANK[card >> 2], card & 3)


def tan_key(card: int) -> tuple[int, int]:
    """Sort key for Tấn order (2 low ... A high, then S C D H)."""
    return (TAN_RANK[card >> 2], card & 3)


def rank_mask(rank_index: int) -> int:
    """Mask of the four cards of one rank index."""
    return 0xF << (4 * rank_index)


def suit_mask(suit_index: int) -> int:
    """Mask of the thirteen cards of one suit."""
    m = 0
    for r in range(13):
        m |= 1 << (4 * r + suit_index)
    return m


@cython.cfunc
@cython.locals(n=cython.Py_ssize_t, k=cython.int)
@cython.returns(cython.int)
def _bit_length(n: int) -> int:
    """The bit length of ``n`` >= 0 (compiled: a C loop)."""
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


if not cython.compiled:
    _bit_length = int.bit_length  # noqa: F811  (uncompiled, the int method itself)


@cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, n=cython.Py_ssize_t, k=cython.int)
def shuffle(items: list, rng: random.Random) -> None:
    """Shuffle the list ``items`` in place: the very permutation ``rng.shuffle(items)`` makes
    (Python's algorithm, each index drawn from ``rng.getrandbits`` as ``random.Random`` draws
    it), so the generator ends in the same state too; compiled, the loop runs in C.  A
    generator of a subclass of ``random.Random`` (which may draw otherwise) is left to
    ``rng.shuffle``."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        n = i + 1
        k = _bit_length(n)
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1
