# Compile-time declarations of dice.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    DIE_SUPPLY, MAX_SEATS, O_DIE_DAMAGED, O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_DMG, O_ROBOTS_WS,
    SRC_PENALTY
)
