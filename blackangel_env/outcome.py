"""What the environments report about a game's outcome: the reward schemes and the result ``info``.

Shared by the PettingZoo environment (``pettingzoo_env``) and the Gymnasium views (``gym_env``).

Reward schemes (``reward=``), each seat's reward from its own point of view, scaled by ``reward_scale`` where a VP
quantity is paid (default 0.02 = 1 / 50 VP):

* ``"win"``: 0 during the game; at the end +1 for each winner (ties share the victory) and -1 for every other
  player.  Solo: +1 if the player has strictly more VP than Hal, else -1.
* ``"margin"``: 0 during the game; at the end ``reward_scale * (own VP - best other VP)``, the others being the
  other players, or Hal in the solo game.
* ``"dense_margin"``: at every step ``reward_scale`` times the change of that same margin, counted from 0 before
  the first step (so the first reward includes the starting margin, e.g. Hal's starting VP): over a whole game
  the rewards add up to ``reward_scale * final margin``, and a truncated game's to the margin at the cut.
* ``"vp"``: at every step ``reward_scale`` times the change of the player's own VP (final scoring included in the
  last step); Hal's and the opponents' VP are ignored.

Result ``info``: the same keys, shapes and dtypes at every step, from ``reset`` on (``result_info``):

* ``"scores"``: int64 array of length ``num_players``, each player's VP (the final scores once the game is over);
* ``"hal_score"``: ``np.int64``, Hal's VP in the solo game; ``NO_HAL`` (-1) in games without Hal;
* ``"winners"``: int8 array of length ``num_players``, 1 for each player sharing the victory, all 0 until the game
  is over (and all 0 in a solo game that Hal wins);
* ``"game_over"``: 0-d bool array, the game has ended (by the rules; a truncation is not an end).

Numbers are numpy scalars and flags 0-d numpy arrays (``if info["game_over"]:`` works as for a bool): the forms
that Gymnasium's vector ``info`` batching, TorchRL's ``default_info_dict_reader`` and Tianshou's buffers all
turn into fixed-dtype arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import engine
from .state import BOT, M_GAME_OVER, M_N_PLAYERS, M_SOLO, O_VP, State

__all__ = ["DEFAULT_REWARD_SCALE", "NO_HAL", "REWARD_SCHEMES", "check_reward", "hal_score", "margins", "result_info",
           "terminal_rewards", "write_result_info", "write_result_rows"]

REWARD_SCHEMES = ("win", "margin", "vp", "dense_margin")
DEFAULT_REWARD_SCALE = 0.02          # 1 / 50 VP
NO_HAL = -1                          # ``info["hal_score"]`` in a game without Hal


def check_reward(reward: str, reward_scale: float | None) -> float:
    """The reward scale to use; ValueError naming the problem for an unknown scheme or a bad scale."""
    if not isinstance(reward, str) or reward not in REWARD_SCHEMES:
        raise ValueError(f"reward must be one of {REWARD_SCHEMES}, got {reward!r}")
    if reward_scale is not None and (isinstance(reward_scale, (bool, np.bool_, str, bytes))
                                     or not isinstance(reward_scale, (int, float, np.integer, np.floating))):
        raise ValueError(f"reward_scale must be a positive number, got {reward_scale!r}")
    scale = DEFAULT_REWARD_SCALE if reward_scale is None else float(reward_scale)
    if not np.isfinite(scale) or scale <= 0:
        raise ValueError(f"reward_scale must be a positive number, got {reward_scale!r}")
    return scale


def margins(s: State) -> list[int]:
    """Each player's VP minus the best VP among the other players (Hal's in the solo game), now."""
    vp = s.vp
    n = s.num_players
    if n == 1:
        return [vp.item(0) - vp.item(BOT)]
    v = [vp.item(p) for p in range(n)]
    out = []
    for p in range(n):
        out.append(v[p] - max(x for q, x in enumerate(v) if q != p))
    return out


def terminal_rewards(s: State, reward: str, scale: float) -> list[float]:
    """Terminal reward of every player under the ``win`` / ``margin`` schemes (the per-step schemes: 0)."""
    n = s.num_players
    if reward == "win":
        won = set(engine.winners(s))
        return [1.0 if p in won else -1.0 for p in range(n)]
    if reward == "margin":
        engine.final_scores(s)                       # ValueError if the game is not over
        return [scale * m for m in margins(s)]
    return [0.0] * n


def result_info(s: State) -> dict[str, Any]:
    """The result keys of ``info`` for the state ``s`` (module docstring), new arrays each call."""
    n = s.num_players
    over = bool(s.mv[M_GAME_OVER])
    won = np.zeros(n, dtype=np.int8)
    if over:
        won[engine.winners(s)] = 1
    return {
        "scores": s.vp[:n].astype(np.int64),
        "hal_score": np.int64(hal_score(s)),
        "winners": won,
        "game_over": np.array(over),
    }


def hal_score(s: State) -> int:
    """``info["hal_score"]``: Hal's VP in the solo game, ``NO_HAL`` in games without him."""
    return s.vp.item(BOT) if s.mv[M_SOLO] else NO_HAL


def write_result_rows(states: list[State], bufs: np.ndarray, batch: dict[str, np.ndarray]) -> None:
    """``write_result_info(states[i], i, batch)`` for every i, read from ``bufs``, the states' buffers as rows
    (``np.stack``): the games of a vector environment, all with the batch's number of players."""
    n = batch["scores"].shape[1]
    if len(states) != len(bufs) or not (bufs[:, M_N_PLAYERS] == n).all():
        for i, s in enumerate(states):
            write_result_info(s, i, batch)
        return
    batch["scores"][...] = bufs[:, O_VP:O_VP + n]
    batch["hal_score"][...] = np.where(bufs[:, M_SOLO] != 0, bufs[:, O_VP + BOT], NO_HAL)
    over = bufs[:, M_GAME_OVER] != 0
    batch["game_over"][...] = over
    for i in np.flatnonzero(over).tolist():
        batch["winners"][i, engine.winners(states[i])] = 1


def write_result_info(s: State, i: int, batch: dict[str, np.ndarray]) -> None:
    """The result keys of ``info`` (``result_info``) written into row ``i`` of a vector environment's batched
    arrays ``batch["scores"]`` ``(N, num_players)``, ``["hal_score"]`` ``(N,)``, ``["winners"]`` ``(N,
    num_players)`` (zeros beforehand) and ``["game_over"]`` ``(N,)``."""
    n = s.num_players
    batch["scores"][i] = s.vp[:n]
    batch["hal_score"][i] = hal_score(s)
    over = bool(s.mv[M_GAME_OVER])
    batch["game_over"][i] = over
    if over:
        batch["winners"][i, engine.winners(s)] = 1
