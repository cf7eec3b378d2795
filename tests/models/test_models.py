"""Networks layer without torch: encoders (every registered game), shipped models (canaries,
encoder-version refusal, evaluator for every player count), the policy bot."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from quansu import games
from quansu.games.base import GameError
from quansu.models import ModelError, default_evaluator, has_model, load_model
from quansu.models.canary import canary_inputs, canary_positions, read_canary
from quansu.models.encoders import (
    Encoder,
    EncoderError,
    encoder_for,
    masks_to_bits,
    spec_for,
    versions_for,
)
from quansu.models.evaluator import PolicyValueModel, default_model_path, prior_scale, softmax

SHIPPED = ("tienlen", "phom", "samloc", "tan")
REGISTERED = [g for g in games.game_names() if g in SHIPPED]
WITH_MODEL = [g for g in REGISTERED if has_model(g)]


def _positions(game, n_games=3, seed=0):
    rng = random.Random(seed)
    for _ in range(n_games):
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            yield state.clone()
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])


def test_masks_to_bits():
    bits = masks_to_bits([0, 1, 1 << 51, (1 << 52) - 1])
    assert bits.shape == (4, 52) and bits.dtype == np.float32
    assert bits[0].sum() == 0 and bits[1, 0] == 1 and bits[1].sum() == 1
    assert bits[2, 51] == 1 and bits[2].sum() == 1 and bits[3].sum() == 52


@pytest.mark.parametrize("name", REGISTERED)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_encoder_shapes_and_information_state(name, players):
    """Rows have the declared sizes, are finite, and are equal for states the seat cannot tell
    apart (a determinization for that seat)."""
    game = games.make(name, players)
    enc = encoder_for(game)
    rng = random.Random(players)
    for i, state in enumerate(_positions(game, 2, seed=players)):
        seat = state.current_player
        f = enc.encode_state(state, seat)
        assert f.shape == (enc.state_dim,) and f.dtype == np.float32 and np.isfinite(f).all()
        moves = state.legal_moves()
        m = enc.encode_moves(state, moves)
        assert m.shape == (len(moves), enc.move_dim) and np.isfinite(m).all()
        if i % 5 == 0:
            det = state.determinize(seat, rng)
            assert np.array_equal(f, enc.encode_state(det, seat))
            assert np.array_equal(m, enc.encode_moves(det, det.legal_moves()))


@pytest.mark.parametrize("name", REGISTERED)
def test_encoder_counts_a_known_history_prefix_once(name):
    """An encoder continues the moved-card masks of the last history it counted from the start
    (a search's root) for a state whose history begins with it: the same rows as a fresh
    encoder's, whatever order the states come in (longer, shorter, other games' positions)."""
    game = games.make(name, 4)
    positions = list(_positions(game, 3, seed=7))
    rng = random.Random(3)
    warm = encoder_for(game)
    order = positions[:]
    rng.shuffle(order)
    for state in positions[:5] + order:
        seat = state.current_player
        fresh = Encoder(spec_for(name), game)
        assert np.array_equal(warm.encode_state(state, seat), fresh.encode_state(state, seat))
    assert warm._moved_prefix is not None and len(warm._moved_prefix[0]) > 0


@pytest.mark.parametrize("name", REGISTERED)
def test_encoder_sees_own_hand_and_moves_differ(name):
    game = games.make(name, 4)
    enc = encoder_for(game)
    state = game.new_initial_state(random.Random(3))
    seat = state.current_player
    f = enc.encode_state(state, seat)
    hand = state.known_cards(seat)[f"hand{seat}"]
    assert np.array_equal(f[:52], masks_to_bits([hand])[0])
    moves = state.legal_moves()
    rows = enc.encode_moves(state, moves)
    assert len({r.tobytes() for r in rows}) == len(moves), "two legal moves encode the same"


@pytest.mark.parametrize("name", REGISTERED)
def test_encoder_refuses_other_game(name):
    other = next((g for g in games.game_names() if g != name), None)
    if other is None:
        pytest.skip("only one game registered")
    with pytest.raises(EncoderError, match="cannot encode"):
        Encoder(spec_for(name), games.make(other, 4))


def test_unknown_game_encoder():
    with pytest.raises(EncoderError, match="no encoder"):
        spec_for("chess")


def test_fingerprint_tracks_layout():
    name = REGISTERED[0]
    game = games.make(name, 4)
    spec = spec_for(name)
    a = Encoder(spec, game)
    b = Encoder(dataclasses.replace(spec, recent=spec.recent + 1), game)
    assert a.fingerprint() != b.fingerprint()
    assert a.fingerprint() == Encoder(spec, games.make(name, 3)).fingerprint()


@pytest.mark.parametrize("name", SHIPPED)
def test_every_registered_game_ships_a_model(name):
    if name not in REGISTERED:
        pytest.skip(f"{name} engine not registered")
    path = default_model_path(name)
    assert path.is_file(), f"no shipped model {path}"
    assert path.stat().st_size < 5_000_000
    assert path.with_suffix(".md").is_file(), "model card missing"
    assert path.with_suffix(".canary.json").is_file(), "canary missing"


@pytest.mark.parametrize("name", WITH_MODEL)
def test_canary_outputs(name):
    """Stored inputs give the stored outputs; the encoder rebuilds the stored inputs."""
    path = default_model_path(name)
    data = read_canary(path.with_suffix(".canary.json"))
    model = PolicyValueModel(path)
    logits, values = model.run(data["states"], data["moves"], data["move_state"])
    np.testing.assert_allclose(logits, data["logits"], atol=1e-4, rtol=1e-4)
    np.testing.assert_allclose(values, data["values"], atol=1e-4, rtol=1e-4)
    game = games.make(name, data["players"], data["options"])
    if game.rules_version == data["rules_version"]:
        plies, st, mv, idx = canary_inputs(game, data["seed"])
        assert plies == data["plies"]
        np.testing.assert_array_equal(st, data["states"])
        np.testing.assert_array_equal(mv, data["moves"])


@pytest.mark.parametrize("name", WITH_MODEL)
def test_model_metadata_and_version_refusal(name):
    game = games.make(name, 4)
    model = load_model(game)
    enc = encoder_for(game)
    assert model.game == name and model.encoder_version == enc.version
    assert model.training()["command"].startswith("quansu train --game " + name)
    newer = Encoder(dataclasses.replace(enc.spec, version=enc.version + 1), game)
    with pytest.raises(ModelError, match="encoder version"):
        model.check_encoder(newer)
    changed = Encoder(dataclasses.replace(enc.spec, recent=enc.spec.recent + 1), game)
    with pytest.raises(ModelError, match="fingerprint"):
        model.check_encoder(changed)
    other = next((g for g in REGISTERED if g != name), None)
    if other:
        with pytest.raises(ModelError, match="is for game"):
            model.check_encoder(encoder_for(games.make(other, 4)))


def test_bad_model_files(tmp_path):
    with pytest.raises(ModelError, match="not found"):
        PolicyValueModel(tmp_path / "missing.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not an onnx file")
    with pytest.raises(ModelError, match="cannot be loaded"):
        PolicyValueModel(bad)
    assert isinstance(ModelError("x"), GameError)


@pytest.mark.parametrize("name", WITH_MODEL)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluator_every_player_count(name, players):
    game = games.make(name, players)
    ev = default_evaluator(game)
    states = list(_positions(game, 1, seed=players))[:12]
    answers = ev.evaluate(states, [s.legal_moves() for s in states], random.Random(0))
    for state, a in zip(states, answers):
        assert len(a.priors) == len(state.legal_moves())
        assert abs(sum(a.priors) - 1.0) < 1e-6 and min(a.priors) >= 0
        assert len(a.values) == players and abs(sum(a.values)) < 1e-4
    # cached answers are the same objects' values, batch or single
    again = ev.evaluate(states[:1], [states[0].legal_moves()])[0]
    assert list(again.priors) == list(answers[0].priors)
    assert ev.hits >= 1


def test_prior_scale_follows_what_the_logits_were_trained_on():
    """A Deep Monte Carlo model's logits are Q in units of q_scale bets: its priors are the
    softmax of Q in bets; every other model's logits go to the softmax as they are."""
    assert prior_scale({"quansu.policy_targets": "dmc_q", "quansu.q_scale": "5.2"}) == 5.2
    assert prior_scale({"quansu.policy_targets": "advantage", "quansu.q_scale": "5.2"}) == 1.0
    assert prior_scale({}) == 1.0
    for bad in ("0", "-1", "nan", "five"):
        with pytest.raises(ModelError, match="q_scale must be a positive number"):
            prior_scale({"quansu.policy_targets": "dmc_q", "quansu.q_scale": bad})


