"""The fixed, documented discrete action table.

Every decision a player takes is one integer action id.  The table is a sequence of named blocks, built by
construction (never sorted), so ids are stable: block ``name`` occupies ``[start, start + size)`` and its
argument is ``id - start`` (for PLAY_MISSION the argument encodes (card, slot) as ``card * 6 + slot``).
``encode``/``decode`` are O(1).  ``docs/actions.md`` is generated from this module
(``python -m blackangel_env.docgen``).

The same table serves every player count and both rule sets; the legal-action mask says which ids apply in a
given state.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .constants import COLOURS, N_MISSIONS

N_HEX = 35
N_DIE = 18
N_CELL = 9
N_SLOT = 6

# (name, size, what the argument means)
BLOCKS: tuple[tuple[str, int, str], ...] = (
    ("SEQUENCE_A", 1, "take Sequence A (play a card, act with a die, draw a card)"),
    ("SEQUENCE_B", 1, "take Sequence B (reroll, reset, advance the Black Angel)"),
    ("PASS", 1, "pass the final turn instead of a Sequence B that is forced (A impossible)"),
    ("DONE", 1, "decline / finish the optional step in progress"),
    ("PLAY_MISSION", N_MISSIONS * N_SLOT, "A1: play Mission card `card` on slot `slot` (arg = card*6 + slot)"),
    ("PLAY_RAVAGER", N_SLOT, "A1: play a Ravager card on slot `slot` (0-2 left of rows 1-3, 3-5 below columns 1-3)"),
    ("RESOLVE_TILE", N_CELL, "resolve the activated tile in grid cell `cell` (row*3+col, row 0 = bottom)"),
    ("TILE_OPTION", 2, "choose the first or second effect of an either/or Starting tile"),
    ("ACTIVATE_ADJACENT", N_CELL, "an activation tile activates the adjacent tile in cell `cell`"),
    ("DRAW_COLOUR", 3, "draw a Mission card of colour `colour`"),
    ("ROBOT_TO_WORKSTATION", 3, "move a robot from the break room to the workstation of `colour`"),
    ("ROBOT_TO_BREAK_ROOM", 3, "move a robot from the workstation of `colour` to the break room"),
    ("SELECT_SHIP", N_HEX, "choose your ship on hex `hex` (strip position*5 + column)"),
    ("LAUNCH_SHIP", 1, "launch a new ship from the Black Angel's hex (a robot pilots it)"),
    ("MOVE_SHIP", N_HEX, "move the chosen ship to hex `hex`"),
    ("SELECT_DIE", N_DIE, "A2: choose die `die` (own, or bought for 1 resource)"),
    ("FLIP_DIE", 1, "spend 1 debris to turn your own die to its opposite face"),
    ("USE_BOOST", N_CELL, "advanced: use the 1x (boost) effect of the tile in cell `cell`"),
    ("SET_DIE_COLOUR", 3, "advanced: the die takes colour `colour` (change-colour boost)"),
    ("BOARD_ACTION", 6, "A2: perform Black Angel action `action` (0-5 = printed 1-6) with the die"),
    ("MISSION_ACTION", N_MISSIONS, "A2: perform the activation Mission card `card` in space with the die"),
    ("DISCARD_MISSION", N_MISSIONS, "discard Mission card `card` (Ravager effect or hand limit)"),
    ("TAKE_TECH", 8, "Discover: take the display tile at position `pos` (0 = where tiles are injected)"),
    ("TAKE_ADVANCED", 4, "Discover: take the Advanced tile in slot `slot` (0 = nearest the display)"),
    ("INJECT", 6, "inject the taken tile: 0-2 row 1-3 from the left, 3-5 column 1-3 from the bottom"),
    ("ADVANCED_SPACE", 3, "put an ejected Advanced tile on the space beside the tucked cards of `colour`"),
    ("REPAIR_ACTION", 6, "Repair: remove a Damage cube from action `action`"),
    ("REPAIR_DIE", 3, "Repair: remove the Damage cube from a damaged die of `colour` in the supply"),
    ("DEBRIS_TO_STORAGE", 1, "Repair: put the debris in your storage area"),
    ("DEBRIS_TO_TILE", N_CELL, "Repair: put the debris on the lightning space of the tile in `cell` (activates it)"),
    ("DESTROY", 6, "Destroy Ravagers: destroy every Ravager card at location `action`"),
    ("PLACE_MISSION", N_MISSIONS, "Command: place Mission card `card` on the ship's hex"),
    ("ACTIVATE", 1, "activate the Mission card once more (or the owner's free activation)"),
    ("SPEND_TECH", N_CELL, "pay a mission cost with the tile in grid cell `cell`"),
    ("SPEND_EJECTED_TECH", 1, "pay a mission cost with one of your ejected Technology tiles"),
    ("SPEND_MISSION", N_MISSIONS, "pay a mission cost with Mission card `card` from your hand"),
    ("KEEP_MISSION", N_MISSIONS, "advanced: keep drawn Mission card `card` (the other is discarded)"),
    ("RESERVE_DIE", N_DIE, "reserve die `die` (Sequence B: 1 resource, or free by advantage/boost)"),
)

_START: dict[str, int] = {}
_BLOCK_OF: list[int] = []
_off = 0
for _bi, (_name, _size, _doc) in enumerate(BLOCKS):
    _START[_name] = _off
    globals()[_name] = _off            # module constant: the block's first id
    _BLOCK_OF.extend([_bi] * _size)
    _off += _size
NUM_ACTIONS = _off
BLOCK_OF = tuple(_BLOCK_OF)


class Action(NamedTuple):
    block: str
    arg: int


def encode(block: str, arg: int = 0) -> int:
    """(block name, argument) -> action id.  An argument that is not an integer (a bool, a float, None) raises
    TypeError, an unknown block or an argument out of the block's range ValueError."""
    try:
        start = _START[block]
    except (KeyError, TypeError):
        raise ValueError(f"unknown action block {block!r}") from None
    if type(arg) is not int:
        if isinstance(arg, (bool, np.bool_)) or not isinstance(arg, (int, np.integer)):
            raise TypeError(f"an action argument must be an integer, got {arg!r}")
        arg = int(arg)
    size = BLOCKS[BLOCK_OF[start]][1]
    if not 0 <= arg < size:
        raise ValueError(f"argument {arg} out of range for block {block} (size {size})")
    return start + arg


