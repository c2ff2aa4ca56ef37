"""The end of the game (rulebook, END OF THE GAME): its trigger, the final turn, final scoring, the results.

Final scoring, with a breakdown of every player's VP by source:

* Debris on tiles returns to storage first.
* Advanced Technology tiles: 2 VP per element, capped at 4 VP for a tile in the grid or ejected after the three
  spaces were full, and at 4 + 2 VP per card tucked in the matching colour for a tile on one of the three spaces.
  Copies of the same tile use different elements (rulebook note): elements of one kind are handed out to the
  tiles of that kind in decreasing order of cap, which maximises the total (each element is worth 2 VP to
  whichever tile takes it).
* If the Black Angel reached Spes: robots in the break room, resources and ships in storage, all together,
  2 for 1 VP (rounded down).  Otherwise they are worth nothing.
* Hal scores nothing at the end (solitaire rules).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..constants import (
    ADV_TILE0, AE_ADVANCED, AE_CARDS_IN_SPACE, AE_DEBRIS, AE_EJECTED_TECH, AE_RAVAGERS, AE_TILES_OF_COLOUR, N_TECH,
)
from ..state import VP_SOURCES, State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, MC_SPACE, MC_TUCKED, M_END_TRIGGERED, M_GAME_OVER, M_N_PLAYERS, M_PHASE, M_ROUND, M_SOLO,
        M_SPES_REACHED, M_TRIGGER_ROUND, N_MISSIONS, N_TILES, OT_MC_HEX, OT_MC_OWNER, OT_MC_WHERE, OT_TILE_WHERE,
        O_ADV_SPACE, O_DEBRIS, O_GRID, O_HAND_RAV, O_RES, O_ROBOTS_BREAK, O_SHIPS, O_VP, PH_GAME_OVER,
        SRC_ADVANCED, SRC_CONVERSION, TL_ADV_SPACE, TL_EJECTED,
    )

from .core import _log, gain_vp, not_a_state
from .kernels import store_grid_debris


def _trigger_end(s: State, why: str) -> None:
    m = cython.declare(Registers, registers(s))
    if not m.r[M_END_TRIGGERED]:
        m.r[M_END_TRIGGERED] = 1
        m.r[M_TRIGGER_ROUND] = m.r[M_ROUND]
        if s.log is not None:
            _log(s, f"end of the game triggered: {why} (finish round {m.r[M_ROUND]}, then one final round)")


def is_final_turn(s: State) -> bool:
    m = cython.declare(Registers, registers(s))
    return bool(m.r[M_END_TRIGGERED]) and m.r[M_ROUND] == m.r[M_TRIGGER_ROUND] + 1


@cython.locals(p=cython.Py_ssize_t, i=cython.Py_ssize_t, t=cython.Py_ssize_t, c=cython.Py_ssize_t,
               tail=cython.Py_ssize_t, n=cython.Py_ssize_t)
def _elements(s: State, p: int) -> dict[tuple[int, int], int]:
    """How many elements player p has for each Advanced-tile kind (kind, colour)."""
    m = cython.declare(Registers, registers(s))
    if not 0 <= p < 4:
        raise IndexError(f"no player seat {p}")
    comp = m.comp
    tail = m._tail
    grid = []
    for i in range(9):
        t = m.r[O_GRID + 9 * p + i]
        if t >= 0:
            grid.append(t)
    out: dict[tuple[int, int], int] = {}
    for c in range(3):
        n = 0
        for t in grid:
            if t < N_TECH and comp.tile_colour[t] == c:
                n += 1
        out[(AE_TILES_OF_COLOUR, c)] = n
    # Ejected Technology tiles, Starting Technology tiles included (R-D13: the count has no colour)
    n = 0
    for t in range(ADV_TILE0):
        if m.r[OT_TILE_WHERE + tail + t] == TL_EJECTED + p:
            n += 1
    out[(AE_EJECTED_TECH, -1)] = n
    out[(AE_DEBRIS, -1)] = m.r[O_DEBRIS + p]
    out[(AE_RAVAGERS, -1)] = m.r[O_HAND_RAV + p]
    n = 0
    for t in grid:
        if t >= ADV_TILE0:
            n += 1
    for t in range(ADV_TILE0, N_TILES):
        if m.r[OT_TILE_WHERE + tail + t] == TL_EJECTED + p or m.r[OT_TILE_WHERE + tail + t] == TL_ADV_SPACE + p:
            n += 1
    out[(AE_ADVANCED, -1)] = n
    # Cards in Space the player owns, strip 1 excluded (appendix note; rules-notes D7).
    n = 0
    for c in range(N_MISSIONS):
        if m.r[OT_MC_WHERE + tail + c] == MC_SPACE and m.r[OT_MC_OWNER + tail + c] == p \
                and m.r[OT_MC_HEX + tail + c] >= 5:
            n += 1
    out[(AE_CARDS_IN_SPACE, -1)] = n
    return out


@cython.locals(p=cython.Py_ssize_t, i=cython.Py_ssize_t, k=cython.Py_ssize_t, t=cython.Py_ssize_t,
               tail=cython.Py_ssize_t, tucked=cython.Py_ssize_t)
def _advanced_tiles(s: State, p: int) -> list[tuple[int, int, str]]:
    """p's Advanced tiles as (tile, cap, where): in the grid (cap 4), on the three spaces (4 + 2 per card tucked
    in the space's colour), ejected (4)."""
    m = cython.declare(Registers, registers(s))
    if not 0 <= p < 4:
        raise IndexError(f"no player seat {p}")
    tail = m._tail
    tiles = []
    for i in range(9):
        t = m.r[O_GRID + 9 * p + i]
        if t >= ADV_TILE0:
            tiles.append((t, 4, "grid"))
    for k in range(3):
        t = m.r[O_ADV_SPACE + 3 * p + k]
        if t >= 0:
            tucked = 0
            for i in range(20 * k, 20 * k + 20):
                if m.r[OT_MC_WHERE + tail + i] == MC_TUCKED + p:
                    tucked += 1
            tiles.append((t, 4 + 2 * tucked, _SPACE_NAMES[k]))
    for t in range(ADV_TILE0, ADV_TILE0 + 16):
        if m.r[OT_TILE_WHERE + tail + t] == TL_EJECTED + p:
            tiles.append((t, 4, "ejected"))
    return tiles


