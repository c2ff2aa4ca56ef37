"""Conservation laws and consistency checks that hold after every action.

``check_invariants(state)`` raises ``InvariantError`` naming the first broken law.  It is used by the random
-play tests after every decision and by ``State.load`` to refuse inconsistent saved states:

* 16 robots per player (supply, break room, workstations, Mission rewards, Ravager cards, ship pilots);
* every die of the game present (6, 5 or 4 per colour), damaged only in the supply, reserved only when owned;
* 60 Mission cards, 30 Ravager cards and 76 tiles each in exactly one consistent place (a deck or stack holds a
  card or tile at every place within its count, a Ravager card on the board lies once in its location's stack,
  a keep choice is two distinct cards drawn by the seat to act and no other card is marked as drawn);
* at most 2 ships per hex, of different players; 0-2 Damage cubes per action; 0-3 Ravagers per location;
* VP never negative and equal to the sum of the VP-by-source columns;
* every scalar register (``State.m``) within its range, and the registers of the decision in progress
  consistent with the phase (the seat to act, the die in use, the card, tile or ship being handled).

The checks read the state's flat buffer by position (``_Layout``: where each field starts).  The module is
compiled by Cython in pure-Python mode (``blackangel_env._compiled``): compiled, the buffer is read as C shorts
through a typed memoryview and the counters are C ints; interpreted, the same code reads a list of the buffer's
Python ints.
"""

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from . import _cython_shim as cython

import numpy as np

from . import state as S
from .constants import (
    ADV_TILE0, N_ADVANCED, N_HAL_CARDS, N_TILES, START_TILE0, T_ASTEROID, T_SPES, TE_ACT_HORIZONTAL,
    TE_ACT_VERTICAL, TE_DRAW_MISSION, TE_MOVE_ROBOT, TE_MOVE_SHIP, TE_OR, TILE_EFFECTS,
)
from .state import (
    BOT, DIE_ABSENT, DIE_IN_USE, DIE_SUPPLY, M_ACTOR, M_ADV_DECK_N, M_DIE, M_N_PLAYERS, M_N_STRIPS, M_PHASE,
    M_RAV_DECK_N, M_SHIP_LAUNCH, M_TAKEN_TILE, MC_DECK, MC_DISCARD, MC_DRAWN, MC_HAND, MC_SLOT, MC_SPACE,
    MC_TUCKED, PHASE_NAMES, RAVAGER_SLOT, RV_BOARD, RV_BOX, RV_DECK, RV_DISCARD, RV_HAND, RV_SLOT, TL_ADV_DECK,
    TL_ADV_SLOT, TL_ADV_SPACE, TL_BOX, TL_DISCARD, TL_DISPLAY, TL_EJECTED, TL_GRID, TL_STACK, TL_TAKEN, State,
)

# The codes the loops compare with, as C ints when compiled.
_BOT = cython.declare(cython.int, BOT)
_DIE_ABSENT = cython.declare(cython.int, DIE_ABSENT)
_DIE_IN_USE = cython.declare(cython.int, DIE_IN_USE)
_DIE_SUPPLY = cython.declare(cython.int, DIE_SUPPLY)
_MC_DECK = cython.declare(cython.int, MC_DECK)
_MC_DISCARD = cython.declare(cython.int, MC_DISCARD)
_MC_SPACE = cython.declare(cython.int, MC_SPACE)
_MC_HAND = cython.declare(cython.int, MC_HAND)
_MC_SLOT = cython.declare(cython.int, MC_SLOT)
_MC_TUCKED = cython.declare(cython.int, MC_TUCKED)
_MC_DRAWN = cython.declare(cython.int, MC_DRAWN)
_RV_DECK = cython.declare(cython.int, RV_DECK)
_RV_DISCARD = cython.declare(cython.int, RV_DISCARD)
_RV_BOX = cython.declare(cython.int, RV_BOX)
_RV_HAND = cython.declare(cython.int, RV_HAND)
_RV_SLOT = cython.declare(cython.int, RV_SLOT)
_RV_BOARD = cython.declare(cython.int, RV_BOARD)
_RAVAGER_SLOT = cython.declare(cython.int, RAVAGER_SLOT)
_TL_STACK = cython.declare(cython.int, TL_STACK)
_TL_DISCARD = cython.declare(cython.int, TL_DISCARD)
_TL_BOX = cython.declare(cython.int, TL_BOX)
_TL_DISPLAY = cython.declare(cython.int, TL_DISPLAY)
_TL_ADV_DECK = cython.declare(cython.int, TL_ADV_DECK)
_TL_ADV_SLOT = cython.declare(cython.int, TL_ADV_SLOT)
_TL_GRID = cython.declare(cython.int, TL_GRID)
_TL_EJECTED = cython.declare(cython.int, TL_EJECTED)
_TL_ADV_SPACE = cython.declare(cython.int, TL_ADV_SPACE)
_TL_TAKEN = cython.declare(cython.int, TL_TAKEN)
_N_TILES = cython.declare(cython.int, N_TILES)
_ADV_TILE0 = cython.declare(cython.int, ADV_TILE0)
_START_TILE0 = cython.declare(cython.int, START_TILE0)
_T_SPES = cython.declare(cython.int, T_SPES)
_T_ASTEROID = cython.declare(cython.int, T_ASTEROID)
_N_HAL_CARDS = cython.declare(cython.int, N_HAL_CARDS)
_M_DIE = cython.declare(cython.int, M_DIE)
_M_TAKEN_TILE = cython.declare(cython.int, M_TAKEN_TILE)

# Sizes the checks count in C arrays (compiled) or lists (interpreted); the layout must agree (checked below).
_MAX_TILES = 76
_MAX_MISSIONS = 60
_MAX_RAVAGERS = 30


class InvariantError(AssertionError):
    """A conservation law or consistency rule of the game state is broken."""


def _fail(msg: str) -> None:
    raise InvariantError(msg)


