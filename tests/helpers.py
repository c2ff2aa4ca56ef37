"""Position-building helpers for the rules tests.

Every helper edits the state arrays directly and keeps them consistent (so ``check_invariants`` passes on
the result). Build a position, call ``checked(s)``, set the decision with ``start_a2`` / ``start_turn``,
then drive the engine with ``engine.apply``.

Conventions: hexes are ``strip position * 5 + column`` (column 2 = apex); actions 0..5 are the printed 1..6;
colours 0/1/2 = orange/gray/green; Ravager ids 0..29 are the printed 61..90; Mission ids 0..59.

Only ADD helpers here; never change or remove helpers written by someone else.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

try:
    import blackangel_env  # noqa: F401
except ImportError:  # running from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.board import black_angel_hex
from blackangel_env.invariants import check_invariants
from blackangel_env.state import (
    DIE_SUPPLY, M_ACTOR, M_N_STRIPS, M_PHASE, M_RAV_DECK_N, M_TURN_PLAYER, MC_DECK, MC_DISCARD, MC_HAND,
    MC_SLOT, MC_SPACE, MC_TUCKED, PH_A2_DIE, PH_TURN, RAVAGER_SLOT, RV_BOARD, RV_DECK, RV_DISCARD, RV_HAND,
    RV_SLOT, State,
)


# --- game creation ------------------------------------------------------------------------------------------

def game(n: int = 3, seed: int = 0, advanced: bool = False, log: bool = True) -> State:
    """A new game with the setup reservations (player aids) declined: phase TURN, player 0 to act."""
    s = engine.new_game(num_players=n, seed=seed, advanced=advanced, log=log)
    while s.phase != PH_TURN:
        engine.apply(s, A.DONE)
    return s


def checked(s: State) -> State:
    """Assert the constructed position is consistent, and return it."""
    check_invariants(s)
    return s


def start_turn(s: State, p: int) -> None:
    """Make it player p's turn, at the choice between Sequence A and B."""
    s.m[M_TURN_PLAYER] = p
    s.m[M_ACTOR] = p
    s.m[M_PHASE] = PH_TURN


def start_a2(s: State, p: int) -> None:
    """Jump to A2 (choose a die) for player p (A1 skipped)."""
    s.m[M_TURN_PLAYER] = p
    s.m[M_ACTOR] = p
    s.m[M_PHASE] = PH_A2_DIE


def legal_names(s: State) -> list[str]:
    return [A.action_to_string(a) for a in engine.legal_actions(s)]


# --- dice -----------------------------------------------------------------------------------------------

def clear_dice(s: State, p: int | None = None) -> None:
    """Return the dice of seat p (every seat if None) to the supply, unreserved, value 0."""
    for d in range(18):
        o = int(s.die_owner[d])
        if o >= 0 and (p is None or o == p):
            s.die_owner[d] = DIE_SUPPLY
            s.die_reserved[d] = 0
            s.die_value[d] = 0


def give_die(s: State, p: int, colour: int, value: int, reserved: bool = False) -> int:
    """Give seat p an undamaged die of ``colour`` from the supply showing ``value``; returns its id."""
    for d in range(6 * colour, 6 * colour + 6):
        if s.die_owner[d] == DIE_SUPPLY and not s.die_damaged[d]:
            s.die_owner[d] = p
            s.die_value[d] = value
            s.die_reserved[d] = int(reserved)
            return d
    raise AssertionError(f"no undamaged {colour} die in the supply")


def supply_dice(s: State, colour: int) -> list[int]:
    return [d for d in range(6 * colour, 6 * colour + 6) if s.die_owner[d] == DIE_SUPPLY]


# --- Ravager cards -----------------------------------------------------------------------------------------

