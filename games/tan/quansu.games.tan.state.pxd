# The compiled build's layout of TanState: Cython reads this file (found by the module's full
# name in setup.py's PXD_DIRS) beside games/tan/state.py; the pure build ignores it.  TanState
# becomes an extension type whose fields its own methods read and write as C struct members
# instead of by attribute lookup; every field stays readable and writable from Python (public),
# with the names and meanings of the class docstring.  C ints only for the small counters, seats
# and phases: a card id (faceup) stays an object, since ``1 << faceup`` with a C int would be a
# C int shift, wrong past bit 31.
cdef class TanState:
    cdef public object game, stock, faceup, table, tranks, discard, opened, anytime, cap
    cdef public object _deal, _perm, _draw_log, _detprep
    cdef public list hands, known, hist, empty_at
    cdef public int n, sp, trump, uncovered, phase, cur, attacker, defender, pointer
    cdef public int passes, nthrow, swapped, winner, loser, bout_start
    # a C call from the heuristic's playout loop (games/tan/heuristic.py), a method from Python
    cpdef apply_unchecked(self, int move)
