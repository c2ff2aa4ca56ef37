"""Conservation laws and consistency checks that hold after every action.

``check_invariants(state)`` raises ``InvariantError`` naming the first broken law.  It is used by the random
-play tests after every decision and by ``State.load`` to refuse inconsistent saved states:

* 16 robots per player (supply, break room, workstations, Mission rewards, Ravager cards, ship pilots);
* every die of the game present (6, 5 or 4 per colour), damaged only in the supply, reserved only when owned;
* 60 Mission cards, 30 Ravager cards and 76 tiles each in exactly one consistent place;
* at most 2 ships per hex, of different players; 0-2 Damage cubes per action; 0-3 Ravagers per location;
* VP never negative and equal to the sum of the VP-by-source columns.
"""

from __future__ import annotations

import numpy as np

from .constants import ADV_TILE0, N_TILES, START_TILE0
from .state import (
    BOT, DIE_ABSENT, DIE_IN_USE, DIE_SUPPLY, M_ACTOR, M_ADV_DECK_N, M_DIE, M_N_PLAYERS, M_N_STRIPS, M_PHASE,
    M_RAV_DECK_N, M_SHIP_LAUNCH, M_TAKEN_TILE, MC_DECK, MC_DISCARD, MC_DRAWN, MC_HAND, MC_SLOT, MC_SPACE,
    MC_TUCKED, PHASE_NAMES, RAVAGER_SLOT, RV_BOARD, RV_BOX, RV_DECK, RV_DISCARD, RV_HAND, RV_SLOT, TL_ADV_DECK,
    TL_ADV_SLOT, TL_ADV_SPACE, TL_BOX, TL_DISCARD, TL_DISPLAY, TL_EJECTED, TL_GRID, TL_STACK, TL_TAKEN, State,
)


class InvariantError(AssertionError):
    """A conservation law or consistency rule of the game state is broken."""


def _fail(msg: str) -> None:
    raise InvariantError(msg)


