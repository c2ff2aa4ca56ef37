"""The value of a position, shared by every search agent (greedy, heuristic, MCTS): ``evaluate(state, seat)``.

It is an estimate, in VP, of what the seat's position will be worth at the end of the game, minus (solo) what
Hal's is worth.  It reads the state buffer once as a list (a few tens of microseconds a call).

``horizon(state)``, the number of rounds the game is expected to last from here (including the current
one), scales everything whose worth is earned over the rest of the game.  The game ends when the Ravager
deck runs out (about one card a round while Mission cards keep being placed) or when the Black Angel reaches
Spes (about two rounds per advance), so ``horizon = min(Ravager cards left + 1, rounds to Spes)``, or the
rounds left in the final round(s) once the end is triggered.  ``frac = min(1, horizon / H_REF)`` is the
share of a full game still to come.

The value of a position for seat ``p``:

* a finished game: the final VP (minus Hal's in the solo game), nothing else;
* otherwise, the VP on the track, plus:

  - goods: resources, ships, robots in the break room, ``W_GOOD * frac`` each (spent on dice, missions and
    pilots) plus, once Spes is in sight, ``0.5 * (1 - frac)`` (2 for 1 VP at Spes); debris ``W_DEBRIS * frac``;
  - robots in the workstations: ``W_WORKSTATION * frac`` each (one more die every Sequence B);
  - Technology tiles in the grid (``W_TECH_TILE``; ``W_VP_TILE`` for a tile whose effect is 1 VP), times
    ``frac``: each is activated again and again by cards and debris; ejected Technology tiles
    (``W_EJECTED_TECH``: spendable on missions, counted by an Advanced tile);
  - Advanced tiles: what final scoring would give now (``scoring.advanced_tiles_detail``) plus
    ``ADV_FILL * frac`` of the VP each tile can still earn below its cap (elements come in over the game);
  - owned Mission cards in Space: a neutralization card is worth its ejection payoff (VP at face value,
    goods at ``W_GOOD``; the "3 VP per card" kinds counted on the current position) times the chance that
    it is ejected before the end (``eject_chance``); an activation card ``W_ACTIVATION_CARD * frac`` (it
    turns dice into VP or goods); a ship of the seat on someone else's neutralization card is worth the
    holders' part of the payoff the same way;
  - tucked (ejected) cards ``W_CARD_TUCKED``; Mission cards in hand up to the hand limit
    (``W_HAND_MISSION * frac``); Ravager cards in hand (``W_HAND_RAVAGER * frac``; an Advanced tile that
    counts them is in the Advanced projection); own dice (``W_DIE`` plus
    ``W_DIE_VALUE`` per pip);
* in the solo game, minus Hal's VP and minus the 3 VP Hal scores for each of his Mission cards in Space,
  times its ``eject_chance`` (so a Sequence B that ejects them costs only what it brings forward).

``eject_chance(strip)``: a card on strip ``k`` (0 = the next one ejected) needs ``k + 1`` advances;
``ADVANCES_PER_ROUND`` advances are expected per round over ``horizon`` rounds (none once the end is
triggered), and the chance is clipped to [0, 1].
"""

from __future__ import annotations

from blackangel_env.constants import ADV_TILE0, N_TECH, TE_VP
from blackangel_env.scoring import advanced_tiles_detail
from blackangel_env.state import (
    BOT, M_END_TRIGGERED, M_GAME_OVER, M_RAV_DECK_N, M_ROUND, M_SOLO, M_SPES_POS, M_SPES_REACHED, M_SPES_TOKEN_POS,
    M_TRIGGER_ROUND, MC_SPACE, MC_TUCKED, N_M, TL_ADV_SPACE, TL_EJECTED, State,
)

