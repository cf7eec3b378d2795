"""How a player names and orders moves and cards (the moves as people read them).

The canonical notation (docs/notation.md: ``9D 9H``, ``discard KC``) is what apps and records
exchange; a *label* is the move as a player says it, in English or Vietnamese, with the cards
written as players write them: rank then suit symbol, ``10`` for the ten (``3♠``, ``10♥``).
Each game has its own terms (Tiến lên: đánh, bỏ lượt, heo, đôi thông; Phỏm: bốc, ăn, hạ phỏm,
gửi, đánh, ù; Sâm lốc: báo Sâm; Tấn: đánh, đỡ, đánh thêm, bốc, đổi chủ) and its own order:
cards in the game's rank order (Phỏm's ace low, Tấn's trumps last), moves grouped by kind
(singles, pairs, triples, straights, bombs; draw/eat, lay/send, discard; attack/throw, defend,
take) and ordered within a group from the lowest to the highest.

Reached through the game interface: :meth:`games.base.Game.move_label`,
:meth:`~games.base.Game.move_group`, :meth:`~games.base.Game.group_label`,
:meth:`~games.base.Game.card_sort_key`, :meth:`~games.base.Game.sort_moves`.  This module holds
the shared words (:data:`KIND_TERMS`, :data:`GROUP_TERMS`, the shedding games' combinations)
and helpers; ``games/<game>/labels.py`` holds a game's own: ``TERMS`` and ``GROUP_TERMS``
(entries that replace the shared ones), ``GROUPS`` (its groups in a player's order) and the
functions ``card_key(card, trump)``, ``move_group(info)``, ``move_key(info, trump)`` it needs,
and, where a play can be made in several suits to the same effect (Tiến lên, Sâm lốc),
``variant_key(info)`` and ``variants_label(info, lang, count, every)`` (:meth:`~games.base.Game.
suit_variant_key`, :meth:`~games.base.Game.variants_label`: a hint's suit variants in one row).
"""

from __future__ import annotations

from typing import Iterable

from quansu.games.base import MoveInfo
from quansu.games.cards import RANKS, SUIT_SYMBOLS, TAN_RANK, rank_of, suit_of

#: rank index of the 2 and of the ace (the top ranks of the shedding games)
TWO, ACE = 12, 11


def pick(pair: tuple[str, str], lang: str) -> str:
    """The English or Vietnamese word of a pair ("vi": Vietnamese; anything else: English)."""
    return pair[1] if lang == "vi" else pair[0]


def fill(pair: tuple[str, str], lang: str, **params) -> str:
    """A template of ``pair`` in ``lang`` with its fields filled, blanks collapsed."""
    return " ".join(pick(pair, lang).format(**params).split())


def card_label(card: int) -> str:
    """A card as players write it: rank then suit symbol, ``10`` for the ten (``10♥``, ``3♠``)."""
    rank = RANKS[rank_of(card)]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(card)]


def cards_label(cards: Iterable[int]) -> str:
    """Cards as players write them (:func:`card_label`), in the order given, space separated."""
    return " ".join(card_label(c) for c in cards)


#: What each move kind (:class:`games.base.MoveInfo` ``kind``) is called, by default: (English,
#: Vietnamese) templates with the fields ``cards`` (the cards moved), ``target`` (Tấn: the
#: attack card beaten), ``meld`` (Phỏm: the meld sent to), ``melds`` (Phỏm: the melds laid),
#: ``combo`` (the shedding games: the combination's name).  A game's ``TERMS`` replace entries.
KIND_TERMS: dict[str, tuple[str, str]] = {
    "play": ("{combo} {cards}", "đánh {combo} {cards}"),
    "pass": ("pass", "bỏ lượt"),
    "declare": ("declare Sâm", "báo Sâm"),
    "decline": ("do not declare Sâm", "không báo Sâm"),
    "draw": ("draw", "bốc"),
    "eat": ("eat {cards}", "ăn {cards}"),
    "lay": ("lay {melds}", "hạ phỏm {melds}"),
    "lay_nothing": ("lay no meld", "không hạ phỏm"),
    "send": ("send {cards} to meld {meld}", "gửi {cards} vào phỏm {meld}"),
    "discard": ("discard {cards}", "đánh {cards}"),
    "u": ("declare Ù", "ù"),
    "swap": ("swap {cards} for the trump card", "đổi chủ {cards}"),
    "done": ("done", "xong"),
    "attack": ("attack with {cards}", "đánh {cards}"),
    "defend": ("beat {target} with {cards}", "đỡ {target} bằng {cards}"),
    "throw": ("throw in {cards}", "đánh thêm {cards}"),
    "take": ("take the cards", "bốc bài"),
}

