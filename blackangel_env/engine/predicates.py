"""The action families' predicates, "can this start, with this die" (rulebook A2 and each action's section; rules
decision R-A1, R-A14, R-A16; rules-notes D11), read straight from the state buffer.

One answer per question, used by every caller: the legal uses of a die (``die_uses._die_uses``), the look-ahead
that keeps a die usable (``die_uses._die_usable``, ``_selectable_dice``, ``a2_possible``), the A1 guard's robust
uses (``die_uses._a2_robust``) and the activation's cost check (``missions._can_pay``).

* ``action_can_start(s, p, a, ev)``: board action ``a`` can start for seat ``p`` with a die worth ``ev`` on it
  (after the action's damage): Command, a ship can move or launch (``ev`` >= 1; moving out and back needs 2,
  R-A6), or with a star die (``ev`` 0) a Mission card of the action's colour can be placed from the hand (Command
  steps 2-4; rules-notes B2, D2), the topmost Ravager's effect taken into account (a robot or a Mission card it
  takes); Discover, a tile in the display or the Advanced space within ``ev``; Repair, a Damage cube to remove,
  now or after the topmost Ravager's damage effect; Destroy, a whole Ravager location within ``ev``;
* ``board_action_ok(s, p, a, value)``: the same with a die of ``value``, one pip less on an action fully damaged;
* ``mission_can_start(s, p, card, res_delta, debris_delta)``: p has access to the activation card (it is p's,
  or a ship of p is on its hex) and can pay its cost once a bought die's price (``res_delta`` -1, R-A14) and a
  debris flip (``debris_delta`` -1, R-A16) are paid;
* ``can_pay(s, p, cost, res_delta, debris_delta)``: the goods of ``cost`` (a Mission card's cost) are there;
* ``robust_use(s, p)``: a die p may select has a use that nothing in A1 can take away (Discover, Repair or
  Destroy: the A1 guard's shortcut, R-A2);
* ``die_usable(s, p, colour, value, res_delta, debris_delta)``: some board action of the colour or some
  activation card of the colour in Space can start with this die; ``die_uses`` lists them (the A2 legal uses, in
  action order then hex order); ``plain_reachable(s, p, colour, value, can_flip, ...)``: with no boost to use,
  a use as the die is or once flipped; ``plain_selectable(s, p, stop_at_first)``: the dice p may select in A2
  when no boost can change a die (own dice as they are or flipped with a debris, others' unreserved dice bought
  for a resource).

Compiled by Cython (pure-Python mode, this file is the one source; interpreted where no extension was built or
with ``BLACKANGEL_INTERPRETED=1``): the buffer is read through a typed memoryview, the components through tables
of C ints built once per ``Components`` (``_tables``), every index checked (a position written wrongly through the
named views raises IndexError instead of reading past a table).  Interpreted, both are lists of Python ints
(numpy scalar reads are slow).
"""

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

import numpy as np

from ..actions import BOARD_ACTION, MISSION_ACTION
from ..constants import (
    ACT_COMMAND, ACT_DISCOVER, ACT_REPAIR, ADV_TILE0, G_DEBRIS, G_MISSION, G_RAVAGER, G_RESOURCE, G_ROBOT, G_SHIP,
    G_TECH, MISSION_ACTIVATION, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT, RAV_DISCARD_MISSION, RAV_ROBOT, T_ASTEROID,
)
from .. import state as _state_module
from ..state import DIE_SUPPLY, M_N_STRIPS, TL_EJECTED, State

from .dice import FLIP
from .ship_moves import destinations
from .space import _geometry, _neighbour_table

N_GOODS = 8


