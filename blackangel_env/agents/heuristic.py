"""A heuristic agent that plays whole turns with a simple plan.

The plan is built at the decisions that shape a turn and re-checked at each of them: every candidate action is
applied to a copy of the state and the rest of the agent's turn is played out by a cheap completion policy
(``complete_turn``); the candidate whose completed turn leaves the best position
(``blackangel_env.agents.greedy.evaluate``, plus the bonuses below) is played.  A turn is completed through Hal's turn
that follows it.  Every decision is planned in one determinization of the state
(``blackangel_env.agents.information.determinize``: deck orders, Hal's deck, the other hands and the future dice
resampled from the agent's generator), never on the real state, whose hidden information (Hal's next card, the dice to
come) no player has.  Concretely:

* **Which sequence.**  Sequence B when the agent has no die of its own left (it would have to buy every die),
  otherwise the better of "Sequence A played out" and "Sequence B played out" (B's penalty for the dice left
  in the compartment and its fresh dice are both in the value), with ``B_MARGIN`` in favour of A.
* **Which card, which die for which action** (A1 card, die selection, flip/boost, board action or Mission
  action, the ship to command and where to, the tiles to discover, where to inject): the completed-turn value.
  The completion policy is greedy except for ship movement, which looks one decision further so that a ship
  goes where a Mission card can be placed; placing a Mission card with Command earns ``BONUS_PLACE_MISSION``
  on top of its value, Discover earns ``BONUS_PER_TILE`` per Technology tile gained, and destroying Ravagers /
  repairing earn what the value function gives (Ravager cards in hand, debris, less damage for the dice).
* **Reserve a die or not** (Sequence B): planned like the decisions above (each reservation, and none, is
  played out to the end of the turn, Hal's turn included): a reservation costs a resource and keeps the die
  out of Hal's reach, while a die Hal buys pays the agent a resource and changes what Hal can do.  At setup:
  the own die of highest value if it shows at least ``RESERVE_MIN_VALUE`` (free reservations always taken),
  else none.
* **Discard** (hand limit, Ravager effect, paying with a card): the card of the colour the agent holds most
  of; **keep** (advanced draw-two): the card of the colour it holds fewest of.
* Everything else (the owner's free activation, tile options, robots...): greedy (``blackangel_env.agents.greedy``).

The value is ``blackangel_env.agents.value.evaluate``: VP plus the end-of-game worth of goods, tiles, cards in Space and
Advanced tiles, scaled by the rounds the game is expected to last, minus Hal's VP (and the VP his cards in
Space will bring him), with the heuristic's own weights (``W_GOOD``, ``W_TECH_TILE``, ``W_VP_TILE``,
``ADV_FILL``), plus ``W_HORIZON`` per round the game is still expected to last
(``blackangel_env.agents.value.horizon``): the agent prefers longer games, mostly by taking fewer Sequence Bs (each
advances the Black Angel toward Spes) and by drawing fewer Ravager cards.  To keep a game cheap, the planned comparison
looks at one Mission card per (colour, slot) in A1 (the one least worth keeping for a later Command,
``card_keep_score``) and one die per (owner, colour, value) in A2 (``candidates``): equivalent choices are played out
once.

How the weights were chosen, and the variants measured and dropped, are in ``docs/agents.md``.

Ties are broken by the agent's seeded generator.  The agent needs the engine state (``act(observation,
action_mask, state)``) and raises ``ValueError`` without it.
"""

from __future__ import annotations

import numpy as np

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.constants import G_VP
from blackangel_env.state import (
    M_TURN_PLAYER, M_TURNS, PH_A1_CARD, PH_A1_TILES, PH_A2_DIE, PH_A2_MODIFY, PH_ADVANCED_SPACE, PH_B_RESERVE,
    PH_COMMAND_CARD, PH_DEBRIS, PH_DESTROY, PH_DIE_COLOUR, PH_DISCOVER, PH_HAND_LIMIT, PH_INJECT, PH_KEEP, PH_PAY,
    PH_RAVAGER_DISCARD, PH_REPAIR, PH_SETUP_RESERVE, PH_SHIP_MOVE, PH_SHIP_SELECT, PH_TURN, State,
)

from .greedy import SearchAgent, best_actions
from .information import determinize
from .value import evaluate as _evaluate
from .value import horizon as _horizon

B_MARGIN = 0.5               # Sequence A is kept unless B's completed turn is worth this much more
BONUS_PLACE_MISSION = 1.0    # on top of the value: a Mission card placed in Space this turn
BONUS_PER_TILE = 1.5         # on top of the value: per Technology tile gained this turn
# The heuristic's own weights for the shared value (blackangel_env.agents.value.evaluate; tuning in docs/agents.md).
# Greedy and MCTS keep the value's defaults (0.5, 1.0, 2.0).
W_GOOD = 1.1                 # a resource, ship or robot in the break room, times frac
W_TECH_TILE = 2.0            # a Technology / Starting tile in the grid, times frac
W_VP_TILE = 3.0              # a "gain 1 VP" Technology tile in the grid, times frac
ADV_FILL = 0.9               # share of an Advanced tile's unfilled cap counted, times frac (value: 0.6)
W_HORIZON = 2.0              # VP per round the game is still expected to last (blackangel_env.agents.value.horizon)
RESERVE_MIN_VALUE = 2        # setup: reserve only a die showing at least this
MAX_COMPLETION_STEPS = 60    # safety cap on a turn's completion

