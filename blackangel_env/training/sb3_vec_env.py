"""Stable-Baselines3 ``VecEnv`` over ``blackangel_env.vector.BlackAngelVectorEnv``: ``BlackAngelSB3VecEnv``.

sb3-contrib's MaskablePPO trains on it directly: ``get_action_masks`` calls ``env_method("action_masks")``, which
returns each game's ``(882,)`` bool mask (the rows of the vector environment's ``action_masks()``), and
``has_attr("action_masks")`` is True.  The games run in this process, N at a time, with the vector environment in
``"same_step"`` autoreset (SB3's convention, as ``DummyVecEnv``): a game that ends is reset within the step; the
returned observation (and the masks) are the new game's, ``infos[i]`` is the ended game's last info with
``"terminal_observation"`` and ``"TimeLimit.truncated"`` (truncated and not ended by the rules), and the new game's
info is in ``reset_infos[i]``.  ``seed(s)`` (or ``make(..., seed=s)``) seeds game i with ``s + i`` at the next
``reset()``, as SB3's vector environments do.

``BlackAngelSB3VecEnv(num_envs, seed=None, **options)`` takes the options of ``BlackAngelSolo-v0`` /
``BlackAngel-v0`` (``num_players`` 1 by default: solo against Hal).  ``get_attr`` / ``set_attr`` / ``env_method``
with another name reach the games themselves (``BlackAngelSingleAgentEnv``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from blackangel_env.extras import check_extra

check_extra("train", "blackangel_env.training.sb3_vec_env")

from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

from blackangel_env.config import seed_or_none  # noqa: E402
from blackangel_env.vector import BlackAngelVectorEnv

__all__ = ["BlackAngelSB3VecEnv"]


class BlackAngelSB3VecEnv(VecEnv):
    """N Black Angel games as one SB3 ``VecEnv`` (module docstring)."""

    def __init__(self, num_envs: int = 1, seed: int | None = None, **options: Any):
        if "autoreset_mode" in options:
            raise TypeError("BlackAngelSB3VecEnv takes no autoreset_mode: it resets a game that ends within the "
                            "step (Stable-Baselines3's convention)")
        if seed is not None:
            seed_or_none("BlackAngelSB3VecEnv: seed", seed)    # checked before the games are built
        options.setdefault("num_players", 1)
        self.venv = BlackAngelVectorEnv(num_envs, autoreset_mode="same_step", **options)
        super().__init__(self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        if seed is not None:
            self.seed(seed)

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Game i gets ``seed + i`` at the next ``reset()`` (a non-negative integer; None: a fresh one drawn, as
        SB3 does); anything else raises ValueError and changes nothing."""
        if seed is not None:
            seed = seed_or_none("seed", seed)
        return super().seed(seed)

    def reset(self):
        """Reset every game (with the seeds of ``seed()`` once, then fresh ones); the ``(N, 5692)`` observations."""
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, info = self.venv.reset(seed=seeds)
        self.reset_infos = _unstack(info, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Store the actions (checked and played by ``step_wait``)."""
        self._actions = actions

    def step_wait(self):
        """Play the stored actions; ``(obs, rewards, dones, infos)`` in SB3's convention (module docstring)."""
        if self._actions is None:
            raise RuntimeError("call step_async() before step_wait()")
        actions, self._actions = np.asarray(self._actions), None
        if actions.shape == (self.num_envs, 1):     # SB3's column of actions; any shape but (N,): the vector
            actions = actions.reshape(self.num_envs)    # environment's IllegalActionError, nothing played
        obs, rewards, terminated, truncated, info = self.venv.step(actions)
        dones = terminated | truncated
        infos = _unstack(info, self.num_envs)
        if dones.any():
            final = _unstack(info["final_info"], self.num_envs)
            for i in np.flatnonzero(dones):
                self.reset_infos[i] = infos[i]
                infos[i] = final[i]
                infos[i]["terminal_observation"] = info["final_obs"][i]
        for i in range(self.num_envs):
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """``attr_name`` of the games at ``indices`` (``action_masks``: their mask methods)."""
        return [getattr(self.venv.envs[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        for i in self._get_indices(indices):
            setattr(self.venv.envs[i], attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        """Each game's ``method_name(...)``; ``action_masks`` reads the vector environment's current masks."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.venv.action_masks()
            return [masks[i] for i in idx]
        return [getattr(self.venv.envs[i], method_name)(*method_args, **method_kwargs) for i in idx]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """Whether each game is a ``wrapper_class`` (the games are bare ``BlackAngelSingleAgentEnv`` instances)."""
        return [isinstance(self.venv.envs[i], wrapper_class) for i in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Each game's ``render()`` (the game draws text, not images: None unless ``render_mode="ansi"``)."""
        return [env.render() for env in self.venv.envs]


def _unstack(info: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """Gymnasium's stacked vector info as one dict per game (the ``_key`` masks dropped, absent keys left out)."""
    out: list[dict[str, Any]] = [{} for _ in range(n)]
    for key, value in info.items():
        if key.startswith("_") or key in ("final_obs", "final_info"):
            continue
        present = info.get(f"_{key}")
        for i in range(n):
            if present is None or present[i]:
                out[i][key] = value[i]
    return out
