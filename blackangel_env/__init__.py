"""blackangel_env: the board game Black Angel (Pearl Games, 2019) as a reinforcement-learning environment.

Layers, imports flowing one way: component data (``components``) -> pure rules engine (``state`` and the
package ``engine``, one module per rule area, docs/engine.md; ``scoring`` and ``hal`` re-export its parts under
their old paths) -> encodings and masks -> environment adapters -> agents and training.
"""

from . import _compiled

_compiled.install()          # before any compiled module is imported: picks the .so or the .py (see _compiled)

from .actions import NUM_ACTIONS, action_to_string, decode, encode  # noqa: E402
from .config import GameConfig  # noqa: E402
from .engine import IllegalActionError, apply, final_scores, legal_actions, legal_mask, new_game, winners  # noqa: E402
from .state import State  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "NUM_ACTIONS", "GameConfig", "IllegalActionError", "State", "action_to_string", "apply", "decode", "encode",
    "final_scores", "legal_actions", "legal_mask", "new_game", "winners", "__version__",
]

# Environment adapters (import after the engine; they register "blackangel/black_angel_v0" with PettingZoo and
# "BlackAngelSolo-v0" / "BlackAngel-v0" with Gymnasium).
from .pettingzoo_env import env, raw_env  # noqa: E402
from .gym_env import BlackAngelSingleAgentEnv  # noqa: E402

__all__ += ["BlackAngelSingleAgentEnv", "env", "raw_env"]
