"""The greedy baseline: one-decision lookahead on a documented value of the acting seat's position.

For every legal action the agent applies it to ``state.copy()`` and scores the resulting position with
``evaluate(state, seat)``; it plays the best one, ties broken by its own seeded generator.  It needs the engine
state (``act(observation, action_mask, state)``) and raises ``ValueError`` when it is not given one.

The value of a position for seat ``p`` (``evaluate``), in VP-equivalents:

* a finished game: the final VP, nothing else (goods are worth nothing after final scoring);
* otherwise the VP on the track plus the worth of everything that can still turn into VP, with the weights
  named below: goods in storage (resources, ships, debris) and robots in the break room (converted 2 for 1 VP
  at Spes and spent on actions), robots in the workstations (each one rolls a die every Sequence B), the
  Technology tiles in the grid (each one is activated again and again), the ejected ones (spendable on some
  missions), the projected VP of the Advanced tiles (``scoring.advanced_tiles_detail``, what final scoring
  would give now), owned Mission cards in Space (rewards on ejection, cards tucked), tucked cards, the cards in
  hand (up to the hand limit), Ravager cards in hand, and the seat's own dice (value and face);
* in the solo game, minus ``W_HAL_VP`` per VP of Hal (Hal's VP are his whole position: the agent wins by
  margin, so buying Hal's die or letting him score counts against it).

The weights are deliberately simple round numbers; they are shared by the heuristic and search agents
(``agents.heuristic``, ``agents.mcts``) so that every agent in ``agents/`` optimises the same notion of worth.
"""

from __future__ import annotations

import numpy as np

from blackangel_env import engine
from blackangel_env.constants import ADV_TILE0, N_TECH
from blackangel_env.scoring import advanced_tiles_detail
from blackangel_env.state import BOT, M_SOLO, MC_SPACE, MC_TUCKED, TL_EJECTED, State

# --- value weights (VP-equivalents per unit) -----------------------------------------------------------------
W_VP = 1.0                  # a victory point on the track
W_RESOURCE = 0.5            # buys a die or a reservation; 2 for 1 VP at Spes
W_SHIP = 0.5                # a ship in storage: launched by Command, 2 for 1 VP at Spes, spent by missions
W_DEBRIS = 0.4              # flips a die or activates a tile once
W_ROBOT_BREAK = 0.5         # pilots a ship / sits on a reward; 2 for 1 VP at Spes
W_ROBOT_WORKSTATION = 1.5   # one more die every Sequence B
W_TECH_TILE = 1.2           # a Technology (or Starting) tile in the grid: activated by every matching card
W_EJECTED_TECH = 0.3        # an ejected Technology tile (spendable on missions, counts for some Advanced tiles)
W_ADVANCED_VP = 1.0         # per projected VP of the Advanced tiles (final-scoring rule applied now)
W_CARD_IN_SPACE = 1.5       # an owned Mission card in Space (ejection brings VP, goods, a tucked card)
W_CARD_TUCKED = 0.5         # a tucked (ejected) card: raises Advanced caps, counts for neutralizations
W_HAND_MISSION = 0.4        # a Mission card in hand, up to HAND_LIMIT of them
W_HAND_RAVAGER = 0.3        # a Ravager card in hand (activates a whole row / column)
W_DIE = 0.2                 # a die in the seat's compartment ...
W_DIE_VALUE = 0.25          # ... plus this much per pip of its face
W_HAL_VP = 1.0              # solo: per VP of Hal, subtracted
HAND_LIMIT = 6


def evaluate(state: State, seat: int) -> float:
    """Worth of ``seat``'s position in VP-equivalents (module docstring)."""
    s = state
    p = seat
    vp = float(s.vp[p])
    hal = W_HAL_VP * float(s.vp[BOT]) if s.m[M_SOLO] else 0.0
    if s.terminal:
        return vp - hal
    v = W_VP * vp - hal
    v += W_RESOURCE * float(s.res[p]) + W_SHIP * float(s.ships[p]) + W_DEBRIS * float(s.debris[p])
    v += W_ROBOT_BREAK * float(s.robots_break[p]) + W_ROBOT_WORKSTATION * float(s.robots_ws[p].sum())
    grid = s.grid[p]
    v += W_TECH_TILE * float(np.count_nonzero((grid >= 0) & (grid < ADV_TILE0)))
    if np.any(grid >= ADV_TILE0) or np.any(s.adv_space[p] >= 0) or np.any(s.tile_where[ADV_TILE0:] == TL_EJECTED + p):
        v += W_ADVANCED_VP * sum(d["vp"] for d in advanced_tiles_detail(s, p))
    v += W_EJECTED_TECH * float(np.count_nonzero(s.tile_where[:N_TECH] == TL_EJECTED + p))
    owned = (s.mc_where == MC_SPACE) & (s.mc_owner == p)
    v += W_CARD_IN_SPACE * float(np.count_nonzero(owned))
    v += W_CARD_TUCKED * float(np.count_nonzero(s.mc_where == MC_TUCKED + p))
    v += W_HAND_MISSION * float(min(int(s.hand_mc[p].sum()), HAND_LIMIT))
    v += W_HAND_RAVAGER * float(s.hand_rav[p])
    mine = s.die_owner == p
    if mine.any():
        v += W_DIE * float(np.count_nonzero(mine)) + W_DIE_VALUE * float(s.die_value[mine].sum())
    return v


def _require_state(agent: object, state: State | None) -> State:
    if state is None:
        raise ValueError(f"{type(agent).__name__} needs the engine state: call act(observation, action_mask, "
                         "state) with a copy of the state (the environments pass one to opponent policies)")
    return state


def _legal_from(action_mask, state: State) -> list[int]:
    """The legal actions, from the state itself (the mask, when given, is the same set)."""
    legal = list(engine.legal_actions(state))
    if not legal:
        raise ValueError("no legal action: the game is over")
    return legal


def best_actions(state: State, legal: list[int], seat: int, value=evaluate) -> tuple[list[int], list[float]]:
    """The actions of ``legal`` whose one-step successor has the highest ``value`` for ``seat`` (all ties),
    and every action's value (same order as ``legal``)."""
    vals = []
    for a in legal:
        t = state.copy()
        engine.apply_unchecked(t, a)          # ``legal`` comes from engine.legal_actions
        vals.append(value(t, seat))
    best = max(vals)
    return [a for a, v in zip(legal, vals) if v >= best - 1e-9], vals


class SearchAgent:
    """What the state-reading agents share: a seeded generator, ``reset(seed)``, and ``act`` that checks the
    state, answers a forced decision at once and otherwise asks ``choose(state, legal)`` (legal has 2+ ids)."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, state: State | None = None) -> int:
        s = _require_state(self, state)
        legal = _legal_from(action_mask, s)
        if len(legal) == 1:
            return int(legal[0])
        return self.choose(s, legal)

    __call__ = act

    def choose(self, state: State, legal: list[int]) -> int:
        raise NotImplementedError


class GreedyAgent(SearchAgent):
    """One-decision lookahead on ``evaluate`` (module docstring); ties broken by the agent's seeded generator.

    ``act(observation, action_mask, state) -> action id``; ``state`` is required (a copy of the engine state).
    """

    def choose(self, state: State, legal: list[int]) -> int:
        best, _ = best_actions(state, legal, state.actor)
        return int(best[int(self.rng.integers(len(best)))])
