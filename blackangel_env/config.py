"""Game options: player count, advanced rules, Hal's difficulty, and which component data file to use."""

from __future__ import annotations

import numbers
import os
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .constants import HAL_DIFFICULTIES
from .files import load_yaml


class ConfigError(ValueError):
    """A game configuration (or its serialised form) is malformed."""


@dataclass(frozen=True)
class GameConfig:
    """Options of one game.

    ``num_players``: 1 (solitaire against Hal), 2 (with the neutral player), 3 or 4.
    ``advanced``: the rulebook's ADVANCED RULES (boost sides, draw two keep one).
    ``hal_difficulty``: Hal's starting VP in the solo game: easy 0, standard 5, difficult 10, extreme 15.
    ``components``: path of a component data file, or None for the packaged one.
    """

    num_players: int = 2
    advanced: bool = False
    hal_difficulty: str = "standard"
    components: str | None = None

    def __post_init__(self) -> None:
        # numpy integers and bools (what a config built from arrays holds) are stored as Python ones
        if isinstance(self.num_players, np.integer):
            object.__setattr__(self, "num_players", int(self.num_players))
        if isinstance(self.advanced, np.bool_):
            object.__setattr__(self, "advanced", bool(self.advanced))
        if isinstance(self.num_players, bool) or not isinstance(self.num_players, int):
            raise ConfigError(f"num_players must be an int 1..4, got {self.num_players!r}")
        if not 1 <= self.num_players <= 4:
            raise ConfigError(f"num_players must be 1..4 (1 = solo against Hal), got {self.num_players}")
        if not isinstance(self.advanced, bool):
            raise ConfigError(f"advanced must be True or False, got {self.advanced!r}")
        if isinstance(self.hal_difficulty, np.str_):
            object.__setattr__(self, "hal_difficulty", str(self.hal_difficulty))
        if not isinstance(self.hal_difficulty, str) or self.hal_difficulty not in HAL_DIFFICULTIES:
            raise ConfigError(f"hal_difficulty must be one of {HAL_DIFFICULTIES}, got {self.hal_difficulty!r}")
        if self.components is not None and (not isinstance(self.components, str) or not self.components):
            raise ConfigError(f"components must be a path string or None, got {self.components!r}")

    @property
    def solo(self) -> bool:
        return self.num_players == 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_yaml(cls, path: str) -> "GameConfig":
        """Read options from a YAML file (e.g. ``configs/games/solo_standard.yaml``)."""
        import yaml
        if not isinstance(path, (str, os.PathLike)):       # open() would take an int as a file descriptor
            raise TypeError(f"GameConfig.from_yaml: path must be a str or os.PathLike, not {type(path).__name__}")
        try:
            with open(path, encoding="utf-8") as f:
                d = load_yaml(f)
        except OSError as e:
            raise ConfigError(f"cannot read game config {path}: {e}") from None
        except UnicodeDecodeError as e:
            raise ConfigError(f"game config {path} is not UTF-8 text ({e})") from None
        except yaml.YAMLError as e:
            raise ConfigError(f"game config {path} is not valid YAML: {e}") from None
        try:
            return cls.from_dict(d)
        except ConfigError as e:
            raise ConfigError(f"game config {path}: {e}") from None

    @classmethod
    def from_dict(cls, d: Any) -> "GameConfig":
        if not isinstance(d, dict):
            raise ConfigError(f"config must be a mapping, got {type(d).__name__}")
        unknown = set(d) - {"num_players", "advanced", "hal_difficulty", "components"}
        if unknown:
            raise ConfigError(f"config has unknown keys {sorted(unknown)}")
        return cls(**d)


def positive_int_or_none(name: str, value: Any) -> int | None:
    """``value`` as an int when it is a positive integer (numpy's included, bool not), None for None; anything
    else raises a ValueError naming the option ``name``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{name} must be a positive integer or None, got {value!r}")
    return int(value)


def is_integer(value: Any) -> bool:
    """An integer argument: a Python or numpy integer, a bool not (the shared test of the entry points' checks)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def seed_or_none(name: str, value: Any) -> int | None:
    """``value`` as an int when it is a non-negative integer (numpy's included, bool not), None for None; anything
    else raises a ValueError naming ``name`` (a game's seed: ``new_game`` takes the same)."""
    if value is None:
        return None
    if not is_integer(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer or None, got {value!r}")
    return int(value)
