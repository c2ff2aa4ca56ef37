# Compile-time declarations of sequence_a.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, DIE_IN_USE, MC_SLOT, M_A1_COLOUR, M_A1_SLOT, M_ACTION, M_ACTOR, M_BOOSTS_USED, M_DIE, M_DIE_BOUGHT,
    M_DIE_COLOUR, M_DIE_COLOUR0, M_DIE_FLIPPED, M_DIE_VALUE, M_PENDING, M_PHASE, M_SOLO, M_TURN_PLAYER,
    OT_MC_WHERE, OT_RAV_WHERE, O_DEBRIS, O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_GRID, O_HAND_MC, O_HAND_RAV,
    O_RES, O_SLOTS, PH_A1_CARD, PH_A1_TILES, PH_A2_DIE, PH_A2_MODIFY, PH_ACTION_BOOST, PH_DIE_COLOUR, RAVAGER_SLOT,
    RV_SLOT, SRC_TRADE
)
