"""Text rendering of a game state, from one seat's point of view (or omniscient, for debugging).

``render(state, viewer)`` draws the whole position as plain text, about 100 columns wide, deterministic, with no
dependency beyond the package: header, Black Angel board, Technology display, Space board, each player's board
and hand, then the neutral player (2-player game) or Hal (solitaire).  ``viewer`` is a seat number, or None for
an omniscient view that shows every hand.  A viewer never sees another player's hand card ids, face-down slot
cards, cards being drawn, or the order of any deck; only what lies face up on the table (the tops of the face-up
Technology stacks included) and the sizes of hands, decks and piles.

Ids are written as unambiguous tokens: ``M#07`` (Mission card id 7, as in the action strings; its printed number
is id + 1), ``R#61`` (Ravager card, printed number 61-90 = id + 61), ``T#07`` (tile id 0..75: 0-47 Technology,
48-59 Starting, 60-75 Advanced).  Ids are zero-padded so that no token is a prefix of another.

``describe_mission``, ``describe_tile`` and ``describe_ravager`` give one-line descriptions for logs and CLIs.
Rendering only reads the state; it never changes it.
"""

from __future__ import annotations

import textwrap

import numpy as np

from .board import black_angel_hex, centre_position
from .components import Components
from .config import is_integer
from .constants import (
    ACTION_KINDS, ADV_TILE0, AE_TILES_OF_COLOUR, BE_VP_ON_ACTION, COLOURS, GOODS, MISSION_ACTIVATION, N_TECH,
    NEUT_FIXED, NEUT_PER_SPACE, RAV_DAMAGE_DIE, RAV_ROBOT, START_TILE0, T_SPES, TE_ACT_HORIZONTAL,
    TE_ACT_VERTICAL, TE_DEBRIS, TE_DRAW_MISSION, TE_MOVE_ROBOT, TE_MOVE_SHIP, TE_RESOURCE, TE_ROBOT, TE_SHIP,
    TE_VP, TILE_ADVANCED, TILE_START,
)
from .state import (
    BOT, DIE_SUPPLY, M_ACTION, M_ACTOR, M_ADV_DECK_N, M_ADVANCED, M_DECISIONS, M_DIE, M_DIE_COLOUR,
    M_DIE_VALUE, M_DONE, M_END_TRIGGERED, M_GAME_OVER, M_HAL_CARD, M_HAL_DECK_N, M_MISSION, M_N_PLAYERS,
    M_N_STRIPS, M_PHASE, M_RAV_DECK_N, M_ROUND, M_SOLO, M_SPES_POS, M_SPES_REACHED, M_SPES_TOKEN_POS,
    M_TAKEN_TILE, M_TRIGGER_ROUND, M_TURN_PLAYER, M_TURNS, M_VALUE, MC_DISCARD, MC_DRAWN, MC_HAND, MC_TUCKED,
    PHASE_NAMES, RAVAGER_SLOT, RV_BOX, RV_DISCARD, RV_HAND, TL_DISCARD, TL_EJECTED, TL_TAKEN, VP_SOURCES, State,
)

__all__ = ["render", "describe_mission", "describe_tile", "describe_ravager", "mission_token", "tile_token",
           "ravager_token"]

WIDTH = 100
COLOUR_INITIAL = ("o", "g", "n")          # orange, gray, greeN (as in the terrain letters O / G / N)
TERRAIN_LETTER = ("O", "G", "N", "A", "SPES")
GOOD_NAMES = {"ship": "ship", "resource": "resource", "robot": "robot", "debris": "debris", "vp": "VP",
              "tech": "tech tile", "ravager": "Ravager card", "mission": "Mission card"}
_EFFECT_SHORT = {
    TE_VP: "vp", TE_SHIP: "ship", TE_RESOURCE: "res", TE_ROBOT: "robot", TE_MOVE_SHIP: "mvship",
    TE_DEBRIS: "debris", TE_MOVE_ROBOT: "mvrobot", TE_ACT_VERTICAL: "act-vert", TE_ACT_HORIZONTAL: "act-horiz",
    TE_DRAW_MISSION: "draw",
}
_EFFECT_LONG = {
    TE_VP: "1 VP", TE_SHIP: "take a ship", TE_RESOURCE: "take a resource", TE_ROBOT: "take a robot",
    TE_MOVE_SHIP: "move a ship", TE_DEBRIS: "take a debris", TE_MOVE_ROBOT: "move a robot",
    TE_ACT_VERTICAL: "activate a vertically adjacent tile", TE_ACT_HORIZONTAL: "activate a horizontally "
    "adjacent tile", TE_DRAW_MISSION: "draw a Mission card",
}
_BOOST_SHORT = ("vp@", "set3", "recol", "free")
_BOOST_LONG = ("2 VP when you perform action {}", "set your {} die to 3", "change the colour of your {} die",
               "reserve a {} die for free")
