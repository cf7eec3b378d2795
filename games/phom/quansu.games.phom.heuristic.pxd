# The compiled build's declarations for games/phom/heuristic.py (found by the module's full name,
# setup.py's PXD_DIRS; the pure build ignores this file): the compiler's popcount, for _pop, and
# the danger term's table as a C array (filled at import from the module's list of that name).
cdef extern from *:
    int __builtin_popcountll(unsigned long long x) nogil
cdef unsigned long long _REST6[312]