@pytest.mark.parametrize("name", WITH_MODEL)
def test_evaluator_priors_are_the_softmax_of_the_scaled_logits(name):
    game = games.make(name, 4)
    model = load_model(game)
    assert model.prior_scale == prior_scale(model.metadata)
    ev = default_evaluator(game, cache_size=0)
    _, states, moves, idx = canary_inputs(game)
    logits, _ = model.run(states, moves, idx)
    (_, state), *_ = canary_positions(game)
    legal = state.legal_moves()
    want = softmax(logits[idx == 0].astype(np.float64) * model.prior_scale)
    np.testing.assert_allclose(ev.evaluate([state], [legal])[0].priors, want, rtol=1e-5)


@pytest.mark.parametrize("name", WITH_MODEL)
def test_priors_of_a_single_move_skip_the_network(name):
    game = games.make(name, 4)
    states = [s for s in _positions(game, 2, seed=3)]
    single = [s for s in states if len(s.legal_moves()) == 1][:5]
    multi = [s for s in states if len(s.legal_moves()) > 1][:5]
    assert single and multi
    ev = default_evaluator(game, cache_size=0)
    answers = ev.evaluate(single + multi, values=False)
    assert ev.calls == 1  # one batch: the states with a choice
    assert [list(a.priors) for a in answers[: len(single)]] == [[1.0]] * len(single)
    for state, a in zip(multi, answers[len(single) :]):
        assert len(a.priors) == len(state.legal_moves()) and abs(sum(a.priors) - 1.0) < 1e-6
    # the network's own answer for such a state is the same prior, and values still come
    full = ev.evaluate(single[:1], values=True)[0]
    assert list(full.priors) == [1.0] and len(full.values) == 4
    assert ev.calls == 2
    assert ev.evaluate(single[:1], values=False)[0].priors == [1.0] and ev.calls == 2