_RAV_SHORT = ("damage next action", "damage die", "discard Mission", "discard Ravager", "robot on card")
_ADV_SHORT = ("tiles", "ejected", "debris", "ravagers", "advanced", "in-space")
_ADV_LONG = ("{} Technology tile in the grid", "ejected Technology tile", "debris in storage",
             "Ravager card in hand", "Advanced tile owned", "own Mission card in Space (strip 1 excluded)")
_SLOT_NAMES = ("left of row 1", "left of row 2", "left of row 3", "below col 1", "below col 2", "below col 3")


# =============================================================================================================
# Tokens and one-line descriptions
# =============================================================================================================

def mission_token(card: int) -> str:
    """``M#07``: Mission card id 7 (printed number 8)."""
    return f"M#{card:02d}"


def ravager_token(r: int) -> str:
    """``R#61``: Ravager card id 0 (its printed number)."""
    return f"R#{r + 61}"


def tile_token(t: int) -> str:
    """``T#07``: tile id 7 (0-47 Technology, 48-59 Starting, 60-75 Advanced)."""
    return f"T#{t:02d}"


def _goods(vec) -> str:
    parts = []
    for g, k in enumerate(vec):
        if k:
            name = GOOD_NAMES[GOODS[g]]
            parts.append(f"{k} {name}{'s' if k > 1 and not name.endswith('VP') else ''}")
    return " + ".join(parts) if parts else "nothing"


def describe_mission(comp: Components, card: int) -> str:
    """e.g. ``M#04 orange activation: pay 1 ship -> 2 VP | reward 1 ship | tiles orange``."""
    col = COLOURS[comp.mission_colour[card]]
    if comp.mission_kind[card] == MISSION_ACTIVATION:
        cost = comp.mission_cost[card]
        eff = (_goods(cost) if any(cost) else "free") + " -> " + _goods(comp.mission_gain[card])
        kind = "activation"
    else:
        kind = "neutralization"
        nk = comp.mission_neut_kind[card]
        if nk == NEUT_FIXED:
            eff = f"ejected -> owner {_goods(comp.mission_neut_owner[card])}"
            if any(comp.mission_neut_holder[card]):
                eff += f"; each ship on it {_goods(comp.mission_neut_holder[card])}"
                eff += " (owner's ship too)" if comp.mission_neut_owner_also_holder[card] else ""
        else:
            where = "in Space" if nk == NEUT_PER_SPACE else "tucked"
            eff = (f"ejected -> {comp.mission_neut_vp_each[card]} VP per {COLOURS[comp.mission_neut_colour[card]]}"
                   f" card {where} (owner and each ship on it)")
    reward = [0] * len(GOODS)
    reward[comp.mission_reward[card]] = comp.mission_reward_amount[card]
    tiles = "+".join(COLOURS[c] for c in comp.mission_tiles[card])
    return f"{mission_token(card)} {col} {kind}: {eff} | reward {_goods(reward)} | tiles {tiles}"


def describe_ravager(comp: Components, r: int) -> str:
    """e.g. ``R#67 action 1: damage die (orange)``."""
    eff = comp.ravager_effect[r]
    text = _RAV_SHORT[eff]
    if eff == RAV_DAMAGE_DIE:
        text += f" ({COLOURS[comp.ravager_die_colour[r]]})"
    return f"{ravager_token(r)} action {comp.ravager_action[r] + 1}: {text}"


