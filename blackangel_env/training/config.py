"""Training configs: a nested YAML mapping checked against a schema, with ``--set a.b=value`` overrides.

Every key a training script reads is declared here (``PPO_SCHEMA``) with its type, its default and its allowed
values; ``load_config`` merges a YAML file over the defaults, applies the overrides (each value parsed as YAML,
so ``--set ppo.n_epochs=4`` is an int and ``--set env.advanced=true`` a bool), and refuses unknown keys and bad
values with a ``ConfigError`` that names the key.  ``configs/train/ppo_solo.yaml`` lists every key with a
comment; its values are the defaults here (a test keeps the two equal).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from blackangel_env.agents import parse_agent_code
from blackangel_env.files import DuplicateKeyError, load_yaml
from blackangel_env.agents.codes import split_agent_codes

__all__ = ["ConfigError", "Key", "PPO_SCHEMA", "load_config", "parse_override", "apply_overrides",
           "validate", "flatten", "unflatten", "dump_config", "read_yaml"]


class ConfigError(ValueError):
    """A training config is malformed: the message names the offending key."""


@dataclass(frozen=True)
class Key:
    """One config key: its type (``int``, ``float``, ``bool``, ``str``, ``"int_list"``), default, whether None
    is allowed, the allowed values (``choices``), a check ``check(value) -> error text or None``, and help."""
    type: Any
    default: Any
    help: str
    nullable: bool = False
    choices: tuple | None = None
    check: Callable[[Any], str | None] | None = None


def _positive(v):
    return None if v > 0 else "must be > 0"


def _non_negative(v):
    return None if v >= 0 else "must be >= 0"


def check_model_seed(v):
    """A model seed: Stable-Baselines3 seeds numpy's legacy generator, which takes 0 to 2**32 - 1."""
    return None if 0 <= v <= 2**32 - 1 else "must lie in [0, 4294967295] (numpy's legacy seeding, used by SB3)"


def _unit(v):
    return None if 0 <= v <= 1 else "must lie in [0, 1]"


def _gamma(v):
    return None if 0 < v <= 1 else "must lie in (0, 1]"


def _at_least(n):
    return lambda v: None if v >= n else f"must be >= {n}"


def between(low, high):
    """A check: the value lies in [low, high] (threads, processes: a bound far above any machine's)."""
    return lambda v: None if low <= v <= high else f"must lie in [{low}, {high}]"


def run_dir_name(v):
    """A check of ``run.dir``: a folder name, not empty (which would be the current folder)."""
    return None if v.strip() else "must name a folder (empty: the current folder would take the run)"


MAX_THREADS = 1024        # run.torch_threads
MAX_PROCESSES = 256       # worker processes (as blackangel eval --workers)


def _agent_code(v):
    try:
        parse_agent_code(v)
    except ValueError as e:
        return f"is not an agent code ({e})"
    return None


def agent_code_list(text: str) -> list[str]:
    """The agent codes of a comma-separated config value (empty items dropped)."""
    return [c for c in split_agent_codes(text) if c]


def check_agent_code_list(text: str) -> str | None:
    """A ``Key`` check: every code of a comma-separated list is an agent code (an empty list passes)."""
    try:
        for c in agent_code_list(text):
            parse_agent_code(c)
    except ValueError as e:
        return f"holds a bad agent code ({e})"
    return None


def check_agent_code_list_required(text: str) -> str | None:
    """A ``Key`` check: a comma-separated list of at least one agent code."""
    if not agent_code_list(text):
        return "must list at least one agent code"
    return check_agent_code_list(text)


def _layers(v):
    return None if all(x > 0 for x in v) else "layer sizes must be positive"


