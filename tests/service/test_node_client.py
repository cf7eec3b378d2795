"""The Node client's TypeScript types (clients/node/): generated from proto/, checked in.

``npm run gen-types`` (``proto-loader-gen-types`` of ``@grpc/proto-loader``) writes the message
and service types of ``proto/quansu/v1/*.proto`` into ``clients/node/types/``; ``index.d.ts``
types the client with them and ``npm run check-types`` (``tsc --noEmit``, strict, ``checkJs``)
checks ``example.js`` against them.  Here: the checked-in types are what the generator makes of
the current ``.proto`` files (not stale), the example type-checks, and a wrong field name or
type in code that uses the client is refused (the types constrain; they are not ``any``).
The example itself runs against a live server in tests/service/test_http_gateway.py.

These tests need ``node`` and the npm packages (``cd clients/node && npm ci``); without them
they skip, unless ``QUANSU_NODE_TESTS=required`` (set by ``.ci/run`` when node is present),
where they fail instead.
"""

from __future__ import annotations

import filecmp
import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "clients" / "node"
TYPES_DIR = NODE_DIR / "types"
PACKAGES = ("@grpc/grpc-js", "@grpc/proto-loader", "typescript", "@types/node")


def node_client_ready(packages=PACKAGES) -> str | None:
    """Why the Node client cannot run here (None: it can)."""
    if shutil.which("node") is None:
        return "node is not installed"
    for pkg in packages:
        if not (NODE_DIR / "node_modules" / pkg / "package.json").is_file():
            return f"{pkg} is not installed (cd clients/node && npm ci)"
    return None


def need_node_client(packages=PACKAGES) -> None:
    """Skip (or, with ``QUANSU_NODE_TESTS=required``, fail) when the client cannot run."""
    why = node_client_ready(packages)
    if why is None:
        return
    if os.environ.get("QUANSU_NODE_TESTS") == "required":
        pytest.fail(f"QUANSU_NODE_TESTS=required but {why}")
    pytest.skip(why)


def _script(name: str) -> list[str]:
    """The last command of an npm script, as argv (``a && b``: ``b``)."""
    text = json.loads((NODE_DIR / "package.json").read_text())["scripts"][name]
    return shlex.split(text.split("&&")[-1])


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def test_the_generated_types_are_not_stale(tmp_path):
    need_node_client()
    argv = _script("gen-types")
    assert argv[0] == "proto-loader-gen-types" and "--outDir=types" in argv
    out = tmp_path / "types"
    argv = [str(NODE_DIR / "node_modules" / ".bin" / argv[0])] + [
        f"--outDir={out}" if a == "--outDir=types" else a for a in argv[1:]
    ]
    r = subprocess.run(argv, cwd=NODE_DIR, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    fresh, checked_in = _files(out), _files(TYPES_DIR)
    assert fresh == checked_in, (
        f"run `npm run gen-types` in clients/node: files {sorted(fresh ^ checked_in)} differ"
    )
    stale = [
        name
        for name in sorted(fresh)
        if not filecmp.cmp(out / name, TYPES_DIR / name, shallow=False)
    ]
    assert not stale, f"run `npm run gen-types` in clients/node: {stale} are stale"
    # every message of the .proto files has its type
    protos = "".join(p.read_text() for p in (ROOT / "proto" / "quansu" / "v1").glob("*.proto"))
    for message in re.findall(r"^(?:message|enum) (\w+)", protos, re.M):
        assert f"quansu/v1/{message}.ts" in fresh, message


BAD_TS = """\
import {QuansuClient} from "%(index)s";

export async function misuse(client: QuansuClient): Promise<number> {
  const answer = await client.suggest({view: {game: "tienlen", seat: 0}, top_k: 3});
  await client.suggest({view: {game: "tienlen", seat: "zero"}});
  return answer.moves?.[0]?.expected_payof ?? 0;
}
"""


def test_the_example_type_checks_and_misuse_does_not(tmp_path):
    """One ``tsc --noEmit`` over the project's files (index.d.ts, example.js, types/) and a
    file that misuses the client: errors in that file only, on its two bad lines."""
    need_node_client()
    assert _script("check-types") == ["tsc", "--noEmit", "-p", "."]
    bad = tmp_path / "misuse.ts"
    bad.write_text(BAD_TS % {"index": (NODE_DIR / "index").as_posix()})
    base = json.loads((NODE_DIR / "tsconfig.json").read_text())
    config = {
        "compilerOptions": dict(
            base["compilerOptions"], typeRoots=[str(NODE_DIR / "node_modules" / "@types")]
        ),
        "include": [str(NODE_DIR / p) for p in base["include"]] + [str(bad)],
    }
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    tsc = NODE_DIR / "node_modules" / ".bin" / "tsc"
    r = subprocess.run(
        [str(tsc), "--noEmit", "--pretty", "false", "-p", str(tmp_path)],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in r.stdout.splitlines() if ": error TS" in line]
    assert r.returncode != 0 and errors, r.stdout + r.stderr
    where = {
        (Path(line.split("(")[0]).name, int(line.split("(")[1].split(",")[0])) for line in errors
    }
    assert where == {("misuse.ts", 5), ("misuse.ts", 6)}, r.stdout
    assert any("expected_payof" in line for line in errors)
    assert any("'string' is not assignable to type 'number'" in line for line in errors)
