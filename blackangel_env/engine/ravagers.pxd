# Compile-time declarations of ravagers.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    MAX_SEATS, M_RAV_DECK_N, N_RAVAGERS, OT_RAV_ROBOTS, OT_RAV_WHERE, O_RAV_COUNT, O_RAV_LOC, O_ROBOTS_BREAK,
    RV_BOARD, RV_DECK, RV_DISCARD
)