def _detach_ravager(s: State, r: int) -> None:
    w = int(s.rav_where[r])
    if w == RV_DECK:
        n = int(s.m[M_RAV_DECK_N])
        deck = [int(x) for x in s.rav_deck[:n] if x != r]
        s.rav_deck[:] = -1
        s.rav_deck[:len(deck)] = deck
        s.m[M_RAV_DECK_N] = len(deck)
    elif RV_HAND <= w < RV_HAND + 5:
        s.hand_rav[w - RV_HAND] -= 1
    elif RV_SLOT <= w < RV_SLOT + 5:
        p = w - RV_SLOT
        for k in range(6):
            if s.slots[p, k] == RAVAGER_SLOT + r:
                s.slots[p, k] = -1
    elif RV_BOARD <= w < RV_BOARD + 6:
        a = w - RV_BOARD
        stack = [int(x) for x in s.rav_loc[a, :int(s.rav_count[a])] if x != r]
        s.rav_loc[a, :] = -1
        s.rav_loc[a, :len(stack)] = stack
        s.rav_count[a] = len(stack)
        for seat in range(5):                 # robots on the card go back to their break rooms
            s.robots_break[seat] += s.rav_robots[r, seat]
            s.rav_robots[r, seat] = 0
    s.rav_where[r] = -1


def ravager_to_discard(s: State, r: int) -> None:
    _detach_ravager(s, r)
    s.rav_where[r] = RV_DISCARD


def ravager_to_hand(s: State, p: int, r: int) -> None:
    _detach_ravager(s, r)
    s.rav_where[r] = RV_HAND + p
    s.hand_rav[p] += 1


def ravager_on_board(s: State, r: int) -> None:
    """Put Ravager r on top of the location it targets (no damage is added)."""
    _detach_ravager(s, r)
    a = s.comp.ravager_action[r]
    k = int(s.rav_count[a])
    assert k < 3, f"location {a + 1} is full"
    s.rav_loc[a, k] = r
    s.rav_count[a] = k + 1
    s.rav_where[r] = RV_BOARD + a


def set_ravager_deck(s: State, top_first: list[int]) -> None:
    """Make the Ravager deck exactly ``top_first`` (first element drawn first); other deck cards go to the
    discard."""
    for r in range(30):
        if s.rav_where[r] == RV_DECK:
            ravager_to_discard(s, r)
    for r in top_first:
        _detach_ravager(s, r)
    deck = list(reversed(top_first))
    s.rav_deck[:] = -1
    s.rav_deck[:len(deck)] = deck
    s.m[M_RAV_DECK_N] = len(deck)
    for r in deck:
        s.rav_where[r] = RV_DECK


def clear_ravagers(s: State) -> None:
    """No Ravager on the board and no Damage cube on actions or dice."""
    for r in range(30):
        if RV_BOARD <= s.rav_where[r] < RV_BOARD + 6:
            ravager_to_discard(s, r)
    s.dmg[:] = 0
    s.die_damaged[:] = 0


def ravager_card(s: State, action: int, effect: int | None = None, exclude=()) -> int:
    """A Ravager card (id) targeting ``action`` (0..5), with the given effect if any, not on the board and
    not in ``exclude``; one in the box is never returned."""
    for r in range(30):
        if r in exclude or s.rav_where[r] == 2 or RV_BOARD <= s.rav_where[r] < RV_BOARD + 6:
            continue
        if s.comp.ravager_action[r] == action and (effect is None or s.comp.ravager_effect[r] == effect):
            return r
    raise AssertionError(f"no free Ravager card for action {action + 1}")


# --- Mission cards ---------------------------------------------------------------------------------------

