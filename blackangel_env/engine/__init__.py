"""The rules engine: a pure state machine over ``State``, one module per rule area.

Public functions:

* ``new_game(config, seed)`` -> State (the rulebook's SETUP, 2-player and solitaire adjustments included);
* ``legal_actions(state)`` -> sorted list of action ids; ``legal_mask(state)`` -> int8 mask over the table;
  ``legal_masks(states, out=None)`` -> the masks of several states as the rows of one array;
* ``apply(state, action)`` mutates the state, or raises ``IllegalActionError`` and leaves it untouched
  (``apply_unchecked`` skips the check for an action taken from ``legal_actions``);
* ``final_scores(state)`` / ``winners(state)`` once ``state.terminal``;
* ``rollouts(states, seed)`` plays copies of states to the end under random play and returns the final scores
  (``playout``).

Every decision the rules leave to a player is an action (see ``actions.py``); every automatic step (damage,
Ravager arrival, display pushes, the Black Angel's advance, ejection, the end-game trigger, final scoring, Hal's
turn) is resolved here.  Rule decisions taken where the rulebook is silent or ambiguous are listed in
``docs/rules.md`` with the test that pins each.

Phases are small integers (``state.PH_*``); the decision in progress lives in the scalar registers
``state.m[M_*]``, so a state is fully described by its buffer and generator.  Handlers are plain functions that
read and write the numpy views; the registers they read and write through ``registers(s).r[M_*]``, a typed
memoryview of the same buffer when compiled (a C field of ``state.Registers``, the compiled base of ``State``) and
a ``memoryview`` interpreted (``m`` opens it), which takes and gives Python ints for less than numpy's ``item()``.
The modules, bottom layer first (each imports only modules listed before it; ``docs/engine.md`` describes them):
``ship_moves`` (where a ship can end its move: compiled by the build,
``blackangel_env._compiled``), ``kernels`` (typed loops for the board's scroll and the dice a reroll takes),
``core`` (seats, log, VP with a cause, goods), ``decks``, ``dice``, ``space``,
``phases`` (the phase table and the entry points); the action families' predicates, "can this start, with this
die" (``predicates``: compiled with C types); the end of the game and scoring (``end``), ``ravagers``, ``missions``, ``black_angel``, ``hal``; die uses (``die_uses``) and the A1 guard (``guard``); the
turn (``rounds``, ``a3``, ``sequence_b``, ``turn``); the action families (``tiles``, ``command``, ``discover``,
``repair``, ``destroy``, ``activation``, ``board_actions``); Sequence A's decisions (``sequence_a``);
``setup``; hidden information (``visibility``: what each seat sees, ``resample_hidden``); batched play
(``playout``: ``rollouts``).
"""

from __future__ import annotations

from .. import actions as A  # noqa: F401 - ``engine.A`` as before
from .. import state as _state
from ..board import black_angel_hex  # noqa: F401 - ``engine.black_angel_hex`` as before
from . import (
    ship_moves, kernels, core, decks, dice, space, phases, predicates, end, ravagers, missions, black_angel, hal,
    die_uses, guard, rounds, a3, sequence_b, turn, tiles, command, discover, repair, destroy, activation,
    board_actions, sequence_a, setup, visibility, playout,
)
from .black_angel import advance_black_angel
from .core import SEQ_A, SEQ_B, SEQ_NONE, IllegalActionError, gain_goods, gain_vp, hal_gain, seat_name
from .die_uses import a2_possible
from .dice import FLIP
from .end import advanced_tiles_detail, final_scores, finish_game, is_final_turn, score_breakdown, winners
from .hal import hal_free_activation, hal_turn
from .missions import place_mission
from .phases import apply, apply_unchecked, legal_actions, legal_mask, legal_masks
from .playout import rollouts
from .sequence_b import reset_board
from .setup import new_game
from .visibility import resample_hidden

phases.check_complete()

__all__ = [
    "FLIP", "SEQ_A", "SEQ_B", "SEQ_NONE", "IllegalActionError", "a2_possible", "advance_black_angel",
    "advanced_tiles_detail", "apply", "apply_unchecked", "final_scores", "finish_game", "gain_goods", "gain_vp",
    "hal_free_activation", "hal_gain", "hal_turn", "is_final_turn", "legal_actions", "legal_mask", "legal_masks",
    "new_game",
    "place_mission", "resample_hidden", "reset_board", "rollouts", "score_breakdown", "seat_name", "winners",
]

_MODULES = (ship_moves, kernels, core, decks, dice, space, phases, predicates, end, ravagers, missions, black_angel,
            hal, die_uses, guard, rounds, a3, sequence_b, turn, tiles, command, discover, repair, destroy, activation,
            board_actions, sequence_a, setup, visibility, playout)


def __getattr__(name: str):
    """Any other name the engine had as one module (its private helpers, the ``state`` constants it imported)
    resolves to the object in the module that holds it now: ``engine._effective``, ``engine.M_TURN_PLAYER`` and
    ``from blackangel_env.engine import _can_pay`` keep working (a ``state`` constant from ``state`` itself: the
    compiled modules hold theirs as C constants)."""
    for mod in _MODULES + (_state,):
        d = mod.__dict__
        if name in d and not name.startswith("__"):
            return d[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
