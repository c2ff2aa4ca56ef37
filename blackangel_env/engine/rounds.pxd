# Compile-time declarations of rounds.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    M_ACTION, M_ACTOR, M_DIE, M_END_TRIGGERED, M_GAME_OVER, M_MISSION, M_N_PLAYERS, M_PHASE, M_ROUND, M_SOLO,
    M_TRIGGER_ROUND, M_TURNS, M_TURN_PLAYER, PH_TURN
)