@pytest.mark.parametrize("name", WITH_MODEL)
def test_evaluator_uses_only_the_acting_seats_information(name):
    game = games.make(name, 4)
    ev = default_evaluator(game, cache_size=0)
    rng = random.Random(5)
    for i, state in enumerate(_positions(game, 1, seed=9)):
        if i % 7:
            continue
        det = state.determinize(state.current_player, rng)
        a, b = ev.evaluate([state, det])
        np.testing.assert_allclose(a.priors, b.priors, atol=1e-6)
        np.testing.assert_allclose(a.values, b.values, atol=1e-5)


@pytest.mark.parametrize("name", WITH_MODEL)
def test_policy_bot_plays_a_game(name):
    from quansu.models.bots import PolicyBot
    from quansu.search.arena import play_game

    game = games.make(name, 4)
    bot = PolicyBot(default_evaluator(game))
    deal = game.random_deal(random.Random(2))
    state, moves, _ = play_game(game, deal, [bot] * 4)
    assert state.is_terminal() and abs(sum(state.returns())) < 1e-9
    with pytest.raises(GameError):
        bot.choose(state, 0)


@pytest.mark.parametrize("name", WITH_MODEL)
def test_evaluator_playouts_play_the_policy_bot_for_every_seat(name):
    """The improvement step's ``rollout=evaluator`` continuation with a network is the policy
    network alone at every seat (ties are measure-zero with real logits)."""
    from quansu.models.bots import PolicyBot
    from quansu.search.evaluator import playout

    game = games.make(name, 4)
    ev = default_evaluator(game)
    state = game.new_initial_state(random.Random(4))
    values = playout(state.clone(), random.Random(1), "evaluator", evaluator=ev)
    bot = PolicyBot(ev)
    while not state.is_terminal():
        state.apply(bot.choose(state, state.current_player))
    assert values == state.returns()


