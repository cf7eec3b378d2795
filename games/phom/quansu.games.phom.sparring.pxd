# The compiled build's declarations for games/phom/sparring.py (found by the module's full name
# in setup.py's PXD_DIRS; the pure build ignores this file).
#
# The compiler's bit counts, for _low and _pop, and the hand valuation's tables as C arrays
# (filled at import from the module's lists of those names).
cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil
    int __builtin_popcountll(unsigned long long x) nogil
cdef unsigned long long _CA64[52]
cdef unsigned long long _OUTS2[2704]
cdef int _PTS[52]

# _Ctx as an extension type whose fields its methods read as C struct members instead of by
# attribute lookup (the bot builds one per decision and reads them in every candidate's
# valuation).  Card masks stay objects (Python ints, as the code's arithmetic on them expects); C
# types only for the seats, counters, flags and the rate.  Every field stays readable from
# Python (public).
cdef class _Ctx:
    cdef public object game, p, hand, eaten, unseen, eaten_nxt, opts, u_money
    cdef public int me, n, nxt, takes, kind, s_now, round_me
    cdef public bint one, laid_me
    cdef public double rate
    cdef public list pfree, live
    cdef public dict excl, _chance, _cost
    cdef public tuple table, eats
