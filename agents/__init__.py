"""Agents for blackangel_env: every agent has ``act(observation, action_mask, state=None) -> action id`` (also
callable directly) and ``reset(seed)``.  ``state`` is a copy of the engine state; the search-based agents
(greedy, heuristic, mcts) need it, the random agent ignores it.

``make_agent(code, seed)`` builds an agent from a command-line code: ``random``, ``greedy``, ``heuristic``,
``mcts:<simulations>`` (``mcts`` alone: 100 simulations), ``policy:<path>`` (a MaskablePPO checkpoint from
``training/``: a run directory, whose best model is used, or a model ``.zip``; see ``training.policy_agent``),
``rllib:<path>`` (an RLlib run directory, algorithm checkpoint or module directory from ``training/rllib_train.py``;
needs the ``rllib`` extra; see ``training.rllib_train.RLlibAgent``).
"""

from .greedy import GreedyAgent, SearchAgent, evaluate
from .heuristic import HeuristicAgent
from .information import determinize
from .mcts import MCTSAgent
from .random_agent import RandomAgent
from .value import horizon

__all__ = ["AGENT_CODES", "GreedyAgent", "HeuristicAgent", "MCTSAgent", "RandomAgent", "SearchAgent", "determinize",
           "evaluate", "horizon", "make_agent", "parse_agent_code"]

AGENT_CODES = ("random", "greedy", "heuristic", "mcts:<simulations>", "policy:<checkpoint path>",
               "rllib:<checkpoint path>")


def parse_agent_code(code: str) -> tuple[str, dict]:
    """``code`` -> (kind, options); raises ValueError with a readable message for a bad code."""
    if not isinstance(code, str) or not code.strip():
        raise ValueError(f"empty agent code; expected one of {', '.join(AGENT_CODES)}")
    code = code.strip()
    kind, _, arg = code.partition(":")
    kind = kind.lower()
    if kind in ("random", "greedy", "heuristic"):
        if arg:
            raise ValueError(f"agent code {code!r}: {kind} takes no argument")
        return kind, {}
    if kind == "mcts":
        if not arg:
            return kind, {"simulations": 100}
        try:
            n = int(arg)
        except ValueError:
            n = 0
        if n < 1:
            raise ValueError(f"agent code {code!r}: mcts:<simulations> needs a positive integer")
        return kind, {"simulations": n}
    if kind == "policy":
        from pathlib import Path
        if not arg or not Path(arg).exists():
            raise ValueError(f"agent code {code!r}: policy:<path> needs an existing run directory or model .zip")
        return kind, {"path": arg}
    if kind == "rllib":
        from pathlib import Path
        if not arg or not Path(arg).is_dir():
            raise ValueError(f"agent code {code!r}: rllib:<path> needs an existing RLlib run, checkpoint or module "
                             "directory")
        return kind, {"path": arg}
    raise ValueError(f"unknown agent code {code!r}; expected one of {', '.join(AGENT_CODES)}")


def make_agent(code: str, seed: int | None = None):
    """Build the agent named by ``code`` (``parse_agent_code``), seeded with ``seed``."""
    kind, opts = parse_agent_code(code)
    if kind == "policy":
        from training.policy_agent import PolicyAgent   # torch and SB3 are loaded only for learned policies
        return PolicyAgent(opts["path"], seed=seed)
    if kind == "rllib":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            raise ValueError(f"agent code {code!r}: ray[rllib] is not installed (pip install -e '.[rllib]')")
        from training.rllib_train import RLlibAgent    # Ray is loaded only for RLlib policies
        return RLlibAgent(opts["path"])
    cls = {"random": RandomAgent, "greedy": GreedyAgent, "heuristic": HeuristicAgent, "mcts": MCTSAgent}[kind]
    return cls(seed=seed, **opts)
