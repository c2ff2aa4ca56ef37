# ``registers(s)`` for the compiled rule modules (read only by Cython; cimported by their .pxd files): the state
# as its base ``Registers`` (``state.pxd``), whose C field ``r`` (the state's buffer as a typed int16 memoryview)
# is made on the object's first call.  An inline C function: with ``m = cython.declare(Registers,
# registers(s))``, each ``m.r[i]`` is a C array access, its index checked (IndexError) and wrapped (a negative
# one) as Python does, with no reference counting of the memoryview per access.  ``state.registers`` is the same
# function for Python code (the interpreted path), which the rule modules import by name only when not compiled.
from blackangel_env.state cimport Registers, bind_registers

cdef inline Registers registers(object s):
    cdef Registers t = <Registers?>s
    if not t.r_set:
        bind_registers(t)                       # r and _tail, once per object (state.py)
    return t
