"""Plain-language explanations of the decision in progress, for a person playing in the terminal.

``PHASE_PROMPTS`` maps each phase name (``state.PHASE_NAMES``) to one line naming the decision asked for, and
``PHASE_RULES`` to the rules of that step, in the words of ``docs/game.md``.  ``describe_option(state, action)``
says in one line what a legal action does in this state (which tiles a card activates, what a die is worth on
an action, which tile an injection ejects...); ``describe_options`` does it for a list of actions and
``explain_rules(state)`` gives the prompt and the rules of the step in progress (``help`` in ``blackangel
play``).  Every function only reads the state.
"""

from __future__ import annotations

import textwrap

from .actions import NUM_ACTIONS, decode
from .config import is_integer
from .constants import (
    ACT_COMMAND, ACT_DESTROY, ACT_DISCOVER, ACT_REPAIR, ADV_TILE0, BE_CHANGE_COLOUR, BE_FREE_RESERVE,
    BE_SET_THREE, BE_VP_ON_ACTION, COLOURS, RAV_DAMAGE_DIE, RAV_DAMAGE_NEXT,
    RAV_DISCARD_MISSION, RAV_DISCARD_RAVAGER, RAV_ROBOT, T_ASTEROID, T_SPES, TE_ACT_HORIZONTAL, TE_ACT_VERTICAL,
    TE_DEBRIS, TE_DRAW_MISSION, TE_MOVE_ROBOT, TE_MOVE_SHIP, TE_RESOURCE, TE_ROBOT, TE_SHIP, TE_VP, TILE_START,
)
from .render import describe_mission, describe_ravager, describe_tile, mission_token, tile_token
from .state import (
    BOT, M_ACTOR, M_B_FREE_COLOUR, M_DIE_VALUE, M_DONE, M_MISSION, M_PHASE, M_SOLO, M_TILE_CELL, M_TURN_PLAYER, M_VALUE, MC_TUCKED, PHASE_NAMES, State,
)

__all__ = ["PHASE_PROMPTS", "PHASE_RULES", "describe_option", "describe_options", "explain_rules", "prompt"]

ACTION_NAMES = {ACT_DISCOVER: "Discover Technology", ACT_REPAIR: "Repair the Black Angel",
                ACT_DESTROY: "Destroy Ravagers", ACT_COMMAND: "Command Your Ships"}
EFFECTS = {
    TE_VP: "gain 1 VP", TE_SHIP: "take a ship", TE_RESOURCE: "take a resource",
    TE_ROBOT: "take a robot into the break room", TE_MOVE_SHIP: "move a ship up to 2 hexes", TE_DEBRIS: "take a debris",
    TE_MOVE_ROBOT: "move a robot between the break room and a workstation",
    TE_ACT_VERTICAL: "activate the tile above or below", TE_ACT_HORIZONTAL: "activate the tile left or right",
    TE_DRAW_MISSION: "draw a Mission card of a colour you choose",
}
RAVAGER_EFFECTS = {
    RAV_DAMAGE_NEXT: "a Damage cube goes on the next action", RAV_DAMAGE_DIE: "a Damage cube goes on a {} die",
    RAV_DISCARD_MISSION: "you discard a Mission card", RAV_DISCARD_RAVAGER: "you discard a Ravager card",
    RAV_ROBOT: "you put a robot from the break room on the card",
}
SLOT_NAMES = ("left of row 1", "left of row 2", "left of row 3", "below column 1", "below column 2",
              "below column 3")
ARROW_NAMES = ("into row 1 from the left", "into row 2 from the left", "into row 3 from the left",
               "into column 1 from the bottom", "into column 2 from the bottom", "into column 3 from the bottom")

