"""What a die can do (rulebook A2): the uses of a die of a colour and value, the dice a player may select,
the modifications that make a die usable (debris flip, set-to-3 and change-colour boosts), and whether
Sequence A is possible at all (rules decision R-A1; rules-notes D11).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..constants import BE_CHANGE_COLOUR, BE_SET_THREE
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_ADVANCED,
    )

from .dice import FLIP
from .predicates import die_usable, die_uses, plain_reachable, plain_selectable, robust_use


# The legal uses of a die (BOARD_ACTION / MISSION_ACTION ids; ``res_delta`` -1 for a bought die, whose price
# is paid before any mission cost), and whether it has one (``debris_delta`` -1 after a debris flip: R-A16).
_die_uses = die_uses
_die_usable = die_usable


def _boost_cells(s: State, p: int, effect: int) -> list[int]:
    """Grid cells of ``p`` holding a tile showing its boost side with the given 1x effect."""
    m = cython.declare(Registers, registers(s))
    if not m.r[M_ADVANCED]:
        return []
    out = []
    g = s.grid[p]
    comp = s.comp
    for cell in range(9):
        t = int(g[cell])
        if 0 <= t < 48 and s.tile_boost.item(t) and comp.tile_boost[t] == effect:
            out.append(cell)
    return out


def _die_reachable(s: State, p: int, colour: int, value: int, can_flip: bool, boosts: tuple,
                   cache: dict, res_delta: int = 0, debris_delta: int = 0) -> bool:
    """Does some sequence of die modifications (debris flip, set-to-3 and change-colour boosts) lead to a
    legal use?  ``boosts`` lists the unused boost cells as (cell, effect, colour).  A flip spends 1 debris
    (``debris_delta`` - 1 for what follows it: R-A16)."""
    if not boosts:
        # No boost: a use as the die is, or once flipped (what the search below finds, without its cache)
        return plain_reachable(s, p, colour, value, bool(can_flip), res_delta, debris_delta)
    key = (colour, value, can_flip, boosts, debris_delta)
    if key in cache:
        return cache[key]
    cache[key] = False
    ok = _die_usable(s, p, colour, value, res_delta, debris_delta)
    if not ok and can_flip:
        ok = _die_reachable(s, p, colour, FLIP[value], False, boosts, cache, res_delta, debris_delta - 1)
    if not ok:
        for i, (cell, eff, bc) in enumerate(boosts):
            if bc != colour:
                continue
            rest = boosts[:i] + boosts[i + 1:]
            if eff == BE_SET_THREE:
                ok = _die_reachable(s, p, colour, 3, can_flip, rest, cache, res_delta, debris_delta)
            else:
                ok = any(_die_reachable(s, p, c2, value, can_flip, rest, cache, res_delta, debris_delta)
                         for c2 in range(3) if c2 != colour)
            if ok:
                break
    cache[key] = ok
    return ok


def _die_boosts(s: State, p: int) -> tuple:
    m = cython.declare(Registers, registers(s))
    if not m.r[M_ADVANCED]:
        return ()
    comp = s.comp
    out = []
    for cell in _boost_cells(s, p, BE_SET_THREE) + _boost_cells(s, p, BE_CHANGE_COLOUR):
        t = s.grid.item(p, cell)
        out.append((cell, comp.tile_boost[t], comp.tile_boost_arg[t]))
    out.sort()
    return tuple(out)


@cython.ccall
def _selectable_dice(s: State, p: int, stop_at_first: bool = False) -> list[int]:
    """Dice p may choose in A2: own dice, or unreserved dice of others bought for 1 resource (never reserved
    ones, rulebook A2 and Reserved die), that have at least one legal use."""
    boosts = _die_boosts(s, p)
    if not boosts:
        return plain_selectable(s, p, stop_at_first)
    out = []
    cache: dict = {}
    cache_bought: dict = {}
    can_buy = s.res.item(p) >= 1
    debris = s.debris.item(p) >= 1
    owners = s.die_owner.tolist()
    values = s.die_value.tolist()
    reserved = s.die_reserved.tolist()
    verdict: dict[tuple[int, int, int], bool] = {}     # (colour, value, price) -> usable: dice alike judged once
    for d in range(18):
        o = owners[d]
        if o == p:
            key = (d // 6, values[d], 0)
            ok = verdict.get(key)
            if ok is None:
                ok = verdict[key] = _die_reachable(s, p, key[0], key[1], debris, boosts, cache)
        elif o >= 0 and can_buy and not reserved[d]:
            # the use is judged after paying the price (a mission may need a resource)
            key = (d // 6, values[d], -1)
            ok = verdict.get(key)
            if ok is None:
                ok = verdict[key] = _die_reachable(s, p, key[0], key[1], False, boosts, cache_bought, -1)
        else:
            continue
        if ok:
            out.append(d)
            if stop_at_first:
                return out
    return out


def a2_possible(s: State, p: int) -> bool:
    """Sequence A is possible iff some die p may use has a legal action (rules decision R-A1; rules-notes D11)."""
    return bool(_selectable_dice(s, p, True))


# A die use that nothing in A1 can take away (the A1 guard's shortcut).
_a2_robust = robust_use
