# Compile-time declarations of decks.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    MAX_SEATS, MC_DECK, MC_DISCARD, MC_HAND, M_ADV_DECK_N, M_RAV_DECK_N, N_ADVANCED, N_MISSIONS, N_TILES,
    OT_ADV_DECK, OT_ADV_SLOTS, OT_MC_DECK, OT_MC_DECK_N, OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE, OT_RAV_DECK,
    OT_TECH_STACK, OT_TECH_STACK_N, OT_TILE_BOOST, OT_TILE_WHERE, O_DISPLAY, O_HAND_MC, RV_DECK, RV_DISCARD,
    RV_HAND, TL_ADV_SLOT, TL_DISCARD, TL_DISPLAY
)
