"""Technology tile effects, activated in A1 by a card, by debris in Repair, or by an activation tile; an
effect that needs a choice has its own phase (option, adjacent tile, draw colour, robot move, ship move).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import ACTIVATE_ADJACENT, DONE, DRAW_COLOUR, ROBOT_TO_BREAK_ROOM, ROBOT_TO_WORKSTATION, TILE_OPTION
from ..constants import (
    ADV_TILE0, COLOURS, TE_ACT_HORIZONTAL, TE_ACT_VERTICAL, TE_DEBRIS, TE_DRAW_MISSION, TE_MOVE_ROBOT, TE_MOVE_SHIP,
    TE_OR, TE_RESOURCE, TE_ROBOT, TE_SHIP, TE_VP,
)
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, M_ACTOR, M_ADVANCED, M_MOVE_MIN, M_MOVE_RANGE, M_MOVE_RETURN, M_N_PLAYERS, M_PHASE, M_TILE_ADJACENT,
        M_TILE_CELL, M_TILE_EFFECT, M_TILE_RETURN, PH_A1_TILES, PH_REPAIR, PH_SHIP_SELECT, PH_TILE_ADJACENT,
        PH_TILE_DRAW, PH_TILE_OPTION, PH_TILE_ROBOT, SRC_TILES,
    )

from .core import _log, _take_robots, gain_vp, seat_name
from .decks import _draw_mission, _mission_available, _to_hand
from .phases import _RESUME, register
from .a3 import _draw_two


def _legal_tile_option(s: State) -> list[int]:
    return [TILE_OPTION, TILE_OPTION + 1]


def _activatable(s: State, t: int) -> bool:
    """Tiles that cards, debris and activation tiles can activate: never Advanced tiles (rulebook A1 notes)."""
    return 0 <= t < ADV_TILE0


def _legal_tile_adjacent(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    cell = m.r[M_TILE_CELL]
    eff = m.r[M_TILE_EFFECT]
    r, c = divmod(cell, 3)
    cells = [(r - 1, c), (r + 1, c)] if eff == TE_ACT_VERTICAL else [(r, c - 1), (r, c + 1)]
    out = [DONE]
    for rr, cc in cells:
        if 0 <= rr < 3 and 0 <= cc < 3:
            t = s.grid.item(p, rr * 3 + cc)
            if _activatable(s, t) and s.comp.tile_effect[t] not in (TE_ACT_VERTICAL, TE_ACT_HORIZONTAL):
                out.append(ACTIVATE_ADJACENT + rr * 3 + cc)     # in A1: guarded by legal_actions (R-A2)
    return out


def _legal_tile_draw(s: State) -> list[int]:
    return [DONE] + [DRAW_COLOUR + c for c in range(3) if _mission_available(s, c)]


def _legal_tile_robot(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    cands = []
    if s.robots_break.item(p) > 0:
        cands.extend(ROBOT_TO_WORKSTATION + c for c in range(3))
    out = [DONE] + [ROBOT_TO_BREAK_ROOM + c for c in range(3) if s.robots_ws.item(p, c) > 0]
    return out + cands          # in A1: guarded by legal_actions (R-A2)


def _start_tile(s: State, cell: int, ret: int, adjacent: bool) -> None:
    """Resolve the tile in ``cell`` (activated by a card, debris or an activation tile)."""
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    t = s.grid.item(p, cell)
    if s.tile_boost.item(t):
        s.tile_boost[t] = 0      # ADVANCED RULES: flipping early makes a boost tile activatable (forfeits 1x)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} flips tile {t} to its standard side")
    m.r[M_TILE_CELL] = cell
    m.r[M_TILE_RETURN] = ret
    m.r[M_TILE_ADJACENT] = int(adjacent)
    eff = s.comp.tile_effect[t]
    if eff == TE_OR:
        m.r[M_PHASE] = PH_TILE_OPTION
        return
    _run_tile_effect(s, eff)


def _run_tile_effect(s: State, eff: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    m.r[M_TILE_EFFECT] = eff
    if eff == TE_VP:
        gain_vp(s, p, 1, SRC_TILES, "Technology tile")
    elif eff == TE_SHIP:
        s.ships[p] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a ship (tile)")
    elif eff == TE_RESOURCE:
        s.res[p] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a resource (tile)")
    elif eff == TE_DEBRIS:
        s.debris[p] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a debris (tile)")
    elif eff == TE_ROBOT:
        _take_robots(s, p, 1)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a robot (tile)")
    elif eff == TE_MOVE_SHIP:
        m.r[M_MOVE_RANGE] = 2
        m.r[M_MOVE_MIN] = 0
        m.r[M_MOVE_RETURN] = PH_TILE_OPTION     # marker: a tile's move, not Command
        m.r[M_PHASE] = PH_SHIP_SELECT
        return
    elif eff == TE_MOVE_ROBOT:
        m.r[M_PHASE] = PH_TILE_ROBOT
        return
    elif eff in (TE_ACT_VERTICAL, TE_ACT_HORIZONTAL):
        m.r[M_PHASE] = PH_TILE_ADJACENT
        return
    elif eff == TE_DRAW_MISSION:
        m.r[M_PHASE] = PH_TILE_DRAW
        return
    _finish_tile(s)


def _finish_tile(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    ret = m.r[M_TILE_RETURN]
    m.r[M_TILE_EFFECT] = -1
    if ret == PH_A1_TILES:
        _RESUME[PH_A1_TILES](s)            # sequence_a._after_a1_tile
    else:
        _RESUME[PH_REPAIR](s)              # repair._continue_repair


def _do_tile_option(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    t = s.grid.item(p, m.r[M_TILE_CELL])
    _run_tile_effect(s, s.comp.tile_options[t][a - TILE_OPTION])


def _do_tile_adjacent(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    if a == DONE:
        _finish_tile(s)
        return
    _start_tile(s, a - ACTIVATE_ADJACENT, m.r[M_TILE_RETURN], True)


def _do_tile_draw(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    if a == DONE:
        _finish_tile(s)
        return
    c = a - DRAW_COLOUR
    if m.r[M_ADVANCED]:
        _draw_two(s, p, c, PH_TILE_DRAW)      # advanced rules: draw 2, keep 1
        return
    card = _draw_mission(s, c)
    if card >= 0:
        _to_hand(s, p, card)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} draws a {COLOURS[c]} Mission card (tile)")
    _finish_tile(s)


def _do_tile_robot(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    if a >= ROBOT_TO_BREAK_ROOM and a < ROBOT_TO_BREAK_ROOM + 3:
        c = a - ROBOT_TO_BREAK_ROOM
        s.robots_ws[p, c] -= 1
        s.robots_break[p] += 1
    elif a != DONE:
        c = a - ROBOT_TO_WORKSTATION
        s.robots_break[p] -= 1
        s.robots_ws[p, c] += 1
        _remove_neutral_robot(s, c)
    _finish_tile(s)


def _remove_neutral_robot(s: State, c: int) -> None:
    """2-PLAYER GAME: a robot added to a workstation removes the neutral robot there from the game."""
    m = cython.declare(Registers, registers(s))
    if m.r[M_N_PLAYERS] == 2 and s.robots_ws.item(BOT, c) > 0:
        s.robots_ws[BOT, c] = 0
        if s.log is not None:
            _log(s, f"the neutral robot leaves the {COLOURS[c]} workstation")


register(PH_TILE_OPTION, legal=_legal_tile_option, do=_do_tile_option)
register(PH_TILE_ADJACENT, legal=_legal_tile_adjacent, do=_do_tile_adjacent)
register(PH_TILE_DRAW, legal=_legal_tile_draw, do=_do_tile_draw)
register(PH_TILE_ROBOT, legal=_legal_tile_robot, do=_do_tile_robot)
register(PH_TILE_DRAW, resume=_finish_tile)