PPO_SCHEMA: dict[str, Key] = {
    # -- run ------------------------------------------------------------------------------------------------
    "run.dir": Key(str, "runs/ppo_solo_{time}", "run directory (checkpoints, logs, config); '{time}' is replaced by "
                   "the start time YYYYmmdd-HHMMSS", check=run_dir_name),
    "run.seed": Key(int, 0, "seed of the model (torch, numpy, random) and of the training environments",
                    check=check_model_seed),
    "run.total_timesteps": Key(int, 2_000_000, "learner decisions to train on, all environments together",
                               check=_positive),
    "run.device": Key(str, "cpu", "torch device", choices=("cpu", "cuda", "auto")),
    "run.torch_threads": Key(int, 1, "torch.set_num_threads in the learner process (0 = torch's default)",
                             check=between(0, MAX_THREADS)),
    # -- environment (BlackAngelSolo-v0 keyword arguments) --------------------------------------------------
    "env.hal_difficulty": Key(str, "standard", "Hal's starting VP: easy 0, standard 5, difficult 10, extreme 15",
                              choices=("easy", "standard", "difficult", "extreme")),
    "env.advanced": Key(bool, False, "the rulebook's advanced rules"),
    "env.reward": Key(str, "margin", "reward scheme of the environment",
                      choices=("win", "margin", "dense_margin", "vp")),
    "env.reward_scale": Key(float, None, "reward scale (null = the environment's default for the scheme)",
                            nullable=True, check=_positive),
    "env.illegal_reward": Key(float, -0.1, "reward of an illegal action (never taken with masks)"),
    "env.max_steps": Key(int, 2000, "learner steps after which an episode is truncated (null = never)",
                         nullable=True, check=_positive),
    "env.shaping": Key(str, "none", "reward shaping added to the env's reward: none, or value = potential-"
                       "based shaping by the agents' position value (blackangel_env/training/rewards.py)",
                       choices=("none", "value")),
    "env.shaping_scale": Key(float, 0.05, "shaping: reward per VP-equivalent of position value gained",
                             check=_positive),
    # -- vectorised environments ----------------------------------------------------------------------------
    "vec_env.n_envs": Key(int, 16, "parallel training environments", check=_positive),
    "vec_env.type": Key(str, "dummy", "DummyVecEnv (in the learner's process) or SubprocVecEnv (one process "
                        "per env)", choices=("dummy", "subproc")),
    "vec_env.start_method": Key(str, "fork", "multiprocessing start method of SubprocVecEnv (fork: spawn instead "
                                "in a process that already runs other threads, where forking can hang)",
                                choices=("fork", "forkserver", "spawn")),
    # -- policy -----------------------------------------------------------------------------------------------
    "policy.type": Key(str, "entity", "mlp = SB3's MlpPolicy on the flat vector; entity = the structured "
                       "extractor of blackangel_env/training/policies.py", choices=("mlp", "entity")),
    "policy.net_arch_pi": Key("int_list", [256, 256], "hidden layers of the policy head", check=_layers),
    "policy.net_arch_vf": Key("int_list", [256, 256], "hidden layers of the value head", check=_layers),
    "policy.activation": Key(str, "tanh", "activation of the heads", choices=("tanh", "relu")),
    "policy.ortho_init": Key(bool, True, "orthogonal initialisation (SB3)"),
    "policy.entity.seat_dim": Key(int, 64, "entity: embedding of each player block (shared MLP)", check=_positive),
    "policy.entity.hex_dim": Key(int, 16, "entity: embedding of each Space hex (shared MLP)", check=_positive),
    "policy.entity.display_dim": Key(int, 32, "entity: embedding of each display space (shared MLP)",
                                     check=_positive),
    "policy.entity.hand_dim": Key(int, 64, "entity: embedding of the own hand and drawn cards", check=_positive),
    "policy.entity.global_dim": Key(int, 128, "entity: embedding of everything else", check=_positive),
    "policy.entity.features_dim": Key(int, 256, "entity: size of the features fed to the heads",
                                      check=_positive),
    # -- PPO --------------------------------------------------------------------------------------------------
    "ppo.learning_rate": Key(float, 3e-4, "Adam learning rate", check=_positive),
    "ppo.lr_schedule": Key(str, "constant", "learning rate schedule", choices=("constant", "linear")),
    "ppo.n_steps": Key(int, 128, "steps per environment per rollout", check=_positive),
    "ppo.batch_size": Key(int, 256, "minibatch size", check=_at_least(2)),
    "ppo.n_epochs": Key(int, 4, "passes over each rollout", check=_positive),
    "ppo.gamma": Key(float, 1.0, "discount (1: the game's final result, undiscounted)", check=_gamma),
    "ppo.gae_lambda": Key(float, 0.95, "GAE lambda", check=_unit),
    "ppo.clip_range": Key(float, 0.2, "PPO clip range", check=_positive),
    "ppo.clip_range_vf": Key(float, None, "value clip range (null = no clipping)", nullable=True,
                             check=_positive),
    "ppo.ent_coef": Key(float, 0.01, "entropy bonus", check=_non_negative),
    "ppo.vf_coef": Key(float, 0.5, "value loss weight", check=_non_negative),
    "ppo.max_grad_norm": Key(float, 0.5, "gradient clipping", check=_positive),
    "ppo.target_kl": Key(float, None, "early stop of an update past this KL (null = never)", nullable=True,
                         check=_positive),
    "ppo.normalize_advantage": Key(bool, True, "normalise advantages per minibatch"),
    # -- evaluation against Hal -------------------------------------------------------------------------------
    "eval.freq": Key(int, 50_000, "evaluate every this many steps (0 = never during training)",
                     check=_non_negative),
    "eval.n_games": Key(int, 100, "games per evaluation", check=_positive),
    "eval.seed": Key(int, 1_000_000, "game i of every evaluation is seeded eval.seed + i", check=_non_negative),
    "eval.deterministic": Key(bool, True, "greedy actions during evaluation"),
    "eval.at_end": Key(bool, True, "also evaluate after the last step"),
    # -- behaviour-cloning warm start (blackangel_env/training/imitation.py) ---------------------------
    "pretrain.agent": Key(str, None, "expert agent code (blackangel_env.agents.make_agent: greedy, heuristic, "
                          "mcts:<n>, ...) whose games the policy imitates before PPO on a fresh run "
                          "(null = no pretraining)",
                          nullable=True, check=_agent_code),
    "pretrain.games": Key(int, 200, "expert games against Hal to collect", check=_positive),
    "pretrain.seed": Key(int, 2_000_000, "expert game i is seeded pretrain.seed + i (also the held-out split)",
                         check=_non_negative),
    "pretrain.workers": Key(int, 1, "worker processes collecting the games (the data do not depend on it)",
                            check=between(1, MAX_PROCESSES)),
    "pretrain.dataset": Key(str, None, "an existing dataset .npz (python -m blackangel_env.training.imitation --out) "
                            "to use instead of collecting (null = collect into RUN_DIR/pretrain/dataset.npz)",
                            nullable=True),
    "pretrain.epochs": Key(int, 10, "passes over the dataset", check=_positive),
    "pretrain.batch_size": Key(int, 256, "minibatch size", check=_positive),
    "pretrain.learning_rate": Key(float, 1e-3, "Adam learning rate of the cloning (its own optimizer)",
                                  check=_positive),
    "pretrain.value": Key(bool, True, "also fit the value head to the discounted (ppo.gamma) returns of the "
                          "shaped reward, weighted by ppo.vf_coef"),
    "pretrain.evaluate": Key(bool, True, "evaluate the cloned policy against Hal (eval.*) before PPO starts"),
    "pretrain.dagger_rounds": Key(int, 0, "DAgger rounds after the first cloning: the clone plays, the expert "
                                  "labels, the policy is cloned again on all samples (0 = plain cloning)",
                                  check=_non_negative),
    "pretrain.dagger_games": Key(int, 100, "games the clone plays (labelled by the expert) each DAgger round",
                                 check=_positive),
    "pretrain.dagger_beta": Key(float, 0.5, "round r plays the expert's action with probability beta ** r, the "
                                "clone's otherwise", check=_unit),
    # -- checkpoints ------------------------------------------------------------------------------------------
    "checkpoint.freq": Key(int, 50_000, "save a checkpoint every this many steps (and at the end)",
                           check=_positive),
    "checkpoint.keep": Key(int, 3, "checkpoints kept, oldest deleted first (0 = keep all)", check=_non_negative),
    # -- logging ----------------------------------------------------------------------------------------------
    "logging.tensorboard": Key(str, "auto", "TensorBoard event files: auto = when the tensorboard package is "
                               "importable", choices=("auto", "true", "false")),
    "logging.stdout": Key(bool, False, "print SB3's table of metrics after each rollout"),
    "logging.progress_bar": Key(bool, True, "tqdm/rich progress bar"),
    "logging.log_interval": Key(int, 1, "write the logs every this many rollouts", check=_positive),
}


