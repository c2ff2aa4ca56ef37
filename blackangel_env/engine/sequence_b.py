"""Sequence B (rulebook): B.1 reroll one die per workstation robot (the neutral dice of the 2-player
game), the optional reservation, B.2 clear the board around the player's grid, B.3 the Black Angel advances.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import DONE, RESERVE_DIE, USE_BOOST
from ..constants import BE_FREE_RESERVE, COLOURS
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, DIE_SUPPLY, M_B_FREE_COLOUR, M_B_PAID, M_END_TRIGGERED, M_N_PLAYERS, M_PHASE, M_TURN_PLAYER, N_DICE,
        N_RAVAGERS, OT_RAV_WHERE, O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_GRID, O_RES, O_ROBOTS_WS, O_SLOTS,
        PH_B_RESERVE, RAVAGER_SLOT, RV_DISCARD, SRC_PENALTY,
    )

from .core import _log, gain_vp, seat_name
from .decks import _discard_mission
from .dice import _roll_into, _roll_robots
from .kernels import return_dice, store_grid_debris, unreserved_dice
from .phases import register
from .black_angel import advance_black_angel
from .die_uses import _boost_cells
from .rounds import _end_turn


@cython.locals(p=cython.long, free=cython.long)
def _legal_b_reserve(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    free = m.r[M_B_FREE_COLOUR]
    own = unreserved_dice(s, p)
    if free >= 0:
        return [RESERVE_DIE + d for d in own if d // 6 == free]
    out = [DONE]
    if not m.r[M_B_PAID] and m.r[O_RES + p] >= 1:
        out.extend(RESERVE_DIE + d for d in own)
    for cell in _boost_cells(s, p, BE_FREE_RESERVE):
        c = m.comp.tile_boost_arg[m.r[O_GRID + 9 * p + cell]]
        for d in own:
            if d // 6 == c:
                out.append(USE_BOOST + cell)
                break
    return out


@cython.cfunc
@cython.locals(r=cython.Py_ssize_t)
def _ravager_at(r: int) -> None:
    """A Ravager card 0 to the last, as the named view's indexing checked it (IndexError)."""
    if not 0 <= r < N_RAVAGERS:
        raise IndexError(f"no Ravager card {r}")


@cython.ccall
def _sequence_b(s: State, p: int) -> None:
    """B.1 Reroll: lose the value of the dice still in the compartment, roll one die per workstation robot
    (damaged dice cost 1 VP each); then the optional reservation."""
    m = cython.declare(Registers, registers(s))
    total = return_dice(s, p)
    gain_vp(s, p, -total, SRC_PENALTY, "dice left in the compartment at Sequence B")
    _roll_robots(s, p, True)
    if m.r[M_N_PLAYERS] == 2:
        _neutral_dice(s)
    m.r[M_B_PAID] = 0
    m.r[M_B_FREE_COLOUR] = -1
    if len(_legal_b_reserve(s)) > 1:
        m.r[M_PHASE] = PH_B_RESERVE
        return
    _finish_b(s)


@cython.ccall
@cython.locals(d=cython.Py_ssize_t, c=cython.Py_ssize_t, held=cython.bint)
def _neutral_dice(s: State) -> None:
    """2-PLAYER GAME: the neutral's 1-3 dice stay, its stars return; then a die of each colour where it has a
    workstation robot and no die of that colour."""
    m = cython.declare(Registers, registers(s))
    for d in range(N_DICE):
        if m.r[O_DIE_OWNER + d] == BOT and m.r[O_DIE_VALUE + d] == 0:
            m.r[O_DIE_OWNER + d] = DIE_SUPPLY
    for c in range(3):
        if m.r[O_ROBOTS_WS + 3 * BOT + c] > 0:
            held = False
            for d in range(6 * c, 6 * c + 6):
                if m.r[O_DIE_OWNER + d] == BOT:
                    held = True
                    break
            if not held:
                _roll_into(s, BOT, c, False)


def _do_b_reserve(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _finish_b(s)
        return
    if USE_BOOST <= a < USE_BOOST + 9:
        t = s.grid.item(p, a - USE_BOOST)
        s.tile_boost[t] = 0
        m.r[M_B_FREE_COLOUR] = s.comp.tile_boost_arg[t]
        return
    d = a - RESERVE_DIE
    m.r[O_DIE_RESERVED + d] = 1
    if m.r[M_B_FREE_COLOUR] >= 0:
        m.r[M_B_FREE_COLOUR] = -1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} reserves a {COLOURS[d // 6]} {s.die_value.item(d)} (1x tile)")
    else:
        m.r[O_RES + p] -= 1
        m.r[M_B_PAID] = 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} reserves a {COLOURS[d // 6]} {s.die_value.item(d)} for 1 resource")
    if len(_legal_b_reserve(s)) == 1:
        _finish_b(s)


@cython.ccall
def _finish_b(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    reset_board(s, p)
    if not m.r[M_END_TRIGGERED]:
        advance_black_angel(s)
    else:
        _log(s, "the Black Angel advances no further (end of the game triggered)")
    _end_turn(s)


@cython.ccall
def reset_board(s: State, p: int) -> None:
    """B.2: discard the cards played around the board; debris on tiles back to storage."""
    if not 0 <= p < 4:
        raise ValueError(f"reset_board: seat {p!r} is not a player seat 0-3")
    m = cython.declare(Registers, registers(s))
    o = O_SLOTS + 6 * p                          # p's row of slots, through the buffer
    for k in range(6):
        code = m.r[o + k]
        if code != -1:
            if code >= RAVAGER_SLOT:
                _ravager_at(code - RAVAGER_SLOT)
                m.r[OT_RAV_WHERE + m._tail + code - RAVAGER_SLOT] = RV_DISCARD
            elif code >= 0:
                _discard_mission(s, code)
            m.r[o + k] = -1
    store_grid_debris(s, p)


register(PH_B_RESERVE, legal=_legal_b_reserve, do=_do_b_reserve)
