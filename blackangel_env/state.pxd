# Compile-time declarations of state.py (read only by Cython): the C fields of ``Registers``, the base of ``State``,
# through which the compiled rule modules read and write the state's buffer in C (``_registers.pxd``).
cdef class Registers:
    cdef short[::1] r
    cdef bint r_set
    cdef Py_ssize_t _tail       # the display's length: where the fields after it are (state.BASE_SIZE, OT_*)
    # the state's attributes that the engine reads at most decisions (``state.C_FIELDS``): C fields, None until set,
    # which compiled code reads in C (``m.log``) and Python code through member descriptors (no instance-dict lookup)
    cdef public object comp, _fields, log, _legal_cache, _pred

# makes ``r`` and ``_tail`` on a state's first ``registers`` (``_registers.pxd``, whose inline fast path stays small)
cdef int bind_registers(Registers t) except -1