PHASE_PROMPTS: dict[str, str] = {
    "setup_reserve": "Setup: your player aid lets you reserve one of your dice for free.",
    "turn": "Your turn: choose Sequence A (use a die) or Sequence B (reroll and advance the Black Angel).",
    "a1_card": "Sequence A, step A1: play a card face down beside a row or column of your grid, or play none.",
    "a1_tiles": "Sequence A, step A1: resolve the tiles your card activated, in any order.",
    "tile_option": "This Starting tile offers two effects: choose one.",
    "tile_adjacent": "This tile may activate an adjacent tile.",
    "tile_draw": "This tile lets you draw a Mission card: choose its colour.",
    "tile_robot": "This tile lets you move a robot between the break room and a workstation.",
    "ship_select": "Choose the ship to move: one of yours in Space, or launch a new one.",
    "ship_move": "Choose where the ship ends its move.",
    "a2_die": "Sequence A, step A2: choose the die to act with (yours, or another seat's for 1 resource).",
    "a2_modify": "Sequence A, step A2: choose what the die does (or modify it first).",
    "die_colour": "The change-colour boost: choose the colour the die counts as.",
    "action_boost": "You may use a +2 VP boost tile for this action.",
    "ravager_discard": "The Ravager beside this action makes you discard a Mission card.",
    "discover": "Discover Technology: take tiles with the activations left.",
    "inject": "Inject the tile you took into your grid along an arrow.",
    "advanced_space": "An Advanced tile was ejected: put it on one of your Advanced spaces.",
    "repair": "Repair the Black Angel: remove Damage cubes with the activations left.",
    "debris": "The removed cube is now debris: store it or put it on a tile to activate that tile.",
    "destroy": "Destroy Ravagers: destroy the Ravager cards of whole locations with the activations left.",
    "command_card": "Command Your Ships: you may place a Mission card where the ship ended.",
    "mission": "Activation mission: use the activations of your die on this card.",
    "pay": "Pay the mission's cost.",
    "owner": "Another player used your Mission card: you may take one free activation of it.",
    "keep": "Advanced rules: keep one of the two Mission cards you drew.",
    "hand_limit": "End of turn: you hold more than 6 Mission cards; discard down to 6.",
    "b_reserve": "Sequence B: you may reserve one of your new dice (1 resource) so nobody can buy it.",
    "game_over": "The game is over.",
}

_A1 = ("A1 is optional. A Mission card activates the Technology tiles of its colour in that row or column, a "
       "Ravager card activates all of them; Advanced tiles are never activated. The slot stays filled until your "
       "next Sequence B, so each turn uses another slot.")
_TILES = ("Tile effects: gain 1 VP; take a ship, a resource, a robot or a debris; move a ship up to 2 hexes; move a "
          "robot between the break room and a workstation; activate an adjacent tile; draw a Mission card.")
_A2 = ("The die's value (star = 0) is the number of activations, and at least one must be used. Its colour must "
       "match: a board action of that colour, or an activation Mission card of that colour in Space on which you "
       "have a robot or a ship. An action with 2 Damage cubes counts the die one less. If Ravager cards sit beside "
       "the action, you first suffer the top card's effect (or lose 1 VP if you cannot). Then you draw a Mission "
       "card of the die's colour and the die returns to the supply.")
_COMMAND = ("Command Your Ships moves one ship 1 hex per activation (a new ship starts on the Black Angel's hex, "
            "piloted by a robot from your break room). Ships never enter asteroid fields (except the one the Black "
            "Angel sits on), and a hex holds at most 2 ships of different players. A star die moves nothing and "
            "must place a Mission card.")
_PLACE = ("On an empty territory of the die's colour you may place a Mission card of that colour: a robot from your "
          "break room goes on its reward, which you take, and you own the card. Then one Ravager card arrives for "
          "each Ravager Ship icon on the adjacent hexes (each damages the action it names), and the card's "
          "Technology tiles enter the display. Activation missions can later be used with a die of their colour; "
          "neutralization missions pay out when the Black Angel's advance ejects them from the first strip.")

