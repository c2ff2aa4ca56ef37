# Compile-time declarations of repair.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    DIE_SUPPLY, M_ACTOR, M_DONE, M_PHASE, M_VALUE, OT_TILE_DEBRIS, O_DIE_DAMAGED, O_DIE_OWNER, O_DMG, O_GRID,
    PH_DEBRIS, PH_REPAIR
)