def _tile_short(comp: Components, t: int, boost: bool) -> str:
    """Effect name without the id: ``o vp``, ``o 1x:set3(o)``, ``S ship/mvship`` (Starting tile),
    ``adv debris``."""
    kind = comp.tile_kind[t]
    if kind == TILE_START:
        return "S " + "/".join(_EFFECT_SHORT[e] for e in comp.tile_options[t])
    if kind == TILE_ADVANCED:
        a = comp.tile_adv[t]
        if a == AE_TILES_OF_COLOUR:
            return f"adv tiles-{COLOUR_INITIAL[comp.tile_adv_colour[t]]}"
        return "adv " + _ADV_SHORT[a]
    ci = COLOUR_INITIAL[comp.tile_colour[t]]
    if boost:
        b = comp.tile_boost[t]
        arg = comp.tile_boost_arg[t]
        argtxt = f"A{arg + 1}" if b == BE_VP_ON_ACTION else COLOUR_INITIAL[arg]
        return f"{ci} 1x:{_BOOST_SHORT[b]}{argtxt}" if b == BE_VP_ON_ACTION else f"{ci} 1x:{_BOOST_SHORT[b]}({argtxt})"
    return f"{ci} {_EFFECT_SHORT[comp.tile_effect[t]]}"


def describe_tile(comp: Components, t: int, boost: bool = False) -> str:
    """e.g. ``T#07 orange Technology: 1 VP``; ``boost`` describes the boost (1x) side of a Technology tile."""
    kind = comp.tile_kind[t]
    if kind == TILE_START:
        opts = " or ".join(_EFFECT_LONG[e] for e in comp.tile_options[t])
        return f"{tile_token(t)} Starting tile of player_{(t - START_TILE0) // 3}: {opts}"
    if kind == TILE_ADVANCED:
        a = comp.tile_adv[t]
        what = _ADV_LONG[a]
        if a == AE_TILES_OF_COLOUR:
            what = what.format(COLOURS[comp.tile_adv_colour[t]])
        return f"{tile_token(t)} Advanced tile: 2 VP per {what}"
    col = COLOURS[comp.tile_colour[t]]
    if boost:
        b = comp.tile_boost[t]
        arg = comp.tile_boost_arg[t]
        argtxt = str(arg + 1) if b == BE_VP_ON_ACTION else COLOURS[arg]
        return f"{tile_token(t)} {col} Technology, boost side (1x): {_BOOST_LONG[b].format(argtxt)}"
    return f"{tile_token(t)} {col} Technology: {_EFFECT_LONG[comp.tile_effect[t]]}"


# =============================================================================================================
# Helpers
# =============================================================================================================

def _seat(s: State, seat: int) -> str:
    if seat == BOT:
        return "Hal" if s.m[M_SOLO] else "neutral"
    return f"player_{seat}"


def _seat_short(s: State, seat: int) -> str:
    if seat == BOT:
        return "H" if s.m[M_SOLO] else "X"
    return str(seat)


def _die_face(v: int) -> str:
    return "star" if v == 0 else str(v)


def _rule(title: str) -> str:
    return f"== {title} " + "=" * max(3, WIDTH - len(title) - 4)


def _wrap(prefix: str, items: list[str], indent: int | None = None, sep: str = ", ") -> list[str]:
    """Join items after ``prefix``, wrapping at WIDTH."""
    ind = " " * (len(prefix) if indent is None else indent)
    if not items:
        return [prefix + "-"]
    lines, cur = [], prefix
    for i, it in enumerate(items):
        piece = it + (sep if i < len(items) - 1 else "")
        if len(cur) + len(piece.rstrip()) > WIDTH and cur.strip():
            lines.append(cur.rstrip())
            cur = ind
        cur += piece
    lines.append(cur.rstrip())
    return lines


def _wrap_text(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False)


def _seats_shown(s: State) -> list[int]:
    n = int(s.m[M_N_PLAYERS])
    return list(range(n)) + ([BOT] if n <= 2 else [])


# =============================================================================================================
# Sections
# =============================================================================================================

