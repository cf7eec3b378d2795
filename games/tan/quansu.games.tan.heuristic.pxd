# The compiled build's declarations for games/tan/heuristic.py (found by the module's full name,
# setup.py's PXD_DIRS): the state's type, so that the heuristic reads its fields as C struct
# members (games/tan/quansu.games.tan.state.pxd).  The pure build ignores this file.
from quansu.games.tan.state cimport TanState
# the choice's tables as C arrays (filled at import from the module's lists of the same names)
cdef int _VALUE[52]
cdef int _HELD[16]
cdef unsigned long long _BEAT[208]
