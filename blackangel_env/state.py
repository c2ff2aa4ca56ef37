# cython: auto_pickle=False
"""The game state: one flat int16 numpy buffer with named views, plus the game's own random generator.

Everything that changes during a game lives in ``State.buf``: copying a state is one array copy (plus the
generator), comparing two states is one array comparison, saving is one list.  The named fields below are
numpy views into that buffer; their layout is generated from ``FIELDS`` and documented in
``docs/state_layout.md``.  Scalars (phase, acting player, the registers of the decision in progress...) sit in
the vector ``m`` at the ``M_*`` indices.

Seats: players are seats 0..n-1; seat 4 (``BOT``) is the neutral player of the 2-player game or Hal in the
solitaire game.

Randomness comes only from ``State.rng`` (a numpy Generator seeded at creation); nothing reads the global
``random`` or ``np.random`` state, and no set or dict order reaches the rules.
"""

from __future__ import annotations

import copy as _copy
import copyreg as _copyreg
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from . import _cython_shim as cython

from .components import ComponentError, Components, default_components, load_components
from .config import ConfigError, GameConfig
from .files import write_replacing
from .constants import N_ADVANCED, N_MISSIONS, N_RAVAGERS, N_TILES
from .generator_state import as_dict as _snapshot_dict
from .generator_state import reader as _rng_reader
from .generator_state import restore as _restore_snapshot

_SEED_SEQUENCE = np.random.SeedSequence(0)   # only to construct bit generators whose state is then set
MAX_SEATS = 5          # 4 players + the neutral player / Hal
BOT = 4                # seat of the neutral player (2 players) or Hal (solo)
MAX_STRIPS = 7
N_HEXES = MAX_STRIPS * 5
N_DICE = 18            # die i has colour i // 6
DICE_PER_COLOUR_MAX = 6

# --- locations ---------------------------------------------------------------------------------------------
# Mission cards (mc_where)
MC_DECK, MC_DISCARD, MC_SPACE = 0, 1, 2
MC_HAND, MC_SLOT, MC_TUCKED, MC_DRAWN = 10, 20, 30, 40          # + seat
# Ravager cards (rav_where)
RV_DECK, RV_DISCARD, RV_BOX = 0, 1, 2
RV_HAND, RV_SLOT, RV_BOARD = 10, 20, 30                          # + seat, + seat, + action
# Tiles (tile_where)
TL_STACK, TL_DISCARD, TL_BOX, TL_DISPLAY, TL_ADV_DECK, TL_ADV_SLOT = 0, 1, 2, 3, 4, 5
TL_GRID, TL_EJECTED, TL_ADV_SPACE, TL_TAKEN = 10, 20, 30, 40     # + seat
# Dice (die_owner)
DIE_SUPPLY, DIE_IN_USE, DIE_ABSENT = -1, -2, -3
# slot card codes: -1 empty, 0..59 Mission card id, RAVAGER_SLOT + ravager id
RAVAGER_SLOT = 100

# --- VP sources (vp_src columns) ---------------------------------------------------------------------------
SRC_START, SRC_REWARD, SRC_ACTIVATION, SRC_NEUTRALIZATION, SRC_TILES, SRC_BOOST, SRC_PENALTY, \
    SRC_ADVANCED, SRC_CONVERSION, SRC_TRADE, SRC_HAL = range(11)
VP_SOURCES = ("start", "mission_reward", "mission_activation", "neutralization", "tiles", "boost",
              "penalty", "advanced_tiles", "conversion", "trade", "hal")
N_SRC = len(VP_SOURCES)

