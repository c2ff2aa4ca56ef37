"""Game configs in configs/games load and play; malformed configs are refused clearly; the random agent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from blackangel_env.agents import RandomAgent
from blackangel_env import engine
from blackangel_env.config import ConfigError, GameConfig

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs" / "games").glob("*.yaml"))


def test_there_are_game_configs():
    assert len(CONFIGS) >= 4


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_game_config_loads_and_plays(path):
    config = GameConfig.from_yaml(str(path))
    s = engine.new_game(config, seed=0)
    agent = RandomAgent(seed=0)
    while not s.terminal:
        assert s.actor < config.num_players
        engine.apply(s, agent.act(None, engine.legal_mask(s), s))
    assert len(engine.final_scores(s)) == config.num_players


@pytest.mark.parametrize("text, message", [
    ("num_players: 5\n", "num_players must be 1..4"),
    ("num_players: 2\nadvanced: maybe\n", "advanced must be True or False"),
    ("num_players: 1\nhal_difficulty: brutal\n", "hal_difficulty must be one of"),
    ("num_players: 2\nplayers: 3\n", "unknown keys"),
    ("- 1\n- 2\n", "must be a mapping"),
    ("num_players: [\n", "not valid YAML"),
])
def test_malformed_game_config_is_refused(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        GameConfig.from_yaml(str(path))


def test_missing_config_file():
    with pytest.raises(ConfigError, match="cannot read"):
        GameConfig.from_yaml("/nonexistent/config.yaml")


def test_random_agent_is_legal_and_seeded():
    mask = np.zeros(882, dtype=np.int8)
    mask[[2, 5, 7]] = 1
    a, b = RandomAgent(3), RandomAgent(3)
    picks = [a.act(None, mask) for _ in range(50)]
    assert set(picks) <= {2, 5, 7} and len(set(picks)) == 3
    assert picks == [b(None, mask) for _ in range(50)]
    with pytest.raises(ValueError, match="allows no action"):
        a.act(None, np.zeros(882, dtype=np.int8))
    with pytest.raises(ValueError, match="one entry per action id"):
        a.act(None, np.ones(10, dtype=np.int8))
