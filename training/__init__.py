"""Deprecated name of ``blackangel_env.training`` (docs/architecture.md, "The installed names").

The training code moved into the package ``blackangel_env``; this folder, in the repository only (the wheel does
not install it), keeps the old names working from a source checkout for one release, with a
``DeprecationWarning``: ``import training`` and ``import training.<module>`` give the modules of
``blackangel_env.training`` themselves (``training.policies`` is ``blackangel_env.training.policies`` in
``sys.modules``), and ``python -m training.<script> ...`` runs ``python -m blackangel_env.training.<script> ...``.

Saved models that name ``training.policies`` or ``training.rllib_module`` load without this folder
(``blackangel_env.training.checkpoints.old_module_names``).
"""

import importlib
import runpy
import sys
import warnings

warnings.warn("the package 'training' is now 'blackangel_env.training': import blackangel_env.training, run "
              "python -m blackangel_env.training.<script> (the old name works from a source checkout only, and will "
              "be removed)", DeprecationWarning, stacklevel=2)

import blackangel_env.training as _new  # noqa: E402


def __getattr__(name: str):
    return getattr(_new, name)                  # agent_codes and the other submodules once imported


def _alias(name: str, spec) -> None:
    """Called by each file here: imported, the module ``training.<x>`` is ``blackangel_env.training.<x>``; run as
    ``python -m training.<x>``, it runs ``blackangel_env.training.<x>`` (its ``main``)."""
    new = f"blackangel_env.{spec.name}"
    if name != "__main__":
        sys.modules[name] = importlib.import_module(new)
        return
    warnings.warn(f"python -m {spec.name} is now python -m {new} (the old name works from a source checkout only, "
                  "and will be removed)", DeprecationWarning, stacklevel=2)
    module = importlib.import_module(new)
    if callable(getattr(module, "main", None)):
        sys.exit(module.main())
    runpy.run_module(new, run_name="__main__", alter_sys=True)
