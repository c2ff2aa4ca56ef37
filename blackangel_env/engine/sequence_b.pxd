# Compile-time declarations of sequence_b.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, DIE_SUPPLY, M_B_FREE_COLOUR, M_B_PAID, M_END_TRIGGERED, M_N_PLAYERS, M_PHASE, M_TURN_PLAYER, N_DICE,
    N_RAVAGERS, OT_RAV_WHERE, O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_GRID, O_RES, O_ROBOTS_WS, O_SLOTS,
    PH_B_RESERVE, RAVAGER_SLOT, RV_DISCARD, SRC_PENALTY
)
