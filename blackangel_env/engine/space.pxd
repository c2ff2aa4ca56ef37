# Compile-time declarations of space.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, MAX_SEATS, M_N_STRIPS, N_HEXES, OT_HEX_CARD, OT_HEX_SHIP, OT_HEX_TERRAIN, O_ROBOTS_SUPPLY
)
