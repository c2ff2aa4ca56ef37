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

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from blackangel_env import _cython_shim as cython

from blackangel_env.config import is_integer
from blackangel_env.constants import ADV_TILE0, N_TECH, N_TILES, TE_VP
from blackangel_env.engine.core import not_a_state
from blackangel_env.scoring import advanced_tiles_detail
from blackangel_env.state import (
    BOT, M_END_TRIGGERED, M_GAME_OVER, M_N_PLAYERS, M_RAV_DECK_N, M_ROUND, M_SOLO, M_SPES_POS, M_SPES_REACHED,
    M_SPES_TOKEN_POS, M_TRIGGER_ROUND, MC_SPACE, MC_TUCKED, TL_ADV_SPACE, TL_EJECTED, State,
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


@cython.cclass
class _Offsets:
    """Where the fields ``evaluate`` reads start in the state buffer (one per layout, cached)."""

    vp: cython.Py_ssize_t
    res: cython.Py_ssize_t
    debris: cython.Py_ssize_t
    ships: cython.Py_ssize_t
    robots_break: cython.Py_ssize_t
    robots_ws: cython.Py_ssize_t
    hand_mc: cython.Py_ssize_t
    hand_rav: cython.Py_ssize_t
    grid: cython.Py_ssize_t
    die_value: cython.Py_ssize_t
    die_owner: cython.Py_ssize_t
    mc_where: cython.Py_ssize_t
    mc_owner: cython.Py_ssize_t
    mc_hex: cython.Py_ssize_t
    tile_where: cython.Py_ssize_t
    hex_ship: cython.Py_ssize_t

    def __init__(self, fields: dict):
        if fields["m"][1] != 0:
            raise RuntimeError("blackangel_env.agents.value: the registers no longer start the state buffer")
        self.vp = fields["vp"][1]
        self.res = fields["res"][1]
        self.debris = fields["debris"][1]
        self.ships = fields["ships"][1]
        self.robots_break = fields["robots_break"][1]
        self.robots_ws = fields["robots_ws"][1]
        self.hand_mc = fields["hand_mc"][1]
        self.hand_rav = fields["hand_rav"][1]
        self.grid = fields["grid"][1]
        self.die_value = fields["die_value"][1]
        self.die_owner = fields["die_owner"][1]
        self.mc_where = fields["mc_where"][1]
        self.mc_owner = fields["mc_owner"][1]
        self.mc_hex = fields["mc_hex"][1]
        self.tile_where = fields["tile_where"][1]
        self.hex_ship = fields["hex_ship"][1]


_OFF_CACHE: dict = {}


def _offsets(s: State) -> _Offsets:
    f = s._fields
    o = _OFF_CACHE.get(id(f))
    if o is None or o[0] is not f:
        o = _OFF_CACHE[id(f)] = (f, _Offsets(f))
    return o[1]


def _readable(buf):
    """What ``evaluate`` indexes: the int16 buffer itself compiled (a typed memoryview), its Python ints
    interpreted (numpy scalar reads are slow)."""
    return buf if cython.compiled else buf.tolist()


@cython.cfunc
def _rounds_left(end_triggered: cython.long, trigger_round: cython.long, rnd: cython.long, rav_deck_n: cython.long,
                 tok: cython.long, spes_pos: cython.long) -> cython.double:
    """``horizon`` from the registers it reads."""
    if end_triggered:
        return float(max(1, trigger_round + 2 - rnd))
    rav: cython.double = rav_deck_n + 1.0
    spes: cython.double
    if tok >= 0:
        spes = 2.2 * tok + 5.3
    else:
        spes = max(1.0, spes_pos - 1.0)
    return spes if spes < rav else rav


def horizon(s: State, m=None) -> float:
    """Expected rounds left, the current one included (module docstring); ``m``: the registers as a list."""
    if m is None:
        m = s.m.tolist()
    return _rounds_left(m[M_END_TRIGGERED], m[M_TRIGGER_ROUND], m[M_ROUND], m[M_RAV_DECK_N], m[M_SPES_TOKEN_POS],
                        m[M_SPES_POS])


@cython.cfunc
def _eject_chance(adv_exp: cython.double, hexid: cython.long) -> cython.double:
    """The chance that a card on hex ``hexid`` is ejected: its strip needs ``hexid // 5 + 1`` advances."""
    return min(1.0, max(0.0, adv_exp - hexid // 5))


@cython.cfunc
def _payoff(goods, w=_GOOD_W) -> cython.double:
    """The worth of a Mission card's ejection payoff (``GOODS`` order), each good at its weight."""
    t: cython.double = 0.0
    i: cython.Py_ssize_t
    g: cython.long
    for i in range(min(len(goods), len(w))):
        g = goods[i]
        if g:
            t += g * w[i]
    return t


def evaluate(state: State, seat, w_good=None, w_tech_tile=None, w_vp_tile=None, adv_fill=None) -> float:
    """Worth of ``seat``'s position in VP (module docstring); ``w_good``, ``w_tech_tile``, ``w_vp_tile``,
    ``adv_fill`` override ``W_GOOD``, ``W_TECH_TILE``, ``W_VP_TILE``, ``ADV_FILL`` (the heuristic agent plays
    with its own, tuned ones).  ``seat`` is a player seat 0..n-1 of the game (a Python or numpy integer; anything
    else raises ValueError naming it)."""
    s = state
    if not isinstance(s, State):
        raise not_a_state("evaluate", s)
    b: cython.const[cython.short][::1] = _readable(s._typed)
    n: cython.long = b[M_N_PLAYERS]
    if type(seat) is not int:
        if not is_integer(seat):
            raise ValueError(f"evaluate: seat must be a player seat 0..{n - 1}, got {seat!r}")
        seat = int(seat)
    if not 0 <= seat < n:
        raise ValueError(f"evaluate: seat must be a player seat 0..{n - 1}, got {seat!r}")
    p: cython.long = seat
    o: _Offsets = _offsets(s)
    i: cython.Py_ssize_t
    c: cython.Py_ssize_t
    d: cython.Py_ssize_t
    t: cython.long
    k: cython.long
    solo: cython.bint = b[M_SOLO] != 0
    vp: cython.double = float(b[o.vp + p])
    hal: cython.double = float(b[o.vp + BOT]) if solo else 0.0
    if b[M_GAME_OVER]:
        return vp - hal
    comp = s.comp
    h: cython.double = _rounds_left(b[M_END_TRIGGERED], b[M_TRIGGER_ROUND], b[M_ROUND], b[M_RAV_DECK_N],
                                    b[M_SPES_TOKEN_POS], b[M_SPES_POS])
    frac: cython.double = min(1.0, h / H_REF)
    ended: cython.bint = b[M_END_TRIGGERED] != 0
    adv_exp: cython.double = 0.0 if ended else h * ADVANCES_PER_ROUND

    v: cython.double = vp - hal
    if solo and HAL_RATE:
        v -= HAL_RATE * h
    # goods: used over the rest of the game, or converted at Spes (2 for 1 VP) when the game ends there
    spes: cython.double = 1.0 if (b[M_SPES_REACHED] or b[M_SPES_TOKEN_POS] < 0) else 0.0
    wg: cython.double = (W_GOOD if w_good is None else w_good) * frac + 0.5 * spes * (1.0 - frac)
    v += (wg * (b[o.res + p] + b[o.ships + p] + b[o.robots_break + p])
          + W_DEBRIS * frac * b[o.debris + p])
    ws: cython.Py_ssize_t = o.robots_ws + 3 * p
    v += W_WORKSTATION * frac * (b[ws] + b[ws + 1] + b[ws + 2])
    tile_scale: cython.double = frac
    w_tech: cython.double = W_TECH_TILE if w_tech_tile is None else w_tech_tile
    w_vpt: cython.double = W_VP_TILE if w_vp_tile is None else w_vp_tile
    has_adv: cython.bint = False
    for i in range(9):
        t = b[o.grid + 9 * p + i]
        if t < 0:
            continue
        if t >= ADV_TILE0:
            has_adv = True
        elif t < N_TECH and comp.tile_effect[t] == TE_VP:
            v += w_vpt * tile_scale
        else:
            v += w_tech * tile_scale
    tw: cython.Py_ssize_t = o.tile_where
    ej: cython.long = TL_EJECTED + p
    k = 0
    for i in range(N_TECH):
        if b[tw + i] == ej:
            k += 1
    v += W_EJECTED_TECH * k
    adv_elsewhere: cython.bint = False                 # an Advanced tile ejected by p or on one of its spaces
    for i in range(ADV_TILE0, N_TILES):
        if b[tw + i] == ej or b[tw + i] == TL_ADV_SPACE + p:
            adv_elsewhere = True
    if has_adv or adv_elsewhere:
        fill: cython.double = (ADV_FILL if adv_fill is None else adv_fill) * frac
        for detail in advanced_tiles_detail(s, p):
            v += detail["vp"] + fill * (detail["cap"] - detail["vp"])
    # Mission cards.
    mw: cython.Py_ssize_t = o.mc_where
    mo: cython.Py_ssize_t = o.mc_owner
    mh: cython.Py_ssize_t = o.mc_hex
    hs: cython.Py_ssize_t = o.hex_ship
    tucked: cython.long = MC_TUCKED + p
    k = 0
    for c in range(60):
        if b[mw + c] == tucked:
            k += 1
    v += W_CARD_TUCKED * k
    own: cython.long
    hx: cython.long
    nk: cython.long
    col: cython.long
    holder: cython.bint
    pe: cython.double
    gain: cython.double
    for c in range(60):
        if b[mw + c] != MC_SPACE:
            continue
        own = b[mo + c]
        hx = b[mh + c]
        holder = 0 <= hx < 35 and (b[hs + 2 * hx] == p or b[hs + 2 * hx + 1] == p)
        if own != p and not holder and not (solo and own == BOT):
            continue
        kind = comp.mission_kind[c]
        if own == BOT:
            v -= HAL_EJECT_VP * _eject_chance(adv_exp, hx)
            if not holder:
                continue
        if kind == 0:                           # activation
            if own == p:
                v += W_ACTIVATION_CARD * frac
            continue
        pe = _eject_chance(adv_exp, hx)
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
            k = 0
            if nk == 1:                         # per owned card of colour in Space (strip 1 excluded)
                for d in range(20 * col, 20 * col + 20):
                    if b[mw + d] == MC_SPACE and b[mo + d] == p and b[mh + d] >= 5 and d != c:
                        k += 1
            else:                               # per tucked card of colour
                for d in range(20 * col, 20 * col + 20):
                    if b[mw + d] == tucked:
                        k += 1
            gain = comp.mission_neut_vp_each[c] * k
        v += pe * gain
    hm: cython.Py_ssize_t = o.hand_mc + 3 * p
    v += W_HAND_MISSION * frac * min(b[hm] + b[hm + 1] + b[hm + 2], HAND_LIMIT)
    v += W_HAND_RAVAGER * frac * b[o.hand_rav + p]
    for i in range(18):
        if b[o.die_owner + i] == p:
            v += W_DIE + W_DIE_VALUE * b[o.die_value + i]
    return v