@cython.cclass
class _Tables:
    """Where the fields the predicates read start in the state buffer, and the component data they read as C
    ints (one per layout and ``Components``, cached by ``_tables``)."""

    comp: object
    fields: object
    res: cython.Py_ssize_t
    debris: cython.Py_ssize_t
    ships: cython.Py_ssize_t
    robots_break: cython.Py_ssize_t
    hand_mc: cython.Py_ssize_t
    hand_rav: cython.Py_ssize_t
    grid: cython.Py_ssize_t
    dmg: cython.Py_ssize_t
    rav_loc: cython.Py_ssize_t
    rav_count: cython.Py_ssize_t
    die_owner: cython.Py_ssize_t
    die_value: cython.Py_ssize_t
    die_reserved: cython.Py_ssize_t
    die_damaged: cython.Py_ssize_t
    display: cython.Py_ssize_t
    n_display: cython.int
    adv_slots: cython.Py_ssize_t
    n_adv_slots: cython.int
    mc_owner: cython.Py_ssize_t
    mc_hex: cython.Py_ssize_t
    tile_where: cython.Py_ssize_t
    hex_terrain: cython.Py_ssize_t
    hex_card: cython.Py_ssize_t
    hex_ship: cython.Py_ssize_t
    max_damage: cython.int
    advanced_cost: cython.int
    act_kind: cython.int[:]
    act_colour: cython.int[:]
    rav_effect: cython.int[:]
    rav_die_colour: cython.int[:]
    display_cost: cython.int[:]
    mis_kind: cython.int[:]
    mis_colour: cython.int[:]
    mis_cost: cython.int[:]

    def __init__(self, fields: dict, comp):
        if fields["m"][1] != 0:
            raise RuntimeError("blackangel_env.engine.predicates: the registers no longer start the state buffer")
        self.comp = comp
        self.fields = fields
        self.res = fields["res"][1]
        self.debris = fields["debris"][1]
        self.ships = fields["ships"][1]
        self.robots_break = fields["robots_break"][1]
        self.hand_mc = fields["hand_mc"][1]
        self.hand_rav = fields["hand_rav"][1]
        self.grid = fields["grid"][1]
        self.dmg = fields["dmg"][1]
        self.rav_loc = fields["rav_loc"][1]
        self.rav_count = fields["rav_count"][1]
        self.die_owner = fields["die_owner"][1]
        self.die_value = fields["die_value"][1]
        self.die_reserved = fields["die_reserved"][1]
        self.die_damaged = fields["die_damaged"][1]
        self.display = fields["display"][1]
        self.n_display = fields["display"][2] - fields["display"][1]
        self.adv_slots = fields["adv_slots"][1]
        self.n_adv_slots = fields["adv_slots"][2] - fields["adv_slots"][1]
        self.mc_owner = fields["mc_owner"][1]
        self.mc_hex = fields["mc_hex"][1]
        self.tile_where = fields["tile_where"][1]
        self.hex_terrain = fields["hex_terrain"][1]
        self.hex_card = fields["hex_card"][1]
        self.hex_ship = fields["hex_ship"][1]
        if len(comp.display_costs) != self.n_display:
            raise ValueError(f"blackangel_env.engine.predicates: {len(comp.display_costs)} display costs for a "
                             f"display of {self.n_display} spaces")
        self.max_damage = comp.max_action_damage
        self.advanced_cost = comp.advanced_cost
        self.act_kind = _ints(comp.action_kind)
        self.act_colour = _ints(comp.action_colour)
        self.rav_effect = _ints(comp.ravager_effect)
        self.rav_die_colour = _ints(comp.ravager_die_colour)
        self.display_cost = _ints(comp.display_costs)
        self.mis_kind = _ints(comp.mission_kind)
        self.mis_colour = _ints(comp.mission_colour)
        self.mis_cost = _ints([g for cost in comp.mission_cost for g in cost])
        if len(comp.mission_cost) * N_GOODS != len(self.mis_cost):
            raise ValueError("blackangel_env.engine.predicates: every Mission card's cost needs "
                             f"{N_GOODS} goods")


def _ints(values):
    """A component column as the tables hold it: C ints compiled, a list of Python ints interpreted."""
    a = np.ascontiguousarray(np.asarray(values, dtype=np.int32).ravel())
    return a if cython.compiled else a.tolist()


_TABLES: dict = {}


@cython.ccall
def _tables(s: State) -> _Tables:
    """The tables of the state's layout and components (kept on the state: ``_pred_cache``)."""
    c = s._pred
    if c is None:
        c = _pred_cache(s)
    return c[0]


