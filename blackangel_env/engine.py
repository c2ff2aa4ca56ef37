"""The rules engine: a pure state machine over ``State``.

Public functions:

* ``new_game(config, seed)`` -> State (the rulebook's SETUP, 2-player and solitaire adjustments included);
* ``legal_actions(state)`` -> sorted list of action ids; ``legal_mask(state)`` -> int8 mask over the table;
* ``apply(state, action)`` mutates the state, or raises ``IllegalActionError`` and leaves it untouched;
* ``final_scores(state)`` / ``winners(state)`` once ``state.terminal``.

Every decision the rules leave to a player is an action (see ``actions.py``); every automatic step (damage,
Ravager arrival, display pushes, the Black Angel's advance, ejection, the end-game trigger, final scoring, Hal's
turn) is resolved here.  Rule decisions taken where the rulebook is silent or ambiguous are listed in
``docs/rules.md`` with the test that pins each.

Implementation notes.  Phases are small integers (``state.PH_*``); the decision in progress lives in the
scalar registers ``state.m[M_*]``, so a state is fully described by its buffer and generator.  Handlers are
plain functions that read and write the numpy views; nothing here allocates per decision beyond small lists.
"""

from __future__ import annotations

import dataclasses
import os
import sys

import numpy as np

from . import actions as A
from . import state as _state_module
from .board import black_angel_hex, distances, neighbours
from .components import Components, default_components, load_components
from .config import ConfigError, GameConfig
from .constants import (
    ACT_COMMAND, ACT_DESTROY, ACT_DISCOVER, ACT_REPAIR, BE_CHANGE_COLOUR, BE_FREE_RESERVE, BE_SET_THREE,
    BE_VP_ON_ACTION, COLOURS, G_DEBRIS, G_MISSION, G_RAVAGER, G_RESOURCE, G_ROBOT, G_SHIP, G_TECH, G_VP,
    MISSION_ACTIVATION, NEUT_FIXED, NEUT_PER_SPACE, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT,
    RAV_DISCARD_MISSION, RAV_DISCARD_RAVAGER, RAV_ROBOT, T_ASTEROID, T_SPES, TE_ACT_HORIZONTAL,
    TE_ACT_VERTICAL, TE_DEBRIS, TE_DRAW_MISSION, TE_MOVE_ROBOT, TE_MOVE_SHIP, TE_OR, TE_RESOURCE, TE_ROBOT,
    TE_SHIP, TE_VP, ADV_TILE0, START_TILE0,
)
from .state import (
    BOT, DIE_IN_USE, DIE_SUPPLY, DIE_ABSENT, MC_DECK, MC_DISCARD, MC_DRAWN, MC_HAND, MC_SLOT, MC_SPACE,
    MC_TUCKED, RAVAGER_SLOT, RV_BOARD, RV_BOX, RV_DECK, RV_DISCARD, RV_HAND, RV_SLOT, SRC_ACTIVATION,
    SRC_BOOST, SRC_NEUTRALIZATION, SRC_PENALTY, SRC_REWARD, SRC_START, SRC_TILES, SRC_TRADE, SRC_HAL,
    TL_ADV_DECK, TL_ADV_SLOT, TL_ADV_SPACE, TL_BOX, TL_DISCARD, TL_DISPLAY, TL_EJECTED, TL_GRID, TL_STACK,
    TL_TAKEN, State, buffer_size, _views,
    M_N_PLAYERS, M_ADVANCED, M_SOLO, M_N_STRIPS, M_PHASE, M_ACTOR, M_TURN_PLAYER, M_ROUND, M_TURNS,
    M_END_TRIGGERED, M_TRIGGER_ROUND, M_SPES_REACHED, M_GAME_OVER, M_SPES_TOKEN_POS, M_SPES_POS,
    M_RAV_DECK_N, M_ADV_DECK_N, M_HAL_DECK_N, M_HAL_CARD, M_DECISIONS, M_SETUP_SEAT, M_DIE, M_DIE_BOUGHT,
    M_DIE_COLOUR0, M_DIE_COLOUR, M_DIE_VALUE, M_DIE_FLIPPED, M_ACTION, M_MISSION, M_VALUE, M_DONE,
    M_A1_SLOT, M_A1_COLOUR, M_PENDING, M_TILE_CELL, M_TILE_EFFECT, M_TILE_RETURN, M_TILE_ADJACENT,
    M_SHIP_HEX, M_SHIP_LAUNCH, M_MOVE_RANGE, M_MOVE_MIN, M_MOVE_RETURN, M_TAKEN_TILE, M_EJECTED_ADV,
    M_PAY_TECH, M_PAY_MISSION, M_PAY_RETURN, M_PAY_SEAT, M_KEEP_RETURN, M_B_PAID,
    M_B_FREE_COLOUR, M_OWNER, M_BOOSTS_USED, M_HAND_LIMIT_RETURN,
    PH_SETUP_RESERVE, PH_TURN, PH_A1_CARD, PH_A1_TILES, PH_TILE_OPTION, PH_TILE_ADJACENT, PH_TILE_DRAW,
    PH_TILE_ROBOT, PH_SHIP_SELECT, PH_SHIP_MOVE, PH_A2_DIE, PH_A2_MODIFY, PH_DIE_COLOUR, PH_ACTION_BOOST,
    PH_RAVAGER_DISCARD, PH_DISCOVER, PH_INJECT, PH_ADVANCED_SPACE, PH_REPAIR, PH_DEBRIS, PH_DESTROY,
    PH_COMMAND_CARD, PH_MISSION, PH_PAY, PH_OWNER, PH_KEEP, PH_HAND_LIMIT, PH_B_RESERVE, PH_GAME_OVER,
    PHASE_NAMES,
)
# Imported once here rather than inside the functions that use them (an import statement costs microseconds
# at every call); neither module imports this one at import time.
from .hal import hal_free_activation, hal_gain, hal_turn  # noqa: E402
from .scoring import finish_game  # noqa: E402

SEQ_NONE, SEQ_A, SEQ_B = 0, 1, 2
FLIP = (2, 3, 0, 1)                # opposite face: 0<->2, 1<->3 (rulebook A2: opposite faces differ by 2)


class IllegalActionError(ValueError):
    """The action is not legal in this state; the state was left unchanged."""


# =============================================================================================================
# Small helpers
# =============================================================================================================

def seat_name(s: State, seat: int) -> str:
    if seat == BOT:
        return "Hal" if s.m.item(M_SOLO) else "neutral"
    return f"player_{seat}"


def _log(s: State, msg: str) -> None:
    """Record a message when the game keeps a log.  Callers that build the message with an f-string test
    ``s.log is not None`` first, so that unrecorded games never format it."""
    if s.log is not None:
        s.log.append(msg)


def gain_vp(s: State, seat: int, n: int, src: int, cause: str) -> None:
    """Change a seat's VP (never below 0, rules-notes C13) and record the source and cause."""
    if n == 0:
        return
    old = s.vp.item(seat)
    new = old + n
    if new < 0:
        new = 0
    s.vp[seat] = new
    s.vp_src[seat, src] += new - old
    if s.log is not None:
        s.log.append(f"{seat_name(s, seat)} {n:+d} VP ({cause}) -> {new}")


def gain_goods(s: State, seat: int, vec, src: int, cause: str) -> None:
    """Receive ships / resources / robots / debris / VP (a cost/gain vector indexed by G_*)."""
    if seat == BOT:
        if s.m.item(M_SOLO):
            hal_gain(s, vec, cause)     # Hal turns every gain into VP (solitaire rules)
        return
    if vec[G_SHIP]:
        s.ships[seat] += vec[G_SHIP]
    if vec[G_RESOURCE]:
        s.res[seat] += vec[G_RESOURCE]
    if vec[G_DEBRIS]:
        s.debris[seat] += vec[G_DEBRIS]
    if vec[G_ROBOT]:
        _take_robots(s, seat, vec[G_ROBOT])
    if vec[G_VP]:
        gain_vp(s, seat, vec[G_VP], src, cause)
    if s.log is not None:
        got = [f"{vec[g]} {name}" for g, name in ((G_SHIP, "ship"), (G_RESOURCE, "resource"),
                                                  (G_ROBOT, "robot"), (G_DEBRIS, "debris")) if vec[g]]
        if got:
            s.log.append(f"{seat_name(s, seat)} gains {', '.join(got)} ({cause})")


def _take_robots(s: State, seat: int, n: int) -> None:
    """Robots are limited (rulebook COMPONENTS note): take up to n from the seat's supply to its break room."""
    k = min(n, s.robots_supply.item(seat))
    s.robots_supply[seat] -= k
    s.robots_break[seat] += k


def _hand_missions(s: State, p: int) -> list[int]:
    # list.count / list.index scan in C: a few times cheaper than a numpy comparison and flatnonzero
    where = s.mc_where.tolist()
    code = MC_HAND + p
    out = []
    i = -1
    for _ in range(where.count(code)):
        i = where.index(code, i + 1)
        out.append(i)
    return out


def _hand_total(s: State, p: int) -> int:
    return sum(s.hand_mc[p].tolist())


def _lowest_hand_ravager(s: State, p: int) -> int:
    where = s.rav_where.tolist()           # list scan in C: cheaper than a numpy comparison and flatnonzero
    code = RV_HAND + p
    if code in where:
        return where.index(code)
    return int(np.flatnonzero(s.rav_where == code)[0])     # none in hand: the same IndexError as ever


def _own_ship_hexes(s: State, p: int) -> list[int]:
    # a player has at most one ship per hex; list.count / list.index scan in C, as in _hand_missions
    hs = s.hex_ship.ravel().tolist()
    out = []
    i = -1
    for _ in range(hs.count(p)):
        i = hs.index(p, i + 1)
        out.append(i >> 1)
    return out


def _ships_on(s: State, h: int) -> list[int]:
    return [x for x in s.hex_ship[h].tolist() if x >= 0]


def _remove_ship(s: State, h: int, p: int) -> None:
    if s.hex_ship.item(h, 0) == p:
        s.hex_ship[h, 0] = s.hex_ship[h, 1]
        s.hex_ship[h, 1] = -1
    else:
        s.hex_ship[h, 1] = -1


def _add_ship(s: State, h: int, p: int) -> None:
    if s.hex_ship.item(h, 0) < 0:
        s.hex_ship[h, 0] = p
    else:
        s.hex_ship[h, 1] = p


def _ship_to_supply(s: State, h: int, p: int) -> None:
    """A ship leaves the board for the general supply; its pilot returns to the player's robot supply."""
    _remove_ship(s, h, p)
    if p != BOT:
        s.robots_supply[p] += 1


def _roll(s: State) -> int:
    faces = s.comp.die_faces
    return faces[int(s.rng.random() * len(faces))]


def _shuffled(s: State, items: list[int]) -> list[int]:
    """A shuffled copy.  ``Generator.shuffle`` on a list makes the same swaps from the same draws as
    ``permutation(len(items))`` (both are its Fisher-Yates pass), so this equals ``[items[i] for i in
    rng.permutation(len(items))]`` for a fraction of the cost."""
    out = list(items)
    if len(out) > 1:
        s.rng.shuffle(out)
    return out


def _supply_die(s: State, colour: int, damaged_ok: bool = True) -> int:
    """A die of ``colour`` in the supply, undamaged first (rules decision R-B1), or -1."""
    base = colour * 6
    owners = s.die_owner[base:base + 6].tolist()       # lists: numpy scalar reads are slow
    damaged = s.die_damaged[base:base + 6].tolist()
    best = -1
    for i in range(6):
        if owners[i] == DIE_SUPPLY:
            if not damaged[i]:
                return base + i
            if best < 0 and damaged_ok:
                best = base + i
    return best


def _damage_die(s: State, colour: int) -> bool:
    """Put a Damage cube on an undamaged die of ``colour`` in the supply (a die holds at most one cube)."""
    base = colour * 6
    owners = s.die_owner[base:base + 6].tolist()
    damaged = s.die_damaged[base:base + 6].tolist()
    for i in range(6):
        if owners[i] == DIE_SUPPLY and not damaged[i]:
            s.die_damaged[base + i] = 1
            return True
    return False


def _damage_action(s: State, a: int) -> None:
    """Rulebook, Ravagers appear / appendix RAVAGER CARDS: first empty damage space, else a die in the
    same-colour supply, else the damage is ignored."""
    if s.dmg.item(a) < s.comp.max_action_damage:
        s.dmg[a] += 1
        if s.log is not None:
            _log(s, f"damage on action {a + 1} ({s.dmg.item(a)} cubes)")
    elif _damage_die(s, s.comp.action_colour[a]) and s.log is not None:
        _log(s, f"damage on a {COLOURS[s.comp.action_colour[a]]} die in the supply")


# =============================================================================================================
# Setup
# =============================================================================================================

