"""Mission cards in Space: placing one (Command steps 2-4, also Hal's), and what a seat may pay for an
activation and which cards it can reach.
"""

from __future__ import annotations

from ..board import neighbours
from ..constants import ADV_TILE0, G_DEBRIS, G_MISSION, G_RAVAGER, G_RESOURCE, G_ROBOT, G_SHIP, G_TECH, T_SPES
from ..state import MC_HAND, MC_SPACE, M_ADVANCED, M_N_STRIPS, SRC_REWARD, TL_EJECTED, State

from .core import _log, gain_goods, seat_name
from .decks import _hand_total, _pop_tech, _push_display
from .ravagers import _ravagers_appear


def place_mission(s: State, p: int, card: int, h: int) -> None:
    """Command steps 2-4 (also used by Hal): the card, its owner's robot and reward, Ravagers, new tiles."""
    comp = s.comp
    if MC_HAND <= s.mc_where.item(card) < MC_HAND + 5:
        s.hand_mc[p, card // 20] -= 1
    s.mc_where[card] = MC_SPACE
    s.mc_owner[card] = p
    s.mc_hex[card] = h
    s.hex_card[h] = card
    s.robots_break[p] -= 1                     # the owner's robot on the reward
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} places Mission card {card} on hex s{h // 5 + 1}:{h % 5 - 2:+d}")
    reward = [0] * 8
    reward[comp.mission_reward[card]] = comp.mission_reward_amount[card]
    gain_goods(s, p, reward, SRC_REWARD, f"reward of Mission card {card}")
    icons = 0
    for g in neighbours(s.m.item(M_N_STRIPS))[h]:
        if s.hex_card.item(g) < 0 and s.hex_terrain.item(g) != T_SPES:
            icons += s.hex_icons.item(g)
    if icons:
        _ravagers_appear(s, icons)
    for colour in comp.mission_tiles[card]:
        t = _pop_tech(s, colour)
        if t >= 0:
            if s.m.item(M_ADVANCED):
                s.tile_boost[t] = 1
            _push_display(s, t)


def _has_access(s: State, p: int, card: int) -> bool:
    if s.mc_owner.item(card) == p:
        return True
    h = s.mc_hex.item(card)
    return s.hex_ship.item(h, 0) == p or s.hex_ship.item(h, 1) == p


def _n_spendable_tech(s: State, p: int) -> int:
    """Technology tiles a mission may spend: standard or Starting tiles in the grid or ejected (rules-notes D14)."""
    k = sum(1 for t in s.grid[p].tolist() if 0 <= t < ADV_TILE0)
    return k + s.tile_where[:ADV_TILE0].tolist().count(TL_EJECTED + p)


def _can_pay(s: State, p: int, cost, res_delta: int = 0, debris_delta: int = 0) -> bool:
    """Can seat p pay ``cost`` with ``res_delta`` resources and ``debris_delta`` debris more (a bought die's price
    and a debris flip are paid before the mission's cost: R-A14, R-A16)?"""
    if (cost[G_SHIP] > s.ships.item(p) or cost[G_RESOURCE] > s.res.item(p) + res_delta
            or cost[G_ROBOT] > s.robots_break.item(p)):
        return False
    if cost[G_DEBRIS] > s.debris.item(p) + debris_delta or cost[G_RAVAGER] > s.hand_rav.item(p):
        return False
    if cost[G_MISSION] and cost[G_MISSION] > _hand_total(s, p):
        return False
    if cost[G_TECH] and cost[G_TECH] > _n_spendable_tech(s, p):
        return False
    return True
