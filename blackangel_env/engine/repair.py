"""Repair (rulebook): remove Damage cubes from actions or dice; each cube becomes a debris, to storage or
onto a tile of the grid (which activates it).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import DEBRIS_TO_STORAGE, DEBRIS_TO_TILE, DONE, REPAIR_ACTION, REPAIR_DIE
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        DIE_SUPPLY, M_ACTOR, M_DONE, M_PHASE, M_VALUE, OT_TILE_DEBRIS, O_DIE_DAMAGED, O_DIE_OWNER, O_DMG, O_GRID,
        PH_DEBRIS, PH_REPAIR,
    )

from .phases import register
from .a3 import _a3
from .tiles import _activatable, _start_tile


@cython.locals(a=cython.Py_ssize_t, c=cython.Py_ssize_t, d=cython.Py_ssize_t)
def _legal_repair(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    out = [DONE] if m.r[M_DONE] > 0 else []
    for a in range(6):                           # the fields through the buffer
        if m.r[O_DMG + a] > 0:
            out.append(REPAIR_ACTION + a)
    for c in range(3):
        for d in range(6 * c, 6 * c + 6):
            if m.r[O_DIE_OWNER + d] == DIE_SUPPLY and m.r[O_DIE_DAMAGED + d]:
                out.append(REPAIR_DIE + c)
                break
    return out


def _legal_debris(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    if not 0 <= p < 4:
        raise IndexError(f"no player seat {p}")
    out = [DEBRIS_TO_STORAGE]
    for cell in range(9):                        # p's grid and the tiles' debris through the buffer
        t = m.r[O_GRID + 9 * p + cell]
        if _activatable(s, t) and not m.r[OT_TILE_DEBRIS + m._tail + t]:
            out.append(DEBRIS_TO_TILE + cell)
    return out


def _do_repair(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    if a == DONE:
        _a3(s)
        return
    if a < REPAIR_DIE:
        act = a - REPAIR_ACTION
        m.r[O_DMG + act] -= 1                  # the cube that damages the action goes first
    else:
        c = a - REPAIR_DIE
        for d in range(6 * c, 6 * c + 6):
            if m.r[O_DIE_OWNER + d] == DIE_SUPPLY and m.r[O_DIE_DAMAGED + d]:
                m.r[O_DIE_DAMAGED + d] = 0
                break
    m.r[M_DONE] += 1
    m.r[M_PHASE] = PH_DEBRIS


def _do_debris(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    if a == DEBRIS_TO_STORAGE:
        s.debris[p] += 1
        _continue_repair(s)
        return
    cell = a - DEBRIS_TO_TILE
    t = s.grid.item(p, cell)
    s.tile_debris[t] = 1
    _start_tile(s, cell, PH_REPAIR, False)


def _continue_repair(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    if m.r[M_DONE] < m.r[M_VALUE] and len(_legal_repair(s)) > 1:
        m.r[M_PHASE] = PH_REPAIR
    else:
        _a3(s)


register(PH_REPAIR, legal=_legal_repair, do=_do_repair)
register(PH_DEBRIS, legal=_legal_debris, do=_do_debris)
register(PH_REPAIR, resume=_continue_repair)
