"""Component data of Black Angel: loading and validating ``data/components.yaml``.

Every printed component of the game (the six board actions and their costs, the setup numbers, the
player aids, the 60 Mission cards, the 30 Ravager cards, the 48 Technology tiles, the 3 kinds of
Starting tiles, the 16 Advanced tiles, the 7 double-sided Space strips and the 12 Hal cards) is listed
in ONE human-editable YAML file, ``blackangel_env/data/components.yaml``. Names are used there
("orange", "take_ship", "discard_mission", ...), never integer codes.

Much of that data is printed only on the components and appears in no rule text; it was reconstructed
(see ``shared/design/rules-notes.md`` section C). Every entry, or every field group, therefore carries
``source: text`` or ``source: assumed`` and a ``note`` citing the rulebook line or the rules-notes item.

How to correct a component
--------------------------
If you own the game and a card differs from the file, edit the entry in ``components.yaml`` (or a
copy of it, passed to :func:`load_components`), set ``source: text`` and say in ``note`` where the
value comes from. Keep the structure: the loader checks counts, ids, names, ranges and sources, and
rejects unknown keys, raising :class:`ComponentError` with a message naming the entry and the field,
e.g. ``mission_cards[17] (id 17): cost has unknown good 'gold'``.

What the engine gets
--------------------
:func:`load_components` returns a frozen :class:`Components` whose attributes are plain tuples of
ints/bools using the integer codes of :mod:`blackangel_env.constants` (fast to index, no numpy).
:func:`default_components` returns the (cached) packaged data.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import yaml

from . import constants as C
from .files import DuplicateKeyError, load_yaml

__all__ = [
    "ComponentError",
    "Components",
    "DEFAULT_PATH",
    "components_summary",
    "default_components",
    "load_components",
]

DEFAULT_PATH = Path(__file__).resolve().parent / "data" / "components.yaml"

SOURCES = ("text", "assumed")
REWARD_GOODS = ("vp", "robot", "resource", "ship")
HAL_DISCOVER = ("advanced_first", "tech_only")
HAL_ROTATIONS = ("clockwise", "counterclockwise")
STANDARD_EFFECTS = tuple(n for n in C.TILE_EFFECTS if n != "or")
STRIP_TERRAINS = ("orange", "gray", "green", "asteroid")
PLAYER_COUNTS = (1, 2, 3, 4)
TOP_LEVEL_KEYS = ("version", "board", "setup", "player_aids", "mission_cards", "ravager_cards",
                  "technology_tiles", "starting_tiles", "advanced_tiles", "space_strips", "hal")
FORMAT_VERSION = 1


class ComponentError(ValueError):
    """The component file is malformed; the message names the entry and the field at fault."""


# ----------------------------------------------------------------------------------------------------
# The loaded data


@dataclass(frozen=True)
class Components:
    """All component data, as integer codes from :mod:`blackangel_env.constants`.

    Indexing conventions: actions 0..5 (printed 1..6); colours 0..2; goods vectors of length
    ``N_GOODS`` indexed by ``G_*``; tiles in one id space of length ``N_TILES`` (0..47 Technology,
    48..59 Starting tiles with player p owning ``48 + 3p + k`` for starting kind k, 60..75 Advanced).
    ``-1`` means "none" wherever a colour, an action or an effect is optional.
    """

    path: str
    # board
    action_colour: tuple[int, ...]
    action_kind: tuple[int, ...]
    display_costs: tuple[int, ...]
    n_advanced_slots: int
    advanced_cost: int
    ravager_capacity: int
    max_action_damage: int
    # setup
    die_faces: tuple[int, ...]
    dice_per_colour: dict[int, int]
    strips_used: dict[int, int]
    ravagers_removed: dict[int, int]
    start_vp: int
    robots_per_player: int
    robots_break_room: int
    robots_per_workstation: int
    start_resources: int
    start_debris: int
    start_ships: int
    start_missions_per_colour: int
    start_ravagers: int
    hand_limit: int
    hal_start_vp: dict[str, int]
    # player aids (index 0 = first player)
    aid_resources: tuple[int, ...]
    aid_free_reserve: tuple[int, ...]
    # Mission cards (length 60)
    mission_number: tuple[int, ...]
    mission_colour: tuple[int, ...]
    mission_kind: tuple[int, ...]
    mission_cost: tuple[tuple[int, ...], ...]
    mission_gain: tuple[tuple[int, ...], ...]
    mission_reward: tuple[int, ...]
    mission_reward_amount: tuple[int, ...]
    mission_tiles: tuple[tuple[int, ...], ...]
    mission_neut_kind: tuple[int, ...]
    mission_neut_owner: tuple[tuple[int, ...], ...]
    mission_neut_holder: tuple[tuple[int, ...], ...]
    mission_neut_owner_also_holder: tuple[bool, ...]
    mission_neut_colour: tuple[int, ...]
    mission_neut_vp_each: tuple[int, ...]
    # Ravager cards (length 30)
    ravager_number: tuple[int, ...]
    ravager_action: tuple[int, ...]
    ravager_effect: tuple[int, ...]
    ravager_die_colour: tuple[int, ...]
    # tiles (length N_TILES)
    tile_kind: tuple[int, ...]
    tile_colour: tuple[int, ...]
    tile_effect: tuple[int, ...]
    tile_options: tuple[tuple[int, ...], ...]
    tile_boost: tuple[int, ...]
    tile_boost_arg: tuple[int, ...]
    tile_adv: tuple[int, ...]
    tile_adv_colour: tuple[int, ...]
    start_tile_cells: tuple[tuple[int, int], ...]
    # Space strips, indexed [strip][face][column 0..4]
    n_strips: int
    strip_terrain: tuple[tuple[tuple[int, ...], ...], ...]
    strip_comet: tuple[tuple[tuple[bool, ...], ...], ...]
    strip_icons: tuple[tuple[tuple[int, ...], ...], ...]
    # Hal (length 12)
    hal_top_colour: tuple[int, ...]
    hal_top_action: tuple[int, ...]
    hal_bottom_colour: tuple[int, ...]
    hal_bottom_action: tuple[int, ...]
    hal_discover: tuple[int, ...]
    hal_rotation: tuple[int, ...]
    hal_weight: tuple[int, ...]
    hal_weight_advanced: int
    # provenance: "mission_cards[17].reward" -> "assumed" / "text"
    source: dict[str, str]

    def actions_of_colour(self, colour: int) -> tuple[int, ...]:
        """0-based indices of the board actions of ``colour``."""
        return tuple(a for a in range(C.N_ACTIONS) if self.action_colour[a] == colour)

    def assumed(self) -> tuple[str, ...]:
        """Keys of every entry or field group marked ``source: assumed``."""
        return tuple(k for k, v in self.source.items() if v == "assumed")


# ----------------------------------------------------------------------------------------------------
# Validation helpers. `where` is the human-readable place, e.g. "mission_cards[17] (id 17)".


def _fail(where: str, msg: str) -> None:
    if len(msg) > _MAX_MESSAGE:            # a value shown whole could be a file's whole text
        msg = msg[:_MAX_MESSAGE] + " ..."
    raise ComponentError(f"{where}: {msg}")


_MAX_MESSAGE = 300


def _mapping(obj: Any, where: str) -> dict:
    if not isinstance(obj, dict):
        _fail(where, f"expected a mapping, got {type(obj).__name__} {obj!r}")
    return obj


def _list(obj: Any, where: str, length: int | None = None, what: str = "entries") -> list:
    if not isinstance(obj, list):
        _fail(where, f"expected a list, got {type(obj).__name__} {obj!r}")
    if length is not None and len(obj) != length:
        _fail(where, f"has {len(obj)} {what}, expected {length}")
    return obj


def _fields(d: dict, where: str, required: Iterable[str], optional: Iterable[str] = ()) -> None:
    required, optional = tuple(required), tuple(optional)
    allowed = required + optional
    for k in d:
        if k not in allowed:
            _fail(where, f"unknown field {k!r} (allowed: {', '.join(allowed)})")
    hints = {"source": " (text or assumed)", "note": " (cite the rulebook line or the rules-notes item)"}
    for k in required:
        if k not in d:
            _fail(where, f"missing field {k!r}{hints.get(k, '')}")


def _int(v: Any, where: str, field: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        _fail(where, f"{field} must be an integer, got {v!r}")
    if not lo <= v <= hi:
        _fail(where, f"{field} = {v} is out of range {lo}..{hi}")
    return v


def _bool(v: Any, where: str, field: str) -> bool:
    if not isinstance(v, bool):
        _fail(where, f"{field} must be true or false, got {v!r}")
    return v


def _name(v: Any, vocab: tuple[str, ...], where: str, field: str, what: str = "name") -> int:
    if not isinstance(v, str) or v not in vocab:
        _fail(where, f"{field} has unknown {what} {v!r} (expected one of: {', '.join(vocab)})")
    return vocab.index(v)


def _colour(v: Any, where: str, field: str) -> int:
    return _name(v, C.COLOURS, where, field, "colour")


def _source(d: dict, where: str, key: str, sources: dict[str, str]) -> None:
    """Check the `source`/`note` pair of an entry or field group and record it under `key`."""
    if "source" not in d:
        _fail(where, "missing field 'source' (text or assumed)")
    s = d["source"]
    if s not in SOURCES:
        _fail(where, f"source must be 'text' or 'assumed', got {s!r}")
    if "note" not in d:
        _fail(where, "missing field 'note' (cite the rulebook line or the rules-notes item)")
    if not isinstance(d["note"], str) or not d["note"].strip():
        _fail(where, f"note must be a non-empty string, got {d['note']!r}")
    sources[key] = s


def _goods(v: Any, where: str, field: str, allow_empty: bool = True) -> tuple[int, ...]:
    if v is None:
        v = {}
    if not isinstance(v, dict):
        _fail(where, f"{field} must be a map good -> count, got {v!r}")
    if not v and not allow_empty:
        _fail(where, f"{field} must not be empty")
    out = [0] * C.N_GOODS
    for g, n in v.items():
        gi = _name(g, C.GOODS, where, field, "good")
        out[gi] = _int(n, where, f"{field}.{g}", 1, 9)
    return tuple(out)


def _by_player_count(v: Any, where: str, field: str, lo: int, hi: int) -> dict[int, int]:
    if not isinstance(v, dict):
        _fail(where, f"{field} must be a map player count -> number, got {v!r}")
    if set(v) != set(PLAYER_COUNTS) or not all(isinstance(k, int) and not isinstance(k, bool) for k in v):
        _fail(where, f"{field} must have exactly the keys 1, 2, 3, 4 (player counts), got {sorted(v, key=str)}")
    return {k: _int(v[k], where, f"{field}[{k}]", lo, hi) for k in PLAYER_COUNTS}


def _value_group(section: dict, key: str, sec: str, sources: dict[str, str]) -> Any:
    """A `{value: ..., source: ..., note: ...}` group."""
    where = f"{sec}.{key}"
    d = _mapping(section[key], where)
    _fields(d, where, ("value", "source", "note"))
    _source(d, where, where, sources)
    return d["value"]


def _ids(entries: list, where: str, field: str = "id", base: int = 0) -> None:
    """Entry i must be a mapping with `field` == base + i (contiguous, in order)."""
    for i, e in enumerate(entries):
        w = f"{where}[{i}]"
        e = _mapping(e, w)
        if field not in e:
            _fail(w, f"missing field {field!r}")
        v = e[field]
        if isinstance(v, bool) or not isinstance(v, int) or v != base + i:
            _fail(w, f"{field} must be {base + i} (contiguous and in order), got {v!r}")


# ----------------------------------------------------------------------------------------------------
# Section parsers


def _parse_board(raw: Any, sources: dict[str, str]) -> dict[str, Any]:
    sec = "board"
    b = _mapping(raw, sec)
    _fields(b, sec, ("actions", "display_costs", "advanced_slots", "advanced_cost", "ravager_capacity",
                     "max_action_damage"))
    acts = _list(b["actions"], f"{sec}.actions", C.N_ACTIONS, "actions")
    _ids(acts, f"{sec}.actions", "number", base=1)
    colour, kind = [], []
    for i, a in enumerate(acts):
        w = f"{sec}.actions[{i}] (action {i + 1})"
        _fields(a, w, ("number", "kind", "colour", "source", "note"))
        _source(a, w, f"{sec}.actions[{i}]", sources)
        kind.append(_name(a["kind"], C.ACTION_KINDS, w, "kind", "action kind"))
        colour.append(_colour(a["colour"], w, "colour"))
    for c, cname in enumerate(C.COLOURS):
        mine = [kind[i] for i in range(C.N_ACTIONS) if colour[i] == c]
        if len(mine) != 2 or mine.count(C.ACT_COMMAND) != 1:
            _fail(f"{sec}.actions", f"colour {cname} must have exactly 2 actions, one of them command; "
                  f"got {[C.ACTION_KINDS[k] for k in mine]}")
    for k in (C.ACT_DISCOVER, C.ACT_REPAIR, C.ACT_DESTROY):
        if kind.count(k) != 1:
            _fail(f"{sec}.actions", f"there must be exactly one {C.ACTION_KINDS[k]} action, got {kind.count(k)}")

    costs = _list(_value_group(b, "display_costs", sec, sources), f"{sec}.display_costs.value")
    if len(costs) < 3:
        _fail(f"{sec}.display_costs", f"needs at least 3 spaces (setup fills 3), got {len(costs)}")
    costs = [_int(x, f"{sec}.display_costs", f"value[{j}]", 1, 9) for j, x in enumerate(costs)]
    return dict(
        action_colour=tuple(colour), action_kind=tuple(kind), display_costs=tuple(costs),
        n_advanced_slots=_int(_value_group(b, "advanced_slots", sec, sources), f"{sec}.advanced_slots", "value", 1, 16),
        advanced_cost=_int(_value_group(b, "advanced_cost", sec, sources), f"{sec}.advanced_cost", "value", 1, 6),
        ravager_capacity=_int(_value_group(b, "ravager_capacity", sec, sources), f"{sec}.ravager_capacity", "value", 1, 30),
        max_action_damage=_int(_value_group(b, "max_action_damage", sec, sources), f"{sec}.max_action_damage", "value", 1, 6),
    )


def _parse_setup(raw: Any, sources: dict[str, str]) -> dict[str, Any]:
    sec = "setup"
    s = _mapping(raw, sec)
    _fields(s, sec, ("dice_faces", "dice_per_colour", "strips_used", "ravagers_removed", "start_vp", "robots",
                     "starting_goods", "starting_hand", "hand_limit", "hal_start_vp"))
    faces = _list(_value_group(s, "dice_faces", sec, sources), f"{sec}.dice_faces.value", 6, "faces")
    faces = tuple(_int(x, f"{sec}.dice_faces", f"value[{j}]", 0, 6) for j, x in enumerate(faces))

    out: dict[str, Any] = dict(die_faces=faces)
    out["dice_per_colour"] = _by_player_count(_value_group(s, "dice_per_colour", sec, sources),
                                              f"{sec}.dice_per_colour", "value", 1, 6)
    out["strips_used"] = _by_player_count(_value_group(s, "strips_used", sec, sources),
                                          f"{sec}.strips_used", "value", 1, 7)
    for n, k in out["strips_used"].items():
        if k % 2 == 0:
            _fail(f"{sec}.strips_used", f"value[{n}] = {k} must be odd (the Black Angel sits on the centre strip)")
    out["ravagers_removed"] = _by_player_count(_value_group(s, "ravagers_removed", sec, sources),
                                               f"{sec}.ravagers_removed", "value", 0, C.N_RAVAGERS - 3)
    out["start_vp"] = _int(_value_group(s, "start_vp", sec, sources), f"{sec}.start_vp", "value", 0, 100)
    out["hand_limit"] = _int(_value_group(s, "hand_limit", sec, sources), f"{sec}.hand_limit", "value", 1, 60)

    w = f"{sec}.robots"
    r = _mapping(s["robots"], w)
    _fields(r, w, ("per_player", "break_room", "per_workstation", "source", "note"))
    _source(r, w, w, sources)
    out["robots_per_player"] = _int(r["per_player"], w, "per_player", 1, 64)
    out["robots_break_room"] = _int(r["break_room"], w, "break_room", 0, 64)
    out["robots_per_workstation"] = _int(r["per_workstation"], w, "per_workstation", 0, 16)
    if out["robots_break_room"] + 3 * out["robots_per_workstation"] > out["robots_per_player"]:
        _fail(w, "break_room + 3 * per_workstation exceeds per_player")

    w = f"{sec}.starting_goods"
    g = _mapping(s["starting_goods"], w)
    _fields(g, w, ("resource", "debris", "ship", "source", "note"))
    _source(g, w, w, sources)
    out["start_resources"] = _int(g["resource"], w, "resource", 0, 9)
    out["start_debris"] = _int(g["debris"], w, "debris", 0, 9)
    out["start_ships"] = _int(g["ship"], w, "ship", 0, 9)

    w = f"{sec}.starting_hand"
    h = _mapping(s["starting_hand"], w)
    _fields(h, w, ("missions_per_colour", "ravagers", "source", "note"))
    _source(h, w, w, sources)
    out["start_missions_per_colour"] = _int(h["missions_per_colour"], w, "missions_per_colour", 0, 6)
    out["start_ravagers"] = _int(h["ravagers"], w, "ravagers", 0, 6)

    w = f"{sec}.hal_start_vp"
    v = _value_group(s, "hal_start_vp", sec, sources)
    if not isinstance(v, dict) or set(v) != set(C.HAL_DIFFICULTIES):
        _fail(w, f"value must have exactly the keys {', '.join(C.HAL_DIFFICULTIES)}, got {v!r}")
    out["hal_start_vp"] = {k: _int(v[k], w, f"value[{k}]", 0, 100) for k in C.HAL_DIFFICULTIES}
    return out


def _parse_aids(raw: Any, sources: dict[str, str]) -> dict[str, Any]:
    sec = "player_aids"
    aids = _list(raw, sec, 4, "player aids")
    _ids(aids, sec, "position", base=1)
    res, free = [], []
    for i, a in enumerate(aids):
        w = f"{sec}[{i}] (position {i + 1})"
        _fields(a, w, ("position", "resources", "free_reserve", "source", "note"))
        _source(a, w, f"{sec}[{i}]", sources)
        res.append(_int(a["resources"], w, "resources", 0, 9))
        free.append(_int(a["free_reserve"], w, "free_reserve", 0, 3))
    return dict(aid_resources=tuple(res), aid_free_reserve=tuple(free))


def _parse_missions(raw: Any, sources: dict[str, str]) -> dict[str, Any]:
    sec = "mission_cards"
    cards = _list(raw, sec, C.N_MISSIONS, "cards")
    _ids(cards, sec)
    per = C.N_MISSIONS // C.N_COLOURS
    zero = (0,) * C.N_GOODS
    cols: dict[str, list] = {k: [] for k in (
        "mission_number", "mission_colour", "mission_kind", "mission_cost", "mission_gain", "mission_reward",
        "mission_reward_amount", "mission_tiles", "mission_neut_kind", "mission_neut_owner",
        "mission_neut_holder", "mission_neut_owner_also_holder", "mission_neut_colour", "mission_neut_vp_each")}
    for i, e in enumerate(cards):
        w = f"{sec}[{i}] (id {i})"
        k = _name(e.get("kind"), C.MISSION_KINDS, w, "kind", "mission kind")
        if k == C.MISSION_ACTIVATION:
            _fields(e, w, ("id", "number", "colour", "kind", "cost", "gain", "source", "note", "reward", "tiles"))
        else:
            _fields(e, w, ("id", "number", "colour", "kind", "ejection", "source", "note", "reward", "tiles"))
        _source(e, w, f"{sec}[{i}]", sources)
        if _int(e["number"], w, "number", 1, C.N_MISSIONS) != i + 1:
            _fail(w, f"number must be id + 1 = {i + 1}, got {e['number']}")
        col = _colour(e["colour"], w, "colour")
        if col != i // per:
            _fail(w, f"colour is {e['colour']!r} but ids {per * (i // per)}-{per * (i // per) + per - 1} "
                  f"are {C.COLOURS[i // per]}")
        cols["mission_number"].append(i + 1)
        cols["mission_colour"].append(col)
        cols["mission_kind"].append(k)
        if k == C.MISSION_ACTIVATION:
            cols["mission_cost"].append(_goods(e["cost"], w, "cost"))
            cols["mission_gain"].append(_goods(e["gain"], w, "gain", allow_empty=False))
            nk, owner, holder, both, ncol, each = C.NEUT_NONE, zero, zero, False, -1, 0
        else:
            cols["mission_cost"].append(zero)
            cols["mission_gain"].append(zero)
            wj = f"{w}.ejection"
            ej = _mapping(e["ejection"], wj)
            nk = _name(ej.get("kind"), C.NEUT_KINDS, wj, "kind", "ejection kind")
            if nk == C.NEUT_FIXED:
                _fields(ej, wj, ("kind", "owner", "holders", "owner_also_holder"))
                owner = _goods(ej["owner"], wj, "owner", allow_empty=False)
                holder = _goods(ej["holders"], wj, "holders")
                both = _bool(ej["owner_also_holder"], wj, "owner_also_holder")
                ncol, each = -1, 0
            else:
                _fields(ej, wj, ("kind", "colour", "vp_each"))
                owner, holder, both = zero, zero, False
                ncol = _colour(ej["colour"], wj, "colour")
                each = _int(ej["vp_each"], wj, "vp_each", 1, 9)
        cols["mission_neut_kind"].append(nk)
        cols["mission_neut_owner"].append(owner)
        cols["mission_neut_holder"].append(holder)
        cols["mission_neut_owner_also_holder"].append(both)
        cols["mission_neut_colour"].append(ncol)
        cols["mission_neut_vp_each"].append(each)

        wr = f"{w}.reward"
        r = _mapping(e["reward"], wr)
        _fields(r, wr, ("good", "amount", "source", "note"))
        _source(r, wr, f"{sec}[{i}].reward", sources)
        good = r["good"]
        if good not in REWARD_GOODS:
            _fail(wr, f"good has unknown reward {good!r} (expected one of: {', '.join(REWARD_GOODS)})")
        cols["mission_reward"].append(C.GOODS.index(good))
        cols["mission_reward_amount"].append(_int(r["amount"], wr, "amount", 1, 5))

        wt = f"{w}.tiles"
        t = _mapping(e["tiles"], wt)
        _fields(t, wt, ("colours", "source", "note"))
        _source(t, wt, f"{sec}[{i}].tiles", sources)
        tl = _list(t["colours"], f"{wt}.colours")
        if not 1 <= len(tl) <= 2:
            _fail(wt, f"colours must list 1 or 2 tiles, got {len(tl)}")
        cols["mission_tiles"].append(tuple(_colour(x, wt, f"colours[{j}]") for j, x in enumerate(tl)))

    for c, cname in enumerate(C.COLOURS):
        ks = cols["mission_kind"][c * per:(c + 1) * per]
        na = ks.count(C.MISSION_ACTIVATION)
        if na != 12:
            _fail(sec, f"{cname} has {na} activation and {per - na} neutralization cards, expected 12 and 8")
    return {k: tuple(v) for k, v in cols.items()}


def _parse_ravagers(raw: Any, sources: dict[str, str]) -> dict[str, Any]:
    sec = "ravager_cards"
    cards = _list(raw, sec, C.N_RAVAGERS, "cards")
    _ids(cards, sec)
    num, act, eff, die = [], [], [], []
    for i, e in enumerate(cards):
        w = f"{sec}[{i}] (id {i})"
        _fields(e, w, ("id", "number", "effect", "source", "note", "target"))
        _source(e, w, f"{sec}[{i}]", sources)
        if _int(e["number"], w, "number", 61, 61 + C.N_RAVAGERS - 1) != 61 + i:
            _fail(w, f"number must be id + 61 = {61 + i}, got {e['number']}")
        ef = _name(e["effect"], C.RAVAGER_EFFECTS, w, "effect", "Ravager effect")
        wt = f"{w}.target"
        t = _mapping(e["target"], wt)
        if ef == C.RAV_DAMAGE_DIE:
            _fields(t, wt, ("action", "die_colour", "source", "note"))
        else:
            _fields(t, wt, ("action", "source", "note"))
        _source(t, wt, f"{sec}[{i}].target", sources)
        a = _int(t["action"], wt, "action", 1, C.N_ACTIONS) - 1
        num.append(61 + i)
        eff.append(ef)
        act.append(a)
        die.append(_colour(t["die_colour"], wt, "die_colour") if ef == C.RAV_DAMAGE_DIE else -1)
    for k, name in enumerate(C.RAVAGER_EFFECTS):
        if eff.count(k) != 6:
            _fail(sec, f"effect {name!r} appears {eff.count(k)} times, expected 6")
    for a in range(C.N_ACTIONS):
        if act.count(a) != 5:
            _fail(sec, f"action {a + 1} is targeted {act.count(a)} times, expected 5")
    return dict(ravager_number=tuple(num), ravager_action=tuple(act), ravager_effect=tuple(eff),
                ravager_die_colour=tuple(die))


def _parse_tech(raw: Any, sources: dict[str, str], action_colour: tuple[int, ...]) -> dict[str, list]:
    sec = "technology_tiles"
    tiles = _list(raw, sec, C.N_TECH, "tiles")
    _ids(tiles, sec)
    per = C.N_TECH // C.N_COLOURS
    out: dict[str, list] = {k: [] for k in ("colour", "effect", "boost", "arg")}
    for i, e in enumerate(tiles):
        w = f"{sec}[{i}] (id {i})"
        _fields(e, w, ("id", "colour", "effect", "boost", "boost_arg", "source", "note"))
        _source(e, w, f"{sec}[{i}]", sources)
        col = _colour(e["colour"], w, "colour")
        if col != i // per:
            _fail(w, f"colour is {e['colour']!r} but ids {per * (i // per)}-{per * (i // per) + per - 1} "
                  f"are {C.COLOURS[i // per]}")
        ef = _name(e["effect"], STANDARD_EFFECTS, w, "effect", "tile effect")
        be = _name(e["boost"], C.BOOST_EFFECTS, w, "boost", "boost effect")
        if be == C.BE_VP_ON_ACTION:
            a = _int(e["boost_arg"], w, "boost_arg (action number)", 1, C.N_ACTIONS) - 1
            if action_colour[a] != col:
                _fail(w, f"boost_arg: action {a + 1} is {C.COLOURS[action_colour[a]]}, not an action of the "
                      f"tile's colour {C.COLOURS[col]}")
            arg = a
        else:
            arg = _colour(e["boost_arg"], w, "boost_arg")
        out["colour"].append(col)
        out["effect"].append(ef)
        out["boost"].append(be)
        out["arg"].append(arg)
    return out


def _parse_starting(raw: Any, sources: dict[str, str]) -> dict[str, Any]:
    sec = "starting_tiles"
    s = _mapping(raw, sec)
    _fields(s, sec, ("kinds", "cells"))
    kinds = _list(s["kinds"], f"{sec}.kinds", 3, "kinds")
    _ids(kinds, f"{sec}.kinds", "kind")
    options, colours = [], []
    for k, e in enumerate(kinds):
        w = f"{sec}.kinds[{k}]"
        _fields(e, w, ("kind", "options", "source", "note", "colour"))
        _source(e, w, w, sources)
        ops = _list(e["options"], f"{w}.options", 2, "options")
        ops = tuple(_name(x, STANDARD_EFFECTS, w, f"options[{j}]", "tile effect") for j, x in enumerate(ops))
        if ops[0] == ops[1]:
            _fail(w, "the two options must differ")
        wc = f"{w}.colour"
        cg = _mapping(e["colour"], wc)
        _fields(cg, wc, ("value", "source", "note"))
        _source(cg, wc, wc, sources)
        colours.append(-1 if cg["value"] in ("none", None) else _colour(cg["value"], wc, "value"))
        options.append(ops)
    w = f"{sec}.cells"
    cells = _list(_value_group(s, "cells", sec, sources), f"{w}.value", 3, "cells")
    out_cells = []
    for j, cell in enumerate(cells):
        cell = _list(cell, f"{w}.value[{j}]", 2, "coordinates (row, col)")
        rc = (_int(cell[0], w, f"value[{j}] row", 1, 3) - 1, _int(cell[1], w, f"value[{j}] col", 1, 3) - 1)
        if rc in out_cells:
            _fail(w, f"value[{j}] repeats cell {cell}")
        out_cells.append(rc)
    return dict(options=options, colours=colours, cells=tuple(out_cells))


def _parse_advanced(raw: Any, sources: dict[str, str]) -> dict[str, list]:
    sec = "advanced_tiles"
    tiles = _list(raw, sec, C.N_ADVANCED, "tiles")
    _ids(tiles, sec)
    eff, col = [], []
    for i, e in enumerate(tiles):
        w = f"{sec}[{i}] (id {i})"
        ef = _name(e.get("effect"), C.ADVANCED_EFFECTS, w, "effect", "advanced effect")
        if ef == C.AE_TILES_OF_COLOUR:
            _fields(e, w, ("id", "effect", "colour", "source", "note"))
        else:
            _fields(e, w, ("id", "effect", "source", "note"))
        _source(e, w, f"{sec}[{i}]", sources)
        eff.append(ef)
        col.append(_colour(e["colour"], w, "colour") if ef == C.AE_TILES_OF_COLOUR else -1)
    return dict(effect=eff, colour=col)


def _parse_strips(raw: Any, sources: dict[str, str]) -> dict[str, Any]:
    sec = "space_strips"
    strips = _list(raw, sec, 7, "strips")
    _ids(strips, sec, "strip", base=1)
    ter, com, ico = [], [], []
    for i, s in enumerate(strips):
        w = f"{sec}[{i}] (strip {i + 1})"
        _fields(s, w, ("strip", "source", "note", "face_a", "face_b"))
        _source(s, w, f"{sec}[{i}]", sources)
        ft, fc, fi = [], [], []
        for face in ("face_a", "face_b"):
            hexes = _list(s[face], f"{w}.{face}", C.HEXES_PER_STRIP, "hexes")
            ht, hc, hi = [], [], []
            for j, h in enumerate(hexes):
                wh = f"{w}.{face}[{j}] (column {j - 2:+d})"
                h = _mapping(h, wh)
                _fields(h, wh, ("terrain", "comet", "icons"))
                ht.append(_name(h["terrain"], STRIP_TERRAINS, wh, "terrain", "terrain"))
                hc.append(_bool(h["comet"], wh, "comet"))
                hi.append(_int(h["icons"], wh, "icons", 0, 2))
            ft.append(tuple(ht))
            fc.append(tuple(hc))
            fi.append(tuple(hi))
        ter.append(tuple(ft))
        com.append(tuple(fc))
        ico.append(tuple(fi))
    return dict(n_strips=len(strips), strip_terrain=tuple(ter), strip_comet=tuple(com), strip_icons=tuple(ico))


def _parse_hal(raw: Any, sources: dict[str, str], action_colour: tuple[int, ...]) -> dict[str, Any]:
    sec = "hal"
    h = _mapping(raw, sec)
    _fields(h, sec, ("cards", "weights"))
    cards = _list(h["cards"], f"{sec}.cards", C.N_HAL_CARDS, "cards")
    _ids(cards, f"{sec}.cards")
    out: dict[str, list] = {k: [] for k in ("hal_top_colour", "hal_top_action", "hal_bottom_colour",
                                            "hal_bottom_action", "hal_discover", "hal_rotation")}
    for i, e in enumerate(cards):
        w = f"{sec}.cards[{i}] (id {i})"
        _fields(e, w, ("id", "name", "top", "bottom", "discover", "rotation", "source", "note"))
        _source(e, w, f"{sec}.cards[{i}]", sources)
        if not isinstance(e["name"], str):
            _fail(w, f"name must be a string, got {e['name']!r}")
        halves = []
        for half in ("top", "bottom"):
            wh = f"{w}.{half}"
            d = _mapping(e[half], wh)
            _fields(d, wh, ("colour", "action"))
            col = _colour(d["colour"], wh, "colour")
            a = _int(d["action"], wh, "action", 1, C.N_ACTIONS) - 1
            if action_colour[a] != col:
                _fail(wh, f"action {a + 1} is {C.COLOURS[action_colour[a]]}, not {C.COLOURS[col]}")
            out[f"hal_{half}_colour"].append(col)
            out[f"hal_{half}_action"].append(a)
            halves.append(col)
        if halves[0] == halves[1]:
            _fail(w, f"top and bottom must have different colours, both are {C.COLOURS[halves[0]]}")
        out["hal_discover"].append(_name(e["discover"], HAL_DISCOVER, w, "discover", "discover preference"))
        out["hal_rotation"].append(_name(e["rotation"], HAL_ROTATIONS, w, "rotation", "rotation"))
    w = f"{sec}.weights"
    wt = _mapping(h["weights"], w)
    _fields(wt, w, C.GOODS + ("advanced", "source", "note"))
    _source(wt, w, w, sources)
    res = {k: tuple(v) for k, v in out.items()}
    res["hal_weight"] = tuple(_int(wt[g], w, g, 0, 20) for g in C.GOODS)
    res["hal_weight_advanced"] = _int(wt["advanced"], w, "advanced", 0, 20)
    return res


# ----------------------------------------------------------------------------------------------------
# Public API


def load_components(path: str | os.PathLike | None = None) -> Components:
    """Load and validate a component file (None = the packaged ``data/components.yaml``).

    Raises :class:`ComponentError` for any malformed content; the file is only read, never written.
    """
    p = Path(path) if path is not None else DEFAULT_PATH
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:                 # missing, a directory, unreadable
        raise ComponentError(f"cannot read component file {p}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ComponentError(f"component file {p} is not UTF-8 text: {exc}") from None
    try:
        raw = load_yaml(text)
    except DuplicateKeyError as exc:
        raise ComponentError(f"{p}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ComponentError(f"{p}: not valid YAML: {exc}") from None
    try:
        return _build(raw, str(p))
    except ComponentError as exc:
        raise ComponentError(f"{exc}  [in {p}]") from None


def _build(raw: Any, path: str) -> Components:
    top = _mapping(raw, "top level")
    _fields(top, "top level", TOP_LEVEL_KEYS)
    if top["version"] != FORMAT_VERSION:
        _fail("version", f"must be {FORMAT_VERSION}, got {top['version']!r}")
    sources: dict[str, str] = {}

    board = _parse_board(top["board"], sources)
    setup = _parse_setup(top["setup"], sources)
    aids = _parse_aids(top["player_aids"], sources)
    missions = _parse_missions(top["mission_cards"], sources)
    ravagers = _parse_ravagers(top["ravager_cards"], sources)
    tech = _parse_tech(top["technology_tiles"], sources, board["action_colour"])
    start = _parse_starting(top["starting_tiles"], sources)
    adv = _parse_advanced(top["advanced_tiles"], sources)
    strips = _parse_strips(top["space_strips"], sources)
    hal = _parse_hal(top["hal"], sources, board["action_colour"])

    for n, k in setup["strips_used"].items():
        if k > strips["n_strips"]:
            _fail("setup.strips_used", f"value[{n}] = {k} exceeds the {strips['n_strips']} strips")

    # one tile id space: 0..47 tech, 48..59 starting (48 + 3p + k), 60..75 advanced
    kind, colour, effect, options, boost, barg, aeff, acol = ([] for _ in range(8))
    for i in range(C.N_TECH):
        kind.append(C.TILE_TECH)
        colour.append(tech["colour"][i])
        effect.append(tech["effect"][i])
        options.append(())
        boost.append(tech["boost"][i])
        barg.append(tech["arg"][i])
        aeff.append(-1)
        acol.append(-1)
    for t in range(C.N_START):
        k = t % 3
        kind.append(C.TILE_START)
        colour.append(start["colours"][k])
        effect.append(C.TE_OR)
        options.append(start["options"][k])
        boost.append(C.BE_NONE)
        barg.append(-1)
        aeff.append(-1)
        acol.append(-1)
    for i in range(C.N_ADVANCED):
        kind.append(C.TILE_ADVANCED)
        colour.append(-1)
        effect.append(C.TE_NONE)
        options.append(())
        boost.append(C.BE_NONE)
        barg.append(-1)
        aeff.append(adv["effect"][i])
        acol.append(adv["colour"][i])
    assert len(kind) == C.N_TILES

    return Components(
        path=path,
        **board,
        **setup,
        **aids,
        **missions,
        **ravagers,
        tile_kind=tuple(kind), tile_colour=tuple(colour), tile_effect=tuple(effect),
        tile_options=tuple(options), tile_boost=tuple(boost), tile_boost_arg=tuple(barg),
        tile_adv=tuple(aeff), tile_adv_colour=tuple(acol),
        start_tile_cells=start["cells"],
        **strips,
        **hal,
        source=sources,
    )


@functools.lru_cache(maxsize=1)
def default_components() -> Components:
    """The packaged component data (loaded once, cached)."""
    return load_components(None)


def _collapse(keys: Iterable[str]) -> list[str]:
    """Group "name[3].field" keys into "name[0-59].field (60)" lines, keeping first-seen order."""
    groups: dict[str, list[int]] = {}
    plain: list[str] = []
    pat = re.compile(r"^(.*)\[(\d+)\](.*)$")
    for k in keys:
        m = pat.match(k)
        if m:
            groups.setdefault(m.group(1) + "[]" + m.group(3), []).append(int(m.group(2)))
        else:
            plain.append(k)
            groups.setdefault(k, [])
    lines = []
    for g, idx in groups.items():
        if not idx:
            lines.append(g)
            continue
        idx.sort()
        runs, start, prev = [], idx[0], idx[0]
        for x in idx[1:]:
            if x != prev + 1:
                runs.append((start, prev))
                start = x
            prev = x
        runs.append((start, prev))
        spec = ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
        lines.append(g.replace("[]", f"[{spec}]") + f" ({len(idx)})")
    return lines


def components_summary(c: Components) -> str:
    """A short human-readable summary (counts, then every assumption), usable by docs."""
    n_act = sum(1 for k in c.mission_kind if k == C.MISSION_ACTIVATION)
    assumed = c.assumed()
    lines = [
        f"Black Angel component data ({c.path})",
        f"  board: 6 actions {', '.join(f'{i + 1} {C.ACTION_KINDS[k]}/{C.COLOURS[col]}' for i, (k, col) in enumerate(zip(c.action_kind, c.action_colour)))}",
        f"  technology display: costs {list(c.display_costs)}; {c.n_advanced_slots} Advanced slots at cost {c.advanced_cost}",
        f"  Mission cards: {len(c.mission_kind)} ({n_act} activation, {len(c.mission_kind) - n_act} neutralization)",
        f"  Ravager cards: {len(c.ravager_effect)}; tiles: {C.N_TECH} Technology, {C.N_START} Starting "
        f"(3 kinds x 4 players), {C.N_ADVANCED} Advanced",
        f"  Space strips: {c.n_strips} x 2 faces x {C.HEXES_PER_STRIP} hexes; Hal cards: {len(c.hal_top_colour)}",
        f"  entries/field groups: {len(c.source)} ({len(c.source) - len(assumed)} from the rule text, "
        f"{len(assumed)} assumed)",
        "Assumed (not printed in any rule text; correct them in components.yaml):",
    ]
    lines += [f"  - {x}" for x in _collapse(assumed)]
    return "\n".join(lines)