@cython.cclass
class _Layout:
    """Where each field of the state buffer starts (``state.layout``) for one length of the tile display, and the
    lowest and highest value of every buffer entry under ``_FIELD_RANGES``."""

    size: cython.Py_ssize_t
    display_len: cython.Py_ssize_t
    vp: cython.Py_ssize_t
    vp_src: cython.Py_ssize_t
    n_src: cython.Py_ssize_t
    res: cython.Py_ssize_t
    debris: cython.Py_ssize_t
    ships: cython.Py_ssize_t
    robots_break: cython.Py_ssize_t
    robots_supply: cython.Py_ssize_t
    robots_ws: cython.Py_ssize_t
    hand_mc: cython.Py_ssize_t
    hand_rav: cython.Py_ssize_t
    grid: cython.Py_ssize_t
    slots: cython.Py_ssize_t
    adv_space: cython.Py_ssize_t
    dmg: cython.Py_ssize_t
    rav_loc: cython.Py_ssize_t
    rav_count: cython.Py_ssize_t
    die_value: cython.Py_ssize_t
    die_owner: cython.Py_ssize_t
    die_reserved: cython.Py_ssize_t
    die_damaged: cython.Py_ssize_t
    display: cython.Py_ssize_t
    adv_slots: cython.Py_ssize_t
    n_adv_slots: cython.Py_ssize_t
    mc_where: cython.Py_ssize_t
    mc_owner: cython.Py_ssize_t
    mc_hex: cython.Py_ssize_t
    mc_deck: cython.Py_ssize_t
    mc_deck_n: cython.Py_ssize_t
    drawn: cython.Py_ssize_t
    rav_where: cython.Py_ssize_t
    rav_deck: cython.Py_ssize_t
    n_rav_deck: cython.Py_ssize_t
    rav_robots: cython.Py_ssize_t
    tile_where: cython.Py_ssize_t
    tile_boost: cython.Py_ssize_t
    tile_debris: cython.Py_ssize_t
    tech_stack: cython.Py_ssize_t
    stack_width: cython.Py_ssize_t
    tech_stack_n: cython.Py_ssize_t
    adv_deck: cython.Py_ssize_t
    strip_id: cython.Py_ssize_t
    strip_face: cython.Py_ssize_t
    n_strip_slots: cython.Py_ssize_t
    hex_terrain: cython.Py_ssize_t
    hex_comet: cython.Py_ssize_t
    hex_icons: cython.Py_ssize_t
    hex_card: cython.Py_ssize_t
    hex_ship: cython.Py_ssize_t
    hal_deck: cython.Py_ssize_t
    n_hal_deck: cython.Py_ssize_t
    lo: cython.short[::1]
    hi: cython.short[::1]

    def __init__(self, display_len):
        v = S._views(display_len)
        shapes = {name: shape for name, (shape, start, end) in v.items()}
        if (v["m"][1] != 0 or shapes["tile_where"] != (_MAX_TILES,) or shapes["mc_where"] != (_MAX_MISSIONS,)
                or shapes["rav_where"] != (_MAX_RAVAGERS,) or N_TILES != _MAX_TILES):
            raise RuntimeError("blackangel_env.invariants: the state layout differs from the one it checks")
        self.size = S.buffer_size(display_len)
        self.display_len = display_len
        self.vp = v["vp"][1]
        self.vp_src = v["vp_src"][1]
        self.n_src = shapes["vp_src"][1]
        self.res = v["res"][1]
        self.debris = v["debris"][1]
        self.ships = v["ships"][1]
        self.robots_break = v["robots_break"][1]
        self.robots_supply = v["robots_supply"][1]
        self.robots_ws = v["robots_ws"][1]
        self.hand_mc = v["hand_mc"][1]
        self.hand_rav = v["hand_rav"][1]
        self.grid = v["grid"][1]
        self.slots = v["slots"][1]
        self.adv_space = v["adv_space"][1]
        self.dmg = v["dmg"][1]
        self.rav_loc = v["rav_loc"][1]
        self.rav_count = v["rav_count"][1]
        self.die_value = v["die_value"][1]
        self.die_owner = v["die_owner"][1]
        self.die_reserved = v["die_reserved"][1]
        self.die_damaged = v["die_damaged"][1]
        self.display = v["display"][1]
        self.adv_slots = v["adv_slots"][1]
        self.n_adv_slots = shapes["adv_slots"][0]
        self.mc_where = v["mc_where"][1]
        self.mc_owner = v["mc_owner"][1]
        self.mc_hex = v["mc_hex"][1]
        self.mc_deck = v["mc_deck"][1]
        self.mc_deck_n = v["mc_deck_n"][1]
        self.drawn = v["drawn"][1]
        self.rav_where = v["rav_where"][1]
        self.rav_deck = v["rav_deck"][1]
        self.n_rav_deck = shapes["rav_deck"][0]
        self.rav_robots = v["rav_robots"][1]
        self.tile_where = v["tile_where"][1]
        self.tile_boost = v["tile_boost"][1]
        self.tile_debris = v["tile_debris"][1]
        self.tech_stack = v["tech_stack"][1]
        self.stack_width = shapes["tech_stack"][1]
        self.tech_stack_n = v["tech_stack_n"][1]
        self.adv_deck = v["adv_deck"][1]
        self.strip_id = v["strip_id"][1]
        self.strip_face = v["strip_face"][1]
        self.n_strip_slots = shapes["strip_id"][0]
        self.hex_terrain = v["hex_terrain"][1]
        self.hex_comet = v["hex_comet"][1]
        self.hex_icons = v["hex_icons"][1]
        self.hex_card = v["hex_card"][1]
        self.hex_ship = v["hex_ship"][1]
        self.hal_deck = v["hal_deck"][1]
        self.n_hal_deck = shapes["hal_deck"][0]
        lo = np.full(self.size, np.iinfo(np.int16).min, dtype=np.int16)
        hi = np.full(self.size, np.iinfo(np.int16).max, dtype=np.int16)
        for name, low, high in _FIELD_RANGES:
            _, start, end = v[name]
            lo[start:end] = low
            hi[start:end] = high
        self.lo = lo
        self.hi = hi


def _readable(a: np.ndarray):
    """What the checks index: the int16 array itself compiled (read through a typed memoryview), its Python ints
    interpreted (numpy scalar reads are slow)."""
    return a if cython.compiled else a.tolist()


_LAYOUTS: dict = {}


def _layout(display_len) -> _Layout:
    L = _LAYOUTS.get(display_len)
    if L is None:
        L = _LAYOUTS[display_len] = _Layout(display_len)
    return L


def check_invariants(s: State) -> None:
    """Raise ``InvariantError`` naming the first broken law of the position ``s`` (module docstring)."""
    comp = s.comp
    L: _Layout = _layout(len(comp.display_costs))
    b: cython.const[cython.short][::1] = _readable(s._typed)
    n: cython.int = b[M_N_PLAYERS]               # the registers start the buffer (``_Layout`` checks it)
    ph: cython.int = b[M_PHASE]
    n_strips: cython.int = b[M_N_STRIPS]
    if not 1 <= n <= 4:
        _fail(f"player count {n} out of range")
    if not 0 <= ph < len(PHASE_NAMES):
        _fail(f"phase {ph} out of range")
    if n_strips != comp.strips_used[n]:
        _fail(f"{n_strips} strips for {n} players (expected {comp.strips_used[n]})")
    nh: cython.int = n_strips * 5
    _check_fields(s, b, L, n, nh)
    _check_registers(s, b, L, n, nh)
    _check_pieces(s, b, L, n, nh)


