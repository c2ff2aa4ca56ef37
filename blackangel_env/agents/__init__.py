"""Agents for blackangel_env: every agent has ``act(observation, action_mask, state=None) -> action id`` (also
callable directly) and ``reset(seed)``.  ``state`` is a copy of the engine state; the search-based agents
(greedy, heuristic, mcts) need it, the random agent ignores it.

``make_agent(code, seed)`` builds an agent from a command-line code (``blackangel_env.agents.codes``): ``random``,
``greedy``, ``heuristic``, ``mcts:<simulations>`` (``mcts`` alone: 100 simulations), and the codes that the
``blackangel_env.training`` package registers: ``policy:<path>`` (a MaskablePPO checkpoint: a run directory, whose best
model is used, or a model ``.zip``; needs the ``train`` extra; ``blackangel_env.training.policy_agent``) and
``rllib:<path>`` (an RLlib run directory, algorithm checkpoint or module directory; needs the ``rllib`` extra;
``blackangel_env.training.rllib_train``). ``blackangel_env.agents.arena`` plays seeded matches between agent codes and
reports them.

This package imports the rules engine and the observation encoding only: neither the environment adapters nor
``blackangel_env.training`` (docs/architecture.md).
"""

from .codes import AgentCode, agent_codes, make_agent, parse_agent_code, register_agent_code
from .greedy import GreedyAgent, SearchAgent, evaluate
from .heuristic import HeuristicAgent
from .information import determinize
from .mcts import MCTSAgent
from .random_agent import RandomAgent
from .value import horizon

__all__ = ["AGENT_CODES", "AgentCode", "GreedyAgent", "HeuristicAgent", "MCTSAgent", "RandomAgent", "SearchAgent",
           "agent_codes", "determinize", "evaluate", "horizon", "make_agent", "parse_agent_code",
           "register_agent_code"]


def __getattr__(name: str):
    if name == "AGENT_CODES":                   # the usage lines of the known codes, registered ones included
        return agent_codes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
