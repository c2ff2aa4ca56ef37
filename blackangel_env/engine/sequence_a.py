"""Sequence A's decisions (rulebook A1 and A2): play a card around the grid and resolve the tiles of its
line; choose a die (own, or bought), modify it, and choose its use.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import (
    BOARD_ACTION, DONE, FLIP_DIE, MISSION_ACTION, PLAY_MISSION, PLAY_RAVAGER, RESOLVE_TILE, SELECT_DIE,
    SET_DIE_COLOUR, USE_BOOST,
)
from ..constants import BE_SET_THREE, BE_VP_ON_ACTION, COLOURS
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, DIE_IN_USE, MC_SLOT, M_A1_COLOUR, M_A1_SLOT, M_ACTION, M_ACTOR, M_BOOSTS_USED, M_DIE, M_DIE_BOUGHT,
        M_DIE_COLOUR, M_DIE_COLOUR0, M_DIE_FLIPPED, M_DIE_VALUE, M_PENDING, M_PHASE, M_SOLO, M_TURN_PLAYER,
        OT_MC_WHERE, OT_RAV_WHERE, O_DEBRIS, O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_GRID, O_HAND_MC,
        O_HAND_RAV, O_RES, O_SLOTS, PH_A1_CARD, PH_A1_TILES, PH_A2_DIE, PH_A2_MODIFY, PH_ACTION_BOOST,
        PH_DIE_COLOUR, RAVAGER_SLOT, RV_SLOT, SRC_TRADE,
    )

from .core import _log, gain_vp, seat_name
from .decks import _hand_missions, _lowest_hand_ravager
from .dice import FLIP
from .phases import register
from .die_uses import _a2_robust, _boost_cells, _die_boosts, _die_reachable, _die_uses, _selectable_dice, a2_possible
from .guard import _guarded
from .tiles import _activatable, _start_tile
from .activation import _start_mission
from .board_actions import _resolve_ravager_effect


@cython.locals(p=cython.long, o=cython.long, k=cython.long, card=cython.long, base=cython.long)
def _legal_a1_card(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    o = O_SLOTS + 6 * p                          # p's row of slots, through the buffer
    empty: list = []
    for k in range(6):
        if m.r[o + k] < 0:
            empty.append(k)
    cands: list = []
    if empty:
        for card in _hand_missions(s, p):
            base = PLAY_MISSION + card * 6
            for k in empty:
                cands.append(base + k)
        if m.r[O_HAND_RAV + p] > 0:
            for k in empty:
                cands.append(PLAY_RAVAGER + k)
    return [DONE] + _guarded(s, p, cands)


@cython.ccall
def _pending_cells(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    pend = m.r[M_PENDING]
    return [c for c in range(9) if pend >> c & 1]


def _legal_a1_tiles(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    # R-A2 (with R-A3: activating a boost-side tile flips it and forfeits its 1x, which may be the die's only
    # use): every tile is judged with the choices its effect leads to; DONE (ending A1) only while a die is
    # usable, since a card may be played because a tile it activates makes a die usable again
    cands = [RESOLVE_TILE + c for c in _pending_cells(s)]
    if _a2_robust(s, p):
        return [DONE] + cands
    tiles = _guarded(s, p, cands)
    return ([DONE] if a2_possible(s, p) else []) + tiles


def _legal_a2_die(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    return [SELECT_DIE + d for d in _selectable_dice(s, p)]


def _legal_a2_modify(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    colour, value = m.r[M_DIE_COLOUR], m.r[M_DIE_VALUE]
    can_flip = not m.r[M_DIE_BOUGHT] and not m.r[M_DIE_FLIPPED] and m.r[O_DEBRIS + p] >= 1
    boosts = _die_boosts(s, p)
    cache: dict = {}
    out = _die_uses(s, p, colour, value)               # a new list
    if can_flip and _die_reachable(s, p, colour, FLIP[value], False, boosts, cache, 0, -1):
        out.append(FLIP_DIE)
    for i, (cell, eff, bc) in enumerate(boosts):
        if bc != colour:
            continue
        rest = boosts[:i] + boosts[i + 1:]
        if eff == BE_SET_THREE:
            ok = _die_reachable(s, p, colour, 3, can_flip, rest, cache)
        else:
            ok = any(_die_reachable(s, p, c2, value, can_flip, rest, cache) for c2 in range(3) if c2 != colour)
        if ok:
            out.append(USE_BOOST + cell)
    return out


def _legal_die_colour(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    colour, value = m.r[M_DIE_COLOUR], m.r[M_DIE_VALUE]
    can_flip = not m.r[M_DIE_BOUGHT] and not m.r[M_DIE_FLIPPED] and m.r[O_DEBRIS + p] >= 1
    boosts = _die_boosts(s, p)
    cache: dict = {}
    return [SET_DIE_COLOUR + c for c in range(3)
            if c != colour and _die_reachable(s, p, c, value, can_flip, boosts, cache)]


@cython.ccall
def _line_cells(slot: int) -> list[int]:
    if slot < 3:
        return [slot * 3 + c for c in range(3)]
    k = slot - 3
    return [r * 3 + k for r in range(3)]


def _do_a1_card(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _enter_a2(s)
        return
    if a >= PLAY_RAVAGER:
        slot = a - PLAY_RAVAGER
        r = _lowest_hand_ravager(s, p)
        m.r[OT_RAV_WHERE + m._tail + r] = RV_SLOT + p
        m.r[O_HAND_RAV + p] -= 1
        m.r[O_SLOTS + 6 * p + slot] = RAVAGER_SLOT + r
        colour = -1
    else:
        card, slot = divmod(a - PLAY_MISSION, 6)
        m.r[OT_MC_WHERE + m._tail + card] = MC_SLOT + p
        m.r[O_HAND_MC + 3 * p + card // 20] -= 1
        m.r[O_SLOTS + 6 * p + slot] = card
        colour = card // 20
    pend = 0
    comp = m.comp
    for cell in _line_cells(slot):
        t = m.r[O_GRID + 9 * p + cell]
        if _activatable(s, t) and (colour < 0 or comp.tile_colour[t] == colour):
            pend |= 1 << cell
    m.r[M_A1_SLOT] = slot
    m.r[M_A1_COLOUR] = colour
    m.r[M_PENDING] = pend
    if pend:
        m.r[M_PHASE] = PH_A1_TILES
    else:
        _enter_a2(s)


def _do_a1_tiles(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    if a == DONE:
        m.r[M_PENDING] = 0
        _enter_a2(s)
        return
    cell = a - RESOLVE_TILE
    m.r[M_PENDING] = m.r[M_PENDING] & ~(1 << cell)
    _start_tile(s, cell, PH_A1_TILES, False)


def _after_a1_tile(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    if m.r[M_PENDING]:
        m.r[M_PHASE] = PH_A1_TILES
    else:
        _enter_a2(s)


@cython.ccall
def _enter_a2(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    m.r[M_PHASE] = PH_A2_DIE
    m.r[M_ACTOR] = m.r[M_TURN_PLAYER]


def _do_a2_die(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    d = a - SELECT_DIE
    owner = m.r[O_DIE_OWNER + d]
    bought = owner != p
    if bought:
        m.r[O_RES + p] -= 1
        if owner == BOT:
            if m.r[M_SOLO]:
                gain_vp(s, BOT, 1, SRC_TRADE, f"{seat_name(s, p)} bought Hal's die")
            # 2 players: the resource goes to the supply (2-PLAYER GAME)
        else:
            m.r[O_RES + owner] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} buys {seat_name(s, owner)}'s {COLOURS[d // 6]} {m.r[O_DIE_VALUE + d]}")
    m.r[O_DIE_OWNER + d] = DIE_IN_USE
    m.r[O_DIE_RESERVED + d] = 0
    m.r[M_DIE] = d
    m.r[M_DIE_BOUGHT] = int(bought)
    m.r[M_DIE_COLOUR0] = d // 6
    m.r[M_DIE_COLOUR] = d // 6
    m.r[M_DIE_VALUE] = m.r[O_DIE_VALUE + d]
    m.r[M_DIE_FLIPPED] = 0
    m.r[M_BOOSTS_USED] = 0
    m.r[M_PHASE] = PH_A2_MODIFY


def _do_a2_modify(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == FLIP_DIE:
        m.r[O_DEBRIS + p] -= 1
        v = FLIP[m.r[M_DIE_VALUE]]
        m.r[M_DIE_VALUE] = v
        m.r[M_DIE_FLIPPED] = 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} spends a debris to flip the die to {v}")
        return
    if USE_BOOST <= a < USE_BOOST + 9:
        cell = a - USE_BOOST
        t = s.grid.item(p, cell)
        s.tile_boost[t] = 0
        if s.comp.tile_boost[t] == BE_SET_THREE:
            m.r[M_DIE_VALUE] = 3
            if s.log is not None:
                _log(s, f"{seat_name(s, p)} uses tile {t}'s 1x: the die becomes a 3")
        else:
            m.r[M_PHASE] = PH_DIE_COLOUR
            if s.log is not None:
                _log(s, f"{seat_name(s, p)} uses tile {t}'s 1x: change the die's colour")
        return
    if a >= MISSION_ACTION and a < MISSION_ACTION + 60:
        _start_mission(s, p, a - MISSION_ACTION)
        return
    # BOARD_ACTION
    act = a - BOARD_ACTION
    m.r[M_ACTION] = act
    if any(s.comp.tile_boost_arg[s.grid.item(p, c)] == act for c in _boost_cells(s, p, BE_VP_ON_ACTION)):
        m.r[M_PHASE] = PH_ACTION_BOOST
        return
    _resolve_ravager_effect(s)


def _do_die_colour(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    m.r[M_DIE_COLOUR] = a - SET_DIE_COLOUR
    m.r[M_PHASE] = PH_A2_MODIFY


register(PH_A1_CARD, legal=_legal_a1_card, do=_do_a1_card)
register(PH_A1_TILES, legal=_legal_a1_tiles, do=_do_a1_tiles)
register(PH_A2_DIE, legal=_legal_a2_die, do=_do_a2_die)
register(PH_A2_MODIFY, legal=_legal_a2_modify, do=_do_a2_modify)
register(PH_DIE_COLOUR, legal=_legal_die_colour, do=_do_die_colour)
register(PH_A1_TILES, resume=_after_a1_tile)
