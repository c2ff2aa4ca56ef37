"""The RLlib pieces of ``blackangel_env/training/rllib_train.py`` that need Ray at import time (``pip install -e
".[rllib]"``).

* ``MaskedPPOTorchRLModule``: RLlib's default PPO module (new API stack) on the ``"observation"`` part of the
  PettingZoo observation ``Dict(observation, action_mask)``; the legal-action mask adds ``log(mask)`` (clamped
  to RLlib's ``FLOAT_MIN``) to the action logits, so illegal actions are never sampled and get no gradient.
* ``make_env(env_config)``: the PettingZoo AEC environment (``blackangel_env.env``) behind RLlib's
  ``PettingZooEnv`` adapter (a turn-based ``MultiAgentEnv``: each step returns the observation of the agent to
  act next; at the end every agent's final reward).

Workers of a Ray cluster import this module by name, so the package must be installed on every node.
"""

from __future__ import annotations

from typing import Any

from blackangel_env.extras import check_extra

check_extra("rllib", "blackangel_env.training.rllib_module")

import torch  # noqa: E402
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.utils.torch_utils import FLOAT_MIN  # noqa: E402

__all__ = ["ENV_NAME", "MaskedPPOTorchRLModule", "make_env"]

ENV_NAME = "blackangel_aec"


def make_env(env_config: dict[str, Any]):
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    import blackangel_env
    return PettingZooEnv(blackangel_env.env(**dict(env_config)))


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO actor-critic on ``obs["observation"]`` with ``obs["action_mask"]`` applied to the logits."""

    def __init__(self, *, observation_space=None, **kwargs):
        if observation_space is None or "observation" not in getattr(observation_space, "spaces", {}):
            raise ValueError("MaskedPPOTorchRLModule needs the Dict(observation, action_mask) observation space "
                             f"of blackangel_env's PettingZoo environment, got {observation_space}")
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self):
        super().setup()                         # the networks are built for the "observation" Box
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]):
        obs = batch[Columns.OBS]
        inner = dict(batch)
        inner[Columns.OBS] = obs["observation"]
        return obs["action_mask"], inner

    @staticmethod
    def _masked(out: dict[str, Any], mask) -> dict[str, Any]:
        out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(
            torch.log(mask.to(out[Columns.ACTION_DIST_INPUTS].dtype)), min=FLOAT_MIN)
        return out

    def _forward(self, batch, **kwargs):
        mask, inner = self._split(batch)
        return self._masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, inner = self._split(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)
