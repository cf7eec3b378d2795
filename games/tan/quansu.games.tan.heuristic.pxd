# The compiled build's declarations for games/tan/heuristic.py (found by the module's full name,
# setup.py's PXD_DIRS): the state's type, so that the heuristic reads its fields as C struct
# members (games/tan/quansu.games.tan.game.pxd).  The pure build ignores this file.
from quansu.games.tan.game cimport TanState
