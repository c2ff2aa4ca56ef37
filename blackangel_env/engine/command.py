"""Command (rulebook, Command steps 1-4): moving or launching a ship (also for the move-ship tile), then
placing a Mission card on the ship's hex.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import DONE, LAUNCH_SHIP, MOVE_SHIP, PLACE_MISSION, SELECT_SHIP
from ..board import black_angel_hex
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_ACTOR, M_DIE_COLOUR, M_MOVE_MIN, M_MOVE_RANGE, M_MOVE_RETURN, M_N_STRIPS, M_PHASE, M_SHIP_HEX,
        M_SHIP_LAUNCH, M_TURN_PLAYER, M_VALUE, PH_COMMAND_CARD, PH_SHIP_MOVE, PH_SHIP_SELECT,
    )

from .core import _log, seat_name
from .decks import _hand_missions
from .space import _add_ship, _can_place_at, _destinations, _occupancy_ok, _own_ship_hexes, _remove_ship
from .phases import register
from .missions import place_mission
from .a3 import _a3
from .tiles import _finish_tile


def _legal_ship_select(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    rmax, rmin = m.r[M_MOVE_RANGE], m.r[M_MOVE_MIN]
    command = m.r[M_MOVE_RETURN] == PH_COMMAND_CARD
    ba = black_angel_hex(m.r[M_N_STRIPS])
    out = []
    if command and rmax == 0:
        colour = m.r[M_DIE_COLOUR]
        for h in _own_ship_hexes(s, p):
            if _can_place_at(s, h, colour):
                out.append(SELECT_SHIP + h)
        if (s.ships.item(p) >= 1 and s.robots_break.item(p) >= 2 and _can_place_at(s, ba, colour)
                and _occupancy_ok(s, ba, p, -1)):
            out.append(LAUNCH_SHIP)
        return out
    for h in _own_ship_hexes(s, p):
        if _destinations(s, p, h, rmin, rmax, True):
            out.append(SELECT_SHIP + h)
    launch = []
    if s.ships.item(p) >= 1 and s.robots_break.item(p) >= 1 and _destinations(s, p, ba, rmin, rmax, False):
        launch = [LAUNCH_SHIP]
    if command:
        return out + launch
    out.append(DONE)
    return out + launch         # in A1: guarded by legal_actions (R-A2)


def _legal_ship_move(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    existing = not m.r[M_SHIP_LAUNCH]
    dests = _destinations(s, p, m.r[M_SHIP_HEX], m.r[M_MOVE_MIN], m.r[M_MOVE_RANGE], existing)
    return [MOVE_SHIP + h for h in dests]      # in A1: guarded by legal_actions (R-A2)


def _legal_command_card(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    h = m.r[M_SHIP_HEX]
    colour = m.r[M_DIE_COLOUR]
    out = [] if m.r[M_VALUE] == 0 else [DONE]
    if _can_place_at(s, h, colour) and s.robots_break.item(p) >= 1:
        out.extend(PLACE_MISSION + c for c in _hand_missions(s, p) if c // 20 == colour)
    return out


def _do_ship_select(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    if a == DONE:
        _finish_tile(s)
        return
    ba = black_angel_hex(m.r[M_N_STRIPS])
    if a == LAUNCH_SHIP:
        s.ships[p] -= 1
        s.robots_break[p] -= 1          # the pilot
        m.r[M_SHIP_LAUNCH] = 1
        m.r[M_SHIP_HEX] = ba
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} launches a ship")
    else:
        m.r[M_SHIP_LAUNCH] = 0
        m.r[M_SHIP_HEX] = a - SELECT_SHIP
    if m.r[M_MOVE_RANGE] == 0:            # a star die: no movement (Command step 1)
        if m.r[M_SHIP_LAUNCH]:
            _add_ship(s, ba, p)
            m.r[M_SHIP_LAUNCH] = 0
        m.r[M_PHASE] = PH_COMMAND_CARD
        return
    m.r[M_PHASE] = PH_SHIP_MOVE


def _do_ship_move(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_ACTOR]
    dest = a - MOVE_SHIP
    if not m.r[M_SHIP_LAUNCH]:
        _remove_ship(s, m.r[M_SHIP_HEX], p)
    _add_ship(s, dest, p)
    m.r[M_SHIP_LAUNCH] = 0
    m.r[M_SHIP_HEX] = dest
    if m.r[M_MOVE_RETURN] == PH_COMMAND_CARD:
        m.r[M_PHASE] = PH_COMMAND_CARD
    else:
        _finish_tile(s)


def _do_command_card(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _a3(s)
        return
    card = a - PLACE_MISSION
    h = m.r[M_SHIP_HEX]
    place_mission(s, p, card, h)
    _a3(s)


register(PH_SHIP_SELECT, legal=_legal_ship_select, do=_do_ship_select)
register(PH_SHIP_MOVE, legal=_legal_ship_move, do=_do_ship_move)
register(PH_COMMAND_CARD, legal=_legal_command_card, do=_do_command_card)
