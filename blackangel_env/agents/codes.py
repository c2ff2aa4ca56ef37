"""Agent codes: the registry behind ``make_agent(code, seed)`` and ``parse_agent_code(code)``.

A code is ``kind`` or ``kind:argument`` (``random``, ``greedy``, ``heuristic``, ``mcts:<simulations>`` with
1 to ``MAX_SIMULATIONS`` simulations, ``search`` or ``search:key=value,...``).  Each kind
is an ``AgentCode``: how its argument is read (``parse``), how the agent is built (``make``), and whether a built
agent may be kept and reseeded between games (``reusable``: building it is expensive, as loading a network, and
``reset(seed)`` returns it to the state of a freshly built one).

The kinds that need code from a higher layer register themselves from that layer: the ``blackangel_env.training``
package registers ``policy:<path>`` and ``rllib:<path>`` when it is imported (``blackangel_env.training.agent_codes``),
and declares them as entry points of the group ``blackangel_env.agents`` (``pyproject.toml``), which this registry
loads the first time such a kind is asked for.  So ``make_agent("policy:runs/x")`` works after
``import blackangel_env.agents`` alone, without this package importing ``blackangel_env.training``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .greedy import GreedyAgent
from .heuristic import HeuristicAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent
from .search import DEFAULTS as _SEARCH_DEFAULTS
from .search import TurnSearchAgent

__all__ = ["AGENT_CODES", "ENTRY_POINT_GROUP", "AgentCode", "agent_code", "agent_codes", "make_agent",
           "parse_agent_code", "register_agent_code", "split_agent_codes"]

ENTRY_POINT_GROUP = "blackangel_env.agents"


@dataclass(frozen=True)
class AgentCode:
    """One kind of agent code.

    ``parse(arg, code) -> options`` reads the part after ``kind:`` (``""`` when absent) and raises ``ValueError``
    naming ``code`` when it is wrong; ``make(options, seed, code) -> agent`` builds the agent and raises
    ``ValueError`` for what a user can fix (a missing extra, a file that is not a model)."""

    kind: str
    usage: str
    make: Callable[[dict, int | None, str], Any]
    parse: Callable[[str, str], dict] | None = None
    reusable: bool = False


_REGISTRY: dict[str, AgentCode] = {}


def register_agent_code(spec: AgentCode, replace: bool = False) -> AgentCode:
    """Add a kind of agent code; ``replace`` allows redefining one (else a second definition raises)."""
    kind = spec.kind.lower()
    if not kind or ":" in kind or kind != kind.strip():
        raise ValueError(f"bad agent kind {spec.kind!r}")
    old = _REGISTRY.get(kind)
    if old is not None and old is not spec and not replace:
        raise ValueError(f"agent kind {kind!r} is already registered")
    _REGISTRY[kind] = spec
    return spec


def _entry_points() -> list:
    from importlib.metadata import entry_points
    try:
        return list(entry_points(group=ENTRY_POINT_GROUP))
    except Exception:                                   # broken metadata of another distribution: no plugins
        return []


def _from_entry_point(kind: str) -> AgentCode | None:
    for ep in _entry_points():
        if ep.name.lower() == kind:
            spec = ep.load()
            if not isinstance(spec, AgentCode):
                raise TypeError(f"entry point {ep.name} = {ep.value} of {ENTRY_POINT_GROUP} is not an AgentCode")
            return register_agent_code(spec, replace=True)
    return None


def agent_code(kind: str) -> AgentCode | None:
    """The registered kind (loading its entry point if needed), or None."""
    kind = kind.lower()
    return _REGISTRY.get(kind) or _from_entry_point(kind)


def agent_codes() -> tuple[str, ...]:
    """The usage line of every known kind: the registered ones, then those only declared as entry points."""
    usages = [spec.usage for spec in _REGISTRY.values()]
    seen = set(_REGISTRY)
    for ep in _entry_points():
        name = ep.name.lower()
        if name in seen:
            continue
        seen.add(name)
        spec = None
        if ep.value.startswith("blackangel_env."):      # this package's own kinds: a light module, read for the
            try:                                        # kind's usage line (no agent is built)
                spec = ep.load()
            except Exception:                           # noqa: BLE001 - the name alone then
                spec = None
        usages.append(spec.usage if isinstance(spec, AgentCode) else f"{ep.name}:...")
    return tuple(usages)


def parse_agent_code(code: str) -> tuple[str, dict]:
    """``code`` -> (kind, options); raises ValueError with a readable message for a bad code."""
    if not isinstance(code, str):
        raise ValueError(f"an agent code must be a string, got {type(code).__name__} {code!r}; expected one of "
                         f"{', '.join(agent_codes())}")
    if not code.strip():
        raise ValueError(f"empty agent code; expected one of {', '.join(agent_codes())}")
    code = code.strip()
    kind, colon, arg = code.partition(":")
    kind = kind.lower()
    spec = agent_code(kind) if kind else None
    if spec is None:
        raise ValueError(f"unknown agent code {code!r}; expected one of {', '.join(agent_codes())}")
    if colon and not arg.strip():
        raise ValueError(f"agent code {code!r}: nothing after ':' (write {kind!r} alone for its defaults)")
    if spec.parse is None:
        if arg:
            raise ValueError(f"agent code {code!r}: {kind} takes no argument")
        return kind, {}
    return kind, spec.parse(arg.strip(), code)


def split_agent_codes(text: str) -> list[str]:
    """The codes of a comma-separated list such as ``--players``: ``"search:worlds=2,depth=1,heuristic"`` is
    ``["search:worlds=2,depth=1", "heuristic"]`` (an item ``key=value`` without a ``:`` continues the code before
    it).  Items are stripped; empty items are kept as ``""`` for the caller to refuse."""
    out: list[str] = []
    for item in text.split(","):
        item = item.strip()
        if out and "=" in item and ":" not in item and ":" in out[-1]:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def make_agent(code: str, seed: int | None = None):
    """Build the agent named by ``code`` (``parse_agent_code``), seeded with ``seed`` (a non-negative integer,
    numpy's included, or None; anything else raises ValueError naming it)."""
    from blackangel_env.config import seed_or_none
    seed = seed_or_none("make_agent: seed", seed)
    kind, opts = parse_agent_code(code)
    return _REGISTRY[kind].make(opts, seed, code.strip())


# -- the agents of this package -----------------------------------------------------------------------------------

MAX_SIMULATIONS = 100_000      # mcts:<simulations> at most (about a millisecond each: minutes a decision at the top)

def _digits(text: str, otherwise: int) -> int:
    """``text`` (spaces around it allowed) as a number written in ASCII digits only, else ``otherwise``: not
    ``int``'s wider syntax (``1_0``, a sign, other scripts' digits)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else otherwise


def _mcts_parse(arg: str, code: str) -> dict:
    if not arg:
        return {"simulations": 100}              # "mcts" alone
    n = _digits(arg, 0)
    if not 1 <= n <= MAX_SIMULATIONS:
        raise ValueError(f"agent code {code!r}: mcts:<simulations> needs an integer from 1 to {MAX_SIMULATIONS}")
    return {"simulations": n}


# search:key=value ranges (worlds and keep: about a play-out per candidate and world; depth: whole turns a world;
# rollout: candidates played to the end of the game at each turn-shaping decision)
_SEARCH_RANGES = {"worlds": (1, 1000), "keep": (1, 1000), "depth": (0, 20), "rollout": (0, 100)}


def _search_parse(arg: str, code: str) -> dict:
    opts: dict = {}
    if not arg:
        return opts
    for item in arg.split(","):
        key, eq, value = (x.strip() for x in item.partition("="))
        if key not in _SEARCH_DEFAULTS or not eq:
            raise ValueError(f"agent code {code!r}: expected search:key=value,... with keys "
                             f"{', '.join(_SEARCH_DEFAULTS)}; got {item.strip()!r}")
        if key in opts:
            raise ValueError(f"agent code {code!r}: {key} given twice")
        if isinstance(_SEARCH_DEFAULTS[key], bool):
            if value.lower() not in ("0", "1", "true", "false"):
                raise ValueError(f"agent code {code!r}: {key} must be 0 or 1, got {value!r}")
            opts[key] = value.lower() in ("1", "true")
            continue
        n = _digits(value, -1)
        low, high = _SEARCH_RANGES[key]
        if not low <= n <= high:
            raise ValueError(f"agent code {code!r}: {key} must be an integer from {low} to {high}, got {value!r}")
        opts[key] = n
    return opts


def _builtin(kind: str, cls, usage: str | None = None, parse=None) -> AgentCode:
    return AgentCode(kind, usage or kind, lambda opts, seed, code: cls(seed=seed, **opts), parse)


for _spec in (_builtin("random", RandomAgent), _builtin("greedy", GreedyAgent), _builtin("heuristic", HeuristicAgent),
              _builtin("mcts", MCTSAgent, "mcts[:<simulations>]", _mcts_parse),
              _builtin("search", TurnSearchAgent,
                       "search[:worlds=N,keep=N,depth=N,omniscient=0|1,rollout=N,all_decisions=0|1]", _search_parse)):
    register_agent_code(_spec)


def __getattr__(name: str):
    if name == "AGENT_CODES":
        return agent_codes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
