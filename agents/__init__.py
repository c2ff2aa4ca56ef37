"""Deprecated name of ``blackangel_env.agents`` (docs/architecture.md, "The installed names").

The agents moved into the package ``blackangel_env``; this folder, in the repository only (the wheel does not
install it), keeps the old imports working from a source checkout for one release, with a ``DeprecationWarning``:
``import agents``, ``from agents import make_agent`` and ``import agents.<module>`` / ``from agents.<module> import
...`` give the objects and modules of ``blackangel_env.agents`` themselves (``agents.arena`` is
``blackangel_env.agents.arena`` in ``sys.modules``), never second copies.
"""

import importlib
import sys
import warnings

warnings.warn("the package 'agents' is now 'blackangel_env.agents': import blackangel_env.agents (the old name "
              "works from a source checkout only, and will be removed)", DeprecationWarning, stacklevel=2)

import blackangel_env.agents as _new  # noqa: E402
from blackangel_env.agents import *  # noqa: E402,F401,F403
from blackangel_env.agents import __all__  # noqa: E402,F401


def __getattr__(name: str):
    return getattr(_new, name)                  # AGENT_CODES (computed on access) and the submodules


def _alias(name: str) -> None:
    """The module ``agents.<x>`` being imported is ``blackangel_env.agents.<x>`` (called by each file here)."""
    sys.modules[name] = importlib.import_module(f"blackangel_env.{name}")
