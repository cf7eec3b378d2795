# The compiled build's layout of search/ismcts.py's tree node (found by the module's full name in
# setup.py's PXD_DIRS; the pure build ignores this file): _Node becomes an extension type whose
# fields the walk (_Search._descend, _backup) reads and writes as C struct members instead of by
# attribute lookup.  Every field stays readable and writable from Python (public), with the
# names and meanings of the class docstring.
cdef class _Node:
    cdef public int seat, visits
    cdef public double value_sum
    cdef public list moves, prior, n, w, w2, avail, kids
    cdef public dict index
