"""Training scripts for agents on blackangel_env.

* ``train_ppo``: MaskablePPO on the solo game against Hal
  (``python -m blackangel_env.training.train_ppo --config ...``);
* ``config``: the YAML config schema, validation and ``--set key=value`` overrides;
* ``policies``: ``EntityExtractor``, a structured SB3 feature extractor built from the observation's slices;
* ``evaluate``: play a checkpoint against Hal (``python -m blackangel_env.training.evaluate RUN_DIR --games N``);
* ``policy_agent``: ``PolicyAgent(path)``, a trained checkpoint behind the agent interface;
* ``checkpoints``: the run-directory layout and how a run directory resolves to a model;
* ``agent_codes``: the agent codes ``policy:<path>`` and ``rllib:<path>``, registered with
  ``blackangel_env.agents.codes`` when this package is imported.

Imports of torch / Stable-Baselines3 happen inside these modules, so ``import blackangel_env.training`` stays light.
"""

from . import agent_codes  # noqa: F401  (registers policy:<path> and rllib:<path> with agents.make_agent)