# --- weights (VP per unit) -----------------------------------------------------------------------------------
W_GOOD = 0.5                # a resource, ship or robot in the break room, times frac
W_DEBRIS = 0.5              # a debris in storage (flips a die, activates a tile, spent by missions), times frac
W_WORKSTATION = 2.0         # a robot in a workstation, times frac
W_TECH_TILE = 1.0           # a Technology / Starting tile in the grid, times frac
W_VP_TILE = 2.0             # a "gain 1 VP" Technology tile in the grid, times frac
W_EJECTED_TECH = 0.3        # an ejected Technology tile
ADV_FILL = 0.6              # share of an Advanced tile's unfilled cap expected to be earned, times frac
W_ACTIVATION_CARD = 1.5     # an owned activation Mission card in Space, times frac
W_CARD_TUCKED = 0.5         # a tucked (ejected) card
W_HAND_MISSION = 0.4        # a Mission card in hand (up to HAND_LIMIT)
W_HAND_RAVAGER = 0.4        # a Ravager card in hand
W_DIE = 0.2                 # an own die ...
W_DIE_VALUE = 0.3           # ... plus this much per pip
HAL_EJECT_VP = 3.0          # Hal scores this when one of his Mission cards is ejected
HAND_LIMIT = 6
H_REF = 10.0                # rounds: frac = min(1, horizon / H_REF)
ADVANCES_PER_ROUND = 0.5    # Black Angel advances per round (the player's Sequence B and Hal's rerolls)
HAL_RATE = 0.0              # solo: VP Hal is expected to score per round still to come (times horizon)

W_PAYOFF_GOOD = 0.5         # a resource, ship or robot in a Mission card's ejection payoff
_GOOD_W = (W_PAYOFF_GOOD, W_PAYOFF_GOOD, W_PAYOFF_GOOD, W_DEBRIS, 1.0, 0.3, W_HAND_RAVAGER, W_HAND_MISSION)   # GOODS order


def _off(s: State) -> tuple:
    """Offsets of the fields ``evaluate`` reads, and the four buffer ranges it copies (cached per layout)."""
    f = s._fields
    key = id(f)
    o = _OFF_CACHE.get(key)
    if o is None:
        off = {name: start for name, (shape, start, end) in f.items()}
        ranges = (("m", "die_owner"), ("mc_where", "mc_hex"), ("tile_where", "tile_where"),
                  ("hex_ship", "hex_ship"))
        o = (off, tuple((f[a][1], f[z][2]) for a, z in ranges))
        _OFF_CACHE[key] = o
    return o


_OFF_CACHE: dict[int, tuple] = {}


def horizon(s: State, m=None) -> float:
    """Expected rounds left, the current one included (module docstring); ``m``: the registers as a list."""
    if m is None:
        m = s.m.tolist()
    if m[M_END_TRIGGERED]:
        return float(max(1, int(m[M_TRIGGER_ROUND]) + 2 - int(m[M_ROUND])))
    rav = int(m[M_RAV_DECK_N]) + 1
    tok = int(m[M_SPES_TOKEN_POS])
    if tok >= 0:
        spes = 2.2 * tok + 5.3
    else:
        spes = max(1.0, float(int(m[M_SPES_POS]) - 1))
    return float(min(rav, spes))


def _payoff(goods, w=_GOOD_W) -> float:
    return sum(g * x for g, x in zip(goods, w) if g)


