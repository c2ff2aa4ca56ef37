"""The ``search`` agent: the heuristic's whole-turn plans, compared over several sampled worlds and a longer horizon.

The heuristic (``blackangel_env.agents.heuristic``) settles each decision that shapes its turn by playing every
candidate to the end of the turn (Hal's turn included) in **one** determinization and comparing the positions
reached.  One sample of what the agent cannot see (Hal's next card, the dice to come, the decks) is a noisy
judge, and the end of the turn is a short horizon.  This agent keeps the heuristic's candidates, completion policy
and value, and changes how a candidate is judged:

* **Several worlds.**  Each candidate is played out in ``worlds`` determinizations of the state (the same worlds
  for every candidate: common random numbers, so the comparison is not decided by which candidate drew the
  better dice) and judged by its mean value.
* **Successive halving.**  Every candidate is played out in the first world; only the ``keep`` best go on to the
  other worlds.  Most candidates are clearly worse after one play-out, and this keeps the cost near the
  heuristic's.
* **A longer horizon.**  After the candidate's own turn (and Hal's), ``depth`` further turns are played by the
  completion policy before the position is valued, so that a plan that pays off next turn (a ship that reaches a
  territory, a card kept for a Command) is seen.  The default is 0: played by the completion policy, the next
  turn judged the candidate worse than the end of its own turn does (docs/agents.md).

Everything else (the reserve, discards, the owner's activations) is the heuristic's.  The agent never plans on
the real state: each world is ``blackangel_env.agents.information.determinize`` of it.  ``omniscient=True``
(agent code ``search:omniscient=1``) plans on a copy of the real state instead, seeing Hal's deck, the decks
and the dice to come: the upper bound of this search, a reference for how much of its gap to Hal is hidden
information.  It is not a fair player.

Agent code: ``search`` (the defaults below) or ``search:key=value,...`` with the keys ``worlds``, ``keep``,
``depth`` and ``omniscient``.
"""

from __future__ import annotations

from blackangel_env.state import M_TURNS, State

from .heuristic import HeuristicAgent, complete_turn

__all__ = ["TurnSearchAgent", "DEFAULTS"]

DEFAULTS = {"worlds": 4, "keep": 3, "depth": 0, "omniscient": False}


class TurnSearchAgent(HeuristicAgent):
    """The heuristic with its turn plans judged over ``worlds`` determinizations (successive halving to ``keep``
    candidates) and ``depth`` further turns (module docstring).  ``omniscient`` plans on the real state."""

    def __init__(self, worlds: int = DEFAULTS["worlds"], keep: int = DEFAULTS["keep"], depth: int = DEFAULTS["depth"],
                 omniscient: bool = DEFAULTS["omniscient"], seed: int | None = None):
        for name, v, low in (("worlds", worlds, 1), ("keep", keep, 1), ("depth", depth, 0)):
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
        self.worlds = worlds
        self.keep = keep
        self.depth = depth
        self.omniscient = bool(omniscient)
        self._real: State | None = None
        super().__init__(seed)

    def choose(self, s: State, legal: list[int]) -> int:
        self._real = s
        try:
            return super().choose(s, legal)
        finally:
            self._real = None

    def _world(self, s: State, p: int) -> State:
        return s.copy() if self.omniscient else super()._world(s, p)

    def _play_out(self, t: State, turn: int) -> None:
        complete_turn(t, turn)
        for _ in range(self.depth):
            if t.terminal:
                break
            complete_turn(t, int(t.mv[M_TURNS]))

    def _candidate_value(self, world: State, a: int, p: int, turn: int, before: tuple[int, int]) -> float:
        # Quantized: the value subtracts Hal's VP, whose starting level (his difficulty) would otherwise move the
        # last bits of near-equal values, and so the order of candidates, from one difficulty to another.
        return round(super()._candidate_value(world, a, p, turn, before), 6)

    def _best_candidate(self, s: State, p: int, cands: list[int], turn: int, before: tuple[int, int]) -> int:
        first = [self._candidate_value(s, a, p, turn, before) for a in cands]
        n_worlds = 1 if self.omniscient else self.worlds
        if n_worlds == 1 or self.keep == 1:
            totals, n = first, 1
            kept = list(range(len(cands)))
        else:
            kept = sorted(range(len(cands)), key=lambda i: -first[i])[:self.keep]
            totals = {i: first[i] for i in kept}
            for _ in range(n_worlds - 1):
                w = self._world(self._real, p) if self._real is not None else s
                for i in kept:
                    totals[i] += self._candidate_value(w, cands[i], p, turn, before)
            n = n_worlds
        means = {i: totals[i] / n for i in kept}
        top = max(means.values())
        return self._pick([cands[i] for i in kept if means[i] >= top - 1e-9])