@cython.cclass
class _Board:
    """The board of a number of strips: its hexes, the Black Angel's hex and the neighbour table (6 entries a
    hex, -1 padded: ``space._neighbour_table``)."""

    nh: cython.int
    ba: cython.int
    nb: cython.const[cython.short][:]
    nb_array: object

    def __init__(self, n_strips: int):
        nh, _, ba = _geometry(n_strips)
        self.nh = nh
        self.ba = ba
        self.nb_array = _neighbour_table(n_strips)
        self.nb = self.nb_array if cython.compiled else self.nb_array.tolist()


_BOARDS: dict = {}


@cython.ccall
def _board(s: State) -> _Board:
    """The board of the state's number of strips (kept on the state: ``_pred_cache``)."""
    c = s._pred
    if c is None:
        c = _pred_cache(s)
    return c[1]


def _pred_cache(s: State) -> tuple:
    """The state's ``(tables, board)``, from the module's caches (built on first use for a layout and components,
    and for a number of strips), kept in ``State._pred``: a state's layout, components and number of strips
    never change after set-up, and its copies share them."""
    f = s._fields
    comp = s.comp
    key = (id(f), id(comp))
    t: _Tables = _TABLES.get(key)
    if t is None or t.fields is not f or t.comp is not comp:
        t = _TABLES[key] = _Tables(f, comp)
    n = s.mv[M_N_STRIPS]
    b = _BOARDS.get(n)
    if b is None:
        b = _BOARDS[n] = _Board(n)
    c = (t, b)
    s._pred = c
    return c


def _typed_view(buf):
    """``State._typed`` (``state.use_typed_view``): compiled, the buffer as a typed memoryview object of this
    module, which the predicates take at each call without the buffer protocol; interpreted, the array."""
    if not cython.compiled:
        return buf
    v: cython.short[::1] = buf
    return v


_state_module.use_typed_view(_typed_view)


@cython.ccall
def _readable(buf):
    """What the predicates index: the int16 buffer itself compiled (a typed memoryview), its Python ints
    interpreted."""
    return buf if cython.compiled else buf.tolist()


# --- goods ---------------------------------------------------------------------------------------------------

@cython.cfunc
@cython.wraparound(False)
def _hand_total(buf: cython.const[cython.short][:], t: _Tables, p: cython.int) -> cython.int:
    o: cython.Py_ssize_t = t.hand_mc + 3 * p
    return buf[o] + buf[o + 1] + buf[o + 2]


@cython.cfunc
@cython.wraparound(False)
def _spendable_tech(buf: cython.const[cython.short][:], t: _Tables, p: cython.int) -> cython.int:
    """Technology tiles a mission may spend: standard or Starting tiles in the grid or ejected (rules-notes D14)."""
    k: cython.int = 0
    i: cython.Py_ssize_t
    v: cython.int
    for i in range(9):
        v = buf[t.grid + 9 * p + i]
        if 0 <= v < ADV_TILE0:
            k += 1
    for i in range(ADV_TILE0):
        if buf[t.tile_where + i] == TL_EJECTED + p:
            k += 1
    return k


@cython.cfunc
@cython.wraparound(False)
def _pay_ok(buf: cython.const[cython.short][:], t: _Tables, p: cython.int, ship: cython.int, res: cython.int,
            robot: cython.int, debris: cython.int, ravager: cython.int, mission: cython.int, tech: cython.int,
            res_delta: cython.int, debris_delta: cython.int) -> cython.bint:
    """These goods are there, with ``res_delta`` resources and ``debris_delta`` debris more."""
    if ship > buf[t.ships + p] or res > buf[t.res + p] + res_delta or robot > buf[t.robots_break + p]:
        return False
    if debris > buf[t.debris + p] + debris_delta or ravager > buf[t.hand_rav + p]:
        return False
    if mission and mission > _hand_total(buf, t, p):
        return False
    if tech and tech > _spendable_tech(buf, t, p):
        return False
    return True


