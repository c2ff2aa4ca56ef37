"""The bottom of the engine: seat names, the log, VP with a cause, goods.

Every rule module imports these; this module imports no other module of the engine.  ``gain_vp`` is the only
way VP change (never below 0, rules-notes C13), each change recorded in ``vp_src`` by source and, in logged
games, in the log with its cause.  ``hal_gain`` turns what Hal gains into VP by the weighting on the back of his
cards (solitaire rules; rules-notes C8).
"""

from __future__ import annotations

import operator as _operator

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..constants import G_DEBRIS, G_MISSION, G_RAVAGER, G_RESOURCE, G_ROBOT, G_SHIP, G_TECH, G_VP, N_GOODS
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, MAX_SEATS, M_SOLO, N_SRC, O_DEBRIS, O_RES, O_SHIPS, O_VP, O_VP_SRC, SRC_HAL,
    )


SEQ_NONE, SEQ_A, SEQ_B = 0, 1, 2


class IllegalActionError(ValueError):
    """The action is not legal in this state; the state was left unchanged."""


def not_a_state(what: str, s) -> TypeError:
    """The error of an entry point (``what``) given something else than a State."""
    return TypeError(f"{what}: expected a blackangel_env State, got {type(s).__name__}")


def seat_name(s: State, seat: int) -> str:
    m = cython.declare(Registers, registers(s))
    if seat == BOT:
        return "Hal" if m.r[M_SOLO] else "neutral"
    return f"player_{seat}"


def _log(s: State, msg: str) -> None:
    """Record a message when the game keeps a log.  Callers that build the message with an f-string test
    ``s.log is not None`` first, so that unrecorded games never format it."""
    if s.log is not None:
        s.log.append(msg)


@cython.locals(old=cython.long, new=cython.long, i=cython.Py_ssize_t, j=cython.Py_ssize_t)
def gain_vp(s: State, seat: int, n: int, src: int, cause: str) -> None:
    """Change a seat's VP (never below 0, rules-notes C13) and record the source and cause."""
    if type(n) is not int:
        n = _operator.index(n)                 # a numpy integer; a float or a bool's kin raises TypeError
    if n == 0:
        return
    if not (0 <= seat < MAX_SEATS and 0 <= src < N_SRC):
        raise ValueError(f"gain_vp: seat {seat!r} and source {src!r} must be a seat 0-{MAX_SEATS - 1} and a "
                         f"source 0-{N_SRC - 1}")
    m = cython.declare(Registers, registers(s))     # the VP fields through the buffer (state.FIXED_OFFSETS)
    i, j = seat, src                                # checked: as C integers
    old = m.r[O_VP + i]
    new = old + n
    if new < 0:
        new = 0
    by_src = m.r[O_VP_SRC + N_SRC * i + j] + new - old
    if new > 32767 or not -32768 <= by_src <= 32767:   # the buffer's int16 (checked: compiled, C stores wrap)
        raise ValueError(f"gain_vp: {n:+d} VP would take seat {seat}'s VP ({old}) or its VP from source {src} "
                         "past the state's 16-bit range")
    m.r[O_VP + i] = new
    m.r[O_VP_SRC + N_SRC * i + j] = by_src
    if s.log is not None:
        s.log.append(f"{seat_name(s, seat)} {n:+d} VP ({cause}) -> {new}")


def hal_gain(s: State, vec=None, cause: str = "", tech: int = 0, advanced: int = 0, ravagers: int = 0) -> None:
    """Convert gains to VP with the weighting on Hal's cards (rules-notes C8): every good of the gain vector ``vec``
    (ships, resources, robots, debris, Technology tiles, Ravager cards; Mission cards weigh 0: Hal keeps none),
    a VP reward at face value, and ``tech`` / ``advanced`` / ``ravagers`` taken outside a vector."""
    c = s.comp
    w = c.hal_weight
    total = tech * w[G_TECH] + advanced * c.hal_weight_advanced + ravagers * w[G_RAVAGER]
    if vec is not None:
        for g in (G_SHIP, G_RESOURCE, G_ROBOT, G_DEBRIS, G_TECH, G_RAVAGER, G_MISSION):
            total += vec[g] * w[g]
        total += vec[G_VP]
    gain_vp(s, BOT, total, SRC_HAL, cause)


def gain_goods(s: State, seat: int, vec, src: int, cause: str) -> None:
    """Receive ships / resources / robots / debris / VP (a cost/gain vector indexed by G_*).  A seat, vector or
    source out of range raises ValueError before anything changes."""
    m = cython.declare(Registers, registers(s))
    if not (0 <= seat < MAX_SEATS and 0 <= src < N_SRC and len(vec) == N_GOODS):
        raise ValueError(f"gain_goods: seat {seat!r}, source {src!r} and goods {vec!r} must be a seat "
                         f"0-{MAX_SEATS - 1}, a source 0-{N_SRC - 1} and a vector of {N_GOODS} amounts")
    if seat == BOT:
        if m.r[M_SOLO]:
            hal_gain(s, vec, cause)     # Hal turns every gain into VP (solitaire rules)
        return
    i = cython.declare(cython.Py_ssize_t, seat)     # checked: as a C integer
    if vec[G_SHIP]:
        m.r[O_SHIPS + i] += vec[G_SHIP]
    if vec[G_RESOURCE]:
        m.r[O_RES + i] += vec[G_RESOURCE]
    if vec[G_DEBRIS]:
        m.r[O_DEBRIS + i] += vec[G_DEBRIS]
    if vec[G_ROBOT]:
        _take_robots(s, seat, vec[G_ROBOT])
    if vec[G_VP]:
        gain_vp(s, seat, vec[G_VP], src, cause)
    if s.log is not None:
        got = [f"{vec[g]} {name}" for g, name in ((G_SHIP, "ship"), (G_RESOURCE, "resource"),
                                                  (G_ROBOT, "robot"), (G_DEBRIS, "debris")) if vec[g]]
        if got:
            s.log.append(f"{seat_name(s, seat)} gains {', '.join(got)} ({cause})")


def _take_robots(s: State, seat: int, n: int) -> None:
    """Robots are limited (rulebook COMPONENTS note): take up to n from the seat's supply to its break room."""
    k = min(n, s.robots_supply.item(seat))
    s.robots_supply[seat] -= k
    s.robots_break[seat] += k
