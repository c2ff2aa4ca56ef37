"""Training scripts for agents on blackangel_env.

* ``train_ppo``: MaskablePPO on the solo game against Hal (``python -m training.train_ppo --config ...``);
* ``config``: the YAML config schema, validation and ``--set key=value`` overrides;
* ``policies``: ``EntityExtractor``, a structured SB3 feature extractor built from the observation's slices;
* ``evaluate``: play a checkpoint against Hal (``python -m training.evaluate RUN_DIR --games N``);
* ``policy_agent``: ``PolicyAgent(path)``, a trained checkpoint behind the agent interface;
* ``checkpoints``: the run-directory layout and how a run directory resolves to a model.

Imports of torch / Stable-Baselines3 happen inside these modules, so ``import training`` stays light.
"""