# the goods' positions in a cost vector as C integers (the cost table's columns)
_GS = cython.declare(cython.Py_ssize_t, G_SHIP)
_GRS = cython.declare(cython.Py_ssize_t, G_RESOURCE)
_GRB = cython.declare(cython.Py_ssize_t, G_ROBOT)
_GD = cython.declare(cython.Py_ssize_t, G_DEBRIS)
_GRV = cython.declare(cython.Py_ssize_t, G_RAVAGER)
_GM = cython.declare(cython.Py_ssize_t, G_MISSION)
_GT = cython.declare(cython.Py_ssize_t, G_TECH)


@cython.cfunc
@cython.wraparound(False)
def _card_pay_ok(buf: cython.const[cython.short][:], t: _Tables, p: cython.int, card: cython.int,
                 res_delta: cython.int, debris_delta: cython.int) -> cython.bint:
    """Mission card ``card``'s cost is there (``_pay_ok``)."""
    at: cython.Py_ssize_t = N_GOODS * card
    c: cython.int[:] = t.mis_cost
    return _pay_ok(buf, t, p, c[at + _GS], c[at + _GRS], c[at + _GRB], c[at + _GD], c[at + _GRV], c[at + _GM],
                   c[at + _GT], res_delta, debris_delta)


def can_pay(s: State, p: cython.int, cost, res_delta: cython.int = 0, debris_delta: cython.int = 0) -> bool:
    """Can seat p pay ``cost`` (a Mission card's cost: 8 goods) with ``res_delta`` resources and
    ``debris_delta`` debris more (a bought die's price and a debris flip are paid before the mission's cost:
    R-A14, R-A16)?"""
    if len(cost) != N_GOODS:
        raise ValueError(f"can_pay: a cost has {N_GOODS} goods, not {len(cost)}")
    _check_seat(p)
    return _pay_ok(_readable(s._typed), _tables(s), p, cost[G_SHIP], cost[G_RESOURCE], cost[G_ROBOT], cost[G_DEBRIS],
                   cost[G_RAVAGER], cost[G_MISSION], cost[G_TECH], res_delta, debris_delta)


# --- activation Mission cards ----------------------------------------------------------------------------------

@cython.cfunc
@cython.wraparound(False)
def _has_access(buf: cython.const[cython.short][:], t: _Tables, p: cython.int, card: cython.int) -> cython.bint:
    h: cython.int
    if buf[t.mc_owner + card] == p:
        return True
    h = buf[t.mc_hex + card]
    if h < 0:
        return False
    return buf[t.hex_ship + 2 * h] == p or buf[t.hex_ship + 2 * h + 1] == p


def has_access(s: State, p: cython.int, card: cython.int) -> bool:
    """Seat p has access to Mission card ``card``: it is p's, or a ship of p is on its hex."""
    _check_seat(p)
    _check_card(s, card)
    return _has_access(_readable(s._typed), _tables(s), p, card)


@cython.cfunc
@cython.wraparound(False)
def _mission_ok(buf: cython.const[cython.short][:], t: _Tables, p: cython.int, card: cython.int,
                res_delta: cython.int, debris_delta: cython.int) -> cython.bint:
    return _has_access(buf, t, p, card) and _card_pay_ok(buf, t, p, card, res_delta, debris_delta)


def mission_can_start(s: State, p: cython.int, card: cython.int, res_delta: cython.int = 0,
                      debris_delta: cython.int = 0) -> bool:
    """The activation family's predicate: can p start activating ``card`` (an activation card in Space, of the
    die's colour) with a die of value 1 or more: access to the card, and its cost payable once the price of a
    bought die (``res_delta`` -1, R-A14) and a debris flip (``debris_delta`` -1, R-A16) are paid."""
    _check_seat(p)
    _check_card(s, card)
    return _mission_ok(_readable(s._typed), _tables(s), p, card, res_delta, debris_delta)


def _check_card(s: State, card) -> None:
    if not 0 <= card < len(s.comp.mission_cost):
        raise ValueError(f"no Mission card {card} (0-{len(s.comp.mission_cost) - 1})")