def new_game(config: GameConfig | None = None, seed: int | None = None, *, log: bool = False,
             components: Components | str | os.PathLike | None = None, **options) -> State:
    """Set up a game (rulebook SETUP; 2-PLAYER GAME; VARIANT - PLAYING SOLITAIRE).

    ``config`` may be omitted and options given as keywords (``num_players=3, advanced=True``).  ``seed``
    seeds the state's own generator; (config, seed, actions) replays a game exactly.  ``components`` is loaded
    component data, or the path of a component file (as ``GameConfig.components``: the path is recorded in the
    state's config, so a saved game loads with the same file).
    """
    if config is None:
        config = GameConfig(**options)
    elif options:
        raise TypeError("give either a GameConfig or keyword options, not both")
    if isinstance(components, (str, os.PathLike)):
        path = os.fspath(components)
        if config.components is not None and config.components != path:
            raise ConfigError(f"components {path!r} differs from the config's components {config.components!r}")
        config = dataclasses.replace(config, components=path)
        components = None
    elif components is not None and not isinstance(components, Components):
        raise ConfigError(f"components must be a component file path or loaded Components, got "
                          f"{type(components).__name__}")
    comp = components or (load_components(config.components) if config.components else default_components())
    n = config.num_players
    solo = n == 1
    buf = _blank_buffer(len(comp.display_costs))
    s = State(config, comp, buf, np.random.default_rng(seed))
    s.bind_views()                       # setup writes most fields, and the game goes on using them
    if log:
        s.log = []
    m = s.m
    m[M_N_PLAYERS] = n
    m[M_ADVANCED] = int(config.advanced)
    m[M_SOLO] = int(solo)
    n_strips = comp.strips_used[n]
    m[M_N_STRIPS] = n_strips

    # Step 2: dice (6 / 5 / 4 per colour).
    per = comp.dice_per_colour[n]
    s.die_owner[:] = [DIE_SUPPLY if d % 6 < per else DIE_ABSENT for d in range(18)]
    # Step 3: the Space strips, order and faces at random; Spes token on the farthest strip.
    chosen = _shuffled(s, list(range(comp.n_strips)))[:n_strips]
    # one random face per strip, in strip order (one batch: the same numbers as one draw per strip)
    faces = [int(x * 2) for x in s.rng.random(n_strips).tolist()]
    s.strip_id[:n_strips] = chosen
    s.strip_face[:n_strips] = faces
    # lay the strips: terrain, comet and icons of their hexes (the first three rows of the hex block) in one
    # assignment, (strips, 3, 5) -> (3, hexes)
    _hex_block(s)[:3, :5 * n_strips] = _strip_hexes(comp)[chosen, faces].transpose(1, 0, 2).reshape(3, -1)
    m[M_SPES_TOKEN_POS] = n_strips - 1
    # Step 5: Technology stacks, display (one tile of each colour on the first 3 spaces, at random).
    for c in range(3):
        ids = _shuffled(s, list(range(16 * c, 16 * c + 16)))
        s.tech_stack[c, :16] = ids[::-1]           # top of the stack = last element
        s.tech_stack_n[c] = 16
        s.tile_where[16 * c:16 * c + 16] = TL_STACK
    order = _shuffled(s, [0, 1, 2])
    for pos, c in enumerate(order):
        t = _pop_tech(s, c)
        s.display[pos] = t
        s.tile_where[t] = TL_DISPLAY
    if config.advanced:
        s.tile_boost[:48] = 1                      # ADVANCED RULES: boost side up
    # Step 6: Advanced Technology tiles.
    adv = _shuffled(s, list(range(ADV_TILE0, ADV_TILE0 + 16)))
    s.tile_where[ADV_TILE0:ADV_TILE0 + 16] = TL_ADV_DECK
    s.adv_deck[:16] = adv[::-1]
    m[M_ADV_DECK_N] = 16
    for slot in range(comp.n_advanced_slots):
        _refill_adv_slot(s, slot)
    # Step 7: Mission decks.
    for c in range(3):
        ids = _shuffled(s, list(range(20 * c, 20 * c + 20)))
        s.mc_deck[c, :20] = ids
        s.mc_deck_n[c] = 20
    s.mc_where[:] = MC_DECK
    # Step 8: Ravager deck, removals, two cards on the board.
    rav = _shuffled(s, list(range(30)))
    removed = comp.ravagers_removed[n]
    s.rav_where[rav[:removed]] = RV_BOX
    deck = rav[removed:]
    s.rav_deck[:len(deck)] = deck
    m[M_RAV_DECK_N] = len(deck)
    s.rav_where[deck] = RV_DECK
    for _ in range(2):
        r = _pop_ravager(s)
        _place_ravager(s, r)
    # Starting tiles of absent seats go back to the box.
    s.tile_where[START_TILE0:START_TILE0 + 12] = TL_BOX
    # Steps 9-14: players (their equal starting amounts first, for all seats at once).
    s.vp[:n] = comp.start_vp
    s.vp_src[:n, SRC_START] = comp.start_vp
    s.robots_break[:n] = comp.robots_break_room
    s.robots_ws[:n, :] = comp.robots_per_workstation
    s.robots_supply[:n] = comp.robots_per_player - comp.robots_break_room - 3 * comp.robots_per_workstation
    s.res[:n] = comp.start_resources
    s.debris[:n] = comp.start_debris
    s.ships[:n] = comp.start_ships
    for p in range(n):
        kinds = _shuffled(s, [0, 1, 2])
        for (r, c), k in zip(comp.start_tile_cells, kinds):
            t = START_TILE0 + 3 * p + k
            s.grid[p, r * 3 + c] = t
            s.tile_where[t] = TL_GRID + p
        for c in range(3):
            card = _draw_mission(s, c)
            _to_hand(s, p, card)
        r = _pop_ravager(s)
        s.rav_where[r] = RV_HAND + p
        s.hand_rav[p] += 1
    if n == 2:
        # 2-PLAYER GAME: a neutral robot in each workstation.
        s.robots_ws[BOT, :] = 1
    if solo:
        # SOLITAIRE: Hal's disc on his difficulty's VP, a robot in each workstation, the rest in the break room.
        hv = comp.hal_start_vp[config.hal_difficulty]
        s.vp[BOT] = hv
        s.vp_src[BOT, SRC_START] = hv
        s.robots_ws[BOT, :] = 1
        s.robots_break[BOT] = comp.robots_per_player - 3
        hal = _shuffled(s, list(range(12)))
        s.hal_deck[:12] = hal[::-1]
        m[M_HAL_DECK_N] = 12
    # Step 15: in turn order each player rolls one die of each colour; then the neutral / Hal dice.
    seats = list(range(n)) + ([BOT] if n <= 2 else [])
    _roll_dice(s, [(p, c, 1) for p in seats for c in range(3)], penalise=False)
    # Player aids: advantages of positions 2-4 (rules-notes C9).
    for p in range(1, n):
        if comp.aid_resources[p]:
            s.res[p] += comp.aid_resources[p]
    m[M_ROUND] = 1
    m[M_TURN_PLAYER] = 0
    for p in range(n):
        s.last_seq[p] = SEQ_NONE
    _next_setup_reserve(s, 0)
    if s.log is not None:
        _log(s, f"setup: {n} player(s){' (solo vs Hal, ' + config.hal_difficulty + ')' if solo else ''}, "
                f"{'advanced' if config.advanced else 'base'} rules, seed {seed}")
    return s


_BLANK: dict[int, np.ndarray] = {}


def _blank_buffer(display_len: int) -> np.ndarray:
    """A new state buffer before setup: zeros, with the "none" value -1 in the registers and fields that hold
    ids, and asteroids on the Space board (a cached template, copied)."""
    blank = _BLANK.get(display_len)
    if blank is None:
        blank = np.zeros(buffer_size(display_len), dtype=np.int16)
        views = _views(display_len)
        m = blank[views["m"][1]:views["m"][2]]
        for reg in (M_HAL_CARD, M_DIE, M_ACTION, M_MISSION, M_A1_SLOT, M_A1_COLOUR, M_TILE_CELL, M_TILE_EFFECT,
                    M_TILE_RETURN, M_SHIP_HEX, M_MOVE_RETURN, M_TAKEN_TILE, M_EJECTED_ADV, M_PAY_RETURN, M_PAY_SEAT,
                    M_KEEP_RETURN, M_B_FREE_COLOUR, M_OWNER, M_HAND_LIMIT_RETURN, M_SPES_POS, M_TRIGGER_ROUND,
                    M_DIE_COLOUR0, M_DIE_COLOUR):
            m[reg] = -1
        for name in ("grid", "slots", "adv_space", "rav_loc", "display", "adv_slots", "mc_owner", "mc_hex",
                     "mc_deck", "drawn", "rav_deck", "hex_card", "hex_ship", "tech_stack", "adv_deck", "hal_deck",
                     "strip_id", "strip_face"):
            blank[views[name][1]:views[name][2]] = -1
        blank[views["hex_terrain"][1]:views["hex_terrain"][2]] = T_ASTEROID
        _BLANK[display_len] = blank
    return blank.copy()


_STRIP_HEXES: dict[int, tuple[Components, np.ndarray]] = {}


def _strip_hexes(comp: Components) -> np.ndarray:
    """[strip, face] -> (3, 5) array of the terrain, comet flag (1/0) and Ravager icons of the 5 hexes."""
    hit = _STRIP_HEXES.get(id(comp))
    if hit is None or hit[0] is not comp:
        table = np.array([[[st[:5], cm[:5], ic[:5]] for st, cm, ic in zip(ter, com, ico)]
                          for ter, com, ico in zip(comp.strip_terrain, comp.strip_comet, comp.strip_icons)],
                         dtype=np.int16)
        hit = _STRIP_HEXES[id(comp)] = (comp, table)
    return hit[1]


def _next_setup_reserve(s: State, start: int) -> None:
    """Players whose aid grants a free reservation choose a die (or none), in turn order (SETUP step 15)."""
    n = s.m.item(M_N_PLAYERS)
    for p in range(start, n):
        if s.comp.aid_free_reserve[p] and any(s.die_owner.item(d) == p for d in range(18)):
            s.m[M_PHASE] = PH_SETUP_RESERVE
            s.m[M_SETUP_SEAT] = p
            s.m[M_ACTOR] = p
            return
    s.m[M_SETUP_SEAT] = -1
    _start_turn(s, 0)


def _take_supply_die(s: State, seat: int, colour: int, penalise: bool) -> int:
    """Move a die of ``colour`` from the supply to ``seat``'s compartment, to be rolled (a damaged one loses its
    cube and, if ``penalise``, costs 1 VP); the die, or -1 if the supply has none."""
    d = _supply_die(s, colour)
    if d < 0:
        return -1
    if s.die_damaged.item(d):
        s.die_damaged[d] = 0
        if penalise:
            gain_vp(s, seat, -1, SRC_PENALTY, f"rolled a damaged {COLOURS[colour]} die")
    s.die_owner[d] = seat
    s.die_reserved[d] = 0
    return d


def _roll_into(s: State, seat: int, colour: int, penalise: bool) -> bool:
    d = _take_supply_die(s, seat, colour, penalise)
    if d < 0:
        return False
    s.die_value[d] = _roll(s)
    return True


def _roll_robots(s: State, seat: int, penalise: bool) -> None:
    """Roll one die per workstation robot of ``seat``, colour by colour, while the supply has one (Sequence B)."""
    _roll_dice(s, [(seat, c, k) for c, k in enumerate(s.robots_ws[seat].tolist())], penalise)


def _roll_dice(s: State, wanted: list[tuple[int, int, int]], penalise: bool) -> None:
    """For each (seat, colour, count) in order, roll ``count`` dice of that colour into the seat's compartment
    while the supply has one (as ``_roll_into`` one at a time).  The dice are taken first and rolled with one
    batch of random numbers: the same numbers, in the same order, as one draw per die (nothing in between reads
    the values), for a fraction of the cost.  The supply is searched in lists kept current here (as
    ``_take_supply_die`` does in the arrays)."""
    owners = s.die_owner.tolist()
    damaged = s.die_damaged.tolist()
    taken = []
    for seat, c, k in wanted:
        base = c * 6
        for _ in range(k):
            d = -1                             # _supply_die: an undamaged die of the colour first, else a damaged one
            for i in range(base, base + 6):
                if owners[i] == DIE_SUPPLY:
                    if not damaged[i]:
                        d = i
                        break
                    if d < 0:
                        d = i
            if d < 0:
                break
            if damaged[d]:
                damaged[d] = 0
                s.die_damaged[d] = 0
                if penalise:
                    gain_vp(s, seat, -1, SRC_PENALTY, f"rolled a damaged {COLOURS[c]} die")
            owners[d] = seat
            s.die_owner[d] = seat
            s.die_reserved[d] = 0
            taken.append(d)
    if taken:
        faces = s.comp.die_faces
        for d, x in zip(taken, s.rng.random(len(taken)).tolist()):
            s.die_value[d] = faces[int(x * len(faces))]        # as _roll


# =============================================================================================================
# Decks
# =============================================================================================================

def _pop_tech(s: State, c: int) -> int:
    n = s.tech_stack_n.item(c)
    if n == 0:
        return -1
    t = s.tech_stack.item(c, n - 1)
    s.tech_stack[c, n - 1] = -1
    s.tech_stack_n[c] = n - 1
    return t


def _refill_adv_slot(s: State, slot: int) -> None:
    n = s.m.item(M_ADV_DECK_N)
    if n == 0:
        s.adv_slots[slot] = -1
        return
    t = s.adv_deck.item(n - 1)
    s.adv_deck[n - 1] = -1
    s.m[M_ADV_DECK_N] = n - 1
    s.adv_slots[slot] = t
    s.tile_where[t] = TL_ADV_SLOT