PHASE_RULES: dict[str, str] = {
    "setup_reserve": "A reserved die sits in your high-security area: no one can buy it.",
    "turn": ("Sequence A: A1 play a card around your board to activate tiles (optional), A2 act with one die, "
             "A3 draw a Mission card of the die's colour. Sequence B: dice still in your compartment cost their "
             "value in VP, each robot in a workstation rolls a die of its colour, you may reserve one die for 1 "
             "resource, your slots are cleared, and the Black Angel advances one strip (the first strip's Mission "
             "cards are ejected: neutralization cards pay out). If Sequence A is impossible you must take B. The "
             "game ends one round after the Black Angel reaches Spes or the Ravager deck runs out."),
    "a1_card": _A1 + " " + _TILES,
    "a1_tiles": _A1 + " " + _TILES + " Stopping early forfeits the tiles not yet resolved.",
    "tile_option": "Starting tiles offer two effects; you get one of them. " + _TILES,
    "tile_adjacent": "An activation tile activates one adjacent tile (not another activation tile). It is optional.",
    "tile_draw": "The card goes to your hand (at most 6 Mission cards at the end of your turn). It is optional.",
    "tile_robot": ("Each robot in a workstation rolls a die of that colour at your next Sequence B; robots in the "
                   "break room pilot ships and take Mission card rewards. It is optional."),
    "ship_select": _COMMAND,
    "ship_move": _COMMAND,
    "a2_die": _A2 + " Buying a die costs 1 resource, paid to its owner (to the supply for the neutral player; "
                    "Hal turns it into 1 VP); reserved dice cannot be bought.",
    "a2_modify": _A2 + (" Before using your own die you may spend a debris to turn it to the opposite face "
                        "(faces differ by 2; not for a bought die). Advanced rules: boost tiles can set the die "
                        "to 3 or change its colour, once, then flip to their standard side."),
    "die_colour": "The die is used with the chosen colour; the card drawn in A3 still matches its original colour.",
    "action_boost": "The boost tile gives 2 VP for this action once, then flips to its standard side.",
    "ravager_discard": ("The top Ravager card beside an action applies its effect to whoever uses the action; "
                        "destroying the Ravagers (action 5) removes it."),
    "discover": ("Each activation takes a tile from display spaces 3-8; spaces 1-2 and Advanced tiles cost 2 "
                 "activations. Each tile is injected at once. Advanced tiles only score at the end (at most 4 VP "
                 "each, more if ejected onto an Advanced space beside tucked cards)."),
    "inject": ("The tile enters along the arrow and pushes the tiles in its way; a full row or column ejects its "
               "last tile (kept beside your board: ejected tiles pay some missions and count for some Advanced "
               "tiles; an ejected Advanced tile goes on an Advanced space)."),
    "advanced_space": ("An Advanced tile on one of your three Advanced spaces scores at most 4 VP plus 2 VP per "
                       "Mission card of that space's colour tucked under your board."),
    "repair": ("Each activation removes a Damage cube from an action (2 cubes: the action is damaged) or from a "
               "damaged die in the supply. Each removed cube becomes debris."),
    "debris": ("Debris in storage flips a die or pays missions; debris on a tile's lightning space activates that "
               "tile now and stays there until your next Sequence B."),
    "destroy": ("Each activation destroys one Ravager card; all the cards at a location go together. Destroyed "
                "cards go to your hand: they activate whole rows in A1 and pay some missions."),
    "command_card": _PLACE,
    "mission": ("Each activation pays the card's cost (if any) and gives its gain; you may stop after the first. "
                "If the card is not yours, its owner then gets one free activation."),
    "pay": "Choose which tile or card pays the cost.",
    "owner": "The free activation costs no die, but you still pay the card's cost.",
    "keep": "The other card is discarded.",
    "hand_limit": "Ravager cards do not count toward the limit of 6.",
    "b_reserve": "A reserved die cannot be bought by other players; boost tiles may reserve one more for free.",
    "game_over": "Scores: VP on the track, plus Advanced tiles, plus (if Spes was reached) 1 VP per 2 robots, "
                 "resources and ships.",
}
assert set(PHASE_PROMPTS) == set(PHASE_NAMES) == set(PHASE_RULES)


def _check_state(what: str, state) -> None:
    """TypeError naming the entry point ``what`` when ``state`` is not a State."""
    if not isinstance(state, State):
        from .engine.core import not_a_state
        raise not_a_state(what, state)


def _action_id(action) -> int:
    """``action`` as an int when it is an integer (numpy's included, bool not); TypeError naming it otherwise."""
    if type(action) is int:
        return action
    if not is_integer(action):
        raise TypeError(f"an action id must be an integer 0..{NUM_ACTIONS - 1}, got {action!r}")
    return int(action)


def prompt(state: State) -> str:
    """One line naming the decision in progress."""
    _check_state("prompt", state)
    return PHASE_PROMPTS[PHASE_NAMES[state.phase]]


def explain_rules(state: State, width: int = 100) -> str:
    """The prompt and the rules of the step in progress (what ``help`` prints in ``blackangel play``)."""
    _check_state("explain_rules", state)
    name = PHASE_NAMES[state.phase]
    text = f"{PHASE_RULES[name]} (docs/game.md in the repository describes the whole game.)"
    return "\n".join([PHASE_PROMPTS[name]] + textwrap.wrap(text, width))


