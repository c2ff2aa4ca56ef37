# Compile-time declarations of state.py (read only by Cython): the C fields of ``Registers``, the base of ``State``,
# through which the compiled rule modules read and write the state's buffer in C (``_registers.pxd``).
cdef class Registers:
    cdef short[::1] r
    cdef bint r_set
