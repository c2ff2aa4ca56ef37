"""Setting up a game (rulebook SETUP; 2-PLAYER GAME; VARIANT - PLAYING SOLITAIRE) and the setup
reservations of the player aids.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

import dataclasses
import os

import numpy as np

from ..actions import DONE, RESERVE_DIE
from ..components import Components, default_components, load_components
from ..config import ConfigError, GameConfig
from ..constants import ADV_TILE0, COLOURS, START_TILE0, T_ASTEROID
from ..state import State, _views, buffer_size
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, DIE_ABSENT, DIE_SUPPLY, MC_DECK, M_A1_COLOUR, M_A1_SLOT, M_ACTION, M_ACTOR, M_ADVANCED, M_ADV_DECK_N,
        M_B_FREE_COLOUR, M_DIE, M_DIE_COLOUR, M_DIE_COLOUR0, M_EJECTED_ADV, M_HAL_CARD, M_HAL_DECK_N,
        M_HAND_LIMIT_RETURN, M_KEEP_RETURN, M_MISSION, M_MOVE_RETURN, M_N_PLAYERS, M_N_STRIPS, M_OWNER,
        M_PAY_RETURN, M_PAY_SEAT, M_PHASE, M_RAV_DECK_N, M_ROUND, M_SETUP_SEAT, M_SHIP_HEX, M_SOLO, M_SPES_POS,
        M_SPES_TOKEN_POS, M_TAKEN_TILE, M_TILE_CELL, M_TILE_EFFECT, M_TILE_RETURN, M_TRIGGER_ROUND, M_TURN_PLAYER,
        N_MISSIONS, N_RAVAGERS, N_SRC, OT_ADV_DECK, OT_HAL_DECK, OT_HEX_COMET, OT_HEX_ICONS, OT_HEX_TERRAIN,
        OT_MC_DECK, OT_MC_DECK_N, OT_MC_WHERE, OT_RAV_DECK, OT_RAV_WHERE, OT_STRIP_FACE, OT_STRIP_ID,
        OT_TECH_STACK, OT_TECH_STACK_N, OT_TILE_BOOST, OT_TILE_WHERE, O_DEBRIS, O_DIE_OWNER, O_DISPLAY, O_GRID,
        O_HAND_RAV, O_LAST_SEQ, O_RES, O_ROBOTS_BREAK, O_ROBOTS_SUPPLY, O_ROBOTS_WS, O_SHIPS, O_VP, O_VP_SRC,
        PH_SETUP_RESERVE, RV_BOX, RV_DECK, RV_HAND, SRC_START, TL_ADV_DECK, TL_BOX, TL_DISPLAY, TL_GRID, TL_STACK,
    )

from .core import SEQ_NONE, _log, seat_name
from .decks import _draw_mission, _pop_ravager, _pop_tech, _refill_adv_slot, _shuffled, _to_hand
from .dice import _roll_dice
from .phases import register
from .ravagers import _place_ravager
from .rounds import _start_turn


def new_game(config: GameConfig | None = None, seed: int | None = None, *, log: bool = False,
             components: Components | str | os.PathLike | None = None, **options) -> State:
    """Set up a game (rulebook SETUP; 2-PLAYER GAME; VARIANT - PLAYING SOLITAIRE).

    ``config`` may be omitted and options given as keywords (``num_players=3, advanced=True``).  ``seed``
    (a non-negative integer, or None for fresh entropy; anything else raises ValueError) seeds the state's own
    generator; (config, seed, actions) replays a game exactly.  ``components`` is loaded
    component data, or the path of a component file (as ``GameConfig.components``: the path is recorded in the
    state's config, so a saved game loads with the same file).
    """
    if config is None:
        config = GameConfig(**options)
    elif options:
        raise TypeError("give either a GameConfig or keyword options, not both")
    elif not isinstance(config, GameConfig):
        raise TypeError(f"new_game: config must be a GameConfig (or omitted, with the options as keywords: "
                        f"new_game(num_players=3)), got {type(config).__name__} {config!r}"[:300])
    if isinstance(components, (str, os.PathLike)):
        path = os.fspath(components)
        if config.components is not None and config.components != path:
            raise ConfigError(f"components {path!r} differs from the config's components {config.components!r}")
        config = dataclasses.replace(config, components=path)
        components = None
    elif components is not None and not isinstance(components, Components):
        raise ConfigError(f"components must be a component file path or loaded Components, got "
                          f"{type(components).__name__}")
    if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))
                             or seed < 0):
        raise ValueError(f"new_game: seed must be a non-negative integer or None, got {seed!r}")
    comp = components or (load_components(config.components) if config.components else default_components())
    n = config.num_players
    solo = n == 1
    buf = _blank_buffer(len(comp.display_costs))
    s = State(config, comp, buf, np.random.default_rng(seed))
    if log:                              # the log opens with the set-up, before what setup itself logs
        s.log = []
        _log(s, f"setup: {n} player(s){' (solo vs Hal, ' + config.hal_difficulty + ')' if solo else ''}, "
                f"{'advanced' if config.advanced else 'base'} rules, seed {seed}")
    _set_up(s, comp, n)
    return s


@cython.locals(n=cython.Py_ssize_t, t=cython.Py_ssize_t, n_strips=cython.Py_ssize_t, per=cython.Py_ssize_t,
               d=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t, k=cython.Py_ssize_t,
               c=cython.Py_ssize_t, p=cython.Py_ssize_t, pos=cython.Py_ssize_t, at=cython.Py_ssize_t,
               removed=cython.Py_ssize_t)
def _set_up(s: State, comp: Components, n: int) -> None:
    """SETUP steps 2-15 on the blank state ``s`` of ``n`` seats (``new_game``): every field written in the
    buffer by position (``m.r``, the offsets of ``state``), the generator drawn in the rulebook's order of the
    steps."""
    m = cython.declare(Registers, registers(s))
    t = m._tail                          # the display's length: the fields after it start at OT_* + t
    config = s.config
    solo = n == 1
    m.r[M_N_PLAYERS] = n
    m.r[M_ADVANCED] = int(config.advanced)
    m.r[M_SOLO] = int(solo)
    n_strips = comp.strips_used[n]
    m.r[M_N_STRIPS] = n_strips

    # Step 2: dice (6 / 5 / 4 per colour).
    per = comp.dice_per_colour[n]
    for d in range(18):
        m.r[O_DIE_OWNER + d] = DIE_SUPPLY if d % 6 < per else DIE_ABSENT
    # Step 3: the Space strips, order and faces at random; Spes token on the farthest strip.
    chosen = _shuffled(s, list(range(comp.n_strips)))[:n_strips]
    # one random face per strip, in strip order (one batch: the same numbers as one draw per strip)
    faces = [int(x * 2) for x in s.rng.random(n_strips).tolist()]
    if len(chosen) != n_strips:
        raise ConfigError(f"the components have {comp.n_strips} Space strips; {n} player(s) use {n_strips}")
    # lay the strips: the terrain, comet flag and Ravager icons of their five hexes each, strip i on hexes
    # 5i..5i+4
    for i in range(n_strips):
        c = chosen[i]
        face = faces[i]
        terrain = comp.strip_terrain[c][face]
        comet = comp.strip_comet[c][face]
        icons = comp.strip_icons[c][face]
        m.r[OT_STRIP_ID + t + i] = c
        m.r[OT_STRIP_FACE + t + i] = face
        for j in range(5):
            at = 5 * i + j
            m.r[OT_HEX_TERRAIN + t + at] = terrain[j]
            m.r[OT_HEX_COMET + t + at] = 1 if comet[j] else 0
            m.r[OT_HEX_ICONS + t + at] = icons[j]
    m.r[M_SPES_TOKEN_POS] = n_strips - 1
    # Step 5: Technology stacks, display (one tile of each colour on the first 3 spaces, at random).
    for c in range(3):
        ids = _shuffled(s, list(range(16 * c, 16 * c + 16)))
        for k in range(16):
            m.r[OT_TECH_STACK + t + 16 * c + k] = ids[15 - k]      # top of the stack = last element
            m.r[OT_TILE_WHERE + t + 16 * c + k] = TL_STACK
        m.r[OT_TECH_STACK_N + t + c] = 16
    order = _shuffled(s, [0, 1, 2])
    for pos in range(3):
        k = _pop_tech(s, order[pos])
        m.r[O_DISPLAY + pos] = k
        m.r[OT_TILE_WHERE + t + k] = TL_DISPLAY
    if config.advanced:
        for k in range(48):
            m.r[OT_TILE_BOOST + t + k] = 1                         # ADVANCED RULES: boost side up
    # Step 6: Advanced Technology tiles.
    adv = _shuffled(s, list(range(ADV_TILE0, ADV_TILE0 + 16)))
    for k in range(16):
        m.r[OT_TILE_WHERE + t + ADV_TILE0 + k] = TL_ADV_DECK
        m.r[OT_ADV_DECK + t + k] = adv[15 - k]
    m.r[M_ADV_DECK_N] = 16
    for k in range(comp.n_advanced_slots):
        _refill_adv_slot(s, k)
    # Step 7: Mission decks.
    for c in range(3):
        ids = _shuffled(s, list(range(20 * c, 20 * c + 20)))
        for k in range(20):
            m.r[OT_MC_DECK + t + 20 * c + k] = ids[k]
        m.r[OT_MC_DECK_N + t + c] = 20
    for k in range(N_MISSIONS):
        m.r[OT_MC_WHERE + t + k] = MC_DECK
    # Step 8: Ravager deck, removals, two cards on the board.
    rav = _shuffled(s, list(range(N_RAVAGERS)))
    removed = comp.ravagers_removed[n]
    for k in range(N_RAVAGERS):
        if k < removed:
            m.r[OT_RAV_WHERE + t + rav[k]] = RV_BOX
        else:
            m.r[OT_RAV_DECK + t + k - removed] = rav[k]
            m.r[OT_RAV_WHERE + t + rav[k]] = RV_DECK
    m.r[M_RAV_DECK_N] = N_RAVAGERS - removed
    for _ in range(2):
        _place_ravager(s, _pop_ravager(s))
    # Starting tiles of absent seats go back to the box.
    for k in range(START_TILE0, START_TILE0 + 12):
        m.r[OT_TILE_WHERE + t + k] = TL_BOX
    # Steps 9-14: players (their equal starting amounts first, for all seats at once).
    for p in range(n):
        m.r[O_VP + p] = comp.start_vp
        m.r[O_VP_SRC + N_SRC * p + SRC_START] = comp.start_vp
        m.r[O_ROBOTS_BREAK + p] = comp.robots_break_room
        for c in range(3):
            m.r[O_ROBOTS_WS + 3 * p + c] = comp.robots_per_workstation
        m.r[O_ROBOTS_SUPPLY + p] = comp.robots_per_player - comp.robots_break_room - 3 * comp.robots_per_workstation
        m.r[O_RES + p] = comp.start_resources
        m.r[O_DEBRIS + p] = comp.start_debris
        m.r[O_SHIPS + p] = comp.start_ships
    for p in range(n):
        kinds = _shuffled(s, [0, 1, 2])
        for cell, kind in zip(comp.start_tile_cells, kinds):
            k = START_TILE0 + 3 * p + kind
            m.r[O_GRID + 9 * p + cell[0] * 3 + cell[1]] = k
            m.r[OT_TILE_WHERE + t + k] = TL_GRID + p
        for c in range(3):
            _to_hand(s, p, _draw_mission(s, c))
        k = _pop_ravager(s)
        m.r[OT_RAV_WHERE + t + k] = RV_HAND + p
        m.r[O_HAND_RAV + p] += 1
    if n == 2:
        # 2-PLAYER GAME: a neutral robot in each workstation.
        for c in range(3):
            m.r[O_ROBOTS_WS + 3 * BOT + c] = 1
    if solo:
        # SOLITAIRE: Hal's disc on his difficulty's VP, a robot in each workstation, the rest in the break room.
        hv = comp.hal_start_vp[config.hal_difficulty]
        m.r[O_VP + BOT] = hv
        m.r[O_VP_SRC + N_SRC * BOT + SRC_START] = hv
        for c in range(3):
            m.r[O_ROBOTS_WS + 3 * BOT + c] = 1
        m.r[O_ROBOTS_BREAK + BOT] = comp.robots_per_player - 3
        hal = _shuffled(s, list(range(12)))
        for k in range(12):
            m.r[OT_HAL_DECK + t + k] = hal[11 - k]
        m.r[M_HAL_DECK_N] = 12
    # Step 15: in turn order each player rolls one die of each colour; then the neutral / Hal dice.
    seats = list(range(n)) + ([BOT] if n <= 2 else [])
    _roll_dice(s, [(q, colour, 1) for q in seats for colour in range(3)], penalise=False)
    # Player aids: advantages of positions 2-4 (rules-notes C9).
    for p in range(1, n):
        if comp.aid_resources[p]:
            m.r[O_RES + p] += comp.aid_resources[p]
    m.r[M_ROUND] = 1
    m.r[M_TURN_PLAYER] = 0
    for p in range(n):
        m.r[O_LAST_SEQ + p] = SEQ_NONE
    _next_setup_reserve(s, 0)


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


def _next_setup_reserve(s: State, start: int) -> None:
    """Players whose aid grants a free reservation choose a die (or none), in turn order (SETUP step 15)."""
    m = cython.declare(Registers, registers(s))
    n = m.r[M_N_PLAYERS]
    for p in range(start, n):
        if s.comp.aid_free_reserve[p] and _owns_a_die(m, p):
            m.r[M_PHASE] = PH_SETUP_RESERVE
            m.r[M_SETUP_SEAT] = p
            m.r[M_ACTOR] = p
            return
    m.r[M_SETUP_SEAT] = -1
    _start_turn(s, 0)


@cython.cfunc
@cython.locals(d=cython.Py_ssize_t, p=cython.Py_ssize_t)
def _owns_a_die(m: Registers, p: int) -> cython.bint:
    """Seat p has a die in its compartment."""
    for d in range(18):
        if m.r[O_DIE_OWNER + d] == p:
            return True
    return False


def _legal_setup_reserve(s: State) -> list[int]:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_SETUP_SEAT]
    reserved = s.die_reserved.tolist()
    return [DONE] + [RESERVE_DIE + d for d, o in enumerate(s.die_owner.tolist()) if o == p and not reserved[d]]


def _do_setup_reserve(s: State, a: int) -> None:
    m = cython.declare(Registers, registers(s))
    p = m.r[M_SETUP_SEAT]
    if a != DONE:
        d = a - RESERVE_DIE
        s.die_reserved[d] = 1
        if s.log is not None:
            _log(s, f"{seat_name(s, p)} reserves a {COLOURS[d // 6]} {s.die_value.item(d)} (player aid)")
    _next_setup_reserve(s, p + 1)


register(PH_SETUP_RESERVE, legal=_legal_setup_reserve, do=_do_setup_reserve)
