"""ARCHITECTURE.md's layers, checked on the source: every ``import`` of every module (also the
ones inside functions) reaches only the layers before its own, and each exception named in
ARCHITECTURE.md is listed here with the reason it is allowed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: beside the layers, importing none of ours: the charts (matplotlib, outside the serving path)
BESIDE = ("quansu.plot",)
#: folder -> (the package it installs as, the packages its modules may import)
LAYERS = {
    "games": ("quansu.games", ("quansu.games",)),
    "search": ("quansu.search", ("quansu.search", "quansu.games.base", "quansu.games._cy")),
    "models": ("quansu.models", ("quansu.models", "quansu.search", "quansu.games")),
    "server": (
        "quansu.server",
        (
            "quansu.server",
            "quansu.models",
            "quansu.search",
            "quansu.games",
            "quansu.proto",
            "quansu.__version__",
        ),
    ),
}
#: module -> what it may import besides its layer's packages, and why
EXCEPTIONS = {
    # `quansu train --algo dmc --ray`: the self-play actors as Ray actors, imported lazily
    "quansu.models.training.dmc": ("quansu.server.ray_cluster",),
    # `quansu serve --replicas` is run by this server module, which reaches the command
    # line's flags and texts and the client lazily, inside the functions that back that command
    # (ARCHITECTURE.md, "Layers")
    "quansu.server.replicas": ("quansu.client", "quansu.cli.serve", "quansu.cli.i18n"),
    # the client's old path, a re-export kept for one release (the client is quansu.client)
    "quansu.server.client": ("quansu.client",),
}


def _modules(folder: str):
    pkg = LAYERS[folder][0]
    for path in sorted((ROOT / folder).rglob("*.py")):
        rel = path.relative_to(ROOT / folder).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        if "v1" in parts:  # generated protobuf code
            continue
        yield ".".join([pkg, *parts]), path


def _imports(module: str, path: Path):
    """Every absolute name ``module`` imports of quansu (``from X import Y`` gives ``X.Y``)."""
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("quansu"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the package
                pkg = module.split(".") if is_pkg else module.split(".")[:-1]
                pkg = pkg[: len(pkg) - node.level + 1]
                base = ".".join(pkg + ([base] if base else []))
            if base.startswith("quansu"):
                yield from (f"{base}.{a.name}" for a in node.names)


def _allowed(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("folder", sorted(LAYERS))
def test_each_layer_imports_only_the_layers_before_it(folder):
    allowed = LAYERS[folder][1]
    wrong = []
    for module, path in _modules(folder):
        extra = EXCEPTIONS.get(module, ())
        for name in _imports(module, path):
            if not _allowed(name, allowed + extra + BESIDE):
                wrong.append(f"{path.relative_to(ROOT)}: {name}")
    assert not wrong, "imports that run up the layers:\n" + "\n".join(wrong)


def test_the_charts_import_none_of_ours():
    assert not list(_imports("quansu.plot", ROOT / "quansu" / "plot.py"))


def test_the_checker_sees_lazy_and_relative_imports(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("from . import rules\ndef f():\n    from quansu.server import engine\n")
    names = set(_imports("quansu.games.tan.m", src))
    assert names == {"quansu.games.tan.rules", "quansu.server.engine"}
    assert not _allowed("quansu.server.engine", LAYERS["games"][1])