def _draw_mission(s: State, c: int) -> int:
    """Top card of colour c; an empty deck is rebuilt from that colour's discards (rulebook A3 note)."""
    n = s.mc_deck_n.item(c)
    if n == 0:
        disc = [i for i in range(20 * c, 20 * c + 20) if s.mc_where[i] == MC_DISCARD]
        if not disc:
            return -1
        disc = _shuffled(s, disc)
        s.mc_deck[c, :len(disc)] = disc
        for i in disc:
            s.mc_where[i] = MC_DECK
        n = len(disc)
        if s.log is not None:
            _log(s, f"{COLOURS[c]} Mission deck rebuilt from {n} discards")
    card = s.mc_deck.item(c, n - 1)
    s.mc_deck[c, n - 1] = -1
    s.mc_deck_n[c] = n - 1
    return card


def _mission_available(s: State, c: int) -> bool:
    if s.mc_deck_n.item(c) > 0:
        return True
    base = 20 * c
    return bool(np.any(s.mc_where[base:base + 20] == MC_DISCARD))


def _to_hand(s: State, p: int, card: int) -> None:
    s.mc_where[card] = MC_HAND + p
    s.hand_mc[p, card // 20] += 1


def _discard_mission(s: State, card: int) -> None:
    where = s.mc_where.item(card)
    if MC_HAND <= where < MC_HAND + 5:
        s.hand_mc[where - MC_HAND, card // 20] -= 1
    s.mc_where[card] = MC_DISCARD
    s.mc_owner[card] = -1
    s.mc_hex[card] = -1


def _pop_ravager(s: State) -> int:
    n = s.m.item(M_RAV_DECK_N)
    if n == 0:
        disc = np.flatnonzero(s.rav_where == RV_DISCARD).tolist()
        if not disc:
            return -1
        disc = _shuffled(s, disc)
        s.rav_deck[:len(disc)] = disc
        for r in disc:
            s.rav_where[r] = RV_DECK
        n = len(disc)
        if s.log is not None:
            _log(s, f"Ravager deck rebuilt from {n} discards")
    r = s.rav_deck.item(n - 1)
    s.rav_deck[n - 1] = -1
    s.m[M_RAV_DECK_N] = n - 1
    return r


def _place_ravager(s: State, r: int) -> bool:
    """Place a drawn Ravager on its location and damage the action.  Returns False if the location was full
    (the card is discarded and the caller draws again)."""
    a = s.comp.ravager_action[r]
    k = s.rav_count.item(a)
    if k >= s.comp.ravager_capacity:
        s.rav_where[r] = RV_DISCARD
        if s.log is not None:
            _log(s, f"Ravager {r + 61} discarded: location {a + 1} is full")
        return False
    s.rav_loc[a, k] = r
    s.rav_count[a] = k + 1
    s.rav_where[r] = RV_BOARD + a
    if s.log is not None:
        _log(s, f"Ravager {r + 61} attacks action {a + 1}")
    _damage_action(s, a)
    return True


def _ravager_can_land(s: State) -> bool:
    """Some card in the Ravager deck or its discard targets a location with room."""
    cap = s.comp.ravager_capacity
    where = s.rav_where.tolist()
    counts = s.rav_count.tolist()
    if max(counts) < cap:                  # every location has room (the usual case): any card will do
        return RV_DECK in where or RV_DISCARD in where
    target = s.comp.ravager_action
    return any((w == RV_DECK or w == RV_DISCARD) and counts[target[r]] < cap for r, w in enumerate(where))


def _ravagers_appear(s: State, count: int) -> None:
    """Command step 3: one Ravager card per visible icon; full locations discard and draw again.  The end is
    triggered when the deck becomes empty (END OF THE GAME); further draws use the reshuffled discard."""
    placed = 0
    while placed < count:
        if not _ravager_can_land(s):
            # Every card left in the deck and its discard targets a full location: each draw would be
            # discarded until the deck runs out (which triggers the end), then the reshuffled discard would
            # loop forever.  Play that out once and stop (rules decision R-D1).
            n = s.m.item(M_RAV_DECK_N)
            if n:
                for i in range(n):
                    s.rav_where[s.rav_deck.item(i)] = RV_DISCARD
                s.rav_deck[:n] = -1
                s.m[M_RAV_DECK_N] = 0
                _trigger_end(s, "the Ravager deck is empty")
            _log(s, "no Ravager card left can reach a free location: no more Ravager appears")
            return
        r = _pop_ravager(s)
        if r < 0:
            return
        if s.m.item(M_RAV_DECK_N) == 0:
            _trigger_end(s, "the Ravager deck is empty")
        if _place_ravager(s, r):
            placed += 1


def _push_display(s: State, t: int) -> None:
    """Inject at display space 1, chain-pushing the contiguous tiles (rules-notes D1); a tile pushed off the
    far end is discarded."""
    disp = s.display
    tiles = disp.tolist()
    L = len(tiles)
    gap = -1
    for i in range(L):
        if tiles[i] < 0:
            gap = i
            break
    if gap < 0:
        out = tiles[L - 1]
        s.tile_where[out] = TL_DISCARD
        s.tile_boost[out] = 0
        gap = L - 1
        if s.log is not None:
            _log(s, f"tile {out} pushed out of the display")
    disp[1:gap + 1] = tiles[:gap]            # spaces 0 .. gap-1 move up one, in one slice assignment
    disp[0] = t
    s.tile_where[t] = TL_DISPLAY


# =============================================================================================================
# End of game
# =============================================================================================================

def _trigger_end(s: State, why: str) -> None:
    if not s.m.item(M_END_TRIGGERED):
        s.m[M_END_TRIGGERED] = 1
        s.m[M_TRIGGER_ROUND] = s.m.item(M_ROUND)
        if s.log is not None:
            _log(s, f"end of the game triggered: {why} (finish round {s.m.item(M_ROUND)}, then one final round)")


def is_final_turn(s: State) -> bool:
    return bool(s.m[M_END_TRIGGERED]) and s.m[M_ROUND] == s.m[M_TRIGGER_ROUND] + 1


# =============================================================================================================
# Turn flow
# =============================================================================================================

def _start_turn(s: State, p: int) -> None:
    m = s.m
    m[M_TURN_PLAYER] = p
    m[M_ACTOR] = p
    m[M_PHASE] = PH_TURN
    m[M_DIE] = -1
    m[M_ACTION] = -1
    m[M_MISSION] = -1


def _end_turn(s: State) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    m[M_TURNS] += 1
    if m.item(M_SOLO):
        hal_turn(s)        # the solitaire opponent, resolved by the engine between the player's turns
        if s.m.item(M_GAME_OVER):
            return
        _round_done(s)
        return
    n = m.item(M_N_PLAYERS)
    nxt = (p + 1) % n
    if nxt == 0:
        _round_done(s)
        if m.item(M_GAME_OVER):
            return
    _start_turn(s, nxt)


def _round_done(s: State) -> None:
    m = s.m
    if m.item(M_END_TRIGGERED) and m.item(M_ROUND) == m.item(M_TRIGGER_ROUND) + 1:
        finish_game(s)
        return
    m[M_ROUND] += 1
    _start_turn(s, 0)


# =============================================================================================================
# Die uses (A2) and the feasibility of Sequence A
# =============================================================================================================

def _passable(s: State) -> list[bool]:
    n = s.m.item(M_N_STRIPS) * 5
    ter = s.hex_terrain[:n].tolist()
    out = list(map(T_ASTEROID.__ne__, ter))     # [t != T_ASTEROID for t in ter], the loop in C
    out[black_angel_hex(s.m.item(M_N_STRIPS))] = True   # the Black Angel's shields (Command step 1)
    return out


def _occupancy_ok(s: State, h: int, p: int, moving_from: int, hs: list[int] | None = None) -> bool:
    """At most 2 ships per hex, of different players (Command step 1).  ``hs``: ``hex_ship`` as a flat list."""
    if hs is None:
        a, b = s.hex_ship[h].tolist()
    else:
        a, b = hs[2 * h], hs[2 * h + 1]
    cnt = (a >= 0) + (b >= 0)
    own = (a == p) + (b == p)
    if h == moving_from:       # the moving ship itself leaves this hex
        cnt -= 1
        own -= 1
    return cnt < 2 and own == 0


def _destinations(s: State, p: int, start: int, rmin: int, rmax: int, existing: bool,
                  passable: list[bool] | None = None) -> list[int]:
    """Hexes a ship (already at ``start`` if ``existing``, else launched from the Black Angel's hex) can end
    on after moving between rmin and rmax hexes.  Moving out and back counts as a move (rules-notes D4)."""
    if passable is None:
        passable = _passable(s)
    n_strips = s.m.item(M_N_STRIPS)
    dist = distances(n_strips, start, passable, rmax)
    moving_from = start if existing else -1
    hs = s.hex_ship.ravel().tolist()            # one list for all the occupancy checks
    out = []
    for h, d in dist.items():
        if h == start:
            ok = rmin == 0 or (rmax >= 2 and any(passable[g] for g in neighbours(n_strips)[start]))
        else:
            ok = d >= rmin
        if ok and _occupancy_ok(s, h, p, moving_from, hs):
            out.append(h)
    out.sort()
    return out


def _can_place_at(s: State, h: int, colour: int) -> bool:
    return s.hex_terrain.item(h) == colour and s.hex_card.item(h) < 0


def _effective(s: State, a: int, value: int) -> int:
    """A damaged action (2 cubes) reduces the die by 1; a 0 stays 0 (rulebook, Damaged Action)."""
    if value > 0 and s.dmg.item(a) >= s.comp.max_action_damage:
        return value - 1
    return value


def _top_effect(s: State, a: int) -> int:
    k = s.rav_count.item(a)
    if k == 0:
        return -1
    return s.comp.ravager_effect[s.rav_loc.item(a, k - 1)]


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


_GEOMETRY: dict[int, tuple[int, tuple[tuple[int, ...], ...], int]] = {}


def _geometry(n_strips: int) -> tuple[int, tuple[tuple[int, ...], ...], int]:
    """(number of hexes, neighbours, Black Angel hex) of a board of n_strips: constants, computed once."""
    g = _GEOMETRY.get(n_strips)
    if g is None:
        g = _GEOMETRY[n_strips] = (n_strips * 5, neighbours(n_strips), black_angel_hex(n_strips))
    return g


class _lazy:
    """A field of ``_Position`` computed on first use, then stored on the instance: a non-data descriptor, so
    later reads find the stored value first (no failed look-up and ``__getattr__`` call, which are slow)."""

    def __init__(self, f):
        self.f = f
        self.name = f.__name__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        v = obj.__dict__[self.name] = self.f(obj)
        return v


class _Position:
    """Read-only lists of the position, built on first use and reused while the position is unchanged (see
    ``_memo``): the die-use checks run many times per decision and numpy scalar reads are slow."""

    def __init__(self, s: State):
        self.s = s
        self.nh, self.nb, self.ba = _geometry(s.m.item(M_N_STRIPS))
        self._ships: dict[int, list[int]] = {}

    @_lazy
    def ter(self) -> list[int]:
        return self.s.hex_terrain[:self.nh].tolist()

    @_lazy
    def passable(self) -> list[bool]:
        out = list(map(T_ASTEROID.__ne__, self.ter))     # [t != T_ASTEROID for t in ter], the loop in C
        out[self.ba] = True                       # the Black Angel's shields (Command step 1)
        return out

    @_lazy
    def hs(self) -> list[int]:
        # flat [first, second, first, second, ...] per hex: a flat tolist costs half a nested one
        return self.s.hex_ship[:self.nh].ravel().tolist()

    @_lazy
    def card(self) -> list[int]:
        return self.s.hex_card[:self.nh].tolist()

    @_lazy
    def dmg(self) -> list[int]:
        return self.s.dmg.tolist()

    @_lazy
    def top(self) -> list[int]:
        s = self.s
        rc = s.rav_count.tolist()
        loc = s.rav_loc.tolist()
        eff = s.comp.ravager_effect
        return [eff[loc[a][rc[a] - 1]] if rc[a] else -1 for a in range(6)]

    @_lazy
    def any_damage(self) -> bool:
        return any(self.dmg) or any(self.s.die_damaged.tolist())   # only supply dice carry cubes

    @_lazy
    def disc_min(self) -> int:
        s = self.s
        comp = s.comp
        costs = [c for t, c in zip(s.display.tolist(), comp.display_costs) if t >= 0]
        if max(s.adv_slots.tolist()) >= 0:
            costs.append(comp.advanced_cost)
        return min(costs) if costs else 99

    @_lazy
    def destroy_min(self) -> int:
        occupied = [k for k in self.s.rav_count.tolist() if k >= 1]
        return min(occupied) if occupied else 99

    @_lazy
    def act_cards(self) -> tuple[list[int], list[int], list[int]]:
        """Activation Mission cards in Space, by colour, in hex order (the only cards a die can use)."""
        comp = self.s.comp
        out: tuple[list[int], list[int], list[int]] = ([], [], [])
        kind, colour = comp.mission_kind, comp.mission_colour
        for card in filter((-1).__lt__, self.card):     # the hexes holding a card (-1: none), filtered in C
            if kind[card] == MISSION_ACTIVATION:
                out[colour[card]].append(card)
        return out

    def ships(self, p: int) -> list[int]:
        out = self._ships.get(p)
        if out is None:
            # the hexes holding a ship of p, in order: list.count / list.index scan in C
            hs = self.hs
            out = []
            i = -1
            for _ in range(hs.count(p)):
                i = hs.index(p, i + 1)
                if not out or out[-1] != i >> 1:
                    out.append(i >> 1)
            self._ships[p] = out
        return out

    def free_for(self, h: int, p: int) -> bool:
        hs = self.hs
        return hs[2 * h + 1] < 0 and hs[2 * h] != p

    def placeable(self, h: int, colour: int) -> bool:
        return self.ter[h] == colour and self.card[h] < 0


def _position(s: State) -> _Position:
    memo = _memo(s)
    pos = memo.get("pos")
    if pos is None:
        pos = memo["pos"] = _Position(s)
    return pos


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
        return ev >= 2 and bool(_destinations(s, p, ba, 1, ev, False, passable))
    # A star die: no move, but a Mission card must be placed (Command steps 2-4; rules-notes B2, D2).
    if s.hand_mc.item(p, colour) < 1 or robots < 1:
        return False
    if eff == RAV_DISCARD_MISSION and _hand_total(s, p) < 2:
        return False
    for h in pos.ships(p):
        if pos.placeable(h, colour):
            return True
    return ships >= 1 and robots >= 2 and pos.placeable(pos.ba, colour) and pos.free_for(pos.ba, p)


def _board_action_ok(s: State, p: int, a: int, value: int, pos: _Position | None = None) -> bool:
    if pos is None:
        pos = _position(s)
    ev = value - 1 if (value > 0 and pos.dmg[a] >= s.comp.max_action_damage) else value
    kind = s.comp.action_kind[a]
    if kind == ACT_COMMAND:
        return _command_ok(s, p, s.comp.action_colour[a], ev, pos.top[a], pos)
    if ev < 1:
        return False
    if kind == ACT_DISCOVER:
        return ev >= pos.disc_min
    if kind == ACT_REPAIR:
        return pos.any_damage or _repair_target_exists(s, a)
    return ev >= pos.destroy_min           # ACT_DESTROY: a whole location within the activations


def _discover_has_option(s: State, remaining: int) -> bool:
    costs = s.comp.display_costs
    for i, t in enumerate(s.display.tolist()):
        if t >= 0 and costs[i] <= remaining:
            return True
    if remaining >= s.comp.advanced_cost:
        return max(s.adv_slots.tolist()) >= 0
    return False


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


def _has_access(s: State, p: int, card: int) -> bool:
    if s.mc_owner.item(card) == p:
        return True
    h = s.mc_hex.item(card)
    return s.hex_ship.item(h, 0) == p or s.hex_ship.item(h, 1) == p


def _space_cards(s: State) -> list[int]:
    return np.flatnonzero(s.mc_where == MC_SPACE).tolist()


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
            if _has_access(s, p, card) and _can_pay(s, p, comp.mission_cost[card], res_delta):
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
    """Some board action of ``colour`` is legal with ``value``: the colour's other action first (its check reads a
    few cached numbers), then Command.  (``_board_action_ok`` of each action, inlined: this runs for every die
    colour and value met in A2.)"""
    comp = s.comp
    dmg = pos.dmg
    full = comp.max_action_damage
    for a, kind in _colour_checks(comp)[colour]:
        ev = value - 1 if (value > 0 and dmg[a] >= full) else value
        if kind == ACT_COMMAND:
            if _command_ok(s, p, colour, ev, pos.top[a], pos):
                return True
        elif ev >= 1:
            if kind == ACT_DISCOVER:
                if ev >= pos.disc_min:
                    return True
            elif kind == ACT_REPAIR:
                if pos.any_damage or _repair_target_exists(s, a):
                    return True
            elif ev >= pos.destroy_min:        # ACT_DESTROY
                return True
    return False


def _mission_use(s: State, p: int, colour: int, res_delta: int, pos: _Position, debris_delta: int = 0) -> bool:
    """Some activation Mission card of ``colour`` in Space is usable (a die of value 1 or more)."""
    costs = s.comp.mission_cost
    for card in pos.act_cards[colour]:
        if _has_access(s, p, card) and _can_pay(s, p, costs[card], res_delta, debris_delta):
            return True
    return False


# Buffer fields left out of the memo key: the registers; VP and the last sequences (nothing memoized reads
# them, so the turn choice keeps the memo); which compartment holds which die, showing what (die uses depend on
# the die's colour and value only, so a die taken in A2 keeps the memo).  Which dice are in the supply is added
# to the key (a Ravager's damage-a-die effect needs one there).
_MEMO_SKIP = frozenset(("m", "vp", "vp_src", "last_seq", "die_value", "die_owner", "die_reserved"))
_MEMO_CUTS: dict[int, tuple[tuple[int, int], ...]] = {}


# The supply flags of the key come from the bytes of the die owners: the low byte of an int16 is 0xFF for
# DIE_SUPPLY (-1) and for no other owner (-3..4), and bytes.translate maps it to 1, every other byte to 0.
_LOW_BYTE = 0 if sys.byteorder == "little" else 1
_SUPPLY_FLAG = bytes(int(b == DIE_SUPPLY & 0xFF) for b in range(256))


def _memo_cut(s: State) -> tuple[tuple[int, int], ...]:
    """The (start, end) byte ranges of the buffer in the memo key (every field but those of ``_MEMO_SKIP``),
    and last the byte range of the die owners."""
    n = len(s.comp.display_costs)
    cut = _MEMO_CUTS.get(n)
    if cut is None:
        ranges: list[list[int]] = []
        views = _views(n)
        for name, (shape, start, end) in views.items():
            if name in _MEMO_SKIP:
                continue
            if ranges and ranges[-1][1] == 2 * start:
                ranges[-1][1] = 2 * end
            else:
                ranges.append([2 * start, 2 * end])
        ranges.append([2 * views["die_owner"][1], 2 * views["die_owner"][2]])
        cut = _MEMO_CUTS[n] = tuple((a, b) for a, b in ranges)
    return cut


def _memo(s: State) -> dict:
    """Results that depend on the position but not on the decision registers, kept while the position is
    unchanged (e.g. from the turn choice through A1 to the die choice when no card is played).  Only the
    current position's memo is kept: an earlier position almost never comes back."""
    if not s._memo_ok:                     # re-checked once per entry point (legal_actions, apply, ...)
        # The key: slices of one bytes copy of the buffer (cheaper than slicing the array), and the supply
        # flags of the dice.
        full = s.buf.tobytes()
        cut = _memo_cut(s)
        k = [full[a:b] for a, b in cut[:-1]]
        a, b = cut[-1]
        k.append(full[a + _LOW_BYTE:b:2].translate(_SUPPLY_FLAG))
        if s._memo_key != k:
            s._memo_key = k
            s._memo = {}
        s._memo_ok = True
    return s._memo


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


# =============================================================================================================
# Legal actions
# =============================================================================================================

def legal_actions(s: State) -> list[int]:
    """The sorted list of legal action ids for the seat to act (empty when the game is over): a fresh list,
    which the caller may change without changing the engine's answers."""
    return list(_legal_list(s))


def _legal_list(s: State) -> list[int]:
    """``legal_actions`` without the copy: the list kept for this position, which callers must not change."""
    key = s.buf.tobytes()
    if s._legal_key == key:
        return s._legal
    s._memo_ok = False
    m = s.m
    if m.item(M_GAME_OVER):                # .item(): a Python int, cheaper than a numpy scalar
        out: list[int] = []
    else:
        ph = m.item(M_PHASE)
        out = _LEGAL[ph](s)
        if ph in _TILE_SUBPHASES and _a1_effect_in_progress(s):
            out = _guarded(s, m.item(M_TURN_PLAYER), out)     # R-A2: every choice of an A1 tile effect
        out.sort()
    s._legal_key = key
    s._legal = out
    return out


_MASKS: dict[tuple[int, ...], np.ndarray] = {}


def legal_mask(s: State) -> np.ndarray:
    """The legal actions as an int8 mask (a new array).  The masks of the legal sets met are kept (the same
    sets come back all the time: the turn choice, a lone DONE, ...): a copy costs less than building one."""
    legal = _legal_list(s)
    key = tuple(legal)
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask.put(legal, 1)                 # put: half the cost of indexing with a list
        if len(_MASKS) < 2048:
            _MASKS[key] = mask
    return mask.copy()


def _guarded(s: State, p: int, candidates: list[int]) -> list[int]:
    """In A1, drop choices after which no die could be used in A2 (rules decision R-A2).  A choice is kept
    when the A1 step it leads to still leaves a die use (``_a2_still_possible``); every choice offered in A1
    passes through here, so each A1 position reached keeps at least one choice."""
    if not candidates or _a2_robust(s, p):
        return candidates
    out = []
    verdict: dict[int, bool] = {}
    for a in candidates:
        # A Mission card's slot does not change what A2 can do right after it is played: test each card once.
        if A.PLAY_MISSION <= a < A.PLAY_RAVAGER + 6:
            # Playing a card only takes it from the hand, and die uses depend on the hand through its counts
            # per colour: test each colour (and the Ravager card) once, on the position without that card.
            key = (a - A.PLAY_MISSION) // 120 if a < A.PLAY_RAVAGER else 3
            ok = verdict.get(key)
            if ok is None:
                ok = verdict[key] = _a2_possible_without_card(s, p, key)
        else:
            key = -1 - a
            ok = verdict.get(key)
            if ok is None:
                t = s.copy()
                _dispatch(t, a)
                ok = verdict[key] = _a2_still_possible(t, p)
        if ok:
            out.append(a)
    return out


def _a2_possible_without_card(s: State, p: int, colour: int) -> bool:
    """a2_possible once a Mission card of ``colour`` (3 = a Ravager card) has left p's hand."""
    arr, idx = (s.hand_rav, p) if colour == 3 else (s.hand_mc, (p, colour))
    arr[idx] -= 1
    try:
        return a2_possible(s, p)
    finally:
        arr[idx] += 1
        s._memo_ok = False


_TILE_SUBPHASES = frozenset((PH_TILE_OPTION, PH_TILE_ADJACENT, PH_TILE_DRAW, PH_TILE_ROBOT, PH_SHIP_SELECT,
                             PH_SHIP_MOVE, PH_KEEP))


def _a1_effect_in_progress(s: State) -> bool:
    """The decision in progress belongs to a tile effect resolved in A1 (not in Repair, not Command's ship,
    not a Mission card drawn in A2 or A3).  Call only in one of ``_TILE_SUBPHASES``."""
    m = s.m
    if m.item(M_TILE_RETURN) != PH_A1_TILES:
        return False
    ph = m.item(M_PHASE)
    if ph == PH_KEEP:
        return m.item(M_KEEP_RETURN) == PH_TILE_DRAW
    if ph == PH_SHIP_SELECT or ph == PH_SHIP_MOVE:
        return m.item(M_MOVE_RETURN) != PH_COMMAND_CARD
    return True


def _a2_still_possible(t: State, p: int) -> bool:
    """After an A1 step (on a copy): A1 can still end with a die usable in A2.  Out of a tile effect (back to
    the tiles left to resolve, whose DONE ends A1 at once, or in A2) that is ``a2_possible``; inside an A1 tile
    effect it is some choice of the effect that leads there (a DONE finishes the effect and changes nothing a
    die use depends on; a ship to move or an option to take must each be followed)."""
    ph = t.m.item(M_PHASE)
    if ph not in _TILE_SUBPHASES or not _a1_effect_in_progress(t):
        return a2_possible(t, p)
    choices = _LEGAL[ph](t)
    if A.DONE in choices and a2_possible(t, p):
        return True
    for a in choices:
        if a != A.DONE:
            u = t.copy()
            _dispatch(u, a)
            if _a2_still_possible(u, p):
                return True
    return False


def _legal_setup_reserve(s: State) -> list[int]:
    p = s.m.item(M_SETUP_SEAT)
    reserved = s.die_reserved.tolist()
    return [A.DONE] + [A.RESERVE_DIE + d for d, o in enumerate(s.die_owner.tolist()) if o == p and not reserved[d]]


def _legal_turn(s: State) -> list[int]:
    p = s.m.item(M_TURN_PLAYER)
    if a2_possible(s, p):
        return [A.SEQUENCE_A, A.SEQUENCE_B]
    if is_final_turn(s):
        return [A.SEQUENCE_B, A.PASS]
    return [A.SEQUENCE_B]


def _legal_a1_card(s: State) -> list[int]:
    p = s.m.item(M_TURN_PLAYER)
    empty = [k for k, code in enumerate(s.slots[p].tolist()) if code < 0]
    cands = []
    if empty:
        for card in _hand_missions(s, p):
            base = A.PLAY_MISSION + card * 6
            cands.extend([base + k for k in empty])
        if s.hand_rav.item(p) > 0:
            cands.extend([A.PLAY_RAVAGER + k for k in empty])
    return [A.DONE] + _guarded(s, p, cands)


def _pending_cells(s: State) -> list[int]:
    pend = s.m.item(M_PENDING)
    return [c for c in range(9) if pend >> c & 1]


def _legal_a1_tiles(s: State) -> list[int]:
    p = s.m.item(M_TURN_PLAYER)
    # R-A2 (with R-A3: activating a boost-side tile flips it and forfeits its 1x, which may be the die's only
    # use): every tile is judged with the choices its effect leads to
    return [A.DONE] + _guarded(s, p, [A.RESOLVE_TILE + c for c in _pending_cells(s)])


def _legal_tile_option(s: State) -> list[int]:
    return [A.TILE_OPTION, A.TILE_OPTION + 1]


def _activatable(s: State, t: int) -> bool:
    """Tiles that cards, debris and activation tiles can activate: never Advanced tiles (rulebook A1 notes)."""
    return 0 <= t < ADV_TILE0


def _legal_tile_adjacent(s: State) -> list[int]:
    p = s.m.item(M_ACTOR)
    cell = s.m.item(M_TILE_CELL)
    eff = s.m.item(M_TILE_EFFECT)
    r, c = divmod(cell, 3)
    cells = [(r - 1, c), (r + 1, c)] if eff == TE_ACT_VERTICAL else [(r, c - 1), (r, c + 1)]
    out = [A.DONE]
    for rr, cc in cells:
        if 0 <= rr < 3 and 0 <= cc < 3:
            t = s.grid.item(p, rr * 3 + cc)
            if _activatable(s, t) and s.comp.tile_effect[t] not in (TE_ACT_VERTICAL, TE_ACT_HORIZONTAL):
                out.append(A.ACTIVATE_ADJACENT + rr * 3 + cc)     # in A1: guarded by legal_actions (R-A2)
    return out


def _legal_tile_draw(s: State) -> list[int]:
    return [A.DONE] + [A.DRAW_COLOUR + c for c in range(3) if _mission_available(s, c)]


def _legal_tile_robot(s: State) -> list[int]:
    p = s.m.item(M_ACTOR)
    cands = []
    if s.robots_break.item(p) > 0:
        cands.extend(A.ROBOT_TO_WORKSTATION + c for c in range(3))
    out = [A.DONE] + [A.ROBOT_TO_BREAK_ROOM + c for c in range(3) if s.robots_ws.item(p, c) > 0]
    return out + cands          # in A1: guarded by legal_actions (R-A2)


def _legal_ship_select(s: State) -> list[int]:
    m = s.m
    p = m.item(M_ACTOR)
    rmax, rmin = m.item(M_MOVE_RANGE), m.item(M_MOVE_MIN)
    command = m.item(M_MOVE_RETURN) == PH_COMMAND_CARD
    ba = black_angel_hex(m.item(M_N_STRIPS))
    out = []
    if command and rmax == 0:
        colour = m.item(M_DIE_COLOUR)
        for h in _own_ship_hexes(s, p):
            if _can_place_at(s, h, colour):
                out.append(A.SELECT_SHIP + h)
        if (s.ships.item(p) >= 1 and s.robots_break.item(p) >= 2 and _can_place_at(s, ba, colour)
                and _occupancy_ok(s, ba, p, -1)):
            out.append(A.LAUNCH_SHIP)
        return out
    passable = _passable(s)
    for h in _own_ship_hexes(s, p):
        if _destinations(s, p, h, rmin, rmax, True, passable):
            out.append(A.SELECT_SHIP + h)
    launch = []
    if s.ships.item(p) >= 1 and s.robots_break.item(p) >= 1 and _destinations(s, p, ba, rmin, rmax, False, passable):
        launch = [A.LAUNCH_SHIP]
    if command:
        return out + launch
    out.append(A.DONE)
    return out + launch         # in A1: guarded by legal_actions (R-A2)


def _legal_ship_move(s: State) -> list[int]:
    m = s.m
    p = m.item(M_ACTOR)
    existing = not m.item(M_SHIP_LAUNCH)
    dests = _destinations(s, p, m.item(M_SHIP_HEX), m.item(M_MOVE_MIN), m.item(M_MOVE_RANGE), existing)
    return [A.MOVE_SHIP + h for h in dests]      # in A1: guarded by legal_actions (R-A2)


def _legal_a2_die(s: State) -> list[int]:
    p = s.m.item(M_TURN_PLAYER)
    return [A.SELECT_DIE + d for d in _selectable_dice(s, p)]


def _legal_a2_modify(s: State) -> list[int]:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    colour, value = m.item(M_DIE_COLOUR), m.item(M_DIE_VALUE)
    can_flip = not m.item(M_DIE_BOUGHT) and not m.item(M_DIE_FLIPPED) and s.debris.item(p) >= 1
    boosts = _die_boosts(s, p)
    cache: dict = {}
    out = list(_die_uses(s, p, colour, value))
    if can_flip and _die_reachable(s, p, colour, FLIP[value], False, boosts, cache, debris_delta=-1):
        out.append(A.FLIP_DIE)
    for i, (cell, eff, bc) in enumerate(boosts):
        if bc != colour:
            continue
        rest = boosts[:i] + boosts[i + 1:]
        if eff == BE_SET_THREE:
            ok = _die_reachable(s, p, colour, 3, can_flip, rest, cache)
        else:
            ok = any(_die_reachable(s, p, c2, value, can_flip, rest, cache) for c2 in range(3) if c2 != colour)
        if ok:
            out.append(A.USE_BOOST + cell)
    return out


def _legal_die_colour(s: State) -> list[int]:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    colour, value = m.item(M_DIE_COLOUR), m.item(M_DIE_VALUE)
    can_flip = not m.item(M_DIE_BOUGHT) and not m.item(M_DIE_FLIPPED) and s.debris.item(p) >= 1
    boosts = _die_boosts(s, p)
    cache: dict = {}
    return [A.SET_DIE_COLOUR + c for c in range(3)
            if c != colour and _die_reachable(s, p, c, value, can_flip, boosts, cache)]


def _legal_action_boost(s: State) -> list[int]:
    p = s.m.item(M_TURN_PLAYER)
    a = s.m.item(M_ACTION)
    return [A.DONE] + [A.USE_BOOST + cell for cell in _boost_cells(s, p, BE_VP_ON_ACTION)
                       if s.comp.tile_boost_arg[s.grid.item(p, cell)] == a]


def _legal_ravager_discard(s: State) -> list[int]:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    a = m.item(M_ACTION)
    cards = _hand_missions(s, p)
    ev = _effective(s, a, m.item(M_DIE_VALUE))
    colour = m.item(M_DIE_COLOUR)
    if s.comp.action_kind[a] == ACT_COMMAND and ev == 0 and s.hand_mc.item(p, colour) == 1:
        cards = [c for c in cards if c // 20 != colour]   # keep the card a star die must place
    return [A.DISCARD_MISSION + c for c in cards]


def _legal_discover(s: State) -> list[int]:
    m = s.m
    rem = m.item(M_VALUE) - m.item(M_DONE)
    out = [A.DONE] if m.item(M_DONE) > 0 else []
    costs = s.comp.display_costs
    for i, t in enumerate(s.display.tolist()):
        if t >= 0 and costs[i] <= rem:
            out.append(A.TAKE_TECH + i)
    if rem >= s.comp.advanced_cost:
        for k, t in enumerate(s.adv_slots.tolist()):
            if t >= 0:
                out.append(A.TAKE_ADVANCED + k)
    return out


def _legal_inject(s: State) -> list[int]:
    t = s.m.item(M_TAKEN_TILE)
    if t >= ADV_TILE0:
        return [A.INJECT + 0, A.INJECT + 3]      # the two black arrows at the corner (rules-notes C11)
    return [A.INJECT + k for k in range(6)]


def _legal_advanced_space(s: State) -> list[int]:
    p = s.m.item(M_ACTOR)
    return [A.ADVANCED_SPACE + k for k in range(3) if s.adv_space.item(p, k) < 0]


def _legal_repair(s: State) -> list[int]:
    m = s.m
    out = [A.DONE] if m.item(M_DONE) > 0 else []
    out.extend([A.REPAIR_ACTION + a for a, k in enumerate(s.dmg.tolist()) if k > 0])
    owners = s.die_owner.tolist()
    damaged = s.die_damaged.tolist()
    for c in range(3):
        if any(owners[d] == DIE_SUPPLY and damaged[d] for d in range(6 * c, 6 * c + 6)):
            out.append(A.REPAIR_DIE + c)
    return out


def _legal_debris(s: State) -> list[int]:
    p = s.m.item(M_ACTOR)
    out = [A.DEBRIS_TO_STORAGE]
    debris = s.tile_debris
    for cell, t in enumerate(s.grid[p].tolist()):
        if _activatable(s, t) and not debris[t]:
            out.append(A.DEBRIS_TO_TILE + cell)
    return out


def _legal_destroy(s: State) -> list[int]:
    m = s.m
    rem = m.item(M_VALUE) - m.item(M_DONE)
    out = [A.DONE] if m.item(M_DONE) > 0 else []
    out.extend([A.DESTROY + a for a, k in enumerate(s.rav_count.tolist()) if 1 <= k <= rem])
    return out


def _legal_command_card(s: State) -> list[int]:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    h = m.item(M_SHIP_HEX)
    colour = m.item(M_DIE_COLOUR)
    out = [] if m.item(M_VALUE) == 0 else [A.DONE]
    if _can_place_at(s, h, colour) and s.robots_break.item(p) >= 1:
        out.extend(A.PLACE_MISSION + c for c in _hand_missions(s, p) if c // 20 == colour)
    return out


def _legal_mission(s: State) -> list[int]:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    card = m.item(M_MISSION)
    out = [A.DONE] if m.item(M_DONE) > 0 else []
    if m.item(M_DONE) < m.item(M_VALUE) and _can_pay(s, p, s.comp.mission_cost[card]):
        out.append(A.ACTIVATE)
    return out


def _legal_pay(s: State) -> list[int]:
    m = s.m
    p = m.item(M_PAY_SEAT)
    if m.item(M_PAY_TECH) > 0:
        out = [A.SPEND_TECH + c for c in range(9) if 0 <= s.grid[p, c] < ADV_TILE0]
        if np.any(s.tile_where[:ADV_TILE0] == TL_EJECTED + p):
            out.append(A.SPEND_EJECTED_TECH)
        return out
    return [A.SPEND_MISSION + c for c in _hand_missions(s, p)]


def _legal_owner(s: State) -> list[int]:
    p = s.m.item(M_OWNER)
    card = s.m.item(M_MISSION)
    if _can_pay(s, p, s.comp.mission_cost[card]):
        return [A.DONE, A.ACTIVATE]
    return [A.DONE]


def _legal_keep(s: State) -> list[int]:
    return [A.KEEP_MISSION + int(c) for c in s.drawn if c >= 0]


def _legal_hand_limit(s: State) -> list[int]:
    p = s.m.item(M_TURN_PLAYER)
    return [A.DISCARD_MISSION + c for c in _hand_missions(s, p)]


def _legal_b_reserve(s: State) -> list[int]:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    free = m.item(M_B_FREE_COLOUR)
    reserved = s.die_reserved.tolist()
    own = [d for d, o in enumerate(s.die_owner.tolist()) if o == p and not reserved[d]]
    if free >= 0:
        return [A.RESERVE_DIE + d for d in own if d // 6 == free]
    out = [A.DONE]
    if not m.item(M_B_PAID) and s.res.item(p) >= 1:
        out.extend(A.RESERVE_DIE + d for d in own)
    for cell in _boost_cells(s, p, BE_FREE_RESERVE):
        c = s.comp.tile_boost_arg[s.grid.item(p, cell)]
        if any(d // 6 == c for d in own):
            out.append(A.USE_BOOST + cell)
    return out


def _legal_game_over(s: State) -> list[int]:
    return []


_LEGAL = {
    PH_SETUP_RESERVE: _legal_setup_reserve, PH_TURN: _legal_turn, PH_A1_CARD: _legal_a1_card,
    PH_A1_TILES: _legal_a1_tiles, PH_TILE_OPTION: _legal_tile_option, PH_TILE_ADJACENT: _legal_tile_adjacent,
    PH_TILE_DRAW: _legal_tile_draw, PH_TILE_ROBOT: _legal_tile_robot, PH_SHIP_SELECT: _legal_ship_select,
    PH_SHIP_MOVE: _legal_ship_move, PH_A2_DIE: _legal_a2_die, PH_A2_MODIFY: _legal_a2_modify,
    PH_DIE_COLOUR: _legal_die_colour, PH_ACTION_BOOST: _legal_action_boost,
    PH_RAVAGER_DISCARD: _legal_ravager_discard, PH_DISCOVER: _legal_discover, PH_INJECT: _legal_inject,
    PH_ADVANCED_SPACE: _legal_advanced_space, PH_REPAIR: _legal_repair, PH_DEBRIS: _legal_debris,
    PH_DESTROY: _legal_destroy, PH_COMMAND_CARD: _legal_command_card, PH_MISSION: _legal_mission,
    PH_PAY: _legal_pay, PH_OWNER: _legal_owner, PH_KEEP: _legal_keep, PH_HAND_LIMIT: _legal_hand_limit,
    PH_B_RESERVE: _legal_b_reserve, PH_GAME_OVER: _legal_game_over,
}
_LEGAL = [_LEGAL[i] for i in range(len(PHASE_NAMES))]


# =============================================================================================================
# Applying actions
# =============================================================================================================

def apply(s: State, action: int) -> None:
    """Apply a legal action; an illegal one raises IllegalActionError and changes nothing."""
    if s.m.item(M_GAME_OVER):
        raise IllegalActionError(f"the game is over; action {action} cannot be applied")
    if type(action) is not int:            # a plain int (the usual case) needs neither check nor conversion
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"an action must be an integer id, got {action!r}")
        action = int(action)
    legal = _legal_list(s)
    if action not in legal:
        what = A.action_to_string(action) if 0 <= action < A.NUM_ACTIONS else "out of range"
        shown = ", ".join(A.action_to_string(a) for a in legal[:8]) + (" ..." if len(legal) > 8 else "")
        raise IllegalActionError(
            f"action {action} ({what}) is not legal for {seat_name(s, s.actor)} in phase "
            f"{PHASE_NAMES[s.phase]}; legal: {shown}")
    if s.log is not None:
        s.log.append(f"[{seat_name(s, s.actor)}] {A.action_to_string(action)}")
    _dispatch(s, action)
    m = s.m
    v = m.item(M_DECISIONS)                # m[M_DECISIONS] += 1 in two numpy calls (the in-place form at the bound)
    if v < 32767:
        m[M_DECISIONS] = v + 1
    else:
        m[M_DECISIONS] += 1


def apply_unchecked(s: State, action: int) -> None:
    """Apply an action known to be legal (e.g. taken from ``legal_actions``) without re-checking."""
    if s.log is not None:
        s.log.append(f"[{seat_name(s, s.actor)}] {A.action_to_string(action)}")
    _dispatch(s, action)
    m = s.m
    v = m.item(M_DECISIONS)
    if v < 32767:
        m[M_DECISIONS] = v + 1
    else:
        m[M_DECISIONS] += 1


def _dispatch(s: State, action: int) -> None:
    s._legal_key = None
    s._memo_ok = False
    _APPLY[s.m.item(M_PHASE)](s, action)


# --- setup and turn ------------------------------------------------------------------------------------

def _do_setup_reserve(s: State, a: int) -> None:
    p = s.m.item(M_SETUP_SEAT)
    if a != A.DONE:
        d = a - A.RESERVE_DIE
        s.die_reserved[d] = 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} reserves a {COLOURS[d // 6]} {s.die_value.item(d)} (player aid)")
    _next_setup_reserve(s, p + 1)


def _do_turn(s: State, a: int) -> None:
    p = s.m.item(M_TURN_PLAYER)
    if a == A.SEQUENCE_A:
        s.last_seq[p] = SEQ_A
        s.m[M_PHASE] = PH_A1_CARD
    elif a == A.SEQUENCE_B:
        s.last_seq[p] = SEQ_B
        _sequence_b(s, p)
    else:  # PASS
        s.last_seq[p] = SEQ_B
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} passes the final turn")
        _end_turn(s)


# --- A1 -----------------------------------------------------------------------------------------------------

def _line_cells(slot: int) -> list[int]:
    if slot < 3:
        return [slot * 3 + c for c in range(3)]
    k = slot - 3
    return [r * 3 + k for r in range(3)]


def _do_a1_card(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    if a == A.DONE:
        _enter_a2(s)
        return
    if a >= A.PLAY_RAVAGER:
        slot = a - A.PLAY_RAVAGER
        r = _lowest_hand_ravager(s, p)
        s.rav_where[r] = RV_SLOT + p
        s.hand_rav[p] -= 1
        s.slots[p, slot] = RAVAGER_SLOT + r
        colour = -1
    else:
        card, slot = divmod(a - A.PLAY_MISSION, 6)
        s.mc_where[card] = MC_SLOT + p
        s.hand_mc[p, card // 20] -= 1
        s.slots[p, slot] = card
        colour = card // 20
    pend = 0
    comp = s.comp
    grid = s.grid[p].tolist()
    for cell in _line_cells(slot):
        t = grid[cell]
        if _activatable(s, t) and (colour < 0 or comp.tile_colour[t] == colour):
            pend |= 1 << cell
    m[M_A1_SLOT] = slot
    m[M_A1_COLOUR] = colour
    m[M_PENDING] = pend
    if pend:
        m[M_PHASE] = PH_A1_TILES
    else:
        _enter_a2(s)


def _do_a1_tiles(s: State, a: int) -> None:
    m = s.m
    if a == A.DONE:
        m[M_PENDING] = 0
        _enter_a2(s)
        return
    cell = a - A.RESOLVE_TILE
    m[M_PENDING] = m.item(M_PENDING) & ~(1 << cell)
    _start_tile(s, cell, PH_A1_TILES, False)


def _after_a1_tile(s: State) -> None:
    if s.m.item(M_PENDING):
        s.m[M_PHASE] = PH_A1_TILES
    else:
        _enter_a2(s)


# --- tile effects -----------------------------------------------------------------------------------------

def _start_tile(s: State, cell: int, ret: int, adjacent: bool) -> None:
    """Resolve the tile in ``cell`` (activated by a card, debris or an activation tile)."""
    m = s.m
    p = m.item(M_ACTOR)
    t = s.grid.item(p, cell)
    if s.tile_boost.item(t):
        s.tile_boost[t] = 0      # ADVANCED RULES: flipping early makes a boost tile activatable (forfeits 1x)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} flips tile {t} to its standard side")
    m[M_TILE_CELL] = cell
    m[M_TILE_RETURN] = ret
    m[M_TILE_ADJACENT] = int(adjacent)
    eff = s.comp.tile_effect[t]
    if eff == TE_OR:
        m[M_PHASE] = PH_TILE_OPTION
        return
    _run_tile_effect(s, eff)


def _run_tile_effect(s: State, eff: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    m[M_TILE_EFFECT] = eff
    if eff == TE_VP:
        gain_vp(s, p, 1, SRC_TILES, "Technology tile")
    elif eff == TE_SHIP:
        s.ships[p] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a ship (tile)")
    elif eff == TE_RESOURCE:
        s.res[p] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a resource (tile)")
    elif eff == TE_DEBRIS:
        s.debris[p] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a debris (tile)")
    elif eff == TE_ROBOT:
        _take_robots(s, p, 1)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} takes a robot (tile)")
    elif eff == TE_MOVE_SHIP:
        m[M_MOVE_RANGE] = 2
        m[M_MOVE_MIN] = 0
        m[M_MOVE_RETURN] = PH_TILE_OPTION     # marker: a tile's move, not Command
        m[M_PHASE] = PH_SHIP_SELECT
        return
    elif eff == TE_MOVE_ROBOT:
        m[M_PHASE] = PH_TILE_ROBOT
        return
    elif eff in (TE_ACT_VERTICAL, TE_ACT_HORIZONTAL):
        m[M_PHASE] = PH_TILE_ADJACENT
        return
    elif eff == TE_DRAW_MISSION:
        m[M_PHASE] = PH_TILE_DRAW
        return
    _finish_tile(s)


def _finish_tile(s: State) -> None:
    ret = s.m.item(M_TILE_RETURN)
    s.m[M_TILE_EFFECT] = -1
    if ret == PH_A1_TILES:
        _after_a1_tile(s)
    else:
        _continue_repair(s)


def _do_tile_option(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    t = s.grid.item(p, m.item(M_TILE_CELL))
    _run_tile_effect(s, s.comp.tile_options[t][a - A.TILE_OPTION])


def _do_tile_adjacent(s: State, a: int) -> None:
    if a == A.DONE:
        _finish_tile(s)
        return
    _start_tile(s, a - A.ACTIVATE_ADJACENT, s.m.item(M_TILE_RETURN), True)


def _do_tile_draw(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    if a == A.DONE:
        _finish_tile(s)
        return
    c = a - A.DRAW_COLOUR
    if m.item(M_ADVANCED):
        _draw_two(s, p, c, PH_TILE_DRAW)      # advanced rules: draw 2, keep 1
        return
    card = _draw_mission(s, c)
    if card >= 0:
        _to_hand(s, p, card)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} draws a {COLOURS[c]} Mission card (tile)")
    _finish_tile(s)


def _do_tile_robot(s: State, a: int) -> None:
    p = s.m.item(M_ACTOR)
    if a >= A.ROBOT_TO_BREAK_ROOM and a < A.ROBOT_TO_BREAK_ROOM + 3:
        c = a - A.ROBOT_TO_BREAK_ROOM
        s.robots_ws[p, c] -= 1
        s.robots_break[p] += 1
    elif a != A.DONE:
        c = a - A.ROBOT_TO_WORKSTATION
        s.robots_break[p] -= 1
        s.robots_ws[p, c] += 1
        _remove_neutral_robot(s, c)
    _finish_tile(s)


def _remove_neutral_robot(s: State, c: int) -> None:
    """2-PLAYER GAME: a robot added to a workstation removes the neutral robot there from the game."""
    if s.m.item(M_N_PLAYERS) == 2 and s.robots_ws.item(BOT, c) > 0:
        s.robots_ws[BOT, c] = 0
        if s.log is not None:
            _log(s, f"the neutral robot leaves the {COLOURS[c]} workstation")


# --- ships (Command step 1 and the move-ship tile) --------------------------------------------------------

def _do_ship_select(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    if a == A.DONE:
        _finish_tile(s)
        return
    ba = black_angel_hex(m.item(M_N_STRIPS))
    if a == A.LAUNCH_SHIP:
        s.ships[p] -= 1
        s.robots_break[p] -= 1          # the pilot
        m[M_SHIP_LAUNCH] = 1
        m[M_SHIP_HEX] = ba
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} launches a ship")
    else:
        m[M_SHIP_LAUNCH] = 0
        m[M_SHIP_HEX] = a - A.SELECT_SHIP
    if m.item(M_MOVE_RANGE) == 0:            # a star die: no movement (Command step 1)
        if m.item(M_SHIP_LAUNCH):
            _add_ship(s, ba, p)
            m[M_SHIP_LAUNCH] = 0
        m[M_PHASE] = PH_COMMAND_CARD
        return
    m[M_PHASE] = PH_SHIP_MOVE


def _do_ship_move(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    dest = a - A.MOVE_SHIP
    if not m.item(M_SHIP_LAUNCH):
        _remove_ship(s, m.item(M_SHIP_HEX), p)
    _add_ship(s, dest, p)
    m[M_SHIP_LAUNCH] = 0
    m[M_SHIP_HEX] = dest
    if m.item(M_MOVE_RETURN) == PH_COMMAND_CARD:
        m[M_PHASE] = PH_COMMAND_CARD
    else:
        _finish_tile(s)


# --- A2: the die -------------------------------------------------------------------------------------------

def _enter_a2(s: State) -> None:
    s.m[M_PHASE] = PH_A2_DIE
    s.m[M_ACTOR] = s.m.item(M_TURN_PLAYER)


def _do_a2_die(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    d = a - A.SELECT_DIE
    owner = s.die_owner.item(d)
    bought = owner != p
    if bought:
        s.res[p] -= 1
        if owner == BOT:
            if m.item(M_SOLO):
                gain_vp(s, BOT, 1, SRC_TRADE, f"{seat_name(s, p)} bought Hal's die")
            # 2 players: the resource goes to the supply (2-PLAYER GAME)
        else:
            s.res[owner] += 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} buys {seat_name(s, owner)}'s {COLOURS[d // 6]} {s.die_value.item(d)}")
    s.die_owner[d] = DIE_IN_USE
    s.die_reserved[d] = 0
    m[M_DIE] = d
    m[M_DIE_BOUGHT] = int(bought)
    m[M_DIE_COLOUR0] = d // 6
    m[M_DIE_COLOUR] = d // 6
    m[M_DIE_VALUE] = s.die_value[d]
    m[M_DIE_FLIPPED] = 0
    m[M_BOOSTS_USED] = 0
    m[M_PHASE] = PH_A2_MODIFY


def _do_a2_modify(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    if a == A.FLIP_DIE:
        s.debris[p] -= 1
        v = FLIP[m.item(M_DIE_VALUE)]
        m[M_DIE_VALUE] = v
        m[M_DIE_FLIPPED] = 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} spends a debris to flip the die to {v}")
        return
    if A.USE_BOOST <= a < A.USE_BOOST + 9:
        cell = a - A.USE_BOOST
        t = s.grid.item(p, cell)
        s.tile_boost[t] = 0
        if s.comp.tile_boost[t] == BE_SET_THREE:
            m[M_DIE_VALUE] = 3
            if s.log is not None:
                _log(s, f"{seat_name(s, p)} uses tile {t}'s 1x: the die becomes a 3")
        else:
            m[M_PHASE] = PH_DIE_COLOUR
            if s.log is not None:
                _log(s, f"{seat_name(s, p)} uses tile {t}'s 1x: change the die's colour")
        return
    if a >= A.MISSION_ACTION and a < A.MISSION_ACTION + 60:
        _start_mission(s, p, a - A.MISSION_ACTION)
        return
    # BOARD_ACTION
    act = a - A.BOARD_ACTION
    m[M_ACTION] = act
    if any(s.comp.tile_boost_arg[s.grid.item(p, c)] == act for c in _boost_cells(s, p, BE_VP_ON_ACTION)):
        m[M_PHASE] = PH_ACTION_BOOST
        return
    _resolve_ravager_effect(s)


def _do_die_colour(s: State, a: int) -> None:
    s.m[M_DIE_COLOUR] = a - A.SET_DIE_COLOUR
    s.m[M_PHASE] = PH_A2_MODIFY


def _do_action_boost(s: State, a: int) -> None:
    p = s.m.item(M_TURN_PLAYER)
    if a == A.DONE:
        _resolve_ravager_effect(s)
        return
    t = s.grid.item(p, a - A.USE_BOOST)
    s.tile_boost[t] = 0
    gain_vp(s, p, 2, SRC_BOOST, f"tile {t}'s 1x on action {s.m.item(M_ACTION) + 1}")
    if len(_legal_action_boost(s)) == 1:
        _resolve_ravager_effect(s)


def _resolve_ravager_effect(s: State) -> None:
    """Rulebook, Ravager Cards: resolve the topmost card's permanent effect before the action; if it cannot
    be resolved, perform the action anyway and lose 1 VP."""
    m = s.m
    p = m.item(M_TURN_PLAYER)
    act = m.item(M_ACTION)
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
                m[M_PHASE] = PH_RAVAGER_DISCARD
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
    card = a - A.DISCARD_MISSION
    _discard_mission(s, card)
    if s.log is not None:
        _log(s, f"{seat_name(s, s.m.item(M_TURN_PLAYER))} discards Mission card {card} (Ravager effect)")
    _start_board_action(s)


def _start_board_action(s: State) -> None:
    m = s.m
    act = m.item(M_ACTION)
    ev = _effective(s, act, m.item(M_DIE_VALUE))
    m[M_VALUE] = ev
    m[M_DONE] = 0
    kind = s.comp.action_kind[act]
    if kind == ACT_DISCOVER:
        m[M_PHASE] = PH_DISCOVER
    elif kind == ACT_REPAIR:
        m[M_PHASE] = PH_REPAIR
        if len(_legal_repair(s)) == 0:       # the Ravager effect may have been the only damage source: none
            _a3(s)
    elif kind == ACT_DESTROY:
        m[M_PHASE] = PH_DESTROY
    else:
        m[M_MOVE_RANGE] = ev
        m[M_MOVE_MIN] = 1 if ev >= 1 else 0
        m[M_MOVE_RETURN] = PH_COMMAND_CARD
        m[M_PHASE] = PH_SHIP_SELECT


# --- Discover ---------------------------------------------------------------------------------------------

def _do_discover(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    if a == A.DONE:
        _a3(s)
        return
    if a < A.TAKE_ADVANCED:
        pos = a - A.TAKE_TECH
        t = s.display.item(pos)
        s.display[pos] = -1                   # not replaced; the others do not move (Discover notes)
        m[M_DONE] += s.comp.display_costs[pos]
    else:
        slot = a - A.TAKE_ADVANCED
        t = s.adv_slots.item(slot)
        _refill_adv_slot(s, slot)             # replaced at once from the deck (Discover notes)
        m[M_DONE] += s.comp.advanced_cost
    s.tile_where[t] = TL_TAKEN + p
    m[M_TAKEN_TILE] = t
    m[M_PHASE] = PH_INJECT
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} takes tile {t}")


def _do_inject(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    t = m.item(M_TAKEN_TILE)
    arrow = a - A.INJECT
    if arrow < 3:
        cells = [arrow * 3 + c for c in range(3)]          # enters at the left, pushes right
    else:
        k = arrow - 3
        cells = [r * 3 + k for r in range(3)]              # enters at the bottom, pushes up
    g = s.grid[p]
    gap = -1
    for i, c in enumerate(cells):
        if g[c] < 0:
            gap = i
            break
    ejected = -1
    if gap < 0:
        ejected = int(g[cells[2]])
        gap = 2
    for i in range(gap, 0, -1):
        g[cells[i]] = g[cells[i - 1]]
    g[cells[0]] = t
    s.tile_where[t] = TL_GRID + p
    if m.item(M_ADVANCED) and t < 48:
        s.tile_boost[t] = 1                    # ADVANCED RULES: injected boost side up
    m[M_TAKEN_TILE] = -1
    if ejected >= 0:
        _eject_tile(s, p, ejected)
        if m.item(M_PHASE) == PH_ADVANCED_SPACE:
            return
    _continue_discover(s)


def _eject_tile(s: State, p: int, t: int) -> None:
    if s.tile_debris.item(t):
        s.tile_debris[t] = 0
        s.debris[p] += 1                       # Discover note: reclaim the debris
    if t >= ADV_TILE0:
        if any(s.adv_space.item(p, k) < 0 for k in range(3)):
            s.m[M_EJECTED_ADV] = t
            s.m[M_PHASE] = PH_ADVANCED_SPACE
            s.tile_where[t] = TL_EJECTED + p
            return
        s.tile_where[t] = TL_EJECTED + p       # ejected after the 3 spaces are full: capped at 4 VP
    else:
        s.tile_where[t] = TL_EJECTED + p
        s.tile_boost[t] = 0
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} ejects tile {t}")


def _do_advanced_space(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    k = a - A.ADVANCED_SPACE
    t = m.item(M_EJECTED_ADV)
    s.adv_space[p, k] = t
    s.tile_where[t] = TL_ADV_SPACE + p
    m[M_EJECTED_ADV] = -1
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} places ejected Advanced tile {t} beside the {COLOURS[k]} cards")
    _continue_discover(s)


def _continue_discover(s: State) -> None:
    m = s.m
    rem = m.item(M_VALUE) - m.item(M_DONE)
    if rem >= 1 and _discover_has_option(s, rem):
        m[M_PHASE] = PH_DISCOVER
    else:
        _a3(s)


# --- Repair -------------------------------------------------------------------------------------------------

def _do_repair(s: State, a: int) -> None:
    m = s.m
    if a == A.DONE:
        _a3(s)
        return
    if a < A.REPAIR_DIE:
        act = a - A.REPAIR_ACTION
        s.dmg[act] -= 1                        # the cube that damages the action goes first
    else:
        c = a - A.REPAIR_DIE
        for d in range(6 * c, 6 * c + 6):
            if s.die_owner.item(d) == DIE_SUPPLY and s.die_damaged.item(d):
                s.die_damaged[d] = 0
                break
    m[M_DONE] += 1
    m[M_PHASE] = PH_DEBRIS


def _do_debris(s: State, a: int) -> None:
    p = s.m.item(M_ACTOR)
    if a == A.DEBRIS_TO_STORAGE:
        s.debris[p] += 1
        _continue_repair(s)
        return
    cell = a - A.DEBRIS_TO_TILE
    t = s.grid.item(p, cell)
    s.tile_debris[t] = 1
    _start_tile(s, cell, PH_REPAIR, False)


def _continue_repair(s: State) -> None:
    m = s.m
    if m.item(M_DONE) < m.item(M_VALUE) and len(_legal_repair(s)) > 1:
        m[M_PHASE] = PH_REPAIR
    else:
        _a3(s)


# --- Destroy --------------------------------------------------------------------------------------------

def _do_destroy(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    if a == A.DONE:
        _a3(s)
        return
    loc = a - A.DESTROY
    k = s.rav_count.item(loc)
    for i in range(k):
        r = s.rav_loc.item(loc, i)
        s.rav_loc[loc, i] = -1
        s.rav_where[r] = RV_HAND + p
        for seat in range(5):
            n = s.rav_robots.item(r, seat)
            if n:
                s.rav_robots[r, seat] = 0
                s.robots_break[seat] += n      # liberated robots go back to the break room
    s.rav_count[loc] = 0
    s.hand_rav[p] += k
    m[M_DONE] += k
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} destroys {k} Ravager card(s) at location {loc + 1}")
    if len(_legal_destroy(s)) > 1:
        m[M_PHASE] = PH_DESTROY
    else:
        _a3(s)


# --- Command step 2-4 ---------------------------------------------------------------------------------------

def _do_command_card(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    if a == A.DONE:
        _a3(s)
        return
    card = a - A.PLACE_MISSION
    h = m.item(M_SHIP_HEX)
    place_mission(s, p, card, h)
    _a3(s)


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


# --- activation missions ------------------------------------------------------------------------------

def _start_mission(s: State, p: int, card: int) -> None:
    m = s.m
    m[M_MISSION] = card
    m[M_ACTION] = -1
    m[M_VALUE] = m.item(M_DIE_VALUE)
    m[M_DONE] = 0
    m[M_PHASE] = PH_MISSION
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} uses Mission card {card} with a {COLOURS[m.item(M_DIE_COLOUR)]} "
                f"{m.item(M_DIE_VALUE)}")


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
    m = s.m
    m[M_PAY_TECH] = cost[G_TECH]
    m[M_PAY_MISSION] = cost[G_MISSION]
    m[M_PAY_SEAT] = p
    m[M_PAY_RETURN] = ret
    if cost[G_TECH] or cost[G_MISSION]:
        m[M_ACTOR] = p
        m[M_PHASE] = PH_PAY
        return
    _activation_gain(s)


def _activation_gain(s: State) -> None:
    m = s.m
    p = m.item(M_PAY_SEAT)
    card = m.item(M_MISSION)
    gain_goods(s, p, s.comp.mission_gain[card], SRC_ACTIVATION, f"activation of Mission card {card}")
    if m.item(M_PAY_RETURN) == PH_MISSION:
        m[M_DONE] += 1
        if m.item(M_DONE) >= m.item(M_VALUE) or not _can_pay(s, m.item(M_TURN_PLAYER), s.comp.mission_cost[card]):
            _finish_mission(s)
        else:
            m[M_PHASE] = PH_MISSION
    else:
        _after_owner(s)


def _do_mission(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    if a == A.DONE:
        _finish_mission(s)
        return
    _activate(s, p, m.item(M_MISSION), PH_MISSION)


def _do_pay(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_PAY_SEAT)
    if A.SPEND_TECH <= a < A.SPEND_TECH + 9:
        cell = a - A.SPEND_TECH
        t = s.grid.item(p, cell)
        s.grid[p, cell] = -1
        _spend_tile(s, p, t)
        m[M_PAY_TECH] -= 1
    elif a == A.SPEND_EJECTED_TECH:
        t = int(np.flatnonzero(s.tile_where[:ADV_TILE0] == TL_EJECTED + p)[0])
        _spend_tile(s, p, t)
        m[M_PAY_TECH] -= 1
    else:
        card = a - A.SPEND_MISSION
        _discard_mission(s, card)
        m[M_PAY_MISSION] -= 1
    if m.item(M_PAY_TECH) == 0 and m.item(M_PAY_MISSION) == 0:
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
    m = s.m
    p = m.item(M_TURN_PLAYER)
    card = m.item(M_MISSION)
    owner = s.mc_owner.item(card)
    if owner != p:
        if owner == BOT:
            if m.item(M_SOLO):
                hal_free_activation(s, card)
        else:
            m[M_OWNER] = owner
            m[M_ACTOR] = owner
            m[M_PHASE] = PH_OWNER
            return
    _a3(s)


def _do_owner(s: State, a: int) -> None:
    m = s.m
    owner = m.item(M_OWNER)
    if a == A.DONE:
        _after_owner(s)
        return
    _activate(s, owner, m.item(M_MISSION), PH_OWNER)


def _after_owner(s: State) -> None:
    m = s.m
    m[M_OWNER] = -1
    m[M_ACTOR] = m.item(M_TURN_PLAYER)
    _a3(s)


# --- A3 ---------------------------------------------------------------------------------------------------

def _a3(s: State) -> None:
    """Draw a card of the die's (original) colour, return the die to its supply; hand limit 6."""
    m = s.m
    p = m.item(M_TURN_PLAYER)
    m[M_ACTOR] = p
    d = m.item(M_DIE)
    s.die_owner[d] = DIE_SUPPLY
    s.die_reserved[d] = 0
    s.die_value[d] = 0
    c = m.item(M_DIE_COLOUR0)
    m[M_DIE] = -1
    if m.item(M_ADVANCED):
        _draw_two(s, p, c, PH_HAND_LIMIT)
        return
    card = _draw_mission(s, c)
    if card >= 0:
        _to_hand(s, p, card)
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} draws a {COLOURS[c]} Mission card")
    _hand_limit(s)


def _draw_two(s: State, p: int, c: int, ret: int) -> None:
    """ADVANCED RULES: draw two cards of the colour, keep one, discard the other."""
    m = s.m
    cards = []
    for _ in range(2):
        card = _draw_mission(s, c)
        if card >= 0:
            cards.append(card)
            s.mc_where[card] = MC_DRAWN + p
    m[M_KEEP_RETURN] = ret
    if len(cards) == 2:
        s.drawn[0], s.drawn[1] = cards
        m[M_ACTOR] = p
        m[M_PHASE] = PH_KEEP
        return
    if cards:
        _to_hand(s, p, cards[0])
    _after_keep(s)


def _do_keep(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_ACTOR)
    keep = a - A.KEEP_MISSION
    for c in s.drawn.tolist():
        if c == keep:
            _to_hand(s, p, c)
        else:
            _discard_mission(s, c)
    s.drawn[:] = -1
    if s.log is not None:
        _log(s, f"{seat_name(s, p)} keeps a {COLOURS[keep // 20]} Mission card")
    _after_keep(s)


def _after_keep(s: State) -> None:
    if s.m.item(M_KEEP_RETURN) == PH_TILE_DRAW:
        s.m[M_KEEP_RETURN] = -1
        _finish_tile(s)
    else:
        s.m[M_KEEP_RETURN] = -1
        _hand_limit(s)


def _hand_limit(s: State) -> None:
    p = s.m.item(M_TURN_PLAYER)
    if _hand_total(s, p) > s.comp.hand_limit:
        s.m[M_PHASE] = PH_HAND_LIMIT
        return
    _end_turn(s)


def _do_hand_limit(s: State, a: int) -> None:
    card = a - A.DISCARD_MISSION
    _discard_mission(s, card)
    if s.log is not None:
        _log(s, f"{seat_name(s, s.m.item(M_TURN_PLAYER))} discards Mission card {card} (hand limit)")
    _hand_limit(s)


# --- Sequence B ------------------------------------------------------------------------------------------

def _sequence_b(s: State, p: int) -> None:
    """B.1 Reroll: lose the value of the dice still in the compartment, roll one die per workstation robot
    (damaged dice cost 1 VP each); then the optional reservation."""
    total = 0
    values = s.die_value.tolist()                  # lists: numpy scalar reads are slow
    owners = s.die_owner.tolist()
    d = -1
    for _ in range(owners.count(p)):               # p's dice (list scan in C)
        d = owners.index(p, d + 1)
        total += values[d]
        s.die_owner[d] = DIE_SUPPLY
        s.die_reserved[d] = 0
        s.die_value[d] = 0
    gain_vp(s, p, -total, SRC_PENALTY, "dice left in the compartment at Sequence B")
    _roll_robots(s, p, penalise=True)
    if s.m.item(M_N_PLAYERS) == 2:
        _neutral_dice(s)
    s.m[M_B_PAID] = 0
    s.m[M_B_FREE_COLOUR] = -1
    if len(_legal_b_reserve(s)) > 1:
        s.m[M_PHASE] = PH_B_RESERVE
        return
    _finish_b(s)


def _neutral_dice(s: State) -> None:
    """2-PLAYER GAME: the neutral's 1-3 dice stay, its stars return; then a die of each colour where it has a
    workstation robot and no die of that colour."""
    values = s.die_value.tolist()
    for d, o in enumerate(s.die_owner.tolist()):
        if o == BOT and values[d] == 0:
            s.die_owner[d] = DIE_SUPPLY
    for c in range(3):
        if s.robots_ws.item(BOT, c) > 0 and BOT not in s.die_owner[6 * c:6 * c + 6].tolist():
            _roll_into(s, BOT, c, penalise=False)


def _do_b_reserve(s: State, a: int) -> None:
    m = s.m
    p = m.item(M_TURN_PLAYER)
    if a == A.DONE:
        _finish_b(s)
        return
    if A.USE_BOOST <= a < A.USE_BOOST + 9:
        t = s.grid.item(p, a - A.USE_BOOST)
        s.tile_boost[t] = 0
        m[M_B_FREE_COLOUR] = s.comp.tile_boost_arg[t]
        return
    d = a - A.RESERVE_DIE
    s.die_reserved[d] = 1
    if m.item(M_B_FREE_COLOUR) >= 0:
        m[M_B_FREE_COLOUR] = -1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} reserves a {COLOURS[d // 6]} {s.die_value.item(d)} (1x tile)")
    else:
        s.res[p] -= 1
        m[M_B_PAID] = 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} reserves a {COLOURS[d // 6]} {s.die_value.item(d)} for 1 resource")
    if len(_legal_b_reserve(s)) == 1:
        _finish_b(s)


def _finish_b(s: State) -> None:
    p = s.m.item(M_TURN_PLAYER)
    reset_board(s, p)
    if not s.m.item(M_END_TRIGGERED):
        advance_black_angel(s)
    else:
        _log(s, "the Black Angel advances no further (end of the game triggered)")
    _end_turn(s)


def reset_board(s: State, p: int) -> None:
    """B.2: discard the cards played around the board; debris on tiles back to storage."""
    for code in s.slots[p].tolist():
        if code >= RAVAGER_SLOT:
            s.rav_where[code - RAVAGER_SLOT] = RV_DISCARD
        elif code >= 0:
            _discard_mission(s, code)
    s.slots[p] = -1
    debris = s.tile_debris
    for t in s.grid[p].tolist():
        if t >= 0 and debris[t]:
            debris[t] = 0
            s.debris[p] += 1


def advance_black_angel(s: State) -> None:
    """B.3: advance one hex, eject strip 1 (neutralization effects), flip it to the far end, shift."""
    m = s.m
    n_strips = m.item(M_N_STRIPS)
    ba = black_angel_hex(n_strips)
    if s.hex_terrain.item(ba) == T_ASTEROID:
        for q in _ships_on(s, ba):            # ships left behind on the asteroid field are destroyed
            _ship_to_supply(s, ba, q)
            if s.log is not None:
                _log(s, f"{seat_name(s, q)}'s ship is destroyed in the asteroid field")
    nxt = ba + 5
    reached = s.hex_terrain[nxt] == T_SPES
    _log(s, "the Black Angel advances" + (" onto Spes!" if reached else ""))
    # Eject the cards of strip 1 (position 0).
    ejected = [card for card in s.hex_card[:5].tolist() if card >= 0]
    for card in ejected:
        _neutralization(s, card)
    for card in ejected:
        h = s.mc_hex.item(card)
        owner = s.mc_owner.item(card)
        s.hex_card[h] = -1
        if owner == BOT:
            s.mc_where[card] = MC_DISCARD       # Hal's cards go to the discard; his robot to the break room
            s.robots_break[BOT] += 1
            gain_vp(s, BOT, 3, SRC_HAL, f"his Mission card {card} is ejected")
        else:
            s.mc_where[card] = MC_TUCKED + owner
            s.robots_supply[owner] += 1
        s.mc_hex[card] = -1
        if owner == BOT:
            s.mc_owner[card] = -1
    hs = s.hex_ship[:5].ravel().tolist()
    for h in range(5):
        for q in hs[2 * h:2 * h + 2]:         # ships on the ejected strip return to the supply (rules-notes D5)
            if q >= 0:
                _ship_to_supply(s, h, q)
    # Flip strip 1, put it last, shift everything toward the board.
    strips = _strip_block(s)                  # strip_id, strip_face: one shift for the two
    first_id, first_face = strips[:, 0].tolist()
    last = n_strips - 1
    nh = n_strips * 5
    hexes = _hex_block(s)                     # terrain, comet, icons, card: one shift for the four
    hexes[:, :nh - 5] = hexes[:, 5:nh].copy()
    s.hex_ship[:nh - 5] = s.hex_ship[5:nh].copy()
    s.hex_ship[nh - 5:nh] = -1
    s.hex_card[nh - 5:nh] = -1
    strips[:, :last] = strips[:, 1:n_strips].copy()
    strips[:, last] = (first_id, 1 - first_face)
    hexes[:3, nh - 5:nh] = _strip_hexes(s.comp)[first_id, 1 - first_face]     # lay it: terrain, comet, icons
    where = s.mc_where.tolist()
    i = -1
    for _ in range(where.count(MC_SPACE)):    # the Mission cards in Space (list scan in C)
        i = where.index(MC_SPACE, i + 1)
        s.mc_hex[i] -= 5
    if m.item(M_SPES_POS) >= 0:
        m[M_SPES_POS] -= 1
        h = m.item(M_SPES_POS) * 5 + 2
        s.hex_terrain[h] = T_SPES
        s.hex_comet[h] = 0
        s.hex_icons[h] = 0
    if m.item(M_SPES_TOKEN_POS) == 0:
        m[M_SPES_TOKEN_POS] = -1
        m[M_SPES_POS] = last                   # the Spes tile covers the middle hex of the flipped strip
        h = last * 5 + 2
        s.hex_terrain[h] = T_SPES
        s.hex_comet[h] = 0
        s.hex_icons[h] = 0
        _log(s, "Planet Spes is in sight")
    elif m.item(M_SPES_TOKEN_POS) > 0:
        m[M_SPES_TOKEN_POS] -= 1
    if reached:
        m[M_SPES_REACHED] = 1
        _trigger_end(s, "the Black Angel reached Spes")


def _hex_block(s: State) -> np.ndarray:
    """The fields hex_terrain, hex_comet, hex_icons and hex_card (consecutive in the buffer) as one (4, hexes)
    view."""
    f = s._fields
    start, end = f["hex_terrain"][1], f["hex_card"][2]
    return s.buf[start:end].reshape(4, -1)


def _strip_block(s: State) -> np.ndarray:
    """The fields strip_id and strip_face (consecutive in the buffer) as one (2, strips) view."""
    f = s._fields
    return s.buf[f["strip_id"][1]:f["strip_face"][2]].reshape(2, -1)


_v = _views(8)
assert _v["hex_terrain"][2] == _v["hex_comet"][1] and _v["hex_comet"][2] == _v["hex_icons"][1] \
    and _v["hex_icons"][2] == _v["hex_card"][1], "_hex_block needs the four hex fields consecutive"
assert _v["strip_id"][2] == _v["strip_face"][1], "_strip_block needs strip_id and strip_face consecutive"
del _v


def _count_space(s: State, seat: int, colour: int) -> int:
    """Mission cards of ``colour`` in Space owned by ``seat``, strip 1 excluded (appendix note)."""
    k = 0
    for card in range(20 * colour, 20 * colour + 20):
        if s.mc_where.item(card) == MC_SPACE and s.mc_owner.item(card) == seat and s.mc_hex.item(card) >= 5:
            k += 1
    return k


def _count_tucked(s: State, seat: int, colour: int) -> int:
    return int(np.count_nonzero(s.mc_where[20 * colour:20 * colour + 20] == MC_TUCKED + seat))


def _neutralization(s: State, card: int) -> None:
    """Appendix, neutralization missions, resolved on ejection for the owner and each ship-holder."""
    comp = s.comp
    if comp.mission_kind[card] == MISSION_ACTIVATION:
        return
    owner = s.mc_owner.item(card)
    holders = _ships_on(s, s.mc_hex.item(card))
    kind = comp.mission_neut_kind[card]
    cause = f"neutralization of Mission card {card}"
    if kind == NEUT_FIXED:
        if owner != BOT:
            gain_goods(s, owner, comp.mission_neut_owner[card], SRC_NEUTRALIZATION, cause)
        for q in holders:
            if q == owner and not comp.mission_neut_owner_also_holder[card]:
                continue
            gain_goods(s, q, comp.mission_neut_holder[card], SRC_NEUTRALIZATION, cause)
    else:
        colour = comp.mission_neut_colour[card]
        each = comp.mission_neut_vp_each[card]
        seats = ([owner] if owner != BOT else []) + [q for q in holders if q != owner]
        for q in seats:
            k = _count_space(s, q, colour) if kind == NEUT_PER_SPACE else _count_tucked(s, q, colour)
            gain_vp(s, q, each * k, SRC_NEUTRALIZATION, cause)


_APPLY = {
    PH_SETUP_RESERVE: _do_setup_reserve, PH_TURN: _do_turn, PH_A1_CARD: _do_a1_card, PH_A1_TILES: _do_a1_tiles,
    PH_TILE_OPTION: _do_tile_option, PH_TILE_ADJACENT: _do_tile_adjacent, PH_TILE_DRAW: _do_tile_draw,
    PH_TILE_ROBOT: _do_tile_robot, PH_SHIP_SELECT: _do_ship_select, PH_SHIP_MOVE: _do_ship_move,
    PH_A2_DIE: _do_a2_die, PH_A2_MODIFY: _do_a2_modify, PH_DIE_COLOUR: _do_die_colour,
    PH_ACTION_BOOST: _do_action_boost, PH_RAVAGER_DISCARD: _do_ravager_discard, PH_DISCOVER: _do_discover,
    PH_INJECT: _do_inject, PH_ADVANCED_SPACE: _do_advanced_space, PH_REPAIR: _do_repair, PH_DEBRIS: _do_debris,
    PH_DESTROY: _do_destroy, PH_COMMAND_CARD: _do_command_card, PH_MISSION: _do_mission, PH_PAY: _do_pay,
    PH_OWNER: _do_owner, PH_KEEP: _do_keep, PH_HAND_LIMIT: _do_hand_limit, PH_B_RESERVE: _do_b_reserve,
}
_APPLY = [_APPLY.get(i) for i in range(len(PHASE_NAMES))]


# =============================================================================================================
# Results
# =============================================================================================================

def final_scores(s: State) -> list[int]:
    """Final VP of each player (the game must be over)."""
    if not s.m.item(M_GAME_OVER):
        raise ValueError("the game is not over")
    return [s.vp.item(p) for p in range(s.num_players)]


def winners(s: State) -> list[int]:
    """Seats sharing the victory (ties share it; in the solo game, [] if Hal has at least as many VP)."""
    scores = final_scores(s)
    if s.m.item(M_SOLO):
        return [0] if scores[0] > s.vp.item(BOT) else []
    best = max(scores)
    return [p for p, v in enumerate(scores) if v == best]


_state_module.use_legal_actions(_legal_list)      # State.from_dict refuses a live position with no legal action