def _detach_mission(s: State, card: int) -> None:
    w = int(s.mc_where[card])
    c = card // 20
    if w == MC_DECK:
        n = int(s.mc_deck_n[c])
        deck = [int(x) for x in s.mc_deck[c, :n] if x != card]
        s.mc_deck[c, :] = -1
        s.mc_deck[c, :len(deck)] = deck
        s.mc_deck_n[c] = len(deck)
    elif MC_HAND <= w < MC_HAND + 5:
        s.hand_mc[w - MC_HAND, c] -= 1
    elif MC_SLOT <= w < MC_SLOT + 5:
        p = w - MC_SLOT
        for k in range(6):
            if s.slots[p, k] == card:
                s.slots[p, k] = -1
    elif w == MC_SPACE:
        h = int(s.mc_hex[card])
        s.hex_card[h] = -1
        o = int(s.mc_owner[card])
        s.robots_break[o] += 1                # the owner's robot leaves the reward
    s.mc_where[card] = -1
    s.mc_owner[card] = -1
    s.mc_hex[card] = -1


def mission_to_hand(s: State, p: int, card: int) -> None:
    _detach_mission(s, card)
    s.mc_where[card] = MC_HAND + p
    s.hand_mc[p, card // 20] += 1


def mission_to_discard(s: State, card: int) -> None:
    _detach_mission(s, card)
    s.mc_where[card] = MC_DISCARD


def mission_to_tucked(s: State, p: int, card: int) -> None:
    """An already-ejected card tucked under p's board (owner p)."""
    _detach_mission(s, card)
    s.mc_where[card] = MC_TUCKED + p
    s.mc_owner[card] = p


def mission_on_deck_top(s: State, card: int) -> None:
    _detach_mission(s, card)
    c = card // 20
    n = int(s.mc_deck_n[c])
    s.mc_deck[c, n] = card
    s.mc_deck_n[c] = n + 1
    s.mc_where[card] = MC_DECK


def clear_hand(s: State, p: int) -> None:
    """Discard every Mission card in p's hand (Ravager cards stay)."""
    for card in range(60):
        if s.mc_where[card] == MC_HAND + p:
            mission_to_discard(s, card)


def mission_to_space(s: State, card: int, owner: int, h: int) -> None:
    """Card in Space on hex h (its terrain is set to the card's colour), owned by ``owner`` whose robot
    comes from the break room."""
    _detach_mission(s, card)
    assert s.hex_card[h] < 0, f"hex {h} already holds a card"
    s.hex_terrain[h] = card // 20
    s.hex_card[h] = card
    s.mc_where[card] = MC_SPACE
    s.mc_owner[card] = owner
    s.mc_hex[card] = h
    assert s.robots_break[owner] > 0, "the owner has no robot in the break room"
    s.robots_break[owner] -= 1


# --- Space board --------------------------------------------------------------------------------------------

def ba_hex(s: State) -> int:
    return black_angel_hex(int(s.m[M_N_STRIPS]))


def set_hex(s: State, h: int, terrain: int, icons: int = 0) -> None:
    s.hex_terrain[h] = terrain
    s.hex_icons[h] = icons


def no_icons(s: State) -> None:
    """Remove every Ravager icon from the Space board."""
    s.hex_icons[:] = 0


def ship_to(s: State, p: int, h: int) -> None:
    """A ship of p on hex h, piloted by a robot from p's break room (or supply if the break room is empty)."""
    if s.hex_ship[h, 0] < 0:
        s.hex_ship[h, 0] = p
    else:
        assert s.hex_ship[h, 1] < 0 and s.hex_ship[h, 0] != p
        s.hex_ship[h, 1] = p
    if s.robots_break[p] > 0:
        s.robots_break[p] -= 1
    else:
        s.robots_supply[p] -= 1


def clear_ships(s: State) -> None:
    """Every ship on the board returns to the supply, its pilot to its owner's robot supply."""
    for h in range(35):
        for k in (1, 0):
            q = int(s.hex_ship[h, k])
            if q >= 0:
                s.hex_ship[h, k] = -1
                s.robots_supply[q] += 1


def empty_table(s: State) -> None:
    """No die, no Ravager on the board, no ship in Space, no Ravager icon on a hex and no Mission card in any
    hand: the bare table that a rule scenario then fills."""
    clear_dice(s)
    clear_ravagers(s)
    clear_ships(s)
    no_icons(s)
    for p in range(s.num_players):
        clear_hand(s, p)


def ships_at(s: State, h: int) -> list[int]:
    return [int(x) for x in s.hex_ship[h] if x >= 0]


# --- driving the engine -------------------------------------------------------------------------------------

def act(s: State, block: str, arg: int = 0) -> None:
    """Apply the action (block, arg); raises IllegalActionError if it is not legal."""
    engine.apply(s, A.encode(block, arg))


def is_legal(s: State, block: str, arg: int = 0) -> bool:
    return A.encode(block, arg) in engine.legal_actions(s)


def blocks_legal(s: State, block: str) -> list[int]:
    """Arguments of the legal actions of ``block``."""
    start = A.encode(block, 0)
    size = A.BLOCKS[A.BLOCK_OF[start]][1]
    return [a - start for a in engine.legal_actions(s) if start <= a < start + size]


def vp(s: State) -> list[int]:
    return [int(x) for x in s.vp[:int(s.m[0])]]


def np_list(x) -> list[int]:
    return [int(v) for v in np.asarray(x).ravel()]


# --- Space board --------------------------------------------------------------------------------------------


def place_ship(s: State, p: int, h: int) -> None:
    """Put a ship of p on hex h, piloted by a robot from p's supply (keeps the robot count)."""
    assert s.robots_supply[p] > 0
    s.robots_supply[p] -= 1
    if s.hex_ship[h, 0] < 0:
        s.hex_ship[h, 0] = p
    else:
        assert s.hex_ship[h, 1] < 0 and s.hex_ship[h, 0] != p
        s.hex_ship[h, 1] = p


# --- phases (rules tests: setup / turn / tiles / dice / discover / repair) -------------------------------------

def start_a1(s: State, p: int) -> None:
    """Player p has chosen Sequence A and is about to play a card around the board (A1)."""
    from blackangel_env.state import PH_A1_CARD
    start_turn(s, p)
    s.m[M_PHASE] = PH_A1_CARD


def hand_missions(s: State, p: int) -> list[int]:
    return [c for c in range(60) if s.mc_where[c] == MC_HAND + p]


def discard_hand_ravagers(s: State, p: int) -> None:
    for r in range(30):
        if s.rav_where[r] == RV_HAND + p:
            ravager_to_discard(s, r)


def damage_supply_die(s: State, colour: int) -> int:
    """Put a Damage cube on an undamaged supply die of ``colour``; returns its id."""
    for d in range(6 * colour, 6 * colour + 6):
        if s.die_owner[d] == DIE_SUPPLY and not s.die_damaged[d]:
            s.die_damaged[d] = 1
            return d
    raise AssertionError(f"no undamaged {colour} die in the supply")


# --- tiles (grid, display, Advanced slots) ---------------------------------------------------------------------

def cell(row: int, col: int) -> int:
    """Grid cell of (row, col), both 1-based, row 1 = bottom, column 1 = left (rules-notes C11)."""
    return (row - 1) * 3 + (col - 1)


def _detach_tile(s: State, t: int) -> None:
    from blackangel_env.state import (
        M_ADV_DECK_N, TL_ADV_DECK, TL_ADV_SLOT, TL_ADV_SPACE, TL_DISPLAY, TL_GRID, TL_STACK,
    )
    w = int(s.tile_where[t])
    if w == TL_STACK:
        c = t // 16
        n = int(s.tech_stack_n[c])
        st = [int(x) for x in s.tech_stack[c, :n] if x != t]
        s.tech_stack[c, :] = -1
        s.tech_stack[c, :len(st)] = st
        s.tech_stack_n[c] = len(st)
    elif w == TL_DISPLAY:
        s.display[s.display == t] = -1
    elif w == TL_ADV_DECK:
        n = int(s.m[M_ADV_DECK_N])
        dk = [int(x) for x in s.adv_deck[:n] if x != t]
        s.adv_deck[:] = -1
        s.adv_deck[:len(dk)] = dk
        s.m[M_ADV_DECK_N] = len(dk)
    elif w == TL_ADV_SLOT:
        s.adv_slots[s.adv_slots == t] = -1
    elif TL_GRID <= w < TL_GRID + 4:
        g = s.grid[w - TL_GRID]
        g[g == t] = -1
    elif TL_ADV_SPACE <= w < TL_ADV_SPACE + 4:
        sp = s.adv_space[w - TL_ADV_SPACE]
        sp[sp == t] = -1
    s.tile_debris[t] = 0


def tile_to_box(s: State, t: int) -> None:
    from blackangel_env.state import TL_BOX
    _detach_tile(s, t)
    s.tile_where[t] = TL_BOX
    s.tile_boost[t] = 0


def clear_grid(s: State, p: int) -> None:
    """Empty p's technology grid (its tiles go to the box)."""
    for t in [int(x) for x in s.grid[p] if x >= 0]:
        tile_to_box(s, t)


def put_tile(s: State, p: int, c: int, t: int, debris: bool = False) -> int:
    """Put tile t (from wherever it is) into p's grid cell c; the tile that was there goes to the box."""
    from blackangel_env.state import TL_GRID
    old = int(s.grid[p, c])
    if old >= 0 and old != t:
        tile_to_box(s, old)
    _detach_tile(s, t)
    s.grid[p, c] = t
    s.tile_where[t] = TL_GRID + p
    s.tile_debris[t] = int(debris)
    return t


def set_grid(s: State, p: int, cells: dict) -> None:
    """Empty p's grid, then place ``{cell: tile}``."""
    clear_grid(s, p)
    for c, t in cells.items():
        put_tile(s, p, c, t)


def tech_tile(s: State, colour: int, effect: int, skip=()) -> int:
    """A standard Technology tile id of this colour and standard-side effect, not in ``skip``."""
    for t in range(48):
        if s.comp.tile_colour[t] == colour and s.comp.tile_effect[t] == effect and t not in skip:
            return t
    raise AssertionError("no such tile")


def start_tile(p: int, kind: int) -> int:
    """Id of player p's Starting tile of kind 0 (ship), 1 (resource/debris) or 2 (robot)."""
    from blackangel_env.constants import START_TILE0
    return START_TILE0 + 3 * p + kind


def set_display(s: State, tiles: list) -> None:
    """Display space i (0-based, 0 = injection end) holds tiles[i] (-1 = empty); the tiles shown before go
    to the display discard."""
    from blackangel_env.state import TL_DISCARD, TL_DISPLAY
    for t in [int(x) for x in s.display if x >= 0]:
        _detach_tile(s, t)
        s.tile_where[t] = TL_DISCARD
    for i, t in enumerate(tiles):
        if t >= 0:
            _detach_tile(s, t)
            s.display[i] = t
            s.tile_where[t] = TL_DISPLAY


def set_adv_slots(s: State, tiles: list) -> None:
    """Advanced slot k holds tiles[k] (-1 = empty); the tiles there before go to the box."""
    from blackangel_env.state import TL_ADV_SLOT
    for t in [int(x) for x in s.adv_slots if x >= 0]:
        tile_to_box(s, t)
    for k, t in enumerate(tiles):
        if t >= 0:
            _detach_tile(s, t)
            s.adv_slots[k] = t
            s.tile_where[t] = TL_ADV_SLOT


def adv_deck_top(s: State) -> int:
    from blackangel_env.state import M_ADV_DECK_N
    n = int(s.m[M_ADV_DECK_N])
    return int(s.adv_deck[n - 1]) if n else -1


def bare_game(n: int = 3, seed: int = 0) -> State:
    """A new game (setup reservations declined) with no die in any compartment, no Ravager on the board, no
    Damage cube, no ship in Space and no Ravager icon: a quiet base for building a position."""
    s = game(n, seed)
    clear_dice(s)
    clear_ravagers(s)
    clear_ships(s)
    no_icons(s)
    return s


def alien_hex(s: State, colour: int, pos: int = 1, col: int = 0) -> int:
    """Hex (strip position ``pos``, column ``col`` 0..4) turned into an empty alien hex of ``colour``."""
    h = pos * 5 + col
    assert s.hex_card[h] < 0
    s.hex_terrain[h] = colour
    s.hex_icons[h] = 0
    return h


def put_adv_space(s: State, p: int, k: int, t: int) -> None:
    """Advanced tile t (from wherever it is) on p's Advanced space k (beside the tucked cards of colour k)."""
    from blackangel_env.state import TL_ADV_SPACE
    old = int(s.adv_space[p, k])
    if old >= 0 and old != t:
        tile_to_box(s, old)
    _detach_tile(s, t)
    s.adv_space[p, k] = t
    s.tile_where[t] = TL_ADV_SPACE + p


# --- solitaire (Hal) -------------------------------------------------------------------------------------------

def hal_card_on_top(s: State, card: int) -> None:
    """Make Hal's card ``card`` (0..11 = H01..H12) the next one he reveals (the top of his deck); the deck
    keeps its other cards in their order."""
    from blackangel_env.state import M_HAL_DECK_N
    n = int(s.m[M_HAL_DECK_N])
    deck = [int(x) for x in s.hal_deck[:n] if x != card]
    if len(deck) == n:                 # the card was not in the deck (already revealed): put it back
        n += 1
    s.hal_deck[:] = -1
    s.hal_deck[:n] = deck + [card]
    s.m[M_HAL_DECK_N] = n


def solo_bare(seed: int = 0, advanced: bool = False, difficulty: str = "standard") -> State:
    """A solo game against Hal (seat BOT) with no die in any compartment, no Ravager on the board, no Damage
    cube, no ship in Space and no Ravager icon; player 0 to act at the Sequence choice."""
    s = engine.new_game(num_players=1, seed=seed, advanced=advanced, hal_difficulty=difficulty, log=True)
    while s.phase != PH_TURN:
        engine.apply(s, A.DONE)
    clear_dice(s)
    clear_ravagers(s)
    clear_ships(s)
    no_icons(s)
    return s


def ravager_in_play(s: State, r: int, keep=()) -> int:
    """Make sure Ravager r is not among the cards set aside at setup (solo / 2-3 players): if it is in the box,
    a card from the deck or discard (not r and not in ``keep``) takes its place there.  Returns r, now in the
    discard (or wherever it was if it was already in play)."""
    from blackangel_env.state import RV_BOX
    if s.rav_where[r] != RV_BOX:
        return r
    for w in (RV_DECK, RV_DISCARD):
        for q in range(30):
            if q != r and q not in keep and s.rav_where[q] == w:
                _detach_ravager(s, q)
                s.rav_where[q] = RV_BOX
                s.rav_where[r] = RV_DISCARD
                return r
    raise AssertionError("no Ravager card in the deck or discard to swap into the box")


def ravager_id(s: State, action: int, effect: int) -> int:
    """The Ravager card (0..29 = printed 61..90) targeting ``action`` (0..5) with ``effect`` (RAV_*), wherever
    it is (rules-notes A11, C4: one card per action and effect)."""
    for r in range(30):
        if s.comp.ravager_action[r] == action and s.comp.ravager_effect[r] == effect:
            return r
    raise AssertionError(f"no Ravager card for action {action + 1} with effect {effect}")


def random_positions(n: int, advanced: bool, seed: int, every: int = 1) -> list[State]:
    """Copies of the positions of one random game (every ``every``-th decision, and the final one)."""
    rng = np.random.default_rng(seed)
    s = engine.new_game(num_players=n, advanced=advanced, seed=seed)
    out = []
    k = 0
    while not s.terminal:
        if k % every == 0:
            out.append(s.copy())
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.random() * len(legal))])
        k += 1
    out.append(s)
    return out