# Decisions settled by the completed-turn comparison.
PLANNED_PHASES = frozenset({
    PH_TURN, PH_A1_CARD, PH_A1_TILES, PH_A2_DIE, PH_A2_MODIFY, PH_DIE_COLOUR, PH_SHIP_SELECT, PH_SHIP_MOVE,
    PH_COMMAND_CARD, PH_DISCOVER, PH_INJECT, PH_ADVANCED_SPACE, PH_REPAIR, PH_DEBRIS, PH_DESTROY,
})
LOOK_TWO_PHASES = frozenset({PH_SHIP_SELECT, PH_SHIP_MOVE})
_DISCARD_BLOCKS = ("DISCARD_MISSION", "SPEND_MISSION")


def evaluate(s: State, p: int) -> float:
    """The shared value with the heuristic's weights (``W_GOOD``, ``W_TECH_TILE``, ``W_VP_TILE``,
    ``ADV_FILL``), plus ``W_HORIZON`` per round the game is still expected to last."""
    v = _evaluate(s, p, W_GOOD, W_TECH_TILE, W_VP_TILE, ADV_FILL)
    if W_HORIZON and not s.terminal:
        v += W_HORIZON * _horizon(s)
    return v


def placed_and_tiles(s: State, p: int) -> tuple[int, int]:
    """Seat ``p``'s Mission cards in Space and Technology tiles gained (grid and ejected): what the plan's bonuses
    count from."""
    from blackangel_env.state import MC_SPACE, TL_EJECTED, TL_GRID
    placed = int(np.count_nonzero((s.mc_where == MC_SPACE) & (s.mc_owner == p)))
    tiles = int(np.count_nonzero((s.tile_where == TL_GRID + p) | (s.tile_where == TL_EJECTED + p)))
    return placed, tiles


def plan_value(s: State, p: int, before: tuple[int, int]) -> float:
    """``evaluate`` plus the plan's bonuses for Mission cards placed and tiles gained since ``before``."""
    placed, tiles = placed_and_tiles(s, p)
    return (evaluate(s, p) + BONUS_PLACE_MISSION * max(0, placed - before[0])
            + BONUS_PER_TILE * max(0, tiles - before[1]))


def _completion_choice(s: State, legal: list[int]) -> int:
    """The completion policy's move: greedy; at ship decisions greedy over two decisions of the same actor."""
    p = s.actor
    if s.phase in LOOK_TWO_PHASES and len(legal) > 1:
        before = placed_and_tiles(s, p)
        best, best_v = legal[0], -1e18
        for a in legal:
            t = s.copy()
            engine.apply_unchecked(t, a)
            if not t.terminal and t.actor == p and t.mv[M_TURNS] == s.mv[M_TURNS]:
                nxt = engine.legal_actions(t)
                _, vals = best_actions(t, nxt, p, lambda u, q: plan_value(u, q, before))
                v = max(vals)
            else:
                v = plan_value(t, p, before)
            if v > best_v:
                best, best_v = a, v
        return best
    if len(legal) == 1:
        return legal[0]
    best, _ = best_actions(s, legal, p, evaluate)
    return best[0]


def card_keep_score(comp, card: int) -> float:
    """How much a Mission card is worth keeping for a later Command (played first in A1 when lowest): an
    activation card by what one activation gains, a neutralization card by its owner's ejection payoff."""
    if comp.mission_kind[card] == 0:
        gain = comp.mission_gain[card]
        cost = comp.mission_cost[card]
        return sum(gain) + gain[G_VP] - 0.5 * sum(cost)
    if comp.mission_neut_kind[card] == 0:
        own = comp.mission_neut_owner[card]
        return 0.5 * sum(own) + 0.5 * own[G_VP]
    return 3.0


