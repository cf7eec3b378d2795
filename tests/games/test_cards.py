import pytest

from quansu.games.cards import (
    CardError,
    card_str,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
    phom_key,
    tan_key,
)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("3S", 0),
        ("3s", 0),
        ("2H", 51),
        ("TH", 4 * 7 + 3),
        ("10H", 4 * 7 + 3),
        ("th", 31),
        ("AD", 4 * 11 + 2),
        ("2C", 49),
        ("A♦", 46),
        ("q♠", 36),
        ("K♣", 41),
        ("5♥", 11),
        (" 7D ", 18),
    ],
)
def test_parse_card(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("bad", ["", "3", "1S", "3X", "11H", "ZZ", "3SS", "♠3"])
def test_bad_card_names_the_text(bad):
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert repr(bad) in str(e.value)


def test_roundtrip_all_cards():
    for c in range(52):
        assert parse_card(card_str(c)) == c


def test_parse_cards_and_masks():
    cards = parse_cards("3S 4S, 5H")
    assert cards == [0, 4, 11]
    assert cards_of(mask_of(cards)) == [0, 4, 11]
    with pytest.raises(CardError, match="named twice"):
        parse_cards("3S 3s")


def test_format_orders():
    m = mask_of(parse_cards("2S AH 3D KC"))
    assert format_cards(m) == "3D KC AH 2S"
    assert format_cards(m, key=phom_key) == "AH 2S 3D KC"
    assert format_cards(m, key=tan_key) == "2S 3D KC AH"


def test_shuffle_is_the_generators_own_permutation():
    """games.cards.shuffle (the compiled core's) makes the permutation ``random.Random.shuffle``
    makes and leaves the generator in the same state, for any length; a subclass's generator
    is left to its own shuffle."""
    import random

    from quansu.games.cards import shuffle

    for seed in range(60):
        for n in (0, 1, 2, 3, 13, 39, 52, 130):
            a, b = list(range(n)), list(range(n))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            shuffle(b, r2)
            assert a == b
            assert r1.getrandbits(64) == r2.getrandbits(64)

    class Fixed(random.Random):
        def shuffle(self, x):  # noqa: D401 - a generator that shuffles its own way
            x.reverse()

    items = [1, 2, 3]
    shuffle(items, Fixed(0))
    assert items == [3, 2, 1]