# -- nested <-> flat --------------------------------------------------------------------------------------------

def flatten(d: Mapping, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if not isinstance(k, str):
            raise ConfigError(f"config keys must be strings, got {k!r} under {prefix or 'the top level'!r}")
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            if not v:
                raise ConfigError(f"config key {key!r} is an empty section")
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def unflatten(flat: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, v in flat.items():
        node = out
        *parents, leaf = key.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = copy.deepcopy(v)
    return out


# -- values -----------------------------------------------------------------------------------------------------

_TYPE_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string",
               "int_list": "a list of positive integers"}


def _coerce(key: str, spec: Key, v: Any) -> Any:
    def bad(why: str | None = None):
        what = why or f"must be {_TYPE_NAMES[spec.type]}{' or null' if spec.nullable else ''}"
        return ConfigError(f"config key {key!r} {what}, got {v!r}")

    if v is None:
        if spec.nullable:
            return None
        raise bad()
    t = spec.type
    if t is bool:
        if isinstance(v, bool):
            out = v
        else:
            raise bad()
    elif t is int:
        if isinstance(v, bool):
            raise bad()
        if isinstance(v, int):
            out = v
        elif isinstance(v, float) and v.is_integer():
            out = int(v)
        elif isinstance(v, str):                  # "1e6" (YAML reads exponents without a dot as strings)
            try:
                f = float(v.replace("_", ""))
            except ValueError:
                raise bad() from None
            if not f.is_integer():
                raise bad()
            out = int(f)
        else:
            raise bad()
    elif t is float:
        if isinstance(v, bool):
            raise bad()
        if isinstance(v, (int, float)):
            out = float(v)
        elif isinstance(v, str):                  # "3e-4"
            try:
                out = float(v)
            except ValueError:
                raise bad() from None
        else:
            raise bad()
        if not math.isfinite(out):
            raise bad("must be finite")
    elif t is str:
        if isinstance(v, bool) and spec.choices and {"true", "false"} <= set(spec.choices):
            out = "true" if v else "false"
        elif isinstance(v, str):
            out = v
        else:
            raise bad()
    elif t == "int_list":
        if not isinstance(v, (list, tuple)) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise bad()
        out = [int(x) for x in v]
    else:  # pragma: no cover - schema error
        raise TypeError(f"unknown type {t!r} for {key}")
    if spec.choices is not None and out not in spec.choices:
        raise ConfigError(f"config key {key!r} must be one of {list(spec.choices)}, got {v!r}")
    if spec.check is not None:
        why = spec.check(out)
        if why:
            raise ConfigError(f"config key {key!r} {why}, got {v!r}")
    return out


def _unknown(key: str, schema: Mapping[str, Key]) -> ConfigError:
    import difflib
    inside = sorted(k for k in schema if k.startswith(key + "."))
    if inside:                                  # a section given a value: "ppo: 5"
        return ConfigError(f"config key {key!r} is a section: it holds keys ({', '.join(inside[:3])}"
                           f"{', ...' if len(inside) > 3 else ''}), not a value")
    close = difflib.get_close_matches(key, list(schema), n=3)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    sections = sorted({k.split(".")[0] for k in schema})
    return ConfigError(f"unknown config key {key!r}{hint}; sections are {sections}, every key is listed in "
                       f"{_listing(sections)}")


def _listing(sections: list[str]) -> str:
    """The example config that lists every key of a recipe with these sections."""
    if "selfplay" in sections:
        return "configs/train/selfplay_3p.yaml"
    if "multi_agent" in sections:
        return "configs/train/rllib_3p.yaml"
    return "configs/train/ppo_solo.yaml"


def validate(flat: Mapping[str, Any], schema: Mapping[str, Key] = PPO_SCHEMA) -> dict[str, Any]:
    """Check a flat config (every key known, every value of its type); fill in defaults; cross-key checks."""
    for key in flat:
        if key not in schema:
            raise _unknown(key, schema)
    out = {}
    for key, spec in schema.items():
        out[key] = _coerce(key, spec, flat[key]) if key in flat else copy.deepcopy(spec.default)
    if schema is PPO_SCHEMA:
        rollout = out["ppo.n_steps"] * out["vec_env.n_envs"]
        if out["ppo.batch_size"] > rollout:
            raise ConfigError(f"config key 'ppo.batch_size' ({out['ppo.batch_size']}) must not exceed "
                              f"ppo.n_steps * vec_env.n_envs ({rollout})")
    return out


# -- overrides and loading ---------------------------------------------------------------------------------------

def parse_override(text: str) -> tuple[str, Any]:
    """``"a.b=value"`` -> ``("a.b", yaml value)``."""
    if "=" not in text:
        raise ConfigError(f"an override must look like key=value (e.g. ppo.n_steps=128), got {text!r}")
    key, raw = text.split("=", 1)
    key = key.strip()
    if not key:
        raise ConfigError(f"an override must look like key=value, got {text!r}")
    try:
        value = load_yaml(raw) if raw.strip() else None
    except yaml.YAMLError as e:
        raise ConfigError(f"override {key!r}: cannot parse value {raw!r} as YAML ({e})") from None
    return key, value


def apply_overrides(flat: dict[str, Any], overrides: Iterable[str], schema: Mapping[str, Key] = PPO_SCHEMA
                    ) -> dict[str, Any]:
    out = dict(flat)
    for text in overrides:
        key, value = parse_override(text)
        if key not in schema:
            raise _unknown(key, schema)
        out[key] = value
    return out


def read_yaml(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} {'is a folder' if path.is_dir() else 'does not exist'}")
    try:
        with path.open(encoding="utf-8") as f:        # a stream: YAML's errors name the file
            data = load_yaml(f)
    except UnicodeDecodeError:
        raise ConfigError(f"config file {str(path)!r} is not UTF-8 text") from None
    except DuplicateKeyError as e:
        raise ConfigError(f"config file {str(path)!r}: {e}") from None
    except yaml.YAMLError as e:
        raise ConfigError(f"config file {str(path)!r} is not valid YAML: {' '.join(str(e).split())}") from None
    if data is None:                                   # an empty file would silently train on every default
        raise ConfigError(f"config file {str(path)!r} is empty: give a recipe (configs/train/*.yaml; "
                          "configs/train/ppo_solo.yaml lists every key with its default)")
    if not isinstance(data, Mapping):
        raise ConfigError(f"config file {str(path)!r} must hold a mapping of sections, got {type(data).__name__}")
    return flatten(data)


def load_config(path: str | Path | None = None, overrides: Iterable[str] = (),
                schema: Mapping[str, Key] = PPO_SCHEMA) -> dict[str, Any]:
    """The validated flat config: defaults <- YAML file <- ``key=value`` overrides."""
    flat = read_yaml(path) if path is not None else {}
    for key in flat:
        if key not in schema:
            raise _unknown(key, schema)
    return validate(apply_overrides(flat, overrides, schema), schema)


def dump_config(flat: Mapping[str, Any], path: str | Path) -> None:
    Path(path).write_text(yaml.safe_dump(unflatten(flat), sort_keys=False))
