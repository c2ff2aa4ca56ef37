# Compile-time declarations of guard.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    M_KEEP_RETURN, M_MOVE_RETURN, M_PHASE, M_TILE_RETURN, M_TURN_PLAYER, PH_A1_TILES, PH_COMMAND_CARD, PH_KEEP,
    PH_SHIP_MOVE, PH_SHIP_SELECT, PH_TILE_ADJACENT, PH_TILE_DRAW, PH_TILE_OPTION, PH_TILE_ROBOT
)
