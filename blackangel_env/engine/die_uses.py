"""What a die can do (rulebook A2): the uses of a die of a colour and value, the dice a player may select,
the modifications that make a die usable (debris flip, set-to-3 and change-colour boosts), and whether
Sequence A is possible at all (rules decision R-A1; rules-notes D11).
"""

from __future__ import annotations

from .. import actions as A
from ..components import Components
from ..constants import (
    ACT_COMMAND, ACT_DISCOVER, ACT_REPAIR, BE_CHANGE_COLOUR, BE_SET_THREE, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT,
    RAV_DISCARD_MISSION, RAV_ROBOT,
)
from ..state import DIE_SUPPLY, M_ADVANCED, State

from .decks import _hand_total
from .dice import FLIP
from .space import _destinations
from .position import _Position, _memo, _position
from .missions import _can_pay, _has_access


def _repair_target_exists(s: State, a: int) -> bool:
    if any(s.dmg.tolist()) or any(s.die_damaged.tolist()):     # only dice in the supply carry cubes
        return True
    # The topmost Ravager's damage effect is resolved before the action and may create something to repair.
    k = s.rav_count.item(a)
    if k == 0:
        return False
    r = s.rav_loc.item(a, k - 1)
    eff = s.comp.ravager_effect[r]
    if eff == RAV_DAMAGE_NEXT:
        return True  # an action cube, or a die cube, or nothing only if both are impossible (checked below)
    if eff == RAV_DAMAGE_DIE:
        c = s.comp.ravager_die_colour[r]
        owners = s.die_owner[6 * c:6 * c + 6].tolist()
        damaged = s.die_damaged[6 * c:6 * c + 6].tolist()
        return any(o == DIE_SUPPLY and not dmg for o, dmg in zip(owners, damaged))
    return False


def _command_ok(s: State, p: int, colour: int, ev: int, eff: int, pos: _Position | None = None) -> bool:
    if pos is None:
        pos = _position(s)
    robots = s.robots_break.item(p)
    if eff == RAV_ROBOT and robots > 0:
        robots -= 1
    ships = s.ships.item(p)
    if ev >= 1:
        passable, nb = pos.passable, pos.nb
        for h in pos.ships(p):
            for g in nb[h]:
                if passable[g] and (ev >= 2 or pos.free_for(g, p)):
                    return True          # ev >= 2: out and back, the ship may end where it started (R-A6)
        if ships < 1 or robots < 1:
            return False
        ba = pos.ba
        for g in nb[ba]:
            if passable[g] and pos.free_for(g, p):
                return True
        return ev >= 2 and bool(_destinations(s, p, ba, 1, ev, False))
    # A star die: no move, but a Mission card must be placed (Command steps 2-4; rules-notes B2, D2).
    if s.hand_mc.item(p, colour) < 1 or robots < 1:
        return False
    if eff == RAV_DISCARD_MISSION and _hand_total(s, p) < 2:
        return False
    for h in pos.ships(p):
        if pos.placeable(h, colour):
            return True
    return ships >= 1 and robots >= 2 and pos.placeable(pos.ba, colour) and pos.free_for(pos.ba, p)


def _action_can_start(s: State, p: int, a: int, kind: int, colour: int, ev: int, pos: _Position) -> bool:
    """The board action families' predicate: can action ``a`` (of ``kind`` and ``colour``) start for p with a die
    worth ``ev`` on it (after damage)?  The one answer used by the legal uses of a die (``_die_uses``), by the
    look-ahead that keeps a die usable (``_die_usable``, through ``_board_use``) and by the A1 guard's robust uses
    (``_a2_robust``).  Command: a ship can move or launch, or with a star die a Mission card can be placed
    (``_command_ok``); Discover: a tile within ``ev``; Repair: a Damage cube to remove, now or after the
    Ravager's effect; Destroy: a whole Ravager location within ``ev``."""
    if kind == ACT_COMMAND:
        return _command_ok(s, p, colour, ev, pos.top[a], pos)
    if ev < 1:
        return False
    if kind == ACT_DISCOVER:
        return ev >= pos.disc_min
    if kind == ACT_REPAIR:
        return pos.any_damage or _repair_target_exists(s, a)
    return ev >= pos.destroy_min           # ACT_DESTROY: a whole location within the activations