@cython.cfunc
@cython.wraparound(False)
def _mission_use(buf: cython.const[cython.short][:], t: _Tables, g: _Board, p: cython.int, colour: cython.int,
                 res_delta: cython.int, debris_delta: cython.int) -> cython.bint:
    """Some activation Mission card of ``colour`` in Space can start (a die of value 1 or more)."""
    h: cython.Py_ssize_t
    card: cython.int
    for h in range(g.nh):
        card = buf[t.hex_card + h]
        if (card >= 0 and t.mis_kind[card] == MISSION_ACTIVATION and t.mis_colour[card] == colour
                and _mission_ok(buf, t, p, card, res_delta, debris_delta)):
            return True
    return False


# --- board actions ---------------------------------------------------------------------------------------------

@cython.cfunc
@cython.wraparound(False)
def _top_effect(buf: cython.const[cython.short][:], t: _Tables, a: cython.int) -> cython.int:
    """The effect of the topmost Ravager at action ``a`` (-1: none)."""
    k: cython.int = buf[t.rav_count + a]
    if k == 0:
        return -1
    return t.rav_effect[buf[t.rav_loc + 3 * a + k - 1]]


@cython.cfunc
@cython.wraparound(False)
def _free_for(buf: cython.const[cython.short][:], t: _Tables, h: cython.int, p: cython.int) -> cython.bint:
    """Hex ``h`` can take a ship of p: at most two ships a hex, of different players."""
    return buf[t.hex_ship + 2 * h + 1] < 0 and buf[t.hex_ship + 2 * h] != p


@cython.cfunc
@cython.wraparound(False)
def _passable(buf: cython.const[cython.short][:], t: _Tables, g: _Board, h: cython.int) -> cython.bint:
    """A ship may move through hex ``h``: not an asteroid (the Black Angel's hex always: its shields)."""
    return h == g.ba or buf[t.hex_terrain + h] != T_ASTEROID


@cython.cfunc
@cython.wraparound(False)
def _command_ok(buf: cython.const[cython.short][:], t: _Tables, g: _Board, bufobj, p: cython.int,
                colour: cython.int, ev: cython.int, eff: cython.int) -> cython.bint:
    """Command can start: a ship can move or launch, or with a star die a Mission card can be placed."""
    h: cython.int
    k: cython.int
    n: cython.int
    robots: cython.int = buf[t.robots_break + p]
    ships: cython.int = buf[t.ships + p]
    ba: cython.int = g.ba
    if eff == RAV_ROBOT and robots > 0:
        robots -= 1
    if ev >= 1:
        for h in range(g.nh):
            if buf[t.hex_ship + 2 * h] == p or buf[t.hex_ship + 2 * h + 1] == p:
                for k in range(6):
                    n = g.nb[6 * h + k]
                    if n < 0:
                        break
                    if _passable(buf, t, g, n) and (ev >= 2 or _free_for(buf, t, n, p)):
                        return True      # ev >= 2: out and back, the ship may end where it started (R-A6)
        if ships < 1 or robots < 1:
            return False
        for k in range(6):
            n = g.nb[6 * ba + k]
            if n < 0:
                break
            if _passable(buf, t, g, n) and _free_for(buf, t, n, p):
                return True
        if ev < 2:
            return False
        return len(destinations(bufobj, t.hex_terrain, t.hex_ship, g.nb_array, g.nh, ba, p, ba, 1, ev,
                                False)) > 0
    # A star die: no move, but a Mission card must be placed (Command steps 2-4; rules-notes B2, D2).
    if buf[t.hand_mc + 3 * p + colour] < 1 or robots < 1:
        return False
    if eff == RAV_DISCARD_MISSION and _hand_total(buf, t, p) < 2:
        return False
    for h in range(g.nh):
        if ((buf[t.hex_ship + 2 * h] == p or buf[t.hex_ship + 2 * h + 1] == p)
                and buf[t.hex_terrain + h] == colour and buf[t.hex_card + h] < 0):
            return True
    return (ships >= 1 and robots >= 2 and buf[t.hex_terrain + ba] == colour and buf[t.hex_card + ba] < 0
            and _free_for(buf, t, ba, p))


