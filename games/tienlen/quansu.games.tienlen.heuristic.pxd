# The compiled build's declarations for games/tienlen/heuristic.py (found by the module's full
# name, setup.py's PXD_DIRS): the state's type, so that the heuristic reads its fields as C struct
# members (quansu.games.tienlen.state.pxd).  The pure build ignores this file.
from quansu.games.tienlen.state cimport TienLenState
