# Compile-time declarations of board_actions.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    M_ACTION, M_DIE_COLOUR, M_DIE_VALUE, M_DONE, M_MOVE_MIN, M_MOVE_RANGE, M_MOVE_RETURN, M_PHASE, M_TURN_PLAYER,
    M_VALUE, PH_ACTION_BOOST, PH_COMMAND_CARD, PH_DESTROY, PH_DISCOVER, PH_RAVAGER_DISCARD, PH_REPAIR,
    PH_SHIP_SELECT, RV_DISCARD, SRC_BOOST, SRC_PENALTY
)
