"""A Suggest without a seed takes one derived from the view's content (issue 45: the same
question gets the same advice), in the engine, through the CLI's ``hint`` and in ``quansu
play``'s hints."""

from __future__ import annotations

import io
import json

from quansu import cli
from quansu.cli import hint as cmd_hint
from quansu.server.engine import build_engine, view_seed
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import view_message, view_to_act


def _hint(engine, view, seed=None) -> pb.SuggestResponse:
    req = pb.SuggestRequest(view=view_message(view), top_k=64)
    req.budget.iterations = 40
    if seed is not None:
        req.seed = seed
    return engine.suggest(req)


def _answer(resp: pb.SuggestResponse) -> list:
    return [(m.move.text, round(m.expected_payoff, 9), m.visits) for m in resp.moves]


def test_the_same_view_without_a_seed_gets_the_same_hint():
    engine = build_engine(uniform=True)
    views = [view_to_act("tienlen", 4, seed=s) for s in (21, 40)]
    seeds = [view_seed(view_message(v)) for v in views]
    assert seeds[0] != seeds[1]  # a digest of the content, not a constant
    for view, seed in zip(views, seeds):
        first, again = _hint(engine, view), _hint(engine, view)
        assert _answer(first) == _answer(again) and first.chosen == again.chosen
        # it is the view's seed: the same answer as that seed passed explicitly
        assert _answer(_hint(engine, view, seed=seed)) == _answer(first)


def test_the_cli_hint_without_a_seed_answers_the_same_twice(tmp_path):
    view = view_to_act("phom", 4, seed=23)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    outs = []
    for _ in range(2):
        out = io.StringIO()
        args = cli.build_parser("hint").parse_args(
            ["hint", str(path), "--uniform", "--iterations", "40", "--json"]
        )
        assert cmd_hint.run(args, out=out) == 0
        resp = json.loads(out.getvalue())
        resp["stats"].pop("elapsed_ms", None)
        outs.append(resp)
    assert outs[0] == outs[1]
