"""Conservation laws and consistency checks that hold after every action.

``check_invariants(state)`` raises ``InvariantError`` naming the first broken law.  It is used by the random
-play tests after every decision and by ``State.load`` to refuse inconsistent saved states:

* 16 robots per player (supply, break room, workstations, Mission rewards, Ravager cards, ship pilots);
* every die of the game present (6, 5 or 4 per colour), damaged only in the supply, reserved only when owned;
* 60 Mission cards, 30 Ravager cards and 76 tiles each in exactly one consistent place;
* at most 2 ships per hex, of different players; 0-2 Damage cubes per action; 0-3 Ravagers per location;
* VP never negative and equal to the sum of the VP-by-source columns;
* every scalar register (``State.m``) within its range, and the registers of the decision in progress
  consistent with the phase (the seat to act, the die in use, the card, tile or ship being handled).
"""

from __future__ import annotations

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


class InvariantError(AssertionError):
    """A conservation law or consistency rule of the game state is broken."""


def _fail(msg: str) -> None:
    raise InvariantError(msg)


def check_invariants(s: State) -> None:
    comp = s.comp
    m = s.m.tolist()                   # every field is read as Python ints: numpy scalar reads are slow
    n = m[M_N_PLAYERS]
    if not 1 <= n <= 4:
        _fail(f"player count {n} out of range")
    if not 0 <= m[M_PHASE] < len(PHASE_NAMES):
        _fail(f"phase {m[M_PHASE]} out of range")
    n_strips = m[M_N_STRIPS]
    if n_strips != comp.strips_used[n]:
        _fail(f"{n_strips} strips for {n} players (expected {comp.strips_used[n]})")
    nh = n_strips * 5
    _check_fields(s, n, nh)
    _check_registers(s, n, nh)

    # --- ships -------------------------------------------------------------------------------------------
    hex_ship = s.hex_ship.tolist()
    ships_on_board = [0] * 5
    for h in range(35):
        a, b = hex_ship[h]
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
        transit[m[M_ACTOR]] = 1          # a launched ship still moving (its pilot aboard)

    # --- robots --------------------------------------------------------------------------------------------
    mc_where = s.mc_where.tolist()
    mc_owner = s.mc_owner.tolist()
    rav_robots = s.rav_robots.tolist()
    robots_supply = s.robots_supply.tolist()
    robots_break = s.robots_break.tolist()
    robots_ws = s.robots_ws.tolist()
    owned_cards = [0] * 5
    for card, w in enumerate(mc_where):
        if w != MC_SPACE:
            continue
        o = mc_owner[card]
        if not (0 <= o < n or (o == BOT and n == 1)):
            _fail(f"Mission card {card} in Space has bad owner {o}")
        owned_cards[o] += 1
    goods = {name: getattr(s, name).tolist() for name in ("res", "debris", "ships")}
    for p in range(n):
        on_ravagers = sum(r[p] for r in rav_robots)
        total = (robots_supply[p] + robots_break[p] + sum(robots_ws[p]) + owned_cards[p] + on_ravagers
                 + ships_on_board[p] + transit[p])
        if total != comp.robots_per_player:
            _fail(f"player_{p} has {total} robots in play (expected {comp.robots_per_player}): supply "
                  f"{robots_supply[p]}, break room {robots_break[p]}, workstations "
                  f"{robots_ws[p]}, on cards {owned_cards[p]}, on Ravagers "
                  f"{on_ravagers}, pilots {ships_on_board[p] + transit[p]}")
        for name, v in (("robots_supply", robots_supply), ("robots_break", robots_break), ("res", goods["res"]),
                        ("debris", goods["debris"]), ("ships", goods["ships"])):
            if v[p] < 0:
                _fail(f"player_{p} has negative {name}")

    # --- dice ------------------------------------------------------------------------------------------------
    die_owner = s.die_owner.tolist()
    die_damaged = s.die_damaged.tolist()
    die_reserved = s.die_reserved.tolist()
    die_value = s.die_value.tolist()
    per = comp.dice_per_colour[n]
    for c in range(3):
        present = sum(1 for d in range(6 * c, 6 * c + 6) if die_owner[d] != DIE_ABSENT)
        if present != per:
            _fail(f"{present} {c}-coloured dice in play (expected {per})")
    in_use = 0
    for d in range(18):
        o = die_owner[d]
        if o == DIE_IN_USE:
            in_use += 1
            if m[M_DIE] != d:
                _fail(f"die {d} in use but the register says {m[M_DIE]}")
        elif not (o in (DIE_SUPPLY, DIE_ABSENT) or 0 <= o < n or (o == BOT and n <= 2)):
            _fail(f"die {d} has bad owner {o}")
        if die_damaged[d] and o != DIE_SUPPLY:
            _fail(f"die {d} is damaged outside the supply")
        if die_reserved[d] and not (0 <= o < 5):
            _fail(f"die {d} is reserved but not in a compartment")
        if not 0 <= die_value[d] <= 3:
            _fail(f"die {d} shows {die_value[d]}")
    if in_use > 1:
        _fail(f"{in_use} dice in use")

    # --- board -----------------------------------------------------------------------------------------------
    dmg = s.dmg.tolist()
    rav_count = s.rav_count.tolist()
    rav_loc = s.rav_loc.tolist()
    rav_where = s.rav_where.tolist()
    for a in range(6):
        if not 0 <= dmg[a] <= comp.max_action_damage:
            _fail(f"action {a + 1} has {dmg[a]} Damage cubes")
        k = rav_count[a]
        if not 0 <= k <= comp.ravager_capacity:
            _fail(f"location {a + 1} holds {k} Ravager cards")
        for i in range(3):
            r = rav_loc[a][i]
            if (i < k) != (r >= 0):
                _fail(f"location {a + 1} stack is inconsistent with its count {k}")
            if r >= 0 and (rav_where[r] != RV_BOARD + a or comp.ravager_action[r] != a):
                _fail(f"Ravager {r + 61} at location {a + 1} is misplaced")

    # --- Ravager cards ---------------------------------------------------------------------------------------
    deck_n = m[M_RAV_DECK_N]
    rav_deck = s.rav_deck.tolist()
    if sorted(rav_deck[:deck_n]) != [r for r, w in enumerate(rav_where) if w == RV_DECK]:
        _fail("the Ravager deck and the cards marked as in the deck differ")
    if any(r >= 0 for r in rav_deck[deck_n:]):
        _fail("Ravager deck has cards beyond its count")
    removed = rav_where.count(RV_BOX)
    if removed != comp.ravagers_removed[n]:
        _fail(f"{removed} Ravager cards set aside (expected {comp.ravagers_removed[n]})")
    hand_rav = s.hand_rav.tolist()
    for p in range(5):
        k = rav_where.count(RV_HAND + p)
        if k != hand_rav[p]:
            _fail(f"seat {p} holds {k} Ravager cards but its count says {hand_rav[p]}")
    slots = s.slots.tolist()
    for r in range(30):
        w = rav_where[r]
        if not (w in (RV_DECK, RV_DISCARD, RV_BOX) or RV_HAND <= w < RV_HAND + n
                or RV_SLOT <= w < RV_SLOT + n or RV_BOARD <= w < RV_BOARD + 6):
            _fail(f"Ravager {r + 61} has bad location {w}")
        if RV_SLOT <= w < RV_SLOT + n and RAVAGER_SLOT + r not in slots[w - RV_SLOT]:
            _fail(f"Ravager {r + 61} marked as played but not in a slot")
        if sum(rav_robots[r]) and not RV_BOARD <= w < RV_BOARD + 6:
            _fail(f"robots on Ravager {r + 61}, which is not on the board")

    # --- Mission cards ---------------------------------------------------------------------------------------
    mc_deck_n = s.mc_deck_n.tolist()
    mc_deck = s.mc_deck.tolist()
    for c in range(3):
        deck = mc_deck[c][:mc_deck_n[c]]
        marked = [i for i in range(20 * c, 20 * c + 20) if mc_where[i] == MC_DECK]
        if sorted(deck) != marked:
            _fail(f"colour {c} Mission deck and the cards marked as in it differ")
    hand_mc = s.hand_mc.tolist()
    for p in range(5):
        for c in range(3):
            k = mc_where[20 * c:20 * c + 20].count(MC_HAND + p)
            if k != hand_mc[p][c]:
                _fail(f"seat {p} holds {k} colour-{c} Mission cards but its count says {hand_mc[p][c]}")
    mc_hex = s.mc_hex.tolist()
    hex_card = s.hex_card.tolist()
    hex_terrain = s.hex_terrain.tolist()
    for card in range(60):
        w = mc_where[card]
        ok = (w in (MC_DECK, MC_DISCARD, MC_SPACE) or MC_HAND <= w < MC_HAND + n or MC_SLOT <= w < MC_SLOT + n
              or MC_TUCKED <= w < MC_TUCKED + n or MC_DRAWN <= w < MC_DRAWN + n)
        if not ok:
            _fail(f"Mission card {card} has bad location {w}")
        if w == MC_SPACE:
            h = mc_hex[card]
            if not 0 <= h < nh or hex_card[h] != card:
                _fail(f"Mission card {card} in Space is not on its hex")
            if hex_terrain[h] != comp.mission_colour[card]:
                _fail(f"Mission card {card} lies on a hex of another colour")
        if MC_SLOT <= w < MC_SLOT + n and card not in slots[w - MC_SLOT]:
            _fail(f"Mission card {card} marked as played but not in a slot")
    for h in range(nh):
        card = hex_card[h]
        if card >= 0 and (mc_where[card] != MC_SPACE or mc_hex[card] != h):
            _fail(f"hex {h} shows Mission card {card}, which is elsewhere")

    # --- tiles -------------------------------------------------------------------------------------------
    tile_where = s.tile_where.tolist()
    grid = s.grid.tolist()
    adv_space = s.adv_space.tolist()
    seen = [0] * N_TILES
    for p in range(4):
        for cell in range(9):
            t = grid[p][cell]
            if t >= 0:
                seen[t] += 1
                if tile_where[t] != TL_GRID + p:
                    _fail(f"tile {t} in player_{p}'s grid is marked elsewhere")
        for k in range(3):
            t = adv_space[p][k]
            if t >= 0:
                seen[t] += 1
                if tile_where[t] != TL_ADV_SPACE + p or t < ADV_TILE0:
                    _fail(f"tile {t} on player_{p}'s Advanced space is inconsistent")
    for t in s.display.tolist():
        if t >= 0:
            seen[t] += 1
            if tile_where[t] != TL_DISPLAY:
                _fail(f"display tile {t} is marked elsewhere")
    for t in s.adv_slots.tolist():
        if t >= 0:
            seen[t] += 1
            if tile_where[t] != TL_ADV_SLOT:
                _fail(f"Advanced slot tile {t} is marked elsewhere")
    tech_stack = s.tech_stack.tolist()
    tech_stack_n = s.tech_stack_n.tolist()
    for c in range(3):
        for t in tech_stack[c][:tech_stack_n[c]]:
            seen[t] += 1
            if tile_where[t] != TL_STACK:
                _fail(f"stack tile {t} is marked elsewhere")
    for t in s.adv_deck.tolist()[:m[M_ADV_DECK_N]]:
        seen[t] += 1
        if tile_where[t] != TL_ADV_DECK:
            _fail(f"Advanced deck tile {t} is marked elsewhere")
    tile_debris = s.tile_debris.tolist()
    for t in range(N_TILES):
        w = tile_where[t]
        if w in (TL_DISCARD, TL_BOX) or TL_EJECTED <= w < TL_EJECTED + n or TL_TAKEN <= w < TL_TAKEN + n:
            seen[t] += 1
        if seen[t] != 1:
            _fail(f"tile {t} is in {seen[t]} places (location code {w})")
        if START_TILE0 <= t < ADV_TILE0:
            owner = (t - START_TILE0) // 3
            if w not in (TL_BOX, TL_DISCARD) and w % 10 != owner:
                _fail(f"Starting tile {t} is with another player")
        if TL_TAKEN <= w < TL_TAKEN + n and m[M_TAKEN_TILE] != t:
            _fail(f"tile {t} is taken but not the tile being injected")
        if tile_debris[t] and not TL_GRID <= w < TL_GRID + n:
            _fail(f"debris on tile {t}, which is not in a grid")

    # --- VP ----------------------------------------------------------------------------------------------
    vp = s.vp.tolist()
    vp_src = s.vp_src.tolist()
    for p in list(range(n)) + ([BOT] if n == 1 else []):
        if vp[p] < 0:
            _fail(f"seat {p} has negative VP")
        if sum(vp_src[p]) != vp[p]:
            _fail(f"seat {p}: VP {vp[p]} differs from the sum of its sources {sum(vp_src[p])}")


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


