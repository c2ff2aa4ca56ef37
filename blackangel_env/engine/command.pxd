# Compile-time declarations of command.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    M_ACTOR, M_DIE_COLOUR, M_MOVE_MIN, M_MOVE_RANGE, M_MOVE_RETURN, M_N_STRIPS, M_PHASE, M_SHIP_HEX, M_SHIP_LAUNCH,
    M_TURN_PLAYER, M_VALUE, PH_COMMAND_CARD, PH_SHIP_MOVE, PH_SHIP_SELECT
)
