"""The A1 guard (rules decision R-A2): in A1, choices after which no die could be used in A2 are not
legal.  A choice is tried on a copy of the state (through the phase table), with the tile effect it starts
followed to its end where needed.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import DONE, PLAY_MISSION, PLAY_RAVAGER
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_KEEP_RETURN, M_MOVE_RETURN, M_PHASE, M_TILE_RETURN, M_TURN_PLAYER, PH_A1_TILES, PH_COMMAND_CARD, PH_KEEP,
        PH_SHIP_MOVE, PH_SHIP_SELECT, PH_TILE_ADJACENT, PH_TILE_DRAW, PH_TILE_OPTION, PH_TILE_ROBOT,
    )

from .phases import _LEGAL, _dispatch, register
from .die_uses import _a2_robust, a2_possible


def _guarded(s: State, p: int, candidates: list[int]) -> list[int]:
    """In A1, drop choices after which no die could be used in A2 (rules decision R-A2).  A choice is kept
    when the A1 step it leads to still leaves a die use (``_a2_still_possible``); every choice offered in A1
    passes through here, so each A1 position reached keeps at least one choice."""
    if not candidates or _a2_robust(s, p):
        return candidates
    out = []
    verdict: dict = {}
    for a in candidates:
        if PLAY_MISSION <= a < PLAY_RAVAGER + 6:
            # Die uses depend on the hand through its counts per colour, so the cards of a colour (and the
            # Ravager cards) are alike; the slot decides which tiles the card activates.  A play is kept when a
            # die stays usable without the card (the activated tiles may all be declined), else when resolving
            # the tiles it activates can make one usable again (a tile may draw a card, bring a resource...).
            colour, slot = ((a - PLAY_MISSION) // 120, (a - PLAY_MISSION) % 6) if a < PLAY_RAVAGER \
                else (3, a - PLAY_RAVAGER)
            ok = verdict.get((colour, slot))
            if ok is None:
                ok = verdict.get(colour)
                if ok is None:
                    ok = verdict[colour] = _a2_possible_without_card(s, p, colour)
                if not ok:
                    t = s.copy()
                    _dispatch(t, a)
                    ok = _a2_still_possible(t, p)
                verdict[(colour, slot)] = ok
        else:
            ok = verdict.get(-1 - a)
            if ok is None:
                t = s.copy()
                _dispatch(t, a)
                ok = verdict[-1 - a] = _a2_still_possible(t, p)
        if ok:
            out.append(a)
    return out


def _a2_possible_without_card(s: State, p: int, colour: int) -> bool:
    """a2_possible once a Mission card of ``colour`` (3 = a Ravager card) has left p's hand."""
    arr, idx = (s.hand_rav, p) if colour == 3 else (s.hand_mc, (p, colour))
    arr[idx] -= 1
    try:
        return a2_possible(s, p)
    finally:
        arr[idx] += 1


_TILE_SUBPHASES = frozenset((PH_TILE_OPTION, PH_TILE_ADJACENT, PH_TILE_DRAW, PH_TILE_ROBOT, PH_SHIP_SELECT,
                             PH_SHIP_MOVE, PH_KEEP))


def _a1_effect_in_progress(s: State) -> bool:
    """The decision in progress belongs to a tile effect resolved in A1 (not in Repair, not Command's ship,
    not a Mission card drawn in A2 or A3).  Call only in one of ``_TILE_SUBPHASES``."""
    m = cython.declare(Registers, registers(s))
    if m.r[M_TILE_RETURN] != PH_A1_TILES:
        return False
    ph = m.r[M_PHASE]
    if ph == PH_KEEP:
        return m.r[M_KEEP_RETURN] == PH_TILE_DRAW
    if ph == PH_SHIP_SELECT or ph == PH_SHIP_MOVE:
        return m.r[M_MOVE_RETURN] != PH_COMMAND_CARD
    return True


def _a2_still_possible(t: State, p: int) -> bool:
    """After an A1 step (on a copy): A1 can still end with a die usable in A2.  In A2 that is ``a2_possible``;
    back among the activated tiles left to resolve, it is ``a2_possible`` (their DONE ends A1) or a tile whose
    resolution leads there (the legal tiles of that step, which this guard has judged so); inside an A1 tile
    effect it is some choice of the effect that leads there (a DONE finishes the effect and changes nothing a
    die use depends on; a ship to move or an option to take must each be followed)."""
    ph = t.mv[M_PHASE]
    if ph == PH_A1_TILES:
        return a2_possible(t, p) or any(a != DONE for a in _LEGAL[ph](t))
    if ph not in _TILE_SUBPHASES or not _a1_effect_in_progress(t):
        return a2_possible(t, p)
    choices = _LEGAL[ph](t)
    if DONE in choices and a2_possible(t, p):
        return True
    for a in choices:
        if a != DONE:
            u = t.copy()
            _dispatch(u, a)
            if _a2_still_possible(u, p):
                return True
    return False


def _guard_a1_effect(s: State, legal: list[int]) -> list[int]:
    """The legal actions of a tile effect's step: in A1, those that still leave a die use (R-A2)."""
    m = cython.declare(Registers, registers(s))
    if _a1_effect_in_progress(s):
        return _guarded(s, m.r[M_TURN_PLAYER], legal)
    return legal


for _ph in _TILE_SUBPHASES:
    register(_ph, filter=_guard_a1_effect)