#: What each group of moves (:meth:`games.base.Game.move_group`) is called, by default; a
#: game's ``GROUP_TERMS`` replace entries.
GROUP_TERMS: dict[str, tuple[str, str]] = {
    "declare": ("declare Sâm?", "báo Sâm?"),
    "single": ("singles", "lá lẻ"),
    "pair": ("pairs", "đôi"),
    "triple": ("triples", "sám cô"),
    "straight": ("straights", "sảnh"),
    "bomb": ("bombs", "hàng chặt"),
    "pass": ("pass", "bỏ lượt"),
    "u": ("Ù", "ù"),
    "draw": ("draw or eat", "bốc hay ăn"),
    "lay": ("lay and send", "hạ phỏm, gửi"),
    "discard": ("discard", "đánh"),
    "swap": ("trump swap", "đổi chủ"),
    "attack": ("attack", "đánh"),
    "defend": ("defend", "đỡ"),
    "take": ("take", "bốc"),
    "done": ("done", "xong"),
}


def default_label(
    info: MoveInfo, terms: dict[str, tuple[str, str]], lang: str, combo: str = ""
) -> str:
    """``info`` named with ``terms`` (kind -> templates) in ``lang``."""
    kind = info.kind
    params = {
        "cards": cards_label(info.cards),
        "combo": combo,
        "target": "",
        "meld": "",
        "melds": " / ".join(cards_label(m) for m in info.melds),
    }
    if kind == "lay" and not info.melds:
        kind = "lay_nothing"
    if info.target is not None:
        if kind == "send":
            params["meld"] = str(info.target)
        else:
            params["target"] = card_label(info.target)
    pair = terms.get(kind)
    if pair is None:
        return kind
    return fill(pair, lang, **params)


# -- the shedding games (Tiến lên, Sâm lốc) ---------------------------------------------------

#: The combinations' names (``MoveInfo.combo``): (English, Vietnamese); ``{n}``: how many pairs.
COMBO_TERMS: dict[str, tuple[str, str]] = {
    "single": ("", ""),
    "pair": ("pair", "đôi"),
    "triple": ("triple", "sám cô"),
    "four_of_a_kind": ("four of a kind", "tứ quý"),
    "quad": ("four of a kind", "tứ quý"),
    "straight": ("straight", "sảnh"),
    "pair_sequence": ("{n} consecutive pairs", "{n} đôi thông"),
    "double_quad": ("two fours of a kind", "hai tứ quý"),
}
#: Combinations of 2s: heo.
TWO_TERMS: dict[str, tuple[str, str]] = {
    "single": ("", "heo"),
    "pair": ("pair of 2s", "đôi heo"),
    "triple": ("three 2s", "ba heo"),
}
#: Number words of a pair sequence's length.
NUMBERS: dict[int, tuple[str, str]] = {
    3: ("three", "ba"),
    4: ("four", "bốn"),
    5: ("five", "năm"),
    6: ("six", "sáu"),
}

#: The groups of a shedding game's moves, in a player's order.
SHEDDING_GROUPS = ("declare", "single", "pair", "triple", "straight", "bomb", "pass")
_COMBO_GROUP = {
    "single": "single",
    "pair": "pair",
    "triple": "triple",
    "straight": "straight",
    "four_of_a_kind": "bomb",
    "quad": "bomb",
    "pair_sequence": "bomb",
    "double_quad": "bomb",
}


def combo_label(info: MoveInfo, lang: str) -> str:
    """The name of a play's combination in ``lang`` (heo for 2s, "ba đôi thông")."""
    combo = info.combo or ""
    if info.cards and all(rank_of(c) == TWO for c in info.cards) and combo in TWO_TERMS:
        return pick(TWO_TERMS[combo], lang)
    pair = COMBO_TERMS.get(combo)
    if pair is None:
        return combo
    n = len(info.cards) // 2
    return fill(pair, lang, n=pick(NUMBERS.get(n, (str(n), str(n))), lang))


def shedding_label(info: MoveInfo, terms: dict[str, tuple[str, str]], lang: str) -> str:
    return default_label(info, terms, lang, combo_label(info, lang) if info.kind == "play" else "")


def shedding_group(info: MoveInfo) -> str:
    if info.kind == "play":
        return _COMBO_GROUP.get(info.combo or "", "bomb")
    if info.kind in ("declare", "decline"):
        return "declare"
    return info.kind


def straight_start(cards: tuple[int, ...]) -> int:
    """Where a straight starts, low to high: a Sâm straight that holds a 2 starts below the 3
    (``A 2 3`` lowest, then ``2 3 4``); otherwise its lowest card's rank index."""
    first = rank_of(cards[0])
    if first == ACE and len(cards) > 1 and rank_of(cards[1]) == TWO:
        return -2
    if first == TWO:
        return -1
    return first