def check_invariants(s: State) -> None:
    comp = s.comp
    m = s.m
    n = int(m[M_N_PLAYERS])
    if not 1 <= n <= 4:
        _fail(f"player count {n} out of range")
    if not 0 <= int(m[M_PHASE]) < len(PHASE_NAMES):
        _fail(f"phase {int(m[M_PHASE])} out of range")
    n_strips = int(m[M_N_STRIPS])
    if n_strips != comp.strips_used[n]:
        _fail(f"{n_strips} strips for {n} players (expected {comp.strips_used[n]})")
    nh = n_strips * 5

    # --- ships -------------------------------------------------------------------------------------------
    ships_on_board = [0] * 5
    for h in range(35):
        a, b = int(s.hex_ship[h, 0]), int(s.hex_ship[h, 1])
        if h >= nh and (a >= 0 or b >= 0):
            _fail(f"ship on hex {h} beyond the {n_strips} strips")
        if a < 0 and b >= 0:
            _fail(f"hex {h}: second ship slot used with the first empty")
        if a >= 0 and a == b:
            _fail(f"hex {h}: two ships of seat {a}")
        for q in (a, b):
            if q >= 0:
                if q >= n:
                    _fail(f"hex {h}: ship of absent seat {q}")
                ships_on_board[q] += 1
    transit = [0] * 5
    if m[M_SHIP_LAUNCH]:
        transit[int(m[M_ACTOR])] = 1     # a launched ship still moving (its pilot aboard)

    # --- robots --------------------------------------------------------------------------------------------
    owned_cards = [0] * 5
    space = np.flatnonzero(s.mc_where == MC_SPACE).tolist()
    for card in space:
        o = int(s.mc_owner[card])
        if not (0 <= o < n or (o == BOT and n == 1)):
            _fail(f"Mission card {card} in Space has bad owner {o}")
        owned_cards[o] += 1
    for p in range(n):
        total = (int(s.robots_supply[p]) + int(s.robots_break[p]) + int(s.robots_ws[p].sum()) + owned_cards[p]
                 + int(s.rav_robots[:, p].sum()) + ships_on_board[p] + transit[p])
        if total != comp.robots_per_player:
            _fail(f"player_{p} has {total} robots in play (expected {comp.robots_per_player}): supply "
                  f"{int(s.robots_supply[p])}, break room {int(s.robots_break[p])}, workstations "
                  f"{s.robots_ws[p].tolist()}, on cards {owned_cards[p]}, on Ravagers "
                  f"{int(s.rav_robots[:, p].sum())}, pilots {ships_on_board[p] + transit[p]}")
        for name in ("robots_supply", "robots_break", "res", "debris", "ships"):
            if getattr(s, name)[p] < 0:
                _fail(f"player_{p} has negative {name}")

    # --- dice ------------------------------------------------------------------------------------------------
    per = comp.dice_per_colour[n]
    for c in range(3):
        present = sum(1 for d in range(6 * c, 6 * c + 6) if s.die_owner[d] != DIE_ABSENT)
        if present != per:
            _fail(f"{present} {c}-coloured dice in play (expected {per})")
    in_use = 0
    for d in range(18):
        o = int(s.die_owner[d])
        if o == DIE_IN_USE:
            in_use += 1
            if int(m[M_DIE]) != d:
                _fail(f"die {d} in use but the register says {int(m[M_DIE])}")
        elif not (o in (DIE_SUPPLY, DIE_ABSENT) or 0 <= o < n or (o == BOT and n <= 2)):
            _fail(f"die {d} has bad owner {o}")
        if s.die_damaged[d] and o != DIE_SUPPLY:
            _fail(f"die {d} is damaged outside the supply")
        if s.die_reserved[d] and not (0 <= o < 5):
            _fail(f"die {d} is reserved but not in a compartment")
        if not 0 <= s.die_value[d] <= 3:
            _fail(f"die {d} shows {int(s.die_value[d])}")
    if in_use > 1:
        _fail(f"{in_use} dice in use")

    # --- board -----------------------------------------------------------------------------------------------
    for a in range(6):
        if not 0 <= s.dmg[a] <= comp.max_action_damage:
            _fail(f"action {a + 1} has {int(s.dmg[a])} Damage cubes")
        k = int(s.rav_count[a])
        if not 0 <= k <= comp.ravager_capacity:
            _fail(f"location {a + 1} holds {k} Ravager cards")
        for i in range(3):
            r = int(s.rav_loc[a, i])
            if (i < k) != (r >= 0):
                _fail(f"location {a + 1} stack is inconsistent with its count {k}")
            if r >= 0 and (s.rav_where[r] != RV_BOARD + a or comp.ravager_action[r] != a):
                _fail(f"Ravager {r + 61} at location {a + 1} is misplaced")

    # --- Ravager cards ---------------------------------------------------------------------------------------
    deck_n = int(m[M_RAV_DECK_N])
    deck = s.rav_deck[:deck_n].tolist()
    if sorted(deck) != np.flatnonzero(s.rav_where == RV_DECK).tolist():
        _fail("the Ravager deck and the cards marked as in the deck differ")
    if np.any(s.rav_deck[deck_n:] >= 0):
        _fail("Ravager deck has cards beyond its count")
    removed = int(np.count_nonzero(s.rav_where == RV_BOX))
    if removed != comp.ravagers_removed[n]:
        _fail(f"{removed} Ravager cards set aside (expected {comp.ravagers_removed[n]})")
    for p in range(5):
        k = int(np.count_nonzero(s.rav_where == RV_HAND + p))
        if k != s.hand_rav[p]:
            _fail(f"seat {p} holds {k} Ravager cards but its count says {int(s.hand_rav[p])}")
    for r in range(30):
        w = int(s.rav_where[r])
        if not (w in (RV_DECK, RV_DISCARD, RV_BOX) or RV_HAND <= w < RV_HAND + n
                or RV_SLOT <= w < RV_SLOT + n or RV_BOARD <= w < RV_BOARD + 6):
            _fail(f"Ravager {r + 61} has bad location {w}")
        if RV_SLOT <= w < RV_SLOT + n and RAVAGER_SLOT + r not in s.slots[w - RV_SLOT].tolist():
            _fail(f"Ravager {r + 61} marked as played but not in a slot")
        if s.rav_robots[r].sum() and not RV_BOARD <= w < RV_BOARD + 6:
            _fail(f"robots on Ravager {r + 61}, which is not on the board")

    # --- Mission cards ---------------------------------------------------------------------------------------
    for c in range(3):
        dn = int(s.mc_deck_n[c])
        deck = s.mc_deck[c, :dn].tolist()
        marked = [i for i in range(20 * c, 20 * c + 20) if s.mc_where[i] == MC_DECK]
        if sorted(deck) != marked:
            _fail(f"colour {c} Mission deck and the cards marked as in it differ")
    for p in range(5):
        for c in range(3):
            k = int(np.count_nonzero(s.mc_where[20 * c:20 * c + 20] == MC_HAND + p))
            if k != s.hand_mc[p, c]:
                _fail(f"seat {p} holds {k} colour-{c} Mission cards but its count says {int(s.hand_mc[p, c])}")
    for card in range(60):
        w = int(s.mc_where[card])
        ok = (w in (MC_DECK, MC_DISCARD, MC_SPACE) or MC_HAND <= w < MC_HAND + n or MC_SLOT <= w < MC_SLOT + n
              or MC_TUCKED <= w < MC_TUCKED + n or MC_DRAWN <= w < MC_DRAWN + n)
        if not ok:
            _fail(f"Mission card {card} has bad location {w}")
        if w == MC_SPACE:
            h = int(s.mc_hex[card])
            if not 0 <= h < nh or s.hex_card[h] != card:
                _fail(f"Mission card {card} in Space is not on its hex")
            if s.hex_terrain[h] != comp.mission_colour[card]:
                _fail(f"Mission card {card} lies on a hex of another colour")
        if MC_SLOT <= w < MC_SLOT + n and card not in s.slots[w - MC_SLOT].tolist():
            _fail(f"Mission card {card} marked as played but not in a slot")
    for h in range(nh):
        card = int(s.hex_card[h])
        if card >= 0 and (s.mc_where[card] != MC_SPACE or s.mc_hex[card] != h):
            _fail(f"hex {h} shows Mission card {card}, which is elsewhere")

    # --- tiles -------------------------------------------------------------------------------------------
    seen = [0] * N_TILES
    for p in range(4):
        for cell in range(9):
            t = int(s.grid[p, cell])
            if t >= 0:
                seen[t] += 1
                if s.tile_where[t] != TL_GRID + p:
                    _fail(f"tile {t} in player_{p}'s grid is marked elsewhere")
        for k in range(3):
            t = int(s.adv_space[p, k])
            if t >= 0:
                seen[t] += 1
                if s.tile_where[t] != TL_ADV_SPACE + p or t < ADV_TILE0:
                    _fail(f"tile {t} on player_{p}'s Advanced space is inconsistent")
    for t in s.display.tolist():
        if t >= 0:
            seen[t] += 1
            if s.tile_where[t] != TL_DISPLAY:
                _fail(f"display tile {t} is marked elsewhere")
    for t in s.adv_slots.tolist():
        if t >= 0:
            seen[t] += 1
            if s.tile_where[t] != TL_ADV_SLOT:
                _fail(f"Advanced slot tile {t} is marked elsewhere")
    for c in range(3):
        k = int(s.tech_stack_n[c])
        for t in s.tech_stack[c, :k].tolist():
            seen[t] += 1
            if s.tile_where[t] != TL_STACK:
                _fail(f"stack tile {t} is marked elsewhere")
    ad = int(m[M_ADV_DECK_N])
    for t in s.adv_deck[:ad].tolist():
        seen[t] += 1
        if s.tile_where[t] != TL_ADV_DECK:
            _fail(f"Advanced deck tile {t} is marked elsewhere")
    for t in range(N_TILES):
        w = int(s.tile_where[t])
        if w in (TL_DISCARD, TL_BOX) or TL_EJECTED <= w < TL_EJECTED + n or TL_TAKEN <= w < TL_TAKEN + n:
            seen[t] += 1
        if seen[t] != 1:
            _fail(f"tile {t} is in {seen[t]} places (location code {w})")
        if START_TILE0 <= t < ADV_TILE0:
            owner = (t - START_TILE0) // 3
            if w not in (TL_BOX, TL_DISCARD) and w % 10 != owner:
                _fail(f"Starting tile {t} is with another player")
        if TL_TAKEN <= w < TL_TAKEN + n and int(m[M_TAKEN_TILE]) != t:
            _fail(f"tile {t} is taken but not the tile being injected")
        if s.tile_debris[t] and not TL_GRID <= w < TL_GRID + n:
            _fail(f"debris on tile {t}, which is not in a grid")

    # --- VP ----------------------------------------------------------------------------------------------
    for p in list(range(n)) + ([BOT] if n == 1 else []):
        if s.vp[p] < 0:
            _fail(f"seat {p} has negative VP")
        if int(s.vp_src[p].sum()) != int(s.vp[p]):
            _fail(f"seat {p}: VP {int(s.vp[p])} differs from the sum of its sources {int(s.vp_src[p].sum())}")