def describe_options(state: State, actions) -> list[str]:
    """``describe_option`` for each action (integer ids: a float, a bool or None raises TypeError)."""
    _check_state("describe_options", state)
    return [describe_option(state, _action_id(a)) for a in actions]


# --- helpers ---------------------------------------------------------------------------------------------------

def _seat_name(s: State, seat: int) -> str:
    if seat == BOT:
        return "Hal" if s.m.item(M_SOLO) else "the neutral player"
    return f"player_{seat}"


def _face(v: int) -> str:
    return "a star (0)" if v == 0 else str(v)


def _tile_effect(s: State, t: int) -> str:
    comp = s.comp
    if comp.tile_kind[t] == TILE_START:
        return " or ".join(EFFECTS[e] for e in comp.tile_options[t])
    return EFFECTS.get(comp.tile_effect[t], "no effect")


def _tile(s: State, t: int) -> str:
    return f"{tile_token(t)} ({_tile_effect(s, t)})"


def _cell(c: int) -> str:
    return f"row {c // 3 + 1} column {c % 3 + 1}"


def _hex(h: int) -> str:
    return f"strip {h // 5 + 1}, column {h % 5 - 2:+d}"


def _hex_text(s: State, h: int) -> str:
    terrain = s.hex_terrain.item(h)
    if terrain == T_ASTEROID:
        what = "asteroid field"
    elif terrain == T_SPES:
        what = "Spes"
    else:
        what = f"{COLOURS[terrain]} territory"
    card = s.hex_card.item(h)
    if card >= 0:
        what += f", {mission_token(card)} placed"
    elif terrain < 3:
        what += ", no card yet"
    return f"{_hex(h)} ({what})"


def _die_text(s: State, d: int) -> str:
    return f"{COLOURS[d // 6]} die #{d % 6} showing {_face(s.die_value.item(d))}"


def _effective(s: State, action: int, value: int) -> int:
    if value > 0 and s.dmg.item(action) >= s.comp.max_action_damage:
        return value - 1
    return value


def _ravager_text(s: State, action: int) -> str:
    k = s.rav_count.item(action)
    if k == 0:
        return ""
    top = int(s.rav_loc[action, k - 1])
    eff = s.comp.ravager_effect[top]
    text = RAVAGER_EFFECTS[eff]
    if eff == RAV_DAMAGE_DIE:
        text = text.format(COLOURS[s.comp.ravager_die_colour[top]])
    return f"; first the top Ravager: {text}"


def _activated_tiles(s: State, p: int, slot: int, colour: int) -> list[int]:
    cells = [slot * 3 + c for c in range(3)] if slot < 3 else [r * 3 + slot - 3 for r in range(3)]
    out = []
    for c in cells:
        t = s.grid.item(p, c)
        if 0 <= t < ADV_TILE0 and (colour < 0 or s.comp.tile_colour[t] == colour):
            out.append(t)
    return out


def _activates(s: State, tiles: list[int]) -> str:
    if not tiles:
        return "activates no tile"
    return "activates " + ", ".join(_tile(s, t) for t in tiles)


def _boost_text(s: State, t: int) -> str:
    comp = s.comp
    b, arg = comp.tile_boost[t], comp.tile_boost_arg[t]
    if b == BE_VP_ON_ACTION:
        return f"gain 2 VP for action {arg + 1}"
    if b == BE_SET_THREE:
        return f"set the {COLOURS[arg]} die to 3"
    if b == BE_CHANGE_COLOUR:
        return f"the {COLOURS[arg]} die takes a colour you choose"
    if b == BE_FREE_RESERVE:
        return f"reserve a {COLOURS[arg]} die for free"
    return "no boost"


def _mission_short(s: State, card: int) -> str:
    return describe_mission(s.comp, card)


# --- one line per option -----------------------------------------------------------------------------------------

