# Compile-time declarations of black_angel.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, MC_DISCARD, MC_SPACE, MC_TUCKED, M_N_STRIPS, M_SPES_POS, M_SPES_REACHED, M_SPES_TOKEN_POS, N_HEXES,
    OT_HEX_CARD, OT_HEX_COMET, OT_HEX_ICONS, OT_HEX_TERRAIN, OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE, OT_STRIP_FACE,
    OT_STRIP_ID, O_ROBOTS_BREAK, O_ROBOTS_SUPPLY, SRC_HAL, SRC_NEUTRALIZATION
)
