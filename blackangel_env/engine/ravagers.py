"""Ravagers appear (rulebook, Command step 3 and Ravager cards): draw, place on their location, damage
the action; the end is triggered when the deck runs out.  (The effect of the topmost card before an action is
in ``board_actions``; destroying Ravagers in ``destroy``.)
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
        MAX_SEATS, M_RAV_DECK_N, N_RAVAGERS, OT_RAV_ROBOTS, OT_RAV_WHERE, O_RAV_COUNT, O_RAV_LOC, O_ROBOTS_BREAK,
        RV_BOARD, RV_DECK, RV_DISCARD,
    )

from .core import _log
from .decks import _pop_ravager
from .dice import _damage_action
from .end import _trigger_end


@cython.locals(r=cython.Py_ssize_t, a=cython.Py_ssize_t, k=cython.Py_ssize_t)
def _place_ravager(s: State, r: int) -> bool:
    """Place a drawn Ravager on its location and damage the action.  Returns False if the location was full
    (the card is discarded and the caller draws again)."""
    m = cython.declare(Registers, registers(s))     # the Ravager fields through the buffer
    comp = m.comp
    if not 0 <= r < N_RAVAGERS:
        raise IndexError(f"no Ravager card {r}")
    a = comp.ravager_action[r]
    if not 0 <= a < 6:
        raise IndexError(f"no Ravager location {a}")
    k = m.r[O_RAV_COUNT + a]
    if k >= comp.ravager_capacity:
        m.r[OT_RAV_WHERE + m._tail + r] = RV_DISCARD
        if m.log is not None:
            _log(s, f"Ravager {r + 61} discarded: location {a + 1} is full")
        return False
    if not 0 <= k < 3:
        raise IndexError(f"no place {k} at Ravager location {a}")
    m.r[O_RAV_LOC + 3 * a + k] = r
    m.r[O_RAV_COUNT + a] = k + 1
    m.r[OT_RAV_WHERE + m._tail + r] = RV_BOARD + a
    if m.log is not None:
        _log(s, f"Ravager {r + 61} attacks action {a + 1}")
    _damage_action(s, a)
    return True


@cython.locals(loc=cython.Py_ssize_t, i=cython.Py_ssize_t, k=cython.Py_ssize_t, r=cython.Py_ssize_t,
               seat=cython.Py_ssize_t, n=cython.Py_ssize_t)
def _clear_location(s: State, loc: int, code: int) -> int:
    """Every Ravager card at location ``loc`` leaves it for ``code`` (a hand, or the discard), the robots on it
    back to their players' break rooms (Destroy: the player's, and Hal's); the number of cards."""
    m = cython.declare(Registers, registers(s))     # the Ravager fields through the buffer
    if not 0 <= loc < 6:
        raise IndexError(f"no Ravager location {loc}")
    k = m.r[O_RAV_COUNT + loc]
    if not 0 <= k <= 3:
        raise IndexError(f"{k} cards at Ravager location {loc}")
    for i in range(k):
        r = m.r[O_RAV_LOC + 3 * loc + i]
        if not 0 <= r < N_RAVAGERS:
            raise IndexError(f"no Ravager card {r}")
        m.r[O_RAV_LOC + 3 * loc + i] = -1
        m.r[OT_RAV_WHERE + m._tail + r] = code
        for seat in range(MAX_SEATS):
            n = m.r[OT_RAV_ROBOTS + m._tail + MAX_SEATS * r + seat]
            if n:
                m.r[OT_RAV_ROBOTS + m._tail + MAX_SEATS * r + seat] = 0
                m.r[O_ROBOTS_BREAK + seat] += n      # liberated robots go back to the break room
    m.r[O_RAV_COUNT + loc] = 0
    return k


@cython.locals(cap=cython.Py_ssize_t, i=cython.Py_ssize_t, w=cython.Py_ssize_t, a=cython.Py_ssize_t,
               full=cython.bint)
def _ravager_can_land(s: State) -> bool:
    """Some card in the Ravager deck or its discard targets a location with room."""
    m = cython.declare(Registers, registers(s))     # the Ravager fields through the buffer
    cap = m.comp.ravager_capacity
    full = False
    for i in range(6):
        if m.r[O_RAV_COUNT + i] >= cap:
            full = True
            break
    if not full:                           # every location has room (the usual case): any card will do
        for i in range(N_RAVAGERS):
            w = m.r[OT_RAV_WHERE + m._tail + i]
            if w == RV_DECK or w == RV_DISCARD:
                return True
        return False
    target = m.comp.ravager_action
    for i in range(N_RAVAGERS):
        w = m.r[OT_RAV_WHERE + m._tail + i]
        if w == RV_DECK or w == RV_DISCARD:
            a = target[i]
            if not 0 <= a < 6:
                raise IndexError(f"no Ravager location {a}")
            if m.r[O_RAV_COUNT + a] < cap:
                return True
    return False


def _ravagers_appear(s: State, count: int) -> None:
    """Command step 3: one Ravager card per visible icon; full locations discard and draw again.  The end is
    triggered when the deck becomes empty (END OF THE GAME); further draws use the reshuffled discard."""
    m = cython.declare(Registers, registers(s))
    placed = 0
    while placed < count:
        if not _ravager_can_land(s):
            # Every card left in the deck and its discard targets a full location: each draw would be
            # discarded until the deck runs out (which triggers the end), then the reshuffled discard would
            # loop forever.  Play that out once and stop (rules decision R-D1).
            n = m.r[M_RAV_DECK_N]
            if n:
                for i in range(n):
                    s.rav_where[s.rav_deck.item(i)] = RV_DISCARD
                s.rav_deck[:n] = -1
                m.r[M_RAV_DECK_N] = 0
                _trigger_end(s, "the Ravager deck is empty")
            _log(s, "no Ravager card left can reach a free location: no more Ravager appears")
            return
        r = _pop_ravager(s)
        if r < 0:
            return
        if m.r[M_RAV_DECK_N] == 0:
            _trigger_end(s, "the Ravager deck is empty")
        if _place_ravager(s, r):
            placed += 1