@cython.cfunc
@cython.wraparound(False)
def _any_damage(buf: cython.const[cython.short][:], t: _Tables) -> cython.bint:
    """A Damage cube on an action or on a die (only dice in the supply carry cubes)."""
    i: cython.Py_ssize_t
    for i in range(6):
        if buf[t.dmg + i]:
            return True
    for i in range(18):
        if buf[t.die_damaged + i]:
            return True
    return False


@cython.cfunc
@cython.wraparound(False)
def _repair_target(buf: cython.const[cython.short][:], t: _Tables, a: cython.int) -> cython.bint:
    """Something to repair, now or once the topmost Ravager's effect at ``a`` (resolved before the action)
    has damaged an action (an action cube, or a die cube, or nothing only if both are impossible) or a die of
    its colour in the supply."""
    i: cython.Py_ssize_t
    c: cython.int
    r: cython.int
    k: cython.int
    if _any_damage(buf, t):
        return True
    k = buf[t.rav_count + a]
    if k == 0:
        return False
    r = buf[t.rav_loc + 3 * a + k - 1]
    if t.rav_effect[r] == RAV_DAMAGE_NEXT:
        return True
    if t.rav_effect[r] == RAV_DAMAGE_DIE:
        c = t.rav_die_colour[r]
        for i in range(6 * c, 6 * c + 6):
            if buf[t.die_owner + i] == DIE_SUPPLY and not buf[t.die_damaged + i]:
                return True
    return False


@cython.cfunc
@cython.wraparound(False)
def _discover_min(buf: cython.const[cython.short][:], t: _Tables) -> cython.int:
    """The cheapest tile to discover: a tile of the display, or one in the Advanced space (99: none)."""
    i: cython.Py_ssize_t
    best: cython.int = 99
    for i in range(t.n_display):
        if buf[t.display + i] >= 0 and t.display_cost[i] < best:
            best = t.display_cost[i]
    for i in range(t.n_adv_slots):
        if buf[t.adv_slots + i] >= 0:
            if t.advanced_cost < best:
                best = t.advanced_cost
            break
    return best


@cython.cfunc
@cython.wraparound(False)
def _destroy_min(buf: cython.const[cython.short][:], t: _Tables) -> cython.int:
    """The fewest Ravagers at an occupied location (a whole location is destroyed; 99: none)."""
    i: cython.Py_ssize_t
    k: cython.int
    best: cython.int = 99
    for i in range(6):
        k = buf[t.rav_count + i]
        if 1 <= k < best:
            best = k
    return best


@cython.cfunc
@cython.wraparound(False)
def _action_ok(buf: cython.const[cython.short][:], t: _Tables, g: _Board, bufobj, p: cython.int, a: cython.int,
               ev: cython.int) -> cython.bint:
    kind: cython.int = t.act_kind[a]
    if kind == ACT_COMMAND:
        return _command_ok(buf, t, g, bufobj, p, t.act_colour[a], ev, _top_effect(buf, t, a))
    if ev < 1:
        return False
    if kind == ACT_DISCOVER:
        return ev >= _discover_min(buf, t)
    if kind == ACT_REPAIR:
        return _repair_target(buf, t, a)
    return ev >= _destroy_min(buf, t)          # ACT_DESTROY: a whole location within the activations


@cython.cfunc
@cython.wraparound(False)
def _board_ok(buf: cython.const[cython.short][:], t: _Tables, g: _Board, bufobj, p: cython.int, a: cython.int,
              value: cython.int) -> cython.bint:
    """Board action ``a`` can start with a die of ``value``: one pip less on an action fully damaged."""
    ev: cython.int = value
    if value > 0 and buf[t.dmg + a] >= t.max_damage:
        ev = value - 1
    return _action_ok(buf, t, g, bufobj, p, a, ev)


@cython.cfunc
@cython.wraparound(False)
def _usable(buf: cython.const[cython.short][:], t: _Tables, g: _Board, bufobj, p: cython.int, colour: cython.int,
            value: cython.int, res_delta: cython.int, debris_delta: cython.int) -> cython.bint:
    """Some board action of ``colour`` or activation card of ``colour`` can start with a die of ``value``."""
    a: cython.int
    for a in range(6):
        if t.act_colour[a] == colour and _board_ok(buf, t, g, bufobj, p, a, value):
            return True
    return value >= 1 and _mission_use(buf, t, g, p, colour, res_delta, debris_delta)