# --- scalar registers (m[...]) -----------------------------------------------------------------------------
M_NAMES = (
    "n_players", "advanced", "solo", "n_strips", "phase", "actor", "turn_player", "round", "turns",
    "end_triggered", "trigger_round", "spes_reached", "game_over", "spes_token_pos", "spes_pos",
    "rav_deck_n", "adv_deck_n", "hal_deck_n", "hal_card", "decisions", "setup_seat",
    # decision in progress
    "die", "die_bought", "die_colour0", "die_colour", "die_value", "die_flipped", "action", "mission",
    "value", "done", "a1_slot", "a1_colour", "pending", "tile_cell", "tile_effect", "tile_return",
    "tile_adjacent", "ship_hex", "ship_launch", "move_range", "move_min", "move_return", "taken_tile",
    "ejected_adv", "pay_tech", "pay_mission", "pay_return", "pay_seat", "keep_return", "keep_n",
    "b_paid", "b_free_colour", "owner", "boosts_used", "hand_limit_return",
)
# one named constant per register (index into m):
M_N_PLAYERS = 0
M_ADVANCED = 1
M_SOLO = 2
M_N_STRIPS = 3
M_PHASE = 4
M_ACTOR = 5
M_TURN_PLAYER = 6
M_ROUND = 7
M_TURNS = 8
M_END_TRIGGERED = 9
M_TRIGGER_ROUND = 10
M_SPES_REACHED = 11
M_GAME_OVER = 12
M_SPES_TOKEN_POS = 13
M_SPES_POS = 14
M_RAV_DECK_N = 15
M_ADV_DECK_N = 16
M_HAL_DECK_N = 17
M_HAL_CARD = 18
M_DECISIONS = 19
M_SETUP_SEAT = 20
M_DIE = 21
M_DIE_BOUGHT = 22
M_DIE_COLOUR0 = 23
M_DIE_COLOUR = 24
M_DIE_VALUE = 25
M_DIE_FLIPPED = 26
M_ACTION = 27
M_MISSION = 28
M_VALUE = 29
M_DONE = 30
M_A1_SLOT = 31
M_A1_COLOUR = 32
M_PENDING = 33
M_TILE_CELL = 34
M_TILE_EFFECT = 35
M_TILE_RETURN = 36
M_TILE_ADJACENT = 37
M_SHIP_HEX = 38
M_SHIP_LAUNCH = 39
M_MOVE_RANGE = 40
M_MOVE_MIN = 41
M_MOVE_RETURN = 42
M_TAKEN_TILE = 43
M_EJECTED_ADV = 44
M_PAY_TECH = 45
M_PAY_MISSION = 46
M_PAY_RETURN = 47
M_PAY_SEAT = 48
M_KEEP_RETURN = 49
M_KEEP_N = 50
M_B_PAID = 51
M_B_FREE_COLOUR = 52
M_OWNER = 53
M_BOOSTS_USED = 54
M_HAND_LIMIT_RETURN = 55
N_M = len(M_NAMES)
assert [globals()["M_" + n.upper()] for n in M_NAMES] == list(range(N_M))

# --- phases --------------------------------------------------------------------------------------------------
PHASE_NAMES = (
    "setup_reserve", "turn", "a1_card", "a1_tiles", "tile_option", "tile_adjacent", "tile_draw", "tile_robot",
    "ship_select", "ship_move", "a2_die", "a2_modify", "die_colour", "action_boost", "ravager_discard",
    "discover", "inject", "advanced_space", "repair", "debris", "destroy", "command_card", "mission",
    "pay", "owner", "keep", "hand_limit", "b_reserve", "game_over",
)
# one named constant per phase:
PH_SETUP_RESERVE = 0
PH_TURN = 1
PH_A1_CARD = 2
PH_A1_TILES = 3
PH_TILE_OPTION = 4
PH_TILE_ADJACENT = 5
PH_TILE_DRAW = 6
PH_TILE_ROBOT = 7
PH_SHIP_SELECT = 8
PH_SHIP_MOVE = 9
PH_A2_DIE = 10
PH_A2_MODIFY = 11
PH_DIE_COLOUR = 12
PH_ACTION_BOOST = 13
PH_RAVAGER_DISCARD = 14
PH_DISCOVER = 15
PH_INJECT = 16
PH_ADVANCED_SPACE = 17
PH_REPAIR = 18
PH_DEBRIS = 19
PH_DESTROY = 20
PH_COMMAND_CARD = 21
PH_MISSION = 22
PH_PAY = 23
PH_OWNER = 24
PH_KEEP = 25
PH_HAND_LIMIT = 26
PH_B_RESERVE = 27
PH_GAME_OVER = 28
assert [globals()["PH_" + n.upper()] for n in PHASE_NAMES] == list(range(len(PHASE_NAMES)))


