"""What the compiled core's modules read from ``cython`` when Cython is not installed.

The hot modules (:data:`search.compiled.CORE`) are plain Python in Cython's pure-Python mode:
they ``import cython`` for type annotations and decorators, falling back to this module, whose
names do nothing, so that the same files run uncompiled without Cython (a runtime install has
no Cython).  ``compiled`` is False here; compiled, Cython replaces the whole module.
"""

from __future__ import annotations

compiled = False

# C types named in annotations (unused uncompiled: ``from __future__ import annotations``)
int = int  # noqa: A001 - Cython's names
ulonglong = int
longlong = int
Py_ssize_t = int
bint = bool
double = float


def cfunc(f):
    """A C function when compiled; the function itself uncompiled."""
    return f


def inline(f):
    return f


def locals(**_types):  # noqa: A001 - Cython's name
    """Typed locals when compiled; nothing uncompiled."""
    return lambda f: f


def cast(_type, value):
    return value


def declare(_type, value=None):
    """A typed variable when compiled; ``value`` uncompiled."""
    return value


def returns(_type):
    """The C return type when compiled; nothing uncompiled."""
    return lambda f: f


def ccall(f):
    """A C function also callable from Python when compiled; the function itself uncompiled."""
    return f