@pytest.mark.parametrize("name", [g for g in REGISTERED if spec_for(g).heuristic_feature])
def test_heuristic_choice_feature_marks_the_bots_move(name):
    """The last move feature is 1 on exactly the heuristic bot's move (seed-independent: the
    encoder asks the bot with a fixed seed) and 0 elsewhere."""
    game = games.make(name, 4)
    enc = encoder_for(game)
    for k, state in enumerate(_positions(game, n_games=2, seed=5)):
        if k % 3 or state.is_terminal():
            continue
        moves = state.legal_moves()
        col = enc.encode_moves(state, moves)[:, -1]
        assert col.sum() == 1.0
        assert moves[int(np.argmax(col))] == game.heuristic_move(state, random.Random(0))


def _without_sparring(name: str, version: int) -> int | None:
    """The version whose layout is ``version``'s less the sparring-choice feature."""
    spec = versions_for(name)[version]
    for v, other in versions_for(name).items():
        if other == dataclasses.replace(spec, version=v, sparring_feature=False):
            return v
    return None


#: (game, layout without the sparring choice, the same layout with it)
SPARRING_LAYOUTS = [
    (g, _without_sparring(g, v), v)
    for g in REGISTERED
    for v, spec in sorted(versions_for(g).items())
    if spec.sparring_feature
]


def test_sparring_layouts():
    """Tiến lên and Phỏm ship the sparring layout (version 4, each built on its previous
    default, 2 and 3), Tấn has it as version 3 on its default 2."""
    assert set(SPARRING_LAYOUTS) >= {("tienlen", 2, 4), ("phom", 3, 4), ("tan", 2, 3)}
    assert [spec_for(g).version for g in ("tienlen", "phom", "tan")] == [4, 4, 2]


@pytest.mark.parametrize("name,base_version,version", SPARRING_LAYOUTS)
def test_sparring_choice_feature_is_a_layout_plus_one_column(name, base_version, version):
    """A sparring layout is another layout of the game with one more move feature before the
    heuristic-choice one: 1 on exactly the sparring bot's move; every other column equal."""
    game = games.make(name, 4)
    base, v4 = encoder_for(game, base_version), encoder_for(game, version)
    assert v4.version == version and v4.spec.sparring_feature and not base.spec.sparring_feature
    assert v4.move_dim == base.move_dim + 1 and v4.state_dim == base.state_dim
    assert v4.fingerprint() != base.fingerprint()
    checked = 0
    for k, state in enumerate(_positions(game, n_games=2, seed=7)):
        if k % 3 or state.is_terminal():
            continue
        moves = state.legal_moves()
        a, b = base.encode_moves(state, moves), v4.encode_moves(state, moves)
        col = b[:, -2]
        assert col.sum() == 1.0
        assert moves[int(np.argmax(col))] == game.sparring_move(state, random.Random(0))
        np.testing.assert_array_equal(np.delete(b, -2, axis=1), a)
        np.testing.assert_array_equal(
            v4.encode_state(state, state.current_player),
            base.encode_state(state, state.current_player),
        )
        checked += 1
    assert checked >= 5


def test_an_unknown_encoder_version_is_named():
    with pytest.raises(EncoderError, match="no encoder version 9; known: 2, 4"):
        spec_for("tienlen", 9)
    with pytest.raises(EncoderError, match="known: 2, 3$"):
        encoder_for(games.make("tan", 4), 4)