@lru_cache(maxsize=None)
def layout(display_len: int) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """(name, shape, offset) of every field in the buffer, for a display of ``display_len`` spaces."""
    fields = [
        ("m", (N_M,)),
        # players (seat 4 = neutral / Hal)
        ("vp", (MAX_SEATS,)), ("vp_src", (MAX_SEATS, N_SRC)), ("res", (MAX_SEATS,)), ("debris", (MAX_SEATS,)),
        ("ships", (MAX_SEATS,)), ("robots_break", (MAX_SEATS,)), ("robots_supply", (MAX_SEATS,)),
        ("robots_ws", (MAX_SEATS, 3)), ("last_seq", (MAX_SEATS,)), ("hand_mc", (MAX_SEATS, 3)),
        ("hand_rav", (MAX_SEATS,)), ("grid", (4, 9)), ("slots", (4, 6)), ("adv_space", (4, 3)),
        # black angel board
        ("dmg", (6,)), ("rav_loc", (6, 3)), ("rav_count", (6,)),
        ("die_value", (N_DICE,)), ("die_owner", (N_DICE,)), ("die_reserved", (N_DICE,)),
        ("die_damaged", (N_DICE,)),
        ("display", (display_len,)), ("adv_slots", (4,)),
        # cards and tiles
        ("mc_where", (N_MISSIONS,)), ("mc_owner", (N_MISSIONS,)), ("mc_hex", (N_MISSIONS,)),
        ("mc_deck", (3, 20)), ("mc_deck_n", (3,)), ("drawn", (2,)),
        ("rav_where", (N_RAVAGERS,)), ("rav_deck", (N_RAVAGERS,)), ("rav_robots", (N_RAVAGERS, MAX_SEATS)),
        ("tile_where", (N_TILES,)), ("tile_boost", (N_TILES,)), ("tile_debris", (N_TILES,)),
        ("tech_stack", (3, 16)), ("tech_stack_n", (3,)), ("adv_deck", (N_ADVANCED,)),
        # space board
        ("strip_id", (MAX_STRIPS,)), ("strip_face", (MAX_STRIPS,)),
        ("hex_terrain", (N_HEXES,)), ("hex_comet", (N_HEXES,)), ("hex_icons", (N_HEXES,)),
        ("hex_card", (N_HEXES,)), ("hex_ship", (N_HEXES, 2)),
        # Hal
        ("hal_deck", (12,)),
    ]
    out = []
    off = 0
    for name, shape in fields:
        out.append((name, shape, off))
        off += int(np.prod(shape))
    return tuple(out)


@lru_cache(maxsize=None)
def _views(display_len: int) -> dict[str, tuple[tuple[int, ...], int, int]]:
    return {name: (shape, off, off + int(np.prod(shape))) for name, shape, off in layout(display_len)}


@lru_cache(maxsize=16)
def _view_list(display_len: int) -> tuple[tuple[str, int, int, tuple[int, ...] | None], ...]:
    """(name, start, end, shape of a multi-dimensional field or None) of every field, for ``State.bind_views``."""
    return tuple((name, off, end, shape if len(shape) > 1 else None)
                 for name, (shape, off, end) in _views(display_len).items())


def buffer_size(display_len: int) -> int:
    name, shape, off = layout(display_len)[-1]
    return off + int(np.prod(shape))


STATE_FORMAT = "blackangel_env.state"        # the "format" field of State.save's JSON
GAME_RECORD_FORMAT = "blackangel_env.game"   # ... and of a game record (config, seed, actions: blackangel play)


class StateError(ValueError):
    """A saved state is malformed or inconsistent."""