def _mission_can_start(s: State, p: int, card: int, res_delta: int = 0, debris_delta: int = 0) -> bool:
    """The activation family's predicate: can p start activating ``card`` (an activation card in Space, of the
    die's colour) with a die of value 1 or more: access to the card, and its cost payable once the price of a
    bought die (``res_delta`` -1, R-A14) and a debris flip (``debris_delta`` -1, R-A16) are paid.  Used by the
    legal uses of a die (``_die_uses``) and by the look-ahead (``_mission_use``)."""
    return _has_access(s, p, card) and _can_pay(s, p, s.comp.mission_cost[card], res_delta, debris_delta)


def _board_action_ok(s: State, p: int, a: int, value: int, pos: _Position | None = None) -> bool:
    """Board action ``a`` can start with a die of ``value`` (``_action_can_start`` after the action's damage)."""
    if pos is None:
        pos = _position(s)
    ev = value - 1 if (value > 0 and pos.dmg[a] >= s.comp.max_action_damage) else value
    return _action_can_start(s, p, a, s.comp.action_kind[a], s.comp.action_colour[a], ev, pos)


def _die_uses(s: State, p: int, colour: int, value: int, res_delta: int = 0) -> list[int]:
    """Action ids (BOARD_ACTION / MISSION_ACTION) legal for a die of this colour and value.  ``res_delta`` is
    -1 when the die is bought (its price is paid before any mission cost)."""
    memo = _memo(s)
    key = (p, colour, value, res_delta)
    out = memo.get(key)
    if out is not None:
        return out
    comp = s.comp
    pos = memo.get("pos")
    if pos is None:
        pos = memo["pos"] = _Position(s)
    out = [A.BOARD_ACTION + a for a in _actions_of_colour(comp)[colour] if _board_action_ok(s, p, a, value, pos)]
    if value >= 1:
        for card in pos.act_cards[colour]:
            if _mission_can_start(s, p, card, res_delta):
                out.append(A.MISSION_ACTION + card)
    memo[key] = out
    return out


def _die_usable(s: State, p: int, colour: int, value: int, res_delta: int = 0, debris_delta: int = 0) -> bool:
    """``bool(_die_uses(...))`` without listing every use: it stops at the first one and tries the cheap checks
    first (the colour's other action, then Command, then the activation missions).  ``debris_delta`` is -1
    after a debris flip (the flip's debris is spent before any mission cost: R-A16)."""
    memo = s._memo if s._memo_ok else _memo(s)
    key = (p, colour, value, res_delta, debris_delta, bool)          # the verdict alone
    ok = memo.get(key)
    if ok is None:
        pos = memo.get("pos")
        if pos is None:
            pos = memo["pos"] = _Position(s)
        # The board actions do not depend on the price of a bought die: their verdict is shared by
        # res_delta 0 and -1 (a colour and value seen among own and others' dice is checked once).
        bkey = (p, colour, value)
        board = memo.get(bkey)
        if board is None:
            board = memo[bkey] = _board_use(s, p, colour, value, pos)
        ok = memo[key] = board or (value >= 1 and _mission_use(s, p, colour, res_delta, pos, debris_delta))
    return ok


def _board_use(s: State, p: int, colour: int, value: int, pos: _Position) -> bool:
    """Some board action of ``colour`` can start with ``value``: the colour's other action first (its check reads
    a few cached numbers), then Command."""
    dmg = pos.dmg
    full = s.comp.max_action_damage
    for a, kind in _colour_checks(s.comp)[colour]:
        ev = value - 1 if (value > 0 and dmg[a] >= full) else value
        if _action_can_start(s, p, a, kind, colour, ev, pos):
            return True
    return False