@cython.ccall
def _check_seat(p: cython.long):
    if not 0 <= p < 4:
        raise ValueError(f"no seat {p} (0-3)")


@cython.ccall
def _check_action(a: cython.long):
    if not 0 <= a < 6:
        raise ValueError(f"no board action {a} (0-5)")


def action_can_start(s: State, p: cython.int, a: cython.int, ev: cython.int) -> bool:
    """The board action families' predicate: can action ``a`` start for p with a die worth ``ev`` on it (after
    the action's damage)?"""
    _check_seat(p)
    _check_action(a)
    return _action_ok(_readable(s._typed), _tables(s), _board(s), s._typed, p, a, ev)


def board_action_ok(s: State, p: cython.int, a: cython.int, value: cython.int) -> bool:
    """Board action ``a`` can start for p with a die of ``value`` (``action_can_start`` after the damage)."""
    _check_seat(p)
    _check_action(a)
    return _board_ok(_readable(s._typed), _tables(s), _board(s), s._typed, p, a, value)


def board_use(s: State, p: cython.int, colour: cython.int, value: cython.int) -> bool:
    """Some board action of ``colour`` can start for p with a die of ``value``."""
    _check_seat(p)
    bo = s._typed
    buf: cython.const[cython.short][:] = _readable(bo)
    t: _Tables = _tables(s)
    g: _Board = _board(s)
    a: cython.int
    for a in range(6):
        if t.act_colour[a] == colour and _board_ok(buf, t, g, bo, p, a, value):
            return True
    return False


def mission_use(s: State, p: cython.int, colour: cython.int, res_delta: cython.int = 0,
                debris_delta: cython.int = 0) -> bool:
    """Some activation Mission card of ``colour`` in Space can start for p (a die of value 1 or more)."""
    _check_seat(p)
    return _mission_use(_readable(s._typed), _tables(s), _board(s), p, colour, res_delta, debris_delta)


def die_usable(s: State, p: cython.int, colour: cython.int, value: cython.int, res_delta: cython.int = 0,
               debris_delta: cython.int = 0) -> bool:
    """A die of ``colour`` and ``value`` has a use for p: a board action of its colour, or (value 1 or more) an
    activation Mission card of its colour in Space.  ``res_delta`` is -1 for a bought die (its price is paid
    before any mission cost), ``debris_delta`` -1 after a debris flip."""
    _check_seat(p)
    return _usable(_readable(s._typed), _tables(s), _board(s), s._typed, p, colour, value, res_delta, debris_delta)


def die_uses(s: State, p: cython.int, colour: cython.int, value: cython.int, res_delta: cython.int = 0) -> list:
    """The uses of ``die_usable`` as action ids: board actions (``board_id + a``) in action order, then
    activation cards (``mission_id + card``) in hex order."""
    _check_seat(p)
    bo = s._typed
    buf: cython.const[cython.short][:] = _readable(bo)
    t: _Tables = _tables(s)
    g: _Board = _board(s)
    out: list = []
    a: cython.int
    h: cython.Py_ssize_t
    card: cython.int
    for a in range(6):
        if t.act_colour[a] == colour and _board_ok(buf, t, g, bo, p, a, value):
            out.append(BOARD_ACTION + a)
    if value >= 1:
        for h in range(g.nh):
            card = buf[t.hex_card + h]
            if (card >= 0 and t.mis_kind[card] == MISSION_ACTIVATION and t.mis_colour[card] == colour
                    and _mission_ok(buf, t, p, card, res_delta, 0)):
                out.append(MISSION_ACTION + card)
    return out


