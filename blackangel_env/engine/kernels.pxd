# Compile-time declarations of kernels.py (read only by Cython): numpy's bit generator interface, through which
# ``roll_dice`` draws the state generator's numbers in C.  The struct is numpy's ``bitgen_t`` (numpy/random/bitgen.h,
# part of numpy's public C API since numpy 1.17): the same fields, in the same order, declared here so that the
# build needs no numpy headers.  A Generator's bit generator hands it out in a capsule named "BitGenerator".
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint32_t

cdef extern from *:
    """
    #include <stdint.h>
    typedef struct blackangel_bitgen {
        void *state;
        uint64_t (*next_uint64)(void *st);
        uint32_t (*next_uint32)(void *st);
        double (*next_double)(void *st);
        uint64_t (*next_raw)(void *st);
    } blackangel_bitgen_t;
    """
    ctypedef struct blackangel_bitgen_t:
        void *state
        uint32_t (*next_uint32)(void *st) noexcept nogil
        double (*next_double)(void *st) noexcept nogil

# the state as its C type ``Registers`` (``registers``, an inline C function, ``_registers.pxd``): ``_layout`` reads
# the state's layout table from its C field
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, DIE_SUPPLY, MAX_SEATS, MC_SPACE
)
