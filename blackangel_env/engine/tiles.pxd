# Compile-time declarations of tiles.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, M_ACTOR, M_ADVANCED, M_MOVE_MIN, M_MOVE_RANGE, M_MOVE_RETURN, M_N_PLAYERS, M_PHASE, M_TILE_ADJACENT,
    M_TILE_CELL, M_TILE_EFFECT, M_TILE_RETURN, PH_A1_TILES, PH_REPAIR, PH_SHIP_SELECT, PH_TILE_ADJACENT,
    PH_TILE_DRAW, PH_TILE_OPTION, PH_TILE_ROBOT, SRC_TILES
)