def _reg_range(m, reg: int, lo: int, hi: int) -> int:
    v = int(m[reg])
    if not lo <= v <= hi:
        _fail(f"register {S.M_NAMES[reg]} is {v}, outside {lo}..{hi}")
    return v


def _reg_in(m, reg: int, allowed, what: str) -> int:
    v = int(m[reg])
    if v not in allowed:
        _fail(f"register {S.M_NAMES[reg]} is {v}, not {what}")
    return v


def _check_registers(s: State, n: int, nh: int) -> None:
    """Every scalar register within its range, and the decision registers consistent with the phase."""
    m = s.m.tolist()
    solo = n == 1
    ph = int(m[M_PHASE])
    for reg in (S.M_ADVANCED, S.M_SOLO, S.M_END_TRIGGERED, S.M_SPES_REACHED, S.M_GAME_OVER, S.M_DIE_BOUGHT,
                S.M_DIE_FLIPPED, S.M_TILE_ADJACENT, S.M_SHIP_LAUNCH, S.M_B_PAID):
        _reg_range(m, reg, 0, 1)
    if int(m[S.M_SOLO]) != int(solo):
        _fail(f"register solo is {int(m[S.M_SOLO])} in a {n}-player game")
    over = int(m[S.M_GAME_OVER])
    if bool(over) != (ph == S.PH_GAME_OVER):
        _fail(f"register game_over is {over} in phase {PHASE_NAMES[ph]}")
    actor = _reg_range(m, M_ACTOR, 0, n - 1)
    turn_player = _reg_range(m, S.M_TURN_PLAYER, 0, n - 1)
    rnd = _reg_range(m, S.M_ROUND, 1, 1000)
    _reg_range(m, S.M_TURNS, 0, 10000)          # far above any game, far below the 16-bit bound
    _reg_range(m, S.M_DECISIONS, 0, 30000)
    if m[S.M_END_TRIGGERED]:
        _reg_range(m, S.M_TRIGGER_ROUND, 0, rnd)       # 0: a position set in its final round 1
        if rnd > int(m[S.M_TRIGGER_ROUND]) + 1:
            _fail(f"round {rnd} is past the final round {int(m[S.M_TRIGGER_ROUND]) + 1}")
    else:
        _reg_in(m, S.M_TRIGGER_ROUND, (-1,), "-1 (the end of the game is not triggered)")
    n_strips = nh // 5
    if _reg_range(m, S.M_SPES_TOKEN_POS, -1, n_strips - 1) >= 0 and _reg_range(m, S.M_SPES_POS, -1, n_strips - 1) >= 0:
        _fail("the Spes token is still on its way while Spes is on the board")
    _reg_range(m, M_RAV_DECK_N, 0, len(s.rav_deck))
    _reg_range(m, M_ADV_DECK_N, 0, N_ADVANCED)
    if solo:
        _reg_range(m, S.M_HAL_DECK_N, 0, N_HAL_CARDS)
        _reg_range(m, S.M_HAL_CARD, -1, N_HAL_CARDS - 1)
    else:
        _reg_in(m, S.M_HAL_DECK_N, (0,), "0 (no Hal deck outside the solo game)")
        _reg_in(m, S.M_HAL_CARD, (-1,), "-1 (no Hal card outside the solo game)")
    hal = s.hal_deck.tolist()
    k = int(m[S.M_HAL_DECK_N])
    if sorted(hal[:k]) != sorted(set(hal[:k])) or any(not 0 <= c < N_HAL_CARDS for c in hal[:k]) \
            or any(c != -1 for c in hal[k:]):
        _fail("the Hal deck and its count disagree")
    # the decision in progress
    die = _reg_range(m, M_DIE, -1, 17)
    _reg_range(m, S.M_DIE_COLOUR0, -1, 2)
    _reg_range(m, S.M_DIE_COLOUR, -1, 2)
    _reg_range(m, S.M_DIE_VALUE, 0, 3)
    _reg_range(m, S.M_ACTION, -1, 5)
    mission = _reg_range(m, S.M_MISSION, -1, 59)
    _reg_range(m, S.M_VALUE, 0, 3)
    _reg_range(m, S.M_DONE, 0, 15)
    _reg_range(m, S.M_A1_SLOT, -1, 5)
    _reg_range(m, S.M_A1_COLOUR, -1, 2)
    pending = _reg_range(m, S.M_PENDING, 0, 511)
    _reg_range(m, S.M_TILE_CELL, -1, 8)
    _reg_range(m, S.M_TILE_EFFECT, -1, len(TILE_EFFECTS) - 1)
    for reg in (S.M_TILE_RETURN, S.M_MOVE_RETURN, S.M_PAY_RETURN, S.M_KEEP_RETURN):
        _reg_in(m, reg, _PHASE_OR_NONE, "-1 or a phase")
    _reg_in(m, S.M_HAND_LIMIT_RETURN, (-1,), "-1")
    _reg_range(m, S.M_SHIP_HEX, -1, nh - 1)
    _reg_range(m, S.M_MOVE_RANGE, 0, 3)
    _reg_range(m, S.M_MOVE_MIN, 0, 1)
    taken = _reg_range(m, M_TAKEN_TILE, -1, N_TILES - 1)
    ejected = _reg_range(m, S.M_EJECTED_ADV, -1, N_TILES - 1)
    _reg_range(m, S.M_PAY_TECH, 0, 9)
    _reg_range(m, S.M_PAY_MISSION, 0, 9)
    _reg_range(m, S.M_PAY_SEAT, -1, n - 1)
    _reg_in(m, S.M_KEEP_N, (0,), "0")
    _reg_range(m, S.M_B_FREE_COLOUR, -1, 2)
    owner = _reg_range(m, S.M_OWNER, -1, n - 1)
    _reg_range(m, S.M_BOOSTS_USED, 0, 9)
    setup_seat = _reg_range(m, S.M_SETUP_SEAT, -1, n - 1)

    if not m[S.M_ADVANCED]:
        if ph in (S.PH_DIE_COLOUR, S.PH_ACTION_BOOST, S.PH_KEEP):
            _fail(f"phase {PHASE_NAMES[ph]} of the advanced rules in a base game")
        if s.tile_boost.any():
            _fail("a tile on its boost side in a base game")
    # who acts
    if ph == S.PH_SETUP_RESERVE:
        if setup_seat < 0 or actor != setup_seat:
            _fail(f"setup reservation of seat {setup_seat} with seat {actor} to act")
    elif setup_seat != -1:
        _fail(f"register setup_seat is {setup_seat} outside the setup")
    owner_pays = ph == S.PH_PAY and int(m[S.M_PAY_RETURN]) == S.PH_OWNER
    if ph == S.PH_OWNER or owner_pays:
        if owner < 0 or owner == turn_player or actor != owner:
            _fail(f"owner's activation with owner {owner}, turn player {turn_player}, seat {actor} to act")
    elif owner != -1:
        _fail(f"register owner is {owner} outside the owner's activation")
    if ph == S.PH_PAY:
        if int(m[S.M_PAY_SEAT]) < 0 or actor != int(m[S.M_PAY_SEAT]):
            _fail(f"payment by seat {int(m[S.M_PAY_SEAT])} with seat {actor} to act")
        _reg_in(m, S.M_PAY_RETURN, (S.PH_MISSION, S.PH_OWNER), "the mission or the owner's activation")
        if not m[S.M_PAY_TECH] and not m[S.M_PAY_MISSION]:
            _fail("payment in progress with nothing left to pay")
    elif ph not in (S.PH_SETUP_RESERVE, S.PH_OWNER, S.PH_KEEP, S.PH_GAME_OVER) and actor != turn_player:
        _fail(f"seat {actor} to act in phase {PHASE_NAMES[ph]} of seat {turn_player}'s turn")
    # the die in use
    in_use = [d for d, o in enumerate(s.die_owner.tolist()) if o == DIE_IN_USE]
    if ph in _DIE_PHASES and (die < 0 or in_use != [die]):
        _fail(f"phase {PHASE_NAMES[ph]} without the die in use (register die {die})")
    if ph in _NO_DIE_PHASES and in_use:
        _fail(f"a die in use in phase {PHASE_NAMES[ph]}")
    tile_ret = int(m[S.M_TILE_RETURN])
    command = int(m[S.M_MOVE_RETURN]) == S.PH_COMMAND_CARD
    # a tile effect (or its ship move, or its Mission card draw) in A1 or in Repair
    in_tile = (ph in _TILE_EFFECT_PHASES or (ph in (S.PH_SHIP_SELECT, S.PH_SHIP_MOVE) and not command)
               or (ph == S.PH_KEEP and int(m[S.M_KEEP_RETURN]) == S.PH_TILE_DRAW))
    if in_tile and bool(in_use) != (tile_ret == S.PH_REPAIR):
        _fail(f"tile effect of {'Repair' if tile_ret == S.PH_REPAIR else 'A1'} with {len(in_use)} dice in use")
    if ph in (S.PH_SHIP_SELECT, S.PH_SHIP_MOVE) and command and not in_use:
        _fail("Command's ship without the die in use")
    if in_use:
        if int(m[S.M_DIE_COLOUR0]) != die // 6 or int(m[S.M_DIE_COLOUR]) < 0:
            _fail(f"die {die} with colour registers {int(m[S.M_DIE_COLOUR0])}/{int(m[S.M_DIE_COLOUR])}")
        # the die as rolled, flipped with debris (opposite faces differ by 2) or, advanced rules, set to 3 or
        # given another colour by a 1x
        face = s.die_value.item(die)
        advanced = bool(m[S.M_ADVANCED])
        values = {face, 3} if advanced else {face}
        if m[S.M_DIE_FLIPPED]:
            values |= {(v + 2) % 4 for v in values}
        if int(m[S.M_DIE_VALUE]) not in values:
            _fail(f"die {die} shows {face} but its register says {int(m[S.M_DIE_VALUE])}")
        if not advanced and int(m[S.M_DIE_COLOUR]) != die // 6:
            _fail(f"die {die} has colour register {int(m[S.M_DIE_COLOUR])} without a 1x to change it")
        if m[S.M_DIE_FLIPPED] and m[S.M_DIE_BOUGHT]:
            _fail(f"die {die} was bought and flipped (only an own die is flipped)")
        action = int(m[S.M_ACTION])
        if ph in (S.PH_A2_MODIFY, S.PH_DIE_COLOUR, S.PH_MISSION, S.PH_PAY, S.PH_OWNER):
            if action != -1:
                _fail(f"register action is {action} in phase {PHASE_NAMES[ph]}")
        elif action < 0:
            _fail(f"phase {PHASE_NAMES[ph]} with the die in use but no board action")
    if ph in _ACTION_PHASES and m[S.M_ACTION] < 0:
        _fail(f"phase {PHASE_NAMES[ph]} without a board action")
    if ph in _NO_DIE_PHASES or (in_tile and tile_ret == S.PH_A1_TILES):
        if int(m[S.M_ACTION]) != -1 or mission != -1:
            _fail(f"registers action {int(m[S.M_ACTION])} and mission {mission} set in phase {PHASE_NAMES[ph]}")
    _check_action_progress(s, ph)
    if pending and not (ph == S.PH_A1_TILES or (in_tile and tile_ret == S.PH_A1_TILES)):
        _fail(f"A1 tiles pending ({pending}) in phase {PHASE_NAMES[ph]}")
    if ph in (S.PH_MISSION, S.PH_PAY, S.PH_OWNER):
        if mission < 0 or s.mc_where[mission] != MC_SPACE:
            _fail(f"phase {PHASE_NAMES[ph]} with Mission card {mission}, which is not in Space")
        if ph == S.PH_OWNER and int(s.mc_owner[mission]) != owner:
            _fail(f"owner's activation of Mission card {mission} by seat {owner}, not its owner")
    # A1: the tiles to resolve and the tile in progress
    grid = s.grid[turn_player].tolist()
    for cell in range(9):
        if pending >> cell & 1 and not 0 <= grid[cell] < ADV_TILE0:
            _fail(f"cell {cell} of player_{turn_player} is to resolve but holds no activatable tile")
    if ph == S.PH_A1_TILES and not pending:
        _fail("A1 tiles to resolve with none pending")
    if in_tile and ph != S.PH_KEEP:
        cell = int(m[S.M_TILE_CELL])
        _reg_in(m, S.M_TILE_RETURN, (S.PH_A1_TILES, S.PH_REPAIR), "A1 or Repair")
        t = int(s.grid[actor, cell]) if cell >= 0 else -1
        if not 0 <= t < ADV_TILE0 or s.tile_boost[t]:
            _fail(f"tile effect in phase {PHASE_NAMES[ph]} without a standard-side tile (cell {cell})")
        comp = s.comp
        effects = comp.tile_options[t] if comp.tile_effect[t] == TE_OR else (comp.tile_effect[t],)
        want = _PHASE_EFFECTS.get(ph)
        if ph == S.PH_TILE_OPTION:
            ok = comp.tile_effect[t] == TE_OR
        else:
            ok = int(m[S.M_TILE_EFFECT]) in effects and int(m[S.M_TILE_EFFECT]) in want
        if not ok:
            _fail(f"phase {PHASE_NAMES[ph]} on tile {t} (effect register {int(m[S.M_TILE_EFFECT])})")
    if ph in (S.PH_SHIP_SELECT, S.PH_SHIP_MOVE):
        _reg_in(m, S.M_MOVE_RETURN, (S.PH_TILE_OPTION, S.PH_COMMAND_CARD), "a tile or Command")
        if int(m[S.M_MOVE_RETURN]) == S.PH_TILE_OPTION:
            _reg_in(m, S.M_TILE_RETURN, (S.PH_A1_TILES, S.PH_REPAIR), "A1 or Repair")
    if ph == S.PH_SHIP_MOVE:
        h = int(m[S.M_SHIP_HEX])
        if h < 0 or not (m[M_SHIP_LAUNCH] or actor in s.hex_ship[h].tolist()):
            _fail(f"ship to move from hex {h}, where seat {actor} has no ship")
    elif m[M_SHIP_LAUNCH]:
        _fail(f"a launched ship in flight in phase {PHASE_NAMES[ph]}")
    if ph == S.PH_COMMAND_CARD and int(m[S.M_SHIP_HEX]) < 0:
        _fail("Command without the ship's hex")
    if ph == S.PH_COMMAND_CARD or (ph in (S.PH_SHIP_SELECT, S.PH_SHIP_MOVE)
                                   and int(m[S.M_MOVE_RETURN]) == S.PH_COMMAND_CARD):
        v = int(m[S.M_VALUE])
        if int(m[S.M_MOVE_RANGE]) != v or int(m[S.M_MOVE_MIN]) != int(v >= 1):
            _fail(f"Command with value {v}, move range {int(m[S.M_MOVE_RANGE])}, minimum {int(m[S.M_MOVE_MIN])}")
    # cards and tiles being handled
    drawn = s.drawn.tolist()
    if ph == S.PH_KEEP:
        _reg_in(m, S.M_KEEP_RETURN, (S.PH_TILE_DRAW, S.PH_HAND_LIMIT), "a tile's draw or A3")
        if any(c < 0 or s.mc_where[c] != MC_DRAWN + actor for c in drawn):
            _fail(f"choice of a drawn Mission card among {drawn}, not drawn by seat {actor}")
    else:
        _reg_in(m, S.M_KEEP_RETURN, (-1,), "-1 outside the choice of a drawn card")
        if drawn != [-1, -1] or np.any((s.mc_where >= MC_DRAWN) & (s.mc_where < MC_DRAWN + 5)):
            _fail(f"drawn Mission cards {drawn} outside the choice of a drawn card")
    if (ph == S.PH_INJECT) != (taken >= 0):
        _fail(f"register taken_tile is {taken} in phase {PHASE_NAMES[ph]}")
    if taken >= 0 and s.tile_where[taken] != TL_TAKEN + turn_player:
        _fail(f"tile {taken} to inject is not taken by player_{turn_player}")
    if (ph == S.PH_ADVANCED_SPACE) != (ejected >= 0):
        _fail(f"register ejected_adv is {ejected} in phase {PHASE_NAMES[ph]}")
    if ejected >= 0 and (ejected < ADV_TILE0 or s.tile_where[ejected] != TL_EJECTED + turn_player
                         or all(x >= 0 for x in s.adv_space[turn_player].tolist())):
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


