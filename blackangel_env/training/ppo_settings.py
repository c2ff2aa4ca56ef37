"""The MaskablePPO model's settings from a config: the policy network (``policy_spec``: ``policy.*`` keys) and
PPO's keyword arguments (``ppo_kwargs``: ``ppo.*`` keys).  Used by ``train_ppo`` and ``imitation``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["policy_spec", "ppo_kwargs"]


def policy_spec(cfg: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """("MlpPolicy", policy_kwargs) for ``policy.*``."""
    import torch

    kwargs: dict[str, Any] = {
        "net_arch": {"pi": list(cfg["policy.net_arch_pi"]), "vf": list(cfg["policy.net_arch_vf"])},
        "activation_fn": {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg["policy.activation"]],
        "ortho_init": cfg["policy.ortho_init"],
    }
    if cfg["policy.type"] == "entity":
        from .policies import EntityExtractor
        kwargs["features_extractor_class"] = EntityExtractor
        kwargs["features_extractor_kwargs"] = {
            k: cfg[f"policy.entity.{k}"]
            for k in ("seat_dim", "hex_dim", "display_dim", "hand_dim", "global_dim", "features_dim")}
    return "MlpPolicy", kwargs


def _linear(lr: float):
    from stable_baselines3.common.utils import LinearSchedule
    return LinearSchedule(lr, 0.0, 1.0)


def ppo_kwargs(cfg: dict[str, Any]) -> dict[str, Any]:
    lr = cfg["ppo.learning_rate"]
    return {
        "learning_rate": lr if cfg["ppo.lr_schedule"] == "constant" else _linear(lr),
        "n_steps": cfg["ppo.n_steps"], "batch_size": cfg["ppo.batch_size"], "n_epochs": cfg["ppo.n_epochs"],
        "gamma": cfg["ppo.gamma"], "gae_lambda": cfg["ppo.gae_lambda"], "clip_range": cfg["ppo.clip_range"],
        "clip_range_vf": cfg["ppo.clip_range_vf"], "ent_coef": cfg["ppo.ent_coef"], "vf_coef": cfg["ppo.vf_coef"],
        "max_grad_norm": cfg["ppo.max_grad_norm"], "target_kl": cfg["ppo.target_kl"],
        "normalize_advantage": cfg["ppo.normalize_advantage"],
    }
