"""Golden trajectories: seeded random games over every configuration, hashed step by step.

``tests/test_golden.py`` replays the games listed in ``tests/data/golden_games.json`` and compares, per game,
the hashes of the actions taken, the legal sets met, the full state buffer after every step, the log (for some
games), the generator's final state and the final scores (and, for the ``env`` games, the observation vectors,
masks and rewards of the PettingZoo ``env()``).  Any change in how a game unfolds moves a hash.

Re-recording is allowed only for a change that is meant to change games: a rule fix (or a deliberate change of
the observation encoding for the ``env`` hashes), committed on its own with the re-recorded file, its message
saying why the hashes moved.  A refactoring or a speed-up must leave every hash as it is.

Usage: ``python benchmarks/golden.py --record`` rewrites the data file; ``python benchmarks/golden.py`` checks
it and prints the games that differ.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackangel_env import actions as A  # noqa: E402
from blackangel_env import engine  # noqa: E402
from blackangel_env.constants import HAL_DIFFICULTIES  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "golden_games.json"
ENGINE_GAMES_PER_CONFIG = 35      # per (players, rules); solo games cycle through Hal's difficulties
ENV_GAMES_PER_CONFIG = 3
LOGGED_EVERY = 5                  # every 5th engine game keeps (and hashes) its log
# "uniform": every legal action alike; "eager": 4 times in 5 the choice leaves out DONE, Sequence B and PASS when
# something else is legal, so that games run longer and reach the rarer phases (an owner's free activation,
# the hand limit, payments, Advanced tiles' spaces).
POLICIES = ("uniform", "eager")
_QUIET = (A.DONE, A.SEQUENCE_B, A.PASS)


def engine_games() -> list[dict]:
    """The engine games: every player count, base and advanced rules, every Hal difficulty."""
    out = []
    for n in (1, 2, 3, 4):
        for advanced in (False, True):
            for g in range(ENGINE_GAMES_PER_CONFIG):
                seed = 1000 * n + 500 * advanced + g
                out.append({"kind": "engine", "num_players": n, "advanced": advanced,
                            "hal_difficulty": HAL_DIFFICULTIES[g % len(HAL_DIFFICULTIES)],
                            "seed": seed, "log": g % LOGGED_EVERY == 0, "policy": POLICIES[g % 2]})
    return out


def env_games() -> list[dict]:
    out = []
    for n in (1, 2, 3, 4):
        for advanced in (False, True):
            for g in range(ENV_GAMES_PER_CONFIG):
                seed = 70_000 + 1000 * n + 500 * advanced + g
                out.append({"kind": "env", "num_players": n, "advanced": advanced,
                            "hal_difficulty": HAL_DIFFICULTIES[(g + advanced) % len(HAL_DIFFICULTIES)],
                            "seed": seed})
    return out


def determinize_games() -> list[dict]:
    """Games along which the agents' determinization (``blackangel_env.agents.information.determinize``) is hashed."""
    return [{"kind": "determinize", "num_players": n, "advanced": advanced, "hal_difficulty": "standard",
             "seed": 90_000 + 10 * n + advanced} for n in (1, 2, 3, 4) for advanced in (False, True)]


def all_games() -> list[dict]:
    return engine_games() + env_games() + determinize_games()


def _h() -> "hashlib._Hash":
    return hashlib.sha256()


def play_engine_game(spec: dict) -> dict:
    """Random legal play through ``engine.legal_actions`` and the checked ``engine.apply``."""
    s = engine.new_game(num_players=spec["num_players"], advanced=spec["advanced"],
                        hal_difficulty=spec["hal_difficulty"], seed=spec["seed"], log=spec["log"])
    rng = np.random.default_rng(spec["seed"] + 1)
    h_actions, h_legal, h_states = _h(), _h(), _h()
    h_states.update(s.buf.tobytes())
    steps = 0
    eager = spec["policy"] == "eager"
    while not s.terminal:
        legal = engine.legal_actions(s)
        h_legal.update(np.asarray(legal, dtype=np.int32).tobytes() + b";")
        choices = legal
        if eager and len(legal) > 1 and rng.random() < 0.8:
            choices = [a for a in legal if a not in _QUIET] or legal
        a = choices[int(rng.random() * len(choices))]
        h_actions.update(a.to_bytes(4, "little"))
        engine.apply(s, a)
        h_states.update(s.buf.tobytes())
        steps += 1
    out = {"steps": steps, "actions": h_actions.hexdigest(), "legal": h_legal.hexdigest(),
           "states": h_states.hexdigest(),
           "rng": _digest(json.dumps(s.rng_state(), sort_keys=True, default=str).encode()),
           "scores": [engine.final_scores(s), engine.winners(s), s.vp.tolist()]}
    if spec["log"]:
        out["log"] = _digest("\n".join(s.log).encode())
    return out


