# Compile-time declarations of hal.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, DIE_IN_USE, DIE_SUPPLY, MC_DISCARD, M_END_TRIGGERED, M_HAL_CARD, M_HAL_DECK_N, M_N_STRIPS, N_DICE,
    N_TILES, OT_ADV_SLOTS, OT_HAL_DECK, OT_HEX_COMET, OT_MC_WHERE, OT_TILE_BOOST, OT_TILE_WHERE, O_DIE_DAMAGED,
    O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_DISPLAY, O_DMG, O_LAST_SEQ, O_RAV_COUNT, O_RAV_LOC, O_RES,
    O_ROBOTS_BREAK, RV_DISCARD, SRC_HAL, TL_DISCARD
)
