# Compile-time declarations of phases.py (read only by Cython): the buffer protocol and memcmp, with which
# ``_legal_list`` compares the state buffer with its cache key in place instead of copying it to bytes first.
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from libc.string cimport memcmp

# the state's buffer as a typed memoryview (``registers``, an inline C function)
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    M_DECISIONS, M_GAME_OVER, M_PHASE, PH_GAME_OVER
)
