"""Build script: the package metadata is in pyproject.toml; this adds the optional compiled core.

The modules of ``search/compiled.py``'s ``CORE`` (card-mask move generation, apply, determinize,
the playout policies, the search loop, the network's features) are plain Python files.  When Cython (>= 3) can be
imported by the build and a C compiler works, ``pip install .`` also compiles them with Cython,
unchanged (pure-Python mode: the same ``.py`` files, no ``.pyx``); the wheel then holds both the
``.py`` files and the extensions, which Python imports in preference.  Otherwise the build says
why in one line (``quansu: ...: installing the pure-Python build``) and installs pure Python.
The two builds give identical results (tests/search/test_compiled_core.py).

* ``pip install .``: the compiled core where a C compiler works (pyproject.toml's build
  requirements bring Cython into the isolated build); pure Python otherwise;
* ``pip install --no-build-isolation .``: the same with the Cython of the current environment
  (pure Python without one);
* ``QUANSU_PURE_PYTHON=1 pip install .``: pure Python, even with Cython present;
* ``pip install -e .``: always pure Python (nothing is compiled into the checkout, where a
  compiled module would shadow an edited source file).

``python -m quansu.search.compiled`` says which build is in use.
"""

from __future__ import annotations

import os
import runpy
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
#: module name -> source file of the compiled core (one list, in search/compiled.py)
CORE: dict = runpy.run_path(os.path.join(HERE, "search", "compiled.py"))["CORE"]

#: Where Cython finds a module's declarations (its augmenting ``.pxd``: C fields of an extension
#: type, e.g. games/tan/quansu.games.tan.state.pxd): beside the module's source, named by the
#: module's full name (Cython looks the name up in its include path; the source tree has no
#: ``quansu/games/...`` folders where it would look for ``state.pxd``).
PXD_DIRS = sorted({os.path.dirname(os.path.join(HERE, src)) for src in CORE.values()})

#: Python semantics throughout: annotations are not C types, ints stay Python ints (no C type
#: is inferred either: ``for x in range(52): 1 << x`` would shift a C int and overflow past bit
#: 31, as it did in games/phom/heuristic.py's tables), functions keep their signatures for
#: introspection.
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,
    "infer_types": False,
    "binding": True,
    "embedsignature": True,
}


def _notice(why: str) -> None:
    """Why the pure-Python build is installed, in one line (:func:`_tell`)."""
    _tell(f"quansu: {why}: installing the pure-Python build")


def _tell(line: str) -> None:
    """One line on standard error; also on the terminal when pip captures standard error (as
    it does for a build without ``-v``), so that a plain ``pip install .`` shows it."""
    print(line, file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        return
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(line + "\n")
    except OSError:  # no terminal (CI, a service): standard error only (pip install -v)
        pass


class OptionalBuildExt(build_ext):
    """``build_ext`` for the compiled core: Cython turns the ``.py`` sources into C (in the
    build folder), then the C compiler builds them.  Any failure (no Cython, no compiler, a
    module that does not compile) leaves the whole core out: pure Python.  Never builds in place
    (editable installs)."""

    def run(self) -> None:
        if not self.extensions:
            return
        if self.inplace or getattr(self, "editable_mode", False):
            self.extensions = []
            return
        try:
            from Cython.Build import cythonize
        except ImportError:
            _notice(
                "Cython is not installed in the build environment (an isolated build "
                "gets it from pyproject.toml; with --no-build-isolation: pip install "
                "'cython>=3' first)"
            )
            self.extensions = []
            return
        try:
            c_sources = {
                e.name: e.sources
                for e in cythonize(
                    self.extensions,
                    compiler_directives=DIRECTIVES,
                    quiet=True,
                    build_dir=os.path.join(self.build_temp, "cython"),
                    include_path=PXD_DIRS,
                )
            }
            for ext in self.extensions:
                ext.sources = c_sources[ext.name]
            if not self.parallel:  # one compiler per core: the C files are large
                self.parallel = os.cpu_count() or 1
            self._todo, self._done = len(self.extensions), 0
            _tell(
                f"quansu: compiling the search core ({self._todo} modules, Cython and the C "
                f"compiler on {self.parallel} cores): a few minutes, longer on a busy machine "
                "(pip shows only 'still running...'). The pure-Python build installs at once "
                "and answers the same, slower: QUANSU_PURE_PYTHON=1 pip install ."
            )
            super().run()
        except Exception as e:  # noqa: BLE001 - any failure means: no compiled core
            cause = e.__cause__ if isinstance(e, _Failed) and e.__cause__ else e
            text = str(cause).strip().splitlines()[0] if str(cause).strip() else ""
            if len(text) > 100:  # a compiler's whole command line: its start is enough
                text = text[:97] + "..."
            _notice(
                f"the compiled core did not build ({type(cause).__name__}"
                f"{': ' + text if text else ''})"
            )
            for ext in self.extensions:
                out = os.path.join(self.build_lib, self.get_ext_filename(ext.name))
                if os.path.exists(out):
                    os.remove(out)
            self.extensions = []

    def build_extension(self, ext) -> None:
        if self.compiler.compiler_type == "unix":
            ext.extra_compile_args = list(ext.extra_compile_args or []) + ["-O2", "-g0"]
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001
            raise _Failed(ext.name) from e
        self._done += 1  # (the compiler threads only add; the count is for the eye)
        _tell(f"quansu: compiled {self._done}/{self._todo}: {ext.name}")


class _Failed(Exception):
    """A module of the compiled core did not build."""


def _extensions() -> list:
    if os.environ.get("QUANSU_PURE_PYTHON"):
        _notice("QUANSU_PURE_PYTHON is set")
        return []
    return [
        Extension(name, [src])
        for name, src in CORE.items()
        if os.path.isfile(os.path.join(HERE, src))
    ]


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
