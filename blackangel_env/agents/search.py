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

* **Play-outs to the end of the game** (``rollout``, off by default).  At the decisions that shape a turn most
  (the choice of sequence, the Mission card of A1, the die of A2 and the reservation of Sequence B), the
  ``rollout`` best candidates by the value above are each played to the end of the game in every world, all seats
  (and Hal) played by the heuristic from there on, and the candidate of best mean final margin (own VP minus the
  best other score, Hal's in the solo game) is played; ties go to the value's order.  The continuation plans as
  this agent does: in its own sampled worlds, or on the world itself when ``omniscient``.  Each world's
  continuation is seeded once for all candidates (common random numbers).  ``all_decisions`` extends the
  play-outs to every decision the heuristic plans (the ship's moves, the tiles, the board actions...), at about
  two and a half times the cost; it did not play better (docs/agents.md).

Everything else (the reserve, discards, the owner's activations) is the heuristic's.  The agent never plans on
the real state: each world is ``blackangel_env.agents.information.determinize`` of it.  ``omniscient=True``
(agent code ``search:omniscient=1``) plans on a copy of the real state instead, seeing Hal's deck, the decks
and the dice to come: the upper bound of this search, a reference for how much of its gap to Hal is hidden
information.  It is not a fair player.  ``search:omniscient=1,rollout=3`` is the stronger reference: it plays
each of its three best candidates to the end of the real game, future dice and Hal's cards included, and so
knows exactly what each leads to if the heuristic plays the rest.

Agent code: ``search`` (the defaults below) or ``search:key=value,...`` with the keys ``worlds``, ``keep``,
``depth``, ``omniscient``, ``rollout`` and ``all_decisions``.  Measurements of each option are in ``docs/agents.md``.
"""

from __future__ import annotations

from blackangel_env import engine
from blackangel_env.outcome import margins
from blackangel_env.state import M_TURNS, PH_A1_CARD, PH_A2_DIE, PH_B_RESERVE, PH_TURN, State

from .heuristic import PLANNED_PHASES, HeuristicAgent, complete_turn

__all__ = ["TurnSearchAgent", "ALL_ROLLOUT_PHASES", "DEFAULTS", "ROLLOUT_PHASES", "play_to_end"]

DEFAULTS = {"worlds": 4, "keep": 3, "depth": 0, "omniscient": False, "rollout": 0, "all_decisions": False}
ROLLOUT_PHASES = frozenset({PH_TURN, PH_A1_CARD, PH_A2_DIE, PH_B_RESERVE})   # where ``rollout`` applies
ALL_ROLLOUT_PHASES = ROLLOUT_PHASES | PLANNED_PHASES                           # with ``all_decisions``
MAX_GAME_DECISIONS = 20_000      # safety cap on a play-out to the end of the game


def play_to_end(s: State, agent) -> None:
    """Play ``s`` (in place) to the end of the game, every seat's decisions taken by ``agent.choose``.  A game
    that does not end within ``MAX_GAME_DECISIONS`` decisions is a bug and raises ``RuntimeError``."""
    for _ in range(MAX_GAME_DECISIONS):
        if s.terminal:
            return
        legal = engine.legal_actions(s)
        if not legal:
            raise RuntimeError(f"the engine offers no legal action in phase {s.phase} of a game that is not over "
                               "(a rules-engine bug: please report it with the game's seed and actions)")
        engine.apply_unchecked(s, legal[0] if len(legal) == 1 else agent.choose(s, legal))
    raise RuntimeError(f"a play-out did not end within {MAX_GAME_DECISIONS} decisions")


class TurnSearchAgent(HeuristicAgent):
    """The heuristic with its turn plans judged over ``worlds`` determinizations (successive halving to ``keep``
    candidates) and ``depth`` further turns (module docstring).  ``omniscient`` plans on the real state;
    ``rollout`` plays that many candidates to the end of the game (``all_decisions``: at every planned decision)."""

    def __init__(self, worlds: int = DEFAULTS["worlds"], keep: int = DEFAULTS["keep"], depth: int = DEFAULTS["depth"],
                 omniscient: bool = DEFAULTS["omniscient"], rollout: int = DEFAULTS["rollout"],
                 all_decisions: bool = DEFAULTS["all_decisions"], seed: int | None = None):
        for name, v, low in (("worlds", worlds, 1), ("keep", keep, 1), ("depth", depth, 0), ("rollout", rollout, 0)):
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
        self.worlds = worlds
        self.keep = keep
        self.depth = depth
        self.omniscient = bool(omniscient)
        self.rollout = rollout
        self.rollout_phases = ALL_ROLLOUT_PHASES if all_decisions else ROLLOUT_PHASES
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
        if self.rollout and s.phase in self.rollout_phases:
            return self._rolled_out(s, p, cands, first)
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

    def _rolled_out(self, s: State, p: int, cands: list[int], first: list[float]) -> int:
        """The best of the ``rollout`` candidates of highest ``first`` value by mean final margin over the worlds,
        each candidate played to the end of the game by the heuristic (module docstring)."""
        order = sorted(range(len(cands)), key=lambda i: -first[i])[:self.rollout]
        if len(order) == 1:
            return cands[order[0]]
        if self.omniscient or self._real is None:
            worlds = [s]
        else:
            worlds = [self._world(self._real, p) for _ in range(self.worlds)]
        totals = [0] * len(order)
        for w in worlds:
            seed = int(self.rng.integers(1 << 62))
            for j, i in enumerate(order):
                t = w.copy()
                engine.apply_unchecked(t, cands[i])
                play_to_end(t, TurnSearchAgent(worlds=1, omniscient=self.omniscient, seed=seed))
                totals[j] += margins(t)[p]
        top = max(totals)
        return cands[order[totals.index(top)]]