@cython.cfunc
@cython.wraparound(False)
def _reachable(buf: cython.const[cython.short][:], t: _Tables, g: _Board, bufobj, p: cython.int, colour: cython.int,
               value: cython.int, can_flip: cython.bint, res_delta: cython.int,
               debris_delta: cython.int) -> cython.bint:
    """A use as the die is, or (``can_flip``) once flipped with a debris, spent first (R-A16)."""
    if _usable(buf, t, g, bufobj, p, colour, value, res_delta, debris_delta):
        return True
    return can_flip and _usable(buf, t, g, bufobj, p, colour, FLIP[value], res_delta, debris_delta - 1)


def plain_reachable(s: State, p: cython.int, colour: cython.int, value: cython.int, can_flip: cython.bint,
                    res_delta: cython.int = 0, debris_delta: cython.int = 0) -> bool:
    """With no boost to use: a die of ``colour`` and ``value`` has a use as it is, or (``can_flip``) once
    flipped to its opposite face with a debris (R-A16: the flip's debris is spent before any mission cost)."""
    _check_seat(p)
    if not 0 <= value <= 3:
        raise ValueError(f"a die shows a face 0-3, not {value}")
    return _reachable(_readable(s._typed), _tables(s), _board(s), s._typed, p, colour, value, can_flip, res_delta,
                      debris_delta)


@cython.wraparound(False)
def plain_selectable(s: State, p: cython.int, stop_at_first: cython.bint = False) -> list:
    """The dice p may select in A2 when p has no boost that changes a die: own dice with a use as they are, or
    once flipped with a debris (R-A16: the flip's debris is spent first), and others' unreserved dice bought for
    1 resource with a use once the price is paid (never reserved ones: rulebook A2 and Reserved die)."""
    _check_seat(p)
    bo = s._typed
    buf: cython.const[cython.short][:] = _readable(bo)
    t: _Tables = _tables(s)
    g: _Board = _board(s)
    verdict = cython.declare(cython.int[24])       # (colour, value, bought) -> 0 unknown, 1 usable, 2 not
    out: list = []
    i: cython.int
    d: cython.int
    o: cython.int
    c: cython.int
    v: cython.int
    k: cython.int
    ok: cython.bint
    can_buy: cython.bint = buf[t.res + p] >= 1
    debris: cython.bint = buf[t.debris + p] >= 1
    for i in range(24):
        verdict[i] = 0
    for d in range(18):
        o = buf[t.die_owner + d]
        c = d // 6
        v = buf[t.die_value + d]
        if o == p:
            if v < 0 or v > 3:
                raise ValueError(f"die {d} shows {v}, not a face 0-3")
            k = 8 * c + v
            if verdict[k] == 0:
                ok = _reachable(buf, t, g, bo, p, c, v, debris, 0, 0)
                verdict[k] = 1 if ok else 2
        elif o >= 0 and can_buy and not buf[t.die_reserved + d]:
            if v < 0 or v > 3:
                raise ValueError(f"die {d} shows {v}, not a face 0-3")
            k = 8 * c + 4 + v
            if verdict[k] == 0:
                ok = _reachable(buf, t, g, bo, p, c, v, False, -1, 0)
                verdict[k] = 1 if ok else 2
        else:
            continue
        if verdict[k] == 1:
            out.append(d)
            if stop_at_first:
                return out
    return out


@cython.wraparound(False)
def robust_use(s: State, p: cython.int) -> bool:
    """A die use that nothing in A1 can take away: Discover, Repair or Destroy with a die p may select (its own,
    or another's unreserved die it can buy), judged as the die is (the A1 guard's shortcut, R-A2)."""
    _check_seat(p)
    bo = s._typed
    buf: cython.const[cython.short][:] = _readable(bo)
    t: _Tables = _tables(s)
    g: _Board = _board(s)
    d: cython.int
    o: cython.int
    c: cython.int
    v: cython.int
    a: cython.int
    can_buy: cython.bint = buf[t.res + p] >= 1
    for d in range(18):
        o = buf[t.die_owner + d]
        if o == p or (o >= 0 and can_buy and not buf[t.die_reserved + d]):
            c = d // 6
            v = buf[t.die_value + d]
            for a in range(6):
                if (t.act_colour[a] == c and t.act_kind[a] != ACT_COMMAND
                        and _board_ok(buf, t, g, bo, p, a, v)):
                    return True
    return False
