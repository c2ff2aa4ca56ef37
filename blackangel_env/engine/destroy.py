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
        M_DONE, M_PHASE, M_TURN_PLAYER, M_VALUE, O_HAND_RAV, O_RAV_COUNT, PH_DESTROY, RV_HAND,
    )

from .core import _log, seat_name
from .ravagers import _clear_location
from .phases import register
from .a3 import _a3


@cython.locals(rem=cython.long, a=cython.Py_ssize_t, k=cython.long)
def _legal_destroy(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    rem = m.r[M_VALUE] - m.r[M_DONE]
    out = [DONE] if m.r[M_DONE] > 0 else []
    for a in range(6):                          # the Ravager locations whose cards the die can all take
        k = m.r[O_RAV_COUNT + a]
        if 1 <= k <= rem:
            out.append(DESTROY + a)
    return out


@cython.locals(p=cython.Py_ssize_t)
def _do_destroy(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _a3(s)
        return
    loc = a - DESTROY
    k = _clear_location(s, loc, RV_HAND + p)
    m.r[O_HAND_RAV + p] += k
    m.r[M_DONE] += k
    if m.log is not None:
        _log(s, f"{seat_name(s, p)} destroys {k} Ravager card(s) at location {loc + 1}")
    if len(_legal_destroy(s)) > 1:
        m.r[M_PHASE] = PH_DESTROY
    else:
        _a3(s)


register(PH_DESTROY, legal=_legal_destroy, do=_do_destroy)
