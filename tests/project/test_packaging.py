"""One import package, ``quansu``: pyproject names every subpackage; an app's own ``models.py``,
``server.py``, ... neither shadow quansu nor get shadowed by it; proto-plus (import name
``proto``) lives beside it; a plain ``pip install .`` works from outside the checkout; and a
server imports and loads everything before it reports SERVING (fail fast, nothing imported on
the request path)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

import quansu

ROOT = Path(__file__).resolve().parents[2]
#: The repository folders that are subpackages of ``quansu`` (pyproject's package-dir).
SUBPACKAGE_DIRS = ("games", "search", "models", "server", "bench")
EXAMPLES = ROOT / "docs" / "examples"
SHADOW_NAMES = ("models", "server", "games", "proto", "search", "bench")


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _run(args, cwd, env=None, timeout=120, input=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, input=input
    )


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(extra)
    return env


def _version_line(build: str = "pure Python") -> str:
    """What ``quansu --version`` prints: the version and the build of the hot paths
    (``search.compiled``): the editable dev install and :func:`install_copy` are pure Python."""
    return f"quansu {quansu.__version__} ({build})"


def _quansu_script() -> str:
    """The ``quansu`` console script of the interpreter running the tests."""
    script = Path(sys.executable).parent / "quansu"
    assert script.is_file(), f"no console script at {script}: pip install -e '.[dev]'"
    return str(script)


# -- item 1: the package list -------------------------------------------------------------------
def test_pyproject_lists_every_subpackage():
    tool = _pyproject()["tool"]["setuptools"]
    listed = set(tool["packages"])
    dirs = tool["package-dir"]
    expected = {"quansu"}
    for top in SUBPACKAGE_DIRS:
        assert dirs.get(f"quansu.{top}") == top, f"package-dir must map quansu.{top} to {top}/"
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT)
            if "__pycache__" in rel.parts:
                continue
            expected.add("quansu." + ".".join(rel.parts))
    # and the subpackages of the quansu/ folder itself (quansu.cli = quansu/cli/)
    for init in (ROOT / "quansu").rglob("__init__.py"):
        rel = init.parent.relative_to(ROOT)
        if "__pycache__" not in rel.parts:
            expected.add(".".join(rel.parts))
    missing = sorted(expected - listed)
    assert not missing, f"pyproject.toml [tool.setuptools] packages lacks {missing}"
    # and nothing listed is stale: each listed package is a folder of the tree
    for name in listed:
        parts = name.split(".")
        if ".".join(parts[:2]) in dirs:
            folder = (ROOT / dirs[".".join(parts[:2])]).joinpath(*parts[2:])
        else:  # a subpackage of the quansu/ folder (package-dir "quansu" = "quansu")
            folder = (ROOT / dirs.get("quansu", "quansu")).joinpath(*parts[1:])
        assert folder.is_dir(), f"pyproject.toml lists {name}, but {folder} does not exist"
    assert (ROOT / "quansu" / "__init__.py").is_file() and (
        ROOT / "quansu" / "__main__.py"
    ).is_file()


def test_a_new_subpackage_would_be_caught(tmp_path):
    """The check above walks the folders: a subpackage added on disk is expected in the list."""
    found = {
        p.parent.relative_to(ROOT).as_posix()
        for top in (*SUBPACKAGE_DIRS, "quansu")
        for p in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert {"games/tienlen", "models/encoders", "server/v1", "quansu/cli"} <= found


def test_the_old_client_path_still_works():
    """``quansu.server.client`` re-exports :mod:`quansu.client` (kept for one release)."""
    import quansu.client as new
    import quansu.server.client as old

    public = [
        n
        for n in vars(new)
        if not n.startswith("_") and getattr(vars(new)[n], "__module__", None) == new.__name__
    ]
    assert {"Client", "ServerBusy", "TargetError", "build_view", "normalize_target"} <= set(public)
    for name in [*public, "DEFAULT_PORT", "RecordOrView"]:
        assert getattr(old, name) is getattr(new, name), name


def test_import_from_the_checkout_root_and_elsewhere(tmp_path):
    code = "import quansu, quansu.games, quansu.client; print(quansu.games.__file__)"
    for cwd in (ROOT, tmp_path):
        r = _run([sys.executable, "-c", code], cwd=cwd, env=_clean_env())
        assert r.returncode == 0, r.stderr
        assert Path(r.stdout.strip()).name == "__init__.py"


def test_python_dash_m_quansu(tmp_path):
    r = _run([sys.executable, "-m", "quansu", "--version"], cwd=tmp_path, env=_clean_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == _version_line()


def test_version_names_the_build(tmp_path, monkeypatch):
    """``quansu --version`` says which build is installed, from the extension files beside the
    core's sources (nothing imported)."""
    from quansu.cli import version_line
    from quansu.search import compiled

    assert version_line() == _version_line()  # the editable install: pure Python
    monkeypatch.setattr(compiled, "_root", lambda: str(tmp_path))
    assert compiled.version_label() == "pure Python"
    suffix = compiled._EXTENSION[0]
    names = list(compiled.CORE.values())
    for i, src in enumerate(names):
        path = tmp_path / (src[:-3] + suffix)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
        if i == 0:
            assert compiled.version_label() == f"mixed core: 1 of {len(names)} modules compiled"
    assert compiled.version_label() == "compiled core"
    assert version_line() == _version_line("compiled core")


