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
        BOT, MC_SPACE, MC_TUCKED, M_END_TRIGGERED, M_GAME_OVER, M_PHASE, M_ROUND, M_SOLO, M_SPES_REACHED,
        M_TRIGGER_ROUND, PH_GAME_OVER, SRC_ADVANCED, SRC_CONVERSION, TL_ADV_SPACE, TL_EJECTED,
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


def _elements(s: State, p: int) -> dict[tuple[int, int], int]:
    """How many elements player p has for each Advanced-tile kind (kind, colour)."""
    comp = s.comp
    grid = [t for t in s.grid[p].tolist() if t >= 0]      # lists: numpy calls on small arrays are slow
    where = s.tile_where.tolist()
    out: dict[tuple[int, int], int] = {}
    for c in range(3):
        out[(AE_TILES_OF_COLOUR, c)] = sum(1 for t in grid if t < N_TECH and comp.tile_colour[t] == c)
    # Ejected Technology tiles, Starting Technology tiles included (R-D13: the count has no colour)
    out[(AE_EJECTED_TECH, -1)] = where[:ADV_TILE0].count(TL_EJECTED + p)
    out[(AE_DEBRIS, -1)] = s.debris.item(p)
    out[(AE_RAVAGERS, -1)] = s.hand_rav.item(p)
    adv_in_grid = sum(1 for t in grid if t >= ADV_TILE0)
    adv_out = where[ADV_TILE0:].count(TL_EJECTED + p) + where[ADV_TILE0:].count(TL_ADV_SPACE + p)
    out[(AE_ADVANCED, -1)] = adv_in_grid + adv_out
    # Cards in Space the player owns, strip 1 excluded (appendix note; rules-notes D7).
    owners, hexes = s.mc_owner.tolist(), s.mc_hex.tolist()
    out[(AE_CARDS_IN_SPACE, -1)] = sum(1 for c, w in enumerate(s.mc_where.tolist())
                                       if w == MC_SPACE and owners[c] == p and hexes[c] >= 5)
    return out


def advanced_tiles_detail(s: State, p: int) -> list[dict]:
    """Each Advanced tile of p with its kind, cap, elements used and VP."""
    comp = s.comp
    tiles = []   # (tile, cap)
    for t in s.grid[p].tolist():
        if t >= ADV_TILE0:
            tiles.append((t, 4, "grid"))
    for k, t in enumerate(s.adv_space[p].tolist()):
        if t >= 0:
            tucked = s.mc_where[20 * k:20 * k + 20].tolist().count(MC_TUCKED + p)
            tiles.append((t, 4 + 2 * tucked, f"space {k}"))
    for t, w in enumerate(s.tile_where[ADV_TILE0:ADV_TILE0 + 16].tolist(), ADV_TILE0):
        if w == TL_EJECTED + p:
            tiles.append((t, 4, "ejected"))
    if not tiles:
        return []            # no Advanced tile: no need to count the elements
    elems = _elements(s, p)
    remaining = dict(elems)
    out = []
    # Decreasing cap within each kind, ties by tile id: deterministic and optimal.
    for t, cap, where in sorted(tiles, key=lambda x: (-x[1], x[0])):
        key = (comp.tile_adv[t], comp.tile_adv_colour[t] if comp.tile_adv[t] == AE_TILES_OF_COLOUR else -1)
        use = min(cap // 2, remaining.get(key, 0))
        remaining[key] = remaining.get(key, 0) - use
        out.append({"tile": t, "where": where, "cap": cap, "elements": use, "vp": 2 * use})
    return out


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


def finish_game(s: State) -> None:
    """Final scoring; marks the game over."""
    m = cython.declare(Registers, registers(s))
    n = s.num_players
    for p in range(n):
        store_grid_debris(s, p)
    for p in range(n):
        adv = sum(d["vp"] for d in advanced_tiles_detail(s, p))
        gain_vp(s, p, adv, SRC_ADVANCED, "Advanced Technology tiles")
        if m.r[M_SPES_REACHED]:
            things = int(s.robots_break[p] + s.res[p] + s.ships[p])
            gain_vp(s, p, things // 2, SRC_CONVERSION, f"{things} robots/resources/ships at Spes")
    m.r[M_GAME_OVER] = 1
    m.r[M_PHASE] = PH_GAME_OVER
    if s.log is not None:
        _log(s, "game over: " + ", ".join(f"player_{p} {s.vp.item(p)} VP" for p in range(n))
             + (f", Hal {s.vp.item(4)} VP" if n == 1 else ""))


def final_scores(s: State) -> list[int]:
    """Final VP of each player (the game must be over)."""
    if not isinstance(s, State):
        raise not_a_state("final_scores", s)
    m = cython.declare(Registers, registers(s))
    if not m.r[M_GAME_OVER]:
        raise ValueError("the game is not over")
    return [s.vp.item(p) for p in range(s.num_players)]


def winners(s: State) -> list[int]:
    """Seats sharing the victory (ties share it; in the solo game, [] if Hal has at least as many VP)."""
    scores = final_scores(s)
    m = cython.declare(Registers, registers(s))
    if m.r[M_SOLO]:
        return [0] if scores[0] > s.vp.item(BOT) else []
    best = max(scores)
    return [p for p, v in enumerate(scores) if v == best]