def _header(s: State, viewer: int | None) -> list[str]:
    m = s.m
    n = int(m[M_N_PLAYERS])
    mode = "solo vs Hal" if m[M_SOLO] else f"{n} players"
    rules = "advanced" if m[M_ADVANCED] else "base"
    view = "omniscient" if viewer is None else _seat(s, viewer)
    out = [_rule(f"BLACK ANGEL  {mode}, {rules} rules, view: {view}")]
    phase = int(m[M_PHASE])
    pname = PHASE_NAMES[phase] if 0 <= phase < len(PHASE_NAMES) else f"?{phase}"
    actor = "-" if m[M_GAME_OVER] else _seat(s, int(m[M_ACTOR]))
    out.append(f"round {int(m[M_ROUND])}  turn of {_seat(s, int(m[M_TURN_PLAYER]))}  phase {pname}  "
               f"acting {actor}  decisions {int(m[M_DECISIONS])}  turns {int(m[M_TURNS])}")
    flags = []
    if m[M_END_TRIGGERED]:
        tr = int(m[M_TRIGGER_ROUND])
        flags.append(f"END TRIGGERED in round {tr}")
        flags.append("FINAL ROUND" if m[M_ROUND] == tr + 1 else f"final round is round {tr + 1}")
    else:
        flags.append("end not triggered")
    if m[M_SPES_REACHED]:
        flags.append("SPES REACHED")
    if m[M_GAME_OVER]:
        flags.append("GAME OVER")
    out.append("  ".join(flags))
    # the decision in progress (public information only)
    dec = []
    d = int(m[M_DIE])
    if 0 <= d < 18 and not m[M_GAME_OVER]:
        col = int(m[M_DIE_COLOUR])
        col_txt = COLOURS[col] if 0 <= col < 3 else COLOURS[d // 6]
        dec.append(f"die in use: {COLOURS[d // 6]}#{d % 6} as {col_txt} {_die_face(int(m[M_DIE_VALUE]))}")
    a = int(m[M_ACTION])
    if 0 <= d < 18 and 0 <= a < 6 and not m[M_GAME_OVER]:
        dec.append(f"action {a + 1} ({ACTION_KINDS[s.comp.action_kind[a]]}) {int(m[M_DONE])}/{int(m[M_VALUE])}")
    mc = int(m[M_MISSION])
    if 0 <= d < 18 and 0 <= mc < 60 and not m[M_GAME_OVER]:
        dec.append(f"mission {mission_token(mc)} {int(m[M_DONE])}/{int(m[M_VALUE])}")
    t = int(m[M_TAKEN_TILE])
    if 0 <= t < len(s.tile_where) and s.tile_where[t] >= TL_TAKEN:
        dec.append(f"tile being injected: {tile_token(t)} {_tile_short(s.comp, t, bool(s.tile_boost[t]))}")
    if dec:
        out += _wrap("decision: ", dec, sep="; ")
    return out


def _black_angel(s: State) -> list[str]:
    comp = s.comp
    m = s.m
    out = [_rule("BLACK ANGEL BOARD")]
    maxd = comp.max_action_damage
    for a in range(6):
        kind = ACTION_KINDS[comp.action_kind[a]]
        dmg = int(s.dmg[a])
        dtxt = f"damage {dmg}/{maxd}" + (" DAMAGED" if dmg >= maxd else "")
        k = int(s.rav_count[a])
        ravs = []
        for i in range(k):
            r = int(s.rav_loc[a, i])
            txt = f"{ravager_token(r)} {_RAV_SHORT[comp.ravager_effect[r]]}"
            if comp.ravager_effect[r] == RAV_DAMAGE_DIE:
                txt += f" ({COLOUR_INITIAL[comp.ravager_die_colour[r]]})"
            if comp.ravager_effect[r] == RAV_ROBOT:
                robots = [f"{_seat_short(s, q)}x{int(s.rav_robots[r, q])}" for q in range(5) if s.rav_robots[r, q]]
                if robots:
                    txt += " [robots " + " ".join(robots) + "]"
            if i == k - 1:
                txt += " (TOP)"
            ravs.append(txt)
        prefix = f"  action {a + 1} {COLOURS[comp.action_colour[a]]:<6} {kind:<8} {dtxt:<18} Ravagers: "
        out += _wrap(prefix, ravs, sep="; ")
    seats = _seats_shown(s)
    sup = []
    for c in range(3):
        dice = [d for d in range(6 * c, 6 * c + 6) if s.die_owner[d] == DIE_SUPPLY]
        dmg = sum(1 for d in dice if s.die_damaged[d])
        sup.append(f"{COLOURS[c]} {len(dice)} ({dmg} damaged)")
    out.append("  dice in supply: " + ", ".join(sup))
    ws = []
    for c in range(3):
        ws.append(f"{COLOURS[c]} [" + " ".join(f"{_seat_short(s, q)}:{int(s.robots_ws[q, c])}" for q in seats) + "]")
    label = {BOT: " (X = neutral)" if not s.m[M_SOLO] else " (H = Hal)"}.get(seats[-1], "")
    out += _wrap(f"  workstations (robots per seat{label}): ", ws, sep="  ")
    out.append("  break rooms: " + "  ".join(f"{_seat(s, q)} {int(s.robots_break[q])}" for q in seats))
    rav_disc = int(np.count_nonzero(s.rav_where == RV_DISCARD))
    rav_box = int(np.count_nonzero(s.rav_where == RV_BOX))
    out.append(f"  Ravager deck {int(m[M_RAV_DECK_N])}, discard {rav_disc}, out of the game {rav_box}")
    decks = []
    for c in range(3):
        disc = int(np.count_nonzero(s.mc_where[20 * c:20 * c + 20] == MC_DISCARD))
        decks.append(f"{COLOURS[c]} {int(s.mc_deck_n[c])} (discard {disc})")
    out.append("  Mission decks: " + ", ".join(decks))
    stacks = []
    for c in range(3):
        k = int(s.tech_stack_n[c])
        top = ""
        if k:
            t = int(s.tech_stack[c, k - 1])
            top = f", top {tile_token(t)} {_tile_short(comp, t, bool(s.tile_boost[t]))}"
        stacks.append(f"{COLOURS[c]} {k}{top}")
    out += _wrap("  Technology stacks (face up): ", stacks, sep="; ")
    tdisc = int(np.count_nonzero(s.tile_where[:N_TECH] == TL_DISCARD))
    out.append(f"  Advanced deck {int(m[M_ADV_DECK_N])} (face down); Technology tiles discarded {tdisc}")
    return out


def _display(s: State) -> list[str]:
    comp = s.comp
    out = [_rule("TECHNOLOGY DISPLAY (space 1 = where tiles are injected)")]
    advanced = bool(s.m[M_ADVANCED])
    for i, cost in enumerate(comp.display_costs):
        t = int(s.display[i])
        if t < 0:
            txt = "(empty)"
        else:
            boost = advanced and bool(s.tile_boost[t])
            txt = describe_tile(comp, t, boost)
        out.append(f"  space {i + 1} cost {cost}: {txt}")
    for k in range(len(s.adv_slots)):
        t = int(s.adv_slots[k])
        txt = "(empty)" if t < 0 else describe_tile(comp, t)
        out.append(f"  Advanced slot {k + 1} cost {comp.advanced_cost}: {txt}")
    return out


def _hex_cell(s: State, h: int, ba: int) -> str:
    ter = int(s.hex_terrain[h])
    head = "@" if h == ba else ""
    if ter == T_SPES:
        head += "SPES"
    else:
        head += TERRAIN_LETTER[ter] if 0 <= ter < len(TERRAIN_LETTER) else "?"
        head += "*" if s.hex_comet[h] else ""
        head += str(int(s.hex_icons[h])) if s.hex_icons[h] else ""
    head = f"{head:<5}"
    card = int(s.hex_card[h])
    ctxt = ""
    if card >= 0:
        kind = "A" if s.comp.mission_kind[card] == MISSION_ACTIVATION else "N"
        owner = int(s.mc_owner[card])
        ctxt = f"{mission_token(card)}{COLOUR_INITIAL[s.comp.mission_colour[card]]}{kind}/{_seat_short(s, owner)}"
    ships = [int(x) for x in s.hex_ship[h] if x >= 0]
    stxt = ("s" + "".join(_seat_short(s, q) for q in ships)) if ships else ""
    return f"{head}{ctxt:<9}{stxt}"


def _space(s: State) -> list[str]:
    m = s.m
    n_strips = int(m[M_N_STRIPS])
    ba = black_angel_hex(n_strips)
    out = [_rule(f"SPACE BOARD ({n_strips} strips; position 1 is next to the Black Angel board)")]
    out.append("  hex: O/G/N = orange/gray/green territory, A = asteroid, SPES, * = comet, digit = Ravager icons,")
    out.append("       @ = Black Angel; M#id + colour o/g/n + A(ctivation)/N(eutralization) + /owner seat;")
    out.append(f"       s = ships of the seats listed{'; H = Hal' if s.m[M_SOLO] else ''}")
    out.append(("pos |" + "|".join(f" {name:<17}" for name in ("col -2", "col -1", "apex (0)", "col +1",
                                                                 "col +2"))).rstrip())
    for pos in range(n_strips - 1, -1, -1):
        cells = [_hex_cell(s, pos * 5 + col, ba) for col in range(5)]
        tag = f"{pos + 1:>2}"
        tag += "S" if m[M_SPES_TOKEN_POS] == pos else " "
        tag += "B" if pos == centre_position(n_strips) else " "
        out.append(tag + "|" + "|".join(f" {c:<17}" for c in cells).rstrip())
    tok = int(m[M_SPES_TOKEN_POS])
    sp = int(m[M_SPES_POS])
    spes = []
    if tok >= 0:
        spes.append(f"Spes token on strip position {tok + 1} (S)")
    if sp >= 0:
        spes.append(f"Spes tile on position {sp + 1}, apex")
    if m[M_SPES_REACHED]:
        spes.append("Spes REACHED")
    out.append(f"  Black Angel on position {centre_position(n_strips) + 1} apex (B); " + "; ".join(spes))
    return out


def _grid_cell(s: State, p: int, cell: int) -> str:
    t = int(s.grid[p, cell])
    if t < 0:
        return "."
    boost = bool(s.m[M_ADVANCED]) and t < N_TECH and bool(s.tile_boost[t])
    txt = f"{tile_token(t)} {_tile_short(s.comp, t, boost)}"
    if s.tile_debris[t]:
        txt += "+D"
    return txt


def _slot_text(s: State, p: int, k: int, show: bool) -> str:
    code = int(s.slots[p, k])
    if code < 0:
        return "-"
    if code >= RAVAGER_SLOT:
        return f"{ravager_token(code - RAVAGER_SLOT)} Ravager" if show else "Ravager"
    return f"{mission_token(code)} {COLOURS[code // 20]}" if show else f"Mission {COLOURS[code // 20]}"


def _player(s: State, p: int, viewer: int | None) -> list[str]:
    comp = s.comp
    m = s.m
    mine = viewer is None or viewer == p
    you = " (you)" if viewer == p else ""
    first = " [first player]" if p == 0 else ""
    out = [_rule(f"{_seat(s, p).upper()}{you}{first}")]
    out.append(f"  VP {int(s.vp[p])}   storage: resources {int(s.res[p])}, debris {int(s.debris[p])}, "
               f"ships {int(s.ships[p])}")
    out.append(f"  robots: supply {int(s.robots_supply[p])}, break room {int(s.robots_break[p])}, workstations "
               + "/".join(f"{COLOUR_INITIAL[c]}{int(s.robots_ws[p, c])}" for c in range(3))
               + f"   ships in Space {sum(1 for h in range(35) for x in s.hex_ship[h] if x == p)}")
    if m[M_GAME_OVER]:
        out += _wrap("  score: ", [f"{name} {int(s.vp_src[p, i])}" for i, name in enumerate(VP_SOURCES)
                                   if s.vp_src[p, i]] + [f"total {int(s.vp[p])}"])
    dice = []
    for d in range(18):
        if s.die_owner[d] == p:
            dice.append(f"{COLOURS[d // 6]}#{d % 6}={_die_face(int(s.die_value[d]))}"
                        + (" (reserved)" if s.die_reserved[d] else ""))
    out += _wrap("  dice: ", dice)
    # grid with the card slots: rows 0-2 have their slot on the left, columns 0-2 below
    cw = max([24] + [len(_grid_cell(s, p, c)) + 2 for c in range(9)])
    out.append("  grid (row 3 on top; [slots] for cards; 1x = boost side up; +D = debris on the tile):")
    for r in (2, 1, 0):
        cells = "|".join(f" {_grid_cell(s, p, r * 3 + c):<{cw - 1}}" for c in range(3))
        out.append(f"  row {r + 1} [{_slot_text(s, p, r, mine):<14}] |{cells}".rstrip())
    below = "|".join(f" [{_slot_text(s, p, 3 + c, mine):<{cw - 4}}] " for c in range(3))
    out.append(f"  {'':<23}|{below}".rstrip())
    ej = np.flatnonzero(s.tile_where == TL_EJECTED + p).tolist()
    ej_tech = sum(1 for t in ej if t < ADV_TILE0)
    ej_adv = [t for t in ej if t >= ADV_TILE0]
    line = f"  ejected tiles: {ej_tech} Technology/Starting"
    if ej_adv:
        line += ", Advanced " + " ".join(f"{tile_token(t)} {_tile_short(comp, t, False)}" for t in ej_adv)
    out.append(line)
    adv = []
    for k in range(3):
        t = int(s.adv_space[p, k])
        adv.append(f"{COLOURS[k]}: " + (f"{tile_token(t)} {_tile_short(comp, t, False)}" if t >= 0 else "-"))
    out.append("  Advanced spaces: " + "; ".join(adv))
    tucked = [f"{COLOURS[c]} {int(np.count_nonzero(s.mc_where[20 * c:20 * c + 20] == MC_TUCKED + p))}"
              for c in range(3)]
    out.append("  tucked Mission cards: " + ", ".join(tucked))
    # hand
    h = s.hand_mc[p]
    n_rav = int(s.hand_rav[p])
    sizes = ", ".join(f"{COLOURS[c]} {int(h[c])}" for c in range(3))
    out.append(f"  hand: {int(h.sum())} Mission ({sizes}), {n_rav} Ravager")
    if mine:
        for card in np.flatnonzero(s.mc_where == MC_HAND + p).tolist():
            out += _wrap_text(describe_mission(comp, card), "    ", "        ")
        ravs = np.flatnonzero(s.rav_where == RV_HAND + p).tolist()
        if ravs:
            out += _wrap("    Ravager cards: ", [ravager_token(r) for r in ravs])
    drawn = np.flatnonzero(s.mc_where == MC_DRAWN + p).tolist()
    if drawn:
        if mine:
            out.append("  drawn, to keep one:")
            for c in drawn:
                out += _wrap_text(describe_mission(comp, c), "    ", "        ")
        else:
            out.append("  drawn, to keep one: " + ", ".join(COLOURS[c // 20] for c in drawn))
    return out


def _bot(s: State) -> list[str]:
    m = s.m
    comp = s.comp
    solo = bool(m[M_SOLO])
    out = [_rule("HAL (solitaire opponent)" if solo else "NEUTRAL PLAYER (2-player game)")]
    dice = [f"{COLOURS[d // 6]}#{d % 6}={_die_face(int(s.die_value[d]))}"
            + (" (reserved)" if s.die_reserved[d] else "") for d in range(18) if s.die_owner[d] == BOT]
    ws = "/".join(f"{COLOUR_INITIAL[c]}{int(s.robots_ws[BOT, c])}" for c in range(3))
    if solo:
        out.append(f"  VP {int(s.vp[BOT])}   workstations {ws}   break room {int(s.robots_break[BOT])}   "
                   f"Hal deck {int(m[M_HAL_DECK_N])}")
        card = int(m[M_HAL_CARD])
        if 0 <= card < len(comp.hal_top_colour):
            out.append(f"  Hal card {card}: top {COLOURS[comp.hal_top_colour[card]]} action "
                       f"{comp.hal_top_action[card] + 1}, bottom {COLOURS[comp.hal_bottom_colour[card]]} action "
                       f"{comp.hal_bottom_action[card] + 1}")
        if m[M_GAME_OVER]:
            out.append("  score: " + ", ".join(f"{name} {int(s.vp_src[BOT, i])}"
                                                  for i, name in enumerate(VP_SOURCES) if s.vp_src[BOT, i])
                       + f", total {int(s.vp[BOT])}")
    else:
        out.append(f"  workstations {ws}")
    out += _wrap("  dice: ", dice)
    return out


# =============================================================================================================
# Public entry point
# =============================================================================================================

def render(state: State, viewer: int | None = None) -> str:
    """The whole state as text, seen by seat ``viewer`` (None = omniscient: every hand is shown).

    Deterministic; reads the state only.  Anything else than a State raises TypeError; a ``viewer`` that is not
    None or a player seat (an integer, numpy's included, bool not) ValueError.
    """
    if not isinstance(state, State):
        from .engine.core import not_a_state
        raise not_a_state("render", state)
    n = int(state.m[M_N_PLAYERS])
    if viewer is not None:
        if not is_integer(viewer) or not 0 <= viewer < n:
            raise ValueError(f"viewer must be a player seat 0..{n - 1} or None, got {viewer!r}")
        viewer = int(viewer)
    lines = _header(state, viewer)
    lines += _black_angel(state)
    lines += _display(state)
    lines += _space(state)
    for p in range(n):
        lines += _player(state, p, viewer)
    if n <= 2:
        lines += _bot(state)
    return "\n".join(lines) + "\n"
