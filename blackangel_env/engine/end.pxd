# Compile-time declarations of end.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, MC_SPACE, MC_TUCKED, M_END_TRIGGERED, M_GAME_OVER, M_N_PLAYERS, M_PHASE, M_ROUND, M_SOLO, M_SPES_REACHED,
    M_TRIGGER_ROUND, N_MISSIONS, N_TILES, OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE, OT_TILE_WHERE, O_ADV_SPACE,
    O_DEBRIS, O_GRID, O_HAND_RAV, O_RES, O_ROBOTS_BREAK, O_SHIPS, O_VP, PH_GAME_OVER, SRC_ADVANCED, SRC_CONVERSION,
    TL_ADV_SPACE, TL_EJECTED
)
