# Compile-time declarations of end.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, MC_SPACE, MC_TUCKED, M_END_TRIGGERED, M_GAME_OVER, M_PHASE, M_ROUND, M_SOLO, M_SPES_REACHED,
    M_TRIGGER_ROUND, PH_GAME_OVER, SRC_ADVANCED, SRC_CONVERSION, TL_ADV_SPACE, TL_EJECTED
)
