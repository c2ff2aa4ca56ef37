"""Trained checkpoints as agents: ``PolicyAgent(path)`` plays with a MaskablePPO model.

    from blackangel_env.training.policy_agent import PolicyAgent
    agent = PolicyAgent("runs/ppo_solo")                # a run directory (its best model) or a model .zip
    action = agent.act(observation, action_mask)        # the agent interface of blackangel_env/agents/

The model sees the seat's own observation and chooses among the legal actions of the mask (greedy by default).
It was trained on the solo view, but the observation layout is the same for every player count, so it can sit
at any table (``gym.make("BlackAngel-v0", opponents=[PolicyAgent(...)])``, or in the PettingZoo env).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from blackangel_env.actions import mask_array
from blackangel_env.config import seed_or_none

__all__ = ["PolicyAgent"]


class PolicyAgent:
    """A loaded MaskablePPO policy behind the agent interface ``act(observation, action_mask, state=None)``."""

    def __init__(self, path: str | Path, deterministic: bool = True, which: str = "best", device: str = "cpu",
                 seed: int | None = None):
        from .checkpoints import resolve_model
        from .evaluate import load_model

        self.path = resolve_model(path, which)
        self.model = load_model(self.path, device=device)
        self.deterministic = deterministic
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed a stochastic policy's sampling (torch's global generator, which SB3 samples from); a greedy
        policy ignores it."""
        seed = seed_or_none(f"{type(self).__name__}.reset: seed", seed)
        if seed is not None and not self.deterministic:
            import torch
            torch.manual_seed(int(seed))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state=None) -> int:
        mask = mask_array(action_mask, type(self).__name__).astype(bool)
        if not mask.any():
            raise ValueError(f"{type(self).__name__}: the action mask allows no action")
        action, _ = self.model.predict(np.asarray(observation, dtype=np.float32), action_masks=mask,
                                       deterministic=self.deterministic)
        return int(np.asarray(action).reshape(()))

    __call__ = act

    def __repr__(self) -> str:
        return f"PolicyAgent({str(self.path)!r}, deterministic={self.deterministic})"
