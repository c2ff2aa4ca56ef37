"""Activation Mission cards (rulebook, A2 with a Mission card): activations paid and gained, the tiles or
cards to spend, and the owner's free activation when the card is someone else's (PERFORMING AN ACTION IN AN
ALIEN TERRITORY).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

import numpy as np

from ..actions import ACTIVATE, DONE, SPEND_EJECTED_TECH, SPEND_MISSION, SPEND_TECH
from ..constants import ADV_TILE0, COLOURS, G_DEBRIS, G_MISSION, G_RAVAGER, G_RESOURCE, G_ROBOT, G_SHIP, G_TECH
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, M_ACTION, M_ACTOR, M_DIE_COLOUR, M_DIE_VALUE, M_DONE, M_MISSION, M_OWNER, M_PAY_MISSION, M_PAY_RETURN,
        M_PAY_SEAT, M_PAY_TECH, M_PHASE, M_SOLO, M_TURN_PLAYER, M_VALUE, PH_MISSION, PH_OWNER, PH_PAY, RV_DISCARD,
        SRC_ACTIVATION, TL_DISCARD, TL_EJECTED,
    )

from .core import _log, gain_goods, seat_name
from .decks import _discard_mission, _hand_missions, _lowest_hand_ravager
from .phases import register
from .missions import _can_pay
from .hal import hal_free_activation
from .a3 import _a3


def _legal_mission(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    card = m.r[M_MISSION]
    out = [DONE] if m.r[M_DONE] > 0 else []
    if m.r[M_DONE] < m.r[M_VALUE] and _can_pay(s, p, s.comp.mission_cost[card]):
        out.append(ACTIVATE)
    return out


def _legal_pay(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_PAY_SEAT]
    if m.r[M_PAY_TECH] > 0:
        out = [SPEND_TECH + c for c in range(9) if 0 <= s.grid[p, c] < ADV_TILE0]
        if np.any(s.tile_where[:ADV_TILE0] == TL_EJECTED + p):
            out.append(SPEND_EJECTED_TECH)
        return out
    return [SPEND_MISSION + c for c in _hand_missions(s, p)]


def _legal_owner(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_OWNER]
    card = m.r[M_MISSION]
    if _can_pay(s, p, s.comp.mission_cost[card]):
        return [DONE, ACTIVATE]
    return [DONE]


def _start_mission(s: State, p: int, card: int) -> None:
    m = cython.declare(Registers, registers(s))
    m.r[M_MISSION] = card
    m.r[M_ACTION] = -1
    m.r[M_VALUE] = m.r[M_DIE_VALUE]
    m.r[M_DONE] = 0
    m.r[M_PHASE] = PH_MISSION
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} uses Mission card {card} with a {COLOURS[m.r[M_DIE_COLOUR]]} "
                f"{m.r[M_DIE_VALUE]}")


def _activate(s: State, p: int, card: int, ret: int) -> None:
    """One activation: pay what needs no choice, then the tiles / Mission cards to choose, then gain."""
    comp = s.comp
    cost = comp.mission_cost[card]
    if cost[G_SHIP]:
        s.ships[p] -= cost[G_SHIP]
    if cost[G_RESOURCE]:
        s.res[p] -= cost[G_RESOURCE]
    if cost[G_ROBOT]:
        s.robots_break[p] -= cost[G_ROBOT]
        s.robots_supply[p] += cost[G_ROBOT]
    if cost[G_DEBRIS]:
        s.debris[p] -= cost[G_DEBRIS]
    for _ in range(cost[G_RAVAGER]):
        r = _lowest_hand_ravager(s, p)
        s.rav_where[r] = RV_DISCARD
        s.hand_rav[p] -= 1
    m = cython.declare(Registers, registers(s))
    m.r[M_PAY_TECH] = cost[G_TECH]
    m.r[M_PAY_MISSION] = cost[G_MISSION]
    m.r[M_PAY_SEAT] = p
    m.r[M_PAY_RETURN] = ret
    if cost[G_TECH] or cost[G_MISSION]:
        m.r[M_ACTOR] = p
        m.r[M_PHASE] = PH_PAY
        return
    _activation_gain(s)


def _activation_gain(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_PAY_SEAT]
    card = m.r[M_MISSION]
    gain_goods(s, p, s.comp.mission_gain[card], SRC_ACTIVATION, f"activation of Mission card {card}")
    if m.r[M_PAY_RETURN] == PH_MISSION:
        m.r[M_DONE] += 1
        if m.r[M_DONE] >= m.r[M_VALUE] or not _can_pay(s, m.r[M_TURN_PLAYER], s.comp.mission_cost[card]):
            _finish_mission(s)
        else:
            m.r[M_PHASE] = PH_MISSION
    else:
        _after_owner(s)


def _do_mission(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _finish_mission(s)
        return
    _activate(s, p, m.r[M_MISSION], PH_MISSION)


def _do_pay(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_PAY_SEAT]
    if SPEND_TECH <= a < SPEND_TECH + 9:
        cell = a - SPEND_TECH
        t = s.grid.item(p, cell)
        s.grid[p, cell] = -1
        _spend_tile(s, p, t)
        m.r[M_PAY_TECH] -= 1
    elif a == SPEND_EJECTED_TECH:
        # a Starting tile before a standard one (the highest id): only standard tiles count for the Advanced
        # tile "per ejected Technology tile" (R-A8, rules-notes D13); within each kind the tiles are alike
        t = int(np.flatnonzero(s.tile_where[:ADV_TILE0] == TL_EJECTED + p)[-1])
        _spend_tile(s, p, t)
        m.r[M_PAY_TECH] -= 1
    else:
        card = a - SPEND_MISSION
        _discard_mission(s, card)
        m.r[M_PAY_MISSION] -= 1
    if m.r[M_PAY_TECH] == 0 and m.r[M_PAY_MISSION] == 0:
        _activation_gain(s)


def _spend_tile(s: State, p: int, t: int) -> None:
    if s.tile_debris.item(t):
        s.tile_debris[t] = 0
        s.debris[p] += 1
    s.tile_boost[t] = 0
    s.tile_where[t] = TL_DISCARD
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} spends tile {t}")


def _finish_mission(s: State) -> None:
    """After the activations: the owner's one free activation if the card is someone else's (rulebook,
    PERFORMING AN ACTION IN AN ALIEN TERRITORY, IMPORTANT)."""
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    card = m.r[M_MISSION]
    owner = s.mc_owner.item(card)
    if owner != p:
        if owner == BOT:
            if m.r[M_SOLO]:
                hal_free_activation(s, card)
        else:
            m.r[M_OWNER] = owner
            m.r[M_ACTOR] = owner
            m.r[M_PHASE] = PH_OWNER
            return
    _a3(s)


def _do_owner(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    owner = m.r[M_OWNER]
    if a == DONE:
        _after_owner(s)
        return
    _activate(s, owner, m.r[M_MISSION], PH_OWNER)


def _after_owner(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    m.r[M_OWNER] = -1
    m.r[M_ACTOR] = m.r[M_TURN_PLAYER]
    _a3(s)


register(PH_MISSION, legal=_legal_mission, do=_do_mission)
register(PH_PAY, legal=_legal_pay, do=_do_pay)
register(PH_OWNER, legal=_legal_owner, do=_do_owner)
