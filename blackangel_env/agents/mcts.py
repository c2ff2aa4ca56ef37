"""Information-set Monte Carlo tree search (single-observer ISMCTS, "determinized UCT").

At each decision the agent runs ``simulations`` iterations (or as many as fit in ``time_budget`` seconds when
that is given).  Each iteration:

1. takes a **determinization** (``determinize(state, seat, rng)``): a copy of the state in which everything
   the agent cannot know is resampled consistently with what it has seen.  The first ``pool_size`` (8)
   iterations of a decision sample one each; later iterations reuse them in turn (a copy, with a fresh
   generator for the dice and reshuffles), which saves most of the sampling cost;
2. descends one shared tree keyed by action ids (open loop: chance events, such as dice rolls, are redrawn by
   the determinization's fresh generator on every descent), choosing among the children legal in this
   determinization by UCB1 with availability counts (the ISMCTS rule), from the point of view of the seat
   acting at that node; a node that has an untried legal action expands one, at random;
3. plays out ``rollout_depth`` (6) decisions with uniformly random legal moves (or to the end of the game);
4. scores the reached position for every seat with ``blackangel_env.agents.value.evaluate`` as a margin (the seat's
   value minus the mean value of the other players; in the solo game ``evaluate`` already subtracts Hal's VP),
   divided by ``REWARD_SCALE``, and backs the vector up the path.

It plays the root child visited most (ties: higher mean value, then the agent's generator).

Budget pinned by ``tests/test_agents_mcts.py``: ``mcts:32`` (32 simulations, rollout depth 6, 8
determinizations) wins at least 6 of 8 seeded 2-player games against the greedy agent.

``determinize`` (``blackangel_env.agents.information``) samples what the agent cannot know: deck orders, the other
hands, Hal's deck and the future dice.
"""

from __future__ import annotations

import math
import time

import numpy as np

from blackangel_env import engine
from blackangel_env.state import State

from .greedy import SearchAgent, evaluate
from .information import determinize

UCB_C = 0.7             # exploration constant of UCB1 (rewards are margins / REWARD_SCALE)
REWARD_SCALE = 10.0     # VP-equivalents per unit of reward
DEFAULT_ROLLOUT_DEPTH = 6
DEFAULT_POOL = 8        # determinizations sampled per decision, reused in turn (each copy gets fresh dice)


class _Node:
    __slots__ = ("children", "n", "w", "avail")

    def __init__(self):
        self.children: dict[int, _Node] = {}
        self.n = 0
        self.w = np.zeros(5)
        self.avail = 0


def _rewards(s: State) -> np.ndarray:
    n = s.num_players
    vals = np.array([evaluate(s, q) for q in range(n)])
    out = np.zeros(5)
    if n == 1:
        out[0] = vals[0] / REWARD_SCALE
    else:
        total = vals.sum()
        out[:n] = (vals - (total - vals) / (n - 1)) / REWARD_SCALE
    return out


class MCTSAgent(SearchAgent):
    """ISMCTS with ``simulations`` iterations per decision (or ``time_budget`` seconds when given).

    ``act(observation, action_mask, state) -> action id``; ``state`` is required.  Deterministic under a seed
    when the budget is a number of simulations.
    """

    def __init__(self, simulations: int = 100, time_budget: float | None = None,
                 rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH, c: float = UCB_C, seed: int | None = None,
                 pool_size: int = DEFAULT_POOL):
        if simulations is not None and int(simulations) < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations!r}")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be a positive number of seconds, got {time_budget!r}")
        self.simulations = int(simulations) if simulations is not None else None
        self.time_budget = time_budget
        self.rollout_depth = rollout_depth
        self.c = float(c)
        self.pool_size = max(1, int(pool_size))
        super().__init__(seed)

    def choose(self, s: State, legal: list[int]) -> int:
        seat = s.actor
        root = _Node()
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        pool: list[State] = []
        i = 0
        while True:
            if deadline is not None:
                if i > 0 and time.perf_counter() >= deadline:
                    break
            elif i >= self.simulations:
                break
            if len(pool) < self.pool_size:
                pool.append(determinize(s, seat, self.rng))
                d = pool[-1].copy()
            else:
                d = pool[i % self.pool_size].copy()
            d.reseed(int(self.rng.integers(2**63)))       # fresh future randomness every iteration
            self._iterate(root, d)
            i += 1
        best, key = None, None
        for a in legal:
            ch = root.children.get(a)
            if ch is None:
                continue
            k = (ch.n, ch.w[seat] / max(ch.n, 1), self.rng.random())
            if key is None or k > key:
                best, key = a, k
        return int(best if best is not None else legal[int(self.rng.integers(len(legal)))])


    def _iterate(self, root: _Node, d: State) -> None:
        rng = self.rng
        node = root
        path = [root]
        while not d.terminal:
            legal = engine.legal_actions(d)
            p = d.actor
            untried = [a for a in legal if a not in node.children]
            if untried:
                a = untried[int(rng.integers(len(untried)))]
                for b in legal:
                    ch = node.children.get(b)
                    if ch is not None:
                        ch.avail += 1
                child = _Node()
                child.avail = 1
                node.children[a] = child
                engine.apply_unchecked(d, a)
                path.append(child)
                break
            best, best_u = None, -math.inf
            for a in legal:
                ch = node.children[a]
                ch.avail += 1
                u = ch.w[p] / ch.n + self.c * math.sqrt(math.log(ch.avail) / ch.n)
                if u > best_u:
                    best, best_u = a, u
            engine.apply_unchecked(d, best)
            node = node.children[best]
            path.append(node)
        steps = 0
        while not d.terminal and (self.rollout_depth is None or steps < self.rollout_depth):
            legal = engine.legal_actions(d)
            engine.apply_unchecked(d, legal[int(rng.integers(len(legal)))])
            steps += 1
        r = _rewards(d)
        for nd in path:
            nd.n += 1
            nd.w += r