@pytest.mark.parametrize("name", REGISTERED)
def test_advantage_samples(name):
    """Rollout-advantage samples: the heuristic's move always rolled out, advantages centred
    over the rolled-out moves (NaN elsewhere), at most ``max_moves`` of them, value targets
    zero-sum payoffs; the same seed gives the same samples."""
    from quansu.models.training.data import advantage_game

    game = games.make(name, 3)
    enc = encoder_for(game)
    a = advantage_game(game, random.Random(11), max_moves=4)
    b = advantage_game(game, random.Random(11), max_moves=4)
    assert a.states and len(a.states) == len(a.targets) == len(a.values) == len(a.moves)
    for t, rows, vals, t2 in zip(a.targets, a.moves, a.values, b.targets):
        rolled = ~np.isnan(t)
        assert len(t) == len(rows) and 2 <= rolled.sum() <= 4
        assert abs(float(t[rolled].sum())) < 1e-3 * max(1.0, float(np.abs(t[rolled]).max()))
        if enc.spec.heuristic_feature:  # the bot's move (feature column) is rolled out
            assert rolled[int(np.argmax(rows[:, -1]))]
        assert abs(sum(vals)) < 1e-6
        np.testing.assert_array_equal(t, t2)


@pytest.mark.parametrize("name", WITH_MODEL)
def test_guided_config_leaf_choice(name):
    """Network leaves: batches of 8 at the model's value scale; playout leaves: one leaf at a
    time at the search's automatic scale (as the network-free search); the default is the
    game's measured ``tuning.guided_leaf``; the prior temperature is its
    ``tuning.guided_prior_temperature`` (1 where none was measured better)."""
    from quansu.models.bots import guided_config
    from quansu.search.config import SearchConfig

    ev = default_evaluator(games.make(name, 4))
    base = SearchConfig(iterations=None, time_s=0.1)
    net = guided_config(ev, base, "evaluator")
    assert (net.leaf_value, net.batch_size, net.value_scale) == (
        "evaluator",
        8,
        ev.model.value_scale,
    )
    roll = guided_config(ev, base, "rollout")
    assert (roll.leaf_value, roll.batch_size, roll.value_scale) == ("rollout", 1, None)
    tuning = ev.game.tuning
    assert roll.time_s == 0.1 and guided_config(ev, base).leaf_value == tuning.guided_leaf
    assert net.prior_temperature == roll.prior_temperature == tuning.guided_prior_temperature


def test_phom_move_terms_are_the_discard_bots_terms():
    """Phỏm's move terms (encoder v3, and v4 before its sparring column) are, on card discards
    (in the discard phase and in the send phase, where the discard ends the sending), the
    heuristic's own discard terms (scaled as documented in ``models.encoders.phom``) and zeros on
    every other move; the discard the terms rank best is the bot's move when it discards (in the
    send phase: when nothing can be sent)."""
    from quansu.games.phom.game import DISCARD, SEND, U
    from quansu.games.phom.heuristic import discard_key, discard_terms
    from quansu.models.encoders.phom import MOVE_TERMS

    game = games.make("phom", 4)
    enc = encoder_for(game)
    k = len(MOVE_TERMS)
    end = -1 - int(enc.spec.sparring_feature)  # the choice columns come after the terms
    seen = 0
    in_send = 0
    for state in _positions(game, n_games=4, seed=3):
        moves = state.legal_moves()
        if state.is_terminal():
            continue
        terms = enc.encode_moves(state, moves)[:, end - k : end]
        if state.phase not in (DISCARD, SEND) or len(moves) < 2 or U in moves:  # no discard
            assert not terms.any()
            continue
        rows = discard_terms(state, moves)
        best = min(rows, key=discard_key)
        bot = game.heuristic_move(state, random.Random(0))
        if len(rows) == len(moves):
            assert best[0] == bot
        else:  # the send phase with a send legal: the bot sends
            assert state.phase == SEND and bot not in {r[0] for r in rows}
        in_send += state.phase == SEND
        for mv, score, dw, pot, dan in rows:
            got = terms[moves.index(mv)]
            want = [min(dw, 100) / 50, pot / 4, dan / 4, min(score - best[1], 30) / 10]
            np.testing.assert_allclose(got, want, rtol=1e-6)
            seen += 1
        assert not terms[[i for i, mv in enumerate(moves) if mv not in {r[0] for r in rows}]].any()
    assert seen > 50 and in_send > 0


