"""The compiled core gives the same results as pure Python (issue 22 item 2).

``pip install .`` compiles the modules of :data:`search.compiled.CORE` with Cython when Cython
and a C compiler are available (setup.py).  Here a wheel is built from a copy of the checkout,
installed into a fresh venv, and the same script runs in that venv (compiled) and in this
interpreter (the editable install: pure Python).  Both must print the same digests of:

* thousands of random games under random options and player counts: every legal move list, the
  heuristic's move with a fixed generator (and the generator state after it), the sparring
  bot's move every fifth decision, the
  determinizations' information states, clones, the payoffs and settlements at the end;
* the conformance check (:func:`games.conformance.check_game`) of every game and player count;
* the replay of every record of tests/data/records;
* a search per game with a fixed seed and iteration budget (ranking, visits, means, lines);
* the shipped network's features (models/encoders/base.py, compiled too) along a game, and a
  search guided by the network with the service's settings.

Skipped without Cython or a C compiler (``pip install cython``); slow (minutes: the compile).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

DIGEST = r'''
import hashlib, json, random, sys
from pathlib import Path
from quansu import games
from quansu.games.conformance import check_game
from quansu.games.record import replay_record
from quansu.search import SearchConfig, search
from quansu.search.compiled import describe

GAMES_PER_GAME = int(sys.argv[1])
RECORDS = Path(sys.argv[2])


def options(cls, rng):
    out = {}
    for spec in cls.option_specs:
        if spec.choices:
            out[spec.name] = rng.choice(list(spec.choices))
        elif isinstance(spec.default, bool):
            out[spec.name] = rng.random() < 0.5
    return out


def games_digest(name):
    cls = games.game_classes()[name]
    rng = random.Random(1)
    h = hashlib.sha256()
    put = lambda *x: h.update(repr(x).encode())
    for gi in range(GAMES_PER_GAME):
        try:
            game = games.make(name, rng.randint(cls.min_players, cls.max_players),
                              options(cls, rng) if gi % 3 else {})
        except games.GameError as e:
            put("options", str(e))
            continue
        n = game.num_players
        st = game.new_initial_state(random.Random(rng.getrandbits(32)))
        step = 0
        while not st.is_terminal():
            p = st.current_player
            legal = st.legal_moves()
            put(step, p, legal)
            r = random.Random(rng.getrandbits(32))
            hm = game.heuristic_move(st, r)
            put("h", hm, r.random())
            if step % 5 == 0:
                r = random.Random(rng.getrandbits(32))
                put("s", game.sparring_move(st, r), r.random())
            if step % 3 == 0:
                d = st.determinize(p, random.Random(rng.getrandbits(32)))
                put("d", [d.information_state_key(q) for q in range(n)], d.legal_moves())
            move = hm if rng.random() < 0.6 else legal[rng.randrange(len(legal))]
            c = st.clone()
            c.apply_unchecked(move)
            st.apply(move)
            put("k", st.information_state_key(p) == c.information_state_key(p),
                st.information_state_key(p))
            step += 1
        put("end", st.returns(), st.settlement(), st.history)
    return h.hexdigest()


def conformance_digest(name):
    cls = games.game_classes()[name]
    out = []
    for n in range(cls.min_players, cls.max_players + 1):
        out.append(repr(check_game(games.make(name, n), games=4, seed=n)))
    return hashlib.sha256("".join(out).encode()).hexdigest()


def records_digest():
    h = hashlib.sha256()
    for path in sorted(RECORDS.glob("*/*.json")):
        if path.name.endswith(".expect.json"):
            continue
        try:
            st = replay_record(json.loads(path.read_text()))
            h.update(repr((path.name, st.returns(), st.history)).encode())
        except Exception as e:
            h.update(repr((path.name, type(e).__name__, str(e))).encode())
    return h.hexdigest()


def search_digest(name):
    game = games.make(name, 4)
    rng = random.Random(7)
    out = []
    for k in range(2):
        st = game.new_initial_state(rng)
        for _ in range(rng.randint(3, 15)):
            if st.is_terminal():
                break
            st.apply(game.heuristic_move(st, rng))
        if st.is_terminal():
            continue
        res = search(st, SearchConfig(iterations=150), seed=k)
        out.append([(m.move, m.visits, m.mean, m.lcb, m.line) for m in res.moves])
        out.append((res.iterations, res.tree_size, res.max_depth))
    return hashlib.sha256(repr(out).encode()).hexdigest()


def network_digest(name):
    """The shipped network's features and a search guided by it: the encoder of every decision
    of one game of the heuristic bots (the seat to act's state and legal moves), then a search
    with the service's settings and evaluator from the middle of that game."""
    from quansu.server.evaluators import EvaluatorSet
    game = games.make(name, 4)
    ev, cfg = EvaluatorSet().for_game(game)
    enc = ev.encoder
    rng = random.Random(11)
    st = game.new_initial_state(rng)
    h = hashlib.sha256()
    states = []
    while not st.is_terminal():
        p = st.current_player
        legal = st.legal_moves()
        h.update(enc.encode_state(st, p).tobytes())
        h.update(enc.encode_moves(st, legal).tobytes())
        states.append(st.clone())
        st.apply(game.heuristic_move(st, rng))
    mid = next(s for s in states[len(states) // 2:] + states if len(s.legal_moves()) > 1)
    res = search(mid, cfg.replace(iterations=100, time_s=None), ev, seed=5)
    h.update(repr([(m.move, m.visits, m.mean, m.prior, m.line) for m in res.moves]).encode())
    return h.hexdigest()


result = {"core": describe(), "records": records_digest()}
for name in games.game_names():
    result[name] = {"games": games_digest(name), "conformance": conformance_digest(name),
                    "search": search_digest(name), "network": network_digest(name)}
print(json.dumps(result))
'''


def _compiler_available() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


@pytest.fixture(scope="module")
def compiled_python(tmp_path_factory) -> Path:
    pytest.importorskip("Cython", reason="the compiled core needs Cython (pip install cython)")
    if not _compiler_available():
        pytest.skip("no C compiler")
    where = tmp_path_factory.mktemp("compiled")
    src = where / "src"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv*",
            "build",
            "dist",
            "*.egg-info",
            "__pycache__",
            ".pytest_cache",
            "runs",
            "*.pyc",
            "*.so",
            "*.c",
        ),
    )
    wheels = where / "wheels"
    # -v: the build's own lines (what it compiles, how to skip it) are kept in build.log
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-v",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(wheels),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (where / "build.log").write_text(r.stdout + r.stderr)
    wheel = next(wheels.glob("quansu-*.whl"))
    venv = where / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_quansu_test_deps.pth").write_text("".join(f"{p}\n" for p in sorted(deps)))
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    r = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return python


def _digest(python: Path | str, tmp: Path, games_per_game: int) -> dict:
    script = tmp / "digest.py"
    script.write_text(DIGEST)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    r = subprocess.run(
        [str(python), str(script), str(games_per_game), str(ROOT / "tests" / "data" / "records")],
        capture_output=True,
        text=True,
        cwd=tmp,
        env=env,
        timeout=3600,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_build_says_what_it_compiles_and_how_to_skip_it(compiled_python):
    """pip shows only "still running..." during the minutes of the compiled build: the build
    tells the terminal what it compiles, that it takes minutes and how to skip it."""
    log = (compiled_python.parent.parent.parent / "build.log").read_text()
    from quansu.search.compiled import CORE

    n = len(CORE)
    assert f"quansu: compiling the search core ({n} modules" in log, log[-2000:]
    assert "QUANSU_PURE_PYTHON=1 pip install ." in log
    assert f"quansu: compiled {n}/{n}: " in log


def test_the_wheel_holds_the_compiled_core(compiled_python, tmp_path):
    r = subprocess.run(
        [str(compiled_python), "-m", "quansu.search.compiled"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("core: compiled ("), r.stdout
    r = subprocess.run(
        [str(compiled_python), "-m", "quansu", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith(" (compiled core)"), r.stdout
    assert (compiled_python.parent / "quansu").is_file()  # the console script too
    r = subprocess.run(
        [str(compiled_python.parent / "quansu"), "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.stdout.strip().endswith(" (compiled core)"), r.stdout + r.stderr


def test_the_compiled_states_are_extension_types(compiled_python, tmp_path):
    """The Tiến lên and Tấn states and the search tree's node are compiled as extension types
    (their ``.pxd`` files were found: setup.py's PXD_DIRS), not as ordinary (heap-allocated)
    classes; pickling and copying the states still work."""
    code = (
        "import copy, pickle, random\n"
        "from quansu import games\n"
        "for name in ('tienlen', 'tan'):\n"
        "    st = games.make(name, 4).new_initial_state(random.Random(3))\n"
        "    st.apply(st.legal_moves()[0])\n"
        "    heap = bool(type(st).__flags__ & (1 << 9))   # Py_TPFLAGS_HEAPTYPE\n"
        "    back = pickle.loads(pickle.dumps(st))\n"
        "    same = back.information_state_key(0) == st.information_state_key(0)\n"
        "    print(name, 'heap' if heap else 'extension', same,"
        " copy.copy(st).history == st.history)\n"
        "from quansu.search.ismcts import _Node\n"
        "print('node', 'heap' if _Node.__flags__ & (1 << 9) else 'extension')\n"
    )
    r = subprocess.run(
        [str(compiled_python), "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:3] == [
        "tienlen extension True True",
        "tan extension True True",
        "node extension",
    ]


def test_compiled_and_pure_python_builds_agree(compiled_python, tmp_path):
    compiled = _digest(compiled_python, tmp_path, 600)
    pure = _digest(sys.executable, tmp_path, 600)
    assert compiled.pop("core").startswith("core: compiled")
    assert pure.pop("core") == "core: pure Python"
    assert compiled == pure


def test_the_pure_python_build_runs_without_cython(tmp_path):
    """The typed modules of the core import ``cython`` for their annotations and fall back to
    ``games/_cy.py`` when Cython is not installed (a runtime install has none): with ``import
    cython`` failing they must load and give the same digests."""
    script = tmp_path / "digest.py"
    script.write_text(DIGEST)
    blocked = tmp_path / "no_cython.py"
    blocked.write_text(
        "import runpy, sys\nsys.modules['cython'] = None   # import cython fails\n"
        "sys.argv = sys.argv[1:]\nrunpy.run_path(sys.argv[0], run_name='__main__')\n"
        "assert sys.modules['quansu.games.tienlen.heuristic'].cython.__name__ "
        "== 'quansu.games._cy'\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    out = []
    for argv in ([str(script)], [str(blocked), str(script)]):
        r = subprocess.run(
            [sys.executable, *argv, "40", str(ROOT / "tests" / "data" / "records")],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=1800,
        )
        assert r.returncode == 0, r.stderr
        out.append(json.loads(r.stdout))
    assert out[0] == out[1]