def describe_option(state: State, action: int) -> str:
    """One line saying what ``action`` does in ``state``, in the words of docs/game.md."""
    _check_state("describe_option", state)
    s = state
    m = s.m
    name, arg = decode(action)
    phase = PHASE_NAMES[m.item(M_PHASE)]
    actor = m.item(M_ACTOR)
    p = m.item(M_TURN_PLAYER)
    comp = s.comp
    if name == "SEQUENCE_A":
        return "Sequence A: play a card around your board, act with one die, draw a Mission card"
    if name == "SEQUENCE_B":
        own = [d for d, o in enumerate(s.die_owner.tolist()) if o == p]
        loss = sum(s.die_value.item(d) for d in own)
        robots = int(s.robots_ws[p].sum())
        lose = f"lose {loss} VP for the {len(own)} dice left, " if own else ""
        return (f"Sequence B: {lose}roll {robots} new dice (one per robot in a workstation), "
                "clear your slots, advance the Black Angel")
    if name == "PASS":
        return "pass your final turn (Sequence A is impossible)"
    if name == "DONE":
        return _done_text(s, phase)
    if name == "PLAY_MISSION":
        card, slot = divmod(arg, 6)
        tiles = _activated_tiles(s, p, slot, card // 20)
        return f"play {mission_token(card)} ({COLOURS[card // 20]}) {SLOT_NAMES[slot]}: {_activates(s, tiles)}"
    if name == "PLAY_RAVAGER":
        return f"play a Ravager card {SLOT_NAMES[arg]}: {_activates(s, _activated_tiles(s, p, arg, -1))}"
    if name == "RESOLVE_TILE":
        t = s.grid.item(p, arg)
        return f"resolve {tile_token(t)} at {_cell(arg)}: {_tile_effect(s, t)}"
    if name == "TILE_OPTION":
        t = s.grid.item(actor, m.item(M_TILE_CELL))
        opts = comp.tile_options[t]
        return EFFECTS.get(opts[arg], "no effect") if arg < len(opts) else "no effect"
    if name == "ACTIVATE_ADJACENT":
        t = s.grid.item(actor, arg)
        return f"activate {tile_token(t)} at {_cell(arg)}: {_tile_effect(s, t)}"
    if name == "DRAW_COLOUR":
        article = "an" if COLOURS[arg][0] in "aeiou" else "a"
        return f"draw {article} {COLOURS[arg]} Mission card ({s.mc_deck_n.item(arg)} left in its deck)"
    if name == "ROBOT_TO_WORKSTATION":
        return (f"move a robot from the break room to the {COLOURS[arg]} workstation "
                f"(one more {COLOURS[arg]} die at each reroll)")
    if name == "ROBOT_TO_BREAK_ROOM":
        return f"move a robot from the {COLOURS[arg]} workstation back to the break room"
    if name == "SELECT_SHIP":
        return f"use your ship on {_hex_text(s, arg)}"
    if name == "LAUNCH_SHIP":
        return "launch a new ship from the Black Angel's hex (a robot from your break room pilots it)"
    if name == "MOVE_SHIP":
        return f"end the move on {_hex_text(s, arg)}"
    if name == "SELECT_DIE":
        owner = s.die_owner.item(arg)
        if owner == actor:
            return f"use your {_die_text(s, arg)}"
        return f"buy {_seat_name(s, owner)}'s {_die_text(s, arg)} for 1 resource"
    if name == "FLIP_DIE":
        v = m.item(M_DIE_VALUE)
        return f"spend 1 debris to turn the die from {_face(v)} to {_face(v + 2 if v < 2 else v - 2)}"
    if name == "USE_BOOST":
        t = s.grid.item(actor, arg)
        return f"use the boost of {tile_token(t)} at {_cell(arg)}: {_boost_text(s, t)} (it flips)"
    if name == "SET_DIE_COLOUR":
        return f"the die counts as {COLOURS[arg]}"
    if name == "BOARD_ACTION":
        kind = comp.action_kind[arg]
        ev = _effective(s, arg, m.item(M_DIE_VALUE))
        damaged = " (damaged: one less)" if s.dmg.item(arg) >= comp.max_action_damage else ""
        return (f"action {arg + 1}, {ACTION_NAMES[kind]}: {ev} activation{'s' if ev != 1 else ''}{damaged}"
                f"{_ravager_text(s, arg)}")
    if name == "MISSION_ACTION":
        v = m.item(M_DIE_VALUE)
        return f"use {_mission_short(s, arg)}: up to {v} activation{'s' if v != 1 else ''}"
    if name == "DISCARD_MISSION":
        return f"discard {_mission_short(s, arg)}"
    if name == "TAKE_TECH":
        t = s.display.item(arg)
        cost = comp.display_costs[arg]
        return f"display space {arg + 1} (cost {cost}): take {describe_tile(comp, t, bool(s.tile_boost.item(t)))}"
    if name == "TAKE_ADVANCED":
        t = s.adv_slots.item(arg)
        return f"take {describe_tile(comp, t)} (cost {comp.advanced_cost}; scores only at the end)"
    if name == "INJECT":
        return f"inject the tile {ARROW_NAMES[arg]}: {_inject_text(s, actor, arg)}"
    if name == "ADVANCED_SPACE":
        tucked = sum(1 for c in range(60) if s.mc_where.item(c) == MC_TUCKED + actor and c // 20 == arg)
        return (f"put it on your {COLOURS[arg]} Advanced space: at most {4 + 2 * tucked} VP now "
                f"(4 + 2 per {COLOURS[arg]} card tucked under your board)")
    if name == "REPAIR_ACTION":
        d = s.dmg.item(arg)
        fix = " (it stops being damaged)" if d >= comp.max_action_damage else ""
        return f"remove a Damage cube from action {arg + 1} ({d} cube{'s' if d != 1 else ''}){fix}"
    if name == "REPAIR_DIE":
        return f"remove the Damage cube from a damaged {COLOURS[arg]} die in the supply"
    if name == "DEBRIS_TO_STORAGE":
        return "keep the debris in storage (to flip a die or pay missions later)"
    if name == "DEBRIS_TO_TILE":
        t = s.grid.item(actor, arg)
        return f"put the debris on {tile_token(t)} at {_cell(arg)} and activate it: {_tile_effect(s, t)}"
    if name == "DESTROY":
        k = s.rav_count.item(arg)
        cards = ", ".join(describe_ravager(comp, int(r)) for r in s.rav_loc[arg, :k])
        return f"destroy the {k} Ravager card{'s' if k != 1 else ''} at action {arg + 1} into your hand: {cards}"
    if name == "PLACE_MISSION":
        return f"place {_mission_short(s, arg)}"
    if name == "ACTIVATE":
        card = m.item(M_MISSION)
        if phase == "owner":
            return f"take your free activation of {_mission_short(s, card)}"
        left = m.item(M_VALUE) - m.item(M_DONE)
        return f"activate {_mission_short(s, card)} ({left} activation{'s' if left != 1 else ''} left)"
    if name == "SPEND_TECH":
        t = s.grid.item(actor, arg)
        return f"pay with {tile_token(t)} at {_cell(arg)} ({_tile_effect(s, t)}); it leaves the game"
    if name == "SPEND_EJECTED_TECH":
        return "pay with one of your ejected Technology tiles"
    if name == "SPEND_MISSION":
        return f"pay with {_mission_short(s, arg)}"
    if name == "KEEP_MISSION":
        return f"keep {_mission_short(s, arg)}"
    if name == "RESERVE_DIE":
        if phase == "setup_reserve":
            price = "free (player aid)"
        elif phase == "b_reserve" and m.item(M_B_FREE_COLOUR) >= 0:
            price = "free (boost tile)"
        else:
            price = "1 resource"
        return f"reserve your {_die_text(s, arg)}: {price}"
    return name


def _done_text(s: State, phase: str) -> str:
    if phase == "a1_card":
        return "play no card (go straight to the die action)"
    if phase == "a1_tiles":
        return "stop resolving tiles (the others are forfeited)"
    if phase in ("tile_adjacent", "tile_draw", "tile_robot"):
        return "skip this effect"
    if phase == "ship_select":
        return "move no ship"
    if phase in ("discover", "repair", "destroy", "mission"):
        left = s.m.item(M_VALUE) - s.m.item(M_DONE)
        return f"stop here ({left} activation{'s' if left != 1 else ''} unused)"
    if phase == "command_card":
        return "place no Mission card (the ship only moves)"
    if phase == "action_boost":
        return "use no boost"
    if phase == "owner":
        return "decline the free activation"
    if phase in ("b_reserve", "setup_reserve"):
        return "reserve no die"
    return "done"


def _inject_text(s: State, p: int, arrow: int) -> str:
    cells = [arrow * 3 + c for c in range(3)] if arrow < 3 else [r * 3 + arrow - 3 for r in range(3)]
    line = [s.grid.item(p, c) for c in cells]
    if any(t < 0 for t in line):
        return "no tile is ejected"
    t = line[2]
    return f"ejects {describe_tile(s.comp, t)}"
