"""The A1 guard (rules decision R-A2): in A1, choices after which no die could be used in A2 are not
legal.  A choice is tried on a copy of the state (through the phase table), with the tile effect it starts
followed to its end where needed.
"""

from __future__ import annotations

from .. import actions as A
from ..state import (
    M_PHASE, PH_KEEP, PH_SHIP_MOVE, PH_SHIP_SELECT, PH_TILE_ADJACENT, PH_TILE_DRAW, PH_TILE_OPTION, PH_TILE_ROBOT,
    State,
)

from .phases import _dispatch, legal_actions
from .die_uses import _a2_robust, a2_possible


def _guarded(s: State, p: int, candidates: list[int]) -> list[int]:
    """In A1, drop choices after which no die could be used in A2 (rules decision R-A2)."""
    if not candidates or _a2_robust(s, p):
        return candidates
    out = []
    verdict: dict[int, bool] = {}
    for a in candidates:
        # A Mission card's slot does not change what A2 can do right after it is played: test each card once.
        if A.PLAY_MISSION <= a < A.PLAY_RAVAGER + 6:
            # Playing a card only takes it from the hand, and die uses depend on the hand through its counts
            # per colour: test each colour (and the Ravager card) once, on the position without that card.
            key = (a - A.PLAY_MISSION) // 120 if a < A.PLAY_RAVAGER else 3
            ok = verdict.get(key)
            if ok is None:
                ok = verdict[key] = _a2_possible_without_card(s, p, key)
        else:
            key = -1 - a
            ok = verdict.get(key)
            if ok is None:
                t = s.copy()
                _dispatch(t, a)
                ok = verdict[key] = _a2_still_possible(t, p)
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
        s._memo_ok = False


_TILE_SUBPHASES = (PH_TILE_OPTION, PH_TILE_ADJACENT, PH_TILE_DRAW, PH_TILE_ROBOT, PH_SHIP_SELECT, PH_SHIP_MOVE,
                   PH_KEEP)


def _a2_still_possible(t: State, p: int) -> bool:
    """After an A1 step (on a copy): some die is usable in A2, now or after a choice of the tile effect in
    progress (e.g. a launched ship still to move, R-A2)."""
    if a2_possible(t, p):
        return True
    if t.m.item(M_PHASE) not in _TILE_SUBPHASES:
        return False
    for a in legal_actions(t):
        if a != A.DONE:
            u = t.copy()
            _dispatch(u, a)
            if _a2_still_possible(u, p):
                return True
    return False
