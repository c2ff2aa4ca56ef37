# Compile-time declarations of a3.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    DIE_SUPPLY, MC_DRAWN, M_ACTOR, M_ADVANCED, M_DIE, M_DIE_COLOUR0, M_KEEP_RETURN, M_PHASE, M_TURN_PLAYER,
    O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, PH_HAND_LIMIT, PH_KEEP, PH_TILE_DRAW
)