_RANGE_BOUNDS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _range_bounds(display_len: int) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of every entry of the state buffer under ``_FIELD_RANGES`` (the int16 bounds
    where no range applies): one comparison of the whole buffer finds whether any field is out of its range."""
    b = _RANGE_BOUNDS.get(display_len)
    if b is None:
        views = S._views(display_len)
        size = S.buffer_size(display_len)
        lo = np.full(size, np.iinfo(np.int16).min, dtype=np.int16)
        hi = np.full(size, np.iinfo(np.int16).max, dtype=np.int16)
        for name, low, high in _FIELD_RANGES:
            _, start, end = views[name]
            lo[start:end] = low
            hi[start:end] = high
        b = _RANGE_BOUNDS[display_len] = (lo, hi)
    return b


def _check_fields(s: State, n: int, nh: int) -> None:
    """Every field within its range; the seats not in the game hold nothing; as many different Space strips as
    the player count lays, and nothing beyond them."""
    lo, hi = _range_bounds(len(s.comp.display_costs))
    buf = s.buf
    if (buf < lo).any() or (buf > hi).any():
        for name, lo_, hi_ in _FIELD_RANGES:          # the first field out of its range, in the table's order
            v = getattr(s, name)
            if v.size and (int(v.min()) < lo_ or int(v.max()) > hi_):
                bad = int(v.min()) if int(v.min()) < lo_ else int(v.max())
                _fail(f"field {name} holds {bad}, outside {lo_}..{hi_}")
    bot_plays = n <= 2
    vp, vp_src, res, debris, ships = (s.vp.tolist(), s.vp_src.tolist(), s.res.tolist(), s.debris.tolist(),
                                      s.ships.tolist())
    robots_break, robots_supply, robots_ws = s.robots_break.tolist(), s.robots_supply.tolist(), s.robots_ws.tolist()
    hand_mc, hand_rav, rav_robots = s.hand_mc.tolist(), s.hand_rav.tolist(), s.rav_robots.tolist()
    grid, slots, adv_space = s.grid.tolist(), s.slots.tolist(), s.adv_space.tolist()
    for p in range(5):
        if p < n or (p == BOT and bot_plays):
            continue
        if (vp[p] or any(vp_src[p]) or res[p] or debris[p] or ships[p] or robots_break[p]
                or robots_supply[p] or any(robots_ws[p]) or any(hand_mc[p]) or hand_rav[p]):
            _fail(f"seat {p}, not in this {n}-player game, holds goods, robots, VP or cards")
        if any(r[p] for r in rav_robots):
            _fail(f"seat {p}, not in this {n}-player game, has robots on Ravager cards")
        if p < 4 and (max(grid[p]) >= 0 or max(slots[p]) >= 0 or max(adv_space[p]) >= 0):
            _fail(f"seat {p}, not in this {n}-player game, has tiles or cards in play")
    mc_where = s.mc_where.tolist()
    rav_where = s.rav_where.tolist()
    for p in range(4):
        for k, code in enumerate(slots[p]):
            if code == -1:
                continue
            if 0 <= code < 60:
                ok = mc_where[code] == MC_SLOT + p
            elif RAVAGER_SLOT <= code < RAVAGER_SLOT + 30:
                ok = rav_where[code - RAVAGER_SLOT] == RV_SLOT + p
            else:
                ok = False
            if not ok:
                _fail(f"slot {k} of seat {p} holds code {code}, not a card played there")
    n_strips = nh // 5
    strip_id, strip_face = s.strip_id.tolist(), s.strip_face.tolist()
    ids = strip_id[:n_strips]
    faces = strip_face[:n_strips]
    if (len(set(ids)) != n_strips or any(i < 0 for i in ids) or any(f < 0 for f in faces)
            or any(x != -1 for x in strip_id[n_strips:] + strip_face[n_strips:])):
        _fail(f"Space strips {ids} with faces {faces} (expected {n_strips} different strips)")
    spes = s.m.item(S.M_SPES_POS)
    hex_terrain, hex_comet, hex_icons, hex_card = (s.hex_terrain.tolist(), s.hex_comet.tolist(),
                                                   s.hex_icons.tolist(), s.hex_card.tolist())
    at = [h for h, t in enumerate(hex_terrain) if t == T_SPES]
    if at != ([spes * 5 + 2] if spes >= 0 else []):
        _fail(f"Spes on hexes {at} while its register puts it on strip {spes}")
    if spes >= 0 and (hex_comet[spes * 5 + 2] or hex_icons[spes * 5 + 2]):
        _fail("the Spes hex shows a comet or Ravager icons")
    if (any(t != T_ASTEROID for t in hex_terrain[nh:]) or any(hex_comet[nh:]) or any(hex_icons[nh:])
            or any(c >= 0 for c in hex_card[nh:])):
        _fail("hexes beyond the strips in play are not empty asteroids")


_PHASE_EFFECTS = {
    S.PH_TILE_ADJACENT: (TE_ACT_VERTICAL, TE_ACT_HORIZONTAL), S.PH_TILE_DRAW: (TE_DRAW_MISSION,),
    S.PH_TILE_ROBOT: (TE_MOVE_ROBOT,), S.PH_SHIP_SELECT: (TE_MOVE_SHIP,), S.PH_SHIP_MOVE: (TE_MOVE_SHIP,),
}


def _check_action_progress(s: State, ph: int) -> None:
    """An action in progress has done no more than its value allows, and its first step has a choice (a
    Discover, Destroy or Repair that has done nothing yet can do something; an activation has one to go)."""
    m = s.m
    value, done = int(m[S.M_VALUE]), int(m[S.M_DONE])
    comp = s.comp
    if ph == S.PH_DISCOVER:
        if done > value:
            _fail(f"Discover has spent {done} of a value {value}")
        rem = value - done
        if not done and not (any(t >= 0 and comp.display_costs[i] <= rem for i, t in enumerate(s.display.tolist()))
                             or (rem >= comp.advanced_cost and max(s.adv_slots.tolist()) >= 0)):
            _fail(f"Discover with value {value} and no tile it can take")
    elif ph == S.PH_DESTROY:
        if done > value:
            _fail(f"Destroy has destroyed {done} of a value {value}")
        if not done and not any(1 <= k <= value for k in s.rav_count.tolist()):
            _fail(f"Destroy with value {value} and no location it can clear")
    elif ph == S.PH_REPAIR:
        if not done and not (s.dmg.any() or any(s.die_damaged[d] and s.die_owner[d] == DIE_SUPPLY
                                                for d in range(18))):
            _fail("Repair with nothing to repair")
    elif ph == S.PH_MISSION:
        if not done < value:
            _fail(f"Mission card activation {done + 1} of a value {value}")
