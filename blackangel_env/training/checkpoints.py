"""Run directories and checkpoints of the training scripts.

A run directory holds::

    config.yaml                      the full resolved config (the one ``--resume`` reuses)
    checkpoints/step_000050000.zip   MaskablePPO model (weights + optimizer state + step count), every
    checkpoints/step_000050000.json    checkpoint.freq steps and at the end; the .json: step count, seeds,
    checkpoints/step_000050000.rng     time; the .rng: python / numpy / torch generator states (pickle)
    best_model.zip, best.json        the checkpoint with the best evaluation against Hal so far
    evaluations.csv                  one row per evaluation (step, win rate and its 95% CI, VP, margin)
    logs/from_<step>/                SB3 logs of each training segment: progress.csv (+ TensorBoard events)
"""

from __future__ import annotations

import importlib
import json
import re
import sys
import types
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["CHECKPOINT_DIR", "BEST_MODEL", "list_checkpoints", "latest_checkpoint", "resolve_model",
           "read_meta", "run_dir_of", "load_maskable_ppo", "old_module_names", "OLD_MODULES"]

# The module paths of this package's classes before the package became blackangel_env.training (it was the
# top-level package ``training``).  A saved model names its classes by module: Stable-Baselines3 pickles
# ``policy_kwargs``, which holds ``training.policies.EntityExtractor`` in every model with ``policy.type: entity``
# saved before the rename (results/ppo_solo/best_model.zip included); an RLlib checkpoint names
# ``training.rllib_module.MaskedPPOTorchRLModule``.
OLD_MODULES = {"training.policies": "blackangel_env.training.policies",
               "training.rllib_module": "blackangel_env.training.rllib_module"}
_ABSENT = object()


@contextmanager
def old_module_names(*old: str):
    """While a saved model loads, the old module paths ``old`` (keys of ``OLD_MODULES``) name this package's
    modules in ``sys.modules``, so the unpickler finds ``training.policies.EntityExtractor`` without a package
    ``training`` installed (the repository's ``training/`` is a source-checkout alias, not in the wheel).  The
    unpickler also imports the top-level name: when no ``training`` is imported yet, an empty module stands for it,
    so that another distribution's package of that name is not imported.  The entries are set for the load only
    and then restored: such a package is neither imported by the load nor shadowed after it."""
    parents = {name.rpartition(".")[0] for name in old} - set(old)
    saved = {name: sys.modules.get(name, _ABSENT) for name in (*parents, *old)}
    try:
        for name in parents:
            sys.modules.setdefault(name, types.ModuleType(name, "stands for an old package name while a model loads"))
        for name in old:
            sys.modules[name] = importlib.import_module(OLD_MODULES[name])
        yield
    finally:
        for name, prev in saved.items():
            if prev is _ABSENT:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = prev


class ModelLoadError(ValueError):
    """A model file exists but cannot be loaded (damaged, not a MaskablePPO zip)."""


def load_maskable_ppo(path: str | Path, **kwargs):
    """``MaskablePPO.load(path, **kwargs)`` that also reads models saved before the package was renamed
    (``old_module_names``); a file that cannot be loaded raises ``ModelLoadError`` naming it."""
    from sb3_contrib import MaskablePPO

    with old_module_names("training.policies"):
        try:
            return MaskablePPO.load(str(path), **kwargs)
        except (FileNotFoundError, IsADirectoryError, ImportError):
            raise
        except Exception as e:  # noqa: BLE001 - a damaged or foreign file fails in many ways inside SB3 / torch
            raise ModelLoadError(f"{path} is not a MaskablePPO model that can be loaded "
                                 f"({type(e).__name__}: {e})") from e

CHECKPOINT_DIR = "checkpoints"
BEST_MODEL = "best_model.zip"
_STEP = re.compile(r"^step_(\d+)\.zip$")


def checkpoint_path(run_dir: str | Path, step: int) -> Path:
    return Path(run_dir) / CHECKPOINT_DIR / f"step_{step:09d}.zip"


def list_checkpoints(run_dir: str | Path) -> list[tuple[int, Path]]:
    """(step, zip path) of the run's checkpoints, oldest first."""
    d = Path(run_dir) / CHECKPOINT_DIR
    if not d.is_dir():
        return []
    out = []
    for p in d.iterdir():
        m = _STEP.match(p.name)
        if m:
            out.append((int(m.group(1)), p))
    return sorted(out)


def latest_checkpoint(run_dir: str | Path) -> Path | None:
    cks = list_checkpoints(run_dir)
    return cks[-1][1] if cks else None


def read_meta(model_zip: str | Path) -> dict[str, Any]:
    """The .json written next to a checkpoint (empty if there is none)."""
    p = Path(model_zip).with_suffix(".json")
    return json.loads(p.read_text()) if p.is_file() else {}


def run_dir_of(model_zip: str | Path) -> Path | None:
    """The run directory a model file belongs to (the one holding config.yaml), if any."""
    p = Path(model_zip).resolve().parent
    for d in (p, p.parent):
        if (d / "config.yaml").is_file():
            return d
    return None


def resolve_model(path: str | Path, which: str = "best") -> Path:
    """A model zip from a path: a .zip itself, or a run directory (``which`` = "best": best_model.zip, falling
    back to the latest checkpoint; "latest": the latest checkpoint)."""
    p = Path(path)
    if p.is_file():
        return p
    if p.suffix == ".zip":
        raise FileNotFoundError(f"model file {str(p)!r} does not exist")
    if not p.is_dir():
        raise FileNotFoundError(f"{str(p)!r} is neither a model .zip nor a run directory")
    if which not in ("best", "latest"):
        raise ValueError(f"which must be 'best' or 'latest', got {which!r}")
    if which == "best" and (p / BEST_MODEL).is_file():
        return p / BEST_MODEL
    latest = latest_checkpoint(p)
    if latest is None:
        raise FileNotFoundError(f"run directory {str(p)!r} holds no checkpoint ({CHECKPOINT_DIR}/step_*.zip) "
                                f"and no {BEST_MODEL}")
    return latest


def export_for_play(model_zip: str | Path, out: str | Path) -> Path:
    """Write a copy of a MaskablePPO model without the optimizer's moment estimates, for committing and playing.

    The weights are unchanged (the copy plays exactly like the original); Adam's per-parameter state (two tensors
    per weight, two thirds of a checkpoint) is replaced by a fresh optimizer, so training resumed from the copy
    restarts Adam's averages.  Resume from the run's own checkpoints to continue training exactly."""
    model = load_maskable_ppo(model_zip, device="cpu")
    pol = model.policy
    pol.optimizer = pol.optimizer_class(pol.parameters(), lr=model.lr_schedule(1), **pol.optimizer_kwargs)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(out))
    return out
