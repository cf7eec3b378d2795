"""The search never cheats: it reads only the observer's information.

For every registered game (and the toy game): take a position, permute the opponents' true hidden
cards (``determinize`` for the observer: same counts, same public information, same observer
view) and search both positions with the same seed: the results must be identical.  A search that
peeked at the true cards (``assume_state_known=True``, used only by PIMC on its own worlds) fails
this check, which shows the check can fail.
"""

from __future__ import annotations

import random

import pytest

from quansu import games
from quansu.search import SearchConfig, search
from tests.search.test_search_toygame import BeatGame


def midgame_state(game, seed: int):
    """A position after a few random moves where the seat to act has >= 2 moves."""
    rng = random.Random(seed)
    for _ in range(100):
        state = game.new_initial_state(rng)
        target = rng.randrange(0, 10)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_moves()
            if steps >= target and len(legal) >= 2:
                return state
            state.apply(rng.choice(legal))
            steps += 1
    raise AssertionError("no position with a choice found")


def permuted(state, seed: int):
    """The same position for the seat to act, with the hidden cards placed differently."""
    seat = state.current_player
    rng = random.Random(seed)
    for _ in range(50):
        other = state.determinize(seat, rng)
        if other.zones() != state.zones():
            assert other.observation(seat) == state.observation(seat)
            return other
    return None


def fingerprint(result):
    return (
        [(m.move, m.visits, m.mean, m.prior, m.lcb, m.line) for m in result.moves],
        result.iterations,
        result.determinizations,
        result.tree_size,
    )


CASES = [
    (name, players)
    for name in games.game_names()
    for players in sorted({games.game_classes()[name].min_players, 4})
]


@pytest.mark.parametrize("keys", ["own", "observer", "model"])
@pytest.mark.parametrize("name,players", CASES)
def test_permuting_hidden_cards_leaves_the_search_unchanged(name, players, keys):
    game = games.make(name, players)
    checked = 0
    for k in range(3):
        state = midgame_state(game, seed=100 + k)
        other = permuted(state, seed=k)
        if other is None:
            continue  # nothing hidden from this seat here
        cfg = SearchConfig(iterations=120, opponent_keys=keys)
        assert fingerprint(search(state, cfg, seed=k)) == fingerprint(search(other, cfg, seed=k))
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("keys", ["own", "observer", "model"])
def test_permuting_hidden_cards_toy_game(keys):
    game = BeatGame(3, {"deck_size": 30, "hand_size": 6})
    for k in range(4):
        state = midgame_state(game, seed=k)
        other = permuted(state, seed=k)
        cfg = SearchConfig(iterations=300, opponent_keys=keys, batch_size=1 + k)
        assert fingerprint(search(state, cfg, seed=k)) == fingerprint(search(other, cfg, seed=k))


def test_the_check_catches_a_search_that_peeks():
    game = BeatGame(3, {"deck_size": 30, "hand_size": 6})
    differ = 0
    for k in range(4):
        state = midgame_state(game, seed=k)
        other = permuted(state, seed=k)
        cfg = SearchConfig(iterations=300)
        a = search(state, cfg, seed=k, assume_state_known=True)
        b = search(other, cfg, seed=k, assume_state_known=True)
        differ += fingerprint(a) != fingerprint(b)
    assert differ >= 3
