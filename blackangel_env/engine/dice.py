"""Dice: rolling (with the game's generator), the supply, Damage cubes on dice and actions, the die value
an action sees (basic operations, no decision).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..constants import COLOURS
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        DIE_SUPPLY, MAX_SEATS, O_DIE_DAMAGED, O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_DMG, O_ROBOTS_WS,
        SRC_PENALTY,
    )

from .core import _log, gain_vp
from .kernels import roll_dice, take_supply_dice


FLIP = (2, 3, 0, 1)                # opposite face: 0<->2, 1<->3 (rulebook A2: opposite faces differ by 2)


def _roll(s: State) -> int:
    faces = s.comp.die_faces
    return faces[int(s.rng.random() * len(faces))]


@cython.cfunc
@cython.locals(c=cython.Py_ssize_t)
def _colour(c: int) -> None:
    """A die colour 0-2 (IndexError otherwise: the dice of colour c are dice 6c..6c+5)."""
    if not 0 <= c < 3:
        raise IndexError(f"die colour {c} is not 0-2")


@cython.cfunc
@cython.locals(a=cython.Py_ssize_t)
def _action(a: int) -> None:
    """An action space 0-5 of the Black Angel board (IndexError otherwise)."""
    if not 0 <= a < 6:
        raise IndexError(f"action {a} is not an action space 0-5")


@cython.locals(base=cython.Py_ssize_t, best=cython.Py_ssize_t, d=cython.Py_ssize_t)
def _supply_die(s: State, colour: int, damaged_ok: bool = True) -> int:
    """A die of ``colour`` in the supply, undamaged first (rules decision R-B1), or -1."""
    m = cython.declare(Registers, registers(s))
    _colour(colour)
    base = colour * 6
    best = -1
    for d in range(base, base + 6):
        if m.r[O_DIE_OWNER + d] == DIE_SUPPLY:
            if not m.r[O_DIE_DAMAGED + d]:
                return d
            if best < 0 and damaged_ok:
                best = d
    return best


@cython.locals(base=cython.Py_ssize_t, d=cython.Py_ssize_t)
def _damage_die(s: State, colour: int) -> bool:
    """Put a Damage cube on an undamaged die of ``colour`` in the supply (a die holds at most one cube)."""
    m = cython.declare(Registers, registers(s))
    _colour(colour)
    base = colour * 6
    for d in range(base, base + 6):
        if m.r[O_DIE_OWNER + d] == DIE_SUPPLY and not m.r[O_DIE_DAMAGED + d]:
            m.r[O_DIE_DAMAGED + d] = 1
            return True
    return False


@cython.locals(a=cython.Py_ssize_t)
def _damage_action(s: State, a: int) -> None:
    """Rulebook, Ravagers appear / appendix RAVAGER CARDS: first empty damage space, else a die in the
    same-colour supply, else the damage is ignored."""
    m = cython.declare(Registers, registers(s))
    _action(a)
    comp = m.comp
    if m.r[O_DMG + a] < comp.max_action_damage:
        m.r[O_DMG + a] += 1
        if m.log is not None:
            k = m.r[O_DMG + a]
            _log(s, f"damage on action {a + 1} ({k} cube{'' if k == 1 else 's'})")
    elif _damage_die(s, comp.action_colour[a]) and m.log is not None:
        _log(s, f"damage on a {COLOURS[comp.action_colour[a]]} die in the supply")


@cython.locals(d=cython.Py_ssize_t)
def _take_supply_die(s: State, seat: int, colour: int, penalise: bool) -> int:
    """Move a die of ``colour`` from the supply to ``seat``'s compartment, to be rolled (a damaged one loses its
    cube and, if ``penalise``, costs 1 VP); the die, or -1 if the supply has none."""
    m = cython.declare(Registers, registers(s))
    d = _supply_die(s, colour)
    if d < 0:
        return -1
    if m.r[O_DIE_DAMAGED + d]:
        m.r[O_DIE_DAMAGED + d] = 0
        if penalise:
            gain_vp(s, seat, -1, SRC_PENALTY, f"rolled a damaged {COLOURS[colour]} die")
    m.r[O_DIE_OWNER + d] = seat
    m.r[O_DIE_RESERVED + d] = 0
    return d


@cython.locals(d=cython.Py_ssize_t)
def _roll_into(s: State, seat: int, colour: int, penalise: bool) -> bool:
    m = cython.declare(Registers, registers(s))
    d = _take_supply_die(s, seat, colour, penalise)
    if d < 0:
        return False
    m.r[O_DIE_VALUE + d] = _roll(s)
    return True


@cython.locals(o=cython.Py_ssize_t)
def _roll_robots(s: State, seat: int, penalise: bool) -> None:
    """Roll one die per workstation robot of ``seat``, colour by colour, while the supply has one (Sequence B)."""
    m = cython.declare(Registers, registers(s))
    if not 0 <= seat < MAX_SEATS:
        raise ValueError(f"_roll_robots: seat {seat!r} is not a seat 0-{MAX_SEATS - 1}")
    o = O_ROBOTS_WS + 3 * seat                   # the seat's row of robots_ws, through the buffer
    _roll_dice(s, [(seat, 0, m.r[o]), (seat, 1, m.r[o + 1]), (seat, 2, m.r[o + 2])], penalise)


def _roll_dice(s: State, wanted: list[tuple[int, int, int]], penalise: bool) -> None:
    """For each (seat, colour, count) in order, roll ``count`` dice of that colour into the seat's compartment
    while the supply has one (as ``_roll_into`` one at a time).  The dice are taken first (``kernels``) and rolled
    with one batch of random numbers: the same numbers, in the same order, as one draw per die (nothing in between
    reads the values), for a fraction of the cost."""
    taken, damaged = take_supply_dice(s, wanted)
    if penalise:
        for seat, c in damaged:
            gain_vp(s, seat, -1, SRC_PENALTY, f"rolled a damaged {COLOURS[c]} die")
    roll_dice(s, taken)                         # as _roll, die by die


@cython.locals(a=cython.Py_ssize_t)
def _effective(s: State, a: int, value: int) -> int:
    """A damaged action (2 cubes) reduces the die by 1; a 0 stays 0 (rulebook, Damaged Action)."""
    m = cython.declare(Registers, registers(s))
    _action(a)
    if value > 0 and m.r[O_DMG + a] >= m.comp.max_action_damage:
        return value - 1
    return value