def test_bench_results_are_appended_to_a_card(tmp_path):
    """``bench.models.append_to_card`` keeps the card and the results already in its bench
    section and adds the new ones after them; a card without the section gets one."""
    from quansu.bench.models import CARD_HEADER, append_to_card

    def result(mean):
        return {
            "players": 4,
            "policy_vs_heuristic": {
                "payoff_mean": mean,
                "ci95": [mean - 0.1, mean + 0.1],
                "deals": 10,
                "above_zero": mean > 0.1,
            },
        }

    card = tmp_path / "g.md"
    card.write_text("# g\n\ntext\n")
    append_to_card(str(card), [("cmd one", result(0.5))])
    append_to_card(str(card), [("cmd two", result(-0.5))])
    text = card.read_text()
    assert text.startswith("# g\n\ntext\n") and text.count(CARD_HEADER) == 1
    assert (
        text.index("cmd one") < text.index("+0.500") < text.index("cmd two") < text.index("-0.500")
    )
    assert "above zero: target met" in text and "NOT above zero" in text


def test_bench_guided_overrides_reach_the_bot_and_the_card(capsys):
    """``bench.models``: ``--prior-temperature`` / ``--prior-mix`` set the guided bot's search,
    the card line names them, and out-of-range values are refused before anything runs."""
    from quansu.bench.models import _bot, card_section, main

    game = games.make("tienlen", 4)
    bot = _bot("guided", game, 50.0, 0, prior_temperature=0.5, prior_mix=0.25)
    assert (bot.config.prior_temperature, bot.config.prior_mix) == (0.5, 0.25)
    assert bot.config.time_s == 0.05
    plain = _bot("guided", game, 50.0, 0)
    assert (plain.config.prior_temperature, plain.config.prior_mix) == (1.0, 0.0)
    m = {
        "payoff_mean": 0.1,
        "ci95": [0.0, 0.2],
        "deals": 4,
        "above_zero": False,
        "ms_per_move": 50.0,
        "guided_leaf_value": "rollout",
        "guided_batch": 1,
        "prior_temperature": 0.5,
        "prior_mix": 0.25,
    }
    text = card_section([("cmd", {"players": 4, "guided_vs_uniform": m})])
    assert "prior temperature 0.5" in text and "prior mix 0.25" in text
    for flag, value in (("--prior-mix", "1.5"), ("--prior-temperature", "0")):
        with pytest.raises(SystemExit):
            main(["--game", "tienlen", "--only", "guided", flag, value])
        assert flag in capsys.readouterr().err


def test_the_heuristic_feature_generator_is_seeded_only_when_drawn_from():
    """The heuristic-choice feature asks the bot with ``random.Random(0)``'s numbers, made only
    when the bot draws (``games.base.SeededOnUse``, also the paired evaluation's playouts)."""
    from quansu.games.base import SeededOnUse

    lazy = SeededOnUse(0)
    assert lazy._rng is None
    ref = random.Random(0)
    assert [lazy.random(), lazy.randrange(52), lazy.getrandbits(63)] == [
        ref.random(),
        ref.randrange(52),
        ref.getrandbits(63),
    ]
    xs, ys = list(range(20)), list(range(20))
    lazy.shuffle(xs)
    ref.shuffle(ys)
    assert xs == ys and isinstance(lazy._rng, random.Random)


@pytest.mark.parametrize("name", WITH_MODEL[-1:])
def test_canary_command_rewrites_a_models_canary(name, tmp_path, capsys):
    from quansu.models.canary import main

    shipped = default_model_path(name)
    copy = tmp_path / f"{name}.onnx"
    copy.write_bytes(shipped.read_bytes())
    assert main([name, "--model", str(copy)]) == 0
    assert "wrote" in capsys.readouterr().out
    got, want = (
        read_canary(copy.with_suffix(".canary.json")),
        read_canary(shipped.with_suffix(".canary.json")),
    )
    assert got["plies"] == want["plies"]
    for key in ("states", "moves", "move_state", "logits", "values"):
        np.testing.assert_allclose(got[key], want[key], atol=1e-5)
