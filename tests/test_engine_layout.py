"""The engine package's layout (docs/engine.md): one module per rule area over a bottom layer, imports one way.

* no import cycle among the engine's modules, counting imports inside functions too;
* the order of ``engine._MODULES`` is a layering: each module imports only modules listed before it;
* the bottom layer (``core``, ``decks``, ``dice``, ``space``, ``phases``) imports no rule module,
  and ``core`` imports no engine module at all;
* the engine imports nothing above it (encodings, environments, agents) nor the old module paths
  ``blackangel_env.hal`` / ``blackangel_env.scoring``, which are thin re-exports of it;
* every phase has its functions, in one module;
* the names callers use from ``engine``, ``hal`` and ``scoring`` still resolve.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from blackangel_env import engine, hal, scoring
from blackangel_env.state import PHASE_NAMES, PH_GAME_OVER

PKG = Path(engine.__file__).parent
BOTTOM = ("ship_moves", "kernels", "core", "decks", "dice", "space", "phases")
ALLOWED_OUTSIDE = {"actions", "board", "components", "config", "constants", "state",   # below the engine
                   "generator_state",  # the raw generator snapshots that state.py takes its copies' generators from
                   "_cython_shim"}     # the interpreted stand-in for ``cython`` (blackangel_env._compiled)


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """(engine modules imported, other blackangel_env modules imported) by one file, anywhere in it."""
    inner, outer = set(), set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:                      # from .x import ... / from . import x
                if node.module:
                    inner.add(node.module.split(".")[0])
                else:
                    inner.update(a.name for a in node.names)
            elif node.level == 2:                    # from ..x import ... / from .. import x
                outer.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
            elif node.level == 0 and node.module and node.module.startswith("blackangel_env"):
                parts = node.module.split(".")
                (inner if parts[1:2] == ["engine"] else outer).add(parts[2] if parts[1:2] == ["engine"] and
                                                                   len(parts) > 2 else parts[1] if len(parts) > 1
                                                                   else "blackangel_env")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("blackangel_env"):
                    outer.add(a.name)
    return inner, outer


GRAPH = {p.stem: _imports(p) for p in PKG.glob("*.py") if p.stem != "__init__"}


def test_every_module_is_listed_in_layer_order():
    assert sorted(m.__name__.rsplit(".", 1)[1] for m in engine._MODULES) == sorted(GRAPH)


def test_no_import_cycle():
    seen: dict[str, int] = {}          # 1: on the current path, 2: done

    def visit(m: str, path: list[str]) -> None:
        if seen.get(m) == 2:
            return
        if seen.get(m) == 1:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(m):] + [m]))
        seen[m] = 1
        for n in sorted(GRAPH[m][0]):
            visit(n, path + [m])
        seen[m] = 2

    for m in sorted(GRAPH):
        visit(m, [])


def test_modules_import_only_the_layers_below():
    order = [m.__name__.rsplit(".", 1)[1] for m in engine._MODULES]
    for i, m in enumerate(order):
        above = set(GRAPH[m][0]) - set(order[:i])
        assert not above, f"engine.{m} imports {sorted(above)}, listed after it in engine._MODULES"


def test_bottom_layer_imports_no_rule_module():
    assert GRAPH["core"][0] == set()
    for m in BOTTOM:
        assert GRAPH[m][0] <= set(BOTTOM), f"engine.{m} imports rule modules {sorted(GRAPH[m][0] - set(BOTTOM))}"


def test_engine_imports_nothing_above_it():
    for m, (_, outer) in GRAPH.items():
        assert outer <= ALLOWED_OUTSIDE, f"engine.{m} imports {sorted(outer - ALLOWED_OUTSIDE)}"


def test_old_module_paths_are_thin_re_exports():
    for path in (PKG.parent / "hal.py", PKG.parent / "scoring.py"):
        tree = ast.parse(path.read_text())
        defs = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        assert defs == ["__getattr__"], f"{path.name} defines {defs}"


def test_every_phase_has_its_functions_in_one_module():
    engine.phases.check_complete()
    for ph in range(len(PHASE_NAMES)):
        legal, do = engine.phases._LEGAL[ph], engine.phases._APPLY[ph]
        if ph != PH_GAME_OVER:
            assert legal.__module__ == do.__module__, PHASE_NAMES[ph]


# Names used from the engine by the tests, agents, training, notebooks and benchmarks (and a few more of the
# former single module), which must keep resolving.
ENGINE_NAMES = (
    "new_game", "legal_actions", "legal_mask", "apply", "apply_unchecked", "IllegalActionError", "final_scores",
    "winners", "is_final_turn", "a2_possible", "advance_black_angel", "place_mission", "reset_board", "gain_vp",
    "gain_goods", "seat_name", "A", "black_angel_hex", "M_TURN_PLAYER", "_effective", "_can_pay", "_guarded",
    "_a2_still_possible", "_die_uses", "_selectable_dice", "_dispatch", "_roll_robots", "_draw_mission",
    "_refill_adv_slot", "_damage_die", "_damage_action", "_can_place_at", "_log", "SEQ_A", "SEQ_B", "FLIP",
)


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_engine_names_still_resolve(name):
    assert getattr(engine, name) is not None
    exec(f"from blackangel_env.engine import {name}", {})


def test_hal_and_scoring_names_still_resolve():
    assert hal.hal_turn is engine.hal.hal_turn and hal.hal_gain is engine.core.hal_gain
    assert hal.hal_free_activation is engine.hal.hal_free_activation and hal._pick_die is engine.hal._pick_die
    assert scoring.finish_game is engine.end.finish_game
    assert scoring.score_breakdown is engine.end.score_breakdown
    assert scoring.advanced_tiles_detail is engine.end.advanced_tiles_detail
    assert scoring._elements is engine.end._elements
    with pytest.raises(AttributeError):
        engine.no_such_name  # noqa: B018
