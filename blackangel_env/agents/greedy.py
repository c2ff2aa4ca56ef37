"""The greedy baseline: one-decision lookahead on a documented value of the acting seat's position.

For every legal action the agent applies it to a copy of a determinization of the state
(``blackangel_env.agents.information``: the hidden information resampled from the agent's generator, so the lookahead
does not see the real dice to come, deck orders or Hal's next card) and scores the resulting position with
``evaluate(state, seat)`` (``blackangel_env.agents.value``: VP plus the worth of goods, tiles, cards and position, minus
Hal's VP in the solo game); it plays the best one, ties broken by its own seeded generator.  It needs the
engine state (``act(observation, action_mask, state)``) and raises ``ValueError`` when it is not given one.

The value function is shared by the heuristic and search agents (``blackangel_env.agents.heuristic``,
``blackangel_env.agents.mcts``) so that every agent in ``blackangel_env/agents/`` optimises the same notion of worth.
"""

from __future__ import annotations

import numpy as np

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.config import seed_or_none
from blackangel_env.state import State

from .information import determinize
from .value import evaluate

__all__ = ["GreedyAgent", "SearchAgent", "best_actions", "evaluate"]


def _require_state(agent: object, state: State | None) -> State:
    if state is None:
        raise ValueError(f"{type(agent).__name__} needs the engine state: call act(observation, action_mask, "
                         "state) with a copy of the state (the environments pass one to opponent policies)")
    return state


def _legal_from(agent: object, action_mask, state: State) -> list[int]:
    """The legal actions of the state that the mask allows (all of them for a mask of None): the environments'
    masks are the state's legal actions, and a caller may narrow them.  ValueError when none is left, or for a
    mask that is not one entry per action id."""
    legal = engine.legal_actions(state)
    if not legal:
        raise ValueError("no legal action: the game is over")
    if action_mask is None:
        return legal
    mask = A.mask_array(action_mask, type(agent).__name__)
    allowed = [a for a, ok in zip(legal, mask.take(legal).tolist()) if ok]
    if not allowed:
        raise ValueError(f"{type(agent).__name__}: the action mask allows none of the legal actions")
    return allowed


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
    state, answers a forced decision at once and otherwise asks ``choose(state, legal)`` (legal has 2+ ids: the
    legal actions the mask allows; a choice outside them, from a plan made on the whole position, is replaced by
    the greedy choice among them)."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed_or_none(f"{type(self).__name__}: seed", seed))

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed_or_none(f"{type(self).__name__}.reset: seed", seed))

    def act(self, observation, action_mask, state: State | None = None) -> int:
        s = _require_state(self, state)
        legal = _legal_from(self, action_mask, s)
        if len(legal) == 1:
            return int(legal[0])
        a = self.choose(s, legal)
        if a not in legal:          # a planned move that a narrowed mask forbids: the best allowed one instead
            a = _greedy_choice(self.rng, s, legal)
        return a

    __call__ = act

    def choose(self, state: State, legal: list[int]) -> int:
        raise NotImplementedError


class GreedyAgent(SearchAgent):
    """One-decision lookahead on ``evaluate`` (module docstring); ties broken by the agent's seeded generator.

    ``act(observation, action_mask, state) -> action id``; ``state`` is required (a copy of the engine state).
    """

    def choose(self, state: State, legal: list[int]) -> int:
        return _greedy_choice(self.rng, state, legal)


def _greedy_choice(rng: np.random.Generator, state: State, legal: list[int]) -> int:
    """The greedy agent's choice among ``legal``: the best by ``evaluate`` after one step on a determinization
    drawn with ``rng``, ties broken by ``rng``."""
    seat = state.actor
    best, _ = best_actions(determinize(state, seat, rng), legal, seat)
    return int(best[int(rng.integers(len(best)))])
