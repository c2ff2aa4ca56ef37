# Compile-time declarations of discover.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    M_ACTOR, M_ADVANCED, M_DONE, M_EJECTED_ADV, M_PHASE, M_TAKEN_TILE, M_TURN_PLAYER, M_VALUE, PH_ADVANCED_SPACE,
    PH_DISCOVER, PH_INJECT, TL_ADV_SPACE, TL_EJECTED, TL_GRID, TL_TAKEN
)