class _View:
    """A named view of a state's buffer (``State.m``, ``State.vp``, ...): made on first read from the state's
    layout and kept in the state's ``__dict__``, where later reads find it first (a descriptor without
    ``__set__``: no ``__getattr__`` on ``State``, which would slow every attribute read)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        name = self.name
        shape, off, end = obj._fields[name]
        v = obj.buf[off:end]
        if len(shape) > 1:
            v = v.reshape(shape)
        obj.__dict__[name] = v
        return v


class _BufferAs:
    """``State.mv`` and ``State._typed``: the state's buffer in the form a reader takes it,
    made on first read by the attribute's maker (``_BUFFER_MAKERS``) and kept in the state's ``__dict__``.

    * ``mv``: a Python ``memoryview`` (int16).  The engine reads and writes its scalar registers and the fields
      before the display through it (``s.mv[M_PHASE]``, ``s.mv[O_RES + p]``): a Python int in and out, a few times
      cheaper than a numpy ``item()`` or item assignment.
    * ``_typed`` (``engine.predicates``): a Cython typed memoryview object of the compiled module that gives its
      maker (``use_typed_view``; the numpy array until then, and interpreted).  Typed code takes an object of its
      own module's type without the buffer protocol and the format check a numpy array costs it at every call
      (about 1,300 instructions); Cython gives each module its own memoryview type.  (The modules that hold the
      state as ``Registers`` read its C field ``r`` instead.)"""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        v = obj.__dict__[self.name] = _BUFFER_MAKERS[self.name](obj.buf)
        return v


def _as_is(buf):
    return buf


_TYPED = ("_typed",)
_BUFFER_MAKERS: dict = {"mv": memoryview, "r": memoryview, "_typed": _as_is}


def use_typed_view(maker, attribute: str = "_typed") -> None:
    """Called by the engine's typed modules: ``maker(buf)`` returns the buffer as the module's typed code takes it,
    kept in the state attribute ``attribute`` (one of ``_TYPED``)."""
    if attribute not in _TYPED:
        raise ValueError(f"use_typed_view: unknown attribute {attribute!r}; one of {_TYPED}")
    _BUFFER_MAKERS[attribute] = maker


# what a pickle leaves out besides the named views: the buffer's memoryviews and the engine's tables (made again)
_NOT_PICKLED = ("_pred",) + tuple(_BUFFER_MAKERS)

# The attributes of a State that are C fields of its compiled base ``Registers`` (state.pxd; instance attributes
# interpreted): not in the instance's ``__dict__`` when compiled, so pickling names them itself.
C_FIELDS = ("comp", "_fields", "log", "_legal_cache", "_pred")

_position_check = None     # the engine's check that a live position can go on, given by use_position_check


def use_position_check(check) -> None:
    """Called by ``blackangel_env.engine``: ``check(state)`` returns why a live position cannot go on (no legal
    action, or none after one of its legal moves), or None; ``State.from_dict`` refuses a position it faults."""
    global _position_check
    _position_check = check


@cython.cclass
class Registers:
    """The base of ``State``: the state's buffer as the compiled rule modules read and write it (``registers``).

    Compiled, ``r`` is a C field (a typed int16 memoryview of ``State.buf``, declared in ``state.pxd``), made on
    the object's first ``registers(s)`` (``_registers.pxd``; ``r_set``): a state's copy does not pay for it until
    the engine reads it.  A state's buffer is never replaced, only written in place (``restore``,
    ``_copy_into``), so the field stays valid for the object's life.

    Compiled, the attributes ``C_FIELDS`` of a State (its components, layout table, log and the engine's caches)
    are C fields too (None until set): the engine reads them at most decisions, in C where it holds the state as
    ``Registers`` (``m.log``) and through a member descriptor elsewhere, without an instance-dictionary lookup."""


def bind_registers(t: Registers) -> int:           # compiled: cdef int ... except -1 (state.pxd)
    """Compiled: make the C fields ``r`` (the buffer as a typed int16 memoryview) and ``_tail`` (the display's
    length) of a state, on its first ``registers`` (``_registers.pxd``)."""
    if cython.compiled:
        obj = cython.cast(object, t)
        t.r = obj.buf
        t._tail = t.r.shape[0] - BASE_SIZE
        t.r_set = True
    return 0


def registers(s: Registers) -> Registers:
    """The state as the engine's rule modules read and write its registers and fields, through its ``r``
    (``m = cython.declare(Registers, registers(s))``, then ``m.r[M_PHASE]``, ``m.r[O_RES + p]``).  For Python
    code and the interpreted path, the state itself: ``State.r`` is its Python ``memoryview``.  The compiled
    rule modules call the inline C function of ``_registers.pxd`` instead, whose ``r`` is the typed memoryview
    ``Registers.r`` (made on the object's first call): each read or write is a C array access, its index
    checked as Python checks it."""
    if not isinstance(s, Registers):
        raise TypeError(f"expected a blackangel_env State, got {type(s).__name__}")
    return s


class State(Registers):
    """One game position.  Create it with ``blackangel_env.engine.new_game``; mutate it only through
    ``blackangel_env.engine.apply``."""

    # Defaults of the attributes a copy does not set (``copy`` sets only what it carries): no generator object
    # yet, no reader, no log, nothing cached.
    _rng = None
    _rng_reader = None
    if not cython.compiled:     # compiled: the C fields of Registers (C_FIELDS), None until set
        comp = None
        _fields = None
        log = None
        _legal_cache = None     # (the buffer's bytes, its sorted legal actions): engine.phases._legal_list
        _pred = None            # the engine's tables for this state's layout, components and board (engine.predicates)
    mv = _BufferAs("mv")
    r = _BufferAs("r")      # Python code's; compiled, the C field of Registers hides behind it (``registers``)
    _typed = _BufferAs("_typed")

    def __init__(self, config: GameConfig, comp: Components, buf: np.ndarray, rng: np.random.Generator):
        self.config = config
        self.comp = comp
        self.buf = buf
        self._rng = rng
        self._rng_state = None
        self._rng_reader = None           # reads _rng's raw state for copies (blackangel_env.generator_state)
        self.log: list | None = None      # readable event log (list of strings) or None when not recorded
        self._legal_cache = None
        self._bind()

    @property
    def rng(self) -> np.random.Generator:
        """The game's own generator.  A copy takes its generator's state at once but builds the Generator
        object only when it first draws (building one costs tens of microseconds)."""
        if self._rng is None:
            st = self._rng_state
            if type(st) is tuple:                       # a raw PCG64 snapshot (blackangel_env.generator_state)
                self._rng = _restore_snapshot(st)
            else:
                bitgen = np.random.PCG64(_SEED_SEQUENCE)
                bitgen.state = st
                self._rng = np.random.Generator(bitgen)
            self._rng_state = None
        return self._rng

    def reseed(self, seed: int | np.random.SeedSequence | None) -> None:
        """Replace the game's generator by a fresh PCG64 one seeded with ``seed`` (search agents resample the
        future this way): a non-negative integer, a ``numpy.random.SeedSequence`` or None (fresh entropy);
        anything else raises TypeError and changes nothing."""
        if seed is not None and not isinstance(seed, np.random.SeedSequence) and (
                isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"reseed: seed must be a non-negative integer, a numpy.random.SeedSequence or None, "
                            f"got {type(seed).__name__}")
        self._rng = np.random.default_rng(seed)
        self._rng_state = None

    def rng_state(self) -> dict:
        """The generator's state (a fresh dict)."""
        if self._rng is None:
            st = self._rng_state
            return _snapshot_dict(st) if type(st) is tuple else _copy.deepcopy(st)
        return self._rng.bit_generator.state

    def _bind(self) -> None:
        """The named views are made on first use (``_View``), so a copy costs one buffer copy."""
        self._fields = _views(len(self.comp.display_costs))

    def bind_views(self) -> None:
        """Make every named view now: cheaper than making each on first use, for a state that will use most of
        them (a new game).  A copy still makes its views on first use."""
        d = self.__dict__
        buf = self.buf
        for name, off, end, shape in _view_list(len(self.comp.display_costs)):
            if name not in d:
                d[name] = buf[off:end] if shape is None else buf[off:end].reshape(shape)

    def ships_out(self, p: int) -> int:
        """How many of seat p's ships are in space (counted from the hex occupancy)."""
        return int(np.count_nonzero(self.hex_ship == p))

    # -- copying ------------------------------------------------------------------------------------------
    def copy(self, keep_log: bool = False) -> "State":
        """An independent copy (buffer and generator); the log is shared only if ``keep_log``."""
        rng = self._rng
        if rng is None:
            st = self._rng_state                        # not drawn from since it was copied: share that state
        else:
            r = self._rng_reader
            if r is None or r[0] is not rng:
                r = self._rng_reader = _rng_reader(rng)
            st = (r[1].raw, r[2].raw) if r is not None else rng.bit_generator.state
        new = State.__new__(State)
        new.config = self.config
        new.comp = self.comp
        new.buf = self.buf.copy()
        new._rng_state = st
        new._fields = self._fields                      # the layout's views table (_bind)
        new._pred = self._pred                          # the same layout, components and board
        if keep_log and self.log is not None:
            new.log = list(self.log)
        return new                                      # the other attributes: the class's defaults

    def _copy_into(self, target: "State") -> bool:
        """Make ``target`` a copy of this position without its log and without a generator (the caller gives
        it one: ``reseed``), writing into ``target``'s buffer in place, so that the named views, ``mv`` and
        the typed views ``target`` has already made stay valid (``engine.rollouts`` plays its batch in one
        object this way).  Returns False, changing nothing, when ``target`` has another layout."""
        if target.buf.shape != self.buf.shape or (target._fields is not self._fields
                                                  and target._fields != self._fields):
            return False
        target.buf[...] = self.buf
        target.config = self.config
        target.comp = self.comp
        target._pred = self._pred
        target._legal_cache = None
        target.log = None
        target._rng = None
        target._rng_state = None
        target._rng_reader = None
        return True

    def restore(self, other: "State") -> None:
        """Make this state the position of ``other`` (a copy taken earlier, e.g. to undo moves), in place: its
        buffer, generator and log; the named views and ``mv`` of this object stay valid.  ``other`` is left as it
        is.  A state of another layout (other components) raises ValueError."""
        if not isinstance(other, State):
            raise TypeError(f"restore takes a State, got {type(other).__name__}")
        if other.buf.shape != self.buf.shape or other._fields != self._fields:
            raise ValueError("restore: the other state has another layout (other components)")
        snap = other.copy(keep_log=True)
        self.config = snap.config
        self.comp = snap.comp
        self.buf[...] = snap.buf
        self._rng = None
        self._rng_state = snap._rng_state
        self._rng_reader = None
        self.log = snap.log if other.log is not None else None
        self._legal_cache = None
        self._pred = None

    def __reduce_ex__(self, protocol):
        # every pickle protocol (0 and 1 included, which would otherwise refuse the compiled base): the class
        # made with its own __new__, then __setstate__
        return _copyreg.__newobj__, (type(self),), self.__getstate__()

    def __getstate__(self) -> dict:
        # pickle, copy.copy, copy.deepcopy: the generator reader maps this object's memory, and the named views
        # would come back as arrays of their own, apart from the buffer: neither is carried (the views are made
        # again on first use)
        fields = self._fields
        d = {k: v for k, v in self.__dict__.items() if k not in fields and k not in _NOT_PICKLED}
        for k in C_FIELDS:
            if k not in _NOT_PICKLED:
                d[k] = getattr(self, k)
        d["_rng_reader"] = None
        return d

    def __setstate__(self, d: dict) -> None:
        fields = d.get("_fields") or ()                # views pickled by an older version are dropped too
        own = self.__dict__
        for k, v in d.items():
            if k in fields or k in _NOT_PICKLED:
                continue
            if k in C_FIELDS:
                setattr(self, k, v)
            else:
                own[k] = v
        own.setdefault("_rng_reader", None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.config == other.config and np.array_equal(self.buf, other.buf)
                and self.rng_state() == other.rng_state())

    __hash__ = None  # mutable

    # -- convenience --------------------------------------------------------------------------------------
    # (``.item``: a Python int at half the cost of ``int(m[i])``)
    @property
    def phase(self) -> int:
        return self.mv[M_PHASE]

    @property
    def actor(self) -> int:
        """The seat that must take the next decision (-1 when the game is over)."""
        m = self.mv
        return -1 if m[M_GAME_OVER] else m[M_ACTOR]

    @property
    def num_players(self) -> int:
        return self.mv[M_N_PLAYERS]

    @property
    def terminal(self) -> bool:
        return self.mv[M_GAME_OVER] != 0

    # -- saving -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "version": 1,
            "config": self.config.to_dict(),
            "buffer": self.buf.tolist(),
            "rng": _jsonable_rng_state(self.rng_state()),
        }

    def save(self, path: str | Path) -> None:
        """Write ``to_dict()`` as JSON to ``path`` whole (``files.write_replacing``: through a temporary file beside
        it, so that a failed write never leaves a truncated file nor spoils an earlier save there).  A path that
        cannot be written raises the OSError the file system gives, naming the path."""
        write_replacing(path, json.dumps(self.to_dict()))

    @classmethod
    def from_dict(cls, d: Any) -> "State":
        if not isinstance(d, dict):
            raise StateError(f"saved state must be a JSON object, got {type(d).__name__}")
        if d.get("format") != STATE_FORMAT:
            if d.get("format") == GAME_RECORD_FORMAT:
                raise StateError("not a blackangel_env saved state but a game record (config, seed and actions, "
                                 "as `blackangel play --save` writes it): replay it with `blackangel replay FILE`, "
                                 "or resume it with `blackangel play --load FILE`")
            raise StateError(f"not a blackangel_env saved state (field 'format' is {d.get('format')!r}, "
                             f"expected {STATE_FORMAT!r})")
        if type(d.get("version")) is not int or d["version"] != 1:
            raise StateError(f"unsupported saved-state version {d.get('version')!r} (expected 1)")
        missing = {"config", "buffer", "rng"} - set(d)
        if missing:
            raise StateError(f"saved state lacks the fields {sorted(missing)}")
        try:
            config = GameConfig.from_dict(d["config"])
        except (ConfigError, TypeError) as e:
            raise StateError(f"saved state has a bad config: {e}") from None
        try:
            comp = load_components(config.components) if config.components else default_components()
        except ComponentError as e:
            raise StateError(f"saved state's component file cannot be used: {e}") from None
        raw = d["buffer"]
        size = buffer_size(len(comp.display_costs))
        if not isinstance(raw, list) or len(raw) != size:
            raise StateError(f"saved state buffer must be a list of {size} integers")
        if not all(isinstance(x, int) and not isinstance(x, bool) and -32768 <= x <= 32767 for x in raw):
            raise StateError("saved state buffer holds a value that is not a 16-bit integer")
        buf = np.array(raw, dtype=np.int16)
        rng = _generator_from_json(d["rng"])
        state = cls(config, comp, buf, rng)
        m = state.m
        if int(m[M_N_PLAYERS]) != config.num_players or int(m[M_ADVANCED]) != int(config.advanced):
            raise StateError("saved state buffer does not match its config (player count or advanced flag)")
        from .invariants import InvariantError, check_invariants  # late import: invariants uses State
        try:
            check_invariants(state)
        except InvariantError as e:
            raise StateError(f"saved state is inconsistent: {e}") from None
        except (IndexError, KeyError, ValueError, TypeError) as e:  # a value the checks meet before their own
            raise StateError(f"saved state is inconsistent: {type(e).__name__}: {e}") from None
        if not state.terminal and _position_check is not None:
            try:
                why = _position_check(state)
            except Exception as e:  # noqa: BLE001 - whatever a contradictory position makes the engine raise
                raise StateError(f"saved state is inconsistent: its legal actions or their moves fail "
                                 f"({type(e).__name__}: {e})") from None
            if why is not None:
                raise StateError(f"saved state is inconsistent: {why} (its registers contradict the position)")
        return state

    @classmethod
    def load(cls, path: str | Path) -> "State":
        """Read a state written by ``save``.  Anything malformed or inconsistent (an unreadable, non-UTF-8 or
        non-JSON file, JSON nested too deeply, a bad register, a missing component file) raises
        ``StateError``; nothing outside the file is read or changed (numpy's global generator included)."""
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise StateError(f"cannot read saved state {path}: {e}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise StateError(f"saved state {path} is not UTF-8 text: {e}") from None
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise StateError(f"saved state {path} is not valid JSON: {e}") from None
        except RecursionError:
            raise StateError(f"saved state {path} is not a saved state: its JSON is nested too deeply") from None
        except ValueError as e:          # e.g. an integer with more digits than Python converts
            raise StateError(f"saved state {path} is not valid JSON: {e}") from None
        return cls.from_dict(d)


if layout(1)[0][0] != "m" or layout(1)[0][2] != 0:    # State.mv[M_*] reads the registers at the buffer's start
    raise RuntimeError("the registers m must open the state's buffer")
# Where each field before ``display`` starts in the buffer: the same for every display length, so that engine code
# reads them through ``State.mv`` (``s.mv[FIXED_OFFSETS["die_owner"] + d]``) without the named views.
FIXED_OFFSETS: dict[str, int] = {}
for _name, _shape, _off in layout(1):
    if _name == "display":
        break
    FIXED_OFFSETS[_name] = _off
if any(layout(k)[i][2] != layout(1)[i][2] for k in (3, 8, 16) for i in range(len(FIXED_OFFSETS))):
    raise RuntimeError("the fields before display must start at the same offset for every display length")
# the ones the rule modules read and write on their hot paths (one row of a 2-D field: + width * row)
O_VP = FIXED_OFFSETS["vp"]
O_VP_SRC = FIXED_OFFSETS["vp_src"]                 # + N_SRC * seat + source
O_RES = FIXED_OFFSETS["res"]
O_DEBRIS = FIXED_OFFSETS["debris"]
O_SHIPS = FIXED_OFFSETS["ships"]
O_ROBOTS_BREAK = FIXED_OFFSETS["robots_break"]
O_ROBOTS_SUPPLY = FIXED_OFFSETS["robots_supply"]
O_ROBOTS_WS = FIXED_OFFSETS["robots_ws"]           # + 3 * seat + colour
O_LAST_SEQ = FIXED_OFFSETS["last_seq"]
O_HAND_MC = FIXED_OFFSETS["hand_mc"]               # + 3 * seat + colour
O_HAND_RAV = FIXED_OFFSETS["hand_rav"]
O_SLOTS = FIXED_OFFSETS["slots"]                   # + 6 * seat + slot
O_GRID = FIXED_OFFSETS["grid"]                     # + 9 * seat + cell
O_ADV_SPACE = FIXED_OFFSETS["adv_space"]           # + 3 * seat + space
O_DMG = FIXED_OFFSETS["dmg"]
O_RAV_LOC = FIXED_OFFSETS["rav_loc"]               # + 3 * action + place
O_RAV_COUNT = FIXED_OFFSETS["rav_count"]
O_DIE_VALUE = FIXED_OFFSETS["die_value"]
O_DIE_OWNER = FIXED_OFFSETS["die_owner"]
O_DIE_RESERVED = FIXED_OFFSETS["die_reserved"]
O_DIE_DAMAGED = FIXED_OFFSETS["die_damaged"]
O_DISPLAY = _views(1)["display"][1]                 # the display's first space (its length: State._tail)

# Where each field after ``display`` starts for a display of no space: its offset is this plus the display's length,
# which the compiled engine keeps as ``Registers._tail`` (the buffer's size less ``BASE_SIZE``; ``State._tail``
# for Python code), so that it reads them through the buffer too (``m.r[OT_MC_WHERE + m._tail + card]``).
BASE_SIZE = buffer_size(0)
TAIL_OFFSETS: dict[str, int] = {}
for _name, _shape, _off in layout(0):
    if _name != "display" and _name not in FIXED_OFFSETS:
        TAIL_OFFSETS[_name] = _off
if any(off + k != _views(k)[name][1] for k in (1, 3, 8, 16) for name, off in TAIL_OFFSETS.items()) \
        or any(buffer_size(k) != BASE_SIZE + k for k in (1, 3, 8, 16)):
    raise RuntimeError("the fields after display must start at their offset for no display plus its length")
OT_ADV_SLOTS = TAIL_OFFSETS["adv_slots"]
OT_MC_WHERE = TAIL_OFFSETS["mc_where"]
OT_MC_OWNER = TAIL_OFFSETS["mc_owner"]
OT_MC_HEX = TAIL_OFFSETS["mc_hex"]
OT_MC_DECK = TAIL_OFFSETS["mc_deck"]                 # + 20 * colour + position
OT_MC_DECK_N = TAIL_OFFSETS["mc_deck_n"]
OT_DRAWN = TAIL_OFFSETS["drawn"]
OT_RAV_WHERE = TAIL_OFFSETS["rav_where"]
OT_RAV_DECK = TAIL_OFFSETS["rav_deck"]
OT_RAV_ROBOTS = TAIL_OFFSETS["rav_robots"]           # + MAX_SEATS * ravager + seat
OT_TILE_WHERE = TAIL_OFFSETS["tile_where"]
OT_TILE_BOOST = TAIL_OFFSETS["tile_boost"]
OT_TILE_DEBRIS = TAIL_OFFSETS["tile_debris"]
OT_TECH_STACK = TAIL_OFFSETS["tech_stack"]           # + 16 * colour + position
OT_TECH_STACK_N = TAIL_OFFSETS["tech_stack_n"]
OT_ADV_DECK = TAIL_OFFSETS["adv_deck"]
OT_STRIP_ID = TAIL_OFFSETS["strip_id"]
OT_STRIP_FACE = TAIL_OFFSETS["strip_face"]
OT_HEX_TERRAIN = TAIL_OFFSETS["hex_terrain"]
OT_HEX_COMET = TAIL_OFFSETS["hex_comet"]
OT_HEX_ICONS = TAIL_OFFSETS["hex_icons"]
OT_HEX_CARD = TAIL_OFFSETS["hex_card"]
OT_HEX_SHIP = TAIL_OFFSETS["hex_ship"]               # + 2 * hex + place
OT_HAL_DECK = TAIL_OFFSETS["hal_deck"]
if sorted(TAIL_OFFSETS) != sorted(k[3:].lower() for k in globals() if k.startswith("OT_")):
    raise RuntimeError("every field after display has its OT_ offset")
State._tail = property(lambda self: self.buf.size - BASE_SIZE,
                       doc="How far the fields after ``display`` are from their ``OT_*`` offsets: the display's length.")

for _name, _shape, _off in layout(1):           # the field names are the same for every display length
    if hasattr(State, _name):
        raise RuntimeError(f"state field {_name!r} would hide an attribute of State")
    setattr(State, _name, _View(_name))
del _name, _shape, _off


def _jsonable_rng_state(st: dict) -> dict:
    return _copy.deepcopy(st)


def _is_int(x: Any, lo: int, hi: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and lo <= x < hi


def _generator_from_json(st: Any) -> np.random.Generator:
    """The game's generator from its saved state: a PCG64 state (what ``numpy.random.default_rng`` makes), checked
    field by field before numpy sees it; only a new bit generator is touched."""
    def bad(why: str) -> StateError:
        return StateError(f"saved state has a malformed random-generator state: {why}")
    if not isinstance(st, dict) or set(st) != {"bit_generator", "state", "has_uint32", "uinteger"}:
        raise bad("expected the fields bit_generator, state, has_uint32, uinteger")
    if st["bit_generator"] != "PCG64":
        raise bad(f"bit_generator must be 'PCG64', got {st['bit_generator']!r}")
    inner = st["state"]
    if not isinstance(inner, dict) or set(inner) != {"state", "inc"} \
            or not all(_is_int(inner[k], 0, 1 << 128) for k in ("state", "inc")):
        raise bad("state must hold 'state' and 'inc', integers in 0 .. 2**128 - 1")
    if not _is_int(st["has_uint32"], 0, 2) or not _is_int(st["uinteger"], 0, 1 << 32):
        raise bad("has_uint32 must be 0 or 1 and uinteger an integer in 0 .. 2**32 - 1")
    bitgen = np.random.PCG64(_SEED_SEQUENCE)
    try:
        bitgen.state = {"bit_generator": "PCG64", "state": dict(inner), "has_uint32": st["has_uint32"],
                        "uinteger": st["uinteger"]}
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        raise bad(str(e)) from None
    return np.random.Generator(bitgen)


@dataclass(frozen=True)
class FieldInfo:
    name: str
    shape: tuple[int, ...]
    offset: int
    size: int


def fields(display_len: int = 8) -> list[FieldInfo]:
    return [FieldInfo(n, s, o, int(np.prod(s))) for n, s, o in layout(display_len)]
