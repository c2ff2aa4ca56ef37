# Compile-time declarations of playout.py (read only by Cython): the state's constants (registers, offsets, phases,
# codes) as C constants (``_state_constants.pxd``).
from blackangel_env._state_constants cimport (
    BOT, M_SOLO
)
