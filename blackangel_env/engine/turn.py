"""The turn's choice: Sequence A, Sequence B, or (in a final turn with no die usable) passing."""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import PASS, SEQUENCE_A, SEQUENCE_B
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_PHASE, M_TURN_PLAYER, O_LAST_SEQ, PH_A1_CARD, PH_TURN,
    )

from .core import SEQ_A, SEQ_B, _log, seat_name
from .phases import register
from .end import is_final_turn
from .die_uses import a2_possible
from .rounds import _end_turn
from .sequence_b import _sequence_b


def _legal_turn(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a2_possible(s, p):
        return [SEQUENCE_A, SEQUENCE_B]
    if is_final_turn(s):
        return [SEQUENCE_B, PASS]
    return [SEQUENCE_B]


def _do_turn(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == SEQUENCE_A:
        m.r[O_LAST_SEQ + p] = SEQ_A
        m.r[M_PHASE] = PH_A1_CARD
    elif a == SEQUENCE_B:
        m.r[O_LAST_SEQ + p] = SEQ_B
        _sequence_b(s, p)
    else:  # PASS
        m.r[O_LAST_SEQ + p] = SEQ_B
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} passes the final turn")
        _end_turn(s)


register(PH_TURN, legal=_legal_turn, do=_do_turn)
