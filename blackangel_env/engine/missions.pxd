# Compile-time declarations of missions.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    MAX_SEATS, MC_HAND, MC_SPACE, M_ADVANCED, M_N_STRIPS, N_MISSIONS, OT_HEX_CARD, OT_HEX_ICONS, OT_HEX_TERRAIN,
    OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE, OT_TILE_BOOST, O_HAND_MC, O_ROBOTS_BREAK, SRC_REWARD, TL_EJECTED
)
