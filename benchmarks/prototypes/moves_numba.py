"""Kernel K1 with numba ``@njit`` (the contract is moves_pure.py's); returns an int64 array of the moves."""

import numpy as np
from numba import njit


@njit(cache=True)
def _reach(ter, hs, nb, nh, ba, asteroid, p, start, rmax, existing, out, n, code):
    dist = np.full(64, -1, np.int64)
    frontier = np.empty(64, np.int64)
    nxt = np.empty(64, np.int64)
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
                if g >= 0 and dist[g] < 0 and (ter[g] != asteroid or g == ba):
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
            ok = False
            if rmax >= 2:
                for k in range(6):
                    g = nb[6 * h + k]
                    if g >= 0 and (ter[g] != asteroid or g == ba):
                        ok = True
        else:
            ok = dist[h] >= 1
        if ok:
            a = hs[2 * h]
            b = hs[2 * h + 1]
            cnt = (a >= 0) + (b >= 0)
            own = (a == p) + (b == p)
            if existing and h == start:
                cnt -= 1
                own -= 1
            if cnt < 2 and own == 0:
                out[n] = code * 256 + h
                n += 1
    return n


@njit(cache=True)
def command_moves(ter, hs, nb, ba, asteroid, p, ev):
    nh = ter.shape[0]
    out = np.empty(4096, np.int64)
    n = 0
    for h in range(nh):
        if hs[2 * h] == p or hs[2 * h + 1] == p:
            n = _reach(ter, hs, nb, nh, ba, asteroid, p, h, ev, True, out, n, h)
    n = _reach(ter, hs, nb, nh, ba, asteroid, p, ba, ev, False, out, n, 255)
    return out[:n]


@njit(cache=True)
def batch_count(ters, hss, nbs, nhs, bas, asteroid, ps, evs):
    """K1 over a batch of cases inside compiled code (one Python call): the number of moves of each case."""
    out = np.empty(len(ps), np.int64)
    for t in range(len(ps)):
        nh = nhs[t]
        out[t] = len(command_moves(ters[t, :nh], hss[t, :2 * nh], nbs[t], bas[t], asteroid, ps[t], evs[t]))
    return out