def _check_pieces(s: State, b: cython.const[cython.short][::1], L: _Layout, n: cython.int, nh: cython.int) -> None:
    """Ships, robots, dice, the board, the Ravager and Mission cards, the tiles and the VP (module docstring)."""
    comp = s.comp
    i: cython.Py_ssize_t
    h: cython.Py_ssize_t
    p: cython.Py_ssize_t
    c: cython.Py_ssize_t
    d: cython.Py_ssize_t
    k: cython.Py_ssize_t
    r: cython.Py_ssize_t
    t: cython.Py_ssize_t
    card: cython.Py_ssize_t
    cell: cython.Py_ssize_t
    a: cython.int
    q: cython.int
    o: cython.int
    w: cython.int
    x: cython.int
    total: cython.int
    ok: cython.bint
    found: cython.bint

    # --- ships -------------------------------------------------------------------------------------------
    hs: cython.Py_ssize_t = L.hex_ship
    ships_on_board = cython.declare(cython.int[5])
    transit = cython.declare(cython.int[5])
    owned_cards = cython.declare(cython.int[5])
    for p in range(5):
        ships_on_board[p] = 0
        transit[p] = 0
        owned_cards[p] = 0
    for h in range(35):
        a = b[hs + 2 * h]
        q = b[hs + 2 * h + 1]
        if h >= nh and (a >= 0 or q >= 0):
            _fail(f"ship on hex {h} beyond the {nh // 5} strips")
        if a < 0 and q >= 0:
            _fail(f"hex {h}: second ship slot used with the first empty")
        if a >= 0 and a == q:
            _fail(f"hex {h}: two ships of seat {a}")
        for i in range(2):
            x = b[hs + 2 * h + i]
            if x >= 0:
                if x >= n:
                    _fail(f"hex {h}: ship of absent seat {x}")
                ships_on_board[x] += 1
    if b[M_SHIP_LAUNCH]:
        transit[b[M_ACTOR]] = 1          # a launched ship still moving (its pilot aboard)

    # --- robots --------------------------------------------------------------------------------------------
    mcw: cython.Py_ssize_t = L.mc_where
    mco: cython.Py_ssize_t = L.mc_owner
    rr: cython.Py_ssize_t = L.rav_robots
    for card in range(60):
        if b[mcw + card] != _MC_SPACE:
            continue
        o = b[mco + card]
        if not (0 <= o < n or (o == _BOT and n == 1)):
            _fail(f"Mission card {card} in Space has bad owner {o}")
        owned_cards[o] += 1
    robots = comp.robots_per_player
    for p in range(n):
        on_ravagers: cython.int = 0
        for r in range(30):
            on_ravagers += b[rr + 5 * r + p]
        ws: cython.Py_ssize_t = L.robots_ws + 3 * p
        total = (b[L.robots_supply + p] + b[L.robots_break + p] + b[ws] + b[ws + 1] + b[ws + 2] + owned_cards[p]
                 + on_ravagers + ships_on_board[p] + transit[p])
        if total != robots:
            _fail(f"player_{p} has {total} robots in play (expected {robots}): supply "
                  f"{b[L.robots_supply + p]}, break room {b[L.robots_break + p]}, workstations "
                  f"{[b[ws], b[ws + 1], b[ws + 2]]}, on cards {owned_cards[p]}, on Ravagers "
                  f"{on_ravagers}, pilots {ships_on_board[p] + transit[p]}")
        if b[L.robots_supply + p] < 0:
            _fail(f"player_{p} has negative robots_supply")
        if b[L.robots_break + p] < 0:
            _fail(f"player_{p} has negative robots_break")
        if b[L.res + p] < 0:
            _fail(f"player_{p} has negative res")
        if b[L.debris + p] < 0:
            _fail(f"player_{p} has negative debris")
        if b[L.ships + p] < 0:
            _fail(f"player_{p} has negative ships")

    # --- dice ------------------------------------------------------------------------------------------------
    dow: cython.Py_ssize_t = L.die_owner
    per: cython.int = comp.dice_per_colour[n]
    for c in range(3):
        present: cython.int = 0
        for d in range(6 * c, 6 * c + 6):
            if b[dow + d] != _DIE_ABSENT:
                present += 1
        if present != per:
            _fail(f"{present} {c}-coloured dice in play (expected {per})")
    in_use: cython.int = 0
    for d in range(18):
        o = b[dow + d]
        if o == _DIE_IN_USE:
            in_use += 1
            if b[_M_DIE] != d:
                _fail(f"die {d} in use but the register says {b[_M_DIE]}")
        elif not (o == _DIE_SUPPLY or o == _DIE_ABSENT or 0 <= o < n or (o == _BOT and n <= 2)):
            _fail(f"die {d} has bad owner {o}")
        if b[L.die_damaged + d] and o != _DIE_SUPPLY:
            _fail(f"die {d} is damaged outside the supply")
        if b[L.die_reserved + d] and not (0 <= o < 5):
            _fail(f"die {d} is reserved but not in a compartment")
        if not 0 <= b[L.die_value + d] <= 3:
            _fail(f"die {d} shows {b[L.die_value + d]}")
    if in_use > 1:
        _fail(f"{in_use} dice in use")

    # --- board -----------------------------------------------------------------------------------------------
    rw: cython.Py_ssize_t = L.rav_where
    max_damage: cython.int = comp.max_action_damage
    capacity: cython.int = comp.ravager_capacity
    for a in range(6):
        if not 0 <= b[L.dmg + a] <= max_damage:
            _fail(f"action {a + 1} has {b[L.dmg + a]} Damage cubes")
        k = b[L.rav_count + a]
        if not 0 <= k <= capacity:
            _fail(f"location {a + 1} holds {k} Ravager cards")
        for i in range(3):
            r = b[L.rav_loc + 3 * a + i]
            if (i < k) != (r >= 0):
                _fail(f"location {a + 1} stack is inconsistent with its count {k}")
            if r >= 0 and (b[rw + r] != _RV_BOARD + a or comp.ravager_action[r] != a):
                _fail(f"Ravager {r + 61} at location {a + 1} is misplaced")
    # each card marked as on the board lies in its location's stack once
    for r in range(30):
        w = b[rw + r]
        if _RV_BOARD <= w < _RV_BOARD + 6:
            k = 0
            for i in range(b[L.rav_count + w - _RV_BOARD]):
                if b[L.rav_loc + 3 * (w - _RV_BOARD) + i] == r:
                    k += 1
            if k != 1:
                _fail(f"Ravager {r + 61} is in the stack of location {w - _RV_BOARD + 1} {k} times")

    # --- Ravager cards ---------------------------------------------------------------------------------------
    # the deck's first deck_n entries are the cards marked as in the deck, each once (in any order)
    deck_n: cython.Py_ssize_t = b[M_RAV_DECK_N]
    rd: cython.Py_ssize_t = L.rav_deck
    marks = cython.declare(cython.int[60])
    for card in range(60):
        marks[card] = 0
    ok = True
    for i in range(deck_n):
        r = b[rd + i]
        if r < 0 or marks[r] or b[rw + r] != _RV_DECK:
            ok = False
            break
        marks[r] = 1
    in_deck: cython.Py_ssize_t = 0
    removed: cython.int = 0
    held = cython.declare(cython.int[5])
    for p in range(5):
        held[p] = 0
    for r in range(30):
        w = b[rw + r]
        if w == _RV_DECK:
            in_deck += 1
        elif w == _RV_BOX:
            removed += 1
        elif _RV_HAND <= w < _RV_HAND + 5:
            held[w - _RV_HAND] += 1
    if not ok or in_deck != deck_n:
        _fail("the Ravager deck and the cards marked as in the deck differ")
    for i in range(deck_n, L.n_rav_deck):
        if b[rd + i] >= 0:
            _fail("Ravager deck has cards beyond its count")
    if removed != comp.ravagers_removed[n]:
        _fail(f"{removed} Ravager cards set aside (expected {comp.ravagers_removed[n]})")
    for p in range(5):
        if held[p] != b[L.hand_rav + p]:
            _fail(f"seat {p} holds {held[p]} Ravager cards but its count says {b[L.hand_rav + p]}")
    sl: cython.Py_ssize_t = L.slots
    for r in range(30):
        w = b[rw + r]
        if not (w == _RV_DECK or w == _RV_DISCARD or w == _RV_BOX or _RV_HAND <= w < _RV_HAND + n
                or _RV_SLOT <= w < _RV_SLOT + n or _RV_BOARD <= w < _RV_BOARD + 6):
            _fail(f"Ravager {r + 61} has bad location {w}")
        if _RV_SLOT <= w < _RV_SLOT + n:
            found = False
            for i in range(6):
                if b[sl + 6 * (w - _RV_SLOT) + i] == _RAVAGER_SLOT + r:
                    found = True
            if not found:
                _fail(f"Ravager {r + 61} marked as played but not in a slot")
        if not _RV_BOARD <= w < _RV_BOARD + 6:
            for p in range(5):
                if b[rr + 5 * r + p]:
                    _fail(f"robots on Ravager {r + 61}, which is not on the board")

    # --- Mission cards ---------------------------------------------------------------------------------------
    # each colour's deck: its first mc_deck_n entries are the cards of the colour marked as in the deck, each once
    md: cython.Py_ssize_t = L.mc_deck
    for c in range(3):
        ok = True
        for i in range(b[L.mc_deck_n + c]):
            card = b[md + 20 * c + i]
            if not 20 * c <= card < 20 * c + 20 or marks[card] == c + 2 or b[mcw + card] != _MC_DECK:
                ok = False
                break
            marks[card] = c + 2          # the marks of the Ravager deck above are 0 or 1
        in_deck = 0
        for card in range(20 * c, 20 * c + 20):
            if b[mcw + card] == _MC_DECK:
                in_deck += 1
        if not ok or in_deck != b[L.mc_deck_n + c]:
            _fail(f"colour {c} Mission deck and the cards marked as in it differ")
    hands = cython.declare(cython.int[15])
    for i in range(15):
        hands[i] = 0
    for card in range(60):
        w = b[mcw + card]
        if _MC_HAND <= w < _MC_HAND + 5:
            hands[3 * (w - _MC_HAND) + card // 20] += 1
    for p in range(5):
        for c in range(3):
            if hands[3 * p + c] != b[L.hand_mc + 3 * p + c]:
                _fail(f"seat {p} holds {hands[3 * p + c]} colour-{c} Mission cards but its count says "
                      f"{b[L.hand_mc + 3 * p + c]}")
    mh: cython.Py_ssize_t = L.mc_hex
    hc: cython.Py_ssize_t = L.hex_card
    for card in range(60):
        w = b[mcw + card]
        ok = (w == _MC_DECK or w == _MC_DISCARD or w == _MC_SPACE or _MC_HAND <= w < _MC_HAND + n
              or _MC_SLOT <= w < _MC_SLOT + n or _MC_TUCKED <= w < _MC_TUCKED + n or _MC_DRAWN <= w < _MC_DRAWN + n)
        if not ok:
            _fail(f"Mission card {card} has bad location {w}")
        if w == _MC_SPACE:
            h = b[mh + card]
            if not 0 <= h < nh or b[hc + h] != card:
                _fail(f"Mission card {card} in Space is not on its hex")
            if b[L.hex_terrain + h] != comp.mission_colour[card]:
                _fail(f"Mission card {card} lies on a hex of another colour")
        if _MC_SLOT <= w < _MC_SLOT + n:
            found = False
            for i in range(6):
                if b[sl + 6 * (w - _MC_SLOT) + i] == card:
                    found = True
            if not found:
                _fail(f"Mission card {card} marked as played but not in a slot")
    for h in range(nh):
        card = b[hc + h]
        if card >= 0 and (b[mcw + card] != _MC_SPACE or b[mh + card] != h):
            _fail(f"hex {h} shows Mission card {card}, which is elsewhere")

    # --- tiles -------------------------------------------------------------------------------------------
    tw: cython.Py_ssize_t = L.tile_where
    seen = cython.declare(cython.int[76])
    for t in range(_N_TILES):
        seen[t] = 0
    for p in range(4):
        for cell in range(9):
            t = b[L.grid + 9 * p + cell]
            if t >= 0:
                seen[t] += 1
                if b[tw + t] != _TL_GRID + p:
                    _fail(f"tile {t} in player_{p}'s grid is marked elsewhere")
        for k in range(3):
            t = b[L.adv_space + 3 * p + k]
            if t >= 0:
                seen[t] += 1
                if b[tw + t] != _TL_ADV_SPACE + p or t < _ADV_TILE0:
                    _fail(f"tile {t} on player_{p}'s Advanced space is inconsistent")
    for i in range(L.display_len):
        t = b[L.display + i]
        if t >= 0:
            seen[t] += 1
            if b[tw + t] != _TL_DISPLAY:
                _fail(f"display tile {t} is marked elsewhere")
    for i in range(L.n_adv_slots):
        t = b[L.adv_slots + i]
        if t >= 0:
            seen[t] += 1
            if b[tw + t] != _TL_ADV_SLOT:
                _fail(f"Advanced slot tile {t} is marked elsewhere")
    for c in range(3):
        for i in range(b[L.tech_stack_n + c]):
            t = b[L.tech_stack + L.stack_width * c + i]
            if t < 0:
                _fail(f"Technology stack {c} holds no tile at {i}, within its count {b[L.tech_stack_n + c]}")
            seen[t] += 1
            if b[tw + t] != _TL_STACK:
                _fail(f"stack tile {b[L.tech_stack + L.stack_width * c + i]} is marked elsewhere")
    for i in range(b[M_ADV_DECK_N]):
        t = b[L.adv_deck + i]
        if t < 0:
            _fail(f"the Advanced deck holds no tile at {i}, within its count {b[M_ADV_DECK_N]}")
        seen[t] += 1
        if b[tw + t] != _TL_ADV_DECK:
            _fail(f"Advanced deck tile {b[L.adv_deck + i]} is marked elsewhere")
    for t in range(_N_TILES):
        w = b[tw + t]
        if (w == _TL_DISCARD or w == _TL_BOX or _TL_EJECTED <= w < _TL_EJECTED + n
                or _TL_TAKEN <= w < _TL_TAKEN + n):
            seen[t] += 1
        if seen[t] != 1:
            _fail(f"tile {t} is in {seen[t]} places (location code {w})")
        if _START_TILE0 <= t < _ADV_TILE0:
            o = (t - _START_TILE0) // 3
            if w != _TL_BOX and w != _TL_DISCARD and w % 10 != o:
                _fail(f"Starting tile {t} is with another player")
        if _TL_TAKEN <= w < _TL_TAKEN + n and b[_M_TAKEN_TILE] != t:
            _fail(f"tile {t} is taken but not the tile being injected")
        if b[L.tile_debris + t] and not _TL_GRID <= w < _TL_GRID + n:
            _fail(f"debris on tile {t}, which is not in a grid")

    # --- VP ----------------------------------------------------------------------------------------------
    src: cython.Py_ssize_t
    for p in range(5):
        if p >= n and not (p == _BOT and n == 1):
            continue
        if b[L.vp + p] < 0:
            _fail(f"seat {p} has negative VP")
        total = 0
        for src in range(L.n_src):
            total += b[L.vp_src + L.n_src * p + src]
        if total != b[L.vp + p]:
            _fail(f"seat {p}: VP {b[L.vp + p]} differs from the sum of its sources {total}")


# --- registers ---------------------------------------------------------------------------------------------

# phases in which the die chosen in A2 is in use (from its modification to the owner's free activation)
_DIE_PHASES = frozenset((S.PH_A2_MODIFY, S.PH_DIE_COLOUR, S.PH_ACTION_BOOST, S.PH_RAVAGER_DISCARD, S.PH_DISCOVER,
                         S.PH_INJECT, S.PH_ADVANCED_SPACE, S.PH_REPAIR, S.PH_DEBRIS, S.PH_DESTROY,
                         S.PH_COMMAND_CARD, S.PH_MISSION, S.PH_PAY, S.PH_OWNER))
# phases in which no die is in use
_NO_DIE_PHASES = frozenset((S.PH_SETUP_RESERVE, S.PH_TURN, S.PH_A1_CARD, S.PH_A1_TILES, S.PH_A2_DIE,
                            S.PH_B_RESERVE))
# phases of a board action (its register names the action)
_ACTION_PHASES = frozenset((S.PH_ACTION_BOOST, S.PH_RAVAGER_DISCARD, S.PH_DISCOVER, S.PH_INJECT,
                            S.PH_ADVANCED_SPACE, S.PH_REPAIR, S.PH_DEBRIS, S.PH_DESTROY, S.PH_COMMAND_CARD))
_TILE_EFFECT_PHASES = frozenset((S.PH_TILE_OPTION, S.PH_TILE_ADJACENT, S.PH_TILE_DRAW, S.PH_TILE_ROBOT))
_PHASE_OR_NONE = frozenset([-1] + list(range(len(PHASE_NAMES))))


@cython.cfunc
def _reg_range(b: cython.const[cython.short][::1], reg: cython.Py_ssize_t, lo: cython.long,
               hi: cython.long) -> cython.long:
    v: cython.long = b[reg]
    if not lo <= v <= hi:
        _fail(f"register {S.M_NAMES[reg]} is {v}, outside {lo}..{hi}")
    return v


@cython.cfunc
def _reg_in(b: cython.const[cython.short][::1], reg: cython.Py_ssize_t, allowed, what) -> cython.long:
    v: cython.long = b[reg]
    if v not in allowed:
        _fail(f"register {S.M_NAMES[reg]} is {v}, not {what}")
    return v


def _check_registers(s: State, b: cython.const[cython.short][::1], L: _Layout, n: cython.int,
                     nh: cython.int) -> None:
    """Every scalar register within its range, and the decision registers consistent with the phase."""
    i: cython.Py_ssize_t
    c: cython.long
    solo: cython.bint = n == 1
    ph: cython.long = b[M_PHASE]
    for reg in (S.M_ADVANCED, S.M_SOLO, S.M_END_TRIGGERED, S.M_SPES_REACHED, S.M_GAME_OVER, S.M_DIE_BOUGHT,
                S.M_DIE_FLIPPED, S.M_TILE_ADJACENT, S.M_SHIP_LAUNCH, S.M_B_PAID):
        _reg_range(b, reg, 0, 1)
    if b[S.M_SOLO] != solo:
        _fail(f"register solo is {b[S.M_SOLO]} in a {n}-player game")
    over: cython.long = b[S.M_GAME_OVER]
    if (over != 0) != (ph == S.PH_GAME_OVER):
        _fail(f"register game_over is {over} in phase {PHASE_NAMES[ph]}")
    actor: cython.long = _reg_range(b, M_ACTOR, 0, n - 1)
    turn_player: cython.long = _reg_range(b, S.M_TURN_PLAYER, 0, n - 1)
    rnd: cython.long = _reg_range(b, S.M_ROUND, 1, 1000)
    _reg_range(b, S.M_TURNS, 0, 10000)          # far above any game, far below the 16-bit bound
    _reg_range(b, S.M_DECISIONS, 0, 30000)
    if b[S.M_END_TRIGGERED]:
        _reg_range(b, S.M_TRIGGER_ROUND, 0, rnd)       # 0: a position set in its final round 1
        if rnd > b[S.M_TRIGGER_ROUND] + 1:
            _fail(f"round {rnd} is past the final round {b[S.M_TRIGGER_ROUND] + 1}")
    else:
        _reg_in(b, S.M_TRIGGER_ROUND, (-1,), "-1 (the end of the game is not triggered)")
    n_strips: cython.long = nh // 5
    token: cython.long = _reg_range(b, S.M_SPES_TOKEN_POS, -1, n_strips - 1)
    spes_at: cython.long = _reg_range(b, S.M_SPES_POS, -1, n_strips - 1)
    if token >= 0 and spes_at >= 0:
        _fail("the Spes token is still on its way while Spes is on the board")
    if token < 0 and spes_at < 0 and not b[S.M_SPES_REACHED]:
        _fail("neither the Spes token nor Spes is on the board, and Spes is not reached: the Black Angel "
              "could never reach it")
    _reg_range(b, M_RAV_DECK_N, 0, L.n_rav_deck)
    _reg_range(b, M_ADV_DECK_N, 0, N_ADVANCED)
    if solo:
        _reg_range(b, S.M_HAL_DECK_N, 0, N_HAL_CARDS)
        _reg_range(b, S.M_HAL_CARD, -1, N_HAL_CARDS - 1)
    else:
        _reg_in(b, S.M_HAL_DECK_N, (0,), "0 (no Hal deck outside the solo game)")
        _reg_in(b, S.M_HAL_CARD, (-1,), "-1 (no Hal card outside the solo game)")
    # the Hal deck: its first k entries different cards, the rest -1
    k: cython.Py_ssize_t = b[S.M_HAL_DECK_N]
    hd: cython.Py_ssize_t = L.hal_deck
    cards: cython.long = 0                      # a bit per card seen
    ok: cython.bint = True
    for i in range(k):
        c = b[hd + i]
        if not 0 <= c < _N_HAL_CARDS or cards >> c & 1:
            ok = False
        else:
            cards |= 1 << c
    for i in range(k, L.n_hal_deck):
        if b[hd + i] != -1:
            ok = False
    if not ok:
        _fail("the Hal deck and its count disagree")
    # the decision in progress
    die: cython.long = _reg_range(b, M_DIE, -1, 17)
    _reg_range(b, S.M_DIE_COLOUR0, -1, 2)
    _reg_range(b, S.M_DIE_COLOUR, -1, 2)
    _reg_range(b, S.M_DIE_VALUE, 0, 3)
    _reg_range(b, S.M_ACTION, -1, 5)
    mission: cython.long = _reg_range(b, S.M_MISSION, -1, 59)
    _reg_range(b, S.M_VALUE, 0, 3)
    _reg_range(b, S.M_DONE, 0, 15)
    _reg_range(b, S.M_A1_SLOT, -1, 5)
    _reg_range(b, S.M_A1_COLOUR, -1, 2)
    pending: cython.long = _reg_range(b, S.M_PENDING, 0, 511)
    _reg_range(b, S.M_TILE_CELL, -1, 8)
    _reg_range(b, S.M_TILE_EFFECT, -1, len(TILE_EFFECTS) - 1)
    for reg in (S.M_TILE_RETURN, S.M_MOVE_RETURN, S.M_PAY_RETURN, S.M_KEEP_RETURN):
        _reg_in(b, reg, _PHASE_OR_NONE, "-1 or a phase")
    _reg_in(b, S.M_HAND_LIMIT_RETURN, (-1,), "-1")
    _reg_range(b, S.M_SHIP_HEX, -1, nh - 1)
    _reg_range(b, S.M_MOVE_RANGE, 0, 3)
    _reg_range(b, S.M_MOVE_MIN, 0, 1)
    taken: cython.long = _reg_range(b, M_TAKEN_TILE, -1, N_TILES - 1)
    ejected: cython.long = _reg_range(b, S.M_EJECTED_ADV, -1, N_TILES - 1)
    _reg_range(b, S.M_PAY_TECH, 0, 9)
    _reg_range(b, S.M_PAY_MISSION, 0, 9)
    _reg_range(b, S.M_PAY_SEAT, -1, n - 1)
    _reg_in(b, S.M_KEEP_N, (0,), "0")
    _reg_range(b, S.M_B_FREE_COLOUR, -1, 2)
    owner: cython.long = _reg_range(b, S.M_OWNER, -1, n - 1)
    _reg_range(b, S.M_BOOSTS_USED, 0, 9)
    setup_seat: cython.long = _reg_range(b, S.M_SETUP_SEAT, -1, n - 1)

    if not b[S.M_ADVANCED]:
        if ph == S.PH_DIE_COLOUR or ph == S.PH_ACTION_BOOST or ph == S.PH_KEEP:
            _fail(f"phase {PHASE_NAMES[ph]} of the advanced rules in a base game")
        for i in range(_N_TILES):
            if b[L.tile_boost + i]:
                _fail("a tile on its boost side in a base game")
    # who acts
    if ph == S.PH_SETUP_RESERVE:
        if setup_seat < 0 or actor != setup_seat:
            _fail(f"setup reservation of seat {setup_seat} with seat {actor} to act")
    elif setup_seat != -1:
        _fail(f"register setup_seat is {setup_seat} outside the setup")
    owner_pays: cython.bint = ph == S.PH_PAY and b[S.M_PAY_RETURN] == S.PH_OWNER
    if ph == S.PH_OWNER or owner_pays:
        if owner < 0 or owner == turn_player or actor != owner:
            _fail(f"owner's activation with owner {owner}, turn player {turn_player}, seat {actor} to act")
    elif owner != -1:
        _fail(f"register owner is {owner} outside the owner's activation")
    if ph == S.PH_PAY:
        if b[S.M_PAY_SEAT] < 0 or actor != b[S.M_PAY_SEAT]:
            _fail(f"payment by seat {b[S.M_PAY_SEAT]} with seat {actor} to act")
        _reg_in(b, S.M_PAY_RETURN, (S.PH_MISSION, S.PH_OWNER), "the mission or the owner's activation")
        if not b[S.M_PAY_TECH] and not b[S.M_PAY_MISSION]:
            _fail("payment in progress with nothing left to pay")
    elif (ph != S.PH_SETUP_RESERVE and ph != S.PH_OWNER and ph != S.PH_KEEP and ph != S.PH_GAME_OVER
          and actor != turn_player):
        _fail(f"seat {actor} to act in phase {PHASE_NAMES[ph]} of seat {turn_player}'s turn")
    # the die in use
    in_use = [i for i in range(18) if b[L.die_owner + i] == _DIE_IN_USE]
    if ph in _DIE_PHASES and (die < 0 or in_use != [die]):
        _fail(f"phase {PHASE_NAMES[ph]} without the die in use (register die {die})")
    if ph in _NO_DIE_PHASES and in_use:
        _fail(f"a die in use in phase {PHASE_NAMES[ph]}")
    tile_ret: cython.long = b[S.M_TILE_RETURN]
    command: cython.bint = b[S.M_MOVE_RETURN] == S.PH_COMMAND_CARD
    # a tile effect (or its ship move, or its Mission card draw) in A1 or in Repair
    in_tile: cython.bint = (ph in _TILE_EFFECT_PHASES
                            or ((ph == S.PH_SHIP_SELECT or ph == S.PH_SHIP_MOVE) and not command)
                            or (ph == S.PH_KEEP and b[S.M_KEEP_RETURN] == S.PH_TILE_DRAW))
    if in_tile and bool(in_use) != (tile_ret == S.PH_REPAIR):
        _fail(f"tile effect of {'Repair' if tile_ret == S.PH_REPAIR else 'A1'} with {len(in_use)} dice in use")
    if (ph == S.PH_SHIP_SELECT or ph == S.PH_SHIP_MOVE) and command and not in_use:
        _fail("Command's ship without the die in use")
    if in_use:
        if b[S.M_DIE_COLOUR0] != die // 6 or b[S.M_DIE_COLOUR] < 0:
            _fail(f"die {die} with colour registers {b[S.M_DIE_COLOUR0]}/{b[S.M_DIE_COLOUR]}")
        # the die as rolled, flipped with debris (opposite faces differ by 2) or, advanced rules, set to 3 or
        # given another colour by a 1x (a register -1 reads the last die, as a negative index does)
        face: cython.long = b[L.die_value + (die if die >= 0 else die + 18)]
        advanced: cython.bint = b[S.M_ADVANCED] != 0
        values = {face, 3} if advanced else {face}
        if b[S.M_DIE_FLIPPED]:
            values |= {(v + 2) % 4 for v in values}
        if b[S.M_DIE_VALUE] not in values:
            _fail(f"die {die} shows {face} but its register says {b[S.M_DIE_VALUE]}")
        if not advanced and b[S.M_DIE_COLOUR] != die // 6:
            _fail(f"die {die} has colour register {b[S.M_DIE_COLOUR]} without a 1x to change it")
        if b[S.M_DIE_FLIPPED] and b[S.M_DIE_BOUGHT]:
            _fail(f"die {die} was bought and flipped (only an own die is flipped)")
        action: cython.long = b[S.M_ACTION]
        if (ph == S.PH_A2_MODIFY or ph == S.PH_DIE_COLOUR or ph == S.PH_MISSION or ph == S.PH_PAY
                or ph == S.PH_OWNER):
            if action != -1:
                _fail(f"register action is {action} in phase {PHASE_NAMES[ph]}")
        elif action < 0:
            _fail(f"phase {PHASE_NAMES[ph]} with the die in use but no board action")
    if ph in _ACTION_PHASES and b[S.M_ACTION] < 0:
        _fail(f"phase {PHASE_NAMES[ph]} without a board action")
    if ph in _NO_DIE_PHASES or (in_tile and tile_ret == S.PH_A1_TILES):
        if b[S.M_ACTION] != -1 or mission != -1:
            _fail(f"registers action {b[S.M_ACTION]} and mission {mission} set in phase {PHASE_NAMES[ph]}")
    _check_action_progress(s, b, L, ph)
    if pending and not (ph == S.PH_A1_TILES or (in_tile and tile_ret == S.PH_A1_TILES)):
        _fail(f"A1 tiles pending ({pending}) in phase {PHASE_NAMES[ph]}")
    if ph == S.PH_MISSION or ph == S.PH_PAY or ph == S.PH_OWNER:
        if mission < 0 or b[L.mc_where + mission] != _MC_SPACE:
            _fail(f"phase {PHASE_NAMES[ph]} with Mission card {mission}, which is not in Space")
        if ph == S.PH_OWNER and b[L.mc_owner + mission] != owner:
            _fail(f"owner's activation of Mission card {mission} by seat {owner}, not its owner")
    # A1: the tiles to resolve and the tile in progress
    gr: cython.Py_ssize_t = L.grid + 9 * turn_player
    for i in range(9):
        if pending >> i & 1 and not 0 <= b[gr + i] < _ADV_TILE0:
            _fail(f"cell {i} of player_{turn_player} is to resolve but holds no activatable tile")
    if ph == S.PH_A1_TILES and not pending:
        _fail("A1 tiles to resolve with none pending")
    if in_tile and ph != S.PH_KEEP:
        cell: cython.long = b[S.M_TILE_CELL]
        _reg_in(b, S.M_TILE_RETURN, (S.PH_A1_TILES, S.PH_REPAIR), "A1 or Repair")
        t: cython.long = b[L.grid + 9 * actor + cell] if cell >= 0 else -1
        if not 0 <= t < _ADV_TILE0 or b[L.tile_boost + t]:
            _fail(f"tile effect in phase {PHASE_NAMES[ph]} without a standard-side tile (cell {cell})")
        comp = s.comp
        effects = comp.tile_options[t] if comp.tile_effect[t] == TE_OR else (comp.tile_effect[t],)
        want = _PHASE_EFFECTS.get(ph)
        if ph == S.PH_TILE_OPTION:
            ok = comp.tile_effect[t] == TE_OR
        else:
            ok = b[S.M_TILE_EFFECT] in effects and b[S.M_TILE_EFFECT] in want
        if not ok:
            _fail(f"phase {PHASE_NAMES[ph]} on tile {t} (effect register {b[S.M_TILE_EFFECT]})")
    if ph == S.PH_SHIP_SELECT or ph == S.PH_SHIP_MOVE:
        _reg_in(b, S.M_MOVE_RETURN, (S.PH_TILE_OPTION, S.PH_COMMAND_CARD), "a tile or Command")
        if b[S.M_MOVE_RETURN] == S.PH_TILE_OPTION:
            _reg_in(b, S.M_TILE_RETURN, (S.PH_A1_TILES, S.PH_REPAIR), "A1 or Repair")
    if ph == S.PH_SHIP_MOVE:
        h: cython.long = b[S.M_SHIP_HEX]
        if h < 0 or not (b[M_SHIP_LAUNCH] or b[L.hex_ship + 2 * h] == actor or b[L.hex_ship + 2 * h + 1] == actor):
            _fail(f"ship to move from hex {h}, where seat {actor} has no ship")
    elif b[M_SHIP_LAUNCH]:
        _fail(f"a launched ship in flight in phase {PHASE_NAMES[ph]}")
    if ph == S.PH_COMMAND_CARD and b[S.M_SHIP_HEX] < 0:
        _fail("Command without the ship's hex")
    if ph == S.PH_COMMAND_CARD or ((ph == S.PH_SHIP_SELECT or ph == S.PH_SHIP_MOVE)
                                   and b[S.M_MOVE_RETURN] == S.PH_COMMAND_CARD):
        v: cython.long = b[S.M_VALUE]
        if b[S.M_MOVE_RANGE] != v or b[S.M_MOVE_MIN] != (v >= 1):
            _fail(f"Command with value {v}, move range {b[S.M_MOVE_RANGE]}, minimum {b[S.M_MOVE_MIN]}")
    # cards and tiles being handled
    drawn = [b[L.drawn], b[L.drawn + 1]]
    if ph == S.PH_KEEP:
        _reg_in(b, S.M_KEEP_RETURN, (S.PH_TILE_DRAW, S.PH_HAND_LIMIT), "a tile's draw or A3")
        if any(x < 0 or b[L.mc_where + x] != _MC_DRAWN + actor for x in drawn) or drawn[0] == drawn[1]:
            _fail(f"choice of a drawn Mission card among {drawn}, not two cards drawn by seat {actor}")
        for i in range(_MAX_MISSIONS):
            if _MC_DRAWN <= b[L.mc_where + i] < _MC_DRAWN + 5 and i not in drawn:
                _fail(f"Mission card {i} is marked as drawn but is not among the drawn cards {drawn}")
    else:
        _reg_in(b, S.M_KEEP_RETURN, (-1,), "-1 outside the choice of a drawn card")
        ok = drawn == [-1, -1]
        for i in range(_MAX_MISSIONS):
            if _MC_DRAWN <= b[L.mc_where + i] < _MC_DRAWN + 5:
                ok = False
        if not ok:
            _fail(f"drawn Mission cards {drawn} outside the choice of a drawn card")
    if (ph == S.PH_INJECT) != (taken >= 0):
        _fail(f"register taken_tile is {taken} in phase {PHASE_NAMES[ph]}")
    if taken >= 0 and b[L.tile_where + taken] != _TL_TAKEN + turn_player:
        _fail(f"tile {taken} to inject is not taken by player_{turn_player}")
    if (ph == S.PH_ADVANCED_SPACE) != (ejected >= 0):
        _fail(f"register ejected_adv is {ejected} in phase {PHASE_NAMES[ph]}")
    if ejected >= 0:
        room: cython.bint = False
        for i in range(3):
            if b[L.adv_space + 3 * turn_player + i] < 0:
                room = True
        if ejected < _ADV_TILE0 or b[L.tile_where + ejected] != _TL_EJECTED + turn_player or not room:
            _fail(f"Advanced tile {ejected} to place is not ejected by player_{turn_player} with room for it")


# --- value ranges of the fields ------------------------------------------------------------------------------

# (field, lowest, highest): every entry of the field lies in the range (ids -1 = none)
_FIELD_RANGES = (
    ("vp", 0, 999), ("vp_src", -999, 999), ("res", 0, 99), ("debris", 0, 99), ("ships", 0, 99),
    ("robots_break", 0, 99), ("robots_supply", 0, 99), ("robots_ws", 0, 99), ("last_seq", 0, 2),
    ("hand_mc", 0, 20), ("hand_rav", 0, 30), ("grid", -1, N_TILES - 1), ("adv_space", -1, N_TILES - 1),
    ("rav_loc", -1, 29), ("die_reserved", 0, 1), ("die_damaged", 0, 1), ("display", -1, N_TILES - 1),
    ("adv_slots", -1, N_TILES - 1), ("mc_owner", -1, BOT), ("mc_hex", -1, 34), ("mc_deck", -1, 59),
    ("mc_deck_n", 0, 20), ("drawn", -1, 59), ("rav_deck", -1, 29), ("rav_robots", 0, 16),
    ("tile_boost", 0, 1), ("tile_debris", 0, 1), ("tech_stack", -1, ADV_TILE0 - 1), ("tech_stack_n", 0, 16),
    ("adv_deck", -1, N_TILES - 1), ("strip_id", -1, 6), ("strip_face", -1, 1), ("hex_terrain", 0, 4),
    ("hex_comet", 0, 1), ("hex_icons", 0, 9), ("hex_card", -1, 59), ("hex_ship", -1, 3),
    ("hal_deck", -1, N_HAL_CARDS - 1),
)


@cython.cfunc
def _any_set(b: cython.const[cython.short][::1], start: cython.Py_ssize_t, count: cython.Py_ssize_t) -> cython.bint:
    """Whether one of the ``count`` entries from ``start`` is not 0."""
    i: cython.Py_ssize_t
    for i in range(start, start + count):
        if b[i] != 0:
            return True
    return False


@cython.cfunc
def _any_placed(b: cython.const[cython.short][::1], start: cython.Py_ssize_t, count: cython.Py_ssize_t) -> cython.bint:
    """Whether one of the ``count`` entries from ``start`` is an id (not negative)."""
    i: cython.Py_ssize_t
    for i in range(start, start + count):
        if b[i] >= 0:
            return True
    return False


def _check_fields(s: State, b: cython.const[cython.short][::1], L: _Layout, n: cython.int, nh: cython.int) -> None:
    """Every field within its range; the seats not in the game hold nothing; as many different Space strips as
    the player count lays, and nothing beyond them."""
    i: cython.Py_ssize_t
    p: cython.Py_ssize_t
    k: cython.Py_ssize_t
    h: cython.Py_ssize_t
    code: cython.int
    ok: cython.bint
    out: cython.bint = False
    if cython.compiled:
        lo: cython.short[::1] = L.lo
        hi: cython.short[::1] = L.hi
        for i in range(L.size):
            if b[i] < lo[i] or b[i] > hi[i]:
                out = True
                break
    else:
        out = bool((s.buf < L.lo).any() or (s.buf > L.hi).any())
    if out:
        for name, lo_, hi_ in _FIELD_RANGES:          # the first field out of its range, in the table's order
            v = getattr(s, name)
            if v.size and (int(v.min()) < lo_ or int(v.max()) > hi_):
                bad = int(v.min()) if int(v.min()) < lo_ else int(v.max())
                _fail(f"field {name} holds {bad}, outside {lo_}..{hi_}")
    for p in range(5):
        if p < n or (p == _BOT and n <= 2):
            continue
        if (b[L.vp + p] or _any_set(b, L.vp_src + L.n_src * p, L.n_src) or b[L.res + p] or b[L.debris + p]
                or b[L.ships + p] or b[L.robots_break + p] or b[L.robots_supply + p]
                or _any_set(b, L.robots_ws + 3 * p, 3) or _any_set(b, L.hand_mc + 3 * p, 3) or b[L.hand_rav + p]):
            _fail(f"seat {p}, not in this {n}-player game, holds goods, robots, VP or cards")
        for i in range(_MAX_RAVAGERS):
            if b[L.rav_robots + 5 * i + p]:
                _fail(f"seat {p}, not in this {n}-player game, has robots on Ravager cards")
        if p < 4 and (_any_placed(b, L.grid + 9 * p, 9) or _any_placed(b, L.slots + 6 * p, 6)
                      or _any_placed(b, L.adv_space + 3 * p, 3)):
            _fail(f"seat {p}, not in this {n}-player game, has tiles or cards in play")
    for p in range(4):
        for k in range(6):
            code = b[L.slots + 6 * p + k]
            if code == -1:
                continue
            if 0 <= code < 60:
                ok = b[L.mc_where + code] == _MC_SLOT + p
            elif _RAVAGER_SLOT <= code < _RAVAGER_SLOT + 30:
                ok = b[L.rav_where + code - _RAVAGER_SLOT] == _RV_SLOT + p
            else:
                ok = False
            if not ok:
                _fail(f"slot {k} of seat {p} holds code {code}, not a card played there")
    n_strips: cython.Py_ssize_t = nh // 5
    strips: cython.long = 0                     # a bit per strip id seen (ids -1..6)
    ok = n_strips <= L.n_strip_slots
    for i in range(min(n_strips, L.n_strip_slots)):
        code = b[L.strip_id + i]
        if code < 0 or b[L.strip_face + i] < 0 or strips >> (code + 1) & 1:
            ok = False
        else:
            strips |= 1 << (code + 1)
    for i in range(n_strips, L.n_strip_slots):
        if b[L.strip_id + i] != -1 or b[L.strip_face + i] != -1:
            ok = False
    if not ok:
        ids = [b[L.strip_id + i] for i in range(min(n_strips, L.n_strip_slots))]
        faces = [b[L.strip_face + i] for i in range(min(n_strips, L.n_strip_slots))]
        _fail(f"Space strips {ids} with faces {faces} (expected {n_strips} different strips)")
    spes: cython.long = b[S.M_SPES_POS]
    ht: cython.Py_ssize_t = L.hex_terrain
    count: cython.int = 0
    first: cython.long = -1
    for h in range(35):
        if b[ht + h] == _T_SPES:
            count += 1
            if first < 0:
                first = h
    if not ((count == 1 and spes >= 0 and first == spes * 5 + 2) or (count == 0 and spes < 0)):
        at = [h for h in range(35) if b[ht + h] == _T_SPES]
        _fail(f"Spes on hexes {at} while its register puts it on strip {spes}")
    if spes >= 0 and (b[L.hex_comet + spes * 5 + 2] or b[L.hex_icons + spes * 5 + 2]):
        _fail("the Spes hex shows a comet or Ravager icons")
    for h in range(nh, 35):
        if (b[ht + h] != _T_ASTEROID or b[L.hex_comet + h] or b[L.hex_icons + h] or b[L.hex_card + h] >= 0):
            _fail("hexes beyond the strips in play are not empty asteroids")


_PHASE_EFFECTS = {
    S.PH_TILE_ADJACENT: (TE_ACT_VERTICAL, TE_ACT_HORIZONTAL), S.PH_TILE_DRAW: (TE_DRAW_MISSION,),
    S.PH_TILE_ROBOT: (TE_MOVE_ROBOT,), S.PH_SHIP_SELECT: (TE_MOVE_SHIP,), S.PH_SHIP_MOVE: (TE_MOVE_SHIP,),
}


def _check_action_progress(s: State, b: cython.const[cython.short][::1], L: _Layout, ph: cython.long) -> None:
    """An action in progress has done no more than its value allows, and its first step has a choice (a
    Discover, Destroy or Repair that has done nothing yet can do something; an activation has one to go)."""
    i: cython.Py_ssize_t
    value: cython.long = b[S.M_VALUE]
    done: cython.long = b[S.M_DONE]
    ok: cython.bint
    comp = s.comp
    if ph == S.PH_DISCOVER:
        if done > value:
            _fail(f"Discover has spent {done} of a value {value}")
        rem: cython.long = value - done
        if not done:
            ok = rem >= comp.advanced_cost and _any_placed(b, L.adv_slots, L.n_adv_slots)
            for i in range(L.display_len):
                if b[L.display + i] >= 0 and comp.display_costs[i] <= rem:
                    ok = True
            if not ok:
                _fail(f"Discover with value {value} and no tile it can take")
    elif ph == S.PH_DESTROY:
        if done > value:
            _fail(f"Destroy has destroyed {done} of a value {value}")
        if not done:
            ok = False
            for i in range(6):
                if 1 <= b[L.rav_count + i] <= value:
                    ok = True
            if not ok:
                _fail(f"Destroy with value {value} and no location it can clear")
    elif ph == S.PH_REPAIR:
        if not done:
            ok = _any_set(b, L.dmg, 6)
            for i in range(18):
                if b[L.die_damaged + i] and b[L.die_owner + i] == _DIE_SUPPLY:
                    ok = True
            if not ok:
                _fail("Repair with nothing to repair")
    elif ph == S.PH_MISSION:
        if not done < value:
            _fail(f"Mission card activation {done + 1} of a value {value}")