def evaluate(state: State, seat: int, w_good: float | None = None, w_tech_tile: float | None = None,
             w_vp_tile: float | None = None, adv_fill: float | None = None) -> float:
    """Worth of ``seat``'s position in VP (module docstring); ``w_good``, ``w_tech_tile``, ``w_vp_tile``,
    ``adv_fill`` override ``W_GOOD``, ``W_TECH_TILE``, ``W_VP_TILE``, ``ADV_FILL`` (the heuristic agent plays
    with its own, tuned ones)."""
    s = state
    p = seat
    o, ranges = _off(s)
    buf = s.buf
    (a0, a1), (c0, c1), (t0, t1), (h0, h1) = ranges
    b = buf[a0:a1].tolist()                  # m ... die_owner (offsets from 0)
    m0 = o["m"]
    solo = b[m0 + M_SOLO]
    vp0 = o["vp"]
    vp = float(b[vp0 + p])
    hal = float(b[vp0 + BOT]) if solo else 0.0
    if b[m0 + M_GAME_OVER]:
        return vp - hal
    comp = s.comp
    h = horizon(s, b[m0:m0 + N_M])
    frac = min(1.0, h / H_REF)
    ended = bool(b[m0 + M_END_TRIGGERED])
    adv_exp = 0.0 if ended else h * ADVANCES_PER_ROUND

    def eject_chance(hexid: int) -> float:
        k = hexid // 5
        return min(1.0, max(0.0, adv_exp - k))

    v = vp - hal
    if solo and HAL_RATE:
        v -= HAL_RATE * h
    # goods: used over the rest of the game, or converted at Spes (2 for 1 VP) when the game ends there
    spes = 1.0 if (b[m0 + M_SPES_REACHED] or b[m0 + M_SPES_TOKEN_POS] < 0) else 0.0
    w_good = (W_GOOD if w_good is None else w_good) * frac + 0.5 * spes * (1.0 - frac)
    v += w_good * (b[o["res"] + p] + b[o["ships"] + p] + b[o["robots_break"] + p]) + W_DEBRIS * frac * b[o["debris"] + p]
    ws = o["robots_ws"] + 3 * p
    v += W_WORKSTATION * frac * (b[ws] + b[ws + 1] + b[ws + 2])
    g0 = o["grid"] + 9 * p
    grid = b[g0:g0 + 9]
    tile_scale = frac
    w_tech = W_TECH_TILE if w_tech_tile is None else w_tech_tile
    w_vpt = W_VP_TILE if w_vp_tile is None else w_vp_tile
    has_adv = False
    for t in grid:
        if t < 0:
            continue
        if t >= ADV_TILE0:
            has_adv = True
        elif t < N_TECH and comp.tile_effect[t] == TE_VP:
            v += w_vpt * tile_scale
        else:
            v += w_tech * tile_scale
    tw = buf[t0:t1].tolist()
    ej = TL_EJECTED + p
    v += W_EJECTED_TECH * tw[:N_TECH].count(ej)
    if has_adv or ej in tw[ADV_TILE0:] or (TL_ADV_SPACE + p) in tw[ADV_TILE0:]:
        fill = (ADV_FILL if adv_fill is None else adv_fill) * frac
        for d in advanced_tiles_detail(s, p):
            v += d["vp"] + fill * (d["cap"] - d["vp"])
    # Mission cards.
    cards = buf[c0:c1].tolist()
    where, owner, hexes = cards[:60], cards[60:120], cards[120:180]
    tucked = MC_TUCKED + p
    v += W_CARD_TUCKED * where.count(tucked)
    ships = buf[h0:h1].tolist()
    in_space = []
    c = -1
    for _ in range(where.count(MC_SPACE)):
        c = where.index(MC_SPACE, c + 1)
        in_space.append(c)
    for c in in_space:
        own = owner[c]
        hx = hexes[c]
        holder = p in ships[2 * hx:2 * hx + 2]
        if own != p and not holder and not (solo and own == BOT):
            continue
        kind = comp.mission_kind[c]
        if own == BOT:
            v -= HAL_EJECT_VP * eject_chance(hx)
            if not holder:
                continue
        if kind == 0:                           # activation
            if own == p:
                v += W_ACTIVATION_CARD * frac
            continue
        pe = eject_chance(hx)
        if pe <= 0.0:
            continue
        nk = comp.mission_neut_kind[c]
        if nk == 0:                             # fixed
            gain = 0.0
            if own == p:
                gain += _payoff(comp.mission_neut_owner[c])
                if holder and comp.mission_neut_owner_also_holder[c]:
                    gain += _payoff(comp.mission_neut_holder[c])
            else:
                gain += _payoff(comp.mission_neut_holder[c])
        else:
            col = comp.mission_neut_colour[c]
            if nk == 1:                         # per owned card of colour in Space (strip 1 excluded)
                n = sum(1 for d in in_space if owner[d] == p and d // 20 == col and hexes[d] >= 5 and d != c)
            else:                               # per tucked card of colour
                n = where[20 * col:20 * col + 20].count(tucked)
            gain = comp.mission_neut_vp_each[c] * n
        v += pe * gain
    hm = o["hand_mc"] + 3 * p
    v += W_HAND_MISSION * frac * min(b[hm] + b[hm + 1] + b[hm + 2], HAND_LIMIT)
    v += W_HAND_RAVAGER * frac * b[o["hand_rav"] + p]
    do, dv = o["die_owner"], o["die_value"]
    owners = b[do:do + 18]
    if p in owners:
        vals = b[dv:dv + 18]
        for i in range(18):
            if owners[i] == p:
                v += W_DIE + W_DIE_VALUE * vals[i]
    return v