# -- item 1: an app's own modules ---------------------------------------------------------------
@pytest.fixture()
def app_dir(tmp_path):
    """A working directory holding an app's own modules named like quansu's subpackages; each
    says on stderr when it is imported."""
    for name in SHADOW_NAMES:
        (tmp_path / f"{name}.py").write_text(
            textwrap.dedent(f"""\
            import sys
            sys.stderr.write("the app's own {name}.py was imported\\n")
            OWNER = "app"
        """)
        )
    return tmp_path


def test_app_modules_change_nothing_for_the_client(app_dir):
    from quansu.models.evaluator import default_model_path

    code = textwrap.dedent("""\
        import json
        import quansu.client
        from quansu.server.evaluators import EvaluatorSet
        print(json.dumps(EvaluatorSet().model_names()))
    """)
    r = _run([sys.executable, "-c", code], cwd=app_dir, env=_clean_env())
    assert r.returncode == 0, r.stderr
    assert "the app's own" not in r.stderr
    names = json.loads(r.stdout)
    assert set(names) == {"tienlen", "phom", "samloc", "tan"}
    for game, model in names.items():
        shipped = default_model_path(game)
        assert model == (shipped.name if shipped.is_file() else "uniform"), game
    if default_model_path("tienlen").is_file():
        assert names["tienlen"] == "tienlen.onnx"  # the network, not "uniform"


