"""Where a ship can end its move (Command step 1; rules-notes D4): the search behind the Command action, the
move-ship tile and the die-use look-ahead, compiled by Cython (pure-Python mode: this file is the one source,
compiled to C by the build, interpreted where no extension was built or with ``BLACKANGEL_INTERPRETED=1``).

``destinations(buf, ter_at, hs_at, nb, nh, ba, p, start, rmin, rmax, existing)`` -> the hexes, ascending, that
a ship of seat ``p`` (already at ``start`` if ``existing``, else launched from the Black Angel's hex ``start``)
can end on after moving between ``rmin`` and ``rmax`` hexes:

* it moves through hexes that are not asteroids, the Black Angel's hex ``ba`` always passable (its shields);
  ships in a hex never block the way, only the end hex counts;
* moving out and back counts as a move: the start hex is an end if ``rmin`` is 0, or if ``rmax >= 2`` and a
  neighbour of it is passable;
* at most two ships per hex, of different players (the moving ship leaves its start hex).

``buf``: the state buffer (int16); ``ter_at`` / ``hs_at``: where ``hex_terrain`` and ``hex_ship`` (two entries
per hex, -1 for none) start in it; ``nb``: the neighbour table, 6 entries per hex, -1 padded (int16); ``nh``: the
number of hexes (at most 64; the table's entries must be below it).  Compiled, the arrays are read as C shorts; interpreted, they are first converted
to lists of Python ints (numpy int16 scalars would make ``(a >= 0) + (b >= 0)`` a logical or:
docs/engine_core.md, section 2).
"""

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..constants import T_ASTEROID

MAX_HEXES = 64

if cython.compiled:
    SOURCE_SHA256 = blackangel_source_marker.decode("ascii")[25:-1]  # noqa: F821 - declared in ship_moves.pxd
else:
    SOURCE_SHA256 = None


@cython.boundscheck(False)
@cython.wraparound(False)
def destinations(buf: cython.const[cython.short][:], ter_at: cython.int, hs_at: cython.int,
                 nb: cython.const[cython.short][:],
                 nh: cython.int, ba: cython.int, p: cython.int, start: cython.int, rmin: cython.int,
                 rmax: cython.int, existing: cython.bint) -> list:
    dist = cython.declare(cython.int[64])
    frontier = cython.declare(cython.int[64])
    nxt = cython.declare(cython.int[64])
    asteroid: cython.int = T_ASTEROID
    nf: cython.int
    nn: cython.int
    d: cython.int
    i: cython.int
    k: cython.int
    h: cython.int
    g: cython.int
    a: cython.int
    b: cython.int
    cnt: cython.int
    own: cython.int
    ok: cython.bint
    if nh < 1 or nh > MAX_HEXES or start < 0 or start >= nh or ba < 0 or ba >= nh:
        raise ValueError(f"destinations: {nh} hexes (1-{MAX_HEXES}), start {start} and Black Angel hex {ba} "
                         "must lie on the board")
    if nb.shape[0] < 6 * nh or ter_at < 0 or hs_at < 0 or buf.shape[0] < max(ter_at + nh, hs_at + 2 * nh):
        raise ValueError(f"destinations: the neighbour table ({nb.shape[0]} entries) and the buffer "
                         f"({buf.shape[0]} entries, terrain at {ter_at}, ships at {hs_at}) must cover {nh} hexes")
    if not cython.compiled:
        buf = buf.tolist()     # Python ints, not numpy scalars (see the module's docstring)
        nb = nb.tolist()
    out: list = []
    for i in range(nh):
        dist[i] = -1
    dist[start] = 0
    frontier[0] = start
    nf = 1
    d = 0
    while nf > 0 and d < rmax:
        d += 1
        nn = 0
        for i in range(nf):
            h = frontier[i]
            for k in range(6):
                g = nb[6 * h + k]
                if g >= 0 and dist[g] < 0 and (buf[ter_at + g] != asteroid or g == ba):
                    dist[g] = d
                    nxt[nn] = g
                    nn += 1
        for i in range(nn):
            frontier[i] = nxt[i]
        nf = nn
    for h in range(nh):
        if dist[h] < 0:
            continue
        if h == start:
            ok = rmin == 0
            if not ok and rmax >= 2:
                for k in range(6):
                    g = nb[6 * h + k]
                    if g >= 0 and (buf[ter_at + g] != asteroid or g == ba):
                        ok = True
        else:
            ok = dist[h] >= rmin
        if ok:
            a = buf[hs_at + 2 * h]
            b = buf[hs_at + 2 * h + 1]
            cnt = 0
            own = 0
            if a >= 0:
                cnt += 1
            if b >= 0:
                cnt += 1
            if a == p:
                own += 1
            if b == p:
                own += 1
            if existing and h == start:       # the moving ship itself leaves this hex
                cnt -= 1
                own -= 1
            if cnt < 2 and own == 0:
                out.append(h)
    return out
