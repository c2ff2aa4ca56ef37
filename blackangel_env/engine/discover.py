"""Discover (rulebook): take tiles from the display or the Advanced slots within the activations,
inject each into the grid (ejecting a tile at the far end, an Advanced one beside a Mission colour).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import ADVANCED_SPACE, DONE, INJECT, TAKE_ADVANCED, TAKE_TECH
from ..constants import ADV_TILE0, COLOURS
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_ACTOR, M_ADVANCED, M_DONE, M_EJECTED_ADV, M_PHASE, M_TAKEN_TILE, M_TURN_PLAYER, M_VALUE,
        PH_ADVANCED_SPACE, PH_DISCOVER, PH_INJECT, TL_ADV_SPACE, TL_EJECTED, TL_GRID, TL_TAKEN,
    )

from .core import _log, seat_name
from .decks import _refill_adv_slot
from .phases import register
from .a3 import _a3


def _discover_has_option(s: State, remaining: int) -> bool:
    costs = s.comp.display_costs
    for i, t in enumerate(s.display.tolist()):
        if t >= 0 and costs[i] <= remaining:
            return True
    if remaining >= s.comp.advanced_cost:
        return max(s.adv_slots.tolist()) >= 0
    return False


def _legal_discover(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    rem = m.r[M_VALUE] - m.r[M_DONE]
    out = [DONE] if m.r[M_DONE] > 0 else []
    costs = s.comp.display_costs
    for i, t in enumerate(s.display.tolist()):
        if t >= 0 and costs[i] <= rem:
            out.append(TAKE_TECH + i)
    if rem >= s.comp.advanced_cost:
        for k, t in enumerate(s.adv_slots.tolist()):
            if t >= 0:
                out.append(TAKE_ADVANCED + k)
    return out


def _legal_inject(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    t = m.r[M_TAKEN_TILE]
    if t >= ADV_TILE0:
        return [INJECT + 0, INJECT + 3]      # the two black arrows at the corner (rules-notes C11)
    return [INJECT + k for k in range(6)]


def _legal_advanced_space(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    return [ADVANCED_SPACE + k for k in range(3) if s.adv_space.item(p, k) < 0]


def _do_discover(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _a3(s)
        return
    if a < TAKE_ADVANCED:
        pos = a - TAKE_TECH
        t = s.display.item(pos)
        s.display[pos] = -1                   # not replaced; the others do not move (Discover notes)
        m.r[M_DONE] += s.comp.display_costs[pos]
    else:
        slot = a - TAKE_ADVANCED
        t = s.adv_slots.item(slot)
        _refill_adv_slot(s, slot)             # replaced at once from the deck (Discover notes)
        m.r[M_DONE] += s.comp.advanced_cost
    s.tile_where[t] = TL_TAKEN + p
    m.r[M_TAKEN_TILE] = t
    m.r[M_PHASE] = PH_INJECT
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} takes tile {t}")


def _do_inject(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    t = m.r[M_TAKEN_TILE]
    arrow = a - INJECT
    if arrow < 3:
        cells = [arrow * 3 + c for c in range(3)]          # enters at the left, pushes right
    else:
        k = arrow - 3
        cells = [r * 3 + k for r in range(3)]              # enters at the bottom, pushes up
    g = s.grid[p]
    gap = -1
    for i, c in enumerate(cells):
        if g[c] < 0:
            gap = i
            break
    ejected = -1
    if gap < 0:
        ejected = int(g[cells[2]])
        gap = 2
    for i in range(gap, 0, -1):
        g[cells[i]] = g[cells[i - 1]]
    g[cells[0]] = t
    s.tile_where[t] = TL_GRID + p
    if m.r[M_ADVANCED] and t < 48:
        s.tile_boost[t] = 1                    # ADVANCED RULES: injected boost side up
    m.r[M_TAKEN_TILE] = -1
    if ejected >= 0:
        _eject_tile(s, p, ejected)
        if m.r[M_PHASE] == PH_ADVANCED_SPACE:
            return
    _continue_discover(s)


def _eject_tile(s: State, p: int, t: int) -> None:
    m = cython.declare(Registers, registers(s))
    if s.tile_debris.item(t):
        s.tile_debris[t] = 0
        s.debris[p] += 1                       # Discover note: reclaim the debris
    if t >= ADV_TILE0:
        if any(s.adv_space.item(p, k) < 0 for k in range(3)):
            m.r[M_EJECTED_ADV] = t
            m.r[M_PHASE] = PH_ADVANCED_SPACE
            s.tile_where[t] = TL_EJECTED + p
            return
        s.tile_where[t] = TL_EJECTED + p       # ejected after the 3 spaces are full: capped at 4 VP
    else:
        s.tile_where[t] = TL_EJECTED + p
        s.tile_boost[t] = 0
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} ejects tile {t}")


def _do_advanced_space(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    k = a - ADVANCED_SPACE
    t = m.r[M_EJECTED_ADV]
    s.adv_space[p, k] = t
    s.tile_where[t] = TL_ADV_SPACE + p
    m.r[M_EJECTED_ADV] = -1
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} places ejected Advanced tile {t} beside the {COLOURS[k]} cards")
    _continue_discover(s)


def _continue_discover(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    rem = m.r[M_VALUE] - m.r[M_DONE]
    if rem >= 1 and _discover_has_option(s, rem):
        m.r[M_PHASE] = PH_DISCOVER
    else:
        _a3(s)


register(PH_DISCOVER, legal=_legal_discover, do=_do_discover)
register(PH_INJECT, legal=_legal_inject, do=_do_inject)
register(PH_ADVANCED_SPACE, legal=_legal_advanced_space, do=_do_advanced_space)
