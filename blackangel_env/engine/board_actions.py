"""A board action is chosen in A2: the 1x boost worth VP on that action (ADVANCED RULES), the topmost
Ravager card's effect (rulebook, Ravager cards), then the action's first step.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..actions import DISCARD_MISSION, DONE, USE_BOOST
from ..constants import (
    ACT_COMMAND, ACT_DESTROY, ACT_DISCOVER, ACT_REPAIR, BE_VP_ON_ACTION, COLOURS, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT,
    RAV_DISCARD_MISSION, RAV_DISCARD_RAVAGER, RAV_ROBOT,
)
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        M_ACTION, M_DIE_COLOUR, M_DIE_VALUE, M_DONE, M_MOVE_MIN, M_MOVE_RANGE, M_MOVE_RETURN, M_PHASE,
        M_TURN_PLAYER, M_VALUE, PH_ACTION_BOOST, PH_COMMAND_CARD, PH_DESTROY, PH_DISCOVER, PH_RAVAGER_DISCARD,
        PH_REPAIR, PH_SHIP_SELECT, RV_DISCARD, SRC_BOOST, SRC_PENALTY,
    )

from .core import _log, gain_vp, seat_name
from .decks import _discard_mission, _hand_missions, _hand_total, _lowest_hand_ravager
from .dice import _damage_action, _damage_die, _effective
from .phases import register
from .die_uses import _boost_cells
from .a3 import _a3
from .repair import _legal_repair


def _legal_action_boost(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    a = m.r[M_ACTION]
    return [DONE] + [USE_BOOST + cell for cell in _boost_cells(s, p, BE_VP_ON_ACTION)
                       if s.comp.tile_boost_arg[s.grid.item(p, cell)] == a]


def _legal_ravager_discard(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    a = m.r[M_ACTION]
    cards = _hand_missions(s, p)
    ev = _effective(s, a, m.r[M_DIE_VALUE])
    colour = m.r[M_DIE_COLOUR]
    if s.comp.action_kind[a] == ACT_COMMAND and ev == 0 and s.hand_mc.item(p, colour) == 1:
        cards = [c for c in cards if c // 20 != colour]   # keep the card a star die must place
    return [DISCARD_MISSION + c for c in cards]


def _do_action_boost(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    if a == DONE:
        _resolve_ravager_effect(s)
        return
    t = s.grid.item(p, a - USE_BOOST)
    s.tile_boost[t] = 0
    gain_vp(s, p, 2, SRC_BOOST, f"tile {t}'s 1x on action {m.r[M_ACTION] + 1}")
    if len(_legal_action_boost(s)) == 1:
        _resolve_ravager_effect(s)


def _resolve_ravager_effect(s: State) -> None:
    """Rulebook, Ravager Cards: resolve the topmost card's permanent effect before the action; if it cannot
    be resolved, perform the action anyway and lose 1 VP."""
    m = cython.declare(Registers, registers(s))
    p = m.r[M_TURN_PLAYER]
    act = m.r[M_ACTION]
    k = s.rav_count.item(act)
    if k > 0:
        r = s.rav_loc.item(act, k - 1)
        eff = s.comp.ravager_effect[r]
        if eff == RAV_DAMAGE_NEXT:
            _damage_action(s, (act + 1) % 6)
        elif eff == RAV_DAMAGE_DIE:
            c = s.comp.ravager_die_colour[r]
            if _damage_die(s, c) and s.log is not None:
                _log(s, f"Ravager {r + 61}: damage on a {COLOURS[c]} die in the supply")
        elif eff == RAV_DISCARD_MISSION:
            if _hand_total(s, p) > 0:
                m.r[M_PHASE] = PH_RAVAGER_DISCARD
                return
            gain_vp(s, p, -1, SRC_PENALTY, f"cannot discard a Mission card for Ravager {r + 61}")
        elif eff == RAV_DISCARD_RAVAGER:
            if s.hand_rav.item(p) > 0:
                rr = _lowest_hand_ravager(s, p)
                s.rav_where[rr] = RV_DISCARD
                s.hand_rav[p] -= 1
                if s.log is not None:
                    _log(s, f"{seat_name(s, p)} discards a Ravager card (Ravager {r + 61})")
            else:
                gain_vp(s, p, -1, SRC_PENALTY, f"cannot discard a Ravager card for Ravager {r + 61}")
        elif eff == RAV_ROBOT:
            if s.robots_break.item(p) > 0:
                s.robots_break[p] -= 1
                s.rav_robots[r, p] += 1
                if s.log is not None:
                    _log(s, f"{seat_name(s, p)} puts a robot on Ravager {r + 61}")
            else:
                gain_vp(s, p, -1, SRC_PENALTY, f"no robot for Ravager {r + 61}")
    _start_board_action(s)


def _do_ravager_discard(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    card = a - DISCARD_MISSION
    _discard_mission(s, card)
    if s.log is not None:
        _log(s, f"{seat_name(s, m.r[M_TURN_PLAYER])} discards Mission card {card} (Ravager effect)")
    _start_board_action(s)


def _start_board_action(s: State) -> None:
    m = cython.declare(Registers, registers(s))
    act = m.r[M_ACTION]
    ev = _effective(s, act, m.r[M_DIE_VALUE])
    m.r[M_VALUE] = ev
    m.r[M_DONE] = 0
    kind = s.comp.action_kind[act]
    if kind == ACT_DISCOVER:
        m.r[M_PHASE] = PH_DISCOVER
    elif kind == ACT_REPAIR:
        m.r[M_PHASE] = PH_REPAIR
        if len(_legal_repair(s)) == 0:       # the Ravager effect may have been the only damage source: none
            _a3(s)
    elif kind == ACT_DESTROY:
        m.r[M_PHASE] = PH_DESTROY
    else:
        m.r[M_MOVE_RANGE] = ev
        m.r[M_MOVE_MIN] = 1 if ev >= 1 else 0
        m.r[M_MOVE_RETURN] = PH_COMMAND_CARD
        m.r[M_PHASE] = PH_SHIP_SELECT


register(PH_ACTION_BOOST, legal=_legal_action_boost, do=_do_action_boost)
register(PH_RAVAGER_DISCARD, legal=_legal_ravager_discard, do=_do_ravager_discard)