def shedding_key(info: MoveInfo) -> tuple:
    """Within a group, low to high: a single by its card; a pair, triple or four of a kind by its
    rank (then its cards); a straight or a pair sequence by its length, then where it starts;
    ``declare`` before ``decline``."""
    if info.kind == "play":
        cards = tuple(info.cards)
        top = max(cards)
        if info.combo in ("straight", "pair_sequence"):
            return (len(cards), straight_start(cards), top)
        if info.combo == "double_quad":
            return (4, top, cards)
        return (len(cards), rank_of(top), cards)
    return (0 if info.kind == "declare" else 1,)


# -- the same play up to suits (Game.suit_variant_key, Game.variants_label) -------------------

#: What a row of suit variants is called: the play without its suits when it holds every legal
#: choice of suits (one card: "any suit"), else the move with the suits chosen and how many other
#: choices (``{n}``) the row holds.
VARIANT_TERMS: dict[str, tuple[str, str]] = {
    "any_suit": ("{play}, any suit", "{play} bất kỳ chất"),
    "any_suits": ("{play}, any suits", "{play} bất kỳ chất"),
    "suit_choices": ("{move} (+{n} in other suits)", "{move} (+{n} cách chọn chất khác)"),
}


def ranks_label(cards: Iterable[int]) -> str:
    """The ranks of ``cards`` as players say them without suits, each rank once, in the order
    given, joined by ``-`` (``3-4-5-6-7``, ``10``, ``A-2-3``)."""
    seen: list[int] = []
    for c in cards:
        if rank_of(c) not in seen:
            seen.append(rank_of(c))
    return "-".join("10" if RANKS[r] == "T" else RANKS[r] for r in seen)


def variants_label(play: str, move: str, cards: int, lang: str, count: int, every: bool) -> str:
    """A row of ``count`` suit variants of one play in ``lang`` (``play``: its name without
    suits, ``move``: the label of the row's move, ``cards``: how many cards it moves): "any
    suit(s)" when ``every`` legal choice of suits is in the row, else the move with its suits
    and how many other choices the row holds (another row may hold the same play in other
    suits, with another value)."""
    if every:
        return fill(VARIANT_TERMS["any_suit" if cards == 1 else "any_suits"], lang, play=play)
    return fill(VARIANT_TERMS["suit_choices"], lang, move=move, n=count - 1)


def shedding_variant_key(info: MoveInfo):
    """The shedding games' plays up to suits: the combination and its ranks (a pair of 9s in
    any suits, the straight 3-4-5-6-7 in any suits); None for other moves (suits are not what
    tells them apart)."""
    if info.kind != "play" or not info.cards:
        return None
    return ("play", info.combo or "", tuple(rank_of(c) for c in info.cards))


def shedding_variants_label(
    info: MoveInfo, terms: dict[str, tuple[str, str]], lang: str, count: int, every: bool
) -> str:
    """A shedding game's row of suit variants ("straight 3-4-5-6-7, any suits", "đánh đôi 9
    bất kỳ chất", "pair 9♦ 9♥ (+2 in other suits)"), :func:`variants_label`."""
    play = fill(terms["play"], lang, combo=combo_label(info, lang), cards=ranks_label(info.cards))
    return variants_label(
        play, shedding_label(info, terms, lang), len(info.cards), lang, count, every
    )


# -- card orders ------------------------------------------------------------------------------


def tienlen_card_key(card: int, trump: int | None = None) -> tuple:
    """Tiến lên and Sâm order: 3 low … A, 2 high, then S C D H."""
    return (rank_of(card), suit_of(card))


def tan_card_key(card: int, trump: int | None = None) -> tuple:
    """Tấn: 2 low … A high, then S C D H; with ``trump`` (the face-up card) the trumps last,
    where a player keeps them."""
    trumps = trump is not None and suit_of(card) == suit_of(trump)
    return (trumps, TAN_RANK[rank_of(card)], suit_of(card))


# -- the label module of a shedding game (Tiến lên, Sâm lốc): one set of functions ---------------


def shedding_module_label(info: MoveInfo, lang: str) -> str:
    """A shedding game's ``label``: its kinds named with :data:`KIND_TERMS`."""
    return shedding_label(info, KIND_TERMS, lang)


def shedding_module_key(info: MoveInfo, trump: int | None) -> tuple:
    """A shedding game's ``move_key`` (no trump in these games)."""
    return shedding_key(info)


def shedding_module_variants_label(info: MoveInfo, lang: str, count: int, every: bool) -> str:
    """A shedding game's ``variants_label``."""
    return shedding_variants_label(info, KIND_TERMS, lang, count, every)
