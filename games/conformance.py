"""One reusable conformance check that every game passes (run from tests for every game,
player count and several option sets).

``check_game(game, games=20, seed=0)`` plays random games and asserts, at every step:

* random playouts end within ``game.max_moves``; legal moves are never empty before the end and
  are distinct; every legal move's text parses back to the same move;
* all 52 cards are conserved (``zones()`` are disjoint and cover the deck);
* payoffs sum to zero at the end and are zero-length-checked against the player count, and
  stay within ``game.payoff_bound()``;
* a clone is independent of the original;
* an illegal move raises :class:`IllegalMoveError` and leaves the state unchanged;
* replaying the history from the deal gives the same state (same observations for every seat);
* a determinization for any seat keeps that seat's observation, every card whose place the seat
  knows, and every zone's size, and uses each hidden card exactly once;
* siblings (one same move applied to states the seat to act cannot tell apart) have equal
  ``sibling_key`` for a seat exactly when they have equal information-state keys for it.
"""

from __future__ import annotations

import random

from quansu.games.base import TERMINAL, Game, IllegalMoveError, State
from quansu.games.cards import FULL_DECK


class ConformanceError(AssertionError):
    pass


def _fail(game: Game, msg: str) -> None:
    raise ConformanceError(f"{game!r}: {msg}")


def check_zones(game: Game, state: State) -> None:
    """Zones are disjoint and hold all 52 cards; ``zone_sizes()`` counts them."""
    seen = 0
    total = 0
    zones = state.zones()
    sizes = state.zone_sizes()
    if sizes != {name: mask.bit_count() for name, mask in zones.items()}:
        _fail(game, f"zone_sizes() {sizes} does not count zones()")
    for name, mask in zones.items():
        if seen & mask:
            _fail(game, f"zone {name} overlaps another zone")
        seen |= mask
        total += mask.bit_count()
    if seen != FULL_DECK or total != 52:
        _fail(game, f"cards not conserved: {total} cards in zones")


def check_determinization(game: Game, state: State, seat: int, rng: random.Random) -> State:
    """A determinization for ``seat`` keeps its view; returns the determinized state."""
    det = state.determinize(seat, rng)
    if det is state:
        _fail(game, "determinize returned the same object")
    check_zones(game, det)
    if det.observation(seat) != state.observation(seat):
        _fail(game, f"determinization changed seat {seat}'s observation")
    if det.information_state_key(seat) != state.information_state_key(seat):
        _fail(game, f"determinization changed seat {seat}'s information-state key")
    if det.current_player != state.current_player:
        _fail(game, "determinization changed the seat to act")
    z0, z1 = state.zones(), det.zones()
    if z0.keys() != z1.keys():
        _fail(game, "determinization changed the zone names")
    for name, known in state.known_cards(seat).items():
        if z1[name] & known != known:
            _fail(game, f"determinization moved a card of zone {name} known to seat {seat}")
    for name in z0:
        if z0[name].bit_count() != z1[name].bit_count():
            _fail(game, f"determinization changed the size of zone {name}")
    if state.current_player == seat:
        if sorted(map(repr, det.legal_moves())) != sorted(map(repr, state.legal_moves())):
            _fail(game, f"determinization changed the legal moves of seat {seat} to act")
    return det


def check_siblings(game: Game, state: State, rng: random.Random, worlds: int = 4) -> None:
    """``sibling_key`` tells siblings apart as ``information_state_key`` does: ``state`` and
    ``worlds`` determinizations for the seat to act, each after one same legal move, compared
    pairwise for every seat (the search keys a tree edge's children by ``sibling_key``)."""
    seat = state.current_player
    move = rng.choice(state.legal_moves())
    kids = []
    for st in [state] + [state.determinize(seat, rng) for _ in range(worlds)]:
        kid = st.clone()
        kid.apply(move)
        kids.append(kid)
    for s in range(game.num_players):
        full = [k.information_state_key(s) for k in kids]
        short = [k.sibling_key(s) for k in kids]
        for i in range(len(kids)):
            for j in range(i):
                if (full[i] == full[j]) != (short[i] == short[j]):
                    _fail(
                        game,
                        f"sibling_key({s}) {'merges' if short[i] == short[j] else 'splits'}"
                        f" siblings after {game.move_to_text(move)!r} that "
                        f"information_state_key({s}) "
                        f"{'tells apart' if full[i] != full[j] else 'does not'}",
                    )


