"""Hal, the solitaire opponent (rulebook, VARIANT - PLAYING SOLITAIRE), resolved by the engine.

Hal is not an agent: after each of the player's turns the engine plays Hal's turn by the rulebook's procedure,
and the player's decisions stay the only actions.  Hal owns seat ``BOT`` (4): VP, dice, workstation robots and a
break room, but no board, hand or storage; every item he gains becomes VP at once by the weighting on the back
of his cards (component data ``hal.weights``, rules-notes C8; ``core.hal_gain``).

Where the rulebook says Hal acts "in the way that best suits his goal of gaining VP", the choices below are
computed, with the deterministic tie-breaks documented in ``docs/rules.md`` (R-H*):

* die choice: the highest value among his dice and the player's unreserved dice of the colour; his own on ties
  (R-H1: among several of his own, the lowest die id);
* Discover: "advanced first" takes the Advanced tile present nearest the display whenever 2 activations
  remain (the others shift toward the display, the far slots are refilled), then display tiles from the
  ejection end; "technology only" takes display tiles from the ejection end while they fit (rules-notes D18);
* Repair: one cube per activation from the first damaged action in the card's rotation, dice last, in colour
  order along the rotation (D19);
* Destroy: the set of whole locations destroying the most cards, ties to the earliest locations in the
  rotation (D19);
* Command: neutralization cards from the first strip on, activation cards from the last strip back, the comet
  hex when a strip offers two (EN Command).
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from ..constants import (
    ACT_COMMAND, ACT_DESTROY, ACT_DISCOVER, ACT_REPAIR, COLOURS, G_DEBRIS, HAL_CLOCKWISE,
    HAL_DISCOVER_ADVANCED_FIRST, MISSION_ACTIVATION, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT,
)
from ..state import State
from ..state import Registers           # compiled: the C type (cimported by the .pxd)
if not cython.compiled:                 # compiled: the inline C function of _registers.pxd and the C
    from ..state import registers       # constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, DIE_IN_USE, DIE_SUPPLY, MC_DISCARD, M_END_TRIGGERED, M_HAL_CARD, M_HAL_DECK_N, M_N_STRIPS, N_DICE,
        N_TILES, OT_ADV_SLOTS, OT_HAL_DECK, OT_HEX_COMET, OT_MC_WHERE, OT_TILE_BOOST, OT_TILE_WHERE, O_DIE_DAMAGED,
        O_DIE_OWNER, O_DIE_RESERVED, O_DIE_VALUE, O_DISPLAY, O_DMG, O_LAST_SEQ, O_RAV_COUNT, O_RAV_LOC, O_RES,
        O_ROBOTS_BREAK, RV_DISCARD, SRC_HAL, TL_DISCARD,
    )

from .core import SEQ_A, _log, gain_vp, hal_gain
from .decks import _draw_mission, _refill_adv_slot, _shuffled
from .dice import _damage_action, _damage_die, _effective, _roll_robots
from .space import _can_place_at
from .ravagers import _clear_location
from .end import is_final_turn
from .missions import place_mission
from .black_angel import advance_black_angel


def hal_free_activation(s: State, card: int) -> None:
    """The player activated Hal's card: Hal always takes one activation, paying nothing (PL: Hal has whatever
    he needs), and gains its output as VP."""
    hal_gain(s, s.comp.mission_gain[card], f"free activation of his Mission card {card}")


@cython.ccall
@cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t)
def _draw_hal_card(s: State) -> int:
    m = cython.declare(Registers, registers(s))
    n = m.r[M_HAL_DECK_N]
    if n == 0:
        # The deck is exhausted: shuffle the discards (all other cards) into a new deck.
        cards = _shuffled(s, list(range(12)))
        for i in range(12):
            m.r[OT_HAL_DECK + m._tail + i] = cards[i]
        n = 12
        _log(s, "Hal's deck is reshuffled")
    if not 0 < n <= 12:
        raise IndexError(f"Hal's deck holds {n} cards")
    card = m.r[OT_HAL_DECK + m._tail + n - 1]
    m.r[OT_HAL_DECK + m._tail + n - 1] = -1
    m.r[M_HAL_DECK_N] = n - 1
    m.r[M_HAL_CARD] = card
    return card


@cython.ccall
@cython.locals(best=cython.long, best_key=cython.long, key=cython.long, d=cython.long, o=cython.long)
def _pick_die(s: State, colour: int) -> int:
    """Hal takes the die of greatest value among his and the player's unreserved dice; his own on ties, then the
    lowest die id.  -1 when there is none: the colour is not available to him."""
    m = cython.declare(Registers, registers(s))
    best = -1
    best_key = -1
    for d in range(6 * colour, 6 * colour + 6):
        o = m.r[O_DIE_OWNER + d]
        if o == BOT or (o == 0 and not m.r[O_DIE_RESERVED + d]):
            key = 2 * m.r[O_DIE_VALUE + d] + (o == BOT)          # the value first, then Hal's own die
            if key > best_key:
                best, best_key = d, key
    return best


@cython.ccall
def _take_die(s: State, d: int) -> None:
    """Move the chosen die out of its compartment; a die of the player's is bought: the player takes 1
    resource from the supply in compensation."""
    if not 0 <= d < 18:
        raise ValueError(f"_take_die: {d!r} is not a die 0-17")
    m = cython.declare(Registers, registers(s))     # the dice and resources through the buffer (FIXED_OFFSETS)
    x = cython.declare(cython.Py_ssize_t, d)
    if m.r[O_DIE_OWNER + x] == 0:
        m.r[O_RES] += 1
        if s.log is not None:
            _log(s, f"Hal buys player_0's {COLOURS[x // 6]} {m.r[O_DIE_VALUE + x]} (player_0 takes 1 resource)")
    m.r[O_DIE_OWNER + x] = DIE_SUPPLY
    m.r[O_DIE_RESERVED + x] = 0


@cython.locals(d=cython.Py_ssize_t)
def hal_turn(s: State) -> None:
    """One turn of Hal's, right after the player's turn."""
    m = cython.declare(Registers, registers(s))
    comp = m.comp
    has_die = False
    for d in range(N_DICE):
        if m.r[O_DIE_OWNER + d] == BOT:
            has_die = True
            break
    if not has_die:
        _hal_sequence_b(s)
        return
    card = _draw_hal_card(s)
    top = m.r[O_LAST_SEQ] == SEQ_A
    halves = [(comp.hal_top_colour[card], comp.hal_top_action[card]),
              (comp.hal_bottom_colour[card], comp.hal_bottom_action[card])]
    if not top:
        halves.reverse()
    if s.log is not None:
        _log(s, f"Hal reveals card H{card + 1:02d} ({'top' if top else 'bottom'} half first)")
    for colour, action in halves:
        d = _pick_die(s, colour)
        if d >= 0:                            # the colour is available: his or the player's unreserved die
            value = m.r[O_DIE_VALUE + d]
            _take_die(s, d)
            m.r[O_DIE_VALUE + d] = 0
            m.r[O_DIE_OWNER + d] = DIE_IN_USE   # on the action until his turn is done: no Damage cube lands on it
            _hal_action(s, card, action, value, colour)
            m.r[O_DIE_OWNER + d] = DIE_SUPPLY
            return
    # Neither colour: return an unreserved die of the third colour (same choice rule), Hal gains 3 VP.
    third = 3 - halves[0][0] - halves[1][0]
    d = _pick_die(s, third)
    if d >= 0:
        _take_die(s, d)
        m.r[O_DIE_VALUE + d] = 0
    gain_vp(s, BOT, 3, SRC_HAL, f"no {COLOURS[halves[0][0]]} or {COLOURS[halves[1][0]]} die available")


@cython.ccall
def _hal_sequence_b(s: State) -> None:
    """Hal has no dice: roll for him (never reserving; a damaged die costs him 1 VP, rules-notes D17) and
    advance the Black Angel as in Sequence B."""
    m = cython.declare(Registers, registers(s))
    if is_final_turn(s):
        # END OF THE GAME, IMPORTANT: a final-turn Sequence B may be passed; passing never costs Hal VP.
        _log(s, "Hal has no dice in his final turn: he passes")
        return
    if m.r[M_END_TRIGGERED]:          # END OF THE GAME: the Black Angel advances no further
        _log(s, "Hal has no dice: he rolls (the Black Angel advances no further: the end is triggered)")
        _roll_robots(s, BOT, True)
        return
    _log(s, "Hal has no dice: he rolls and the Black Angel advances")
    _roll_robots(s, BOT, True)
    advance_black_angel(s)


@cython.ccall
def _unable(s: State, why: str) -> None:
    gain_vp(s, BOT, 3, SRC_HAL, f"unable to act: {why}")


@cython.ccall
def _hal_action(s: State, card: int, action: int, value: int, colour: int) -> None:
    comp = s.comp
    kind = comp.action_kind[action]
    ev = _effective(s, action, value)
    if s.log is not None:
        _log(s, f"Hal uses a {COLOURS[colour]} {value} on action {action + 1}")
    # Ravager effects: only those adding a Damage cube, and Hal loses nothing.
    m = cython.declare(Registers, registers(s))
    a = cython.declare(cython.Py_ssize_t, action)   # an action space 0-5: _effective checked it
    k = cython.declare(cython.Py_ssize_t, m.r[O_RAV_COUNT + a])
    if k:
        r = m.r[O_RAV_LOC + 3 * a + k - 1]
        eff = comp.ravager_effect[r]
        if eff == RAV_DAMAGE_NEXT:
            _damage_action(s, (action + 1) % 6)
        elif eff == RAV_DAMAGE_DIE:
            _damage_die(s, comp.ravager_die_colour[r])
    clockwise = comp.hal_rotation[card] == HAL_CLOCKWISE
    if kind == ACT_COMMAND:
        _hal_command(s, colour)
        return
    if ev <= 0:
        _unable(s, "die value 0")
        return
    if kind == ACT_DISCOVER:
        _hal_discover(s, ev, comp.hal_discover[card] == HAL_DISCOVER_ADVANCED_FIRST)
    elif kind == ACT_REPAIR:
        _hal_repair(s, ev, clockwise)
    elif kind == ACT_DESTROY:
        _hal_destroy(s, ev, clockwise)


@cython.cfunc
@cython.locals(m=Registers, k=cython.Py_ssize_t, x=cython.long)
def _slot_tiles(m) -> list:
    """The tiles on the Advanced Technology slots (the field's four), in slot order."""
    out = []
    for k in range(4):
        x = m.r[OT_ADV_SLOTS + m._tail + k]
        if x >= 0:
            out.append(x)
    return out


@cython.ccall
@cython.locals(i=cython.Py_ssize_t, k=cython.Py_ssize_t, t=cython.Py_ssize_t)
def _hal_discover(s: State, ev: int, advanced_first: bool) -> None:
    m = cython.declare(Registers, registers(s))     # the slots, display and tiles through the buffer
    comp = s.comp
    rem = ev
    taken_tech = taken_adv = 0
    if advanced_first:
        while rem >= comp.advanced_cost and _slot_tiles(m):
            # Hal takes the tile nearest the display; the others shift toward it and the far slots are refilled
            # (a slot is empty only once the deck has run out).
            rest = _slot_tiles(m)
            t = rest.pop(0)
            for k in range(4):
                m.r[OT_ADV_SLOTS + m._tail + k] = rest[k] if k < len(rest) else -1
            for k in range(len(rest), 4):
                _refill_adv_slot(s, k)
            if not 0 <= t < N_TILES:
                raise IndexError(f"no tile {t}")
            m.r[OT_TILE_WHERE + m._tail + t] = TL_DISCARD
            rem -= comp.advanced_cost
            taken_adv += 1
    costs = comp.display_costs
    if len(costs) != m._tail:
        raise ValueError(f"a display of {m._tail} spaces and {len(costs)} costs")
    for i in range(len(costs) - 1, -1, -1):             # from the ejection end
        t = m.r[O_DISPLAY + i]
        if t >= 0 and costs[i] <= rem:
            if t >= N_TILES:
                raise IndexError(f"no tile {t}")
            m.r[O_DISPLAY + i] = -1
            m.r[OT_TILE_WHERE + m._tail + t] = TL_DISCARD
            m.r[OT_TILE_BOOST + m._tail + t] = 0
            rem -= costs[i]
            taken_tech += 1
    if taken_tech + taken_adv == 0:
        _unable(s, "no Technology tile he can take")
        return
    hal_gain(s, None, f"Discover: {taken_tech} tile(s), {taken_adv} Advanced", tech=taken_tech,
             advanced=taken_adv)


@cython.ccall
@cython.locals(a=cython.Py_ssize_t, c=cython.Py_ssize_t, d=cython.Py_ssize_t)
def _hal_repair(s: State, ev: int, clockwise: bool) -> None:
    m = cython.declare(Registers, registers(s))     # the damage and dice through the buffer
    order = list(range(6)) if clockwise else list(range(5, -1, -1))
    colours = [0, 1, 2] if clockwise else [2, 1, 0]
    removed = 0
    for _ in range(ev):
        done = False
        for a in order:
            if m.r[O_DMG + a] > 0:
                m.r[O_DMG + a] -= 1
                done = True
                break
        if not done:
            for c in colours:
                for d in range(6 * c, 6 * c + 6):
                    if m.r[O_DIE_OWNER + d] == DIE_SUPPLY and m.r[O_DIE_DAMAGED + d]:
                        m.r[O_DIE_DAMAGED + d] = 0
                        done = True
                        break
                if done:
                    break
        if not done:
            break
        removed += 1
    if removed == 0:
        _unable(s, "no Damage cube")
        return
    vec = [0] * 8
    vec[G_DEBRIS] = removed
    hal_gain(s, vec, f"Repair: {removed} cube(s) become debris")


def _hal_destroy(s: State, ev: int, clockwise: bool) -> None:
    """Hal clears the Ravager locations that take the most cards his die allows; among the choices that take as
    many, the one whose locations come first in his rotation (earliest location first, then the next...)."""
    m = cython.declare(Registers, registers(s))     # the Ravager fields through the buffer
    order = list(range(6)) if clockwise else list(range(5, -1, -1))
    counts = [m.r[O_RAV_COUNT + a] for a in range(6)]
    locs = [a for a in order if counts[a] > 0]
    nl = len(locs)
    # the cards of every choice of locations (bit i: the i-th location of the rotation), from the choice less its
    # lowest bit
    sums = [0] * (1 << nl)
    for mask in range(1, 1 << nl):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + counts[locs[low.bit_length() - 1]]
    most = 0
    for t in sums:
        if most < t <= ev:
            most = t
    best = None
    if most > 0:                # the earliest in the rotation: the smallest list of indices (no two choices of
        for mask in range(1, 1 << nl):                              # equal cards are a prefix of each other)
            if sums[mask] == most:
                choice = tuple([i for i in range(nl) if mask >> i & 1])
                if best is None or choice < best:
                    best = choice
    if not best:
        _unable(s, "no Ravager location he can clear")
        return
    destroyed = 0
    for i in best:
        destroyed += _clear_location(s, locs[i], RV_DISCARD)
    hal_gain(s, None, f"Destroy: {destroyed} Ravager card(s)", ravagers=destroyed)


@cython.ccall
@cython.locals(card=cython.Py_ssize_t, pos=cython.Py_ssize_t, c=cython.Py_ssize_t, h=cython.Py_ssize_t,
               first=cython.Py_ssize_t, target=cython.Py_ssize_t)
def _hal_command(s: State, colour: int) -> None:
    m = cython.declare(Registers, registers(s))
    comp = s.comp
    card = _draw_mission(s, colour)
    if card < 0:
        _unable(s, f"no {COLOURS[colour]} Mission card to draw")
        return
    n_strips = m.r[M_N_STRIPS]
    positions = range(n_strips) if comp.mission_kind[card] != MISSION_ACTIVATION else range(n_strips - 1, -1, -1)
    target = -1
    for pos in positions:
        # the strip's first hex where the card may lie on a comet, else its first hex where it may lie
        first = -1
        for c in range(5):
            h = pos * 5 + c
            if _can_place_at(s, h, colour):
                if first < 0:
                    first = h
                if m.r[OT_HEX_COMET + m._tail + h]:
                    target = h
                    break
        if first >= 0:
            if target < 0:
                target = first
            break
    if target < 0:
        m.r[OT_MC_WHERE + m._tail + card] = MC_DISCARD
        _unable(s, f"no free {COLOURS[colour]} hex for his Mission card")
        return
    if m.r[O_ROBOTS_BREAK + BOT] == 0:
        m.r[O_ROBOTS_BREAK + BOT] += 1      # "Assume that Hal always has the robot he may need"
    place_mission(s, BOT, card, target)
    if m.r[OT_HEX_COMET + m._tail + target]:
        gain_vp(s, BOT, 3, SRC_HAL, "his Mission card lies on a comet")
