"""Generate the Python code of the gRPC API from ``proto/quansu/v1/*.proto``.

    python scripts/gen_proto.py            # regenerate server/v1/ (and the Node client's types)
    python scripts/gen_proto.py --check    # exit 1 if server/v1/ is stale

The protos are compiled with ``grpc_tools.protoc`` (the ``grpcio-tools`` package, dev extra) with
``proto/`` as the include root, so the descriptors carry the file names ``quansu/v1/*.proto``
(as gRPC reflection shows them).  The generated modules import one another as
``quansu.v1.X_pb2``; those imports are rewritten to package-relative ones so that the code lives
in the ``server.v1`` package.  ``tests/service/test_service_proto.py`` runs :func:`generate` into a temporary
folder and compares it with the checked-in files.

The same run regenerates the Node client's TypeScript types (``clients/node/types``, ``npm run
gen-types``) when ``npm`` is installed and the client's packages are (``npm ci`` in
``clients/node``); otherwise it says how to.  ``tests/service/test_node_client.py`` checks those types.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PROTO_DIR = PROTO_ROOT / "quansu" / "v1"
OUT_DIR = ROOT / "server" / "v1"

INIT_TEXT = '''"""Generated gRPC/protobuf code of the quansu v1 API (``proto/quansu/v1``).

Do not edit: regenerate with ``python scripts/gen_proto.py``.
"""
'''

_IMPORT_RE = re.compile(r"^from quansu\.v1 import (\w+_pb2) as (\w+)$", re.M)
_IMPORT_RE2 = re.compile(r"^import quansu\.v1\.(\w+_pb2) as (\w+)$", re.M)


def proto_files() -> list[Path]:
    return sorted(PROTO_DIR.glob("*.proto"))


def _fix_imports(text: str) -> str:
    text = _IMPORT_RE.sub(r"from . import \1 as \2", text)
    return _IMPORT_RE2.sub(r"from . import \1 as \2", text)


def generate(out_dir: Path) -> list[Path]:
    """Compile every proto into ``out_dir`` (created); returns the files written."""
    try:
        import grpc_tools
        from grpc_tools import protoc
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise SystemExit("scripts/gen_proto.py needs grpcio-tools: pip install -e '.[dev]'") from e
    include = Path(grpc_tools.__file__).parent / "_proto"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "grpc_tools.protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
        ]
        args += [str(p.relative_to(PROTO_ROOT)) for p in proto_files()]
        rc = protoc.main(args)
        if rc != 0:
            raise SystemExit(f"protoc failed with exit code {rc}")
        written = []
        gen = Path(tmp) / "quansu" / "v1"
        for src in sorted(gen.iterdir()):
            if src.suffix not in (".py", ".pyi"):
                continue
            if src.name.endswith("_pb2_grpc.py") and "Stub" not in src.read_text():
                continue  # a proto without services
            dst = out_dir / src.name
            dst.write_text(_fix_imports(src.read_text()))
            written.append(dst)
    init = out_dir / "__init__.py"
    init.write_text(INIT_TEXT)
    written.append(init)
    return written


def stale_files(out_dir: Path = OUT_DIR) -> list[str]:
    """Names of the generated files whose checked-in text differs from a fresh generation
    (missing and extra files included)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = {p.name: p.read_text() for p in generate(Path(tmp))}
    have = {p.name: p.read_text() for p in out_dir.glob("*.py*")} if out_dir.is_dir() else {}
    names = sorted(set(fresh) | set(have))
    return [n for n in names if fresh.get(n) != have.get(n)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that server/v1 is up to date")
    args = ap.parse_args(argv)
    if args.check:
        stale = stale_files()
        if stale:
            print(
                "stale generated code in server/v1: "
                + ", ".join(stale)
                + "\nrun: python scripts/gen_proto.py",
                file=sys.stderr,
            )
            return 1
        print("server/v1 is up to date")
        return 0
    for p in generate(OUT_DIR):
        print(p.relative_to(ROOT))
    return gen_node_types()


def gen_node_types() -> int:
    """Regenerate ``clients/node/types`` with the client's pinned generator; 0 when done or
    skipped (no npm, or the client's packages not installed), else npm's exit status."""
    node = ROOT / "clients" / "node"
    npm = shutil.which("npm")
    if npm is None or not (node / "node_modules").is_dir():
        print(
            "clients/node/types not regenerated: run `npm ci && npm run gen-types` in clients/node"
        )
        return 0
    done = subprocess.run([npm, "run", "--silent", "gen-types"], cwd=node)
    if done.returncode == 0:
        print("clients/node/types")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
