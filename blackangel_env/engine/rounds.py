"""Turn order and rounds: a player's turn starts, ends (Hal's turn follows in the solo game), a round ends,
and after the final round the game is scored.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_ACTION, M_ACTOR, M_DIE, M_END_TRIGGERED, M_GAME_OVER, M_MISSION, M_N_PLAYERS, M_PHASE, M_ROUND, M_SOLO,
        M_TRIGGER_ROUND, M_TURNS, M_TURN_PLAYER, PH_TURN,
    )

from .end import finish_game
from .hal import hal_turn


@cython.ccall
def _start_turn(s: State, p: int) -> None:
    m = cython.declare(Registers, registers(s))
    m.r[M_TURN_PLAYER] = p
    m.r[M_ACTOR] = p
    m.r[M_PHASE] = PH_TURN
    m.r[M_DIE] = -1
    m.r[M_ACTION] = -1
    m.r[M_MISSION] = -1


@cython.ccall
def _end_turn(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    m.r[M_TURNS] += 1
    if m.r[M_SOLO]:
        hal_turn(s)        # the solitaire opponent, resolved by the engine between the player's turns
        if m.r[M_GAME_OVER]:
            return
        _round_done(s)
        return
    n = m.r[M_N_PLAYERS]
    nxt = (p + 1) % n
    if nxt == 0:
        _round_done(s)
        if m.r[M_GAME_OVER]:
            return
    _start_turn(s, nxt)


@cython.ccall
def _round_done(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    if m.r[M_END_TRIGGERED] and m.r[M_ROUND] == m.r[M_TRIGGER_ROUND] + 1:
        finish_game(s)
        return
    m.r[M_ROUND] += 1
    _start_turn(s, 0)
