"""A structured feature extractor for Stable-Baselines3, built from the observation's named slices.

The Black Angel observation is one flat float32 vector made of named slices (``blackangel_env.encoding
.observation_layout()``, ``docs/observation.md``).  Much of it repeats one structure over several entities: four
player blocks (``p0`` = the observer, ``p1``.. in turn order), 35 Space hexes, eight display spaces.
``EntityExtractor`` encodes each kind of entity with ONE small MLP shared by all entities of that kind, so what
is learnt about a hex or an opponent's board transfers to every hex and every opponent, then concatenates the
embeddings (in their fixed order, so position is kept: the observer first, hexes in board order) with a
global encoding:

    seats    p0..p3 blocks (every ``p<k>.*`` slice, same sub-layout)     -> shared MLP -> seat_dim    x 4
    hexes    every ``space.*`` slice whose leading dim is the hex count,
             plus ``decision.ship_hex`` (the ship being moved)           -> shared MLP -> hex_dim     x 35
    display  ``board.display`` rows + ``board.display_boost_up``         -> shared MLP -> display_dim x 8
    hand     ``own.*`` (the observer's hand and drawn cards, by id)      -> MLP        -> hand_dim
    global   every other slice (game, decision in progress, Black Angel
             board, dice, stacks, Mission strip, Hal's block ``bot.*``)  -> MLP        -> global_dim
    concat   -> Linear -> ReLU -> features_dim                            (then SB3's pi / vf heads)

Each MLP is Linear -> ReLU -> Linear -> ReLU with the embedding size as its width.  The grouping is computed
at construction from ``observation_layout()`` (by slice names and shapes; no offsets are written here), as
gather-index matrices (entity x feature) kept as buffers, so a layout change in the encoding is followed
automatically; a slice that no group claims falls into ``global``, so nothing is ever dropped.

Select it with ``policy.type: entity`` in a training config (``configs/train/ppo_solo.yaml``); ``policy.type:
mlp`` is SB3's MlpPolicy on the flat vector.  ``entity_groups()`` returns the grouping for inspection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import gymnasium as gym
import numpy as np

from blackangel_env.extras import check_extra

check_extra("train", "blackangel_env.training.policies")

import torch  # noqa: E402
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor  # noqa: E402
from torch import nn  # noqa: E402

from blackangel_env.encoding import ObsSlice, observation_layout, observation_size  # noqa: E402

__all__ = ["EntityExtractor", "EntityGroup", "entity_groups"]

_SEAT = re.compile(r"^p(\d+)\.(.+)$")


@dataclass(frozen=True)
class EntityGroup:
    """``index[e, f]`` is the observation element holding feature ``f`` of entity ``e``; ``slices`` the names."""
    name: str
    index: np.ndarray          # (n_entities, n_features) int64
    slices: tuple[str, ...]

    @property
    def n_entities(self) -> int:
        return int(self.index.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.index.shape[1])


def _rows(sl: ObsSlice, n: int) -> np.ndarray:
    """The slice as (n, size // n) observation indices (entity-major, as the encoding lays out ``shape``)."""
    return (sl.offset + np.arange(sl.size, dtype=np.int64)).reshape(n, sl.size // n)


def entity_groups(layout: list[ObsSlice] | None = None) -> dict[str, EntityGroup]:
    """Group the observation's slices into seats, hexes, display, hand and global (module docstring)."""
    layout = list(layout if layout is not None else observation_layout())
    by_name = {sl.name: sl for sl in layout}
    claimed: set[str] = set()
    groups: dict[str, EntityGroup] = {}

    # seats: p<k>.<field>, the same fields and sizes for every k
    seats: dict[int, list[ObsSlice]] = {}
    for sl in layout:
        m = _SEAT.match(sl.name)
        if m:
            seats.setdefault(int(m.group(1)), []).append(sl)
    if seats:
        ks = sorted(seats)
        sig = [(_SEAT.match(s.name).group(2), s.size) for s in seats[ks[0]]]
        for k in ks[1:]:
            if [(_SEAT.match(s.name).group(2), s.size) for s in seats[k]] != sig:
                raise ValueError(f"player blocks p{ks[0]} and p{k} have different layouts")
        index = np.stack([np.concatenate([_rows(s, 1)[0] for s in seats[k]]) for k in ks])
        names = tuple(s.name for k in ks for s in seats[k])
        groups["seats"] = EntityGroup("seats", index, names)
        claimed.update(names)

    # hexes: space.* slices whose leading dim is the hex count, and the ship being moved
    if "space.exists" in by_name:
        n_hex = by_name["space.exists"].shape[0]
        members = [sl for sl in layout if sl.name.startswith("space.") and sl.shape[0] == n_hex]
        if "decision.ship_hex" in by_name and by_name["decision.ship_hex"].shape == (n_hex,):
            members.append(by_name["decision.ship_hex"])
        groups["hexes"] = EntityGroup("hexes", np.concatenate([_rows(s, n_hex) for s in members], axis=1),
                                      tuple(s.name for s in members))
        claimed.update(s.name for s in members)

    # display spaces: board.display (n, tile features) and board.display_boost_up (n,)
    if "board.display" in by_name:
        n_disp = by_name["board.display"].shape[0]
        members = [sl for sl in layout if sl.name.startswith("board.display") and sl.shape[0] == n_disp]
        groups["display"] = EntityGroup("display", np.concatenate([_rows(s, n_disp) for s in members], axis=1),
                                        tuple(s.name for s in members))
        claimed.update(s.name for s in members)

    # the observer's own cards
    members = [sl for sl in layout if sl.name.startswith("own.")]
    if members:
        groups["hand"] = EntityGroup("hand", np.concatenate([_rows(s, 1) for s in members], axis=1),
                                     tuple(s.name for s in members))
        claimed.update(s.name for s in members)

    rest = [sl for sl in layout if sl.name not in claimed]
    groups["global"] = EntityGroup("global", np.concatenate([_rows(s, 1) for s in rest], axis=1),
                                   tuple(s.name for s in rest))

    total = sum(g.index.size for g in groups.values())
    size = layout[-1].offset + layout[-1].size
    if total != size or len(np.unique(np.concatenate([g.index.ravel() for g in groups.values()]))) != size:
        raise AssertionError("entity groups must cover every observation element exactly once")
    return groups


def _mlp(n_in: int, width: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(n_in, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())


class EntityExtractor(BaseFeaturesExtractor):
    """Per-entity shared encoders over the observation's named slices (module docstring)."""

    def __init__(self, observation_space: gym.spaces.Box, seat_dim: int = 64, hex_dim: int = 16,
                 display_dim: int = 32, hand_dim: int = 64, global_dim: int = 128, features_dim: int = 256):
        super().__init__(observation_space, features_dim)
        size = observation_size()
        if observation_space.shape != (size,):
            raise ValueError(f"EntityExtractor expects the flat Black Angel observation of shape ({size},), "
                             f"got {observation_space.shape}")
        dims = {"seats": seat_dim, "hexes": hex_dim, "display": display_dim, "hand": hand_dim,
                "global": global_dim}
        self.groups = entity_groups()
        self.names = list(self.groups)
        self.encoders = nn.ModuleDict()
        out = 0
        for name, g in self.groups.items():
            self.register_buffer(f"idx_{name}", torch.as_tensor(g.index, dtype=torch.long), persistent=False)
            self.encoders[name] = _mlp(g.n_features, dims[name])
            out += g.n_entities * dims[name]
        self.head = nn.Sequential(nn.Linear(out, features_dim), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        parts = []
        for name in self.names:
            idx = getattr(self, f"idx_{name}")
            x = observations[:, idx]                     # (batch, entities, features)
            parts.append(self.encoders[name](x).flatten(1))
        return self.head(torch.cat(parts, dim=1))
