# The compiled build's layout of TienLenState (games/tienlen/state.py; as Tấn's state .pxd):
# an extension type whose methods read and write its fields as C struct members; every field
# stays readable and writable from Python (public), with the meanings of the class docstring.
# Object fields throughout (Python ints, so every mask and shift keeps Python semantics), but for
# the seat to act and the top's shape.
cdef class TienLenState:
    cdef public object game, hands, played, top, owner, passed, active, finfo, req, aside, first
    cdef public object finish, cong, chain, transfers, end, instant, _deal, _result
    cdef public list _hist, _gen
    cdef public int cur, top_shape