def candidates(s: State, p: int, legal: list[int]) -> list[int]:
    """The legal actions worth comparing: one Mission card per (colour, slot) in A1 (the one least worth
    keeping), one die per (owner, colour, value, reserved) in A2; everything else as it is."""
    ph = s.phase
    if ph == PH_A1_CARD:
        comp = s.comp
        best: dict[tuple[int, int], tuple[float, int]] = {}
        out = []
        for a in legal:
            if A.PLAY_MISSION <= a < A.PLAY_RAVAGER:
                card, slot = divmod(a - A.PLAY_MISSION, 6)
                key = (card // 20, slot)
                sc = (card_keep_score(comp, card), a)
                if key not in best or sc < best[key]:
                    best[key] = sc
            else:
                out.append(a)
        return out + sorted(a for _, a in best.values())
    if ph == PH_A2_DIE:
        seen = set()
        out = []
        owner, value, reserved = s.die_owner.tolist(), s.die_value.tolist(), s.die_reserved.tolist()
        for a in legal:
            if A.SELECT_DIE <= a < A.SELECT_DIE + 18:
                d = a - A.SELECT_DIE
                key = (owner[d], d // 6, value[d], reserved[d])
                if key in seen:
                    continue
                seen.add(key)
            out.append(a)
        return out
    return legal


def complete_turn(s: State, turn: int) -> None:
    """Play ``s`` forward (in place) with the completion policy until turn ``turn`` is over.  A state with no
    legal action before the end is a rules-engine bug (one was found this way: R-A16) and raises
    ``RuntimeError``."""
    for _ in range(MAX_COMPLETION_STEPS):
        if s.terminal or s.mv[M_TURNS] != turn:
            return
        legal = engine.legal_actions(s)
        if not legal:
            raise RuntimeError(f"the engine offers no legal action in phase {s.phase} of a game that is not over "
                               "(a rules-engine bug: please report it with the game's seed and actions)")
        engine.apply_unchecked(s, _completion_choice(s, legal))


class HeuristicAgent(SearchAgent):
    """Plays whole turns with the plan of the module docstring; falls back to greedy where it has no rule."""

    def _world(self, s: State, p: int) -> State:
        """The world a decision is planned in: a determinization of ``s`` for seat ``p``."""
        return determinize(s, p, self.rng)

    def _pick(self, cands: list[int]) -> int:
        return int(cands[int(self.rng.integers(len(cands)))])

    def choose(self, s: State, legal: list[int]) -> int:
        p = s.actor
        ph = s.phase
        s = self._world(s, p)                    # plan in a sampled world: never on the hidden information
        if ph == PH_B_RESERVE and p == int(s.mv[M_TURN_PLAYER]):
            return self._planned(s, p, legal)
        if ph in (PH_B_RESERVE, PH_SETUP_RESERVE):
            return self._reserve(s, p, legal)
        if ph in (PH_HAND_LIMIT, PH_RAVAGER_DISCARD, PH_PAY, PH_KEEP):
            a = self._card_choice(s, p, legal)
            if a is not None:
                return a
        if ph == PH_TURN and A.SEQUENCE_B in legal and not np.any(s.die_owner == p):
            return A.SEQUENCE_B
        if ph in PLANNED_PHASES and p == int(s.mv[M_TURN_PLAYER]):
            return self._planned(s, p, legal)
        best, _ = best_actions(s, legal, p, evaluate)
        return self._pick(best)

    def _candidate_value(self, world: State, a: int, p: int, turn: int, before: tuple[int, int]) -> float:
        """``a`` played in a copy of ``world``, the turn completed (``_play_out``), the position's plan value
        (``B_MARGIN`` less for Sequence B)."""
        t = world.copy()
        engine.apply_unchecked(t, a)
        self._play_out(t, turn)
        v = plan_value(t, p, before)
        if a == A.SEQUENCE_B:
            v -= B_MARGIN
        return v

    def _play_out(self, t: State, turn: int) -> None:
        """Play ``t`` forward in place until the position a candidate is judged in: the end of turn ``turn``."""
        complete_turn(t, turn)

    def _planned(self, s: State, p: int, legal: list[int]) -> int:
        turn = int(s.mv[M_TURNS])
        before = placed_and_tiles(s, p)
        cands = candidates(s, p, legal)
        if len(cands) == 1:
            return cands[0]
        return self._best_candidate(s, p, cands, turn, before)

    def _best_candidate(self, s: State, p: int, cands: list[int], turn: int, before: tuple[int, int]) -> int:
        """The candidate of highest ``_candidate_value`` in the planning world ``s`` (ties: the generator)."""
        vals = [self._candidate_value(s, a, p, turn, before) for a in cands]
        top = max(vals)
        return self._pick([a for a, v in zip(cands, vals) if v >= top - 1e-9])

    def _reserve(self, s: State, p: int, legal: list[int]) -> int:
        dice = [a for a in legal if A.decode(a).block == "RESERVE_DIE"]
        boosts = [a for a in legal if A.decode(a).block == "USE_BOOST"]
        if boosts:                       # a free reservation by boost: always take it
            return boosts[0]
        if not dice:
            return A.DONE if A.DONE in legal else self._pick(legal)
        value = {a: int(s.die_value[A.decode(a).arg]) for a in dice}
        top = max(value.values())
        forced = A.DONE not in legal     # a free reservation of a given colour
        if top < RESERVE_MIN_VALUE and not forced:
            return A.DONE
        return self._pick([a for a in dice if value[a] == top])

    def _card_choice(self, s: State, p: int, legal: list[int]) -> int | None:
        hand = s.hand_mc[p]
        if all(A.decode(a).block == "KEEP_MISSION" for a in legal):
            few = min(int(hand[A.decode(a).arg // 20]) for a in legal)
            return self._pick([a for a in legal if int(hand[A.decode(a).arg // 20]) == few])
        cards = [a for a in legal if A.decode(a).block in _DISCARD_BLOCKS]
        if not cards or len(cards) != len(legal):
            return None
        most = max(int(hand[A.decode(a).arg // 20]) for a in cards)
        return self._pick([a for a in cards if int(hand[A.decode(a).arg // 20]) == most])
