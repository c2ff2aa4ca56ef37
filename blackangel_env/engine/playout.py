"""Batched play to the end of the game: ``rollouts(states, seed)``, the entry point for the evaluation of
positions by search and for learning (issue 13, item 6).

Each game is played by ``phases.play_uniform``, a loop compiled beside the phase table over the legal actions
(computed afresh: a rollout never asks twice in one position, so it skips the cache of ``legal_actions``) and the
unchecked move, with the policy's numbers drawn in batches (the same stream as one draw a decision); the batch's
games are played in turn in one ``State`` object (each written into it in place, keeping the views it has made).
``blackangel bench`` reports ``rollout_decisions_per_s``.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

try:
    import cython
except ModuleNotFoundError:            # Cython is needed to build, not to run: the interpreted path uses the shim
    from .. import _cython_shim as cython

from .. import generator_state
from ..state import State
if not cython.compiled:                 # compiled: the C constants of _state_constants.pxd (cimported by the .pxd)
    from ..state import (
        BOT, M_SOLO,
    )

from .end import final_scores
from .kernels import pcg64_seeded_snapshot, seed_sequence_words, uint32_words
from .phases import play_uniform

POLICIES = ("random",)


_FREE_READERS: list = []        # generator readers that no rollouts call holds (two per call, returned after it)


def _take_readers() -> tuple:
    """Two readers of Generators of their own (``generator_state.reader``), from the free list or new."""
    if len(_FREE_READERS) >= 2:
        return _FREE_READERS.pop(), _FREE_READERS.pop()
    blank = generator_state.read(generator_state.reader(np.random.default_rng(0)))
    return tuple(generator_state.reader(generator_state.restore(blank)) for _ in range(2))


class _Seeder:
    """The generators of ``rollouts``' games in the states the documented scheme gives them (game i: the
    SeedSequence children ``(i, 0)`` for chance and ``(i, 1)`` for the policy of the seed's SeedSequence), computed
    by ``kernels.seed_sequence_words`` and ``kernels.pcg64_seeded_snapshot`` and written into two Generators that
    the batch's games use in turn (a game is played to the end before the next is seeded): the numbers numpy's own
    ``spawn`` and ``default_rng`` give, for a fifth of their cost.  Used where raw generator snapshots are
    available (``generator_state.AVAILABLE``); ``release`` hands the Generators back for the next call."""

    def __init__(self, root: np.random.SeedSequence):
        self.entropy = uint32_words(root.entropy)
        self.prefix = [w for k in root.spawn_key for w in uint32_words(k)]
        self.chance, self.policy = _take_readers()

    def seed(self, c: State, i: int) -> np.random.Generator:
        """Give the copy ``c`` game i's chance generator; return game i's policy generator."""
        key = self.prefix + uint32_words(i)
        generator_state.overwrite(self.chance, pcg64_seeded_snapshot(seed_sequence_words(self.entropy, key + [0], 8)))
        generator_state.overwrite(self.policy, pcg64_seeded_snapshot(seed_sequence_words(self.entropy, key + [1], 8)))
        c._rng, c._rng_state, c._rng_reader = self.chance[0], None, self.chance     # as State.reseed leaves it
        return self.policy[0]

    def release(self) -> None:
        _FREE_READERS.extend((self.chance, self.policy))


_DRAWS = 64                     # the random policy's numbers drawn at once


def rollouts(states: State | Sequence[State], seed: int | None = None, policy: str = "random", *,
             max_decisions: int = 100_000, return_decisions: bool = False):
    """Play a copy of each state to the end of the game under ``policy`` and return the final scores.

    * ``states``: a ``State`` or a non-empty sequence of them, all with the same number of players.  They are
      not changed: each is copied (without its log) and the copy is played.
    * ``seed``: a non-negative int (or None for fresh entropy).  ``numpy.random.SeedSequence(seed)`` is spawned
      into one child per state, in order; each copy gets a chance generator (dice, shuffles: ``State.reseed``)
      and a policy generator from its child.  So the result is reproducible for a given seed, does not depend
      on the states' own generators, and copies of one position give independent futures.  What the buffer
      already holds (the order of the decks) is kept: use ``resample_hidden`` first to sample hidden
      information.
    * ``policy``: ``"random"``, uniform over the legal actions at every decision (Hal plays by its rules).
    * ``max_decisions``: a bound on the decisions of one game (a game of the engine ends far below it); a game
      still going after it raises RuntimeError.

    Returns a float64 array (N, seats): the final VP of each player (``final_scores``), and for a solo game
    (one player against Hal) a second column with Hal's VP.  A state already over gives its scores unchanged.
    With ``return_decisions`` it returns ``(scores, decisions)``, decisions an int64 array (N,) of the actions
    applied in each game.  Bad arguments raise ValueError (TypeError for a non-State entry).
    """
    if isinstance(states, State):
        states = [states]
    elif isinstance(states, (str, bytes)) or not isinstance(states, Sequence):
        raise TypeError(f"rollouts: states must be a State or a sequence of States, not {type(states).__name__}")
    if len(states) == 0:
        raise ValueError("rollouts: no states given")
    for i, s in enumerate(states):
        if not isinstance(s, State):
            raise TypeError(f"rollouts: states[{i}] is a {type(s).__name__}, not a State")
    n_players = {s.num_players for s in states}
    if len(n_players) != 1:
        raise ValueError(f"rollouts: the states must have the same number of players, got {sorted(n_players)}")
    if policy not in POLICIES:
        raise ValueError(f"rollouts: unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise ValueError(f"rollouts: seed must be a non-negative integer or None, not {seed!r}")
    if isinstance(max_decisions, bool) or not isinstance(max_decisions, numbers.Integral) or max_decisions < 1:
        raise ValueError(f"rollouts: max_decisions must be a positive integer, not {max_decisions!r}")
    players = n_players.pop()
    seats = players + 1 if players == 1 else players
    scores = np.zeros((len(states), seats), dtype=np.float64)
    decisions = np.zeros(len(states), dtype=np.int64)
    root = np.random.SeedSequence(None if seed is None else int(seed))
    seeder = _Seeder(root) if generator_state.AVAILABLE else None
    children = None if seeder is not None else root.spawn(len(states))
    c = None                                # the game being played: one object for the batch (State._copy_into)
    try:
        for i, s in enumerate(states):
            if c is None or not s._copy_into(c):
                c = s.copy()
            if seeder is not None:                  # the same generators, seeded in place (_Seeder)
                rng = seeder.seed(c, i)
            else:
                chance, choices = children[i].spawn(2)
                c.reseed(chance)
                rng = np.random.default_rng(choices)
            k = play_uniform(c, rng, min(max_decisions, 2**62), _DRAWS)     # a C bound; no game comes near it
            if k < 0:
                raise RuntimeError(f"rollouts: states[{i}] is not over after {max_decisions} decisions")
            scores[i, :players] = final_scores(c)
            if c.mv[M_SOLO]:
                scores[i, 1] = c.vp.item(BOT)
            decisions[i] = k
    finally:
        if seeder is not None:
            seeder.release()
    return (scores, decisions) if return_decisions else scores