def test_quansu_does_not_shadow_the_apps_modules(app_dir):
    code = textwrap.dedent(f"""\
        import quansu.client, quansu.server.engine, quansu.models.evaluator
        import {", ".join(SHADOW_NAMES)}
        for m in ({", ".join(SHADOW_NAMES)}):
            assert m.OWNER == "app", m
        print("ok")
    """)
    r = _run([sys.executable, "-c", code], cwd=app_dir, env=_clean_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"
    assert r.stderr.count("the app's own") == len(SHADOW_NAMES)


def test_app_modules_change_nothing_for_the_cli(app_dir):
    env = _clean_env()
    for cmd in ([_quansu_script()], [sys.executable, "-m", "quansu"]):  # -m puts the cwd first
        r = _run(cmd + ["--version"], cwd=app_dir, env=env)
        assert r.returncode == 0 and r.stdout.strip() == _version_line(), r.stderr
        r = _run(cmd + ["replay", str(EXAMPLES / "tienlen.record.json")], cwd=app_dir, env=env)
        assert r.returncode == 0, r.stderr
        assert "result: agrees with the settlement" in r.stdout
        assert "the app's own" not in r.stderr
        r = _run(
            cmd
            + [
                "hint",
                str(EXAMPLES / "tienlen.view.json"),
                "--iterations",
                "20",
                "--seed",
                "1",
                "--json",
            ],
            cwd=app_dir,
            env=env,
        )
        assert r.returncode == 0, r.stderr
        assert "the app's own" not in r.stderr
        from quansu.models.evaluator import default_model_path

        if default_model_path("tienlen").is_file():
            assert json.loads(r.stdout)["model"] == "tienlen.onnx"


# -- item 1: proto-plus beside quansu -----------------------------------------------------------
PROTO_PLUS_CHECK = textwrap.dedent("""\
    import proto
    import quansu.client as qc
    from google.protobuf import json_format
    from quansu.server import convert

    assert hasattr(proto, "Message") and hasattr(proto, "Field"), proto.__file__

    class Seat(proto.Message):
        name = proto.Field(proto.STRING, number=1)
        cards = proto.RepeatedField(proto.STRING, number=2)

    s = Seat(name="north", cards=["3S", "2H"])
    assert Seat.deserialize(Seat.serialize(s)) == s
    assert Seat.from_json(Seat.to_json(s)) == s

    view = qc.build_view("tienlen", players=4, seat=0,
                         hand="3S 5D 6C 7H 8H 9S TC JD QS KH AS 2C 2H", moves=[(0, "3S")])
    back = type(view).FromString(view.SerializeToString())
    assert back == view
    obj = json_format.MessageToDict(view, preserving_proto_field_name=True)
    assert convert.record_message(obj) == view
    req = qc.Client.suggest_request(view, iterations=10, seed=3)
    assert type(req).FromString(req.SerializeToString()) == req
    print(proto.__file__)
""")


def test_proto_plus_beside_quansu(tmp_path):
    try:
        import importlib.metadata as md

        md.version("proto-plus")
    except md.PackageNotFoundError:
        pytest.fail(
            "proto-plus is not installed: it is part of the dev extra (pip install -e '.[dev]')"
        )
    for cwd in (tmp_path, ROOT):  # also in the checkout, beside its proto/ folder
        r = _run([sys.executable, "-c", PROTO_PLUS_CHECK], cwd=cwd, env=_clean_env())
        assert r.returncode == 0, r.stderr
        assert Path(r.stdout.strip()).parent.name == "proto"
        assert not Path(r.stdout.strip()).is_relative_to(ROOT / "proto")


# -- item 2: everything imported at start -------------------------------------------------------
def test_preload_imports_every_module_a_request_can_reach(tmp_path):
    code = textwrap.dedent("""\
        import json, pkgutil, sys
        import quansu.games
        before = set(sys.modules)
        from quansu.server.app import preload_modules, start_worker_engine
        from quansu.server.engine import Limits
        preload_modules()
        games = [m.name for m in pkgutil.walk_packages(quansu.games.__path__, "quansu.games.")]
        engine = start_worker_engine(Limits(), False, ())
        print(json.dumps({"games": games, "loaded": sorted(sys.modules),
                          "models": engine.model_names()}))
    """)
    r = _run([sys.executable, "-c", code], cwd=tmp_path, env=_clean_env())
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    loaded = set(out["loaded"])
    # every module of every game, including those the games import on first use
    assert {
        "quansu.games.phom.view",
        "quansu.games.phom.heuristic",
        "quansu.games.tan.view",
        "quansu.games.tan.heuristic",
        "quansu.games.samloc.heuristic",
    } <= set(out["games"])
    assert set(out["games"]) <= loaded
    assert {
        "quansu.search.ismcts",
        "quansu.search.levels",
        "quansu.models.bots",
        "quansu.models.evaluator",
        "quansu.server.engine",
        "quansu.server.reasons",
    } <= loaded
    for game, model in out["models"].items():
        if model != "uniform":  # its network and encoder are loaded and were run once
            assert f"quansu.models.encoders.{game}" in loaded
            assert "onnxruntime" in loaded
    assert not any(m.startswith("quansu.models.training") for m in loaded)  # no torch
    assert "torch" not in loaded


def test_load_all_names_a_broken_game_module(monkeypatch):
    from quansu.games import registry

    monkeypatch.setitem(sys.modules, "quansu.games.tan.view", None)  # import now fails
    with pytest.raises(ImportError, match=r"cannot import quansu\.games\.tan\.view"):
        registry.load_all()


# -- item 1 and 2: a plain (not editable) install -----------------------------------------------
@dataclass
class Installed:
    venv: Path
    python: Path
    site: Path
    env: dict

    def script(self) -> str:
        return str(self.venv / "bin" / "quansu")


def _copy_source(dest: Path) -> Path:
    skip = shutil.ignore_patterns(
        ".git",
        ".venv*",
        "build",
        "dist",
        "*.egg-info",
        "__pycache__",
        ".pytest_cache",
        "runs",
        "*.pyc",
    )
    shutil.copytree(ROOT, dest, ignore=skip)
    return dest


def install_copy(where: Path) -> Installed:
    """``pip install .`` (not editable) of a copy of the checkout into a fresh venv, without
    network: the venv reaches the test venv's packages (the dependencies, pip, setuptools)
    through a ``.pth`` path line, and quansu itself is built and installed with
    ``--no-deps --no-build-isolation --no-index``, pure Python (``QUANSU_PURE_PYTHON=1``)."""
    try:
        import setuptools  # noqa: F401
    except ImportError:
        pytest.fail(
            "setuptools is not installed: it is part of the dev extra (pip install -e '.[dev]')"
        )
    src = _copy_source(where / "src")
    venv = where / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = venv / "bin" / "python"
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            cwd=where,
        ).stdout.strip()
    )
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_quansu_test_deps.pth").write_text("".join(f"{p}\n" for p in sorted(deps)))
    env = _clean_env(
        VIRTUAL_ENV=str(venv),
        PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_INPUT="1",
    )
    # the pure-Python build: these tests are about packaging, and compiling the core would cost
    # minutes per install (tests/search/test_compiled_core.py builds and checks the compiled one)
    r = _run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--quiet",
            str(src),
        ],
        cwd=where,
        env=dict(env, QUANSU_PURE_PYTHON="1"),
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    shutil.rmtree(src)  # the installed copy must not need the source
    return Installed(venv, python, site, env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    return install_copy(tmp_path_factory.mktemp("install"))


@pytest.mark.slow
def test_installed_copy_works_outside_the_checkout(installed, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = textwrap.dedent("""\
        import json, quansu
        from quansu.games.registry import make
        from quansu.models.evaluator import default_model_path, load_model
        from quansu.server.evaluators import EvaluatorSet
        shipped = {g: str(default_model_path(g)) for g in ("tienlen", "phom", "samloc", "tan")
                   if default_model_path(g).is_file()}
        for g, path in shipped.items():
            load_model(make(g, 4), path)
        print(json.dumps({"file": quansu.__file__, "version": quansu.__version__,
                          "shipped": shipped, "served": EvaluatorSet().model_names()}))
    """)
    r = _run([str(installed.python), "-c", code], cwd=elsewhere, env=installed.env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert not Path(out["file"]).is_relative_to(ROOT), out["file"]
    assert Path(out["file"]).is_relative_to(installed.site), out["file"]
    assert out["version"] == quansu.__version__
    in_checkout = sorted(p.stem for p in (ROOT / "models").glob("*.onnx"))
    assert sorted(out["shipped"]) == in_checkout  # the .onnx files are package data
    for game, path in out["shipped"].items():
        assert Path(path).is_relative_to(installed.site)
        assert out["served"][game] == f"{game}.onnx"
    protos = sorted(
        p.name for p in (installed.site / "quansu" / "proto" / "quansu" / "v1").glob("*.proto")
    )
    assert protos == ["records.proto", "service.proto"]
    # the console script
    r = _run([installed.script(), "--version"], cwd=elsewhere, env=installed.env)
    assert r.returncode == 0 and r.stdout.strip() == _version_line(), r.stderr
    record = (EXAMPLES / "tienlen.record.json").read_text()
    r = _run([installed.script(), "replay", "-"], cwd=elsewhere, env=installed.env, input=record)
    assert r.returncode == 0, r.stderr
    assert "result: agrees with the settlement" in r.stdout
    r = _run(
        [str(installed.python), "-m", "quansu", "replay", str(EXAMPLES / "tienlen.record.json")],
        cwd=elsewhere,
        env=installed.env,
    )
    assert r.returncode == 0 and "game over after" in r.stdout, r.stderr


@pytest.mark.slow
def test_python_dash_m_quansu_at_the_checkout_root_after_a_plain_install(installed):
    """``python -m quansu`` puts the current folder first on ``sys.path``: at the repository
    root it finds the checkout's ``quansu/`` folder (no subpackages there) before the installed
    package.  It must still run, and run the installed package (its build, not the sources)."""
    r = _run(
        [str(installed.python), "-m", "quansu", "replay", str(EXAMPLES / "tienlen.record.json")],
        cwd=ROOT,
        env=installed.env,
    )
    assert r.returncode == 0 and "game over after" in r.stdout, r.stderr
    code = "import quansu.cli as m; print(m.__file__)"
    r = _run([str(installed.python), "-c", code], cwd=ROOT, env=installed.env)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()).is_relative_to(installed.site), r.stdout


def _start_server(installed: Installed, cwd: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            installed.script(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--workers",
            "1",
            "--log-level",
            "WARNING",
            *extra,
        ],
        cwd=cwd,
        env=installed.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.slow
def test_a_server_keeps_serving_when_its_files_go_away(tmp_path):
    """Every game module and every model is loaded before SERVING: removing the whole installed
    package under a running server (as a reinstall does) breaks no request of any game."""
    from tests.helpers.service import client, long_record
    from tests.service.test_service_cli import view_with_a_choice

    inst = install_copy(tmp_path)
    proc = _start_server(inst, tmp_path)
    try:
        line = proc.stdout.readline()
        assert "serving on" in line, line + proc.stderr.read()
        assert line.startswith(f"quansu {quansu.__version__} serving on"), line
        port = int(line.split("serving on ")[1].split()[0].rsplit(":", 1)[1])
        shutil.rmtree(inst.site / "quansu")
        with client(f"127.0.0.1:{port}") as c:
            assert c.health() == "SERVING"
            models = {g.name: g.model for g in c.describe_games().games}
            assert set(models) == {"tienlen", "phom", "samloc", "tan"}
            for game in sorted(models):
                view = view_with_a_choice(game)
                resp = c.suggest(view, iterations=10, seed=1)
                assert resp.stats.iterations == 10 and resp.model == models[game], game
                final = list(c.suggest_stream(view, iterations=10, seed=1))[-1]
                assert final.final, game
                assert c.legal_moves(view).moves, game
                items = list(
                    c.analyze(long_record(game, 4, min_moves=4, seed=2), seats=[0], iterations=4)
                )
                assert items[-1].WhichOneof("item") == "summary", game
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    finally:
        _stop(proc)


@pytest.mark.slow
def test_a_server_with_a_missing_module_does_not_start(tmp_path):
    inst = install_copy(tmp_path)
    (inst.site / "quansu" / "games" / "tan" / "view.py").unlink()
    proc = _start_server(inst, tmp_path, "--uniform")
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        _stop(proc)
    assert proc.returncode == 1, out + err
    assert "serving on" not in out
    assert "quansu.games.tan.view" in err and "Traceback" not in err, err