def _illegal_candidate(game: Game, state: State, rng: random.Random):
    """A move of this game that is not legal now (taken from another position), or None."""
    legal = set(state.legal_moves())
    probe = game.new_initial_state(rng)
    for _ in range(60):
        if probe.is_terminal():
            break
        for m in probe.legal_moves():
            if m not in legal:
                return m
        probe.apply(rng.choice(probe.legal_moves()))
    return None


def check_game(game: Game, games: int = 20, seed: int = 0, deep_every: int = 7) -> dict:
    """Run the conformance checks on ``games`` random games; return simple statistics.

    ``deep_every``: the expensive checks (replay, determinization for every seat, illegal move)
    run on every ``deep_every``-th step.
    """
    rng = random.Random(seed)
    lengths = []
    n = game.num_players
    bound = game.payoff_bound()
    for g in range(games):
        state = game.new_initial_state(rng)
        check_zones(game, state)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_moves()
            if not legal:
                _fail(game, f"no legal moves before the end (game {g}, step {steps})")
            if len(set(legal)) != len(legal):
                _fail(game, f"duplicate legal moves at game {g}, step {steps}")
            seat = state.current_player
            if not 0 <= seat < n:
                _fail(game, f"seat to act {seat} out of range")
            if steps % deep_every == 0:
                for m in legal:
                    text = game.move_to_text(m)
                    if game.parse_move(text) != m:
                        _fail(game, f"move text {text!r} does not parse back")
                    if game.move_to_text(game.parse_move(text.lower())) != text:
                        _fail(game, f"move text {text!r} is not case-insensitive")
                for s in range(n):
                    check_determinization(game, state, s, rng)
                check_siblings(game, state, rng)
                before = state.observation(seat), state.zones(), len(state.history)
                bad = _illegal_candidate(game, state, rng)
                if bad is not None:
                    try:
                        state.apply(bad)
                    except IllegalMoveError:
                        pass
                    else:
                        _fail(game, f"illegal move {game.move_to_text(bad)!r} was accepted")
                    if (state.observation(seat), state.zones(), len(state.history)) != before:
                        _fail(game, "a rejected illegal move changed the state")
                twin = state.clone()
                twin_obs = [twin.observation(s) for s in range(n)]
                twin.apply(rng.choice(legal))
                if [state.observation(s) for s in range(n)] == [
                    twin.observation(s) for s in range(n)
                ]:
                    _fail(game, "applying a move to a clone did not change the clone")
                if [state.observation(s) for s in range(n)] != twin_obs:
                    _fail(game, "applying a move to a clone changed the original")
                replayed = game.replay(state.deal, state.history)
                if [replayed.observation(s) for s in range(n)] != [
                    state.observation(s) for s in range(n)
                ]:
                    _fail(game, "replaying the history gave another state")
            state.apply(rng.choice(legal))
            check_zones(game, state)
            steps += 1
            if steps > game.max_moves:
                _fail(game, f"game {g} exceeded max_moves={game.max_moves}")
        if state.current_player != TERMINAL or state.legal_moves():
            _fail(game, "terminal state has legal moves")
        ret = state.returns()
        if len(ret) != n:
            _fail(game, f"returns has {len(ret)} entries for {n} players")
        if abs(sum(ret)) > 1e-9:
            _fail(game, f"payoffs {ret} do not sum to zero")
        if any(abs(r) > bound + 1e-9 for r in ret):
            _fail(game, f"payoffs {ret} exceed payoff_bound {bound}")
        paid = [0.0] * n
        for payer, payee, amount in state.settlement():
            paid[payer] -= amount
            paid[payee] += amount
        if any(abs(a - b) > 1e-9 for a, b in zip(paid, ret)):
            _fail(game, f"settlement transfers {state.settlement()} disagree with returns {ret}")
        replayed = game.replay(state.deal, state.history)
        if replayed.returns() != ret:
            _fail(game, "replaying a finished game gave other payoffs")
        lengths.append(steps)
    return {
        "games": games,
        "mean_length": sum(lengths) / max(1, len(lengths)),
        "max_length": max(lengths, default=0),
    }
