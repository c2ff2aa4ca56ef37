# Compile-time declarations of setup.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, DIE_ABSENT, DIE_SUPPLY, MC_DECK, M_A1_COLOUR, M_A1_SLOT, M_ACTION, M_ACTOR, M_ADVANCED, M_ADV_DECK_N,
    M_B_FREE_COLOUR, M_DIE, M_DIE_COLOUR, M_DIE_COLOUR0, M_EJECTED_ADV, M_HAL_CARD, M_HAL_DECK_N,
    M_HAND_LIMIT_RETURN, M_KEEP_RETURN, M_MISSION, M_MOVE_RETURN, M_N_PLAYERS, M_N_STRIPS, M_OWNER, M_PAY_RETURN,
    M_PAY_SEAT, M_PHASE, M_RAV_DECK_N, M_ROUND, M_SETUP_SEAT, M_SHIP_HEX, M_SOLO, M_SPES_POS, M_SPES_TOKEN_POS,
    M_TAKEN_TILE, M_TILE_CELL, M_TILE_EFFECT, M_TILE_RETURN, M_TRIGGER_ROUND, M_TURN_PLAYER, N_MISSIONS,
    N_RAVAGERS, N_SRC, OT_ADV_DECK, OT_HAL_DECK, OT_HEX_COMET, OT_HEX_ICONS, OT_HEX_TERRAIN, OT_MC_DECK,
    OT_MC_DECK_N, OT_MC_WHERE, OT_RAV_DECK, OT_RAV_WHERE, OT_STRIP_FACE, OT_STRIP_ID, OT_TECH_STACK,
    OT_TECH_STACK_N, OT_TILE_BOOST, OT_TILE_WHERE, O_DEBRIS, O_DIE_OWNER, O_DISPLAY, O_GRID, O_HAND_RAV,
    O_LAST_SEQ, O_RES, O_ROBOTS_BREAK, O_ROBOTS_SUPPLY, O_ROBOTS_WS, O_SHIPS, O_VP, O_VP_SRC, PH_SETUP_RESERVE,
    RV_BOX, RV_DECK, RV_HAND, SRC_START, TL_ADV_DECK, TL_BOX, TL_DISPLAY, TL_GRID, TL_STACK
)
