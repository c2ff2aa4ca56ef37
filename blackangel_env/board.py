"""Space-board geometry: hex indexing, adjacency and ship movement.

The Space board is a straight band of ``n_strips`` chevron strips of five hexes (rulebook, SETUP step 3;
rules-notes A.3).  Position 0 is the strip nearest the Black Angel board; column 0..4 runs across the strip with
the apex (middle hex) at column 2.  A hex is numbered ``pos * 5 + col``.

Adjacency follows rules-notes A.3: map (strip s, column c in -2..2) to axial (p, q) = (s + max(c, 0),
s + max(-c, 0)); the neighbours are the six axial steps (+-1, 0), (0, +-1), (+1, +1), (-1, -1) that stay on the
band.  The Black Angel figurine always stands on the apex of the centre strip (rules-notes A.3), so its hex is
a constant of the player count.

Everything here is pure and precomputed per strip count; nothing depends on the game state.
"""

from __future__ import annotations

from functools import lru_cache

HEXES_PER_STRIP = 5
APEX = 2


def hex_index(pos: int, col: int) -> int:
    return pos * HEXES_PER_STRIP + col


def hex_pos(h: int) -> int:
    return h // HEXES_PER_STRIP


def hex_col(h: int) -> int:
    return h % HEXES_PER_STRIP


def centre_position(n_strips: int) -> int:
    """Position of the centre strip (the Black Angel's strip): 3 of 0..6, or 2 of 0..4."""
    return n_strips // 2


def black_angel_hex(n_strips: int) -> int:
    """The Black Angel's hex: the apex of the centre strip (``hex_index(centre_position(n_strips), APEX)``, in one
    expression: the rule modules ask for it at every advance and ship move)."""
    return (n_strips // 2) * HEXES_PER_STRIP + APEX


def _axial(pos: int, col: int) -> tuple[int, int]:
    c = col - APEX
    return pos + max(c, 0), pos + max(-c, 0)


def _from_axial(p: int, q: int) -> tuple[int, int]:
    c = p - q
    return min(p, q), c + APEX


@lru_cache(maxsize=None)
def neighbours(n_strips: int) -> tuple[tuple[int, ...], ...]:
    """neighbours(n)[h] = the hexes adjacent to hex h, in increasing order."""
    out = []
    for h in range(n_strips * HEXES_PER_STRIP):
        p, q = _axial(hex_pos(h), hex_col(h))
        adj = []
        for dp, dq in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
            s, col = _from_axial(p + dp, q + dq)
            if 0 <= col < HEXES_PER_STRIP and 0 <= s < n_strips:
                adj.append(hex_index(s, col))
        out.append(tuple(sorted(adj)))
    return tuple(out)


def distances(n_strips: int, start: int, passable, max_dist: int) -> dict[int, int]:
    """Breadth-first distances from ``start`` through hexes where ``passable[h]`` is true.

    The start hex itself is always the origin (a ship stands there).  Hexes farther than ``max_dist`` are
    left out.  Ships may pass through hexes holding two ships (rules-notes D4), so occupancy plays no part.
    """
    nb = neighbours(n_strips)
    dist = {start: 0}
    frontier = [start]
    d = 0
    while frontier and d < max_dist:
        d += 1
        nxt = []
        for h in frontier:
            for g in nb[h]:
                if g not in dist and passable[g]:
                    dist[g] = d
                    nxt.append(g)
        frontier = nxt
    return dist
