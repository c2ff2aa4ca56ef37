# Compile-time declarations of core.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, MAX_SEATS, M_SOLO, N_SRC, O_DEBRIS, O_RES, O_SHIPS, O_VP, O_VP_SRC, SRC_HAL
)