_SPACE_NAMES = ("space 0", "space 1", "space 2")


def _kind(comp, t: int) -> tuple[int, int]:
    """The element kind an Advanced tile counts: (kind, colour) for tiles of a colour, else (kind, -1)."""
    return (comp.tile_adv[t], comp.tile_adv_colour[t] if comp.tile_adv[t] == AE_TILES_OF_COLOUR else -1)


def advanced_tiles_detail(s: State, p: int) -> list[dict]:
    """Each Advanced tile of p with its kind, cap, elements used and VP."""
    comp = s.comp
    tiles = _advanced_tiles(s, p)
    if not tiles:
        return []            # no Advanced tile: no need to count the elements
    remaining = dict(_elements(s, p))
    out = []
    # Decreasing cap within each kind, ties by tile id: deterministic and optimal.
    for t, cap, where in sorted(tiles, key=lambda x: (-x[1], x[0])):
        key = _kind(comp, t)
        use = min(cap // 2, remaining.get(key, 0))
        remaining[key] = remaining.get(key, 0) - use
        out.append({"tile": t, "where": where, "cap": cap, "elements": use, "vp": 2 * use})
    return out


def _advanced_vp(s: State, p: int) -> int:
    """The VP of p's Advanced tiles: ``advanced_tiles_detail``'s total without the detail.  Its tiles take the
    elements of their kind in decreasing order of cap, each up to half its cap, so a kind's tiles use
    min(their caps' halves summed, the elements of the kind), 2 VP each."""
    tiles = _advanced_tiles(s, p)
    if not tiles:
        return 0
    comp = s.comp
    room: dict = {}
    for t, cap, _ in tiles:
        key = _kind(comp, t)
        room[key] = room.get(key, 0) + cap // 2
    elems = _elements(s, p)
    return sum(2 * min(r, elems.get(key, 0)) for key, r in room.items())


def score_breakdown(s: State) -> list[dict[str, int]]:
    """Per player: VP by source (the columns of ``VP_SOURCES``) and the total."""
    if not isinstance(s, State):
        raise not_a_state("score_breakdown", s)
    out = []
    for p in range(s.num_players):
        row = {name: s.vp_src.item(p, i) for i, name in enumerate(VP_SOURCES)}
        row["total"] = s.vp.item(p)
        out.append(row)
    return out


@cython.locals(n=cython.Py_ssize_t, p=cython.Py_ssize_t)
def finish_game(s: State) -> None:
    """Final scoring; marks the game over."""
    m = cython.declare(Registers, registers(s))
    n = m.r[M_N_PLAYERS]
    for p in range(n):
        store_grid_debris(s, p)
    for p in range(n):
        gain_vp(s, p, _advanced_vp(s, p), SRC_ADVANCED, "Advanced Technology tiles")
        if m.r[M_SPES_REACHED]:
            things = m.r[O_ROBOTS_BREAK + p] + m.r[O_RES + p] + m.r[O_SHIPS + p]
            gain_vp(s, p, things // 2, SRC_CONVERSION, f"{things} robots/resources/ships at Spes")
    m.r[M_GAME_OVER] = 1
    m.r[M_PHASE] = PH_GAME_OVER
    if s.log is not None:
        _log(s, "game over: " + ", ".join([f"player_{q} {s.vp.item(q)} VP" for q in range(n)])
             + (f", Hal {s.vp.item(4)} VP" if n == 1 else ""))


def final_scores(s: State) -> list[int]:
    """Final VP of each player (the game must be over)."""
    if not isinstance(s, State):
        raise not_a_state("final_scores", s)
    m = cython.declare(Registers, registers(s))
    if not m.r[M_GAME_OVER]:
        raise ValueError("the game is not over")
    return [m.r[O_VP + p] for p in range(m.r[M_N_PLAYERS])]


def winners(s: State) -> list[int]:
    """Seats sharing the victory (ties share it; in the solo game, [] if Hal has at least as many VP)."""
    scores = final_scores(s)
    m = cython.declare(Registers, registers(s))
    if m.r[M_SOLO]:
        return [0] if scores[0] > s.vp.item(BOT) else []
    best = max(scores)
    return [p for p, v in enumerate(scores) if v == best]
