# Compile-time declarations of destroy.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    M_DONE, M_PHASE, M_TURN_PLAYER, M_VALUE, O_HAND_RAV, O_RAV_COUNT, PH_DESTROY, RV_HAND
)
