"""A3 (rulebook): draw a Mission card of the die's colour (ADVANCED RULES: draw two, keep one, also for the
draw tile's cards), return the die, the hand limit; then the turn ends.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import DISCARD_MISSION, KEEP_MISSION
from ..constants import COLOURS
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        DIE_SUPPLY, MC_DRAWN, M_ACTOR, M_ADVANCED, M_DIE, M_DIE_COLOUR0, M_KEEP_RETURN, M_PHASE, M_TURN_PLAYER,
        O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, PH_HAND_LIMIT, PH_KEEP, PH_TILE_DRAW,
    )

from .core import _log, seat_name
from .decks import _discard_mission, _draw_mission, _hand_missions, _hand_total, _to_hand
from .phases import _RESUME, register
from .rounds import _end_turn


def _legal_keep(s: State) -> list[int]:
    return [KEEP_MISSION + int(c) for c in s.drawn if c >= 0]


def _legal_hand_limit(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    return [DISCARD_MISSION + c for c in _hand_missions(s, p)]


@cython.locals(p=cython.Py_ssize_t, d=cython.Py_ssize_t)
def _a3(s: State) -> None:
    """Draw a card of the die's (original) colour, return the die to its supply; hand limit 6."""
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    m.r[M_ACTOR] = p
    d = m.r[M_DIE]
    m.r[O_DIE_OWNER + d] = DIE_SUPPLY
    m.r[O_DIE_RESERVED + d] = 0
    m.r[O_DIE_VALUE + d] = 0
    c = m.r[M_DIE_COLOUR0]
    m.r[M_DIE] = -1
    if m.r[M_ADVANCED]:
        _draw_two(s, p, c, PH_HAND_LIMIT)
        return
    card = _draw_mission(s, c)
    if card >= 0:
        _to_hand(s, p, card)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} draws a {COLOURS[c]} Mission card")
    _hand_limit(s)


@cython.ccall
def _draw_two(s: State, p: int, c: int, ret: int) -> None:
    """ADVANCED RULES: draw two cards of the colour, keep one, discard the other."""
    m = cython.declare(Registers, registers(s))
    cards = []
    for _ in range(2):
        card = _draw_mission(s, c)
        if card >= 0:
            cards.append(card)
            s.mc_where[card] = MC_DRAWN + p
    m.r[M_KEEP_RETURN] = ret
    if len(cards) == 2:
        s.drawn[0], s.drawn[1] = cards
        m.r[M_ACTOR] = p
        m.r[M_PHASE] = PH_KEEP
        return
    if cards:
        _to_hand(s, p, cards[0])
    _after_keep(s)


def _do_keep(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    keep = a - KEEP_MISSION
    for c in s.drawn.tolist():
        if c == keep:
            _to_hand(s, p, c)
        else:
            _discard_mission(s, c)
    s.drawn[:] = -1
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} keeps a {COLOURS[keep // 20]} Mission card")
    _after_keep(s)


@cython.ccall
def _after_keep(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    if m.r[M_KEEP_RETURN] == PH_TILE_DRAW:
        m.r[M_KEEP_RETURN] = -1
        _RESUME[PH_TILE_DRAW](s)           # tiles._finish_tile
    else:
        m.r[M_KEEP_RETURN] = -1
        _hand_limit(s)


@cython.ccall
def _hand_limit(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if _hand_total(s, p) > s.comp.hand_limit:
        m.r[M_PHASE] = PH_HAND_LIMIT
        return
    _end_turn(s)


def _do_hand_limit(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    card = a - DISCARD_MISSION
    _discard_mission(s, card)
    if s.log is not None:
        _log(s, f"{seat_name(s, m.r[M_TURN_PLAYER])} discards Mission card {card} (hand limit)")
    _hand_limit(s)


register(PH_KEEP, legal=_legal_keep, do=_do_keep)
register(PH_HAND_LIMIT, legal=_legal_hand_limit, do=_do_hand_limit)