def play_env_game(spec: dict) -> dict:
    """Random legal play through the wrapped PettingZoo ``env()``: every observation vector, mask and reward."""
    import blackangel_env

    e = blackangel_env.env(num_players=spec["num_players"], advanced=spec["advanced"],
                           hal_difficulty=spec["hal_difficulty"])
    e.reset(seed=spec["seed"])
    rng = np.random.default_rng(spec["seed"] + 1)
    h_obs, h_mask, h_actions, h_rewards = _h(), _h(), _h(), _h()
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        h_obs.update(np.ascontiguousarray(obs["observation"]).tobytes())
        h_mask.update(np.ascontiguousarray(obs["action_mask"]).tobytes())
        h_rewards.update(f"{agent}:{float(reward)!r}:{terminated}:{truncated};".encode())
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[int(rng.random() * len(legal))])
            h_actions.update(action.to_bytes(4, "little"))
            steps += 1
        e.step(action)
    e.close()
    return {"steps": steps, "observations": h_obs.hexdigest(), "masks": h_mask.hexdigest(),
            "actions": h_actions.hexdigest(), "rewards": h_rewards.hexdigest()}


def play_determinize_game(spec: dict) -> dict:
    """Uniform random play; at every other decision a determinization for the seat to act (from a generator of
    its own), hashed: the buffer and the generator's state of the determinized copy."""
    from blackangel_env.agents.information import determinize

    s = engine.new_game(num_players=spec["num_players"], advanced=spec["advanced"],
                        hal_difficulty=spec["hal_difficulty"], seed=spec["seed"])
    rng = np.random.default_rng(spec["seed"] + 1)
    world_rng = np.random.default_rng(spec["seed"] + 2)
    h = _h()
    steps = worlds = 0
    while not s.terminal:
        if steps % 2 == 0:
            d = determinize(s, s.actor, world_rng)
            h.update(d.buf.tobytes())
            h.update(json.dumps(d.rng_state(), sort_keys=True, default=str).encode())
            worlds += 1
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.random() * len(legal))])
        steps += 1
    return {"steps": steps, "worlds": worlds, "determinizations": h.hexdigest()}


def _digest(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def play(spec: dict) -> dict:
    return {"engine": play_engine_game, "env": play_env_game, "determinize": play_determinize_game}[spec["kind"]](spec)


def record(path: Path = DATA) -> None:
    games = [{"game": spec, "hashes": play(spec)} for spec in all_games()]
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(json.dumps(g, sort_keys=True) for g in games)        # one game a line: readable diffs
    path.write_text('{"doc": "written by benchmarks/golden.py --record; see its docstring",\n"games": [\n'
                    + lines + "\n]}\n")
    print(f"recorded {len(games)} games in {path}")


def load(path: Path = DATA) -> list[dict]:
    return json.loads(path.read_text())["games"]


def differences(entry: dict) -> list[str]:
    """The hashes of one recorded game that do not match a replay of it (empty when all match)."""
    got = play(entry["game"])
    want = entry["hashes"]
    return [f"{k}: recorded {want.get(k)!r}, now {got.get(k)!r}" for k in sorted(set(want) | set(got))
            if want.get(k) != got.get(k)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", action="store_true", help="rewrite the data file (see the docstring first)")
    args = ap.parse_args(argv)
    if args.record:
        record()
        return 0
    bad = 0
    for entry in load():
        diff = differences(entry)
        if diff:
            bad += 1
            print(entry["game"], *diff, sep="\n  ")
    print(f"{bad} game(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