def _mission_use(s: State, p: int, colour: int, res_delta: int, pos: _Position, debris_delta: int = 0) -> bool:
    """Some activation Mission card of ``colour`` in Space can start (a die of value 1 or more)."""
    for card in pos.act_cards[colour]:
        if _mission_can_start(s, p, card, res_delta, debris_delta):
            return True
    return False


_COLOUR_ACTIONS: dict[int, tuple[tuple[int, ...], ...]] = {}


_COLOUR_CHECKS: dict[int, tuple[Components, tuple[tuple[tuple[int, int], ...], ...]]] = {}


def _actions_of_colour(comp: Components) -> tuple[tuple[int, ...], ...]:
    t = _COLOUR_ACTIONS.get(id(comp))
    if t is None:
        t = tuple(tuple(a for a in range(6) if comp.action_colour[a] == c) for c in range(3))
        _COLOUR_ACTIONS[id(comp)] = t
    return t


def _colour_checks(comp: Components) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per colour, its board actions as (action, kind) in the order ``_board_use`` checks them: the non-Command
    ones first, then Command."""
    hit = _COLOUR_CHECKS.get(id(comp))
    if hit is None or hit[0] is not comp:
        kinds = comp.action_kind
        t = tuple(tuple((a, kinds[a]) for a in acts if kinds[a] != ACT_COMMAND)
                  + tuple((a, kinds[a]) for a in acts if kinds[a] == ACT_COMMAND)
                  for acts in _actions_of_colour(comp))
        hit = _COLOUR_CHECKS[id(comp)] = (comp, t)
    return hit[1]


def _boost_cells(s: State, p: int, effect: int) -> list[int]:
    """Grid cells of ``p`` holding a tile showing its boost side with the given 1x effect."""
    if not s.m.item(M_ADVANCED):
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
        return (_die_usable(s, p, colour, value, res_delta, debris_delta)
                or (bool(can_flip) and _die_usable(s, p, colour, FLIP[value], res_delta, debris_delta - 1)))
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
    if not s.m.item(M_ADVANCED):
        return ()
    comp = s.comp
    out = []
    for cell in _boost_cells(s, p, BE_SET_THREE) + _boost_cells(s, p, BE_CHANGE_COLOUR):
        t = s.grid.item(p, cell)
        out.append((cell, comp.tile_boost[t], comp.tile_boost_arg[t]))
    out.sort()
    return tuple(out)


def _selectable_dice(s: State, p: int, stop_at_first: bool = False) -> list[int]:
    """Dice p may choose in A2: own dice, or unreserved dice of others bought for 1 resource (never reserved
    ones, rulebook A2 and Reserved die), that have at least one legal use."""
    out = []
    boosts = _die_boosts(s, p)
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
                ok = verdict[key] = _die_reachable(s, p, key[0], key[1], False, boosts, cache_bought, res_delta=-1)
        else:
            continue
        if ok:
            out.append(d)
            if stop_at_first:
                return out
    return out


def a2_possible(s: State, p: int) -> bool:
    """Sequence A is possible iff some die p may use has a legal action (rules decision R-A1; rules-notes D11)."""
    s._memo_ok = False
    return bool(_selectable_dice(s, p, stop_at_first=True))


def _a2_robust(s: State, p: int) -> bool:
    """A die use that nothing in A1 can take away: Discover / Repair / Destroy with a die p can use."""
    owners = s.die_owner.tolist()
    values = s.die_value.tolist()
    reserved = s.die_reserved.tolist()
    comp = s.comp
    can_buy = s.res.item(p) >= 1
    pos = _position(s)
    seen = set()
    for d in range(18):
        o = owners[d]
        if o == p or (o >= 0 and can_buy and not reserved[d]):
            key = (d // 6, values[d])
            if key in seen:
                continue
            seen.add(key)
            for a in _actions_of_colour(comp)[key[0]]:
                if comp.action_kind[a] != ACT_COMMAND and _board_action_ok(s, p, a, key[1], pos):
                    return True
    return False
