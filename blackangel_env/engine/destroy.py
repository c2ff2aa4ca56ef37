"""Destroy (rulebook): take whole Ravager locations within the activations; liberated robots return."""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import DESTROY, DONE
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        MAX_SEATS, M_DONE, M_PHASE, M_TURN_PLAYER, M_VALUE, N_RAVAGERS, OT_RAV_ROBOTS, OT_RAV_WHERE, O_HAND_RAV,
        O_RAV_COUNT, O_RAV_LOC, O_ROBOTS_BREAK, PH_DESTROY, RV_HAND,
    )

from .core import _log, seat_name
from .phases import register
from .a3 import _a3


def _legal_destroy(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    rem = m.r[M_VALUE] - m.r[M_DONE]
    out = [DONE] if m.r[M_DONE] > 0 else []
    out.extend([DESTROY + a for a, k in enumerate(s.rav_count.tolist()) if 1 <= k <= rem])
    return out


def _do_destroy(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _a3(s)
        return
    loc = a - DESTROY
    if not 0 <= loc < 6:
        raise IndexError(f"no Ravager location {loc}")
    tail = m._tail                              # the Ravager fields through the buffer
    k = m.r[O_RAV_COUNT + loc]
    for i in range(k):
        if i >= 3:
            raise IndexError(f"no place {i} at Ravager location {loc}")
        r = m.r[O_RAV_LOC + 3 * loc + i]
        if not 0 <= r < N_RAVAGERS:
            raise IndexError(f"no Ravager card {r}")
        m.r[O_RAV_LOC + 3 * loc + i] = -1
        m.r[OT_RAV_WHERE + tail + r] = RV_HAND + p
        for seat in range(5):
            n = m.r[OT_RAV_ROBOTS + tail + MAX_SEATS * r + seat]
            if n:
                m.r[OT_RAV_ROBOTS + tail + MAX_SEATS * r + seat] = 0
                m.r[O_ROBOTS_BREAK + seat] += n      # liberated robots go back to the break room
    m.r[O_RAV_COUNT + loc] = 0
    m.r[O_HAND_RAV + p] += k
    m.r[M_DONE] += k
    if m.log is not None:
        _log(s, f"{seat_name(s, p)} destroys {k} Ravager card(s) at location {loc + 1}")
    if len(_legal_destroy(s)) > 1:
        m.r[M_PHASE] = PH_DESTROY
    else:
        _a3(s)


register(PH_DESTROY, legal=_legal_destroy, do=_do_destroy)
