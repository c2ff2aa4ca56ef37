"""The training environments from a config: the solo ``BlackAngelSingleAgentEnv`` with its options and reward
shaping, wrapped for SB3 (``make_env``), and vectorised (``make_vec_env``: DummyVecEnv or SubprocVecEnv, environment
i seeded ``seed + i``).  Used by ``train_ppo`` and ``imitation``.
"""

from __future__ import annotations

from typing import Any

from blackangel_env.agents.arena import in_worker, limit_threads, safe_start_method

__all__ = ["EnvFactory", "env_kwargs", "make_env", "make_vec_env", "shaping_kwargs"]


def env_kwargs(cfg: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments of ``BlackAngelSingleAgentEnv`` (solo) from the ``env.*`` keys."""
    return {"num_players": 1, "hal_difficulty": cfg["env.hal_difficulty"], "advanced": cfg["env.advanced"],
            "reward": cfg["env.reward"], "reward_scale": cfg["env.reward_scale"],
            "illegal_reward": cfg["env.illegal_reward"], "max_steps": cfg["env.max_steps"]}


def shaping_kwargs(cfg: dict[str, Any]) -> dict[str, Any]:
    """The reward shaping of the training environments (``env.shaping*``; ``blackangel_env/training/rewards.py``).
    Undiscounted (gamma 1): with the learner's gamma < 1 a potential that is mostly negative (Hal's VP are subtracted)
    pays ``(1 - gamma) * |phi|`` for every extra decision, and a first run learned to drag games out for it."""
    return {"shaping": cfg["env.shaping"], "scale": cfg["env.shaping_scale"], "gamma": 1.0}


def make_env(kwargs: dict[str, Any], shaping: dict[str, Any] | None = None):
    """A Monitor-wrapped solo environment (the Monitor feeds SB3's rollout/ep_rew_mean), reward-shaped when
    ``shaping`` names a shaping."""
    from stable_baselines3.common.monitor import Monitor

    from blackangel_env.gym_env import BlackAngelSingleAgentEnv

    from .rewards import shaped
    env = BlackAngelSingleAgentEnv(**kwargs)
    if shaping is not None:
        env = shaped(env, **shaping)
    return Monitor(env)


class EnvFactory:
    """``make_env(kwargs, shaping)`` as a picklable callable for vectorised environments; in a worker process
    (SubprocVecEnv) torch and BLAS get one thread (``blackangel_env.agents.arena.limit_threads``)."""

    def __init__(self, kwargs, shaping=None):
        self.kwargs = kwargs
        self.shaping = shaping

    def __call__(self):
        if in_worker():
            limit_threads()
        return make_env(self.kwargs, self.shaping)


def make_vec_env(cfg: dict[str, Any], seed: int):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [EnvFactory(env_kwargs(cfg), shaping_kwargs(cfg)) for _ in range(cfg["vec_env.n_envs"])]
    if cfg["vec_env.type"] == "subproc":
        venv = SubprocVecEnv(fns, start_method=safe_start_method(cfg["vec_env.start_method"]))
    else:
        venv = DummyVecEnv(fns)
    venv.seed(seed)                      # environment i: seed + i, applied at the first reset
    return venv
