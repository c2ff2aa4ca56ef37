"""The agent codes that play trained models, registered with ``blackangel_env.agents.codes`` from this side of the
layers.

* ``policy:<path>``: a MaskablePPO run directory (its best model) or model ``.zip`` (``PolicyAgent``; needs the
  ``train`` extra: torch, stable-baselines3, sb3-contrib);
* ``pretrained``: the policy shipped with the package (``PRETRAINED_PATH``: the weights of ``results/ppo_solo``,
  trained by the recipe ``configs/train/ppo_solo_bc.yaml``), played greedily by its network alone, with no search;
* ``rllib:<path>``: an RLlib run directory, algorithm checkpoint or module directory (``RLlibAgent``; needs the
  ``rllib`` extra).

Importing ``blackangel_env.training`` registers them; ``pyproject.toml`` also declares them as entry points of the group
``blackangel_env.agents`` (``POLICY``, ``RLLIB``), so ``blackangel_env.agents.make_agent("policy:...")`` finds them in
an installed package without importing ``blackangel_env.training`` first.  This module is light: torch, SB3 and Ray are
imported when an agent is built.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from blackangel_env import extras as _extras
from blackangel_env.agents.codes import AgentCode, register_agent_code

__all__ = ["POLICY", "PRETRAINED", "PRETRAINED_PATH", "RLLIB", "missing_extra"]

# The shipped policy: weights only (the MaskablePPO .zip without optimizer state), package data.
PRETRAINED_PATH = Path(__file__).resolve().parents[1] / "data" / "pretrained_policy.zip"


def missing_extra(extra: str, modules: tuple[str, ...] | None = None) -> str | None:
    """A message naming ``extra`` (and how to install it: ``blackangel_env.extras.missing_extra``) when one of
    ``modules`` (by default the extra's own) is not installed, else None."""
    absent = [m for m in (modules or _extras.EXTRAS[extra]) if importlib.util.find_spec(m) is None]
    if not absent:
        return None
    return _extras.missing_extra(extra) or f"{', '.join(absent)} not installed: install the {extra!r} extra"


def _probe(arg: str, test) -> bool:
    """``test(Path(arg))``, False for a name the system refuses (too long, a NUL byte: OSError, ValueError)."""
    try:
        return bool(arg) and test(Path(arg))
    except (OSError, ValueError):
        return False


def _policy_parse(arg: str, code: str) -> dict:
    if not _probe(arg, Path.exists):
        raise ValueError(f"agent code {code!r}: policy:<path> needs an existing run directory or model .zip")
    return {"path": arg}


def _policy_make(opts: dict, seed: int | None, code: str):
    missing = missing_extra("train")
    if missing:
        raise ValueError(f"agent code {code!r}: {missing}")
    from .policy_agent import PolicyAgent
    try:
        return PolicyAgent(opts["path"], seed=seed)
    except (FileNotFoundError, IsADirectoryError) as e:    # a folder without a model, a file gone since parsing
        raise ValueError(f"agent code {code!r}: cannot load {opts['path']}: {e}") from None


def _pretrained_make(opts: dict, seed: int | None, code: str):
    missing = missing_extra("train")
    if missing:
        raise ValueError(f"agent code {code!r}: {missing}")
    if not PRETRAINED_PATH.is_file():
        raise ValueError(f"agent code {code!r}: the shipped policy {PRETRAINED_PATH} is missing from this "
                         "installation")
    from .policy_agent import PolicyAgent
    return PolicyAgent(PRETRAINED_PATH, seed=seed)


def _rllib_parse(arg: str, code: str) -> dict:
    if not _probe(arg, Path.is_dir):
        raise ValueError(f"agent code {code!r}: rllib:<path> needs an existing RLlib run, checkpoint or module "
                         "directory")
    return {"path": arg}


def _rllib_make(opts: dict, seed: int | None, code: str):
    if importlib.util.find_spec("ray") is None:
        raise ValueError(f"agent code {code!r}: {missing_extra('rllib') or 'ray[rllib] is not installed'}")
    from .rllib_train import RLlibAgent
    return RLlibAgent(opts["path"])


POLICY = register_agent_code(AgentCode("policy", "policy:<checkpoint path>", _policy_make, _policy_parse,
                                       reusable=True), replace=True)
PRETRAINED = register_agent_code(AgentCode("pretrained", "pretrained", _pretrained_make, reusable=True),
                                 replace=True)
RLLIB = register_agent_code(AgentCode("rllib", "rllib:<checkpoint path>", _rllib_make, _rllib_parse,
                                      reusable=True), replace=True)