def decode(action: int) -> Action:
    """action id -> (block name, argument).  An id that is not an integer (a bool, a float, None) raises
    TypeError, one out of range ValueError."""
    if type(action) is not int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action id must be an integer 0..{NUM_ACTIONS - 1}, got {action!r}")
        action = int(action)
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action} out of range 0..{NUM_ACTIONS - 1}")
    b = BLOCK_OF[action]
    name = BLOCKS[b][0]
    return Action(name, action - _START[name])


def _cell(c: int) -> str:
    return f"r{c // 3 + 1}c{c % 3 + 1}"


def _hex(h: int) -> str:
    return f"s{h // 5 + 1}:{h % 5 - 2:+d}"


_SLOT_NAMES = ("left of row 1", "left of row 2", "left of row 3", "below col 1", "below col 2", "below col 3")
_ARROW_NAMES = ("row 1 from left", "row 2 from left", "row 3 from left",
                "col 1 from bottom", "col 2 from bottom", "col 3 from bottom")


def action_to_string(action: int) -> str:
    """A short readable name, e.g. ``PLAY_MISSION(card=17 gray, slot=below col 2)``."""
    name, a = decode(action)
    if name == "PLAY_MISSION":
        card, slot = divmod(a, N_SLOT)
        return f"PLAY_MISSION(card={card} {COLOURS[card // 20]}, slot={_SLOT_NAMES[slot]})"
    if name == "PLAY_RAVAGER":
        return f"PLAY_RAVAGER(slot={_SLOT_NAMES[a]})"
    if name in ("RESOLVE_TILE", "ACTIVATE_ADJACENT", "USE_BOOST", "DEBRIS_TO_TILE", "SPEND_TECH"):
        return f"{name}({_cell(a)})"
    if name in ("DRAW_COLOUR", "ROBOT_TO_WORKSTATION", "ROBOT_TO_BREAK_ROOM", "SET_DIE_COLOUR", "REPAIR_DIE",
                "ADVANCED_SPACE"):
        return f"{name}({COLOURS[a]})"
    if name in ("SELECT_SHIP", "MOVE_SHIP"):
        return f"{name}({_hex(a)})"
    if name in ("SELECT_DIE", "RESERVE_DIE"):
        return f"{name}({COLOURS[a // 6]} die #{a % 6})"
    if name in ("BOARD_ACTION", "REPAIR_ACTION", "DESTROY"):
        return f"{name}(action {a + 1})"
    if name in ("MISSION_ACTION", "DISCARD_MISSION", "PLACE_MISSION", "SPEND_MISSION", "KEEP_MISSION"):
        return f"{name}(card={a} {COLOURS[a // 20]})"
    if name == "TAKE_TECH":
        return f"TAKE_TECH(display {a + 1})"
    if name == "TAKE_ADVANCED":
        return f"TAKE_ADVANCED(slot {a + 1})"
    if name == "INJECT":
        return f"INJECT({_ARROW_NAMES[a]})"
    if name == "TILE_OPTION":
        return f"TILE_OPTION({'first' if a == 0 else 'second'})"
    return name


def table_rows() -> list[tuple[str, int, int, str]]:
    """(block, first id, size, meaning) for documentation."""
    return [(n, _START[n], s, d) for n, s, d in BLOCKS]


def mask_array(action_mask, who: str) -> np.ndarray:
    """``action_mask`` as a numpy array, checked to hold one entry per action id (the agents' and policies'
    ``act(observation, action_mask, state)``), each 0 or 1 (bools, integers or floats); ValueError naming ``who``
    for any other shape or entry."""
    mask = np.asarray(action_mask)
    if mask.shape != (NUM_ACTIONS,):
        raise ValueError(f"{who}: the action mask must have one entry per action id, shape ({NUM_ACTIONS},), "
                         f"got shape {mask.shape}")
    if mask.dtype != np.bool_:
        if mask.dtype.kind not in "iuf":
            raise ValueError(f"{who}: the action mask must hold bools or numbers 0 and 1, got dtype {mask.dtype}")
        if mask.dtype.itemsize == 1:       # int8 / uint8, the engine's masks: a byte scan, 5x faster
            wrong = bool(mask.tobytes().translate(None, b"\x00\x01"))
        else:
            wrong = not ((mask == 0) | (mask == 1)).all()
        if wrong:
            bad = mask[(mask != 0) & (mask != 1)][:3].tolist()
            raise ValueError(f"{who}: the action mask must hold only 0 and 1, got {bad}")
    return mask
