# Compile-time declarations of activation.py (read only by Cython): the state as its C type ``Registers``, whose
# buffer the module reads and writes in C through ``registers`` (an inline C function, ``_registers.pxd``).
from blackangel_env._registers cimport registers
from blackangel_env.state cimport Registers

# the state's constants (registers, offsets, phases, codes) as C constants (``_state_constants.pxd``)
from blackangel_env._state_constants cimport (
    BOT, M_ACTION, M_ACTOR, M_DIE_COLOUR, M_DIE_VALUE, M_DONE, M_MISSION, M_OWNER, M_PAY_MISSION, M_PAY_RETURN,
    M_PAY_SEAT, M_PAY_TECH, M_PHASE, M_SOLO, M_TURN_PLAYER, M_VALUE, PH_MISSION, PH_OWNER, PH_PAY, RV_DISCARD,
    SRC_ACTIVATION, TL_DISCARD, TL_EJECTED
)
